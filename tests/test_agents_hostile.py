"""Agents as a hostile user writes them: one loader whatever the rule set.

An agent is read once (evlogic/simulation/agents.py) and grounded the same way
by both encodings of a decision: rules/play/moves.lp, and score's own rules
with rules/play/readable.lp for a rule set with programs of its own.  Every
agent here is either refused when it is read (one line naming its file,
exit 2) or plays the same game both ways, move for move; a bad choice is
the same one-line error both ways; a game is always played to its end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import clingo.ast
import pytest

from conftest import REPO, CliResult, run_subprocess
from evlogic.asp.fragment import AGENT_INPUTS
from evlogic.asp.predicates import EVLOGIC_PREDICATES
from evlogic.asp.solver import SolverError
from evlogic.errors import InputError
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.score import score_game
from evlogic.resources import rules_dir
from evlogic.simulation import engine
from evlogic.simulation.agents import BUNDLED, Agent, load_agent
from evlogic.simulation.engine import PlayedGame, play
from evlogic.simulation.table import Table, deal

LAKELAND = REPO / "examples" / "lakeland" / "board.yaml"
EXAMPLE_AGENTS = sorted((REPO / "examples").rglob("agents/*.lp"))

GREEDY = """\
best(Most) :- Most = #max{ G : candidate(X), gain(X, G) }, Most != #inf.
top(X) :- candidate(X), gain(X, G), best(G).
first(Rank) :- Rank = #min{ R : top(X), tie_break(X, R) }, Rank != #sup.
choose(X) :- top(X), tie_break(X, R), first(R).
"""


@pytest.fixture(scope="module")
def board():
    return load_board(str(LAKELAND))


@pytest.fixture(scope="module")
def home_bonus(tmp_path_factory):
    """The home-bonus rule set of docs/formats.md."""
    folder = tmp_path_factory.mktemp("home_bonus")
    (folder / "home-bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    (folder / "HOME_BONUS.yaml").write_text(
        "name: home-bonus\nextends: standard\nprograms: [home-bonus.lp]\n"
    )
    return folder / "HOME_BONUS.yaml"


def game_or_error(table: Table, readable: bool) -> tuple | str:
    """The moves played, or the one-line error the game stopped with."""
    try:
        played = play(table, readable=readable)
    except InputError as error:
        assert "\n" not in str(error)
        return str(error)
    assert played.report.final
    assert played.report == score_game(played.final)
    return played.moves


def both_ways(table: Table) -> tuple | str:
    """The game (or error) of ``table``, the same on both encodings."""
    fast = game_or_error(table, readable=False)
    readable = game_or_error(table, readable=True)
    assert fast == readable
    return fast


def tables(board, agent: Agent) -> list[Table]:
    """The agent in every seat of 2 players, and beside a bundled agent in
    each seat, under two rule sets."""
    found = []
    for seed, rules in enumerate(("standard", "standard", "gentle-siege")):
        other = load_agent(BUNDLED[seed % len(BUNDLED)])
        for agents in ((agent, agent), (agent, other), (other, agent)):
            found.append(deal(board, load_rule_set(rules), agents, "snake", seed))
    return found


# --- every bundled and example agent, both ways -------------------------------


@pytest.mark.parametrize(
    "reference",
    [*BUNDLED, *(str(path) for path in EXAMPLE_AGENTS)],
    ids=lambda reference: Path(reference).name,
)
def test_every_bundled_and_example_agent_plays_the_same_game_both_ways(
    board, home_bonus, reference
):
    agent = load_agent(reference)
    for table in tables(board, agent):
        assert isinstance(both_ways(table), tuple), table.seed
    # and to its end under a rule set with a program of its own
    table = deal(board, load_rule_set(home_bonus), (agent, load_agent("greedy")), "snake", 3)
    assert isinstance(game_or_error(table, readable=True), tuple)


def test_there_are_example_agents():
    assert EXAMPLE_AGENTS


def test_every_bundled_agent_in_a_three_player_game(board):
    agents = tuple(load_agent(name) for name in ("spoiler", "face", "random"))
    table = deal(board, load_rule_set("standard"), agents, "round-robin", 11)
    assert len(both_ways(table)) > 0


# --- hostile agents: refused when read, or the same game both ways -----------


def agent_file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def refused_when_read(path: Path, names: str | None = None) -> str:
    """The one-line refusal of the agent at ``path``, naming its file (or
    the file ``names``, one it includes)."""
    with pytest.raises(InputError) as raised:
        load_agent(str(path))
    message = str(raised.value)
    assert "\n" not in message
    assert (names or path.name) in message
    return message


#: Agents that must play as greedy does (each hides greedy's rules).
PLAYS_AS_GREEDY = {
    "show-over": '#show over : turn(3).\n#show over : turn(2).\n#include "greedy.lp".\n',
    "show-nothing": "#show.\n" + GREEDY,
    "show-choose-of-all": "#show choose(X) : candidate(X).\n" + GREEDY,
    "show-inputs": "#show over/0. #show candidate/1. #show total/2. #show choose/1.\n" + GREEDY,
    "include-self": '#include "include-self.lp".\n' + GREEDY,
    "include-each-other": '#include "other.lp".\n#include "include-each-other.lp".\n',
    "program-base": "#program base.\n" + GREEDY,
    "choose-arity-2": "choose(X, X) :- candidate(X).\n" + GREEDY,
    "own-like-engine": (
        "play_world(1, 99). chosen_gain(1000). chosen_after(0, 1000). not_candidate(99).\n"
        "deciding((0, 1)). world(1, 1, 1). in(1, 1, 1). holds(0, 0, 1, 0). over(1).\n"
        "candidate(1, 1). tie_break(1, 1, 1). agent_best(1000, 1).\n" + GREEDY
    ),
    "stratified-negation": (
        "poor(X) :- gain(X, G), G < 0.\nfine(X) :- candidate(X), not poor(X).\n"
        "choose(X) :- fine(X), not poor(X), candidate(X), top(X), tie_break(X, R), first(R).\n"
        "best(Most) :- Most = #max{ G : candidate(X), gain(X, G) }, Most != #inf.\n"
        "top(X) :- candidate(X), gain(X, G), best(G).\n"
        "first(Rank) :- Rank = #min{ R : top(X), tie_break(X, R) }, Rank != #sup.\n"
    ),
}


def write_agents(folder: Path) -> dict[str, Path]:
    (folder / "greedy.lp").write_text(GREEDY)
    (folder / "other.lp").write_text('#include "include-each-other.lp".\n' + GREEDY)
    return {name: agent_file(folder, f"{name}.lp", text) for name, text in PLAYS_AS_GREEDY.items()}


@pytest.mark.parametrize("name", sorted(PLAYS_AS_GREEDY))
def test_a_hostile_agent_in_the_fragment_plays_as_greedy_both_ways(board, tmp_path, name):
    path = write_agents(tmp_path)[name]
    agent, greedy = load_agent(str(path)), load_agent("greedy")
    rules = load_rule_set("standard")
    for seed in (4, 9):
        table = deal(board, rules, (greedy, agent), "snake", seed)
        plain = deal(board, rules, (greedy, greedy), "snake", seed)
        assert both_ways(table) == both_ways(plain), seed


def engine_predicates() -> set[tuple[str, int]]:
    """Every predicate the rules of either encoding of a decision mention
    (rules/play/), those that readable.lp and readable_decision.lp derived
    under their own names before, and evlogic's."""
    found = set(EVLOGIC_PREDICATES) | {
        ("play_world", 2),
        ("chosen_gain", 1),
        ("chosen_after", 2),
        ("not_candidate", 1),
        ("over", 0),
        ("deciding", 1),
    }

    class Atoms(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, node):
            if node.symbol.ast_type == clingo.ast.ASTType.Function:
                found.add((node.symbol.name, len(node.symbol.arguments)))
            return node

    statements: list[clingo.ast.AST] = []
    for path in sorted((rules_dir() / "play").glob("*.lp")):
        clingo.ast.parse_files([str(path)], statements.append)
    for statement in statements:
        Atoms()(statement)
    return found


