"""evlogic's own pages come from one Jinja2 environment with template
inheritance; users' rulebook templates from the sandbox: exactly two."""

from __future__ import annotations

import re
from pathlib import Path

from jinja2 import nodes

from evlogic.pages.environment import environment

PACKAGE = Path(__file__).resolve().parent.parent / "evlogic"


def test_the_environment_is_built_once_and_escapes():
    assert environment() is environment()
    assert environment().from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"


def parent(name: str) -> str | None:
    source = environment().loader.get_source(environment(), name)[0]
    found = list(environment().parse(source).find_all(nodes.Extends))
    return found[0].template.value if found else None


def test_the_tune_page_extends_the_balance_page_which_extends_the_frame():
    assert parent("tune.html.j2") == "balance.html.j2"
    assert parent("balance.html.j2") == "page.html.j2"
    assert parent("page.html.j2") is None


def test_only_ours_and_the_sandbox_build_environments():
    building = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        for line in path.read_text("utf-8").splitlines()
        if re.search(r"Environment\(", line) and not line.lstrip().startswith("class ")
    }
    assert building == {"pages/environment.py", "pages/rulebook.py"}
