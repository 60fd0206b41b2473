"""evlogic's packages import downwards only (docs/design.md, the packages).

Every import in evlogic/, at the top of a module or inside a function, read
from the source: loading reads input and knows nothing of clingo, asp talks
to clingo and knows nothing of reports or batch, and so on up to the command
line.  A package may import its own modules and those of the packages below
it in :data:`MAY_IMPORT`.
"""

from __future__ import annotations

import ast
from pathlib import Path

EVLOGIC = Path(__file__).resolve().parent.parent / "evlogic"

_BASE = {"errors", "resources", "limits", "signals"}

#: Each part of evlogic (a package, or a module at the top) -> the parts it
#: may import besides its own modules.
MAY_IMPORT: dict[str, set[str]] = {
    "errors": set(),
    "resources": set(),
    "limits": {"errors"},
    "signals": set(),
    "schemas": {"resources"},
    "loading": {"errors", "resources", "schemas"},  # the formats, checked at load
    "asp": _BASE | {"loading"},
    "reports": _BASE | {"loading", "asp"},
    "batching": _BASE | {"loading", "asp", "reports"},
    "drawing": _BASE | {"loading", "asp", "reports"},
    "templates": set(),
    "pages": _BASE | {"loading", "asp", "reports", "drawing"},
    "simulation": _BASE | {"loading", "asp", "reports", "batching"},
    # the library: one function a command (docs/api.md)
    "api": _BASE | {"loading", "asp", "reports", "batching", "drawing", "pages", "simulation"},
    "web": _BASE | {"loading", "asp", "reports", "drawing", "simulation", "pages"},
    "commands": _BASE
    | {
        "loading",
        "asp",
        "reports",
        "batching",
        "drawing",
        "web",
        "schemas",
        "simulation",
        "pages",
        "api",
    },
    "cli": _BASE | {"evlogic", "commands", "asp"},
    "__main__": {"cli"},
    "evlogic": _BASE | {"loading", "reports", "drawing", "api"},  # the lazy Python API
}

#: Imports that go up on purpose, each inside a function, with its reason.
EXCEPTIONS = {
    # A rule set's own .lp programs are checked as they are loaded (their
    # errors name the rule set's file and line); a rule set of parameters,
    # every bundled one, never imports it.
    ("evlogic.loading.rulesets", "evlogic.asp.fragment"),
    ("evlogic.loading.rulesets", "evlogic.asp.program"),
}


def _part(module: str) -> str:
    """The part of evlogic a dotted module name belongs to."""
    names = module.split(".")
    return names[1] if len(names) > 1 else "evlogic"


def _imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every import of evlogic's own."""
    found = []
    for path in sorted(EVLOGIC.rglob("*.py")):
        parts = path.relative_to(EVLOGIC.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the module's package
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [base] if base != "evlogic" else [f"evlogic.{a.name}" for a in node.names]
            else:
                continue
            found += [(module, target) for target in targets if target.split(".")[0] == "evlogic"]
    return found


def test_every_import_goes_downwards():
    wrong = [
        f"{module} imports {target}"
        for module, target in _imports()
        if _part(target) != _part(module)
        and _part(target) not in MAY_IMPORT[_part(module)]
        and (module, target) not in EXCEPTIONS
        and not target.startswith("evlogic.__")  # evlogic.__version__
    ]
    assert not wrong


def test_the_exceptions_are_still_needed():
    assert EXCEPTIONS.issubset(_imports())


def test_every_part_is_placed():
    assert {_part(module) for module, _ in _imports()} <= set(MAY_IMPORT)
