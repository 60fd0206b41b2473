"""Every rule file's header says what it reads and derives, truly.

Each ``rules/**/*.lp`` starts with a comment block holding an ``Input:`` and
an ``Output:`` line (with continuation lines, indented to the text after
the label; see rules/README.md).  In those lines a predicate is written
``name(Arg, ...)`` (``M0..M6`` stands for seven arguments, ``(A, B)`` is
one) or ``name/arity``; a bare name counts where it is a known predicate of
arity 0 (``violation``), so English words around the names are free.  Text
after two spaces on a line, and lines indented deeper than the list, are a
name's description and are not read.

The test checks that every predicate a header names as output is a head of
that file (a rule's head, an #external, a #show), as clingo.ast parses it,
and that every predicate named as input or output is known: evlogic's table
of its own names (evlogic/asp/predicates.py), a head of some rule file, or
one of the few facts the Python side gives a rule file outside that table
(PYTHON_FACTS, each checked to be written by the module named), or what a
decision gives an agent (the agent fragment's inputs,
evlogic/asp/fragment.py).

A second encoding of a rule has a ``Re-encodes:`` line (the rule files it
says again, which must exist) and an ``Agreement:`` line (the tests that
show the two agree, which must exist and name the file or its folder).
rules/README.md must name every file and folder, and list every second
encoding with its agreement tests.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import clingo.ast
import pytest
from clingo.ast import ASTType

from evlogic.asp import fragment, predicates
from evlogic.resources import rules_dir

REPO = Path(__file__).resolve().parents[1]
RULE_FILES = sorted(rules_dir().rglob("*.lp"))

Predicate = tuple[str, int]

#: Facts evlogic's Python gives a rule file, outside the table of
#: evlogic/asp/predicates.py (which covers the files a user's program is
#: loaded beside), and the module that writes them.
PYTHON_FACTS: dict[Predicate, str] = {
    ("way_state", 2): "evlogic/reports/boardreport.py",
    ("asked_tier", 2): "evlogic/reports/boardreport.py",
    ("evlogic_mover", 1): "evlogic/simulation/engine.py",
    ("evlogic_world", 2): "evlogic/simulation/engine.py",
    ("held", 3): "evlogic/simulation/engine.py",
    ("held", 2): "evlogic/simulation/planning.py",
    ("plan_size", 1): "evlogic/simulation/planning.py",
    ("layout_rows", 2): "evlogic/drawing/relayout.py",
    ("layout_columns", 2): "evlogic/drawing/relayout.py",
    ("layout_start", 3): "evlogic/drawing/relayout.py",
    ("layout_keep", 1): "evlogic/drawing/relayout.py",
    ("layout_reach", 1): "evlogic/drawing/relayout.py",
}

LABEL = re.compile(r"^% (Input|Output|Re-encodes|Agreement):( +)(.*)$")
RULE_PATH = re.compile(r"\brules/[\w/.-]+\.lp\b")
TEST_PATH = re.compile(r"\btests/\w+\.py\b")
CALL = re.compile(r"(?<![\w@#./`])([a-z_][A-Za-z0-9_]*)\(")
SIGNATURE = re.compile(r"(?<![\w@#./])([a-z_][A-Za-z0-9_]*)/(\d+)\b")
BARE = re.compile(r"(?<![\w@#./(`])([a-z_][a-z0-9_]*)(?![\w(/])")
RANGE = re.compile(r"^[A-Za-z]+(\d+)\.\.[A-Za-z]+(\d+)$")


def header(path: Path) -> list[str]:
    """The comment lines a file starts with."""
    lines = []
    for line in path.read_text("utf-8").splitlines():
        if not line.startswith("%"):
            break
        lines.append(line)
    return lines


def sections(path: Path) -> dict[str, list[str]]:
    """The list text of the header's Input and Output lines, by label: each
    line up to the first run of two spaces, continuation lines at the list's
    own indentation only (deeper ones continue a description)."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    column = 0
    for line in header(path):
        match = LABEL.match(line)
        if match:
            current = found.setdefault(match.group(1), [])
            column = len("% ") + len(match.group(1)) + 1 + len(match.group(2))
            text = match.group(3)
        elif (
            current is not None and line.strip("% =") and line.startswith("%" + " " * (column - 1))
        ):
            if line[column : column + 1] == " ":
                continue  # a description's next line
            text = line[column:]
        else:
            current = None
            continue
        current.append(re.split(r"\s{2,}", text.strip())[0])
    return found


