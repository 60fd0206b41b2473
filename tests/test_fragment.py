"""The fragment user programs must lie in (evlogic/asp/fragment.py, argued in
docs/verification.md): what it accepts, what it refuses, the table of
evlogic's names it reads, and the argument checked by brute force: random
properties and rule set programs drawn from the fragment, every "holds"
against every position of small boards scored by the score rules."""

from __future__ import annotations

import itertools
from pathlib import Path

import clingo
import clingo.ast
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import board_dict
from evlogic.asp import predicates
from evlogic.asp.cone import treats_other_seats_alike
from evlogic.asp.facts import board_program, game_program
from evlogic.asp.fragment import RULE_SET_READABLE_FILES, Kind, refuse_outside
from evlogic.asp.program import read_program
from evlogic.asp.search import TimeLimit
from evlogic.asp.solver import SCORING_RULES, ground, rule_paths
from evlogic.errors import InputError
from evlogic.loading.boards import Board, load_board
from evlogic.loading.games import Game, Player
from evlogic.loading.rulesets import RuleSet, load_rule_set
from evlogic.reports.check import CheckResult, check
from evlogic.resources import rules_dir

# --- the table of evlogic's names ------------------------------------------------------


def mentions(paths: list[Path]) -> tuple[set[tuple[str, int]], set[str]]:
    """The predicates and the constants the files mention, read afresh."""
    found: set[tuple[str, int]] = set()
    constants: set[str] = set()

    class Names(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            if atom.symbol.ast_type == clingo.ast.ASTType.Function:
                found.add((atom.symbol.name, len(atom.symbol.arguments)))
            return atom.update(**self.visit_children(atom))

        def visit_SymbolicTerm(self, term):
            if term.symbol.type == clingo.SymbolType.Function and not term.symbol.arguments:
                constants.add(term.symbol.name)
            return term

        def visit_Function(self, term):
            if not term.arguments:
                constants.add(term.name)
            return term.update(**self.visit_children(term))

    clingo.ast.parse_files([str(path) for path in paths], Names())
    return found, constants


def test_the_table_of_names_is_what_the_rule_files_use():
    # The folders of the rules a user's program is loaded beside (rules/README.md)
    folders = ("scoring", "explain", "stats", "search")
    beside = [path for folder in folders for path in sorted((rules_dir() / folder).glob("*.lp"))]
    found, constants = mentions(beside)
    assert found == predicates.EVLOGIC_PREDICATES
    assert constants == predicates.EVLOGIC_CONSTANTS
    scoring, _ = mentions([rules_dir() / name for name in RULE_SET_READABLE_FILES])
    assert scoring == predicates.SCORING_MENTIONS


def derivers(paths: list[Path]) -> dict[tuple[str, int], set[str]]:
    """Each predicate in a rule head of the files (a choice's or a
    disjunction's elements, not their conditions), and the files, by name
    below rules/, whose rules derive it."""
    found: dict[tuple[str, int], set[str]] = {}
    types = clingo.ast.ASTType

    def atoms(head):
        if head.ast_type == types.Literal:
            return [head.atom]
        if head.ast_type in (types.Aggregate, types.Disjunction):
            return [element.literal.atom for element in head.elements]
        if head.ast_type == types.HeadAggregate:
            return [element.condition.literal.atom for element in head.elements]
        return []

    def statement(node):
        if node.ast_type != types.Rule:
            return
        for atom in atoms(node.head):
            if atom.ast_type == types.SymbolicAtom and atom.symbol.ast_type == types.Function:
                name = Path(node.location.begin.filename).relative_to(rules_dir()).as_posix()
                found.setdefault((atom.symbol.name, len(atom.symbol.arguments)), set()).add(name)

    for path in paths:
        clingo.ast.parse_files([str(path)], statement, logger=lambda _code, _message: None)
    return found


def test_the_table_s_roles_are_what_the_rule_files_do_with_the_names():
    """A player's figure, what compares players, the search's own
    predicates and the rules' steps are derived by evlogic's rules; the
    board's and the search's facts, what a command gives beside the rules
    and what a property derives for the search never are.  The cone of
    influence (evlogic/asp/cone.py) lets a reduced search read by role, and
    a search loads a file for what it alone derives (Name.loads)."""
    folders = ("scoring", "explain", "stats", "search")
    beside = [path for folder in folders for path in sorted((rules_dir() / folder).glob("*.lp"))]
    derived = derivers(beside)
    table = predicates.PREDICATES
    always = {predicates.FIGURE, predicates.BETWEEN, predicates.SEARCH, predicates.STEP}
    never = {predicates.BOARD, predicates.SEARCH_FACT, predicates.GIVEN, predicates.PROPERTY}
    assert sorted(name for name, entry in table.items() if entry.role in always) == sorted(
        name for name in derived if table[name].role in always
    )
    assert [name for name in derived if table[name].role in never] == []
    for name, entry in table.items():
        if entry.loads is not None:
            assert entry.loads in derived[name], name
        if entry.seat is not None:
            assert entry.role in {predicates.FIGURE, predicates.POSITION, predicates.BETWEEN}
            assert entry.seat < name[1], name
        assert not entry.far or entry.role is predicates.WHOLE, name
    assert predicates.HOLDINGS.issubset(predicates.having(predicates.POSITION))


@pytest.mark.parametrize(
    "path",
    sorted((rules_dir() / "properties").rglob("*.lp")),
    ids=lambda path: str(path.relative_to(rules_dir())),
)
def test_every_bundled_property_lies_in_the_fragment(path):
    refuse_outside(read_program([path]), Kind.PROPERTY)


def test_the_readme_s_rule_set_program_lies_in_the_fragment(tmp_path):
    (tmp_path / "home-bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    refuse_outside(read_program([tmp_path / "home-bonus.lp"]), Kind.RULE_SET)


# --- the false proofs, each refused in one line -----------------------------------

FIVE = board_dict(
    [("A", "B"), ("A", "C"), ("B", "C"), ("B", "D"), ("C", "D"), ("C", "E"), ("D", "E")],
    ev={"A": 3, "B": 4, "C": 5, "D": 6, "E": 7},
)
BREAKS = "violation :- total(0, 0, T), T > 20.\n"  # a counterexample exists on FIVE


@pytest.fixture
def five(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "five.yaml").write_text(yaml.safe_dump(FIVE))
    return tmp_path


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        (BREAKS + "not violation.\n", 2, "a negated head"),
        (BREAKS + "1 { never : state(S), S < 0 } :- violation.\n", 2, "a choice other than"),
        (BREAKS + ":- total(0, 0, T), T > 20.\n", 2, "an integrity constraint"),
        (BREAKS + "#const smallest_level = 1.\n", 2, "a #const"),
        (BREAKS + "#external armed.\n", 2, "an #external"),
        (BREAKS + "#minimize{ 1, S : state(S) }.\n", 2, "an optimisation"),
        (BREAKS + "#heuristic state(1). [1, true]\n", 2, "a #heuristic"),
        (BREAKS + "a ; b.\n", 2, "not one plain atom (a disjunction?)"),
        (BREAKS + "ok :- #true.\n", 2, "#true or #false in its body"),
        (BREAKS + "p :- not not q.\nq.\n", 2, "doubly negated"),
    ],
)
def test_a_property_outside_the_fragment_is_refused(cli, five, text, line, why):
    (five / "p.lp").write_text(BREAKS)
    assert cli("check", "p.lp", "--board", "five.yaml").code == 1  # the property fails
    (five / "p.lp").write_text(text)
    result = cli("check", "p.lp", "--board", "five.yaml")
    assert result.code == 2, result.out
    [error] = result.err.splitlines()
    assert error.startswith(f"evlogic: error: p.lp: line {line}: '") and why in error, error


