"""What several commands share: option helpers, argument types and readers."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

# (re-exported: they live in the library, the commands import them from here)
from evlogic.api.inputs import board_argument as board_argument
from evlogic.api.inputs import read_game as read_game
from evlogic.errors import quote
from evlogic.limits import add_memory_option, add_time_option, seconds
from evlogic.loading.rulesets import RuleSet, bundled_rule_sets, load_rule_set

#: What a command's output renders: a report, a result, a document.
Rendered = TypeVar("Rendered")

#: The most lines batch grounds together (--chunk-size).
MAX_CHUNK_SIZE = 100_000

#: The most --jobs (worker processes).
MAX_JOBS = 256
#: The most --players (more than any board's game end would allow anyway).
MAX_PLAYERS = 10_000


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An option's whole number between ``low`` and ``high`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {quote(text)}") from None
        if value < low or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {quote(text)}")
        return value

    return parse


def add_format_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--format", choices=["text", "json"], default="text", help="output format (default: text)"
    )


def write_output(
    output_format: str,
    rendered: Rendered,
    as_json: Callable[[Rendered], str],
    as_text: Callable[[Rendered], str],
) -> None:
    """Writes ``rendered`` to standard output in the chosen ``--format``:
    ``as_json`` (a newline added) for json, ``as_text`` (it ends its own
    lines) for text.  Only the chosen renderer runs."""
    if output_format == "json":
        sys.stdout.write(as_json(rendered) + "\n")
    else:
        sys.stdout.write(as_text(rendered))


def add_board_argument(command: argparse.ArgumentParser) -> None:
    """BOARD, positional: the board a command reports on."""
    command.add_argument(
        "board",
        nargs="?",
        default="usa",
        metavar="BOARD",
        help="a bundled board name or a path (default: usa)",
    )


def add_search_options(command: argparse.ArgumentParser, timeout_help: str) -> None:
    """--board, --players and --timeout: what check and diff search.  The
    --timeout bounds the whole search, which answers unknown (exit status 3)
    when it runs out."""
    command.add_argument(
        "--board", default="usa", metavar="B", help="a bundled board name or a path (default: usa)"
    )
    command.add_argument(
        "--players",
        type=whole(1, MAX_PLAYERS),
        default=2,
        metavar="N",
        help="players per position (default 2)",
    )
    command.add_argument("--timeout", type=seconds, default=60.0, metavar="S", help=timeout_help)
    add_memory_option(command)
    command.set_defaults(bounded=True, timeout_status=3)  # (evlogic.cli._run)


def add_limit_options(command: argparse.ArgumentParser, timeout: float) -> None:
    """--timeout and --memory-limit: every command that solves is bounded,
    the --timeout bounding the whole command (evlogic.cli._run)."""
    add_time_option(command, timeout)
    add_memory_option(command)
    command.set_defaults(bounded=True)


def add_rules_option(command: argparse.ArgumentParser, games: bool = True) -> None:
    """--rules; ``games``: the command reads games, whose own rules: it overrides."""
    names = ", ".join(bundled_rule_sets())
    what = (
        "overrides the game's rules: (default: the game's, else standard)"
        if games
        else ("(default: standard)")
    )
    command.add_argument(
        "--rules",
        metavar="R",
        help=f"rule set: a bundled name ({names}) or a rule set file; {what}",
    )


def rules_override(args: argparse.Namespace) -> RuleSet | None:
    return None if args.rules is None else load_rule_set(args.rules, Path.cwd())


def positive_scale(text: str) -> float:
    """An argparse type: a PNG scale factor between 0.1 and 20."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.1 <= value <= 20:
        raise argparse.ArgumentTypeError(f"must be between 0.1 and 20, not {text!r}")
    return value


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535 (0: any free one)."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text!r}")
    return int(text)


def say(message: str) -> None:
    """A line on standard error; when even that fails, nothing (the exit status speaks)."""
    with suppress(OSError, ValueError):
        print(message, file=sys.stderr, flush=True)


@contextmanager
def progress_bar(total: int, unit: str = " games") -> Iterator[Any]:
    """tqdm on stderr when it is a terminal (its update, to count ``unit``),
    else None."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: workers are forked single-threaded
    with tqdm(total=total, unit=unit, file=sys.stderr, smoothing=0.1) as bar:
        yield bar.update
