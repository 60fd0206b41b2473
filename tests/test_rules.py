"""Each rule file of rules/scoring/, search/ and stats/ on its own, on tiny
boards (clintest).

Facts are written out by hand here: each test feeds one file exactly the
input predicates its header names and checks the output predicates.
"""

from __future__ import annotations

import clingo
import pytest
from clintest.assertion import Contains, Not
from clintest.quantifier import All, Exact
from clintest.solver import Clingo
from clintest.test import And, Assert
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evlogic.asp.facts import Positions, board_program, game_program
from evlogic.asp.solver import POSITION_INPUT, rule_paths, solve
from evlogic.loading.rulesets import load_rule_set
from evlogic.resources import rules_dir
from strategies import as_game, positions

# H is home and touches A, B, C; A-B and B-C touch (two triangles with H);
# D touches A and B; E touches C only.
DIAMOND = """
adjacent(X, Y) :- edge(X, Y).  adjacent(Y, X) :- edge(X, Y).
edge("H","A"). edge("H","B"). edge("H","C"). edge("A","B"). edge("B","C").
edge("A","D"). edge("B","D"). edge("C","E").
"""


def unique_model(files: list[str], program: str, *, has=(), lacks=()) -> None:
    """One model, containing every atom of ``has`` and none of ``lacks``."""
    checks = [Assert(Exact(1), Contains(atom)) for atom in has]
    checks += [Assert(All(), Not(Contains(atom))) for atom in lacks]
    test = And(Assert(Exact(1), Not(Contains("__never__"))), *checks)
    # Position 0 is scored by rule set 0 (position.lp derives this from rule_set/1).
    program = "rules_of(0,0). " + program
    Clingo(["0"], program, [str(rules_dir() / name) for name in files]).solve(test)
    test.assert_()


# --- the standard rule set (rules/standard.yaml, as facts) --------------------


def test_standard_rule_set_facts_are_the_rulebook_numbers():
    unique_model(
        [],
        load_rule_set("standard").program(),
        has=[
            "param(0,swing_multiplier,2)",
            "param(0,home_swing,false)",
            "param(0,links_needed,2)",
            "param(0,siege_penalty,10)",
            "param(0,region,best_core)",
            "tier(0,3,15)",
            "tier(0,4,25)",
            "tier(0,5,35)",
            "tier(0,6,45)",
        ],
        lacks=["param(0,game_end,36)"],  # the board decides
    )
    unique_model([], load_rule_set("standard").program(), has=["rule_set(0)"])
    unique_model(
        [],
        load_rule_set("gentle-siege").program(number=1, default=False),
        has=["param(1,siege_penalty,5)"],
        lacks=["rule_set(1)"],
    )


# --- position.lp -----------------------------------------------------------

POSITION = 'game(0). owned(0,0,"H"). owned(0,1,"C"). owned(0,0,"A").'


def test_position_counts_states_won_homes_included():
    unique_model(
        ["scoring/position.lp"],
        POSITION + "board_game_end(4).",
        has=["states_won(0,3)", "game_end(0,4)"],
        lacks=["final(0)"],
    )


def test_position_a_home_makes_a_player_who_owns_it():
    unique_model(
        ["scoring/position.lp"],
        'home(3,1,"K"). owned(3,1,"A"). board_game_end(9).',
        has=["game(3)", "player(3,1)", 'owned(3,1,"K")', "states_won(3,2)"],
    )


def test_position_is_final_when_the_game_end_state_is_won():
    unique_model(["scoring/position.lp"], POSITION + "board_game_end(3).", has=["final(0)"])


def test_position_rule_set_game_end_overrides_the_board():
    unique_model(
        ["scoring/position.lp"],
        POSITION + "board_game_end(3). param(0,game_end,5).",
        has=["game_end(0,5)"],
        lacks=["final(0)", "game_end(0,3)"],
    )


# --- position_input.lp -----------------------------------------------------


