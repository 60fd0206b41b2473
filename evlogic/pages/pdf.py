"""A page printed to PDF by a headless Chromium (Debian's ``chromium``):
A4 as the page's ``@page`` rule asks, diagrams kept as vectors."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from evlogic.errors import InputError

#: Browsers that print, in the order they are looked for.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: The longest a print may take, in seconds.
PRINT_TIMEOUT = 120


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


def print_pdf(html: str) -> bytes:
    """``html`` printed: the PDF file's bytes."""
    executable = browser()
    with tempfile.TemporaryDirectory(prefix="evlogic-pdf-") as folder:
        page = Path(folder) / "page.html"
        page.write_text(html, encoding="utf-8")
        printed = Path(folder) / "page.pdf"
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
            f"--print-to-pdf={printed}",
            page.as_uri(),
        ]
        try:
            subprocess.run(command, capture_output=True, timeout=PRINT_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise InputError("--pdf", f"{executable} could not print: {error}") from None
        if not printed.is_file() or printed.stat().st_size == 0:
            raise InputError("--pdf", f"{executable} printed nothing")
        return printed.read_bytes()