def arguments(text: str, start: int) -> tuple[int, int]:
    """The arity of the call whose "(" is at ``start`` and the index past
    its ")"; ``M0..M6`` counts seven arguments."""
    depth, pieces, piece = 0, [], ""
    for index in range(start, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
            if depth == 1:
                continue
        elif char == ")":
            depth -= 1
            if depth == 0:
                pieces.append(piece)
                break
        if char == "," and depth == 1:
            pieces.append(piece)
            piece = ""
        else:
            piece += char
    else:
        raise AssertionError(f"unbalanced parentheses in {text!r}")
    if pieces == [""]:
        return 0, index + 1
    arity = 0
    for piece in pieces:
        span = RANGE.match(piece.strip())
        arity += int(span.group(2)) - int(span.group(1)) + 1 if span else 1
    return arity, index + 1


def named(lines: list[str]) -> set[Predicate]:
    """The predicates a section's lines name."""
    found: set[Predicate] = set()
    for line in lines:
        rest = line
        while match := CALL.search(rest):
            arity, end = arguments(rest, match.end() - 1)
            found.add((match.group(1), arity))
            rest = rest[: match.start()] + " " * (end - match.start()) + rest[end:]
        for match in SIGNATURE.finditer(rest):
            found.add((match.group(1), int(match.group(2))))
        rest = SIGNATURE.sub(" ", rest)
        found.update((word, 0) for word in BARE.findall(rest) if (word, 0) in known())
    return found


def _atoms(node: clingo.ast.AST, found: set[Predicate]) -> None:
    """The atoms of a head, leaving out conditions (``p(X) : q(X)``)."""
    if node.ast_type == ASTType.SymbolicAtom:
        symbol = node.symbol
        if symbol.ast_type == ASTType.Function:
            found.add((symbol.name, len(symbol.arguments)))
        elif symbol.ast_type == ASTType.SymbolicTerm and symbol.symbol.type == (
            clingo.SymbolType.Function
        ):
            found.add((symbol.symbol.name, len(symbol.symbol.arguments)))
        return
    if node.ast_type == ASTType.ConditionalLiteral:
        _atoms(node.literal, found)
        return
    if node.ast_type == ASTType.HeadAggregateElement:
        _atoms(node.condition.literal, found)
        return
    for key in node.child_keys:
        child = getattr(node, key)
        if child is not None:
            for item in [child] if isinstance(child, clingo.ast.AST) else child:
                _atoms(item, found)


@cache
def heads(path: Path) -> frozenset[Predicate]:
    """What ``path`` defines: rule heads, #external atoms, #show terms and
    signatures (an #include'd file's too)."""
    found: set[Predicate] = set()

    def visit(statement: clingo.ast.AST) -> None:
        kind = statement.ast_type
        if kind == ASTType.Rule:
            _atoms(statement.head, found)
        elif kind == ASTType.External:
            _atoms(statement.atom, found)
        elif kind == ASTType.ShowSignature and statement.name:  # not `#show.`
            found.add((statement.name, statement.arity))
        elif kind == ASTType.ShowTerm and statement.term.ast_type == ASTType.Function:
            found.add((statement.term.name, len(statement.term.arguments)))

    clingo.ast.parse_files([str(path)], visit)
    return frozenset(found)


@cache
def known() -> frozenset[Predicate]:
    """Every predicate a header may name."""
    every = set(predicates.EVLOGIC_PREDICATES) | set(PYTHON_FACTS) | set(fragment.AGENT_INPUTS)
    model = fragment.MOVE_INPUTS | fragment.MOVE_OUTPUTS  # as written, and given the decision
    every |= model | {(name, arity + 1) for name, arity in model}
    for path in RULE_FILES:
        every |= heads(path)
    return frozenset(every)


def test_the_python_facts_are_written_where_the_table_says():
    for (name, _arity), module in PYTHON_FACTS.items():
        assert f"{name}(" in (REPO / module).read_text("utf-8"), (name, module)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda path: str(path.relative_to(rules_dir())))