def position_atoms(program: str, paths: list[str], context: object = None) -> set[str]:
    """home/3, owned/3 and listed/4 of the one model (every atom, not only
    shown ones)."""
    control = clingo.Control(["--models=1"])
    for path in paths:
        control.load(path)
    control.add("base", [], program)
    control.ground([("base", [])], context=context)
    return {
        str(atom.symbol)
        for atom in control.symbolic_atoms
        if atom.symbol.name in ("home", "owned", "listed") and atom.is_fact
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 3))
def test_position_input_gives_the_facts_that_program_text_gives(position, copies):
    """Positions handed over as codes (P * Base + S) reach the rules as the
    same home/3, owned/3 and listed/4 as the facts of
    evlogic.asp.facts.game_program; listed/4 numbers each player's states in the
    order the game lists them (the home, won at setup, is not listed)."""
    game = as_game(*position)
    games = [game] * copies  # several positions of one board, each its own index
    as_text = board_program(game.board) + "".join(
        game_program(game, index) for index in range(copies)
    )
    as_symbols = position_atoms(
        board_program(game.board),
        [str(path) for path in rule_paths(("scoring/position.lp", *POSITION_INPUT))],
        Positions(game.board, games),
    )
    assert as_symbols == position_atoms(as_text, [str(rules_dir() / "scoring/position.lp")])
    assert {atom for atom in as_symbols if atom.startswith("home(")} == {
        f"home({index},{p},{sorted(game.board.states).index(player.home)})"
        for index in range(copies)
        for p, player in enumerate(game.players)
    }
    numbers = {state: n for n, state in enumerate(sorted(game.board.states))}
    assert {atom for atom in as_symbols if atom.startswith("listed(")} == {
        f"listed({index},{p},{numbers[state]},{place})"
        for index in range(copies)
        for p, player in enumerate(game.players)
        for place, state in enumerate(player.states, start=1)
        if state != player.home
    }


# --- face.lp ---------------------------------------------------------------

FACE = """
player(0,0). home(0,0,"H"). owned(0,0,"H"). owned(0,0,"A"). owned(0,0,"B").
ev("H",5). ev("A",7). ev("B",3). swing("H"). swing("A").
param(0,swing_multiplier,2).
"""


def test_face_doubles_swing_states_but_not_the_home():
    unique_model(
        ["scoring/face.lp"],
        FACE + "param(0,home_swing,false).",
        has=['face_value(0,0,"H",5)', 'face_value(0,0,"A",14)', 'face_value(0,0,"B",3)'],
        lacks=['multiplied(0,0,"H")', 'multiplied(0,0,"B")', 'face_value(0,0,"A",7)'],
    )


def test_face_home_swing_parameter_doubles_the_home_too():
    unique_model(
        ["scoring/face.lp"],
        FACE + "param(0,home_swing,true).",
        has=['face_value(0,0,"H",10)'],
        lacks=['face_value(0,0,"H",5)'],
    )


def test_face_multiplier_is_read_from_the_parameter():
    program = FACE.replace("param(0,swing_multiplier,2)", "param(0,swing_multiplier,3)")
    unique_model(
        ["scoring/face.lp"], program + "param(0,home_swing,false).", has=['face_value(0,0,"A",21)']
    )


# --- cores.lp, region.lp ---------------------------------------------------


def region_program(owned: list[str], links: int = 2, mode: str = "best_core") -> str:
    facts = "".join(f'owned(0,0,"{s}"). ' for s in ["H", *owned])
    return (
        DIAMOND
        + f'player(0,0). home(0,0,"H"). {facts} '
        + f"param(0,links_needed,{links}). param(0,region,{mode})."
    )


def test_region_core_needs_two_mutually_touching_home_neighbours():
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        region_program(["A", "C"]),
        has=["region_size(0,0,0)"],
        lacks=['core(0,0,("A","C"))'],
    )


def test_region_grows_through_two_links_only():
    # Core H-A-B; D touches A and B (joins); E touches only C (not owned path).
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        region_program(["A", "B", "D", "E"]),
        has=['core(0,0,("A","B"))', 'region(0,0,"D")', "region_size(0,0,4)"],
        lacks=['region(0,0,"E")'],
    )


def test_region_ties_go_to_the_smallest_core_when_nothing_is_listed():
    # Cores H-A-B and H-B-C both give 4 states; unlisted states (a search's)
    # are won in id order, so (A,B) is complete at B, before (B,C) at C.
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        region_program(["A", "B", "C"]),
        has=['core(0,0,("A","B"))', "region_size(0,0,4)"],
        lacks=['core(0,0,("B","C"))'],
    )


def listed(order: list[str]) -> str:
    """listed/4 facts: player 0 of position 0 won ``order`` in that order."""
    return "".join(f'listed(0,0,"{s}",{i}). ' for i, s in enumerate(order, start=1))