def deriving(name: str, arity: int) -> str:
    arguments = ", ".join(["X"] * arity)
    return f"{name}({arguments}) :- candidate(X).\n" if arity else f"{name} :- candidate(_).\n"


def test_an_agent_deriving_any_engine_predicate_is_refused_or_changes_nothing(board, tmp_path):
    """Each engine predicate, derived by an agent: refused when read (an
    input of the agent's or a name of evlogic's), or renamed apart, and
    then all of them together change no move on either encoding."""
    predicates = engine_predicates()
    assert {("evlogic_world", 2), ("evlogic_candidate", 1), ("moved", 4)} <= predicates
    accepted = []
    for index, (name, arity) in enumerate(sorted(predicates)):
        path = agent_file(tmp_path, f"derives{index}.lp", deriving(name, arity) + GREEDY)
        if (name, arity) in AGENT_INPUTS or (name, arity) in EVLOGIC_PREDICATES:
            refused_when_read(path)
        elif name.startswith("evlogic_"):
            assert "evlogic_ names are evlogic's" in refused_when_read(path)
        else:
            load_agent(str(path))
            accepted.append(deriving(name, arity))
    assert len(accepted) > 20
    every = agent_file(tmp_path, "every.lp", "".join(accepted) + GREEDY)
    agent, greedy = load_agent(str(every)), load_agent("greedy")
    rules = load_rule_set("standard")
    for seed in (1, 4):
        table = deal(board, rules, (agent, greedy), "snake", seed)
        plain = deal(board, rules, (greedy, greedy), "snake", seed)
        assert both_ways(table) == both_ways(plain)


