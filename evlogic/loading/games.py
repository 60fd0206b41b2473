"""Games: loading and validating a position on a board.

A game names its board and lists its players in order, each with a home and
the states they have won.  Everything here checks that the position can
exist (every id known, no state owned twice, homes never change hands);
nothing here knows a scoring rule.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from evlogic.errors import InputError, quote
from evlogic.loading.boards import DEFAULT_GAME_END, Board, checked_board, load_board, resolve_board
from evlogic.loading.expect import Expected, read_expect
from evlogic.loading.rulesets import RuleSet, load_rule_set, rule_set_from_field
from evlogic.loading.schema import validate
from evlogic.loading.yamlfile import Field, read_yaml, yaml_document
from evlogic.resources import display_path

#: Keys of a game file: required, then optional.
GAME_KEYS = (["board", "players"], ["rules", "expect"])


@dataclass(frozen=True)
class Player:
    """A player of a game: a name, a home and the states won, as listed."""

    name: str
    home: str
    states: tuple[str, ...]  # won states as listed (the home may appear)


@dataclass(frozen=True)
class Game:
    """A position on a board, under a rule set, checked (evlogic.load_game
    reads one): its players in order."""

    board: Board
    players: tuple[Player, ...]
    source: str
    rules: RuleSet = field(default_factory=lambda: load_rule_set("standard"))
    expect: Expected | None = None  # the game's expect:, checked (verify compares it)


def game_from_fields(
    fields: dict[str, Field], board: Board, source: str, rules: RuleSet | None = None
) -> Game:
    """Validate a game's fields against its board (the ``board`` and ``rules``
    keys already resolved; ``rules`` None means standard)."""
    rules = rules or load_rule_set("standard")
    check_game_end(board, rules)
    validate(fields["players"], "game", "a list of players", part="players")
    items = fields["players"].items()

    parsed: list[tuple[str, Field, list[Field]]] = []
    names: dict[str, Field] = {}
    homes: dict[str, str] = {}
    for item in items:
        player = item.members()
        name = player["name"].text("a player name")
        if name in names:
            raise player["name"].error(f"player name {quote(name)} is used twice")
        names[name] = player["name"]
        home_field = player["home"]
        home = _state_id(home_field, board)
        if home in homes:
            raise home_field.error(f"{quote(home)} is already the home of {quote(homes[home])}")
        homes[home] = name
        states = player["states"].items() if "states" in player else []
        parsed.append((name, home_field, states))

    owner = dict(homes)
    players: list[Player] = []
    for name, home_field, state_fields in parsed:
        home = home_field.text()
        won: list[str] = []
        for item in state_fields:
            state_id = _state_id(item, board)
            if state_id in homes and homes[state_id] != name:
                raise item.error(
                    f"{quote(state_id)} is the home of {quote(homes[state_id])}; "
                    "homes never change hands"
                )
            if state_id != home and owner.get(state_id, name) != name:
                raise item.error(f"{quote(state_id)} is already owned by {quote(owner[state_id])}")
            owner[state_id] = name
            won.append(state_id)
        players.append(Player(name=name, home=home, states=tuple(won)))
    expect = read_expect(fields["expect"], names, board) if "expect" in fields else None
    game = Game(board=board, players=tuple(players), source=source, rules=rules, expect=expect)
    _checked(game)
    return game


#: Games validated already (read from a file, or checked by checked_game),
#: by identity: id -> the game, while it lives.
_CHECKED: weakref.WeakValueDictionary[int, Game] = weakref.WeakValueDictionary()


def _checked(game: Game) -> Game:
    _CHECKED[id(game)] = game
    return game


def checked_game(game: object, source: str = "game") -> Game:
    """``game`` (built in Python, say) validated exactly as a game file is:
    its players go through :func:`game_from_fields` and its board through
    evlogic.loading.boards.checked_board, so every position a file could
    not hold (a state owned twice, two players on one home, another
    player's home owned, a name used twice, an unknown state, a value of
    the wrong type) is the same InputError, naming ``source`` (the
    argument) and the field (``players[1].home``).  Games read from files
    are not checked again."""
    if not isinstance(game, Game):
        what = f"must be a Game (evlogic.load_game reads one), not {_kind(game)}"
        raise InputError(source, what)
    if _CHECKED.get(id(game)) is game:
        return game
    board = checked_board(game.board, source)
    if not isinstance(game.rules, RuleSet):
        what = f"must be a RuleSet (evlogic.load_rule_set reads one), not {_kind(game.rules)}"
        raise InputError(source, what, field="rules")
    if not isinstance(game.source, str):
        raise InputError(source, f"must be text, not {_kind(game.source)}", field="source")
    players: object = game.players  # not a list: game_from_fields words it
    if isinstance(players, (tuple, list)):
        players = [
            _player_fields(player, source, f"players[{n}]") for n, player in enumerate(players)
        ]
    fields = {"players": Field(source, "players", players, None, None)}
    game_from_fields(fields, board, source, game.rules)
    return _checked(game)


def _player_fields(player: object, source: str, path: str) -> dict[str, object]:
    """A Player as the mapping a game file would hold."""
    if not isinstance(player, Player):
        raise InputError(source, f"must be a Player, not {_kind(player)}", field=path)
    states = list(player.states) if isinstance(player.states, tuple) else player.states
    return {"name": player.name, "home": player.home, "states": states}


def _kind(value: object) -> str:
    return "nothing" if value is None else type(value).__name__


#: Keys a JSON line may have (:func:`quick_players` reads only ``players``).
LINE_KEYS = frozenset({"board", "players", "rules", "expect"})
PLAYER_KEYS = frozenset({"name", "home", "states"})


def plain_line(value: object) -> TypeGuard[dict[str, object]]:
    """Whether a parsed line may take a quick path (:func:`quick_players`,
    the compiled batch reader): a mapping of known keys and no ``expect:``
    (which the careful path checks)."""
    return isinstance(value, dict) and LINE_KEYS.issuperset(value) and "expect" not in value


#: A plain line's players as :func:`quick_players` reads them: their names,
#: homes and states as listed (the home may appear), and each player's
#: states, home included, as one mask of the ``bits`` it was given.
QuickPlayers = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...]]


def _quick_player(entry: object, names: Collection[str]) -> tuple[str, str, list[str]] | None:
    """One player entry of a plain, clean JSON line: its keys known, a
    printable name not in ``names``, a home id and a list of states (as
    listed: their ids, even their types, unchecked); None whenever anything
    is unusual (the careful path accepts or words it)."""
    if not isinstance(entry, dict) or not PLAYER_KEYS.issuperset(entry):
        return None
    name, home, won = entry.get("name"), entry.get("home"), entry.get("states", [])
    if not isinstance(name, str) or not name.strip() or name in names:
        return None
    if not name.isprintable():  # a control character, say
        return None
    if not isinstance(home, str) or not isinstance(won, list):
        return None
    return name, home, won


def quick_players(value: object, bits: Mapping[str, int]) -> QuickPlayers | None:
    """The players of a plain, clean JSON line, checked as
    :func:`game_from_fields` checks them (names, homes, state ids, no state
    owned twice, homes never change hands) without a Field per value, on
    the masks the ids are packed into: ``bits`` gives each state id of the
    board its own bit (:func:`state_bits`; the compiled batch path's own
    layout).  None whenever anything is unusual, so that the careful path
    finds and words the error.  The one quick check of a line: shared by
    :func:`quick_game` and the compiled batch path."""
    if not plain_line(value):
        return None
    listed = value.get("players")
    if not isinstance(listed, list) or not listed:
        return None
    names: list[str] = []
    homes: list[str] = []
    states: list[tuple[str, ...]] = []
    masks: list[int] = []  # each player's listed states (home not added yet)
    home_bits: list[int] = []
    all_homes = 0
    for entry in listed:
        fields = _quick_player(entry, names)
        if fields is None:
            return None
        name, home, won = fields
        home_bit = bits.get(home)
        if home_bit is None or all_homes & home_bit:
            return None
        try:
            mask = sum(map(bits.__getitem__, won))
        except (KeyError, TypeError):  # not a state id (an unhashable entry: not one either)
            return None
        if mask.bit_count() != len(won):  # a state listed twice (its bits carried)
            return None
        all_homes |= home_bit
        names.append(name)
        homes.append(home)
        states.append(tuple(won))
        masks.append(mask)
        home_bits.append(home_bit)
    owned = all_homes  # homes, then every state claimed so far
    for index, (mask, home_bit) in enumerate(zip(masks, home_bits, strict=True)):
        claimed = mask & ~home_bit
        if claimed & owned:  # another's home or state
            return None
        owned |= claimed
        masks[index] = mask | home_bit
    return tuple(names), tuple(homes), tuple(states), tuple(masks)


#: Boards' bits for :func:`quick_game` (:func:`state_bits`), while a board lives.
_BITS: weakref.WeakKeyDictionary[Board, dict[str, int]] = weakref.WeakKeyDictionary()


def state_bits(board: Board) -> dict[str, int]:
    """Each state id of ``board`` -> a bit of its own (2 ** its place in
    the board's list), for :func:`quick_players`; made once a board."""
    bits = _BITS.get(board)
    if bits is None:
        bits = _BITS[board] = {state: 1 << n for n, state in enumerate(board.states)}
    return bits


def quick_game(value: object, board: Board, source: str, rules: RuleSet) -> Game | None:
    """The same game as :func:`game_from_fields` gives for plain, clean data
    (JSON lines), found without building a Field per value (see
    :func:`quick_players`); None whenever anything is unusual.  Accepts only
    what the careful path accepts; a rule set whose game end the board
    cannot reach is the one error raised here (it names no field of the
    game, so both paths word it alike)."""
    if not isinstance(value, dict) or not LINE_KEYS.issuperset(value):
        return None
    check_game_end(board, rules)
    players = quick_players(value, state_bits(board))
    if players is None:
        return None
    names, homes, states, _ = players
    game = Game(
        board=board,
        players=tuple(map(Player, names, homes, states)),
        source=source,
        rules=rules,
    )
    return _checked(game)


def check_game_end(board: Board, rules: RuleSet) -> None:
    """A rule set may move the game end, but not beyond the board's states."""
    if rules.game_end is not None and rules.game_end > len(board.states):
        message = (
            f"{rules.game_end} is more than the {len(board.states)} states of board "
            f"{quote(board.name)}: the game could never end"
        )
        if rules.game_end_field is not None:  # the file, field and line that set it
            raise rules.game_end_field.error(message)
        raise InputError(rules.source, message, field="game_end")


def _state_id(item: Field, board: Board) -> str:
    state_id = item.text("a state id")
    if state_id not in board.states:
        raise item.error(
            f"unknown state {quote(state_id)}{board.suggest(state_id)} on board {quote(board.name)}"
        )
    return state_id


def load_game(
    path: str | os.PathLike[str], source: str | None = None, rules: RuleSet | None = None
) -> Game:
    """Load a game file and the board it names; ``rules`` overrides the
    file's ``rules:`` (default: standard)."""
    path = Path(path)
    return game_from_document(read_yaml(path, source), path.parent, rules)


def load_game_text(text: str, source: str, base: Path, rules: RuleSet | None = None) -> Game:
    """Load a game from YAML text; a board path is relative to ``base``."""
    return game_from_document(yaml_document(text, source), base, rules)


def game_from_document(top: Field, base: Path, rules: RuleSet | None = None) -> Game:
    """A game from a parsed game file; a board path is relative to ``base``."""
    validate(top, "game", "a game mapping", shallow=True)
    fields = top.members()
    board_path = resolve_board(fields["board"], base)
    board = load_board(board_path, display_path(board_path))
    if rules is None and "rules" in fields:
        rules = rule_set_from_field(fields["rules"], base)
    return game_from_fields(fields, board, top.source, rules)


def game_end_origin(board: Board, rules: RuleSet) -> str:
    """Where the game end that ``rules`` has on ``board`` was set, as an
    error names it: a rule set's field (its file and line: a rule set file,
    or the ``rules:`` of a game), else the board's, else the default."""
    if rules.game_end is not None:
        if rules.game_end_field is not None:
            return _field_place(rules.game_end_field)
        return f"game_end of rule set {quote(rules.name)} ({rules.source})"
    field = board.game_end_field
    if field is not None:
        line = "" if field.line is None else f", line {field.line}"
        return f"game_end of board {quote(board.name)} ({field.source}{line})"
    return (
        f"the default of board {quote(board.name)} ({board.source} sets no game_end: "
        f"{DEFAULT_GAME_END} states, or all of them when fewer)"
    )


def _field_place(field: Field) -> str:
    line = "" if field.line is None else f", line {field.line}"
    return f"{field.path} of {field.source}{line}"


def past_game_end(
    source: str,
    board: Board,
    rules: RuleSet,
    states_won: int,
    game_end: int,
    line: int | None = None,
) -> InputError:
    """The error for a position (of ``source``, on ``line`` of it) with more
    states won than its game end, both figures the rules' (past_game_end/1
    of rules/scoring/position.lp, won/3 of rules/batch/position.lp): no game
    reaches it."""
    return InputError(
        source,
        f"{states_won} states won (homes included), but the game ends when state "
        f"{game_end} is won (set by {game_end_origin(board, rules)}): "
        "no position has more states won than that",
        field="players",
        line=line,
    )
