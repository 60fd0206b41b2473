"""The rulebook gallery: the diagrams evlogic draws for the rulebook's scenarios.

Regenerate with ``python -m evlogic.drawing.gallery`` (writes ``docs/gallery/``);
a test fails when a checked-in diagram differs from what this produces.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evlogic.drawing.diagram import render_svg
from evlogic.loading.games import load_game
from evlogic.reports.explain import explain_game
from evlogic.resources import examples_dir

PLAYER = "You"


def scenarios() -> list[Path]:
    return sorted((examples_dir() / "rulebook").glob("*.yaml"))


def render_gallery() -> dict[str, str]:
    """File name -> SVG text for every rulebook scenario, cropped like the rulebook."""
    drawings = {}
    for path in scenarios():
        game = load_game(path, source=f"examples/rulebook/{path.name}")
        drawings[f"{path.stem}.svg"] = render_svg(
            explain_game(game, PLAYER), game.board, focus=True
        )
    return drawings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evlogic.drawing.gallery",
        description="Draw the rulebook's scenarios (examples/rulebook/*.yaml) as the "
        "rulebook crops them, one SVG per scenario, into FOLDER.",
    )
    parser.add_argument(
        "folder",
        nargs="?",
        default="docs/gallery",
        metavar="FOLDER",
        help="where to write the SVGs (default: docs/gallery)",
    )
    out = Path(parser.parse_args(argv).folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(
            f"evlogic.drawing.gallery: error: {out}: cannot create: {error.strerror}",
            file=sys.stderr,
        )
        return 2
    for name, svg in render_gallery().items():
        (out / name).write_text(svg, encoding="utf-8")
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
