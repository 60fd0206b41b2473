"""The ASGI app of ``evlogic serve``: one page and a JSON API.

Routes (documented with curl examples in the README):

    GET  /                      the page (static/index.html; it uses only the API)
    GET  /api/start             the game the page opens on
    GET  /api/boards            the boards a request may name
    GET  /api/boards/{name}     a board's states, EV, swing, neighbours, hex cells
    GET  /api/rules             the rule sets a request may name, with their numbers
    POST /api/score             a game -> the `score --format json` report
    POST /api/explain           a game + "player" -> the `explain --format json` document
    POST /api/diagram           a game + "player" (+ "focus") -> the diagram SVG
    POST /api/boards/parse      {"yaml", "filename"} -> a board validated like a file
    POST /api/games/parse       {"yaml", "filename"} -> a game validated like a file
    POST /api/games/yaml        {"game", "board_file"?} -> a game file score accepts

Bad input is 400 with ``{"error": "..."}`` in the command line's words; a
request naming a host the server does not know is 400 and one from another
site's page 403 (evlogic.web.guard); a body not sent as application/json is
415, one over MAX_BODY bytes 413, one not received within the request
timeout 408; an unknown route 404 and a wrong method 405, as JSON too.
Solving runs in worker processes (evlogic.web.workers), and one that takes
longer than the request timeout is killed (503) while the server goes on
serving.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib.resources import files
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from evlogic.errors import InputError, escaped, quote, shortened
from evlogic.web import service
from evlogic.web.guard import LOCAL, Guard, Hosts, json_body_refusal
from evlogic.web.service import Catalog
from evlogic.web.workers import Workers

#: The largest request body accepted (bytes).
MAX_BODY = 1 << 20

#: Seconds a request may solve before it gets 503 (``--request-timeout``).
DEFAULT_REQUEST_TIMEOUT = 10.0

STATIC = files("evlogic.web") / "static"

#: A hex tile, the page's icon (browsers ask for /favicon.ico).
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-32 -32 64 64">'
    '<polygon points="26,-15 26,15 0,30 -26,15 -26,-15 0,-30" fill="#0072b2"/></svg>'
)


class TooLarge(Exception):
    pass


class ServerTiming:
    """ASGI middleware: every response says how long the app took, from the
    request's arrival to the response's head, in the standard header
    ``Server-Timing: app;dur=MS`` (browsers' developer tools show it;
    bench/bench_serve.py reads it)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Any) -> None:
            if message["type"] == "http.response.start":
                took = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
                headers = [*message.get("headers", []), (b"server-timing", took.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)


async def _body(request: Request) -> bytes:
    """The body, refused past MAX_BODY bytes (declared or streamed)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(
    catalog: Catalog,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    workers: Workers | None = None,
    hosts: Hosts = LOCAL,
) -> Starlette:
    """The app over ``catalog``; solving past ``request_timeout`` seconds is
    503.  Requests are solved by ``workers`` (default: a pool started as
    requests come; ``app.state.workers``, for the server to close).  Only
    requests naming one of ``hosts`` and from no other site's page are
    served (evlogic.web.guard)."""
    pool = workers or Workers(catalog)

    def endpoint(name: str, media_type: str | None = None) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            not_json = json_body_refusal(request.headers)
            if not_json is not None:
                return _error(415, not_json)
            try:
                with anyio.fail_after(request_timeout):
                    body = await _body(request)
            except TooLarge:
                return _error(413, f"{service.SOURCE}: body over {MAX_BODY} bytes")
            except TimeoutError:
                return _error(
                    408, f"{service.SOURCE}: the body did not arrive within {request_timeout:g} s"
                )
            except ClientDisconnect:  # nobody is left to answer
                return Response(status_code=400)
            try:
                top = service.parse_json(body)
                with anyio.fail_after(request_timeout):
                    answer = await pool.solve(name, top)
            except InputError as error:
                return _error(400, str(error))
            except TimeoutError:
                return _error(
                    503,
                    f"{service.SOURCE}: no answer within {request_timeout:g} s "
                    "(the server's --request-timeout)",
                )
            if answer.kind == "input":
                return _error(400, str(answer.value))
            if answer.kind == "memory":
                return _error(503, f"{service.SOURCE}: out of memory (the server's --memory-limit)")
            if answer.kind == "internal":
                return _error(500, f"internal error: {escaped(shortened(answer.value, 300))}")
            if media_type is None:
                return JSONResponse(answer.value)
            return Response(answer.value, media_type=media_type)

        return run

    async def start(_request: Request) -> Response:
        return JSONResponse(catalog.start)

    async def boards(_request: Request) -> Response:
        return JSONResponse(catalog.board_list())

    async def board(request: Request) -> Response:
        try:
            return JSONResponse(catalog.board_detail(request.path_params["name"]))
        except InputError as error:
            return _error(404, str(error))

    async def rules(_request: Request) -> Response:
        return JSONResponse(catalog.rule_list())

    async def page(_request: Request) -> Response:
        return Response((STATIC / "index.html").read_text("utf-8"), media_type="text/html")

    async def icon(_request: Request) -> Response:
        return Response(ICON, media_type="image/svg+xml")

    routes = [
        Route("/", page),
        Route("/favicon.ico", icon),
        Route("/api/start", start),
        Route("/api/boards", boards),
        Route("/api/boards/parse", endpoint("parse_board_yaml"), methods=["POST"]),
        Route("/api/boards/{name:path}", board),
        Route("/api/rules", rules),
        Route("/api/score", endpoint("score"), methods=["POST"]),
        Route("/api/explain", endpoint("explain"), methods=["POST"]),
        Route("/api/diagram", endpoint("diagram", "image/svg+xml"), methods=["POST"]),
        Route("/api/games/parse", endpoint("parse_game_yaml"), methods=["POST"]),
        Route(
            "/api/games/yaml",
            endpoint("game_yaml", "application/yaml; charset=utf-8"),
            methods=["POST"],
        ),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_error},
        middleware=[Middleware(ServerTiming), Middleware(Guard, hosts=hosts)],
    )
    app.state.workers = pool
    return app


async def _http_error(request: Request, error: Exception) -> Response:
    """A route that does not exist or a method it does not take, in the
    API's form: ``{"error": "..."}``."""
    assert isinstance(error, HTTPException)
    where = f"{request.method} {quote(request.url.path)}"
    if error.status_code == 404:
        message = f"{service.SOURCE}: {where}: no such page or API route"
    elif error.status_code == 405:
        allowed = ", ".join(sorted((error.headers or {}).get("Allow", "").split(", ")))
        message = f"{service.SOURCE}: {where}: method not allowed (allowed: {allowed})"
    else:
        message = f"{service.SOURCE}: {where}: {error.detail}"
    return JSONResponse({"error": message}, status_code=error.status_code, headers=error.headers)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
