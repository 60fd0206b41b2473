"""evlogic's own names, as the rule files beside a user's program use
them: one table of every predicate and what it is to evlogic (its
:class:`Role`, the argument that names a player, the rule file a search
loads for a program that reads it), from which the fragment
(evlogic/asp/fragment.py), the cone of influence (evlogic/asp/cone.py),
the soundness check (evlogic/asp/soundness.py) and the search
(evlogic/asp/search/) take the sets they need.

Kept by hand, one line a name; tests/test_fragment.py reads every rule file
and fails when a name is missing here or no longer used there, or when a
role no longer fits what the files do with the name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Predicate = tuple[str, int]


class Role(Enum):
    """What a predicate is to evlogic's rules."""

    #: The board's and the rule set's facts (evlogic/asp/facts.py,
    #: RuleSet.program): no position argument.
    BOARD = "board"
    #: What a position is made of; a search chooses position 0's
    #: (rules/search/generate.lp) and a property may build more from it.
    POSITION = "position"
    #: A player's own figures, derived by the scoring rules.
    FIGURE = "figure"
    #: Derived between players: what compares their totals.
    BETWEEN = "between players"
    #: Facts of a whole position: its rule set, its game end, the states
    #: won, every home's triangles.
    WHOLE = "whole position"
    #: What a property or a diff derives for the search to read.
    PROPERTY = "property"
    #: The search's own facts and externals (evlogic/asp/search/): no rule
    #: derives them.
    SEARCH_FACT = "search fact"
    #: Derived by the search's own rules only (rules/search/).
    SEARCH = "search only"
    #: Given beside evlogic's rules, by a command's facts or a program of
    #: its own: explain's focus and worlds, diff's copy of a position.
    GIVEN = "given"
    #: A step or a report of evlogic's rules that a user's program has no
    #: need to read (explain's, the region layers', the overflow checks').
    STEP = "step"


BOARD = Role.BOARD
POSITION = Role.POSITION
FIGURE = Role.FIGURE
BETWEEN = Role.BETWEEN
WHOLE = Role.WHOLE
PROPERTY = Role.PROPERTY
SEARCH_FACT = Role.SEARCH_FACT
SEARCH = Role.SEARCH
GIVEN = Role.GIVEN
STEP = Role.STEP


@dataclass(frozen=True)
class Name:
    """One predicate of evlogic's, as the table says it."""

    role: Role
    #: The argument that names a player (a seat), if one does.
    seat: int | None = None
    #: The rule file (below rules/) a search loads for a program that reads
    #: the predicate (evlogic/asp/search/encoding.py): scoring/totals.lp and
    #: scoring/region.lp alone derive it; scoring/cores.lp gives it
    #: otherwise than search/cores.lp.
    loads: str | None = None
    #: Changed by moving a far home or dropping a far state: never read by
    #: a program that gets rules/search/near_only.lp (evlogic/asp/cone.py).
    far: bool = False
    #: Mentioned by the scoring rules every search loads alike
    #: (fragment.RULE_SET_READABLE_FILES): what a rule set's program may
    #: read, but fragment.NOT_READABLE.
    scoring: bool = False


