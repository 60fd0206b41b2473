"""Reports: what the rules derived, decoded and rendered.

Scoring a game (``score``), score reports and explanations decoded from
models, their text and JSON rendering, and the reports of the questions
built on scoring and the search: verify, board-report, check and diff,
and stats over batch output.  Nothing here decides a figure; it reads the
atoms the rules showed.
"""
