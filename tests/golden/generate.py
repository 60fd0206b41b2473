"""Write the golden outputs of every command line in commands.txt.

Run from anywhere: python tests/golden/generate.py.  Each line's exit code,
standard output and standard error land in outputs/NN.txt; the test
(tests/test_golden.py) runs the same lines and compares byte for byte, so a
refactoring that changes what any command prints fails it.  Regenerate only
when a change of output is the point, and say so in the commit.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUTPUTS = HERE / "outputs"

#: Wall-clock figures, the only part of an output that may differ run to run.
TIMINGS = (
    (re.compile(r'"seconds": [0-9.]+'), '"seconds": {time}'),
    (re.compile(r"\b(in|proved in|found in) [0-9]+\.[0-9]+ s\b"), r"\1 {time} s"),
)


def masked(text: str) -> str:
    """``text`` with its timings replaced by a placeholder."""
    for pattern, replacement in TIMINGS:
        text = pattern.sub(replacement, text)
    return text


def command_lines() -> list[list[str]]:
    """The command lines of commands.txt, comments and blanks left out."""
    lines = (HERE / "commands.txt").read_text().splitlines()
    return [shlex.split(line) for line in lines if line.strip() and not line.startswith("#")]


def run(args: list[str]) -> str:
    """Run ``evlogic ARGS`` in-process from the repository; the golden text."""
    from evlogic.cli import main

    out, err = io.StringIO(), io.StringIO()
    cwd = Path.cwd()
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "out"
        os.chdir(REPO)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main([arg.replace("{out}", str(written)) for arg in args])
                except SystemExit as exit_:
                    code = int(exit_.code or 0)
        finally:
            os.chdir(cwd)
        text = (
            f"$ evlogic {shlex.join(args)}\nexit {code}\n"
            f"--- stdout\n{out.getvalue()}--- stderr\n{err.getvalue()}"
        )
        if "{out}" in " ".join(args):
            file_text = written.read_text() if written.exists() else "(not written)\n"
            text += f"--- {{out}}\n{file_text.replace(folder, '{folder}')}"
    return masked(text.replace(str(REPO), "{repo}"))


def output_path(number: int) -> Path:
    return OUTPUTS / f"{number:02d}.txt"


def main() -> None:
    OUTPUTS.mkdir(exist_ok=True)
    for stale in OUTPUTS.glob("*.txt"):
        stale.unlink()
    for number, args in enumerate(command_lines(), 1):
        output_path(number).write_text(run(args))
        print(f"{number:02d} evlogic {shlex.join(args)}", file=sys.stderr)


if __name__ == "__main__":
    main()
