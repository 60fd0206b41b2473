"""Regenerate the screenshots of pages in docs/ from the pages as evlogic
makes them now.

Each screenshot has, beside it, the SHA-256 of the HTML it shows
(``NAME.png.sha256``); tests/test_rulebook_page.py makes the page again and
fails when the hash differs, so a screenshot never shows a page that has
changed since.  Run after changing a page's template or drawing:

    python docs/generate_screenshots.py           # rewrite the screenshots
    python docs/generate_screenshots.py --check   # exit 1 if one is stale

Screenshots are taken by Debian's chromium through Playwright (the test
extra), 900 CSS pixels wide, the whole page.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

DOCS = Path(__file__).resolve().parent
WIDTH = 900


def rulebook_standard() -> str:
    """``evlogic rulebook``: the standard rules' page."""
    from evlogic.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["rulebook"])
    if code != 0:
        raise SystemExit(f"evlogic rulebook failed ({code})")
    return out.getvalue()


#: Each screenshot in docs/ and the page it shows.
SCREENSHOTS: dict[str, Callable[[], str]] = {"rulebook-standard.png": rulebook_standard}


def page_hash(html: str) -> str:
    return hashlib.sha256(html.encode("utf-8")).hexdigest()


def stored_hash(name: str) -> str | None:
    path = DOCS / f"{name}.sha256"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else None


def shoot(html: str, png: Path) -> None:
    from playwright.sync_api import sync_playwright

    browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_path is None:
        raise SystemExit("needs Debian's chromium: apt-get install -y chromium")
    with tempfile.TemporaryDirectory(prefix="evlogic-shot-") as folder:
        page_file = Path(folder) / "page.html"
        page_file.write_text(html, encoding="utf-8")
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=browser_path, args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": WIDTH, "height": 1200})
            page.goto(page_file.as_uri())
            page.screenshot(path=str(png), full_page=True)
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a screenshot is stale")
    args = parser.parse_args(argv)
    stale = []
    for name, make in SCREENSHOTS.items():
        html = make()
        digest = page_hash(html)
        if stored_hash(name) == digest and (DOCS / name).is_file():
            continue
        stale.append(name)
        if not args.check:
            shoot(html, DOCS / name)
            (DOCS / f"{name}.sha256").write_text(digest + "\n", encoding="utf-8")
            print(f"docs/{name}: regenerated")
    if args.check and stale:
        print(f"stale: {', '.join(stale)} (python docs/generate_screenshots.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
