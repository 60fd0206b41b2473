"""`evlogic board-report` on hand-made boards and on the default board."""

from __future__ import annotations

from conftest import board_dict


def report(cli, write_game, edges, *extra, states=None):
    write_game(board_dict(edges, states=states), [{"name": "A", "home": edges[0][0]}])
    result = cli("board-report", "board.yaml", "--format", "json", *extra)
    assert result.code == 0, result.err
    return {home["state"]: home for home in result.json()["homes"]}


TWO_TRIANGLES = [("H", "A"), ("H", "B"), ("A", "B"), ("H", "D"), ("H", "E"), ("D", "E")]


def test_two_triangles_best_core_and_union(cli, write_game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    homes = report(cli, write_game, TWO_TRIANGLES, states=["Lonely"])
    h = homes["H"]
    assert (h["cores"], h["max_region"], h["neighbors"], h["can_earn_bonus"]) == (2, 3, 4, True)
    assert h["states_for_tier"] == {"3": 3, "4": None, "5": None, "6": None}
    assert homes["A"]["cores"] == 1 and homes["A"]["max_region"] == 3
    assert homes["Lonely"]["can_earn_bonus"] is False
    assert homes["Lonely"]["states_for_tier"]["3"] is None

    # Each triangle is a way to earn tier 3; nothing joins one (D and E touch
    # only one state of H, A, B).  Holding one triangle, the other two
    # neighbours are the worst siege: 15 - 2 x 10 leaves 0.
    assert h["ways_to_earn"] == {"3": 2, "4": 0, "5": 0, "6": 0}
    assert h["bonus_after_worst_siege"] == {"3": 0, "4": None, "5": None, "6": None}
    # A's two neighbours are both in its core: no siege is possible.
    assert homes["A"]["bonus_after_worst_siege"]["3"] == 15

    union = report(cli, write_game, TWO_TRIANGLES, "--rules", "union-cores", states=["Lonely"])
    # Four states cannot hold two cores: tier 4 needs all five.
    assert union["H"]["max_region"] == 5
    assert union["H"]["states_for_tier"] == {"3": 3, "4": 5, "5": 5, "6": None}
    # Both cores together are the one way to earn tier 5, and leave no room for a siege.
    assert union["H"]["ways_to_earn"] == {"3": 2, "4": 0, "5": 1, "6": 0}
    assert union["H"]["bonus_after_worst_siege"] == {"3": 0, "4": None, "5": 35, "6": None}


def test_a_rule_set_with_programs_is_refused(cli, write_game, tmp_path, monkeypatch):
    """The report's encodings cannot see what a program changes: one line, exit 2."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "extra.lp").write_text("bonus_extra(G, P) :- player(G, P).\n")
    (tmp_path / "programmed.yaml").write_text("extends: standard\nprograms: [extra.lp]\n")
    result = cli("board-report", "--rules", "programmed.yaml")
    assert result.code == 2 and result.out == ""
    assert result.err.count("\n") == 1 and "Traceback" not in result.err
    assert "programmed.yaml" in result.err and "extra.lp" in result.err


def test_a_ladder_reaches_each_tier_with_exactly_that_many_states(
    cli, write_game, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    rungs = [f"R{i}" for i in range(8)]
    edges = [(rungs[i], rungs[j]) for i in range(8) for j in (i + 1, i + 2) if j < 8]
    homes = report(cli, write_game, edges)
    assert homes["R0"]["max_region"] == 8
    assert homes["R0"]["states_for_tier"] == {"3": 3, "4": 4, "5": 5, "6": 6}


def test_default_board_flags_alaska_hawaii_and_maine(cli):
    result = cli("board-report", "--format", "json")
    assert result.code == 0, result.err
    document = result.json()
    assert document["board"] == "United States (2024 electors)"
    assert document["rules"] == "standard"
    homes = {home["state"]: home for home in document["homes"]}
    assert len(homes) == 51
    never = {state for state, home in homes.items() if not home["can_earn_bonus"]}
    assert never == {"AK", "HI", "ME"}
    assert homes["KY"]["neighbors"] == 5 and homes["KY"]["cores"] >= 3
    assert homes["KY"]["states_for_tier"] == {"3": 3, "4": 4, "5": 5, "6": 6}
    assert all(v is None for v in homes["ME"]["states_for_tier"].values())
    text = cli("board-report").out
    assert "Never earn a regional bonus: AK, HI, ME" in text


def test_a_tier_that_pays_nothing_earns_no_bonus(cli, write_game, tmp_path, monkeypatch):
    """Tier 3 pays 0 and tier 5 is out of reach of a lone triangle: the home
    reaches a tier, yet can never earn a bonus."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stingy.yaml").write_text("extends: standard\ntiers: {3: 0, 5: 20}\n")
    homes = report(cli, write_game, TWO_TRIANGLES[:3], "--rules", "stingy.yaml")
    assert homes["H"]["states_for_tier"] == {"3": 3, "5": None}
    assert homes["H"]["can_earn_bonus"] is False
