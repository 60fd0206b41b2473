"""Only positions that can happen: "the game ends immediately when the 36th
state is won", so no position has more states won (homes included) than its
game end.  The searches of check and diff range over positions within it
(against the enumeration of every such position), and score, explain,
diagram, batch (both encodings) and the Python and web APIs refuse a
position past it in one line naming where the game end was set."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient
from test_search_soundness import PROPERTIES, canonical_key, owned_count, positions

import evlogic.asp.compiled.tables
from conftest import LOCAL_URL, REPO, SEARCH_EDGES, board_dict, run_subprocess
from evlogic.asp.search import TimeLimit
from evlogic.batching.reading import BatchOptions
from evlogic.batching.runner import run_batch
from evlogic.errors import InputError
from evlogic.loading.boards import load_board
from evlogic.loading.games import load_game
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.check import check
from evlogic.reports.diff import diff
from evlogic.reports.explain import explain_game
from evlogic.reports.score import score_game
from evlogic.resources import bundled_boards, rules_dir
from evlogic.web.app import create_app
from evlogic.web.service import Catalog
from plain_scorer import Rules, score_position

#: An 8-state board whose game ends at 6.
EIGHT = {
    "name": "eight",
    "game_end": 6,
    "states": {
        "A": {"ev": 3, "neighbors": ["B", "C"]},
        "B": {"ev": 4, "neighbors": ["A", "C", "D"]},
        "C": {"ev": 5, "neighbors": ["A", "B", "D", "E"]},
        "D": {"ev": 2, "neighbors": ["B", "C", "F"]},
        "E": {"ev": 6, "neighbors": ["C", "F", "G"]},
        "F": {"ev": 1, "neighbors": ["D", "E", "H"]},
        "G": {"ev": 7, "neighbors": ["E", "H"]},
        "H": {"ev": 8, "neighbors": ["F", "G"]},
    },
}


# --- every entry point refuses a position past the game end ---------------------

#: Player P1 holds 6 states besides its home, P2 its home: 8 of 6 won.
PAST = [
    {"name": "P1", "home": "A", "states": ["C", "D", "E", "F", "G", "H"]},
    {"name": "P2", "home": "B", "states": []},
]
REFUSAL = "8 states won (homes included), but the game ends when state 6 is won"


def one_line(result) -> str:
    assert result.code == 2, result.out + result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err
    return lines[0]


@pytest.fixture
def past_game(tmp_path: Path) -> Path:
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(EIGHT, sort_keys=False))
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump({"board": "board.yaml", "players": PAST}, sort_keys=False))
    return path


def test_score_explain_diagram_and_facts_refuse_naming_the_boards_game_end(cli, past_game):
    board_line = (past_game.parent / "board.yaml").read_text().splitlines().index("game_end: 6")
    board_file = past_game.parent / "board.yaml"
    where = f"set by game_end of board 'eight' ({board_file}, line {board_line + 1})"
    for args in (
        ("score", str(past_game)),
        ("explain", str(past_game), "--player", "P1"),
        ("diagram", str(past_game), "--player", "P1", "-o", str(past_game.parent / "d.svg")),
        ("facts", str(past_game)),
        ("facts", str(past_game), "--rules", "open-region"),
        ("facts", str(past_game), "--rules", str(REPO / "examples/lakeland/home-bonus.yaml")),
        ("explain", str(past_game), "--player", "P1", "--rules", "union-cores"),
    ):
        message = one_line(cli(*args))
        assert f"{past_game}: players: {REFUSAL}" in message, message
        assert where in message, message
    assert not (past_game.parent / "d.svg").exists()


def test_a_game_read_from_stdin_or_verified_is_refused_alike(past_game):
    """score and facts reading the game from stdin say the same line, and
    verify fails the scenario with it, exit 2."""
    text = past_game.read_text().replace("board.yaml", str(past_game.parent / "board.yaml"))
    said = {
        command: run_subprocess(command, "-", stdin=text, cwd=past_game.parent)
        for command in ("score", "facts")
    }
    assert said["score"].err == said["facts"].err and said["facts"].out == ""
    assert f"<stdin>: players: {REFUSAL}" in one_line(said["facts"])
    expecting = past_game.parent / "expecting.yaml"
    expecting.write_text(past_game.read_text() + "expect: {winners: [P1]}\n")
    verified = run_subprocess("verify", str(expecting))
    assert verified.code == 2 and REFUSAL in verified.out, verified.out + verified.err


def test_score_names_the_rule_sets_game_end_inline_and_in_a_file(cli, tmp_path):
    board = {**EIGHT, "game_end": 8}
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board, sort_keys=False))
    inline = tmp_path / "inline.yaml"
    inline.write_text(
        "board: board.yaml\nrules:\n  extends: standard\n  game_end: 6\n"
        + yaml.safe_dump({"players": PAST}, sort_keys=False)
    )
    message = one_line(cli("score", str(inline)))
    assert REFUSAL in message and f"set by rules.game_end of {inline}, line 4" in message
    (tmp_path / "six.yaml").write_text("name: six\nextends: standard\ngame_end: 6\n")
    (tmp_path / "child.yaml").write_text("name: child\nextends: six.yaml\nsiege_penalty: 5\n")
    game = tmp_path / "game.yaml"
    game.write_text(yaml.safe_dump({"board": "board.yaml", "players": PAST}, sort_keys=False))
    message = one_line(cli("score", str(game), "--rules", str(tmp_path / "child.yaml")))
    assert REFUSAL in message and f"game_end of {tmp_path / 'six.yaml'}, line 3" in message


def test_score_names_the_default_game_end_of_a_board_without_one(cli, tmp_path):
    board = {key: value for key, value in EIGHT.items() if key != "game_end"}
    board["states"] = {f"S{i}": {"ev": 1} for i in range(40)}
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    players = [{"name": "P1", "home": "S0", "states": [f"S{i}" for i in range(1, 37)]}]
    game = tmp_path / "game.yaml"
    game.write_text(yaml.safe_dump({"board": "board.yaml", "players": players}))
    message = one_line(cli("score", str(game)))
    assert "37 states won (homes included), but the game ends when state 36 is won" in message
    assert (
        f"(set by the default of board 'eight' ({tmp_path / 'board.yaml'} sets no game_end: "
        "36 states, or all of them when fewer)): no position has more"
    ) in message
    players[0]["states"].pop()  # 36 states won: the final position
    game.write_text(yaml.safe_dump({"board": "board.yaml", "players": players}))
    assert cli("score", str(game), "--format", "json").json()["final"] is True


def test_the_python_api_refuses_it(past_game):
    game = load_game(past_game)
    with pytest.raises(InputError, match=re.escape(REFUSAL)):
        score_game(game)
    with pytest.raises(InputError, match=re.escape(REFUSAL)):
        explain_game(game, "P1")


def test_the_web_api_refuses_it_with_the_same_line():
    catalog = Catalog.build()
    client = TestClient(create_app(catalog), base_url=LOCAL_URL)
    usa = load_board(bundled_boards()["usa"])
    ids = sorted(usa.states)
    players = [{"name": "P1", "home": ids[0], "states": ids[1:37]}]  # 37 of 36
    for path, body in (
        ("/api/score", {"board": "usa", "players": players}),
        ("/api/explain", {"board": "usa", "players": players, "player": "P1"}),
        ("/api/diagram", {"board": "usa", "players": players, "player": "P1"}),
    ):
        answer = client.post(path, json=body)
        assert answer.status_code == 400, answer.text
        message = answer.json()["error"]
        assert "37 states won (homes included), but the game ends when state 36 is won" in message
        # the server names bundled boards by name, never by path
        assert "(set by game_end of board 'United States (2024 electors)' (usa, line " in message


def batch_output(lines: list[str], base: Path) -> list[dict]:
    out = io.StringIO()
    run_batch(lines, out, BatchOptions("in.jsonl", None, str(base)), chunk_size=3)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_batch_refuses_the_same_lines_in_both_encodings_as_score(tmp_path, monkeypatch):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(EIGHT, sort_keys=False))
    six = [{"name": "P1", "home": "A", "states": ["C", "D", "E", "F"]}, {"name": "P2", "home": "B"}]
    lines = [
        json.dumps({"board": "board.yaml", "players": six}),
        json.dumps({"board": "board.yaml", "players": PAST}),
        json.dumps(
            {"board": "board.yaml", "rules": {"extends": "standard", "game_end": 5}, "players": six}
        ),
        json.dumps({"board": "board.yaml", "players": six}),
    ]
    compiled = batch_output(lines, tmp_path)
    monkeypatch.setattr(evlogic.asp.compiled.tables, "applies", lambda _board, _rules: False)
    readable = batch_output(lines, tmp_path)
    assert compiled == readable
    assert [("error" in line) for line in compiled] == [False, True, True, False]
    board_path = tmp_path / "board.yaml"
    assert compiled[1]["error"] == (
        f"in.jsonl: line 2: players: {REFUSAL} (set by game_end of board 'eight' "
        f"({board_path}, line 2)): no position has more states won than that"
    )
    assert compiled[2]["error"].startswith(
        "in.jsonl: line 3: players: 6 states won (homes included), but the game ends when "
        "state 5 is won (set by rules.game_end of in.jsonl, line 3)"
    )
    assert compiled[0]["final"] is True and compiled[0]["states_won"] == 6
    # score says the same of each line, in its own words for its file
    for number, line in enumerate(lines, start=1):
        game_file = tmp_path / f"line{number}.yaml"
        game_file.write_text(yaml.safe_dump(json.loads(line)))
        game = load_game(game_file)
        if "error" in compiled[number - 1]:
            with pytest.raises(InputError, match="but the game ends when state"):
                score_game(game)
        else:
            assert {"line": number, **score_game(game).to_dict()} == compiled[number - 1]


BOARD = board_dict(SEARCH_EDGES, ev={"C": 5, "D": 3})  # 6 states: H A B C D E

#: Properties about how many states are won, with their plain meaning.
COUNTING: dict[str, tuple[str, Callable[[dict], bool]]] = {
    "many": ("violation :- states_won(0, N), N > 4.\n", lambda f: f["states_won"] > 4),
    "final": ("violation :- final(0).\n", lambda f: f["final"]),
    "final-bonus": (
        "violation :- final(0), net_bonus(0, 0, B), B > 0.\n",
        lambda f: f["final"] and f["players"][0]["net_bonus"] > 0,
    ),
}


def write(tmp_path: Path, board: dict, rules: dict | None = None) -> tuple[Path, Path | None]:
    board_path = tmp_path / "board.yaml"
    board_path.write_text(yaml.safe_dump(board))
    if rules is None:
        return board_path, None
    rules_path = tmp_path / "rules.yaml"
    rules_path.write_text(yaml.safe_dump({"name": "r", "extends": "standard", **rules}))
    return board_path, rules_path


def run_check(tmp_path: Path, board: dict, text: str, players: int, rules: dict | None = None):
    board_path, rules_path = write(tmp_path, board, rules)
    (tmp_path / "prop.lp").write_text(text)
    result = check(
        str(tmp_path / "prop.lp"),
        load_board(board_path),
        "board.yaml",
        load_rule_set(str(rules_path) if rules_path else "standard"),
        "rules.yaml" if rules_path else "standard",
        players=players,
        limit=TimeLimit(60),
    )
    assert result.result != "unknown"
    return result


def witness_players(result) -> list[dict]:
    return [
        {"name": p["name"], "home": p["home"], "states": sorted(p["states"])}
        for p in result.counterexample["players"]
    ]


def enumerated(
    states: list[str], players: int, end: int, breaks: Callable[[list[dict]], bool]
) -> list[dict] | None:
    """The canonical smallest position within ``end`` states won that breaks,
    or None: the enumeration of every position that can happen."""
    found = [p for p in positions(states, players) if owned_count(p) <= end and breaks(p)]
    if not found:
        return None
    size = min(owned_count(p) for p in found)
    return min((p for p in found if owned_count(p) == size), key=lambda p: canonical_key(p, states))


# --- the searches range over positions within the game end ---------------------


@pytest.mark.parametrize(
    ("where", "end"), [("board", 2), ("board", 3), ("board", 4), ("board", 5), ("rules", 4)]
)
@pytest.mark.parametrize("players", [1, 2, 3])
def test_every_check_answer_is_the_enumeration_within_the_game_end(tmp_path, where, end, players):
    """Every bundled-style property of the soundness tests and the counting
    ones, with the game end set by the board or by a rule set: the answer,
    the smallest size and the very position printed are the enumeration's
    over positions with at most the game end won, and every witness is one."""
    board = {**BOARD, "game_end": end} if where == "board" else BOARD
    rules = {"game_end": end} if where == "rules" else None
    states = sorted(BOARD["states"])
    plain = Rules(game_end=end)
    if players > end:
        with pytest.raises(InputError, match="--players: must be at most"):
            run_check(tmp_path, board, PROPERTIES["p0-bonus"][0], players, rules)
        return
    for name, (text, holds) in {**PROPERTIES, **COUNTING}.items():

        def breaks(position: list[dict], holds=holds) -> bool:
            return holds(score_position(BOARD["states"], position, end, plain))

        expected = enumerated(states, players, end, breaks)
        try:
            result = run_check(tmp_path, board, text, players, rules)
        except InputError as error:  # a property that could never fail
            assert "the rule reading it could never apply" in str(error), name
            assert expected is None, name
            continue
        if expected is None:
            assert result.result == "holds", (name, result)
            continue
        assert result.result == "counterexample" and result.smallest, (name, result)
        found = witness_players(result)
        assert owned_count(found) <= end, name
        assert found == expected, name


def test_own_monotone_wins_one_more_state_only_within_the_game_end(tmp_path):
    """Position 1 (position 0 and one more state) must be a position that
    can happen too: under tiers that shrink, the answer is the
    enumeration's over pairs of positions within the game end."""
    text = (rules_dir() / "properties" / "own-monotone.lp").read_text()
    tiers = {3: 40, 4: 5}
    plain = Rules(tiers=tiers, game_end=4)
    states = sorted(BOARD["states"])

    def total(position: list[dict]) -> int:
        return score_position(BOARD["states"], position, 4, plain)["players"][0]["total"]

    def breaks(position: list[dict]) -> bool:
        homes = {p["home"] for p in position}
        mine = {position[0]["home"], *position[0]["states"]}
        for state in sorted(set(states) - homes - mine):
            after = [{**p, "states": [s for s in p["states"] if s != state]} for p in position]
            after[0]["states"] = sorted([*after[0]["states"], state])
            if owned_count(after) <= 4 and total(after) < total(position):
                return True
        return False

    # One player: the core and one more state is a break within 4 states
    # won.  Two: the second home makes that 5, a position that cannot happen.
    for players, breaks_within in ((1, True), (2, False)):
        result = run_check(tmp_path, BOARD, text, players, {"tiers": tiers, "game_end": 4})
        expected = enumerated(states, players, 4, breaks)
        assert (expected is not None) == breaks_within
        if expected is None:
            assert result.result == "holds"
            continue
        assert result.result == "counterexample" and result.smallest
        assert witness_players(result) == expected


