"""Every command's output on the examples, byte for byte, as it was.

tests/golden/commands.txt lists command lines (every command, text and
JSON, errors too); tests/golden/outputs/ holds what each printed: exit code,
standard output, standard error and any file it wrote, wall-clock figures
masked.  A refactoring that changes what a user sees fails here; a change of
output that is the point regenerates the files (python
tests/golden/generate.py) in the same commit.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))

import generate

LINES = generate.command_lines()


def test_every_command_has_a_golden_output():
    commands = {args[0] for args in LINES}
    from evlogic.cli import build_parser

    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if a.dest == "command"]
    assert set(subparsers.choices) - {"serve"} <= commands
    assert sorted(generate.OUTPUTS.glob("*.txt")) == [
        generate.output_path(number) for number in range(1, len(LINES) + 1)
    ]


@pytest.mark.parametrize(
    ("number", "args"),
    list(enumerate(LINES, 1)),
    ids=[shlex.join(args)[:60] for args in LINES],
)
def test_the_output_is_as_recorded(number, args):
    assert generate.run(args) == generate.output_path(number).read_text()