#: Agents whose choice is bad: the same one-line error both ways.
BAD_CHOICES = {
    "play-world-99": ("play_world(1, 99). choose(99).", "which is not a candidate"),
    "a-string": ('choose("C").', "'\"C\"' at turn"),
    "a-constant": ("choose(c).", "'c' at turn"),
    "a-tuple": ("choose((1, 2)).", "which is not a candidate"),
    "negative": ("choose(-1).", "which is not a candidate"),
    "a-home": ("choose(H) :- mover(P), home(P, H).", "which is not a candidate"),
    "a-taken-state": (
        "choose(S) :- owned(_, S).\nchoose(X) :- candidate(X), not won, tie_break(X, R), "
        "R = #min{ Q : candidate(Y), tie_break(Y, Q) }.\nwon :- owned(_, _).",
        "which is not a candidate",
    ),
    "none": ("choose(X) :- candidate(X), X < 0.", "chose 0 states"),
    "all": ("choose(X) :- candidate(X).", "states ("),
    "shown-one": (
        "choose(X) :- candidate(X).\n#show choose(X) : candidate(X), tie_break(X, 1).",
        "states (",
    ),
    "a-term-and-a-state": ('choose("C"). choose(X) :- candidate(X), tie_break(X, 1).', "chose"),
}


@pytest.mark.parametrize("name", sorted(BAD_CHOICES))
def test_a_bad_choice_is_the_same_one_line_error_both_ways(board, tmp_path, name):
    program, says = BAD_CHOICES[name]
    path = agent_file(tmp_path, f"{name}.lp", program + "\n")
    agent, greedy = load_agent(str(path)), load_agent("greedy")
    for seed in (4, 5):
        error = both_ways(deal(board, load_rule_set("standard"), (greedy, agent), "snake", seed))
        assert isinstance(error, str), error
        assert error.startswith(str(path)), error
        assert says in error and "at turn" in error, error


#: Programs that are not stratified, and the line the refusal names.
UNSTRATIFIED = {
    "not-choose": ("choose(X) :- candidate(X), not choose(X).", 1),
    "count-choose": ("choose(X) :- candidate(X), #count{ Y : choose(Y) } = 0.", 1),
    "sum-choose": ("choose(X) :- candidate(X), #sum{ 1, Y : choose(Y) } < 1.", 1),
    "condition-on-choose": (
        "done.\nchoose(X) :- candidate(X), tie_break(X, R), first(R).\n"
        "first(R) :- tie_break(_, R), done : choose(Z).",
        3,
    ),
    "even-loop": (
        "a(X) :- candidate(X), not b(X).\nb(X) :- candidate(X), not a(X).\n"
        "choose(X) :- a(X), tie_break(X, 1).",
        1,
    ),
    "odd-loop": (
        "% an odd loop through three predicates of its own\n"
        "p(X) :- candidate(X), q(X).\nq(X) :- r(X).\nr(X) :- candidate(X), not p(X).\n" + GREEDY,
        4,
    ),
    "loop-apart-from-choose": ("ghost :- not ghost.\n" + GREEDY, 1),
    "min-of-itself": ("least(M) :- M = #min{ R : least(R) ; 5 }, candidate(_).\n" + GREEDY, 1),
    "choose-via-helper": (
        GREEDY + "blocked(X) :- candidate(X), choose(Y), X != Y.\n"
        "pick(X) :- candidate(X), not blocked(X).\nchoose(X) :- pick(X), tie_break(X, 2).",
        6,
    ),
}


