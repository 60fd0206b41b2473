"""Regenerate docs/play.md's table of the standard rules under each move
model: ``evlogic.balance`` on usa, 4 greedy players, snake order, the
command's default 1,000 games and seed 0, once a bundled model.

The table lies between two markers in docs/play.md::

    <!-- [[[models]]] -->
    | Model | ...
    <!-- [[[end models]]] -->

    python docs/generate_models_table.py           # rewrite docs/play.md
    python docs/generate_models_table.py --check   # exit 1 if it is stale

Three runs of 1,000 games take minutes: tests/test_docs.py runs the check
under the ``slow`` marker.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "play.md"
BLOCK = re.compile(r"(<!-- \[\[\[models\]\]\] -->\n)(.*?)(<!-- \[\[\[end models\]\]\] -->)", re.S)
MODELS = ("draft", "market", "campaign")
GAMES = 1000


def table(jobs: int = 2) -> str:
    """The markdown table, from three real balance runs."""
    import evlogic

    rows = [
        "| Model | Seat 1 | Seat 2 | Seat 3 | Seat 4 | First mover's advantage | "
        "Strongest home | Weakest home | Bonus decides | Siege decides |",
        "|---|---:|---:|---:|---:|---:|---|---|---:|---:|",
    ]
    for model in MODELS:
        report = evlogic.balance(games=GAMES, moves=model, jobs=jobs)
        figures = report.rule_sets[0]
        seats = [f"{100 * seat.rate:.1f}%" for seat in figures.seat_win_rate]
        first = figures.first_seat_advantage
        homes = sorted(figures.home_win_rate, key=lambda home: (-home.rate, home.home))
        strongest, weakest = homes[0], homes[-1]
        rows.append(
            f"| `{model}` | "
            + " | ".join(seats)
            + f" | {100 * first.value:+.1f} points "
            + f"[{100 * first.low:+.1f}, {100 * first.high:+.1f}]"
            + f" | {strongest.home} {100 * strongest.rate:.1f}%"
            + f" | {weakest.home} {100 * weakest.rate:.1f}%"
            + f" | {100 * figures.bonus_decides.rate:.1f}%"
            + f" | {100 * figures.siege_decides.rate:.1f}% |"
        )
    return "\n".join(rows) + "\n"


def regenerate(page: str, jobs: int = 2) -> str:
    if not BLOCK.search(page):
        raise SystemExit("docs/play.md has no [[[models]]] block")
    made = table(jobs)
    return BLOCK.sub(lambda match: match.group(1) + made + match.group(3), page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/play.md is stale")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    page = PAGE.read_text(encoding="utf-8")
    made = regenerate(page, args.jobs)
    if args.check:
        sys.exit(0 if made == page else 1)
    PAGE.write_text(made, encoding="utf-8")
    print("docs/play.md: regenerated")


if __name__ == "__main__":
    main()
