"""The ASP bridge: facts and symbols in, clingo, atoms out.

``facts`` turns boards and positions into facts, ``solver`` grounds and
solves the rule files, ``search`` finds positions (check, diff), ``cone``
reads what a search's programs need, ``compiled`` drives the compiled batch
encoding (rules/batch/).  Nothing here imports evlogic.reports: scoring a
game into a report is evlogic.reports.score.
"""