# Triangles H-A-B and H-D-E, apart: each closure is its own 3 states.
APART = """
adjacent(X, Y) :- edge(X, Y).  adjacent(Y, X) :- edge(X, Y).
edge("H","A"). edge("H","B"). edge("A","B"). edge("H","D"). edge("H","E"). edge("D","E").
player(0,0). home(0,0,"H"). owned(0,0,"H"). owned(0,0,"A"). owned(0,0,"B").
owned(0,0,"D"). owned(0,0,"E"). param(0,links_needed,2). param(0,region,best_core).
"""


def test_region_ties_go_to_the_core_won_first():
    # Equally large closures: the core whose later state comes first in the
    # player's list counts, whichever its ids.
    for order, first, other in [
        (["D", "E", "A", "B"], ("D", "E"), ("A", "B")),
        (["A", "D", "B", "E"], ("A", "B"), ("D", "E")),
        (["A", "D", "E", "B"], ("D", "E"), ("A", "B")),
        (["E", "B", "A", "D"], ("A", "B"), ("D", "E")),
    ]:
        unique_model(
            ["scoring/cores.lp", "scoring/region.lp"],
            APART + listed(order),
            has=[f'core(0,0,("{first[0]}","{first[1]}"))', "region_size(0,0,3)"],
            lacks=[f'core(0,0,("{other[0]}","{other[1]}"))', f'region(0,0,"{other[0]}")'],
        )


def test_region_ties_between_cores_completed_by_one_state_go_to_smaller_ids():
    # With three links, H-A-B and H-B-C both stay at 3 states and both lead.
    # Listed C, A, B: both are completed by B (third), so the smaller (A,B)
    # counts; listed C, B, A: (B,C) is complete second, before (A,B).
    for order, first, other in [
        (["C", "A", "B"], ("A", "B"), ("B", "C")),
        (["A", "C", "B"], ("A", "B"), ("B", "C")),
        (["C", "B", "A"], ("B", "C"), ("A", "B")),
        (["B", "C", "D", "A"], ("B", "C"), ("A", "B")),
    ]:
        unique_model(
            ["scoring/cores.lp", "scoring/region.lp"],
            region_program(order, links=3) + listed(order),
            has=[f'core(0,0,("{first[0]}","{first[1]}"))', "region_size(0,0,3)"],
            lacks=[f'core(0,0,("{other[0]}","{other[1]}"))'],
        )


def test_region_a_larger_closure_beats_a_core_won_first():
    # (X,Y) grows to 5 states, (A,B) stays at 3, even when A and B come first.
    program = TWO_CORES + "param(0,region,best_core). " + listed(["A", "B", "X", "Y", "Z", "W"])
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        program,
        has=['core(0,0,("X","Y"))', "region_size(0,0,5)"],
        lacks=['core(0,0,("A","B"))'],
    )


# Triangles H-A-B and H-X-Y; Z touches X, Y and W touches Z, Y, so core
# (X,Y) grows to 5 states while (A,B), though smaller by id, stays at 3.
TWO_CORES = (
    DIAMOND
    + """
    edge("X","H"). edge("X","Y"). edge("Y","H"). edge("Z","X"). edge("Z","Y").
    edge("W","Z"). edge("W","Y").
    player(0,0). home(0,0,"H"). owned(0,0,"H"). owned(0,0,"A"). owned(0,0,"B").
    owned(0,0,"X"). owned(0,0,"Y"). owned(0,0,"Z"). owned(0,0,"W").
    param(0,links_needed,2).
"""
)


def test_region_prefers_the_core_that_yields_more_states():
    program = TWO_CORES + "param(0,region,best_core)."
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        program,
        has=['core(0,0,("X","Y"))', "region_size(0,0,5)"],
        lacks=['core(0,0,("A","B"))', 'region(0,0,"A")'],
    )


def test_region_union_counts_every_core():
    # Cores H-A-B and H-B-C: the best core yields H, A, B, C (4) either way;
    # two separate triangles show the difference.
    program = """
        adjacent(X, Y) :- edge(X, Y).  adjacent(Y, X) :- edge(X, Y).
        edge("H","A"). edge("H","B"). edge("A","B"). edge("H","D"). edge("H","E"). edge("D","E").
        player(0,0). home(0,0,"H"). owned(0,0,"H"). owned(0,0,"A"). owned(0,0,"B").
        owned(0,0,"D"). owned(0,0,"E"). param(0,links_needed,2).
    """
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        program + "param(0,region,best_core).",
        has=["region_size(0,0,3)", 'core(0,0,("A","B"))'],
    )
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        program + "param(0,region,union).",
        has=["region_size(0,0,5)", 'core(0,0,("A","B"))', 'seed(0,0,"D")'],
    )