@pytest.mark.parametrize(
    ("program", "why"),
    [
        ("#defined violation/0.\nnot violation.\n", "a negated head"),
        ("always(G) :- game(G).\nnot always(G) :- change(0, 1, P, S, D), D < 0.\n", "negated"),
        (
            "face_value(G, P, discount, -1000) :- points(G, P, _, S), S != discount.\n",
            "reading points/4",
        ),
        ("face_value(G, P, S, 1) :- owned(G, P, S).\n", "whose source is not a name of its own"),
        ("face_value(G, P, bonus, 1) :- home(G, P, _).\n", "whose source is not a name of its own"),
        ("face_value(0, P, extra, 1) :- home(0, P, _).\n", "first argument is not a variable"),
        ("face_value(G, P, x, 1) :- home(G, P, _), owned(H, P, _).\n", "another position"),
        ("#show face_value/4.\n", "a #show"),
        # score lists a game's states (listed/4), a search's positions list
        # nothing: +100 on five.yaml for P1 at B with A and C listed, never in
        # a search, so "total >= 100" was proved never to happen
        ("face_value(G, P, early, 100) :- won_at(G, P, S, (0, 1)).\n", "reading won_at/4"),
        ("face_value(G, P, ranked, 1) :- core_rank(G, P, _, (0, _)).\n", "reading core_rank/4"),
        # triangle(0, _) holds when any position has a home at state 0: a
        # property's position 1 with a home there gave -1000 to every position
        # of the search, none to P1 at B under score
        ("face_value(G, P, tri, -1000) :- player(G, P), triangle(G, _).\n", "reading triangle/2"),
        # a seat's variable as a board fact's or a figure's argument tells the
        # seats apart (seat 1: ev(1, 4)), and the search orders the homes of
        # seats 1.. as if they were interchangeable: a false "holds" with 3 players
        ("face_value(G, P, x, -100) :- player(G, P), ev(P, 4).\n", "copies a seat's variable"),
        ("face_value(G, P, x, 1) :- player(G, P), states_won(G, P).\n", "copies a seat's"),
    ],
)
def test_a_rule_set_program_outside_the_fragment_is_refused(cli, five, program, why):
    (five / "r.lp").write_text(program)
    (five / "r.yaml").write_text("name: r\nextends: standard\nprograms: [r.lp]\n")
    (five / "p.lp").write_text(BREAKS)
    for args in (
        ["check", "p.lp", "--board", "five.yaml", "--rules", "r.yaml"],
        ["score", "--rules", "r.yaml"],
    ):
        result = cli(*args)
        assert result.code == 2, result.out
        [error] = result.err.splitlines()
        assert error.startswith("evlogic: error: r.lp: line ") and why in error, error


