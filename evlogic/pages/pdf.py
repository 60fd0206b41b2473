"""A page printed to PDF by a headless Chromium (Debian's ``chromium``):
A4 as the page's ``@page`` rule asks, diagrams kept as vectors.

The page is a template's work, and a template is shared, so the print loads
nothing but the page: no file (an ``<iframe src="file:///etc/hostname">``),
no network (an ``<img src="https://...">``), no script.  The page is served
once, from a server on the loopback address that serves nothing else, with
a Content-Security-Policy (:data:`POLICY`) that lets it load nothing and
sandboxes it (no script, no refresh, no navigation); the browser's every
request goes through that server as its proxy (the page's own, loopback
included), so whatever the policy let through would still get nothing; and
no host name resolves.
"""

from __future__ import annotations

import http.server
import os
import secrets
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from evlogic.errors import InputError

#: Browsers that print, in the order they are looked for.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: The longest a print may take, in seconds.
PRINT_TIMEOUT = 120

#: What the printed page may load: its own inline styles, and images and
#: fonts written into it as data: URLs; nothing else.  ``sandbox``: no
#: script, no form, no refresh, no navigation of the page.
POLICY = (
    "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
    "base-uri 'none'; form-action 'none'"
)


def browser() -> str:
    """The browser's executable (EVLOGIC_CHROMIUM overrides the search)."""
    chosen = os.environ.get("EVLOGIC_CHROMIUM")
    if chosen:
        return chosen
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    raise InputError("--pdf", "needs Chromium to print (on Debian: apt-get install chromium)")


class _OnePage(http.server.BaseHTTPRequestHandler):
    """Serves the page at its one address, and refuses everything else
    (as the browser's proxy, too: a proxied request names the address whole)."""

    server: _PageServer

    def do_GET(self) -> None:
        if self.path in (self.server.path, self.server.url):
            body = self.server.page
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Security-Policy", POLICY)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)
        else:
            self._refuse()

    def _refuse(self) -> None:
        self.server.refused.append(f"{self.command} {self.path}")
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    do_HEAD = do_POST = do_PUT = do_DELETE = do_OPTIONS = do_PATCH = do_CONNECT = _refuse

    def log_message(self, format: str, *args: object) -> None:
        pass


class _PageServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, page: bytes) -> None:
        super().__init__(("127.0.0.1", 0), _OnePage)
        self.page = page
        self.path = f"/{secrets.token_hex(16)}.html"
        self.url = f"http://127.0.0.1:{self.server_address[1]}{self.path}"
        self.refused: list[str] = []  # what the browser asked for and did not get


@contextmanager
def _serving(page: bytes) -> Iterator[_PageServer]:
    server = _PageServer(page)
    thread = threading.Thread(target=server.serve_forever, name="evlogic-pdf-page", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def print_pdf(html: str) -> bytes:
    """``html`` printed: the PDF file's bytes."""
    return print_pdf_refusing(html)[0]


def print_pdf_refusing(html: str) -> tuple[bytes, list[str]]:
    """``html`` printed, and what the browser asked for and was refused."""
    executable = browser()
    with (
        tempfile.TemporaryDirectory(prefix="evlogic-pdf-") as folder,
        _serving(html.encode("utf-8")) as server,
    ):
        printed = Path(folder) / "page.pdf"
        proxy = f"http://127.0.0.1:{server.server_address[1]}"
        # --memory-limit caps evlogic's address space, and children inherit
        # the cap; Chromium reserves far more than it uses and will not start
        # under it, so the shell lifts the (soft) cap for the browser alone.
        command = [
            "sh",
            "-c",
            'ulimit -v unlimited 2>/dev/null; exec "$0" "$@"',
            executable,
            "--headless",
            "--no-sandbox",  # as root, Chromium's sandbox will not start
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--user-data-dir={Path(folder) / 'profile'}",
            # every request to the page's server, loopback too; no name resolves
            f"--proxy-server={proxy}",
            "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-default-apps",
            "--disable-extensions",
            "--disable-sync",
            "--no-first-run",
            f"--print-to-pdf={printed}",
            server.url,
        ]
        try:
            subprocess.run(command, capture_output=True, timeout=PRINT_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise InputError("--pdf", f"{executable} could not print: {error}") from None
        if not printed.is_file() or printed.stat().st_size == 0:
            raise InputError("--pdf", f"{executable} printed nothing")
        return printed.read_bytes(), list(server.refused)
