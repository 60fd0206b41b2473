"""The library: every evlogic command as a typed Python function.

Each command of the command line is a function here, named like it
(``evlogic board-report`` is :func:`evlogic.board_report`), taking the
command's positional argument first and its options as keyword arguments
named like the flags (dashes as underscores).  Each returns a frozen
dataclass whose ``to_json()`` is the command's ``--format json`` output
(without the final newline), or, for a command that prints no JSON, its
data as JSON and a method giving the command's own output (``.svg``,
``.html``, ``.to_text()``).  Bad input raises :class:`evlogic.InputError`
with the message the command line prints after ``evlogic: error:``.

The command line (evlogic/commands/) parses, calls one of these, and
renders; what belongs to the process only (``--memory-limit``, a
command's overall ``--timeout``, ``--format``, ``-o``) stays there.

- :mod:`evlogic.api.scoring`: score, explain, diagram, verify, batch, sample
- :mod:`evlogic.api.searches`: check, diff, board_report, layout
- :mod:`evlogic.api.pages`: rulebook
- :mod:`evlogic.api.simulation`: play, balance, tune, solve, and game_state (a
  game moved on move by move: no command, the API of docs/play.md)

They are imported on first use from the package itself::

    import evlogic
    evlogic.score("examples/rulebook/full-example.yaml").report.players[0].total  # 39
"""
