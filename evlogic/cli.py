"""The ``evlogic`` command line."""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import sys
import time
from collections.abc import Sequence
from contextlib import suppress
from typing import NoReturn

from evlogic import __version__
from evlogic.commands import (
    batch,
    board_report,
    check,
    diagram,
    diff,
    explain,
    sample,
    score,
    stats,
    verify,
)
from evlogic.commands.options import (
    add_board_argument,
    add_format_option,
    board_argument,
    port_number,
    say,
)
from evlogic.errors import InputError, escaped, quote, shortened
from evlogic.limits import (
    OutOfTime,
    add_memory_option,
    busy,
    call_before,
    leave,
    limit_memory,
    seconds,
)
from evlogic.render import json_text
from evlogic.solver import SolverError

# The other commands' modules are imported when the command runs, so that
# `evlogic score` starts as fast as it can.

DESCRIPTION = """\
Score positions of the electoral-vote board game with answer-set rules.

Every figure comes from the clingo programs in rules/: face EVs (swing
states double, the home scores face value), the regional bonus of the
block grown from the home (+15/+25/+35/+45 for 3/4/5/6+ states), and the
siege penalty (-10 from the bonus per opponent-held neighbour of the home,
never below zero). Those are the standard rules (rules/standard.yaml);
--rules picks a variant or a rule set file of your own."""


SERVE_HELP = """\
The board in the browser, and a JSON API, on the same rules.

Opens a local web app: click states on the map and watch the score, the
region and the siege change; focus a player for the explanation and where
to play next; compare two rule sets; download the position as a game file.
A game server may POST positions to the API (see the README for curl
examples). With GAME, the page opens on that game; without, on an empty
position with two players.

Requests may name only the bundled boards and rule sets, and those given
here with --board and --rules; a request's own board or rule set is sent
inline (parameters only: .lp programs come only from --rules). A request
whose solving takes longer than --request-timeout gets 503.

Binds 127.0.0.1 (this machine only) unless --host says otherwise. Ctrl-C
stops it."""


class _Parser(argparse.ArgumentParser):
    """Usage errors are one line too: ``evlogic: error: ...`` and exit 2."""

    def error(self, message: str) -> NoReturn:
        message = shortened(escaped(message.removeprefix("argument ")), 300)
        self.exit(2, f"evlogic: error: {message} (see {self.prog} -h)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="evlogic",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"evlogic {__version__}")
    # bounded: --timeout limits the whole command (not batch's per-chunk one);
    # timeout_status: the exit status when it runs out (3: unknown, searches).
    parser.set_defaults(bounded=False, timeout_status=2)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    score.register(commands)
    explain.register(commands)
    diagram.register(commands)
    batch.register(commands)

    sample.register(commands)
    stats.register(commands)
    verify.register(commands)

    board_report.register(commands)
    check.register(commands)
    diff.register(commands)
    serve = commands.add_parser(
        "serve",
        help="the board in the browser, and a JSON API",
        description=SERVE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("game", nargs="?", metavar="GAME", help="a game file to open on")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=port_number, default=8000, metavar="N", help="port (default: 8000)"
    )
    serve.add_argument(
        "--board", metavar="B", help="a board the page and requests may use (a name or a path)"
    )
    serve.add_argument(
        "--rules",
        metavar="R",
        help="a rule set the page and requests may use (a name or a file; may bring programs)",
    )
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument(
        "--request-timeout",
        type=seconds,
        default=10.0,
        metavar="S",
        help="seconds a request may solve before it gets 503 (default 10)",
    )
    add_memory_option(serve)
    serve.set_defaults(run=run_serve)

    board_command = commands.add_parser(
        "board",
        help="list a board's states: ids, names, EV, swing, neighbors",
        description="List a board's states, one line each: the id games use, the name, the "
        "EV, whether it is a swing state, and its neighbors; the game end. JSON: the board "
        "as the API's GET /api/boards/NAME gives it (with each state's hex cell).",
    )
    add_board_argument(board_command)
    add_format_option(board_command)
    board_command.set_defaults(run=run_board)

    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of a file or a JSON document",
        description="Print the JSON Schema (draft 2020-12) of evlogic's files (game, board, "
        "rules) or of a command's JSON document (score, explain, check, diff, "
        "board-report). With no NAME, list them with their paths; point an editor's YAML "
        "language server at a path (see the README).",
    )
    schema.add_argument("name", nargs="?", metavar="NAME", help="game, board, rules, score, ...")
    schema.add_argument("--path", action="store_true", help="print the schema file's path")
    schema.set_defaults(run=run_schema)
    return parser


#: Seconds past a command's --timeout before it is stopped: its own deadline
#: comes first, this only catches work that cannot look at the clock.
GRACE = 0.4


