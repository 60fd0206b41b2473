"""Reports: typed score breakdowns decoded from the solver's atoms.

Decoding only reads what ``rules/scoring/output.lp`` shows; every figure here was
derived by the rules.  Ordering for display (sorted ids, region by joining
layer) is the only thing done on this side.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from clingo import Symbol, Tuple_

from evlogic.asp.facts import state_ids
from evlogic.asp.solver import SolverError
from evlogic.errors import InputError, quote
from evlogic.loading.games import Game, past_game_end
from evlogic.resources import display_path


@dataclass(frozen=True)
class PlayerScore:
    """One player's score: the face EV, the core and region, the bonus, the
    siege and the total, as the rules derived them."""

    name: str
    home: str
    states: list[str]  # sorted ids, home included
    face_ev: int
    core: list[str]  # [home, a, b] or []
    region: list[str]  # core first, then in joining order
    region_bonus: int
    siege: list[str]  # sorted ids
    siege_penalty: int  # before the floor
    net_bonus: int  # after the floor
    total: int

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "home": self.home,
            "states": list(self.states),
            "face_ev": self.face_ev,
            "core": list(self.core),
            "region": list(self.region),
            "region_bonus": self.region_bonus,
            "siege": list(self.siege),
            "siege_penalty": self.siege_penalty,
            "net_bonus": self.net_bonus,
            "total": self.total,
        }


@dataclass(frozen=True)
class ScoreReport:
    """A scored position: each player's score in input order, whether the
    game is over, and the winners."""

    board: str
    rules: str  # the rule set's name
    final: bool
    states_won: int
    game_end: int
    players: list[PlayerScore]  # in input order
    winners: list[str]

    def to_dict(self) -> dict[str, object]:
        """The JSON contract of ``evlogic score --format json``."""
        return {
            "board": self.board,
            "rules": self.rules,
            "final": self.final,
            "states_won": self.states_won,
            "game_end": self.game_end,
            "players": [player.to_dict() for player in self.players],
            "winners": list(self.winners),
        }


#: A flat shown atom: a name and integers, as rules/scoring/output.lp promises.
_FLAT_ATOM = re.compile(r"(\w+)\((-?\d+(?:,-?\d+)*)\)")

Atoms = dict[str, list[tuple[int, ...]]]  # name -> argument tuples (position index dropped)


def atoms_by_position(symbols: Sequence[Symbol]) -> dict[int, Atoms]:
    """The flat shown atoms of a model, bucketed by position index.

    The whole model is read as one string: clingo's Python API costs about
    1 us a call, and reading arguments one by one costs ~20 us an atom.
    Atoms that are not flat (hypothetical what-if positions, whose index is
    a tuple, or witnesses with names in them) are left out.
    """
    buckets: dict[int, Atoms] = defaultdict(lambda: defaultdict(list))
    for name, arguments in _FLAT_ATOM.findall(str(Tuple_(list(symbols)))):
        values = tuple(map(int, arguments.split(",")))
        buckets[values[0]][name].append(values[1:])
    return buckets


def decode(atoms: Atoms, game: Game, line: int | None = None) -> ScoreReport:
    """Turn one position's atoms (see :func:`atoms_by_position`) into a
    report; a position past its game end is an InputError naming the game
    (``line``: the line of its source it is on) and where the game end was
    set."""
    _check_shape(atoms, game)
    (states_won,) = atoms["states_won"][0]
    (game_end,) = atoms["game_end"][0]
    if atoms["past_game_end"]:  # rules/scoring/position.lp: no game reaches this position
        raise past_game_end(game.source, game.board, game.rules, states_won, game_end, line)
    _check_overflow(atoms, game)
    ids = state_ids(game.board)
    cores = {p: [ids[a], ids[b]] for p, a, b in atoms["core"]}
    joined: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for p, state, layer in atoms["joined"]:
        joined[p].append((layer, state))
    siege: dict[int, list[str]] = defaultdict(list)
    for p, state in atoms["siege"]:
        siege[p].append(ids[state])
    scores = {figures[0]: figures[1:] for figures in atoms["score"]}
    winners = sorted(p for (p,) in atoms["winner"])

    players = []
    for number, player in enumerate(game.players):
        face, bonus, penalty, net, total = scores[number]
        core = [player.home, *cores[number]] if number in cores else []
        # After the chosen core: layer by layer, ties by id (other counted
        # cores, under union-cores, sit in layer 0).
        later = sorted(entry for entry in joined[number] if ids[entry[1]] not in core)
        players.append(
            PlayerScore(
                name=player.name,
                home=player.home,
                states=sorted({player.home, *player.states}),
                face_ev=face,
                core=core,
                region=core + [ids[state] for _, state in later],
                region_bonus=bonus,
                siege=sorted(siege[number]),
                siege_penalty=penalty,
                net_bonus=net,
                total=total,
            )
        )
    return ScoreReport(
        board=game.board.name,
        rules=game.rules.name,
        final=bool(atoms["final"]),
        states_won=states_won,
        game_end=game_end,
        players=players,
        winners=[game.players[number].name for number in winners],
    )


def _check_overflow(atoms: Atoms, game: Game) -> None:
    """A figure that clingo's 32-bit integers could not hold
    (rules/scoring/overflow.lp) is never reported: it is an InputError naming the
    rule set (its programs, when it has any), as the numbers came from it."""
    if not atoms["overflow"]:
        return
    (number,) = min(atoms["overflow"])
    rules = game.rules
    source = ", ".join(display_path(path) for path in rules.programs) or rules.source
    raise InputError(
        source,
        f"rule set {quote(rules.name)}: a figure of player {quote(game.players[number].name)} "
        f"passes 2^31, the largest number clingo adds exactly (are face values or penalties "
        f"too large?)",
    )


def _check_shape(atoms: Atoms, game: Game) -> None:
    """What rules/scoring/output.lp promises: one game end and states-won count, one
    set of figures per player, a winner.  evlogic's rules keep it; a rule
    set's own program could break it (a second total/3, say), which is an
    InputError naming that program, never a report with a figure picked at
    random."""
    problems = []
    if len(atoms["states_won"]) != 1 or len(atoms["game_end"]) != 1:
        problems.append("the states won or the game end is not one number")
    for number, player in enumerate(game.players):
        figures = sum(1 for score in atoms["score"] if score[0] == number)
        if figures != 1:
            what = "no total" if figures == 0 else "more than one total, face EV or bonus"
            problems.append(f"player {quote(player.name)} has {what}")
    if not atoms["winner"]:
        problems.append("nobody wins")
    if not problems:
        return
    if game.rules.programs:
        source = ", ".join(display_path(path) for path in game.rules.programs)
        raise InputError(source, f"breaks the scores: {problems[0]}")
    raise SolverError(f"the scoring rules broke their output: {problems[0]}")
