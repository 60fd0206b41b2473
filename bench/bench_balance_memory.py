"""Benchmark: balance's report keeps no list of games (peak memory flat in --games).

Plays K real games (default 1,000) of examples/lakeland, 2 players, under
two rule sets once (evlogic balance --games-out), then sums N of them into
the report (evlogic.reports.balance.balance_report: the tallies and the
paired differences), each in a fresh process whose peak resident memory
(ru_maxrss) is read: N = K and N = 100 K, the records cycled with their
game numbers moved on, in the order balance plays them.  Playing 100,000
games for real takes about half an hour; the report is the part whose
memory grew with the games (the play streams them).  Target: the peak at
100 K within 10 MB of the peak at K.

Run:  python bench/bench_balance_memory.py [--games K] [--times T]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
LAKELAND = REPO / "examples" / "lakeland" / "board.yaml"


def child(path: str, times: int) -> None:
    from evlogic.reports.balance import BalanceHeading, balance_report

    lines = Path(path).read_text().splitlines()
    games = len(lines) // 2

    def records() -> Iterator[dict]:
        for turn in range(times):
            for line in lines:  # parsed again each time: nothing kept
                record = json.loads(line)
                record["game"] += turn * games
                yield record

    heading = BalanceHeading("lakeland", 2, ("greedy",), "snake", games * times, 0)
    started = time.perf_counter()
    report = balance_report(heading, records())
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert report["rule_sets"][0]["games"] == games * times
    print(json.dumps({"games": games * times, "peak_mb": round(peak, 1), "seconds": seconds}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--times", type=int, default=100)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    with tempfile.TemporaryDirectory() as folder:
        games = Path(folder) / "games.jsonl"
        subprocess.run(
            [
                *(sys.executable, "-m", "evlogic", "balance", "--board", str(LAKELAND)),
                *("--players", "2", "--rules", "standard", "--rules", "gentle-siege"),
                *("--games", str(args.games), "--games-out", str(games)),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        rows = []
        for times in (1, args.times):
            done = subprocess.run(
                [sys.executable, __file__, "--child", str(games), str(times)],
                check=True,
                capture_output=True,
                text=True,
            )
            rows.append(json.loads(done.stdout))
    for row in rows:
        print(
            f"{row['games']:>9,} games a rule set: peak {row['peak_mb']:7.1f} MB, "
            f"report {row['seconds']:6.1f} s"
        )
    grown = rows[1]["peak_mb"] - rows[0]["peak_mb"]
    print(f"grown by {grown:.1f} MB (target: at most 10)")


if __name__ == "__main__":
    main()
