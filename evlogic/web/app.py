"""The ASGI app of ``evlogic serve``: one page and a JSON API.

Routes (documented with curl examples in docs/cli.md):

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
    POST /api/balance           {"board", "games", "rules"?, ...} -> 202, a balance run
    GET  /api/balance/{id}      the run's progress; done, its report and charts
    DELETE /api/balance/{id}    stops the run
    GET  /api/balance/{id}/page the run's page (balance --report), once done

Bad input is 400 with ``{"error": "..."}`` in the command line's words; a
request naming a host the server does not know is 400 and one from another
site's page 403 (evlogic.web.guard); a body not sent as application/json is
415, one over MAX_BODY bytes 413, one not received within the request
timeout 408; an unknown route 404 and a wrong method 405, as JSON too.
Solving and laying boards out run in worker processes
(evlogic.web.workers), and one that takes longer than the request timeout
is killed (503) while the server goes on serving.  Requests are taken on
by their estimated cost (evlogic.web.admission): a sent board over the
bound is 413, a heavy request past the waiting ones 503, a client's heavy
request past its few in progress 429.
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
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from evlogic.errors import InputError, escaped, quote, shortened
from evlogic.loading.yamlfile import Field
from evlogic.web import service
from evlogic.web.admission import Admission, Refused, board_size
from evlogic.web.balance import KEPT, Run, Runs
from evlogic.web.guard import LOCAL, Guard, Hosts, json_body_refusal
from evlogic.web.service import Catalog
from evlogic.web.workers import (
    Answer,
    BadInput,
    Internal,
    OutOfMemory,
    OverBound,
    Solved,
    Workers,
)

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
    requests come; ``app.state.workers``, for the server to close), taken
    on as evlogic.web.admission says.  Only requests naming one of
    ``hosts`` and from no other site's page are served (evlogic.web.guard)."""
    pool = workers or Workers(catalog)
    admission = Admission(pool.size)
    sizes = {name: board_size(board) for name, board in catalog.boards.items()}
    layouts: dict[str, dict] = {}  # GET /api/boards/NAME, once laid out

    async def answer(request: Request, name: str, top: object, cost: int) -> Answer | Response:
        """The worker's answer to ``name``'s request, or the refusal."""
        client = request.client.host if request.client else ""
        try:
            with anyio.fail_after(request_timeout):
                async with admission.admit(cost, client):
                    return await pool.solve(name, top)
        except Refused as refused:
            return _error(refused.status, refused.message)
        except TimeoutError:
            return _error(
                503,
                f"{service.SOURCE}: no answer within {request_timeout:g} s "
                "(the server's --request-timeout)",
            )

    def refusal_of(answer: Answer) -> tuple[int, str] | None:
        """(status, message) of a worker's answer that is not a document."""
        if isinstance(answer, BadInput):
            return 400, str(answer.error)
        if isinstance(answer, OverBound):
            return 413, answer.message
        if isinstance(answer, OutOfMemory):
            return 503, (
                f"{service.SOURCE}: out of memory (the server's --worker-memory-limit, "
                f"{pool.megabytes} MiB)"
            )
        if isinstance(answer, Internal):
            return 500, f"internal error: {escaped(shortened(answer.message, 300))}"
        return None

    def failure(answer: Answer) -> Response | None:
        """The error response of a worker's answer that is not a document."""
        refused = refusal_of(answer)
        return None if refused is None else _error(*refused)

    async def solved(request: Request, name: str) -> Any:
        """The document ``name``'s worker function makes of the request's
        body, or the response that refuses it."""
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

        def prepare(body: bytes) -> tuple[Field, int]:
            top = service.parse_json(body)
            return top, service.request_cost(sizes, name, top)

        try:  # (a megabyte of JSON takes a while: off the event loop)
            top, cost = await anyio.to_thread.run_sync(prepare, body)
        except service.TooLarge as error:
            return _error(413, str(error))
        except InputError as error:
            return _error(400, str(error))
        answered = await answer(request, name, top, cost)
        if isinstance(answered, Response):
            return answered
        if isinstance(answered, Solved):
            return answered.document
        return failure(answered)

    def endpoint(name: str, media_type: str | None = None) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            document = await solved(request, name)
            if isinstance(document, Response):
                return document
            if media_type is None:
                return JSONResponse(document)
            return Response(document, media_type=media_type)

        return run

    runs = Runs(pool, admission, request_timeout, refusal_of)

    async def balance_start(request: Request) -> Response:
        client = request.client.host if request.client else ""
        try:
            runs.check(client)  # (before the request is read: refused, it costs nothing)
        except Refused as refused:
            return _error(refused.status, refused.message)
        checked = await solved(request, "balance_plan")
        if isinstance(checked, Response):
            return checked
        try:
            run = runs.start(checked, client)
        except Refused as refused:
            return _error(refused.status, refused.message)
        return JSONResponse(
            run.document(), status_code=202, headers={"Location": f"/api/balance/{run.id}"}
        )

    def balance_run(request: Request) -> Run | Response:
        run_id = request.path_params["id"]
        run = runs.get(run_id)
        if run is None:
            return _error(
                404,
                f"{service.SOURCE}: no balance run {quote(run_id)} (the server keeps "
                f"the {KEPT} latest finished runs, and forgets all when it stops)",
            )
        return run

    async def balance_status(request: Request) -> Response:
        """GET: how far the run has got; DELETE: stop it, then the same."""
        run = balance_run(request)
        if isinstance(run, Response):
            return run
        if request.method == "DELETE":
            runs.cancel(run)
        return JSONResponse(run.document())

    async def balance_page(request: Request) -> Response:
        run = balance_run(request)
        if isinstance(run, Response):
            return run
        if run.result is None:
            return _error(
                409, f"{service.SOURCE}: balance run {run.id} is {run.status}: no page yet"
            )
        return HTMLResponse(run.result["page"])

    async def start(_request: Request) -> Response:
        return JSONResponse(catalog.start)

    async def boards(_request: Request) -> Response:
        return JSONResponse(catalog.board_list())

    async def board(request: Request) -> Response:
        name = request.path_params["name"]
        try:  # (a name it knows, or the words for one it does not)
            catalog.board(Field(service.SOURCE, "board", name, None, None))
        except InputError as error:
            return _error(404, str(error))
        if name not in layouts:  # laid out in a worker, in time, once
            solved = await answer(request, "board_detail", name, sizes[name].cost)
            if isinstance(solved, Response):
                return solved
            refused = failure(solved)
            if refused is not None:
                return refused
            assert isinstance(solved, Solved)
            layouts[name] = solved.document
        return JSONResponse(layouts[name])

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
        Route("/api/balance", balance_start, methods=["POST"]),
        Route("/api/balance/{id}", balance_status, methods=["GET", "DELETE"]),
        Route("/api/balance/{id}/page", balance_page),
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
