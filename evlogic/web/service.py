"""What the HTTP API does, without HTTP: requests in, documents out.

A request is JSON in the game-file schema.  Its ``board`` is a name from the
server's :class:`Catalog` (the bundled boards and any ``--board`` given at
start-up) or an inline board mapping; its ``rules`` a name from the catalog
or an inline mapping of parameters.  Nothing on the server's disk is
reachable from a request: a path is not a name, and inline rule sets cannot
bring ``.lp`` programs (those come only from ``--rules`` at start-up).

Every answer comes from the same functions as the command line: the score
report of ``score --format json``, the explanation of ``explain --format
json``, the SVG of ``diagram``; bad input is an :class:`InputError` with the
command line's wording.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import yaml

from evlogic.drawing.layout import board_layout
from evlogic.errors import InputError, quote
from evlogic.loading.boards import (
    Board,
    board_from_field,
    load_board,
    looks_like_board_path,
    resolve_board,
)
from evlogic.loading.games import Game, Player, game_from_fields, load_game
from evlogic.loading.jsonkeys import DuplicateKey, loads
from evlogic.loading.rulesets import (
    PARAMETERS,
    RuleSet,
    bundled_rule_sets,
    load_rule_set,
    rule_set_from_parameters,
)
from evlogic.loading.yamlfile import Field, closest, yaml_document
from evlogic.resources import bundled_boards
from evlogic.web.admission import WHAT_IF_WEIGHT, Size, board_size, sent_size, text_cost

if TYPE_CHECKING:
    from evlogic.simulation.balance import Setup
    from evlogic.web.balance import Plan

#: Where request errors say they come from.
SOURCE = "request"

#: The endpoints whose request is a game with a "player" to explain.
WHAT_IF_ENDPOINTS = ("explain", "diagram")


class TooLarge(InputError):
    """A board sent with a request that is over the server's bound (413)."""


#: Keys of a request: the game file's, and what an endpoint adds.
GAME_KEYS = ["board", "players"]
OPTIONAL_KEYS = ["rules", "expect"]

#: A JSON document the API sends: a mapping of plain data.
Document = dict[str, object]

T = TypeVar("T")


@dataclass(frozen=True)
class Seat:
    """A player of the game the page opens on; ``home`` None when not
    chosen yet."""

    name: str
    home: str | None
    states: tuple[str, ...]


@dataclass(frozen=True)
class Opening:
    """The game the page opens on: a board and a rule set of the catalog's
    (their names), and its players."""

    board: str
    rules: str
    players: tuple[Seat, ...]

    def document(self) -> Document:
        """GET /api/start: the game in the game-file schema, as JSON."""
        return _game_mapping(self.players, self.board, self.rules)


