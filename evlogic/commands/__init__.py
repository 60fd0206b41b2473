"""The evlogic commands, one module each: its help text, ``register`` (its
parser) and ``run``.  COMMANDS is the order ``evlogic --help`` lists them."""

from evlogic.commands import (
    batch,
    board,
    board_report,
    check,
    diagram,
    diff,
    explain,
    sample,
    schema,
    score,
    serve,
    stats,
    verify,
)

# A command's module imports the modules its run needs inside run, so that
# `evlogic score` starts as fast as it can.

COMMANDS = (
    score,
    explain,
    diagram,
    batch,
    sample,
    stats,
    verify,
    board_report,
    check,
    diff,
    serve,
    board,
    schema,
)