def test_region_links_needed_is_read_from_the_parameter():
    # With one link C joins through H or B, then E through C alone.
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        region_program(["A", "B", "C", "E"], links=1),
        has=['region(0,0,"E")', "region_size(0,0,5)"],
    )


def test_cores_reach_the_tiers_of_the_largest_closure():
    # Core (X,Y) grows to 5 states, core (A,B) stays at 3 (TWO_CORES).
    program = TWO_CORES + "tier(0,3,15). tier(0,5,35). tier(0,6,45). tier(0,8,60)."
    unique_model(
        ["scoring/cores.lp"],
        program + "param(0,region,best_core).",
        has=["region_reaches(0,0,3)", "region_reaches(0,0,5)"],
        lacks=["region_reaches(0,0,6)"],
    )
    # Together the two closures hold H, A, B, X, Y, Z, W: 7 states.
    unique_model(
        ["scoring/cores.lp"],
        program + "param(0,region,union).",
        has=["region_reaches(0,0,6)"],
        lacks=["region_reaches(0,0,8)"],
    )


def test_cores_grow_only_closures_no_earlier_core_covers():
    # Cores H-A-B and H-B-C share B.  With two links C joins H-A-B in its
    # first step (it touches H and B), so H-B-C lies inside that closure: it
    # is covered and grows no closure of its own.  With three links C would
    # also need A, which it does not touch: both cores lead.
    unique_model(
        ["scoring/cores.lp"],
        region_program(["A", "B", "C"], links=2),
        has=['covered(0,0,("B","C"))', 'leading(0,0,("A","B"))', 'grown(0,0,("A","B"),"C")'],
        lacks=['leading(0,0,("B","C"))', 'grown(0,0,("B","C"),"H")'],
    )
    unique_model(
        ["scoring/cores.lp"],
        region_program(["A", "B", "C"], links=3),
        has=['leading(0,0,("A","B"))', 'leading(0,0,("B","C"))'],
        lacks=['covered(0,0,("B","C"))', 'grown(0,0,("A","B"),"C")'],
    )


def test_cores_a_later_core_is_never_covered_by_an_earlier_one_it_covers():
    # The rank decides who covers whom: H-A-B (first) is never covered.
    unique_model(
        ["scoring/cores.lp"],
        region_program(["A", "B", "C"], links=1),
        has=['core_rank(0,0,("A","B"),((1,"B"),("A","B")))', 'covered(0,0,("B","C"))'],
        lacks=['covered(0,0,("A","B"))'],
    )
    # Listed C, B, A: H-B-C is won first, covers H-A-B, and counts.
    unique_model(
        ["scoring/cores.lp", "scoring/region.lp"],
        region_program(["C", "B", "A"], links=2) + listed(["C", "B", "A"]),
        has=[
            'core_rank(0,0,("B","C"),((0,2),("B","C")))',
            'core_rank(0,0,("A","B"),((0,3),("A","B")))',
            'covered(0,0,("A","B"))',
            'core(0,0,("B","C"))',
            "region_size(0,0,4)",
        ],
        lacks=['covered(0,0,("B","C"))', 'core(0,0,("A","B"))'],
    )


def test_cores_reach_nothing_without_a_core():
    unique_model(
        ["scoring/cores.lp"],
        region_program(["A", "C"]) + "tier(0,1,5). tier(0,3,15).",
        lacks=["region_reaches(0,0,1)", "region_reaches(0,0,3)"],
    )


# --- region_order.lp, region_layers.lp -------------------------------------
# region_order.lp's layers are grounded one program part at a time, so these
# tests go through evlogic.asp.solver.solve, which drives the layer(k) parts;
# region_layers.lp grounds the same layers in one call.

LAYER_FILES = pytest.mark.parametrize(
    "layers", ["scoring/region_order.lp", "scoring/region_layers.lp"]
)