@dataclass(frozen=True)
class Catalog:
    """The boards and rule sets requests may name, and the page's start."""

    boards: dict[str, Board]
    rule_sets: dict[str, RuleSet]
    start: Opening  # the game the page opens on

    @classmethod
    def build(
        cls,
        game: str | None = None,
        board: str | None = None,
        rules: str | None = None,
        base: Path | None = None,
    ) -> Catalog:
        """Bundled boards and rule sets, plus ``board`` and ``rules`` (names
        or files, as on the command line) and ``game`` to open on."""
        base = base or Path.cwd()
        boards = {name: load_board(path, name) for name, path in bundled_boards().items()}
        rule_sets = {name: load_rule_set(name) for name in bundled_rule_sets()}
        start_board = "usa" if "usa" in boards else next(iter(boards))
        start_rules = "standard"
        if board is not None:
            field = Field("--board", "", board, None, None)
            path = resolve_board(field, base)
            if board in boards:
                start_board = board
            else:
                start_board = _entry(boards, path.stem, board, load_board(path, board))
        if rules is not None:
            rule_set = load_rule_set(rules, base)
            if rules in rule_sets:
                start_rules = rules
            else:
                start_rules = _entry(rule_sets, rule_set.name, rules, rule_set)
        if game is not None:
            loaded = load_game(Path(game), game, rule_sets[start_rules] if rules else None)
            name = next((n for n, b in boards.items() if b.source == loaded.board.source), None)
            if name is None:
                stem = Path(loaded.board.source).stem
                name = _entry(boards, stem, f"{stem} ({game})", loaded.board)
            if rules is None:
                known = rule_sets.get(loaded.rules.name)
                if known is loaded.rules:
                    start_rules = loaded.rules.name
                else:
                    fallback = f"{loaded.rules.name} ({game})"
                    start_rules = _entry(rule_sets, loaded.rules.name, fallback, loaded.rules)
            seats = tuple(Seat(p.name, p.home, p.states) for p in loaded.players)
            start = Opening(name, start_rules, seats)
        else:
            unchosen = (Seat("Player 1", None, ()), Seat("Player 2", None, ()))
            start = Opening(start_board, start_rules, unchosen)
        return cls(boards, rule_sets, start)

    # --- what the page lists -------------------------------------------------

    def board_list(self) -> list[Document]:
        return [
            {
                "name": name,
                "title": board.name,
                "states": len(board.states),
                "game_end": board.game_end,
            }
            for name, board in self.boards.items()
        ]

    def board_detail(self, name: str) -> Document:
        return board_document(self.board(Field(SOURCE, "board", name, None, None)), name)

    def rule_list(self) -> list[Document]:
        return [rule_set_document(name, rule_set) for name, rule_set in self.rule_sets.items()]

    # --- resolving a request's references -----------------------------------

    def board(self, field: Field) -> Board:
        if isinstance(field.value, dict):
            return bounded(board_from_field(field, "inline board"), field)
        name = field.text("a board name or an inline board mapping")
        if name not in self.boards:
            hint = closest(name, self.boards)
            raise field.error(
                f"no board {quote(name)}{hint}; known: {', '.join(self.boards)} "
                "(a request cannot name a file: send the board inline)"
            )
        return self.boards[name]

    def rule_set(self, field: Field | None) -> RuleSet:
        if field is None:
            return self.rule_sets["standard"]
        if isinstance(field.value, dict):
            return rule_set_from_parameters(field, self.rule_sets)
        name = field.text("a rule set name or an inline mapping of parameters")
        if name not in self.rule_sets:
            hint = closest(name, self.rule_sets)
            raise field.error(
                f"no rule set {quote(name)}{hint}; known: {', '.join(self.rule_sets)} "
                "(a request cannot name a file: send the parameters inline; programs "
                "only come from the server's --rules)"
            )
        return self.rule_sets[name]

    def game(self, top: Field, extra: list[str]) -> tuple[Game, dict[str, Field]]:
        """The request's game, validated as a game file is, and its fields."""
        fields = top.fields(GAME_KEYS, [*OPTIONAL_KEYS, *extra], what="a game mapping")
        board = self.board(fields["board"])
        rules = self.rule_set(fields.get("rules"))
        return game_from_fields(fields, board, SOURCE, rules), fields


def _entry(catalog: dict[str, T], name: str, fallback: str, value: T) -> str:
    """Add ``value`` to ``catalog`` under ``name``, or under ``fallback`` (the
    path as given) when a bundled one already has that name: a board or rule
    set given at start-up never hides behind a bundled one, nor hides it."""
    key = name if name not in catalog else fallback
    catalog[key] = value
    return key


def bounded(board: Board, field: Field) -> Board:
    """``board``, or TooLarge when it is over the bound of a sent board."""
    refusal = board_size(board).too_large()
    if refusal is not None:
        if field.path:
            raise TooLarge(field.source, refusal, field=field.path, line=field.line)
        raise TooLarge(field.source, refusal)
    return board


# --- requests ------------------------------------------------------------


def request_cost(sizes: dict[str, Size], endpoint: str, top: Field) -> int:
    """The estimated cost of ``endpoint``'s request ``top`` (see
    evlogic.web.admission), from its board: a name in ``sizes`` (the
    catalog's), or sent inline; TooLarge for a sent board over the bound."""
    value = top.value if isinstance(top.value, dict) else {}
    if endpoint in ("parse_board_yaml", "parse_game_yaml"):
        return text_cost(value.get("yaml"))
    if endpoint == "game_yaml":
        game = value.get("game")
        value = game if isinstance(game, dict) else {}
    board = value.get("board")
    if isinstance(board, str):
        size = sizes.get(board, Size(0, 0, 0))
    else:
        size = sent_size(board)
        refusal = size.too_large()
        if refusal is not None:
            raise TooLarge(SOURCE, refusal, field="board")
    return size.cost * (WHAT_IF_WEIGHT if endpoint in WHAT_IF_ENDPOINTS else 1)


