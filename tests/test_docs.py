"""The README and the manual in docs/ stay true: their examples are run and
their output compared, docs/cli.md's --help blocks are regenerated from the
parser and compared, links point at files that exist, and no page logs
history.

An example is a ```console block: each line starting with ``$ `` is a
command, run by bash from the top of the repository (standard error joined
to standard output), and the lines up to the next command are what it
prints.  The time a search took is not part of the output compared: the
pages write it as ``…`` (``proved in … s``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from conftest import REPO
from evlogic.schemas import schema_names, schema_path

README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md")), REPO / "rules" / "README.md"]
LAKELAND = REPO / "examples" / "lakeland"

CONSOLE = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)
TIMING = re.compile(r"\b(proved|found) in \d+(?:\.\d+)? s\b")
SECONDS = re.compile(r'"seconds": \d+(?:\.\d+)?')
HISTORY = re.compile(r"\b(session [0-9]+|issue #?[0-9]+)\b", re.I)


def name(path: Path) -> str:
    return str(path.relative_to(REPO))


def examples(path: Path) -> list[tuple[str, str]]:
    """(command, expected output) for every command of a page's console blocks."""
    found = []
    for block in CONSOLE.findall(path.read_text(encoding="utf-8")):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output)))
    return found


EXAMPLES = [
    pytest.param(command, expected, id=f"{name(page)}: {command}")
    for page in PAGES
    for command, expected in examples(page)
]


def run(command: str) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    output = TIMING.sub(r"\1 in … s", done.stdout)
    output = SECONDS.sub('"seconds": …', output)
    return output.replace(f"{REPO}{os.sep}", "/…/")


@pytest.mark.parametrize(("command", "expected"), EXAMPLES)
def test_every_example_prints_what_the_page_says(command, expected):
    assert run(command).rstrip("\n") == expected.rstrip("\n")


def test_the_readme_and_the_manual_have_examples():
    for page in ("README.md", "docs/cli.md", "docs/formats.md", "docs/rules.md"):
        assert examples(REPO / page), f"{page} has no console example"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_cli", DOCS / "generate_cli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_screenshot_shows_the_page_as_it_is_now():
    """Each screenshot in docs/ has beside it the hash of the page it shows;
    the page made now has that hash (regenerate with: python
    docs/generate_screenshots.py)."""
    spec = importlib.util.spec_from_file_location(
        "generate_screenshots", DOCS / "generate_screenshots.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shots = {path.name for path in DOCS.glob("*.png")}
    assert shots == set(module.SCREENSHOTS)  # every screenshot has its script
    for name, make in module.SCREENSHOTS.items():
        assert module.stored_hash(name) == module.page_hash(make()), f"{name} is stale"


def test_cli_page_holds_the_parsers_help():
    """Regenerate with: python docs/generate_cli.py"""
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert _generator().regenerate(page) == page


def test_cli_page_has_a_section_for_every_command():
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    commands = [command for command in _generator().helps() if command]
    headings = re.findall(r"^## `evlogic ([a-z-]+)`", page, re.M)
    assert headings == commands  # in the order `evlogic --help` lists them


def test_readme_is_a_front_door():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


@pytest.mark.parametrize("page", [*PAGES, REPO / "CHANGELOG.md"], ids=name)
def test_no_page_logs_history(page):
    hits = [line for line in page.read_text(encoding="utf-8").splitlines() if HISTORY.search(line)]
    assert hits == []


LINK = re.compile(r"\]\((?!https?://|mailto:)([^)#\s]*)(?:#([^)\s]*))?\)")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    headings = re.findall(r"^#+ (.*)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_relative_links_point_at_files_and_headings(page):
    broken = []
    for target, anchor in LINK.findall(page.read_text(encoding="utf-8")):
        path = (page.parent / target) if target else page
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}#{anchor}")
    assert broken == []


def test_the_readme_picture_is_what_diagram_draws():
    drawn = run("evlogic diagram examples/lakeland/game.yaml --player Ada -o -")
    assert (DOCS / "lakeland-ada.svg").read_text(encoding="utf-8") == drawn


def _validator(schema: str) -> Draft202012Validator:
    registry = Registry().with_resources(
        (f"{other}.schema.json", Resource.from_contents(json.loads(schema_path(other).read_text())))
        for other in schema_names()
    )
    return Draft202012Validator(json.loads(schema_path(schema).read_text()), registry=registry)


@pytest.mark.parametrize(
    ("file", "schema"),
    [("board.yaml", "board"), ("game.yaml", "game"), ("small-board.yaml", "rules")],
)
def test_the_walkthrough_files_meet_their_schemas(file, schema):
    document = json.loads(json.dumps(yaml.safe_load((LAKELAND / file).read_text())))
    assert [error.message for error in _validator(schema).iter_errors(document)] == []


def test_the_walkthroughs_file_excerpts_are_the_files():
    """The README's YAML and ASP blocks quote examples/lakeland/, line for line."""
    files = "\n".join(path.read_text(encoding="utf-8") for path in sorted(LAKELAND.iterdir()))
    quoted = re.findall(r"^```(?:yaml|prolog)\n(.*?)^```$", README.read_text("utf-8"), re.S | re.M)
    assert quoted
    lines = [line for block in quoted for line in block.splitlines()]
    assert [line for line in lines if not line.lstrip().startswith("#") and line not in files] == []


@pytest.mark.slow
def test_the_move_models_table_is_what_balance_says_now():
    """docs/play.md's table of the standard rules under each move model is
    three real balance runs (regenerate with: python
    docs/generate_models_table.py)."""
    spec = importlib.util.spec_from_file_location(
        "generate_models_table", DOCS / "generate_models_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = (DOCS / "play.md").read_text(encoding="utf-8")
    assert module.regenerate(page) == page


@pytest.mark.exhaustive
def test_the_ladder_table_is_what_ladder_says_now():
    """docs/play.md's ladders on usa are two real ladder runs (regenerate
    with: python docs/generate_ladder_table.py)."""
    spec = importlib.util.spec_from_file_location(
        "generate_ladder_table", DOCS / "generate_ladder_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = (DOCS / "play.md").read_text(encoding="utf-8")
    assert module.regenerate(page) == page


PROLOG = re.compile(r"^```prolog\n(.*?)^```$", re.S | re.M)


def test_every_program_a_page_shows_is_a_shipped_file_s():
    """A ```prolog block is rules (less comments) of a bundled move model,
    agent or example, as they stand in the file."""

    def rules(text: str) -> str:
        lines = (line.split("%", 1)[0].rstrip() for line in text.splitlines())
        return "\n".join(line for line in lines if line)

    files = [
        *sorted((REPO / "rules" / "moves").glob("*.lp")),
        *sorted((REPO / "rules" / "agents").glob("*.lp")),
        *sorted((REPO / "examples").rglob("*.lp")),
    ]
    shipped = [rules(path.read_text(encoding="utf-8")) for path in files]
    for page in PAGES:
        for block in PROLOG.findall(page.read_text(encoding="utf-8")):
            assert any(rules(block) in text for text in shipped), (name(page), block[:80])