def test_diff_ranges_over_positions_that_both_rule_sets_allow(tmp_path):
    """The second rule set ends the game at 3 states: a difference that
    needs 4 states won (a region of 4) is no difference, as such a position
    cannot happen under it; without that game end it is one."""
    board_path, _ = write(tmp_path, BOARD)
    (tmp_path / "first.yaml").write_text("name: first\nextends: standard\n")
    (tmp_path / "second.yaml").write_text(
        "name: second\nextends: standard\ngame_end: 3\ntiers: {3: 15, 4: 99, 5: 35, 6: 45}\n"
    )
    # Only a region of 4 differs: never within 3 states won.
    result = diff(
        load_rule_set(str(tmp_path / "first.yaml")),
        "first.yaml",
        load_rule_set(str(tmp_path / "second.yaml")),
        "second.yaml",
        load_board(board_path),
        "board.yaml",
        1,
        TimeLimit(60),
    )
    assert result.total_diff.result == "equivalent"
    assert result.winner_diff.result == "equivalent"
    # Without the game end, the same tiers differ at 4 states.
    (tmp_path / "third.yaml").write_text(
        "name: third\nextends: standard\ntiers: {3: 15, 4: 99, 5: 35, 6: 45}\n"
    )
    unbounded = diff(
        load_rule_set(str(tmp_path / "first.yaml")),
        "first.yaml",
        load_rule_set(str(tmp_path / "third.yaml")),
        "third.yaml",
        load_board(board_path),
        "board.yaml",
        1,
        TimeLimit(60),
    )
    assert unbounded.total_diff.result == "differs" and unbounded.total_diff.smallest
    assert owned_count(unbounded.total_diff.counterexample["players"]) == 4


