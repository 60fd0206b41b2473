"""Benchmark for the searches of `evlogic check` and `evlogic diff` (issue:
rule variants and verification), on the 51-state board.

One run each (a search either answers or hits its time limit), against the
targets: `diff --rules standard --rules union-cores` returns the minimal
total-difference witness in < 10 s; `check own-monotone --players 2` and
`check bonus-bounds --players 4` each finish (proof or counterexample) in
< 60 s.  Also the board report and verify, for scale.

Run:  python bench/bench_search.py [--timeout S]
"""

from __future__ import annotations

import argparse
import time

from timing import print_rows

from evlogic.boardreport import board_report
from evlogic.boards import load_board
from evlogic.check import check
from evlogic.diff import diff
from evlogic.resources import bundled_boards
from evlogic.rulesets import load_rule_set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    usa = load_board(bundled_boards()["usa"])
    standard, union = load_rule_set("standard"), load_rule_set("union-cores")
    rows = []

    found = diff(
        standard, "standard", union, "union-cores", usa, "usa", players=1, timeout=args.timeout
    ).total_diff
    owned = (
        sum(1 + len(player["states"]) for player in found.counterexample["players"])
        if found.counterexample
        else None
    )
    rows.append(
        (
            "diff standard union-cores (1 player), total",
            f"{found.result}, {owned} states" + (", smallest" if found.smallest else ""),
            found.seconds,
            "< 10 s, smallest witness of 5",
            found.result == "differs" and found.smallest and owned == 5 and found.seconds < 10,
        )
    )
    for name, players in (("own-monotone", 2), ("bonus-bounds", 4)):
        result = check(
            name, usa, "usa", standard, "standard", players=players, timeout=args.timeout
        )
        rows.append(
            (
                f"check {name} --players {players}",
                result.result,
                result.seconds,
                "< 60 s, answered",
                result.result != "unknown" and result.seconds < 60,
            )
        )
    start = time.perf_counter()
    board_report(usa, standard)
    rows.append(("board-report usa", "done", time.perf_counter() - start, "(none)", True))

    table = [("case", "answer", "seconds", "target", "")] + [
        (case, answer, f"{seconds:.1f}", target, "ok" if met else "MISSED")
        for case, answer, seconds, target, met in rows
    ]
    print_rows(f"evlogic search benchmark (time limit {args.timeout:.0f} s)", table)


if __name__ == "__main__":
    main()