def layered_atoms(program: str, tmp_path, layers: str) -> set[str]:
    facts = tmp_path / "facts.lp"
    # (region_layers.lp reads region_size/3, as rules/scoring/region.lp gives it)
    size = (
        "#defined region/3. "
        "region_size(G, P, N) :- region(G, P, _), N = #count{ S : region(G, P, S) }."
    )
    facts.write_text(f"rules_of(0,0). {size} {program}")
    rules = [rules_dir() / layers, facts]
    return {str(atom) for atom in solve("", rules) if atom.name == "joined"}


@LAYER_FILES
def test_region_order_layers_follow_the_joining_steps(tmp_path, layers):
    # Core H-A-B is layer 0; D touches A and B (layer 1); G touches B and D,
    # so it can only join after D (layer 2).
    program = (
        DIAMOND
        + """
        edge("D","G"). edge("B","G").
        seed(0,0,"H"). seed(0,0,"A"). seed(0,0,"B"). param(0,links_needed,2).
        region(0,0,"H"). region(0,0,"A"). region(0,0,"B"). region(0,0,"D"). region(0,0,"G").
    """
    )
    assert layered_atoms(program, tmp_path, layers) == {
        'joined(0,0,"H",0)',
        'joined(0,0,"A",0)',
        'joined(0,0,"B",0)',
        'joined(0,0,"D",1)',
        'joined(0,0,"G",2)',
    }


@LAYER_FILES
def test_region_order_runs_as_many_layers_as_the_longest_chain(tmp_path, layers):
    # A ladder: each rung touches the two before it, one new state per layer.
    rungs = [f"R{i}" for i in range(12)]
    edges = "".join(
        f'edge("{rungs[i]}","{rungs[j]}"). ' for i in range(12) for j in (i + 1, i + 2) if j < 12
    )
    regions = "".join(f'region(0,0,"{r}"). ' for r in rungs)
    program = (
        "adjacent(X, Y) :- edge(X, Y).  adjacent(Y, X) :- edge(X, Y). "
        + edges
        + regions
        + 'seed(0,0,"R0"). seed(0,0,"R1"). seed(0,0,"R2"). param(0,links_needed,2).'
    )
    atoms = layered_atoms(program, tmp_path, layers)
    assert 'joined(0,0,"R11",9)' in atoms
    assert len(atoms) == 12


@LAYER_FILES
def test_region_order_is_empty_without_a_core(tmp_path, layers):
    assert layered_atoms(DIAMOND + "param(0,links_needed,2).", tmp_path, layers) == set()


# --- siege.lp --------------------------------------------------------------


def test_siege_counts_opponent_owned_home_neighbours_only():
    program = (
        DIAMOND
        + """
        player(0,0). player(0,1). home(0,0,"H"). home(0,1,"E").
        owned(0,0,"H"). owned(0,1,"E"). owned(0,1,"A"). owned(0,1,"C"). owned(0,1,"D").
        param(0,siege_penalty,10).
    """
    )
    unique_model(
        ["scoring/siege.lp"],
        program,
        has=['siege(0,0,"A")', 'siege(0,0,"C")', "siege_penalty(0,0,20)", "siege_penalty(0,1,0)"],
        lacks=['siege(0,0,"D")', 'siege(0,0,"B")'],
    )


# --- bonus.lp --------------------------------------------------------------

TIERS = "tier(0,3,15). tier(0,4,25). tier(0,5,35). tier(0,6,45)."


def bonus_program(size: int, penalty: int, tiers: tuple[int, ...] = (3, 4, 5, 6)) -> str:
    """A region of ``size`` states reaches every tier size up to it (cores.lp)."""
    reached = "".join(f"region_reaches(0,0,{t}). " for t in tiers if t <= size)
    return f"player(0,0). {reached}siege_penalty(0,0,{penalty}). {TIERS}"


def test_bonus_tiers_by_region_size():
    for size, bonus in [(0, 0), (3, 15), (4, 25), (5, 35), (6, 45), (9, 45)]:
        unique_model(
            ["scoring/bonus.lp"], bonus_program(size, 0), has=[f"region_bonus(0,0,{bonus})"]
        )


def test_bonus_siege_cuts_only_down_to_zero():
    unique_model(["scoring/bonus.lp"], bonus_program(4, 20), has=["net_bonus(0,0,5)"])
    unique_model(["scoring/bonus.lp"], bonus_program(4, 30), has=["net_bonus(0,0,0)"])
    unique_model(["scoring/bonus.lp"], bonus_program(0, 10), has=["net_bonus(0,0,0)"])