#: Every predicate mentioned by rules/{scoring,explain,stats,search}/*.lp (the
#: scoring, explaining and searching rules, any of which a user's program
#: may be loaded beside), and what it is.
PREDICATES: dict[Predicate, Name] = {
    ("adjacent", 2): Name(BOARD, scoring=True),
    ("admitted", 4): Name(STEP),
    ("beaten", 3): Name(FIGURE, seat=1, loads="scoring/region.lp", scoring=True),
    ("besieged", 2): Name(FIGURE, seat=1, scoring=True),
    ("board_game_end", 1): Name(BOARD, scoring=True),
    ("bonus_decided", 1): Name(STEP),
    ("change", 5): Name(FIGURE, seat=2),
    ("checked_totals", 1): Name(STEP),
    ("code_base", 1): Name(STEP),
    ("compare", 2): Name(PROPERTY),
    ("core", 3): Name(FIGURE, seat=1, loads="scoring/region.lp", scoring=True),
    ("core_candidate", 3): Name(FIGURE, seat=1, scoring=True),
    ("core_link", 5): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("core_member", 3): Name(FIGURE, seat=1, scoring=True),
    ("core_pair", 5): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("core_rank", 4): Name(FIGURE, seat=1, scoring=True),
    ("core_state", 4): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("counted", 3): Name(FIGURE, seat=1, loads="scoring/region.lp", scoring=True),
    ("covered", 3): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("ev", 2): Name(BOARD, scoring=True),
    ("evlogic_copies_closures", 2): Name(SEARCH),
    ("evlogic_few", 0): Name(SEARCH_FACT),
    ("evlogic_interchangeable", 0): Name(SEARCH_FACT),
    ("evlogic_limit", 1): Name(SEARCH_FACT),
    ("evlogic_most", 1): Name(SEARCH),
    ("evlogic_near", 1): Name(SEARCH),
    ("evlogic_players", 1): Name(SEARCH_FACT),
    ("evlogic_probe", 0): Name(SEARCH_FACT),
    ("evlogic_same_position", 2): Name(GIVEN),
    ("excluded", 3): Name(STEP),
    ("excluded_link", 4): Name(STEP),
    ("excluded_needs", 4): Name(STEP),
    ("face_ev", 3): Name(FIGURE, seat=1, loads="scoring/totals.lp", scoring=True),
    ("face_outscored", 2): Name(STEP),
    ("face_source", 4): Name(STEP),
    ("face_value", 4): Name(FIGURE, seat=1, scoring=True),
    ("face_winner", 2): Name(STEP),
    ("final", 1): Name(WHOLE, far=True, scoring=True),
    ("focus", 2): Name(GIVEN),
    ("game", 1): Name(POSITION, scoring=True),
    ("game_end", 2): Name(WHOLE, scoring=True),
    ("grew", 1): Name(STEP),
    ("grown", 4): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("home", 3): Name(POSITION, seat=1, scoring=True),
    ("home_triangle", 3): Name(FIGURE, seat=1, scoring=True),
    ("join_link", 4): Name(STEP),
    ("joined", 4): Name(FIGURE, seat=1),
    ("large_multiplier", 1): Name(STEP),
    ("large_penalty", 2): Name(STEP),
    ("layer_link", 4): Name(STEP),
    ("layer_step", 3): Name(STEP),
    ("leading", 3): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("link", 5): Name(STEP),
    ("link_before", 5): Name(STEP),
    ("listed", 4): Name(STEP, scoring=True),
    ("listed_code", 3): Name(STEP),
    ("multiplied", 3): Name(FIGURE, seat=1, scoring=True),
    ("net_bonus", 3): Name(FIGURE, seat=1, scoring=True),
    ("new_link", 5): Name(STEP),
    ("opponent_home", 1): Name(STEP),
    ("outscored", 2): Name(BETWEEN, seat=1, loads="scoring/totals.lp", scoring=True),
    ("overflow", 2): Name(STEP),
    ("owned", 3): Name(POSITION, seat=1, scoring=True),
    ("owned_link", 4): Name(FIGURE, seat=1, loads="scoring/cores.lp", scoring=True),
    ("param", 3): Name(BOARD, scoring=True),
    ("past_game_end", 1): Name(WHOLE, far=True, scoring=True),
    ("pending", 4): Name(STEP),
    ("pending_link", 5): Name(STEP),
    ("placed", 3): Name(STEP),
    ("player", 2): Name(POSITION, seat=1, scoring=True),
    ("points", 4): Name(FIGURE, seat=1),
    ("reached", 4): Name(FIGURE, seat=1),
    ("region", 3): Name(FIGURE, seat=1, loads="scoring/region.lp", scoring=True),
    ("region_bonus", 3): Name(FIGURE, seat=1, scoring=True),
    ("region_link", 4): Name(STEP),
    ("region_reaches", 3): Name(FIGURE, seat=1, scoring=True),
    ("region_size", 3): Name(FIGURE, seat=1, loads="scoring/region.lp", scoring=True),
    ("region_tier", 3): Name(FIGURE, seat=1, scoring=True),
    ("role", 4): Name(STEP),
    ("rule_set", 1): Name(BOARD, scoring=True),
    ("rules_of", 2): Name(WHOLE, scoring=True),
    ("scored_by", 2): Name(WHOLE, scoring=True),
    ("scores", 3): Name(FIGURE, seat=1),
    ("seed", 3): Name(FIGURE, seat=1, loads="scoring/region.lp", scoring=True),
    ("siege", 3): Name(FIGURE, seat=1, scoring=True),
    ("siege_cost", 5): Name(STEP),
    ("siege_decided", 1): Name(STEP),
    ("siege_penalty", 3): Name(FIGURE, seat=1, scoring=True),
    ("state", 1): Name(BOARD),
    ("states_won", 2): Name(WHOLE, far=True, scoring=True),
    ("swing", 1): Name(BOARD, scoring=True),
    ("tier", 3): Name(BOARD, scoring=True),
    ("total", 3): Name(FIGURE, seat=1, loads="scoring/totals.lp", scoring=True),
    ("triangle", 2): Name(WHOLE, far=True, scoring=True),
    ("unsieged", 3): Name(STEP),
    ("unsieged_outscored", 2): Name(STEP),
    ("unsieged_winner", 2): Name(STEP),
    ("violation", 0): Name(PROPERTY),
    ("what_if", 4): Name(STEP),
    ("what_if_bonus", 4): Name(STEP),
    ("what_if_face", 4): Name(STEP),
    ("what_if_net", 4): Name(STEP),
    ("what_if_region", 5): Name(STEP),
    ("what_if_siege", 4): Name(STEP),
    ("what_if_swing", 3): Name(STEP),
    ("what_if_world", 4): Name(GIVEN),
    ("winner", 2): Name(BETWEEN, seat=1, scoring=True),
    ("won_at", 4): Name(FIGURE, seat=1, scoring=True),
    ("worth", 5): Name(STEP),
}

