"""examples/notebook.py, the library from a notebook, runs and says true things.

Its rows are what pandas.DataFrame takes (records: one mapping a row, the
same keys, plain scalars) and are the balance report's seat table; its
check answers as the command line does.  pandas is not installed for this.
"""

from __future__ import annotations

import json
import runpy
import subprocess
import sys

import pytest

from conftest import REPO

SCRIPT = REPO / "examples" / "notebook.py"


@pytest.mark.slow
def test_the_notebook_example_runs_as_a_script():
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "standard" in done.stdout and "gentle-siege" in done.stdout
    assert "bonus-survives: counterexample on Lakeland" in done.stdout


def test_its_rows_are_records_of_the_seat_table_and_its_check_is_the_commands(cli):
    names = runpy.run_path(str(SCRIPT))  # run as a module: the cells, not __main__
    rows, report, answer = names["rows"], names["report"], names["answer"]
    assert rows and all(isinstance(row, dict) for row in rows)
    assert len({tuple(row) for row in rows}) == 1  # the same columns in every row
    assert all(isinstance(value, str | int | float) for row in rows for value in row.values())
    document = json.loads(report.to_json())
    expected = [
        {"rules": rule_set["rules"], "seat": seat["seat"], "win_rate": seat["rate"]}
        for rule_set in document["rule_sets"]
        for seat in rule_set["seat_win_rate"]
    ]
    assert [{k: row[k] for k in ("rules", "seat", "win_rate")} for row in rows] == expected
    assert sum(row["win_rate"] for row in rows) == pytest.approx(len(document["rule_sets"]))
    lakeland = REPO / "examples" / "lakeland"
    result = cli(
        "check", lakeland / "bonus-survives.lp", "--board", lakeland / "board.yaml",
        "--format", "json",
    )  # fmt: skip
    command, library = json.loads(result.out), json.loads(answer.to_json())
    command.pop("seconds"), library.pop("seconds")
    assert library == command
