"""JSON Schemas of evlogic's files (game, board, rules) and JSON documents
(score, explain, check, diff), shipped in the wheel; ``evlogic schema``
prints them."""

from __future__ import annotations

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent


def schema_names() -> list[str]:
    return sorted(path.name.removesuffix(".schema.json") for path in DIRECTORY.glob("*.json"))


def schema_path(name: str) -> Path:
    return DIRECTORY / f"{name}.schema.json"
