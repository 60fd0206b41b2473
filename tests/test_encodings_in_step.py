"""Every second encoding of the scoring rules reads the rule-set numbers
the rules it says again read.

A rule set's numbers reach the rule files as ``param(R, Name, Value)`` and
``tier(R, Size, Bonus)`` (evlogic/loading/rulesets.py's ``RuleSet.program``;
both in evlogic/asp/predicates.py's table, as board facts).  A rule
*parameter* is a name of ``param/3`` (``links_needed``, ``region``, ...), or
``tier/3`` itself.  A file that reads one is a body literal, positive or
negative, as clingo.ast parses it: ``param(R, siege_penalty, X)``.

A second encoding names in its header's ``Re-encodes:`` line the files
under rules/scoring/ that it says again (see rules/README.md).  For each
of those files, every parameter it reads must reach the second encoding:
the file reads it itself, or its header's ``Parameters:`` line says where
it gets it::

    % Parameters: siege_penalty, tier/3 from rules/batch/compile.lp (its tables)

A ``.lp`` file named there must read the parameter (or get it, by its own
``Parameters:`` line, from one that does); a ``.py`` module named there
must name it (a parameter chosen by Python, as a ``#program`` part).  So a
new parameter read under rules/scoring/ fails here until every second
encoding of that file reads it, or says how it gets it.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import clingo.ast
import pytest
from clingo.ast import ASTType

from evlogic.asp.predicates import PREDICATES, Role
from evlogic.loading.rulesets import bundled_rule_sets, load_rule_set
from evlogic.resources import rules_dir

REPO = Path(__file__).resolve().parents[1]

#: The predicates a rule set's numbers arrive as; "tier/3" is the
#: parameter name of the second.
NUMBERS = {("param", 3), ("tier", 3)}
TIERS = "tier/3"

SCORING = re.compile(r"\brules/scoring/\w+\.lp\b")
PARAMETERS = re.compile(r"^% Parameters:( +)(.*)$")
SOURCE = re.compile(r"^(?P<names>.+?) from (?P<path>(?:rules|evlogic)/[\w/.-]+\.(?:lp|py))\b")


@dataclass(frozen=True)
class Source:
    """Where a second encoding says it gets some parameters."""

    names: frozenset[str]
    path: str  # from the repository's root: rules/... or evlogic/...


def parameters_read(path: Path) -> frozenset[str]:
    """The rule parameters ``path``'s rules read (in any body literal)."""
    found: set[str] = set()

    def visit(node: clingo.ast.AST) -> None:
        if node.ast_type == ASTType.SymbolicAtom:
            term = node.symbol
            if term.ast_type == ASTType.Function and (term.name, len(term.arguments)) in NUMBERS:
                found.add(name_of(term))
            return
        for key in node.child_keys:
            child = getattr(node, key)
            if child is not None:
                for item in [child] if isinstance(child, clingo.ast.AST) else child:
                    visit(item)

    clingo.ast.parse_files([str(path)], visit)
    return frozenset(found)


def name_of(term: clingo.ast.AST) -> str:
    """The parameter a ``param/3`` or ``tier/3`` atom reads."""
    if term.name == "tier":
        return TIERS
    name = term.arguments[1]
    if name.ast_type == ASTType.SymbolicTerm:
        return str(name.symbol)
    if name.ast_type == ASTType.Function and not name.arguments:
        return str(name.name)
    return f"any ({name})"  # param(R, Name, Value): every parameter


def header(path: Path) -> list[str]:
    lines = []
    for line in path.read_text("utf-8").splitlines():
        if not line.startswith("%"):
            break
        lines.append(line)
    return lines


def labelled(path: Path, label: str) -> str:
    """The text of a header line ``% Label:`` and its continuation lines
    (indented to the text after the label), joined by spaces."""
    pattern = re.compile(rf"^% {label}:( +)(.*)$")
    text: list[str] = []
    column = 0
    for line in header(path):
        match = pattern.match(line)
        if match:
            column = len(f"% {label}:") + len(match.group(1))
            text.append(match.group(2))
        elif text and line.startswith("%" + " " * (column - 1)) and line[column:].strip():
            text.append(line[column:].strip())
        elif text:
            break
    return " ".join(text)


def sources(path: Path) -> list[Source]:
    """What the header's ``Parameters:`` line says: ``NAMES from PATH``, the
    pieces apart by ";"."""
    text = labelled(path, "Parameters")
    found = []
    for piece in filter(None, (piece.strip() for piece in text.split(";"))):
        match = SOURCE.match(piece)
        assert match, (
            f"{path.name}: Parameters: {piece!r} is not 'NAMES from rules/... or evlogic/...'"
        )
        names = re.split(r",\s*|\s+and\s+", match.group("names"))
        found.append(Source(frozenset(name.strip() for name in names), match.group("path")))
    return found


