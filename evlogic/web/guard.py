"""What keeps the web pages a user visits from using ``evlogic serve``.

A server on 127.0.0.1 is reachable from every page the browser opens:

* **DNS rebinding**: a page on a name its owner points at 127.0.0.1 reads
  the answers as its own.  The browser still sends that name as ``Host``,
  so only the names the server was bound to are accepted (and those given
  with ``--allow-host``).  An address written as digits cannot be rebound:
  a server bound to every address (0.0.0.0, ::) accepts any address as its
  ``Host``, but still only the names it knows.
* **Cross-site requests**: a page may send a request to any server without
  reading the answer, and a form or a ``text/plain`` body even without
  asking first.  A request whose ``Origin`` is not the server's own, or that
  the browser marks as sent by another site (``Sec-Fetch-Site``), is
  refused, top-level navigation to a page excepted (a link from elsewhere
  opens the page; the page's own requests are then its own).  The API's
  bodies are JSON and accepted only as ``application/json``
  (:func:`json_body_refusal`), which no page may send to another origin
  without the server's consent, and the server gives none (no CORS).

Clients that are not browsers (curl, a game server) send no ``Origin`` and
no ``Sec-Fetch-Site``; they need only a ``Host`` the server knows.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from evlogic.errors import quote

#: Names and addresses that reach only this machine.
LOOPBACK = ("127.0.0.1", "localhost", "::1")

#: Addresses that mean every address of this machine.
EVERY_ADDRESS = ("0.0.0.0", "::")

#: What a request's source may say (Sec-Fetch-Site) without being refused.
OWN_SITE = ("same-origin", "none")

#: The one media type of a request body.
JSON = "application/json"


@dataclass(frozen=True)
class Hosts:
    """The names a request's ``Host`` may give; ``any_address``: also any
    IP address (the server listens on all of them)."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def bound_to(cls, host: str, extra: Iterable[str] = ()) -> Hosts:
        """The hosts of a server listening on ``host``, plus ``extra``."""
        names = {_plain(host), *(_plain(name) for name in extra)}
        if host in EVERY_ADDRESS or _plain(host) in LOOPBACK:
            names.update(LOOPBACK)
        return cls(frozenset(names), host in EVERY_ADDRESS)

    def allow(self, host: str) -> bool:
        return host in self.names or (self.any_address and _is_address(host))

    def listed(self) -> str:
        shown = ", ".join(sorted(self.names))
        return shown + (", any address of this machine" if self.any_address else "")


def host_name(header: str) -> str:
    """``Host: NAME[:PORT]`` (``[ADDRESS]:PORT`` for IPv6) as the name alone,
    lowercase, without a final dot."""
    header = header.strip()
    if header.startswith("["):
        return _plain(header[1:].partition("]")[0])
    name, colon, port = header.rpartition(":")
    return _plain(name if colon and port.isdigit() else header)


def _plain(name: str) -> str:
    return name.strip().strip("[]").lower().rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


#: What create_app accepts unless told otherwise: this machine's own names.
LOCAL = Hosts.bound_to("127.0.0.1")


def refusal(headers: Headers, method: str, hosts: Hosts) -> tuple[int, str] | None:
    """(status, message) for a request from a place this server does not
    serve, or None."""
    header = headers.get("host")
    if not header:
        return 400, "request: no Host header (HTTP/1.1 requires one)"
    host = host_name(header)
    if not hosts.allow(host):
        return 400, (
            f"request: Host {quote(host)} is not a name of this server "
            f"(accepted: {hosts.listed()}; evlogic serve --allow-host NAME adds one)"
        )
    origin = headers.get("origin")
    own = f"http://{header.strip().lower()}"
    if origin is not None and origin.strip().lower() != own:
        return 403, (
            f"request: Origin {quote(origin)} is not this server's ({own}): "
            "a page from another site cannot use this server"
        )
    site = headers.get("sec-fetch-site")
    if site is not None and site not in OWN_SITE and not _opens_page(headers, method):
        return 403, (
            f"request: sent by a page from another site (Sec-Fetch-Site: {quote(site)}): "
            "a page from another site cannot use this server"
        )
    return None


def _opens_page(headers: Headers, method: str) -> bool:
    """A top-level navigation: the user followed a link to the server."""
    return (
        method in ("GET", "HEAD")
        and headers.get("sec-fetch-mode") == "navigate"
        and headers.get("sec-fetch-dest") == "document"
    )


def json_body_refusal(headers: Headers) -> str | None:
    """The 415 message for a body not sent as ``application/json``, or None."""
    given = headers.get("content-type")
    if given is None:
        return f"request: no Content-Type: the body must be JSON, sent as {JSON}"
    if given.partition(";")[0].strip().lower() != JSON:
        return f"request: Content-Type {quote(given)}: the body must be JSON, sent as {JSON}"
    return None


class Guard:
    """ASGI middleware: :func:`refusal`'s requests are answered with their
    status and ``{"error": message}``, and never reach the app."""

    def __init__(self, app: ASGIApp, hosts: Hosts = LOCAL) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = refusal(Headers(scope=scope), scope["method"], self.hosts)
            if refused is not None:
                status, message = refused
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)