def test_for_every_over_nothing_still_searches_the_position(cli, five):
    """'1 { extra(S) : ... } 1.' whose condition holds of nothing (here:
    every home but A's) would rule those positions out as written; grounded
    as evlogic means it, the counterexamples there are found."""
    (five / "p.lp").write_text(
        "1 { extra(S) : home(0, 0, H), ev(H, 3), state(S), S != H } 1.\n"
        "violation :- home(0, 0, H), ev(H, 7).\n"
    )
    result = cli("check", "p.lp", "--board", "five.yaml", "--format", "json")
    assert result.code == 1, result.err
    [player0] = [p for p in result.json()["counterexample"]["players"] if p["name"] == "P1"]
    assert player0["home"] == "E"


def test_two_choices_of_one_predicate_are_refused(cli, five):
    """Each choice's "exactly one" counts the other choices' atoms: three
    choices of p asking for one atom in each of three overlapping sets
    leave no answer at home E, and with it the counterexample there."""
    (five / "p.lp").write_text(
        "e(0, 1).\ne(1, 0).\narmed :- home(0, 0, H), ev(H, 7).\n"
        "1 { p(1, B, C) : e(B, C), armed } 1.\n"
        "1 { p(A, 1, C) : e(A, C), armed } 1.\n"
        "1 { p(A, B, 1) : e(A, B), armed } 1.\n"
        "violation :- home(0, 0, H), ev(H, 7).\n"
    )
    result = cli("check", "p.lp", "--board", "five.yaml")
    assert result.code == 2, result.out
    [error] = result.err.splitlines()
    assert "p.lp: line 4:" in error and "which another choice chooses too" in error, error


@pytest.mark.parametrize(
    ("text", "alike"),
    [
        ("violation :- net_bonus(0, P, B), B < 0.\n", True),
        (
            "owned(1, P, S) :- owned(0, P, S), P != 0.\n"
            "violation :- player(0, P), P = Q, winner(0, Q).\n",
            True,
        ),
        ("linked(P, H) :- home(0, P, H).\nviolation :- home(0, P, S), not linked(P, S).\n", True),
        ("violation :- home(0, 2, H), ev(H, 3).\n", False),
        ("violation :- winner(0, 1).\n", False),
        ("violation :- home(0, P, A), home(0, Q, B), P < Q, B < A.\n", False),
        ("violation :- player(0, P), ev(P, 4).\n", False),
        ("mine(1).\nviolation :- mine(P), winner(0, P).\n", False),
    ],
)
def test_which_programs_tell_seats_1_and_on_apart(tmp_path, text, alike):
    """The homes of seats 1.. are searched in increasing order only for
    programs that cannot tell those seats apart (rules/search/generate.lp)."""
    (tmp_path / "p.lp").write_text(text)
    assert treats_other_seats_alike(read_program([tmp_path / "p.lp"])) is alike


# --- the argument, by brute force ----------------------------------------------------

PROPERTIES = [
    "violation :- net_bonus(0, 0, B), B {op} {k}.\n",
    "violation :- #sum{{ V, S : points(0, 0, V, S) }} {op} {k}.\n",
    "violation :- region_reaches(0, 0, 3), siege(0, 0, S).\n",
    "calm :- not siege(0, 0, _), player(0, 0).\n"
    "violation :- calm, net_bonus(0, 0, B), B {op} {k}.\n",
    "violation :- winner(0, 0), net_bonus(0, 0, B), B {op} {k}.\n",
    # own-monotone's shape, the extra state chosen among those worth more than k
    "game(1).\nplayer(1, P) :- player(0, P).\nhome(1, P, S) :- home(0, P, S).\n"
    "1 {{ extra(S) : state(S), not owned(0, 0, S), not home(0, _, S), ev(S, E), E > {k} }} 1.\n"
    "owned(1, 0, S) :- owned(0, 0, S).\nowned(1, 0, S) :- extra(S).\n"
    "owned(1, P, S) :- owned(0, P, S), P != 0, not extra(S).\ncompare(0, 1).\n"
    "violation :- #sum{{ D, Source : change(0, 1, 0, Source, D) }} {op} 0.\n",
]

