"""Explanations: why a player's score is what it is, from witness atoms.

Everything here is decoded from atoms of ``rules/explain/explain.lp``,
``rules/explain/what_if.lp`` and ``rules/explain/roles.lp`` (one solver call, the player
named by a ``focus/2`` fact); the only work on this side is ordering and
wording.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from clingo import Number, Symbol

from evlogic.asp.facts import (
    board_program,
    focus_program,
    game_program,
    state_ids,
    what_if_program,
)
from evlogic.asp.solver import EXPLAIN_RULES, rule_paths, solve
from evlogic.errors import InputError, quote
from evlogic.loading.games import Game, checked_game
from evlogic.loading.yamlfile import closest
from evlogic.reports.report import PlayerScore, ScoreReport, atoms_by_position, decode

ROLES = ("home", "core", "region", "excluded", "siege", "opponent", "unclaimed")


@dataclass(frozen=True)
class Join:
    state: str
    links: list[str]  # region states it touched when it joined (core and earlier joins)


@dataclass(frozen=True)
class Excluded:
    state: str
    links: list[str]  # final region states it touches
    needed: int  # region links a state needs to join


@dataclass(frozen=True)
class SiegeState:
    state: str
    owner: str
    penalty: int


@dataclass(frozen=True)
class WhatIf:
    state: str
    gain: int  # change in the player's own total
    reasons: list[str]
    holder: str | None  # who holds it now (None: unclaimed)


@dataclass(frozen=True)
class Link:
    start: str
    end: str
    kind: str  # core, join (admitted a joining state) or lone (an excluded state's one link)


@dataclass(frozen=True)
class FaceSource:
    """Face value a rule set's own program gives from a source that is not a
    state (rules/explain/sources.lp): counted in face EV, on no tile."""

    source: str  # the source's term as the program writes it
    value: int


@dataclass(frozen=True)
class Explanation:
    player: str
    score: PlayerScore
    report: ScoreReport
    joins: list[Join]
    excluded: list[Excluded]
    siege: list[SiegeState]
    what_if: list[WhatIf]
    roles: dict[str, str] = field(repr=False)  # state -> role, for diagrams
    links: list[Link] = field(repr=False)
    # state -> (what it scores to whoever holds it, the multiplier applied),
    # from rules/explain/tile_value.lp: what a diagram's tile says
    worth: dict[str, tuple[int, int]] = field(repr=False, default_factory=dict)
    # face value from sources that are not states, by source
    face_sources: list[FaceSource] = field(default_factory=list)

    @property
    def core(self) -> list[str]:
        return self.score.core

    def to_dict(self) -> dict[str, object]:
        """The JSON contract of ``evlogic explain --format json``."""
        return {
            "player": self.player,
            "home": self.score.home,
            "core": self.core,
            "joins": [asdict(join) for join in self.joins],
            "excluded": [asdict(state) for state in self.excluded],
            "siege": [asdict(state) for state in self.siege],
            "what_if": [asdict(option) for option in self.what_if],
            "face_sources": [asdict(source) for source in self.face_sources],
            "region_bonus": self.score.region_bonus,
            "siege_penalty": self.score.siege_penalty,
            "net_bonus": self.score.net_bonus,
            "total": self.score.total,
        }


def player_number(game: Game, name: str) -> int:
    names = [player.name for player in game.players]
    if name not in names:
        raise InputError(
            game.source,
            f"no player named {quote(name)}{closest(name, names)}; "
            f"players: {', '.join(quote(other, 20) for other in names)}",
            field="--player",
        )
    return names.index(name)


def explain_game(game: Game, name: str) -> Explanation:
    """Explain player ``name``'s score in one solver call.  A game built in
    Python is validated as a game file is (evlogic.loading.games.checked_game)."""
    game = checked_game(game)
    if not isinstance(name, str):
        raise InputError("name", f"must be a player's name, not {type(name).__name__}")
    number = player_number(game, name)
    facts = (
        game.rules.program()
        + board_program(game.board)
        + game_program(game)
        + focus_program(number)
        + what_if_program(game, number)
    )
    symbols = solve(facts, [*rule_paths(EXPLAIN_RULES), *game.rules.programs])
    return decode_explanation(symbols, game, number)


def decode_explanation(symbols: Iterable[Symbol], game: Game, number: int) -> Explanation:
    symbols = list(symbols)
    report = decode(atoms_by_position(symbols)[0], game)
    names = [player.name for player in game.players]
    owner_name = {number: name for number, name in enumerate(names)}
    me, position = Number(number), Number(0)
    ids = state_ids(game.board)

    layer: dict[str, int] = {}
    join_links: dict[str, list[str]] = defaultdict(list)
    excluded_links: dict[str, list[str]] = defaultdict(list)
    excluded_needs: dict[str, int] = {}
    siege: list[SiegeState] = []
    roles: dict[str, str] = {}
    links: list[Link] = []
    what_if: dict[str, dict[str, list[int]]] = defaultdict(dict)  # state -> atom -> numbers
    worth: dict[str, tuple[int, int]] = {}
    face_sources: list[FaceSource] = []
    for symbol in symbols:
        args = symbol.arguments
        if len(args) < 2 or args[0] != position or args[1] != me:
            continue
        name = symbol.name
        if name == "joined":
            layer[ids[args[2].number]] = args[3].number
        elif name == "join_link":
            join_links[ids[args[2].number]].append(ids[args[3].number])
        elif name == "excluded_needs":
            excluded_needs[ids[args[2].number]] = args[3].number
        elif name == "excluded_link":
            excluded_links[ids[args[2].number]].append(ids[args[3].number])
        elif name == "siege_cost":
            siege.append(
                SiegeState(ids[args[2].number], owner_name[args[3].number], args[4].number)
            )
        elif name == "role":
            roles[ids[args[2].number]] = args[3].name
        elif name == "link":
            links.append(Link(ids[args[2].number], ids[args[3].number], args[4].name))
        elif name == "face_source":
            face_sources.append(FaceSource(str(args[2]), args[3].number))
        elif name == "worth":
            worth[ids[args[2].number]] = (args[3].number, args[4].number)
        elif name.startswith("what_if"):
            what_if[ids[args[2].number]][name] = [arg.number for arg in args[3:]]

    def order(state: str) -> tuple[int, str]:
        return (layer[state], state)

    joins = [
        Join(state, sorted(join_links[state], key=order))
        for state in sorted((s for s in layer if layer[s] > 0), key=order)
    ]
    excluded = [
        Excluded(state, sorted(excluded_links[state], key=order), needed)
        for state, needed in sorted(excluded_needs.items())
    ]
    holders = {
        state: player.name for player in game.players for state in (player.home, *player.states)
    }
    options = [
        WhatIf(state, parts["what_if"][0], _reasons(parts), holders.get(state))
        for state, parts in what_if.items()
    ]
    options.sort(key=lambda option: (-option.gain, option.state))
    return Explanation(
        player=names[number],
        score=report.players[number],
        report=report,
        joins=joins,
        excluded=excluded,
        siege=sorted(siege, key=lambda s: s.state),
        what_if=options,
        roles=roles,
        links=sorted(links, key=lambda link: (link.kind, link.start, link.end)),
        worth=worth,
        face_sources=sorted(face_sources, key=lambda source: source.source),
    )


def _reasons(parts: dict[str, list[int]]) -> list[str]:
    """Words for the parts of a what-if gain, in the order they add up."""
    reasons = []
    face = parts["what_if_face"][0]
    if face:
        swing = " (swing state, multiplied)" if "what_if_swing" in parts else ""
        reasons.append(f"face {face:+d}{swing}")
    before, after = parts["what_if_region"]
    bonus = parts["what_if_bonus"][0]
    if after != before:
        reasons.append(f"region {before} -> {after} states: bonus {bonus:+d}")
    siege = parts["what_if_siege"][0]
    if siege < 0:
        reasons.append(f"siege lifted: {-siege:+d}")  # the penalty taken off is a gain
    net = parts["what_if_net"][0]
    if net != bonus - siege:
        reasons.append(f"net bonus {net:+d} after the floor at 0")
    return reasons
