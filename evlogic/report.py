"""Reports: typed score breakdowns decoded from the solver's atoms.

Decoding only reads what ``rules/output.lp`` shows; every figure here was
derived by the rules.  Ordering for display (sorted ids, region by joining
layer) is the only thing done on this side.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from clingo import Number, Symbol

from evlogic.facts import state_ids
from evlogic.games import Game


@dataclass(frozen=True)
class PlayerScore:
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


@dataclass(frozen=True)
class ScoreReport:
    board: str
    final: bool
    states_won: int
    game_end: int
    players: list[PlayerScore]  # in input order
    winners: list[str]

    def to_dict(self) -> dict[str, object]:
        """The JSON contract of ``evlogic score --format json``."""
        return asdict(self)


#: The atoms of rules/output.lp that this module reads.
DECODED = frozenset(
    {
        "states_won",
        "final",
        "winner",
        "core",
        "joined",
        "siege",
        "face_ev",
        "region_bonus",
        "siege_penalty",
        "net_bonus",
        "total",
    }
)


def decode(symbols: Iterable[Symbol], game: Game, index: int = 0) -> ScoreReport:
    """Turn the shown atoms of position ``index`` into a report."""
    value: dict[tuple[str, int], int] = {}
    cores: dict[int, list[str]] = {}
    joined: dict[int, list[tuple[int, str]]] = defaultdict(list)
    siege: dict[int, list[str]] = defaultdict(list)
    winners: set[int] = set()
    states_won, final = 0, False
    ids = state_ids(game.board)
    position = Number(index)
    for symbol in symbols:
        args = symbol.arguments
        if symbol.name not in DECODED or args[0] != position:
            continue
        name = symbol.name
        if name == "states_won":
            states_won = args[1].number
        elif name == "final":
            final = True
        elif name == "winner":
            winners.add(args[1].number)
        elif name == "core":
            cores[args[1].number] = [ids[a.number] for a in args[2].arguments]
        elif name == "joined":
            joined[args[1].number].append((args[3].number, args[2].number))
        elif name == "siege":
            siege[args[1].number].append(ids[args[2].number])
        else:
            value[name, args[1].number] = args[2].number

    players = []
    for number, player in enumerate(game.players):
        core = [player.home, *cores[number]] if number in cores else []
        later = sorted(state for state in joined[number] if state[0] > 0)
        players.append(
            PlayerScore(
                name=player.name,
                home=player.home,
                states=sorted({player.home, *player.states}),
                face_ev=value["face_ev", number],
                core=core,
                region=core + [ids[state] for _, state in later],
                region_bonus=value["region_bonus", number],
                siege=sorted(siege[number]),
                siege_penalty=value["siege_penalty", number],
                net_bonus=value["net_bonus", number],
                total=value["total", number],
            )
        )
    return ScoreReport(
        board=game.board.name,
        final=final,
        states_won=states_won,
        game_end=game.board.game_end,
        players=players,
        winners=[game.players[number].name for number in sorted(winners)],
    )