#: Every predicate of evlogic's (what a user's program may not derive).
EVLOGIC_PREDICATES: frozenset[Predicate] = frozenset(PREDICATES)


def having(*roles: Role) -> frozenset[Predicate]:
    """The predicates of these roles."""
    return frozenset(name for name, entry in PREDICATES.items() if entry.role in roles)


def seat_arguments(*roles: Role) -> dict[Predicate, int]:
    """The predicates of these roles whose argument names a player, and that argument."""
    return {
        name: entry.seat
        for name, entry in PREDICATES.items()
        if entry.role in roles and entry.seat is not None
    }


def loaded_by(file: str) -> frozenset[Predicate]:
    """The predicates a search gets ``file`` for (see :attr:`Name.loads`)."""
    return frozenset(name for name, entry in PREDICATES.items() if entry.loads == file)


#: What the scoring rules every search loads alike mention (RULE_SET_READABLE_FILES
#: of evlogic/asp/fragment.py): what a rule set's program may read, but
#: fragment.NOT_READABLE.
SCORING_MENTIONS: frozenset[Predicate] = frozenset(
    name for name, entry in PREDICATES.items() if entry.scoring
)

#: The board's and the rule set's facts: no position argument.
BOARD_FACTS: frozenset[Predicate] = having(BOARD)

#: The atoms that say which states a player holds (the position a search
#: found, as rules/search/generate.lp shows it).
HOLDINGS: frozenset[Predicate] = frozenset({("home", 3), ("owned", 3)})

#: Every constant (a name without arguments) those files use: a rule
#: set's face value needs a source name of its own.
EVLOGIC_CONSTANTS: frozenset[str] = frozenset(
    {
        "best_core",
        "bonus",
        "canonical_top",
        "core",
        "evlogic_few",
        "evlogic_interchangeable",
        "evlogic_probe",
        "excluded",
        "false",
        "first_home",
        "game_end",
        "home",
        "home_swing",
        "join",
        "k",
        "level",
        "links_needed",
        "lone",
        "max_int",
        "me",
        "min_int",
        "opponent",
        "other",
        "own_programs",
        "positions",
        "region",
        "siege",
        "siege_penalty",
        "sign",
        "smallest_level",
        "swing_multiplier",
        "them",
        "true",
        "unclaimed",
        "union",
        "violation",
    }
)
