"""Running the app under uvicorn: ``evlogic serve``."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import webbrowser

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from evlogic.limits import DEFAULT_WORKER_MEMORY_MB
from evlogic.web.app import create_app
from evlogic.web.guard import Hosts
from evlogic.web.service import Catalog
from evlogic.web.workers import Workers

#: Hosts only this machine can reach; any other gets a warning.
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1, with a limit on how long a request's head (the
    request line and headers) may take to arrive: uvicorn has none, so a
    client sending a header a minute (or nothing) held its connection, and
    a few thousand such clients every file descriptor.  A slow body is the
    app's to time out (408)."""

    head_timeout = 10.0  # set per server (--request-timeout)
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def _waiting_for_head(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _watch_head(self) -> None:
        if not self._waiting_for_head():
            self._stop_watching()
        elif self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)

    def _stop_watching(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()


def serve(
    catalog: Catalog,
    host: str,
    port: int,
    request_timeout: float,
    open_browser: bool = False,
    allow_hosts: tuple[str, ...] = (),
    worker_megabytes: int = DEFAULT_WORKER_MEMORY_MB,
) -> None:
    """Serve until Ctrl-C (or SIGTERM); uvicorn stops cleanly on either.
    Requests may name ``host`` (and this machine's loopback names when it is
    one of them or every address) or one of ``allow_hosts``; each worker
    may use ``worker_megabytes`` MiB."""
    if host not in LOCAL_HOSTS:
        print(
            f"evlogic: warning: serving on {host}: anyone on that network can use this server",
            file=sys.stderr,
        )
    workers = Workers(catalog, megabytes=worker_megabytes)
    workers.start()
    config = uvicorn.Config(
        create_app(catalog, request_timeout, workers, Hosts.bound_to(host, allow_hosts)),
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        http=type("Protocol", (_Protocol,), {"head_timeout": request_timeout}),
    )
    server = uvicorn.Server(config)
    shown = host if ":" not in host else f"[{host}]"

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            bound = port or server.servers[0].sockets[0].getsockname()[1]  # --port 0: any
            url = f"http://{shown}:{bound}/"
            print(f"evlogic: serving on {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
            if open_browser:
                webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    finally:
        workers.close()
