"""Running the app under uvicorn: ``evlogic serve``."""

from __future__ import annotations

import sys
import threading
import time
import webbrowser

import uvicorn

from evlogic.web.app import create_app
from evlogic.web.service import Catalog
from evlogic.web.workers import Workers

#: Hosts only this machine can reach; any other gets a warning.
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def serve(
    catalog: Catalog,
    host: str,
    port: int,
    request_timeout: float,
    open_browser: bool = False,
) -> None:
    """Serve until Ctrl-C (or SIGTERM); uvicorn stops cleanly on either."""
    if host not in LOCAL_HOSTS:
        print(
            f"evlogic: warning: serving on {host}: anyone on that network can use this server",
            file=sys.stderr,
        )
    workers = Workers(catalog)
    workers.start()
    config = uvicorn.Config(
        create_app(catalog, request_timeout, workers),
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
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