RULE_SET_PROGRAMS = [
    "",
    "face_value(G, P, home_bonus, {k}) :- home(G, P, _).\n",
    "face_value(G, P, swingers, N) :-\n"
    "    player(G, P), N = #count{{ S : owned(G, P, S), swing(S) }}.\n",
    "face_value(G, P, besieged, -{k}) :- player(G, P), siege(G, P, _).\n",
    "edge_owner(G, P) :- owned(G, P, S), #count{{ T : adjacent(S, T) }} <= 1.\n"
    "face_value(G, P, edges, {k}) :- edge_owner(G, P).\n",
]

BOARD_EDGES = [
    ("A", "B"),
    ("A", "C"),
    ("B", "C"),
    ("B", "D"),
    ("C", "D"),
    ("C", "E"),
    ("D", "E"),
    ("A", "E"),
]


def positions(states: list[str], players: int):
    """Every position: distinct homes, every other state unclaimed or one
    player's (every order of homes: a superset of what the search asks)."""
    for homes in itertools.permutations(states, players):
        rest = [s for s in states if s not in homes]
        for owners in itertools.product(range(-1, players), repeat=len(rest)):
            yield [
                Player(
                    f"P{p + 1}",
                    homes[p],
                    tuple(s for s, o in zip(rest, owners, strict=True) if o == p),
                )
                for p in range(players)
            ]


def violated(board, rules, programs: list[Path], players: list[Player]) -> bool:
    """Whether some answer of the score rules, the rule set's programs and
    the property over this one position holds violation."""
    game = Game(board, tuple(players), "brute force", rules)
    facts = rules.program() + board_program(board) + game_program(game)
    # score's rules, and the search's sums of points and changes (points.lp,
    # compare.lp) that a property may read
    rules_read = rule_paths((*SCORING_RULES, "search/points.lp", "search/compare.lp"))
    control = ground(facts, [*rules_read, *programs], ["--models=0"])
    with control.solve(yield_=True) as handle:
        return any(model.contains(clingo.Function("violation")) for model in handle)


def checked(
    tmp_path: Path, board: dict, prop: str, program: str, k: int, players: int
) -> tuple[Board, RuleSet, CheckResult | None]:
    """check of the property ``prop`` on ``board`` under standard plus the
    rule set program ``program`` (k filled in); None: refused as reading an
    atom no position has, so that nothing can break it."""
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(board))
    (tmp_path / "p.lp").write_text(prop)
    (tmp_path / "r.lp").write_text(program.format(k=k) or "% none\n")
    (tmp_path / "r.yaml").write_text("name: r\nextends: standard\nprograms: [r.lp]\n")
    loaded = load_board(tmp_path / "b.yaml")
    rules = load_rule_set(str(tmp_path / "r.yaml"), tmp_path)
    players = min(players, len(loaded.states))
    try:
        limit = TimeLimit(60)
        result = check(str(tmp_path / "p.lp"), loaded, "b.yaml", rules, "r", players, limit=limit)
    except InputError as error:
        assert "could never apply" in str(error), str(error)
        return loaded, rules, None
    assert result.result != "unknown"
    return loaded, rules, result


@pytest.mark.exhaustive
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    edges=st.lists(st.sampled_from(BOARD_EDGES), min_size=3, max_size=8, unique=True),
    swing=st.sets(st.sampled_from("ABCDE"), max_size=2),
    players=st.integers(1, 2),
    prop=st.sampled_from(PROPERTIES),
    program=st.sampled_from(RULE_SET_PROGRAMS),
    op=st.sampled_from(["<", ">", ">=", "!="]),
    k=st.integers(0, 30),
)
def test_every_holds_is_what_every_position_says(
    tmp_path, edges, swing, players, prop, program, op, k
):
    states = sorted({s for edge in edges for s in edge})
    board = board_dict(edges, ev={s: 3 + i for i, s in enumerate(states)}, swing=swing)
    loaded, rules, result = checked(tmp_path, board, prop.format(op=op, k=k), program, k, players)
    programs = [*rules.programs, tmp_path / "p.lp"]
    broken = [
        position
        for position in positions(states, players)
        if violated(loaded, rules, programs, position)
    ]
    if result is None or result.result == "holds":
        assert broken == []
        return
    assert broken, "check printed a counterexample the enumeration does not have"
    found = [
        Player(p["name"], p["home"], tuple(p["states"])) for p in result.counterexample["players"]
    ]
    assert violated(loaded, rules, programs, found)
