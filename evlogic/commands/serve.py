"""evlogic serve: the board in the browser, and a JSON API, on the same rules."""

from __future__ import annotations

import argparse
import contextlib
import sys

from evlogic.commands import add_command
from evlogic.commands.options import port_number
from evlogic.errors import InputError, quote
from evlogic.limits import DEFAULT_WORKER_MEMORY_MB, add_memory_option, megabytes, seconds

HELP = """\
The board in the browser, and a JSON API, on the same rules.

Opens a local web app: click states on the map and watch the score, the
region and the siege change; focus a player for the explanation and where
to play next; compare two rule sets; download the position as a game file.
A game server may POST positions to the API (see docs/cli.md for curl
examples). With GAME, the page opens on that game; without, on an empty
position with two players.

Requests may name only the bundled boards and rule sets, and those given
here with --board and --rules; a request's own board or rule set is sent
inline (parameters only: .lp programs come only from --rules). A request
whose solving takes longer than --request-timeout gets 503. A board sent
with a request that is too dense to solve here is refused (413); large
requests take at most all workers but one, and a client may have only four
of them in progress (429), so small ones are never kept waiting long.

Binds 127.0.0.1 (this machine only) unless --host says otherwise. Only
requests that name the host it listens on are served (Host: 127.0.0.1 or
localhost by default; --allow-host adds a name), and none sent by a page
from another site. Ctrl-C stops it."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = add_command(commands, "serve", HELP, run)
    serve.add_argument("game", nargs="?", metavar="GAME", help="a game file to open on")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        type=host_name,
        default=[],
        metavar="NAME",
        help="another name requests may give as their Host, such as this machine's "
        "name on the network (repeatable)",
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
    serve.add_argument(
        "--worker-memory-limit",
        type=megabytes,
        default=DEFAULT_WORKER_MEMORY_MB,
        metavar="MB",
        help="address space each of the workers that solve requests may use, in MiB "
        f"(default {DEFAULT_WORKER_MEMORY_MB}); past it, the request gets 503",
    )


def host_name(text: str) -> str:
    """An argparse type: a host name or address (``[::1]`` or ``::1``), no
    scheme, port or path."""
    name = text.strip()
    with_port = name.count(":") == 1  # (an IPv6 address has more)
    if not name or with_port or any(mark in name for mark in "/@ \t"):
        raise argparse.ArgumentTypeError(
            f"must be a host name or address (no scheme, port or path), not {quote(text)}"
        )
    return name


def run(args: argparse.Namespace) -> int:
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
        serve(
            catalog,
            args.host,
            args.port,
            args.request_timeout,
            args.open,
            tuple(args.allow_host),
            args.worker_memory_limit,
        )
    print("evlogic: server stopped", file=sys.stderr)
    return 0
