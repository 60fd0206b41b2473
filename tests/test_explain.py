"""`evlogic explain`: witnesses and what-if, checked against the rulebook,
the plain scorer on random positions, and by re-scoring changed positions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import RULEBOOK
from evlogic.errors import InputError
from evlogic.loading.games import Game, Player, load_game
from evlogic.reports.explain import explain_game
from evlogic.reports.score import score_game
from plain_scorer import score_position
from strategies import as_game, positions

# --- the rulebook ----------------------------------------------------------


def test_full_example_explained(cli):
    result = cli("explain", RULEBOOK / "full-example.yaml", "--player", "You", "--format", "json")
    assert result.code == 0, result.err
    explained = result.json()
    assert explained["player"] == "You"
    # You list IN, WV, TN: the core KY + IN + WV is won first, TN joins (the
    # rulebook's story; KY + IN + TN grows as far but is complete later).
    assert explained["core"] == ["KY", "IN", "WV"]
    assert explained["joins"] == [{"state": "TN", "links": ["IN", "KY", "WV"]}]
    assert explained["excluded"] == []
    assert explained["siege"] == [
        {"state": "MO", "owner": "Rival", "penalty": 10},
        {"state": "VA", "owner": "Rival", "penalty": 10},
    ]
    gains = {option["state"]: option for option in explained["what_if"]}
    assert "OH" not in gains  # the rival's home never changes hands
    assert "KY" not in gains and "IN" not in gains
    # Virginia: +13 face, region 4 -> 5 (+10 bonus) and one siege state fewer (+10).
    assert gains["VA"]["gain"] == 33
    assert len(gains["VA"]["reasons"]) == 3
    assert [option["gain"] for option in explained["what_if"]] == sorted(
        (option["gain"] for option in explained["what_if"]), reverse=True
    )


def test_explain_follows_the_order_states_are_listed(cli, tmp_path):
    """Listed TN, IN, WV: KY + IN + TN is complete second, before any core
    with WV, so it counts and WV joins; the figures do not change."""
    game = tmp_path / "game.yaml"
    game.write_text(
        "board: usa\nplayers:\n"
        "  - {name: You, home: KY, states: [TN, IN, WV]}\n"
        "  - {name: Rival, home: OH, states: [VA, MO]}\n"
    )
    explained = cli("explain", game, "--player", "You", "--format", "json").json()
    assert explained["core"] == ["KY", "IN", "TN"]
    assert explained["joins"] == [{"state": "WV", "links": ["IN", "KY", "TN"]}]
    assert explained["total"] == 39
    text = cli("explain", game, "--player", "You").out
    assert "Core: KY + IN + TN" in text and "+ WV joins: touches IN, KY, TN" in text
    report = cli("score", game, "--format", "json").json()
    assert report["players"][0]["core"] == ["KY", "IN", "TN"]
    assert report["players"][0]["region"] == ["KY", "IN", "TN", "WV"]


def test_missouri_is_left_out_with_one_link(cli):
    explained = cli(
        "explain", RULEBOOK / "diagram-3-missouri.yaml", "--player", "You", "--format", "json"
    ).json()
    assert explained["excluded"] == [{"state": "MO", "links": ["KY"], "needed": 2}]
    text = cli("explain", RULEBOOK / "diagram-3-missouri.yaml", "--player", "You").out
    assert "MO left out: touches only KY; needs 2" in text


def test_a_program_that_adds_a_face_value_of_its_own_is_explained_and_drawn(cli, tmp_path):
    """docs/formats.md's home-bonus program gives each home a face value of
    source home_bonus (not a state): explain and diagram count it in the
    total and draw each tile with its state's own value."""
    (tmp_path / "home-bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    (tmp_path / "home-bonus.yaml").write_text(
        "name: home-bonus\nextends: standard\nprograms: [home-bonus.lp]\n"
    )
    game = RULEBOOK / "full-example.yaml"
    rules = ("--rules", tmp_path / "home-bonus.yaml")
    scored = cli("score", game, *rules, "--format", "json").json()["players"][0]
    explained = cli("explain", game, "--player", "You", *rules, "--format", "json")
    assert explained.code == 0, explained.err
    assert explained.json()["total"] == scored["total"]
    drawn = cli("diagram", game, "--player", "You", *rules, "-o", "-")
    assert drawn.code == 0, drawn.err
    assert ">KY</text>" in drawn.out and ">8</text>" in drawn.out


def test_unknown_player_is_a_clear_error(cli):
    for command in ("explain", "diagram"):
        result = cli(command, RULEBOOK / "full-example.yaml", "--player", "Rivl")
        assert result.code == 2
        assert result.err.startswith("evlogic: error: ")
        assert "no player named 'Rivl'" in result.err and "did you mean 'Rival'" in result.err
        assert result.err.count("\n") == 1