@pytest.mark.parametrize("name", sorted(UNSTRATIFIED))
def test_an_unstratified_agent_is_refused_when_read(tmp_path, name):
    program, line = UNSTRATIFIED[name]
    path = agent_file(tmp_path, f"{name}.lp", program + "\n")
    message = refused_when_read(path)
    assert message.startswith(f"{path}: line {line}: '"), message
    assert "depends on itself through negation or an aggregate" in message
    assert "docs/play.md" in message


def test_an_unstratified_included_file_is_named(tmp_path):
    (tmp_path / "loop.lp").write_text("a :- not b.\nb :- not a.\n")
    path = agent_file(tmp_path, "main.lp", '#include "loop.lp".\n' + GREEDY)
    message = refused_when_read(path, "loop.lp")
    assert "loop.lp: line 1: 'a :- not b.'" in message, message


def test_a_fragment_refusal_points_at_the_agent_section_of_docs_play(tmp_path):
    path = agent_file(tmp_path, "choice.lp", "{ choose(X) : candidate(X) } = 1.\n")
    message = refused_when_read(path)
    assert "docs/play.md#writing-an-agent" in message and "verification" not in message
    text = (REPO / "docs" / "play.md").read_text("utf-8")
    section = text.partition("### Writing an agent\n")[2].partition("\n## ")[0]
    for says in ("stratified", "`#show`", "renamed apart", "exactly one answer set"):
        assert says in section, says


def test_a_rule_set_s_program_cannot_reach_the_readable_rules(board, tmp_path, home_bonus):
    """readable.lp's names start evlogic_: a rule set's helpers named like
    what it derived before (play_world, mover, candidate, ...) change no
    move, and an evlogic_ name is refused when the rule set is read."""
    helpers = (
        "play_world(G, 99) :- game(G).\nmover(G) :- game(G).\ncandidate(G) :- game(G).\n"
        "player(G) :- game(G).\ntotal(G, 1000) :- game(G).\ngain(G, 1000) :- game(G).\n"
    )
    (tmp_path / "home-bonus.lp").write_text(
        "face_value(G, P, home_bonus, 5) :- home(G, P, _).\n" + helpers
    )
    (tmp_path / "sly.yaml").write_text("extends: standard\nprograms: [home-bonus.lp]\n")
    greedy = load_agent("greedy")
    for seed in (2, 4):
        sly = deal(board, load_rule_set(tmp_path / "sly.yaml"), (greedy, greedy), "snake", seed)
        plain = deal(board, load_rule_set(home_bonus), (greedy, greedy), "snake", seed)
        assert game_or_error(sly, readable=True) == game_or_error(plain, readable=True)
    (tmp_path / "bad.lp").write_text("evlogic_world(G, 99) :- game(G).\n")
    (tmp_path / "bad.yaml").write_text("extends: standard\nprograms: [bad.lp]\n")
    with pytest.raises(InputError, match="evlogic_ names are evlogic's"):
        load_rule_set(tmp_path / "bad.yaml")


# --- the command line: exit codes, one line, the game played to its end ------


def play_cli(cli: Callable[..., CliResult], rules: str | Path, agent: Path) -> CliResult:
    return cli(
        "play", "--board", LAKELAND, "--players", "2", "--rules", rules,
        "--agents", f"greedy,{agent}", "--seed", "4", "--format", "json",
    )  # fmt: skip


def assert_played_to_its_end(result: CliResult) -> list:
    assert result.code == 0, result.err
    document = result.json()
    assert document["final"]["final"] is True
    return document["moves"]


def assert_one_line(result: CliResult, code: int, *names: str) -> str:
    assert result.code == code, (result.out, result.err)
    lines = result.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


