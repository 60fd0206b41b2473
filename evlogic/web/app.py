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
body over MAX_BODY bytes is 413; solving runs on worker threads (clingo
releases the GIL), and one that takes longer than the request timeout is
503 while the server goes on serving.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from evlogic.errors import InputError
from evlogic.web import service
from evlogic.web.service import Catalog

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


def create_app(catalog: Catalog, request_timeout: float = DEFAULT_REQUEST_TIMEOUT) -> Starlette:
    """The app over ``catalog``; solving past ``request_timeout`` seconds is 503."""

    async def solve(work: Callable[[], Any]) -> Any:
        with anyio.fail_after(request_timeout):
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)

    def endpoint(
        handler: Callable[[Catalog, Any], Any], media_type: str | None = None
    ) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            try:
                top = service.parse_json(await _body(request))
                result = await solve(lambda: handler(catalog, top))
            except TooLarge:
                return _error(413, f"{service.SOURCE}: body over {MAX_BODY} bytes")
            except InputError as error:
                return _error(400, str(error))
            except TimeoutError:
                return _error(
                    503,
                    f"{service.SOURCE}: no answer within {request_timeout:g} s "
                    "(the server's --request-timeout)",
                )
            except MemoryError:
                return _error(503, f"{service.SOURCE}: out of memory")
            if media_type is None:
                return JSONResponse(result)
            return Response(result, media_type=media_type)

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
        Route("/api/boards/parse", endpoint(service.parse_board_yaml), methods=["POST"]),
        Route("/api/boards/{name}", board),
        Route("/api/rules", rules),
        Route("/api/score", endpoint(service.score), methods=["POST"]),
        Route("/api/explain", endpoint(service.explain), methods=["POST"]),
        Route("/api/diagram", endpoint(service.diagram, "image/svg+xml"), methods=["POST"]),
        Route("/api/games/parse", endpoint(service.parse_game_yaml), methods=["POST"]),
        Route(
            "/api/games/yaml",
            endpoint(service.game_yaml, "application/yaml; charset=utf-8"),
            methods=["POST"],
        ),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