def board_detail(catalog: Catalog, name: str) -> Document:
    """GET /api/boards/NAME: the named board with its layout."""
    return catalog.board_detail(name)


def parse_json(body: bytes) -> Field:
    """A request body as a top-level Field; not JSON is an InputError."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(SOURCE, f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    try:
        value = loads(text)
    except DuplicateKey as duplicate:
        message = f"duplicate key {quote(duplicate.key)} (JSON would keep the last one)"
        raise InputError(SOURCE, message, field=duplicate.field) from None
    except json.JSONDecodeError as error:
        raise InputError(
            SOURCE, f"invalid JSON: {error.msg} (line {error.lineno} column {error.colno})"
        ) from None
    except RecursionError:
        raise InputError(SOURCE, "invalid JSON: nests too deeply") from None
    except ValueError:  # an integer too long to convert (Python's words name its own API)
        limit = sys.get_int_max_str_digits()
        raise InputError(SOURCE, f"invalid JSON: a number of more than {limit} digits") from None
    return Field(SOURCE, "", value, None, None)


def player_name(fields: dict[str, Field], game: Game, purpose: str) -> str:
    """The request's ``player``, one of the game's; ``purpose`` says what
    for in the error when it is missing ("whose position to explain")."""
    if "player" not in fields:
        raise InputError(SOURCE, f"missing key 'player' ({purpose})")
    name = fields["player"].text("a player name")
    names = [player.name for player in game.players]
    if name not in names:
        raise fields["player"].error(
            f"no player {quote(name)}{closest(name, names)}; players: {', '.join(names)}"
        )
    return name


def score(catalog: Catalog, top: Field) -> Document:
    from evlogic.reports.score import score_game

    game, _ = catalog.game(top, [])
    return score_game(game).to_dict()


def warm(catalog: Catalog) -> None:
    """Ready a worker before its first request: score a one-state position
    on the page's start board, which parses the rules' syntax trees and the
    board's facts (cached, see evlogic.asp.solver) and runs clingo once (the
    first request of a cold worker took about 100 ms, the next ones 15)."""
    from evlogic.reports.score import score_game

    board = catalog.boards[catalog.start.board]
    rules = catalog.rule_sets[catalog.start.rules]
    score_game(Game(board, (Player("warm-up", min(board.states), ()),), SOURCE, rules))


def explain(catalog: Catalog, top: Field) -> Document:
    from evlogic.reports.explain import explain_game

    game, fields = catalog.game(top, ["player"])
    return explain_game(game, player_name(fields, game, "whose position to explain")).to_dict()


def diagram(catalog: Catalog, top: Field) -> str:
    from evlogic.drawing.diagram import render_svg
    from evlogic.reports.explain import explain_game

    game, fields = catalog.game(top, ["player", "focus"])
    focus = fields["focus"].flag() if "focus" in fields else False
    player = player_name(fields, game, "whose region to draw")
    return render_svg(explain_game(game, player), game.board, focus=focus)


def balance_plan(catalog: Catalog, top: Field) -> Plan:
    """POST /api/balance: the request checked (evlogic.web.balance.plan)."""
    from evlogic.web import balance

    return balance.plan(catalog, top)


def balance_games(catalog: Catalog, task: tuple[Setup, int, int, int]) -> object:
    """A batch of a balance run's games: their records
    (evlogic.web.balance.play)."""
    from evlogic.web import balance

    return balance.play(catalog, task)


def balance_result(catalog: Catalog, summed: tuple[Plan, list[dict[str, object]]]) -> object:
    """A balance run's report, charts and page, from its records
    (evlogic.web.balance.result)."""
    from evlogic.web import balance

    return balance.result(catalog, summed)


def parse_board_yaml(catalog: Catalog, top: Field) -> Document:
    """An uploaded board file (``{"yaml": TEXT, "filename": NAME}``),
    validated like a file: the board as an inline mapping, with its layout."""
    fields = top.fields(["yaml"], ["filename"], what="an upload mapping")
    name = fields["filename"].text("a file name") if "filename" in fields else "upload.yaml"
    text = fields["yaml"].value
    if not isinstance(text, str):
        raise fields["yaml"].error("must be the board file's text")
    document = yaml_document(text, name)
    board = bounded(board_from_field(document, Path(name).stem), document)
    return board_document(board, Path(name).stem)


def parse_game_yaml(catalog: Catalog, top: Field) -> Document:
    """An uploaded or pasted game file (``{"yaml": TEXT, "filename": NAME}``),
    validated like a file, as the JSON the page works on."""
    fields = top.fields(["yaml"], ["filename"], what="an upload mapping")
    name = fields["filename"].text("a file name") if "filename" in fields else "pasted game"
    text = fields["yaml"].value
    if not isinstance(text, str):
        raise fields["yaml"].error("must be the game file's text")
    document = yaml_document(text, name)
    game, game_fields = catalog.game(document, [])
    board = game_fields["board"].value
    rules = game_fields["rules"].value if "rules" in game_fields else "standard"
    return game_document(game, board, _plain(rules))


def game_yaml(catalog: Catalog, top: Field) -> str:
    """The request's game as a game file that ``evlogic score`` accepts
    unchanged.  ``board_file`` names the file an inline board was uploaded
    from (the game file then refers to it, to be kept beside it)."""
    fields = top.fields(["game"], ["board_file"], what="a download mapping")
    # Checked whatever the board: a board_file of the wrong type is refused,
    # not silently dropped because the board happens to be a name.
    board_file = fields["board_file"].text("a file name") if "board_file" in fields else None
    game, game_fields = catalog.game(fields["game"], [])
    board = game_fields["board"].value
    if isinstance(board, dict):
        if board_file is None:
            raise fields["game"].error("an inline board needs board_file: the file to refer to")
        # score reads a name like "usa" (no '/', no .yaml) as a bundled board,
        # not as the uploaded file: "./usa" is the file beside the game.
        board = board_file if looks_like_board_path(board_file) else f"./{board_file}"
    rules = _plain(game_fields["rules"].value) if "rules" in game_fields else game.rules.name
    document = game_document(game, board, rules)
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


# --- documents -----------------------------------------------------------


def game_document(game: Game, board: object, rules: object) -> Document:
    """A game in the game-file schema, as plain data."""
    return _game_mapping(game.players, board, rules)


def _game_mapping(
    players: tuple[Player, ...] | tuple[Seat, ...], board: object, rules: object
) -> Document:
    return {
        "board": board,
        "rules": rules,
        "players": [
            {"name": player.name, "home": player.home, "states": list(player.states)}
            for player in players
        ],
    }


def board_document(board: Board, name: str) -> Document:
    """A board for the page: states with EV, swing, neighbours and hex cell,
    and the board itself as an inline mapping a request may send back."""
    cells = board_layout(board)
    states = {
        state.id: {
            "name": state.name,
            "ev": state.ev,
            "swing": state.swing,
            "neighbors": list(state.neighbors),
            "hex": list(cells[state.id]),
        }
        for state in board.states.values()
    }
    return {
        "name": name,
        "title": board.name,
        "game_end": board.game_end,
        "states": states,
        "inline": {"name": board.name, "game_end": board.game_end, "states": states},
    }


def rule_set_document(name: str, rule_set: RuleSet) -> Document:
    document: Document = {"name": name, "title": rule_set.name}
    for parameter in PARAMETERS:
        value = getattr(rule_set, parameter)
        document[parameter] = {str(s): b for s, b in value} if parameter == "tiers" else value
    document["programs"] = [path.name for path in rule_set.programs]
    return document


def _plain(value: object) -> object:
    """Loaded YAML (line-remembering mappings and lists) as plain data."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
