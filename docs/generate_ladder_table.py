"""Regenerate docs/play.md's skill ladders: ``evlogic.ladder`` on usa, 2
players, the default agents weakest first, 100 deals a step (200 games),
seed 0, under the draft and the campaign.

The tables lie between two markers in docs/play.md::

    <!-- [[[ladder]]] -->
    | Model | Step | ...
    <!-- [[[end ladder]]] -->

    python docs/generate_ladder_table.py           # rewrite docs/play.md
    python docs/generate_ladder_table.py --check   # exit 1 if it is stale

Two ladders of 600 games, 400 of them with a planning agent, take some
ten minutes on two cores: tests/test_docs.py runs the check under the
``exhaustive`` marker.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "play.md"
BLOCK = re.compile(r"(<!-- \[\[\[ladder\]\]\] -->\n)(.*?)(<!-- \[\[\[end ladder\]\]\] -->)", re.S)
MODELS = ("draft", "campaign")
AGENTS = "random,face,greedy,lookahead"
DEALS = 100


def table(jobs: int = 2) -> str:
    """The markdown table, from two real ladders."""
    import evlogic

    rows = [
        "| Model | Step | Games | Stronger's win rate | Significant | Rating of the stronger |",
        "|---|---|---:|---:|---|---:|",
    ]
    for model in MODELS:
        report = evlogic.ladder(agents=AGENTS, games=DEALS, moves=model, jobs=jobs)
        for step, rating in zip(report.steps, report.ratings[1:], strict=True):
            rows.append(
                f"| `{model}` | {step.weaker} → {step.stronger} | {step.games} | "
                f"{100 * step.win_rate:.1f}% [{100 * step.low:.1f}, {100 * step.high:.1f}] | "
                f"{'yes' if step.significant else 'no'} | "
                f"{rating.rating:+.0f} [{rating.low:+.0f}, {rating.high:+.0f}] |"
            )
        rows.append(f"| `{model}` | depth | | | {report.depth} | |")
    return "\n".join(rows) + "\n"


def regenerate(page: str, jobs: int = 2) -> str:
    if not BLOCK.search(page):
        raise SystemExit("docs/play.md has no [[[ladder]]] block")
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