def test_the_header_names_inputs_and_outputs_the_file_has(path: Path):
    found = sections(path)
    assert {"Input", "Output"} <= set(found), f"{path.name}: no Input: or Output: line"
    outputs = named(found["Output"])
    missing = outputs - heads(path)
    assert not missing, f"the header names as output what the file never derives: {missing}"
    unknown = (named(found["Input"]) | outputs) - known()
    assert not unknown, f"the header names predicates nothing defines: {unknown}"


def test_the_parser_reads_names_arities_and_descriptions_apart(tmp_path: Path):
    program = tmp_path / "p.lp"
    program.write_text(
        "% p.lp -- an example.\n"
        "%\n"
        "% Input:  owns(G, P, K, M0..M6), core(G, P, (A, B)), tier/3,\n"
        "%         param(R, region, best_core | union)   max(0, X) is a description\n"
        "%                                               and so is this(line)\n"
        "% Output: violation, out(X)\n"
        "%\n"
        "% Part two: more(X) is no input.\n"
        "violation :- out(1).\n"
        "out(X) :- X = 1..2.\n"
    )
    found = sections(program)
    assert named(found["Input"]) == {("owns", 10), ("core", 3), ("tier", 3), ("param", 3)}
    assert named(found["Output"]) == {("violation", 0), ("out", 1)}
    assert heads(program) == {("violation", 0), ("out", 1)}


SECOND_ENCODINGS = [path for path in RULE_FILES if "Re-encodes" in sections(path)]
README = rules_dir() / "README.md"


def relative(path: Path) -> str:
    return path.relative_to(rules_dir()).as_posix()


@pytest.mark.parametrize("path", SECOND_ENCODINGS, ids=relative)
def test_a_second_encoding_names_what_it_re_encodes_and_the_test_that_agrees(path: Path):
    found = sections(path)
    readable = RULE_PATH.findall(" ".join(found["Re-encodes"]))
    assert readable, "Re-encodes: names no rules/... file"
    for name in readable:
        assert (REPO / name).is_file() and REPO / name != path, name
    tests = TEST_PATH.findall(" ".join(found.get("Agreement", [])))
    assert tests, "no Agreement: line naming a tests/... file"
    folder = f"rules/{path.parent.relative_to(rules_dir()).as_posix()}/"
    for name in tests:
        text = (REPO / name).read_text("utf-8")
        assert re.search(rf"(?<![\w/]){re.escape(path.name)}\b", text) or folder in text, (
            f"{name} never names {path.name} or {folder}"
        )


def test_the_readme_names_every_file_and_folder():
    text = README.read_text("utf-8")
    shipped = [*RULE_FILES, *rules_dir().rglob("*.yaml")]
    folders = {path.parent for path in shipped} - {rules_dir()}
    missing = [relative(path) for path in shipped if f"`{relative(path)}`" not in text]
    missing += [f"{relative(d)}/" for d in folders if f"`{relative(d)}/`" not in text]
    # the variants are named in their folder's row
    missing = [
        name
        for name in missing
        if not name.startswith("variants/") or (f"`{Path(name).name}`" not in text)
    ]
    assert missing == []


@pytest.mark.parametrize("path", SECOND_ENCODINGS, ids=relative)
def test_the_readme_lists_each_second_encoding_with_its_tests(path: Path):
    table = README.read_text("utf-8").partition("## Second encodings")[2]
    [row] = [line for line in table.splitlines() if line.startswith(f"| `{relative(path)}` |")]
    for name in TEST_PATH.findall(" ".join(sections(path)["Agreement"])):
        assert name in row, name
