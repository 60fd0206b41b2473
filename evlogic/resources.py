"""Where the bundled rules, boards and example games are.

They sit at the top of the repository (``rules/``, ``maps/``,
``examples/``); a wheel installs them inside the package (``evlogic/rules``
and so on, see ``pyproject.toml``).  Looking beside this file first and at
the checkout second serves a wheel, an editable install and a plain
checkout alike.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache  # (where the package's data is does not change while it runs)
def _directory(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"evlogic is installed without its {name}/ directory")


def display_path(path: Path) -> str:
    """How to name a file in messages: relative to the working directory
    when it is below it (as the user would find it), else in full."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def rules_dir() -> Path:
    return _directory("rules")


def maps_dir() -> Path:
    return _directory("maps")


def examples_dir() -> Path:
    return _directory("examples")


def bundled_boards() -> dict[str, Path]:
    """Bundled board names (file stems) and their files."""
    return {path.stem: path for path in sorted(maps_dir().glob("*.yaml"))}


def default_game() -> Path:
    """The rulebook's full scoring example, scored by a bare ``evlogic score``."""
    return examples_dir() / "rulebook" / "full-example.yaml"


def bundled_properties() -> dict[str, Path]:
    """Properties for `evlogic check` (rules/properties/*.lp), by name."""
    return {path.stem: path for path in sorted((rules_dir() / "properties").glob("*.lp"))}