def test_diff_witnesses_stay_within_both_game_ends(tmp_path):
    """A difference in the 3-state tier, one rule set ending at 3: the
    witness is a core and nothing more (3 states won, one player)."""
    board_path, _ = write(tmp_path, BOARD)
    (tmp_path / "first.yaml").write_text("name: first\nextends: standard\ngame_end: 3\n")
    (tmp_path / "second.yaml").write_text(
        "name: second\nextends: standard\ntiers: {3: 16, 4: 25, 5: 35, 6: 45}\n"
    )
    result = diff(
        load_rule_set(str(tmp_path / "first.yaml")),
        "first.yaml",
        load_rule_set(str(tmp_path / "second.yaml")),
        "second.yaml",
        load_board(board_path),
        "board.yaml",
        1,
        TimeLimit(60),
    )
    for search in (result.total_diff, result.winner_diff):
        if search.result == "differs":
            assert search.smallest
            assert owned_count(search.counterexample["players"]) <= 3
    assert result.total_diff.result == "differs"
    assert owned_count(result.total_diff.counterexample["players"]) == 3


# --- the issue's examples ------------------------------------------------------


def test_no_position_on_usa_has_more_than_36_states_won(cli, tmp_path):
    (tmp_path / "many.lp").write_text("violation :- states_won(0, N), N > 40.\n")
    result = cli("check", str(tmp_path / "many.lp"), "--format", "json")
    assert result.code == 0, result.out + result.err
    assert result.json()["result"] == "holds"


def test_on_eight_states_ending_at_6_a_witness_has_6_and_scores_as_final(cli, tmp_path):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(EIGHT))
    (tmp_path / "more.lp").write_text("violation :- states_won(0, N), N > 6.\n")
    more = cli("check", str(tmp_path / "more.lp"), "--board", str(tmp_path / "board.yaml"))
    assert more.code == 0, more.out + more.err
    (tmp_path / "six.lp").write_text("violation :- states_won(0, N), N >= 6.\n")
    six = cli(
        "check", str(tmp_path / "six.lp"), "--board", str(tmp_path / "board.yaml"), "--players", "3"
    )
    assert six.code == 1, six.out + six.err
    witness = yaml.safe_load(six.out)
    assert owned_count(witness["players"]) == 6
    (tmp_path / "witness.yaml").write_text(six.out)
    scored = cli("score", str(tmp_path / "witness.yaml"), "--format", "json")
    assert scored.code == 0, scored.err
    assert scored.json()["final"] is True and scored.json()["states_won"] == 6