def run_board(args: argparse.Namespace) -> int:
    from evlogic.render import board_to_text
    from evlogic.web.service import board_document

    board = board_argument(args.board, "BOARD")
    if args.format == "json":
        document = board_document(board, args.board)
        del document["inline"]
        sys.stdout.write(json_text(document) + "\n")
    else:
        sys.stdout.write(board_to_text(board))
    return 0


def run_schema(args: argparse.Namespace) -> int:
    from evlogic.schemas import schema_names, schema_path
    from evlogic.yamlfile import closest

    names = schema_names()
    if args.name is None:
        width = max(map(len, names))
        for name in names:
            print(f"{name:{width}}  {schema_path(name)}")
        return 0
    if args.name not in names:
        hint = closest(args.name, names)
        raise InputError("NAME", f"no schema {args.name!r}{hint}; schemas: {', '.join(names)}")
    path = schema_path(args.name)
    sys.stdout.write(f"{path}\n" if args.path else path.read_text("utf-8"))
    return 0


def run_serve(args: argparse.Namespace) -> int:
    import errno
    import socket

    from evlogic.web.server import serve
    from evlogic.web.service import Catalog

    if not args.host.strip():  # '' would listen on every address
        raise InputError("--host", "must be an address, not empty (0.0.0.0 is every address)")
    catalog = Catalog.build(args.game, args.board, args.rules)
    try:  # a port in use is the user's to fix: one line, before uvicorn starts
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as error:
        # the port's fault only when the address is fine but the port is taken
        # or reserved; an unknown name or an address not of this machine is the host's
        option = "--port" if error.errno in (errno.EADDRINUSE, errno.EACCES) else "--host"
        where = f"{quote(args.host)} port {args.port}"
        reason = error.strerror or str(error)
        raise InputError(option, f"cannot listen on {where}: {reason}") from None
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn has shut down and passes it on
        serve(catalog, args.host, args.port, args.request_timeout, args.open)
    print("evlogic: server stopped", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line.  Run as a program (``argv`` None), the process is
    capped at --memory-limit and leaves at once when --timeout strands a
    grounding in its worker thread; called with ``argv`` (tests), neither."""
    standalone = argv is None
    _open_standard_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if standalone and getattr(args, "memory_limit", None):
        limit_memory(args.memory_limit)
    status = _run(args)
    if standalone and busy():
        leave(status)
    return status


def _run(args: argparse.Namespace) -> int:
    timeout = getattr(args, "timeout", None) if args.bounded else None
    try:
        if timeout is None:
            code = args.run(args)
        else:
            code = call_before(time.monotonic() + timeout + GRACE, lambda: args.run(args))
        sys.stdout.flush()  # a full disk shows here, not at exit
        return code
    except OutOfTime:
        say(
            f"evlogic: error: {args.command}: no answer within {timeout:g} s "
            "(raise --timeout to give it longer)"
        )
        return args.timeout_status
    except InputError as error:
        say(f"evlogic: error: {error}")
        return 2
    except MemoryError:
        limit = getattr(args, "memory_limit", None)
        say(
            f"evlogic: error: {args.command}: out of memory"
            + (f" (limit {limit} MiB; raise --memory-limit)" if limit else "")
        )
        return 2
    except SolverError as error:  # a bug in evlogic's rules, never the user's input
        say(f"evlogic: internal error: {error}")
        return 70
    except BrokenPipeError:  # the reader went away (| head): nothing to say
        _discard_output()
        return 1
    except OSError as error:  # writing the output failed (> /dev/full, >&-)
        _discard_output()
        place = error.filename or "<stdout>"
        say(f"evlogic: error: {InputError(str(place), f'cannot write: {error.strerror}')}")
        return 2
    except KeyboardInterrupt:
        say("evlogic: interrupted")
        return 130


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it (``>&-``): writing is an OSError."""

    def write(self, text: object) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    @property
    def buffer(self) -> _ClosedOutput:  # for bytes (diagram -o -)
        return self


def _open_standard_streams() -> None:
    """Standard input, output and error always exist.  A closed one
    (``<&-``, ``>&-``, ``2>&-``) becomes /dev/null underneath, so that no
    file evlogic opens takes its number (a worker's warnings would land in
    it); reading closed standard input or writing closed standard output
    is then an error, and messages to closed standard error are dropped."""
    for number in range(3):
        try:
            os.fstat(number)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != number:
                os.dup2(null, number)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (lives as long as the process)


def _discard_output() -> None:
    """After a failed write, point standard output at /dev/null, so that
    flushing what is left at exit neither fails nor prints a warning."""
    with suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        number = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, number)
        os.close(null)