def second_encodings(root: Path) -> dict[Path, list[Path]]:
    """Each file under ``root`` (a rules/ tree) whose header re-encodes
    files under rules/scoring/, and those files."""
    found = {}
    for path in sorted(root.rglob("*.lp")):
        named = sorted(set(SCORING.findall(labelled(path, "Re-encodes"))))
        if named:
            found[path] = [root / name.removeprefix("rules/") for name in named]
    return found


def reaches(path: Path, name: str, root: Path, seen: frozenset[Path] = frozenset()) -> bool:
    """Whether parameter ``name`` reaches ``path`` (a file under ``root``):
    it reads it, or its Parameters: line names a source that does."""
    if path in seen:
        return False
    read = parameters_read(path)
    if name in read or any(other.startswith("any ") for other in read):
        return True
    for source in sources(path):
        if name not in source.names:
            continue
        if source.path.startswith("rules/"):
            if reaches(root / source.path.removeprefix("rules/"), name, root, seen | {path}):
                return True
        else:
            word = re.escape(name.removesuffix("/3"))
            if re.search(rf"\b{word}\b", (REPO / source.path).read_text("utf-8")):
                return True
    return False


def gaps(root: Path) -> list[str]:
    """Every parameter a file under ``root``/scoring reads that does not
    reach a second encoding of that file, as a sentence."""
    found = []
    for path, originals in second_encodings(root).items():
        for original in originals:
            for name in sorted(parameters_read(original)):
                if not reaches(path, name, root):
                    found.append(
                        f"{path.relative_to(root)} re-encodes scoring/{original.name}, which reads "
                        f"{name}; it neither reads it nor names, on a '% Parameters:' line, "
                        "a file that does"
                    )
    return found


def test_rule_set_numbers_arrive_as_param_and_tier() -> None:
    for predicate in NUMBERS:
        assert PREDICATES[predicate].role is Role.BOARD
    for name in bundled_rule_sets():
        program = load_rule_set(name).program()
        arrived = {(fact.split("(")[0], fact.count(",") + 1) for fact in program.split()}
        assert arrived - {("rule_set", 1)} <= NUMBERS, name


def test_every_second_encoding_of_scoring_reads_its_parameters() -> None:
    assert second_encodings(rules_dir()), "no header re-encodes rules/scoring/"
    assert gaps(rules_dir()) == []


def test_the_scoring_rules_read_parameters() -> None:
    read = set().union(*(parameters_read(p) for p in (rules_dir() / "scoring").glob("*.lp")))
    assert {"links_needed", "region", "siege_penalty", TIERS} <= read


def test_every_named_source_exists() -> None:
    for path in second_encodings(rules_dir()):
        for source in sources(path):
            assert (REPO / source.path).is_file(), f"{path.name}: {source.path}"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the rules/ tree to break."""
    return Path(shutil.copytree(rules_dir(), tmp_path / "rules"))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


def test_fails_when_a_second_encoding_stops_reading_a_parameter(copy: Path) -> None:
    edit(
        copy / "play" / "moves.lp",
        "rule_set(R), param(R, home_swing, true).",
        "rule_set(R).",
    )
    assert gaps(copy) == [
        "play/moves.lp re-encodes scoring/face.lp, which reads home_swing; it neither reads it "
        "nor names, on a '% Parameters:' line, a file that does"
    ]


def test_fails_when_the_source_a_header_names_stops_reading_it(copy: Path) -> None:
    edit(
        copy / "batch" / "compile.lp",
        "siege_cost(X) :- rule_set(R), param(R, siege_penalty, X).",
        "siege_cost(0).",
    )
    # batch/totals.lp reads it from compile.lp's tables, batch/face.lp from totals.lp
    assert [line.split(", which")[0] for line in gaps(copy)] == [
        "batch/face.lp re-encodes scoring/siege.lp",
        "batch/totals.lp re-encodes scoring/siege.lp",
    ]


def test_fails_when_the_scoring_rules_read_a_new_parameter(copy: Path) -> None:
    edit(
        copy / "scoring" / "siege.lp",
        "param(R, siege_penalty, Penalty),",
        "param(R, siege_penalty, Penalty), not param(R, siege_free, true),",
    )
    assert {line.split(" re-encodes")[0] for line in gaps(copy)} == {
        "batch/face.lp",
        "batch/totals.lp",
        "play/moves.lp",
    }
