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

The endpoints are the methods of :class:`Api` (the catalog, the workers,
admission and the balance runs they share); :data:`ROUTES` maps each URL to
one, and :func:`create_app` builds Starlette's routes from that table.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from importlib.resources import files

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from evlogic.errors import InputError, escaped, quote, shortened
from evlogic.loading.yamlfile import Field
from evlogic.web import service
from evlogic.web.admission import Admission, Refused, board_size
from evlogic.web.balance import KEPT, Plan, Run, Runs
from evlogic.web.guard import LOCAL, Guard, Hosts, json_body_refusal
from evlogic.web.service import Catalog
from evlogic.web.workers import (
    Answer,
    BadInput,
    Internal,
    OutOfMemory,
    OverBound,
    Workers,
)
from evlogic.web.workers import Solved as Answered

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

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Message) -> None:
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


def _client(request: Request) -> str:
    """The address a request came from (admission counts per client)."""
    return request.client.host if request.client else ""


@dataclass(frozen=True)
class Solved:
    """A POST endpoint the workers answer: ``service.<function>(catalog,
    body)``, sent as JSON, or as ``media_type`` when given."""

    function: str
    media_type: str | None = None


class Api:
    """The endpoints, one method each, over what they share: the catalog,
    the worker pool, admission (evlogic.web.admission), the boards' sizes
    and layouts, and the balance runs.  Solving past ``request_timeout``
    seconds is 503."""

    def __init__(self, catalog: Catalog, request_timeout: float, pool: Workers) -> None:
        self.catalog = catalog
        self.request_timeout = request_timeout
        self.pool = pool
        self.admission = Admission(pool.size)
        self.sizes = {name: board_size(board) for name, board in catalog.boards.items()}
        self.layouts: dict[str, object] = {}  # GET /api/boards/NAME, once laid out
        self.runs = Runs(pool, self.admission, request_timeout, self.refusal_of)

    # --- solving in the workers ---------------------------------------------

    async def answer(
        self, request: Request, name: str, top: object, cost: int
    ) -> Answer | Response:
        """The worker's answer to ``name``'s request, or the refusal."""
        try:
            with anyio.fail_after(self.request_timeout):
                async with self.admission.admit(cost, _client(request)):
                    return await self.pool.solve(name, top)
        except Refused as refused:
            return _error(refused.status, refused.message)
        except TimeoutError:
            return _error(
                503,
                f"{service.SOURCE}: no answer within {self.request_timeout:g} s "
                "(the server's --request-timeout)",
            )

    def refusal_of(self, answer: Answer) -> tuple[int, str] | None:
        """(status, message) of a worker's answer that is not a document."""
        if isinstance(answer, BadInput):
            return 400, str(answer.error)
        if isinstance(answer, OverBound):
            return 413, answer.message
        if isinstance(answer, OutOfMemory):
            return 503, (
                f"{service.SOURCE}: out of memory (the server's --worker-memory-limit, "
                f"{self.pool.megabytes} MiB)"
            )
        if isinstance(answer, Internal):
            return 500, f"internal error: {escaped(shortened(answer.message, 300))}"
        return None

    def document(self, answer: Answer | Response) -> object:
        """The document of a worker's answer, or the error response."""
        if isinstance(answer, Response):
            return answer
        if isinstance(answer, Answered):
            return answer.document
        refused = self.refusal_of(answer)
        assert refused is not None  # every answer but Solved is refused
        return _error(*refused)

    async def read(self, request: Request) -> bytes | Response:
        """The request's JSON body, or the response that refuses it."""
        not_json = json_body_refusal(request.headers)
        if not_json is not None:
            return _error(415, not_json)
        try:
            with anyio.fail_after(self.request_timeout):
                return await _body(request)
        except TooLarge:
            return _error(413, f"{service.SOURCE}: body over {MAX_BODY} bytes")
        except TimeoutError:
            return _error(
                408,
                f"{service.SOURCE}: the body did not arrive within {self.request_timeout:g} s",
            )
        except ClientDisconnect:  # nobody is left to answer
            return Response(status_code=400)

    def prepare(self, name: str, body: bytes) -> tuple[Field, int]:
        """The body as a Field, and the estimated cost of ``name``'s request."""
        top = service.parse_json(body)
        return top, service.request_cost(self.sizes, name, top)

    async def solved(self, request: Request, name: str) -> object:
        """The document ``name``'s worker function makes of the request's
        body, or the response that refuses it."""
        body = await self.read(request)
        if isinstance(body, Response):
            return body
        try:  # (a megabyte of JSON takes a while: off the event loop)
            top, cost = await anyio.to_thread.run_sync(self.prepare, name, body)
        except service.TooLarge as error:
            return _error(413, str(error))
        except InputError as error:
            return _error(400, str(error))
        return self.document(await self.answer(request, name, top, cost))

    async def solve(self, what: Solved, request: Request) -> Response:
        """A POST endpoint of the table's: ``what`` solved in a worker."""
        document = await self.solved(request, what.function)
        if isinstance(document, Response):
            return document
        if what.media_type is None:
            return JSONResponse(document)
        return Response(document, media_type=what.media_type)

    # --- the page and the catalog -------------------------------------------

    async def page(self, _request: Request) -> Response:
        return Response((STATIC / "index.html").read_text("utf-8"), media_type="text/html")

    async def icon(self, _request: Request) -> Response:
        return Response(ICON, media_type="image/svg+xml")

    async def start(self, _request: Request) -> Response:
        return JSONResponse(self.catalog.start.document())

    async def boards(self, _request: Request) -> Response:
        return JSONResponse(self.catalog.board_list())

    async def board(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:  # (a name it knows, or the words for one it does not)
            self.catalog.board(Field(service.SOURCE, "board", name, None, None))
        except InputError as error:
            return _error(404, str(error))
        if name not in self.layouts:  # laid out in a worker, in time, once
            answer = await self.answer(request, "board_detail", name, self.sizes[name].cost)
            document = self.document(answer)
            if isinstance(document, Response):
                return document
            self.layouts[name] = document
        return JSONResponse(self.layouts[name])

    async def rules(self, _request: Request) -> Response:
        return JSONResponse(self.catalog.rule_list())

    # --- balance runs -------------------------------------------------------

    async def balance_start(self, request: Request) -> Response:
        client = _client(request)
        try:
            self.runs.check(client)  # (before the request is read: refused, it costs nothing)
        except Refused as refused:
            return _error(refused.status, refused.message)
        checked = await self.solved(request, "balance_plan")
        if isinstance(checked, Response):
            return checked
        assert isinstance(checked, Plan)  # (what service.balance_plan answers)
        try:
            run = self.runs.start(checked, client)
        except Refused as refused:
            return _error(refused.status, refused.message)
        return JSONResponse(
            run.document(), status_code=202, headers={"Location": f"/api/balance/{run.id}"}
        )

    def balance_run(self, request: Request) -> Run | Response:
        run_id = request.path_params["id"]
        run = self.runs.get(run_id)
        if run is None:
            return _error(
                404,
                f"{service.SOURCE}: no balance run {quote(run_id)} (the server keeps "
                f"the {KEPT} latest finished runs, and forgets all when it stops)",
            )
        return run

    async def balance_status(self, request: Request) -> Response:
        """GET: how far the run has got; DELETE: stop it, then the same."""
        run = self.balance_run(request)
        if isinstance(run, Response):
            return run
        if request.method == "DELETE":
            self.runs.cancel(run)
        return JSONResponse(run.document())

    async def balance_page(self, request: Request) -> Response:
        run = self.balance_run(request)
        if isinstance(run, Response):
            return run
        if run.result is None:
            return _error(
                409, f"{service.SOURCE}: balance run {run.id} is {run.status}: no page yet"
            )
        return HTMLResponse(run.result["page"])


#: An endpoint of the table: an Api method, or a POST the workers answer.
Endpoint = Callable[[Api, Request], Awaitable[Response]] | Solved

GET = ("GET",)
POST = ("POST",)

#: The routes, in the order Starlette tries them (``/api/boards/parse``
#: before ``/api/boards/{name:path}``); ``/static`` follows them.
ROUTES: tuple[tuple[str, Endpoint, tuple[str, ...]], ...] = (
    ("/", Api.page, GET),
    ("/favicon.ico", Api.icon, GET),
    ("/api/start", Api.start, GET),
    ("/api/boards", Api.boards, GET),
    ("/api/boards/parse", Solved("parse_board_yaml"), POST),
    ("/api/boards/{name:path}", Api.board, GET),
    ("/api/rules", Api.rules, GET),
    ("/api/score", Solved("score"), POST),
    ("/api/explain", Solved("explain"), POST),
    ("/api/diagram", Solved("diagram", "image/svg+xml"), POST),
    ("/api/games/parse", Solved("parse_game_yaml"), POST),
    ("/api/games/yaml", Solved("game_yaml", "application/yaml; charset=utf-8"), POST),
    ("/api/balance", Api.balance_start, POST),
    ("/api/balance/{id}", Api.balance_status, ("GET", "DELETE")),
    ("/api/balance/{id}/page", Api.balance_page, GET),
)


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
    api = Api(catalog, request_timeout, workers or Workers(catalog))
    routes: list[BaseRoute] = [
        Route(path, _bound(api, endpoint), methods=list(methods))
        for path, endpoint, methods in ROUTES
    ]
    routes.append(Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"))
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_error},
        middleware=[Middleware(ServerTiming), Middleware(Guard, hosts=hosts)],
    )
    app.state.workers = api.pool
    return app


def _bound(api: Api, endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    """The request handler of a table's endpoint, over ``api``."""
    if isinstance(endpoint, Solved):
        return partial(api.solve, endpoint)
    return partial(endpoint, api)


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