@pytest.mark.parametrize("rules", ["standard", "home-bonus"])
def test_the_command_line_plays_hostile_agents_to_the_end_or_refuses_them(
    cli, tmp_path, home_bonus, rules
):
    rule_set = home_bonus if rules == "home-bonus" else rules
    paths = write_agents(tmp_path)
    greedy = assert_played_to_its_end(play_cli(cli, rule_set, tmp_path / "greedy.lp"))
    for name in ("show-over", "include-self", "own-like-engine", "show-choose-of-all"):
        assert assert_played_to_its_end(play_cli(cli, rule_set, paths[name])) == greedy, name
    for name in ("play-world-99", "a-string", "shown-one"):
        path = agent_file(tmp_path, f"{name}.lp", BAD_CHOICES[name][0] + "\n")
        assert_one_line(play_cli(cli, rule_set, path), 2, f"{name}.lp", "at turn")
    for name in ("not-choose", "count-choose", "even-loop"):
        path = agent_file(tmp_path, f"{name}.lp", UNSTRATIFIED[name][0] + "\n")
        assert_one_line(play_cli(cli, rule_set, path), 2, f"{name}.lp", "line ")


def test_the_issue_s_command_in_a_process_of_its_own(tmp_path, home_bonus):
    """``evlogic play --rules HOME_BONUS.yaml --agents greedy,AGENT.lp``, as
    a user runs it: exit codes, stderr and the game played to its end."""
    shows = agent_file(tmp_path, "shows.lp", "#show over : turn(3).\n" + GREEDY)
    string = agent_file(tmp_path, "string.lp", 'choose("C").\n')
    loop = agent_file(tmp_path, "loop.lp", "choose(X) :- candidate(X), not choose(X).\n")
    for rules in (home_bonus, "standard"):
        base = ["play", "--board", LAKELAND, "--players", "2", "--rules", rules, "--seed", "4"]
        played = run_subprocess(*base, "--agents", f"greedy,{shows}", "--format", "json")
        assert played.code == 0 and played.err == "", played.err
        assert json.loads(played.out)["final"]["final"] is True
        assert "projection" not in played.out
        for path in (string, loop):
            assert_one_line(run_subprocess(*base, "--agents", f"greedy,{path}"), 2, path.name)


# --- a game is always played to its end --------------------------------------


def test_a_played_game_that_is_not_final_is_an_internal_error(board):
    greedy = load_agent("greedy")
    table = deal(board, load_rule_set("standard"), (greedy, greedy), "snake", 1)
    start = table.game()
    with pytest.raises(SolverError, match="before its game end"):
        PlayedGame(table, (), start, score_game(start))


def stopping_early(monkeypatch) -> None:
    """Make both encodings believe the game is over from turn 3 on (a bug):
    both read a decision by engine._read."""
    read = engine._read

    def read_over(symbols, index, recorded):
        decisions = read(symbols, index, recorded)
        turns = {s.arguments[0].arguments[1].number for s in symbols if s.name == "total"}
        if turns and min(turns) >= 3:
            for decision in decisions.values():
                decision.over = True
        return decisions

    monkeypatch.setattr(engine, "_read", read_over)


@pytest.mark.parametrize("rules", ["standard", "home-bonus"])
def test_a_game_stopped_early_is_exit_70_for_play_and_balance(cli, monkeypatch, home_bonus, rules):
    stopping_early(monkeypatch)
    rule_set = home_bonus if rules == "home-bonus" else rules
    base = ["--board", LAKELAND, "--players", "2", "--rules", rule_set, "--agents", "greedy"]
    assert_one_line(cli("play", *base, "--seed", "4"), 70, "internal error", "game end")
    balance = cli("balance", *base, "--games", "3", "--seed", "1")
    assert_one_line(balance, 70, "internal error", "game end")
    assert balance.out == ""


def test_both_encodings_stop_early_under_the_same_patch(board, monkeypatch):
    """(The patch above reaches both encodings.)"""
    stopping_early(monkeypatch)
    greedy = load_agent("greedy")
    table = deal(board, load_rule_set("standard"), (greedy, greedy), "snake", 4)
    for readable in (False, True):
        with pytest.raises(SolverError):
            play(table, readable=readable)


def test_an_unsafe_agent_is_refused_when_read_not_at_its_first_turn(tmp_path):
    path = agent_file(tmp_path, "unsafe.lp", GREEDY + "\nchoose(X) :- not candidate(X).\n")
    message = refused_when_read(path)
    assert message.startswith(f"{path}: line "), message
    assert "'X' is unsafe" in message and "Traceback" not in message
