"""evlogic from a notebook: a balance, its seat table as rows, a property.

Run it as a script (python examples/notebook.py) or cell by cell in Jupyter.
Every figure comes from the library calls, the same ones the commands make
(docs/api.md); pandas is not needed, but the rows are what
``pandas.DataFrame(rows)`` takes.
"""

from __future__ import annotations

from pathlib import Path

import evlogic

LAKELAND = Path(__file__).resolve().parent / "lakeland"

# --- a balance: two rule sets on Lakeland, the same deals ------------------
report = evlogic.balance(
    rules=["standard", "gentle-siege"],
    board=LAKELAND / "board.yaml",
    players=2,
    games=40,
    seed=1,
)

# --- its seat table as rows (one a rule set and seat) ----------------------
rows = [
    {
        "rules": figures.rules,
        "seat": seat.seat,
        "win_rate": seat.rate,
        "low": seat.low,
        "high": seat.high,
    }
    for figures in report.rule_sets
    for seat in figures.seat_win_rate
]
# import pandas; pandas.DataFrame(rows)   <- a table, if pandas is installed

# --- a property checked on the same board ----------------------------------
answer = evlogic.check(LAKELAND / "bonus-survives.lp", board=LAKELAND / "board.yaml")

if __name__ == "__main__":
    print(f"{'rules':<14} {'seat':>4} {'win rate':>9}  95% interval")
    for row in rows:
        print(
            f"{row['rules']:<14} {row['seat']:>4} {row['win_rate']:>9.1%}"
            f"  [{row['low']:.1%}, {row['high']:.1%}]"
        )
    print()
    print(answer.to_text(), end="")
