"""Soak test for `evlogic batch` (nothing lost in batch).

200,000 lines (usa, 4 players, 36 states won, from `evlogic sample`), with a
bad line every 1,000 of several kinds: JSON nested 100,000 deep, a
5,000-digit integer, a board file whose EV is an impossible date, one whose
EV is `!!int abc`, a board outside the input's folder (/etc/passwd), broken
JSON, an unknown state; and, rarer because each costs seconds, a rule set
whose grounding runs out of memory and one that runs past the time limit.
`--jobs 2`, while a helper thread SIGKILLs a busy worker now and then.

Asserts: every line number present once and in order; exactly the bad
lines are errors (one line of text each); every good line has totals, and
a sample of them matches the plain Python scorer of tests/; the run ends
(an overall time limit) with exit status 1 and nothing on stderr.

Run:  python bench/soak_batch.py [--lines N] [--every K] [--kills N] [--limit S]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from timing import print_rows  # noqa: E402

from evlogic.batching.sample import sample_games  # noqa: E402
from evlogic.loading.boards import load_board  # noqa: E402
from evlogic.resources import bundled_boards  # noqa: E402
from plain_scorer import score_position  # noqa: E402

#: Bad-line kinds in turn; "memory" and "slow" only every RARE-th bad line.
KINDS = ["deep", "digits", "bad date", "bad tag", "outside", "broken", "unknown state"]
RARE = 40


def write_folder(folder: Path) -> None:
    """The board and rule set files the bad lines name, beside the input."""
    (folder / "bad-date.yaml").write_text("states:\n  KY: {ev: 2001-02-30}\n")
    (folder / "bad-tag.yaml").write_text("states:\n  KY: {ev: !!int abc}\n")
    (folder / "bomb.lp").write_text("bomb(X, f(X, X + 1, X + 2, X + 3)) :- X = 1..100000000.\n")
    (folder / "bomb.yaml").write_text("name: bomb\nextends: standard\nprograms: [bomb.lp]\n")
    (folder / "slow.lp").write_text(
        "{ hole(P, H) : H = 1..11 } = 1 :- P = 1..12.\n:- hole(P, H), hole(Q, H), P < Q.\n"
    )
    (folder / "slow.yaml").write_text("name: slow\nextends: standard\nprograms: [slow.lp]\n")


def bad_line(kind: str) -> str:
    player = [{"name": "A", "home": "KY"}]
    return {
        "deep": "[" * 100_000 + "]" * 100_000,
        "digits": '{"board": "usa", "players": [' + "7" * 5000 + "]}",
        "bad date": json.dumps({"board": "bad-date.yaml", "players": player}),
        "bad tag": json.dumps({"board": "bad-tag.yaml", "players": player}),
        "outside": json.dumps({"board": "/etc/passwd", "players": player}),
        "broken": '{"board": "usa", "players": [',
        "unknown state": json.dumps({"board": "usa", "players": [{"name": "A", "home": "XX"}]}),
        "memory": json.dumps({"board": "usa", "players": player, "rules": "bomb.yaml"}),
        "slow": json.dumps({"board": "usa", "players": player, "rules": "slow.yaml"}),
    }[kind]


def write_input(path: Path, lines: int, every: int) -> dict[int, str]:
    """The input; returns the bad lines' numbers and kinds."""
    usa = load_board(bundled_boards()["usa"])
    games = sample_games(usa, "usa", 4, lines - lines // every, seed=5)
    bad: dict[int, str] = {}
    with path.open("w") as out:
        for number in range(1, lines + 1):
            if number % every:
                out.write(json.dumps(next(games)) + "\n")
                continue
            turn = number // every
            if turn % RARE == RARE // 2:
                kind = "memory"
            elif turn % RARE == 0:
                kind = "slow"
            else:
                kind = KINDS[turn % len(KINDS)]
            bad[number] = kind
            out.write(bad_line(kind) + "\n")
    return bad


def workers_of(pid: int) -> list[int]:
    """Busy-looking worker processes of the batch (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and b"spawn_main" in command and fields[0] == "R":
            found.append(int(entry))
    return found


def killer(pid: int, kills: int, every: float, done: threading.Event, log: list[float]) -> None:
    """SIGKILL a running worker every ``every`` seconds, ``kills`` times."""
    start = time.monotonic()
    rng = random.Random(1)
    while len(log) < kills and not done.wait(every):
        busy = workers_of(pid)
        if busy:
            os.kill(rng.choice(busy), signal.SIGKILL)
            log.append(time.monotonic() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--every", type=int, default=1000, help="a bad line every K lines")
    parser.add_argument("--kills", type=int, default=5, help="workers to SIGKILL")
    parser.add_argument("--kill-every", type=float, default=15.0, help="seconds between kills")
    parser.add_argument("--limit", type=float, default=1800.0, help="overall seconds")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="soak-"))
    write_folder(folder)
    games, out = folder / "games.jsonl", folder / "out.jsonl"
    bad = write_input(games, args.lines, args.every)

    command = [sys.executable, "-m", "evlogic", "batch", str(games), "-o", str(out)]
    command += ["--jobs", "2", "--memory-limit", "600", "--timeout", "10"]
    start = time.monotonic()
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    done, kill_times = threading.Event(), []
    thread = threading.Thread(
        target=killer, args=(process.pid, args.kills, args.kill_every, done, kill_times)
    )
    thread.start()
    try:
        _, err = process.communicate(timeout=args.limit)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit(f"HANG: batch still running after {args.limit:g} s") from None
    finally:
        done.set()
        thread.join()
    seconds = time.monotonic() - start

    assert (process.returncode, err) == (1, ""), (process.returncode, err)
    usa = load_board(bundled_boards()["usa"])
    board = {
        s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
        for s in usa.states.values()
    }
    expected_numbers = iter(range(1, args.lines + 1))
    errors: dict[int, str] = {}
    checked = 0
    with games.open() as inputs, out.open() as outputs:
        for text, line in zip(inputs, outputs, strict=True):
            report = json.loads(line)
            number = next(expected_numbers)
            assert report["line"] == number, (report.get("line"), number)
            if "error" in report:
                assert "\n" not in report["error"] and "Traceback" not in report["error"]
                errors[number] = report["error"]
                continue
            assert all("total" in player for player in report["players"]), number
            if number % 997 == 0:
                game = json.loads(text)
                plain = score_position(board, game["players"], usa.game_end)
                assert [p["total"] for p in report["players"]] == [
                    p["total"] for p in plain["players"]
                ], number
                assert report["winners"] == plain["winners"], number
                checked += 1
    assert set(errors) == set(bad), sorted(set(errors) ^ set(bad))[:10]
    assert all("secret" not in error and "root:" not in error for error in errors.values())

    kinds = sorted(set(bad.values()))
    at = ", ".join(f"{t:.0f}" for t in kill_times)
    rows = [
        ("lines", f"{args.lines:,}"),
        ("bad lines (errors in place)", f"{len(bad)} of {len(kinds)} kinds: {', '.join(kinds)}"),
        ("workers killed", f"{len(kill_times)} (at {at} s)"),
        ("good lines checked against the plain scorer", f"{checked}"),
        ("lines lost", "0"),
        ("wall time", f"{seconds:.0f} s ({args.lines / seconds:,.0f} lines/s)"),
    ]
    print_rows("evlogic batch soak: --jobs 2, nothing lost, no hang", [("", ""), *rows])


if __name__ == "__main__":
    main()
