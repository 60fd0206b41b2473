"""evlogic tune on the usa board: the space of bench/spaces/usa-space.yaml
(243 candidates), 4 greedy players, at a budget a designer would give it.

Prints the budget, the games played, the wall time, and how far the best
candidate's first-seat advantage and home spread moved from the standard
rules' (each played the same games, with its interval).

    python bench/bench_tune.py                 # --budget 4000 --games 200 --jobs 2
    python bench/bench_tune.py --budget 1000 --jobs 1
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    space = HERE / "spaces" / "usa-space.yaml"
    started = time.monotonic()
    tuned = subprocess.run(
        [
            sys.executable,
            "-m",
            "evlogic",
            "tune",
            str(space),
            "--budget",
            str(args.budget),
            "--games",
            str(args.games),
            "--jobs",
            str(args.jobs),
            "--format",
            "json",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    document = json.loads(tuned.stdout)
    rounds = ", ".join(f"{r['candidates']} x {r['games']}" for r in document["rounds"])
    print(
        f"space: {document['candidates_tried']} candidates; budget {args.budget} games, "
        f"{document['games_played']} played ({rounds}); {seconds:.0f} s with --jobs {args.jobs}"
    )
    if document["best"] is None:
        print("no candidate met every requirement")
        return
    best = document["front"][document["best"]]
    games = best["games"]
    balance = subprocess.run(
        [
            sys.executable,
            "-m",
            "evlogic",
            "balance",
            "--games",
            str(games),
            "--jobs",
            str(args.jobs),
            "--format",
            "json",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    from evlogic.reports.tune import first_seat_advantage, home_spread

    standard = json.loads(balance.stdout)["rule_sets"][0]
    theirs = {
        "first_seat_advantage": first_seat_advantage(standard),
        "home_spread": home_spread(standard),
    }
    numbers = {k: v for k, v in best["rule_set"].items() if k not in ("name", "extends")}
    print(f"best: {best['rule_set']['name']} {numbers}; requirements {best['requirements']}")
    print(f"{'objective':22}  {'standard':>22}  {'best':>22}")
    for name in ("first_seat_advantage", "home_spread"):
        s, b = theirs[name], best["objectives"][name]
        print(f"{name:22}  {_shown(s):>22}  {_shown(b):>22}")


def _shown(interval: dict) -> str:
    return (
        f"{100 * interval['value']:.1f} [{100 * interval['low']:.1f}, {100 * interval['high']:.1f}]"
    )


if __name__ == "__main__":
    main()
