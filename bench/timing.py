"""Shared benchmark helpers: medians of repeated runs and a plain table."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence


def median_seconds(action: Callable[[], object], runs: int) -> float:
    action()  # warm-up: imports, caches, page faults
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved_medians(actions: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """Median seconds of each action, the actions taking turns run by run
    (after one warm-up each): on a shared machine whose speed drifts over
    minutes, ratios between them then compare the same minutes."""
    for action in actions.values():
        action()
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(runs):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(spent) for name, spent in times.items()}


def run_command(*args: str, env: Mapping[str, str] | None = None) -> Callable[[], object]:
    def run() -> None:
        subprocess.run(args, check=True, capture_output=True, env=env)

    return run


def print_table(title: str, rows: Sequence[tuple[str, float, str, float, str, bool]]) -> None:
    """rows: (case, seconds, baseline name, baseline seconds, target, met)."""
    header = ("case", "median", "baseline", "baseline median", "ratio", "target", "")
    table = [header] + [
        (
            case,
            f"{t * 1000:.1f} ms",
            base,
            f"{b * 1000:.1f} ms",
            f"{t / b:.2f}x",
            target,
            "ok" if met else "MISSED",
        )
        for case, t, base, b, target, met in rows
    ]
    print_rows(title, table)


def print_rows(title: str, table: Sequence[Sequence[str]]) -> None:
    """A dated title, then the rows in aligned columns; the first row is the
    header, underlined."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    print(f"{title}, {time.strftime('%Y-%m-%d')}")
    for index, row in enumerate(table):
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
        if index == 0:
            print("  ".join("-" * width for width in widths))