# --- random positions ------------------------------------------------------


def plain_figures(board: dict, players: list[dict]) -> dict:
    return score_position(board["states"], players, board["game_end"])


def expected_roles(board: dict, players: list[dict], me: int, mine: dict) -> dict[str, str]:
    owner = {s: i for i, p in enumerate(players) for s in (p["home"], *p["states"])}
    roles = {}
    for state in board["states"]:
        if state == mine["home"]:
            roles[state] = "home"
        elif state in mine["core"]:
            roles[state] = "core"
        elif state in mine["region"]:
            roles[state] = "region"
        elif owner.get(state) == me:
            roles[state] = "excluded"
        elif state in mine["siege"]:
            roles[state] = "siege"
        elif state in owner:
            roles[state] = "opponent"
        else:
            roles[state] = "unclaimed"
    return roles


@pytest.mark.exhaustive
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_witnesses_agree_with_the_plain_scorer(position, data):
    board, players = position
    me = data.draw(st.integers(0, len(players) - 1))
    explained = explain_game(as_game(board, players), players[me]["name"])
    mine = plain_figures(board, players)["players"][me]
    neighbors = {s: set(info["neighbors"]) for s, info in board["states"].items()}

    assert explained.core == mine["core"]
    region = explained.score.region
    assert [join.state for join in explained.joins] == region[3:]
    for index, join in enumerate(explained.joins, start=3):
        assert set(join.links) == set(region[:index]) & neighbors[join.state]
        assert len(join.links) >= 2

    owned = {mine["home"], *players[me]["states"]}
    assert [e.state for e in explained.excluded] == sorted(owned - set(region) - {mine["home"]})
    for excluded in explained.excluded:
        assert set(excluded.links) == set(region) & neighbors[excluded.state]
        assert excluded.needed == 2

    owner = {s: p["name"] for p in players for s in (p["home"], *p["states"])}
    assert [(s.state, s.owner, s.penalty) for s in explained.siege] == [
        (state, owner[state], 10) for state in mine["siege"]
    ]

    assert explained.roles == expected_roles(board, players, me, mine)
    by_kind = {
        kind: {(link.start, link.end) for link in explained.links if link.kind == kind}
        for kind in ("core", "join", "lone")
    }
    if explained.core:
        home, a, b = explained.core
        assert by_kind["core"] == {(home, a), (home, b), (a, b)}
    else:
        assert by_kind["core"] == set()
    for index, join in enumerate(explained.joins, start=3):
        admitting = {start for start, end in by_kind["join"] if end == join.state}
        assert len(admitting) == 2
        assert admitting <= set(region[:index]) & neighbors[join.state]
    assert {end for _, end in by_kind["lone"]} == {
        e.state for e in explained.excluded if len(e.links) == 1
    }


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_what_if_gains_are_real_rescoring(position, data):
    board, players = position
    me = data.draw(st.integers(0, len(players) - 1))
    explained = explain_game(as_game(board, players), players[me]["name"])
    homes = {p["home"] for p in players}
    owned = {players[me]["home"], *players[me]["states"]}
    assert {option.state for option in explained.what_if} == set(board["states"]) - owned - homes
    before = plain_figures(board, players)["players"][me]["total"]
    for option in explained.what_if:
        changed = [
            {
                **p,
                "states": [s for s in p["states"] if s != option.state]
                + ([option.state] if i == me else []),
            }
            for i, p in enumerate(players)
        ]
        after = plain_figures(board, changed)["players"][me]["total"]
        assert option.gain == after - before, option
    if explained.what_if:  # and once through the engine itself
        option = data.draw(st.sampled_from(explained.what_if))
        game = as_game(board, players)
        moved = Game(
            game.board,
            tuple(
                Player(
                    p.name,
                    p.home,
                    tuple(s for s in p.states if s != option.state)
                    + ((option.state,) if i == me else ()),
                )
                for i, p in enumerate(game.players)
            ),
            game.source,
        )
        if sum(len({p.home, *p.states}) for p in moved.players) > board["game_end"]:
            # one more state past the game end: a position score refuses
            with pytest.raises(InputError, match="but the game ends when state"):
                score_game(moved)
            return
        gain = score_game(moved).players[me].total - score_game(game).players[me].total
        assert option.gain == gain


def test_explain_text_names_the_core_siege_and_best_move():
    game = load_game(RULEBOOK / "full-example.yaml")
    from evlogic.reports.render import explanation_to_text

    text = explanation_to_text(explain_game(game, "You"))
    assert "Core: KY + IN + WV" in text
    assert "TN joins: touches IN, KY, WV" in text
    assert "VA held by Rival: -10" in text
    assert "bonus +25 - 20 = +5" in text
    assert "What if you also won" in text