def test_bonus_largest_tier_not_above_the_size_applies_even_if_unordered():
    program = "player(0,0). region_reaches(0,0,3). region_reaches(0,0,5). siege_penalty(0,0,0). "
    unique_model(
        ["scoring/bonus.lp"], program + "tier(0,3,40). tier(0,5,10).", has=["region_bonus(0,0,10)"]
    )


# --- points.lp, totals.lp, winners_by_points.lp, compare.lp ----------------

POINTS = """
    player(0,0). player(0,1). player(0,2).
    face_value(0,0,1,20). face_value(0,0,2,10). net_bonus(0,0,5).
    face_value(0,1,3,35). net_bonus(0,1,0).
    face_value(0,2,4,20). net_bonus(0,2,0).
"""


def test_points_list_every_source_and_totals_add_them_up():
    unique_model(
        ["search/points.lp", "scoring/totals.lp"],
        POINTS,
        has=[
            "points(0,0,20,1)",
            "points(0,0,5,bonus)",
            "winner(0,0)",
            "winner(0,1)",
            "face_ev(0,0,30)",
            "total(0,0,35)",
            "face_ev(0,1,35)",
            "total(0,1,35)",
            "total(0,2,20)",
        ],
    )


def test_winners_compare_points_and_ties_share_the_win():
    unique_model(
        ["search/points.lp", "search/winners_by_points.lp"],
        POINTS,
        has=["winner(0,0)", "winner(0,1)", "outscored(0,2)"],
        lacks=["winner(0,2)", "outscored(0,0)"],
    )


def test_a_lone_player_wins():
    unique_model(
        ["search/points.lp", "search/winners_by_points.lp"],
        "player(0,0). net_bonus(0,0,0).",
        has=["winner(0,0)"],
    )


def test_compare_gives_one_change_per_source_that_changed():
    program = """
        compare(0,1).
        points(0,0,7,1). points(0,0,3,2). points(0,0,15,bonus).
        points(1,0,7,1). points(1,0,6,2). points(1,0,5,3). points(1,0,0,bonus).
        points(0,0,4,9).
    """
    unique_model(
        ["search/compare.lp"],
        program,
        has=[
            "change(0,1,0,2,3)",
            "change(0,1,0,3,5)",
            "change(0,1,0,bonus,-15)",
            "change(0,1,0,9,-4)",
        ],
        lacks=["change(0,1,0,1,0)"],
    )


# --- bonus_decided.lp (evlogic stats) ---------------------------------------


def test_bonus_decided_when_the_winners_differ_from_the_face_winners():
    unique_model(
        ["stats/bonus_decided.lp"],
        # Game 1: face leader wins.  Game 2: the bonus turns it.  Game 3: a
        # face tie that the bonus breaks.  Game 4: a face tie that stays a tie.
        """
        face_ev(1,0,50). face_ev(1,1,40). winner(1,0).
        face_ev(2,0,50). face_ev(2,1,45). winner(2,1).
        face_ev(3,0,30). face_ev(3,1,30). winner(3,0).
        face_ev(4,0,30). face_ev(4,1,30). winner(4,0). winner(4,1).
        """,
        has=["bonus_decided(2)", "bonus_decided(3)", "face_winner(3,0)", "face_winner(3,1)"],
        lacks=["bonus_decided(1)", "bonus_decided(4)", "face_winner(2,1)"],
    )


# --- the whole program -----------------------------------------------------


def test_output_shows_only_what_the_decoder_reads(tmp_path):
    facts = tmp_path / "facts.lp"
    facts.write_text(
        DIAMOND
        + """
        state("H"). state("A"). state("B"). state("C"). state("D"). state("E").
        ev("H",1). ev("A",1). ev("B",1). ev("C",1). ev("D",1). ev("E",1). board_game_end(6).
        game(0). player(0,0). home(0,0,"H").
        owned(0,0,"H"). owned(0,0,"A"). owned(0,0,"B"). owned(0,0,"D").
        """
    )
    shown = {
        str(atom) for atom in solve(load_rule_set("standard").program(), [*rule_paths(), facts])
    }
    assert shown == {
        "game_end(0,6)",
        "states_won(0,4)",
        "score(0,0,4,25,0,25,29)",  # face, bonus, penalty, net bonus, total
        'core(0,0,"A","B")',
        'joined(0,0,"H",0)',
        'joined(0,0,"A",0)',
        'joined(0,0,"B",0)',
        'joined(0,0,"D",1)',
        "winner(0,0)",
    }
