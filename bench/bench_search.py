"""Benchmark for the searches of `evlogic check` and `evlogic diff`: proofs
at the default settings in seconds, for up to four players, on the 51-state
board, at the settings a user types (default time limit 60 s).

The targets: each answer proved (a smallest witness, equivalence, or holds),
never `unknown`, within its time.  Each case runs `--runs` times; the table
gives the median seconds and every run's answer.  `--matrix` adds every
bundled property and every bundled variant's diff against standard, players
1-4, one run each at a 120 s limit (none may be unknown; "UNKNOWN" in its
last column marks any answer not proved, a witness not proved smallest
included), each row also on standard error as it comes.

Run:  python bench/bench_search.py [--runs N] [--matrix] [--timeout S] [--busy N]
The machine is shared: the load average is printed with the table; --busy N
runs N busy loops beside the searches (a loaded machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import print_rows

from evlogic.asp.search import TimeLimit
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import bundled_rule_sets, load_rule_set
from evlogic.reports.check import check
from evlogic.reports.diff import diff
from evlogic.resources import bundled_boards, bundled_properties


def owned(game: dict | None) -> str:
    if game is None:
        return ""
    return f" {sum(1 + len(player['states']) for player in game['players'])} states"


def run_diff(usa, other: str, players: int, timeout: float) -> tuple[str, float, bool]:
    """(answer, seconds, proved) of `diff --rules standard --rules OTHER`."""
    standard = load_rule_set("standard")
    other_rules = load_rule_set(other)
    limit = TimeLimit(timeout)
    result = diff(standard, "standard", other_rules, other, usa, "usa", players, limit)
    parts, proved = [], True
    for name, search in (("total", result.total_diff), ("winner", result.winner_diff)):
        done = search.result == "equivalent" or (search.result == "differs" and search.smallest)
        proved = proved and done
        parts.append(f"{name} {search.result}{owned(search.counterexample)}")
    seconds = max(result.total_diff.seconds, result.winner_diff.seconds)
    return ", ".join(parts), seconds, proved


def run_check(usa, name: str, players: int, timeout: float) -> tuple[str, float, bool]:
    standard = load_rule_set("standard")
    limit = TimeLimit(timeout)
    result = check(name, usa, "usa", standard, "standard", players=players, limit=limit)
    proved = result.result == "holds" or (result.result == "counterexample" and result.smallest)
    return result.result + owned(result.counterexample), result.seconds, proved


#: A property of a user's (not bundled) whose smallest counterexample is the
#: homes alone, slow to prove smallest for a search that counted the homes
#: in its #minimize (rules/search/smallest.lp counts only the other states).
HOMES_TOUCH = "violation :- home(0, 1, S), owned(0, 0, T), adjacent(S, T).\n"


def run_user_check(usa, text: str, players: int, timeout: float) -> tuple[str, float, bool]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "homes-touch.lp"
        path.write_text(text)
        return run_check(usa, str(path), players, timeout)


TARGETS = (
    ("diff standard union-cores", lambda usa, t: run_diff(usa, "union-cores", 2, t), 10.0),
    # the everyday diffs: well within the default 60 s on a busy machine (--busy 2)
    ("diff standard gentle-siege", lambda usa, t: run_diff(usa, "gentle-siege", 2, t), 20.0),
    ("diff standard open-region", lambda usa, t: run_diff(usa, "open-region", 2, t), 20.0),
    ("diff standard flat-tiers", lambda usa, t: run_diff(usa, "flat-tiers", 2, t), 20.0),
    (
        "diff standard union-cores --players 4",
        lambda usa, t: run_diff(usa, "union-cores", 4, t),
        60.0,
    ),
    ("check own-monotone --players 2", lambda usa, t: run_check(usa, "own-monotone", 2, t), 10.0),
    ("check own-monotone --players 4", lambda usa, t: run_check(usa, "own-monotone", 4, t), 60.0),
    (
        "check region-connected --players 2",
        lambda usa, t: run_check(usa, "region-connected", 2, t),
        30.0,
    ),
    (
        "check homes-touch.lp --players 3",
        lambda usa, t: run_user_check(usa, HOMES_TOUCH, 3, t),
        10.0,
    ),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--matrix", action="store_true")
    parser.add_argument(
        "--busy", type=int, default=0, help="busy loops running beside (a loaded machine)"
    )
    args = parser.parse_args()
    usa = load_board(bundled_boards()["usa"])
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        targets(args, usa)
    finally:
        for process in busy:
            process.kill()
            process.wait()


def targets(args: argparse.Namespace, usa) -> None:
    busy = f", {args.busy} busy loops beside" if args.busy else ""
    load = f"load average {os.getloadavg()[0]:.1f} at the start{busy}"
    table = [("case", "answers", "median s", "target", "")]
    for case, run, target in TARGETS:
        results = [run(usa, args.timeout) for _ in range(args.runs)]
        median = statistics.median(seconds for _answer, seconds, _proved in results)
        met = all(proved for _a, _s, proved in results) and median < target
        answers = "; ".join(sorted({answer for answer, _s, _p in results}))
        table.append(
            (case, answers, f"{median:.1f}", f"< {target:g} s, proved", "ok" if met else "MISSED")
        )
    print_rows(f"evlogic search targets, {args.runs} runs, {load}", table)
    if not args.matrix:
        return
    print()
    table = [("case", "players", "answer", "seconds", "")]
    cases = [(f"check {name}", name, run_check) for name in bundled_properties()]
    cases += [
        (f"diff standard {name}", name, run_diff)
        for name in bundled_rule_sets()
        if name != "standard"
    ]
    for case, name, run in cases:
        for players in (1, 2, 3, 4):
            answer, seconds, proved = run(usa, name, players, 120.0)
            row = (case, str(players), answer, f"{seconds:.1f}", "ok" if proved else "UNKNOWN")
            table.append(row)
            # each row as it comes (a run may not last the whole matrix)
            print("  ".join(row), file=sys.stderr, flush=True)
    print_rows(
        f"every bundled property and variant, 120 s limit, load {os.getloadavg()[0]:.1f} at end",
        table,
    )


if __name__ == "__main__":
    main()
