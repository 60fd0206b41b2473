"""The library's scoring commands: score, explain, diagram, verify, batch
and sample, each a function returning a frozen result whose ``to_json()``
is the command's ``--format json`` output (without its final newline)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evlogic.api.inputs import (
    BoardInput,
    GameInput,
    PathText,
    RulesInput,
    board_of,
    game_of,
    rule_set,
)
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.reports.render import json_text, to_json, to_text
from evlogic.reports.report import ScoreReport
from evlogic.reports.score import score_game

if TYPE_CHECKING:
    from evlogic.reports.explain import Explanation
    from evlogic.reports.verify import ScenarioResult

#: batch's defaults (evlogic.batching.runner's, repeated so that score
#: does not import the batch runner): lines per grounding, MiB and seconds
#: a worker's chunk may use.
BATCH_CHUNK_SIZE = 2000
BATCH_MEMORY_LIMIT = 4096
BATCH_TIMEOUT = 60.0


@dataclass(frozen=True)
class ScoreResult:
    """A scored game: ``report`` holds each player's breakdown and the winners."""

    report: ScoreReport

    def to_json(self) -> str:
        """``evlogic score --format json``."""
        return to_json(self.report)

    def to_text(self) -> str:
        """``evlogic score``: the score table."""
        return to_text(self.report)


def score(game: GameInput | None = None, *, rules: RulesInput | None = None) -> ScoreResult:
    """Score a game: each player's face EVs, region, bonus, siege and total,
    and the winners, every figure from the rules in ``rules/``.

    ``game``: a game file's path (``"-"``: standard input), a loaded
    :class:`evlogic.Game`, or None for the rulebook's full example.
    ``rules``: a bundled rule set name, a rule set file or a loaded
    :class:`evlogic.RuleSet`, overriding the game's own rules.

    Returns a :class:`ScoreResult`; its ``report`` is the
    :class:`evlogic.ScoreReport`.  Bad input raises :class:`evlogic.InputError`.

    >>> evlogic.score("examples/rulebook/full-example.yaml").report.players[0].total
    39
    """
    return ScoreResult(score_game(game_of(game, rules)))


@dataclass(frozen=True)
class ExplainResult:
    """Why a player's score is what it is: ``explanation`` holds the core,
    the joins, the states left out, the siege and the what-ifs."""

    explanation: Explanation

    def to_json(self) -> str:
        """``evlogic explain --format json``."""
        from evlogic.reports.render import explanation_to_json

        return explanation_to_json(self.explanation)

    def to_text(self) -> str:
        """``evlogic explain``."""
        from evlogic.reports.render import explanation_to_text

        return explanation_to_text(self.explanation)


def explain(game: GameInput, *, player: str, rules: RulesInput | None = None) -> ExplainResult:
    """Explain one player's score from the solver's witnesses: the core
    and why it qualifies, each state that joined the region and the states
    it touched, each owned state left out and the links it lacks, each
    siege state and its holder, and for every state the player does not
    own (homes excepted) how much their total would change if they won it.

    ``game``: a game file's path (``"-"``: standard input) or a loaded
    :class:`evlogic.Game`.  ``player``: the player's name.  ``rules``: a
    rule set (name, file or :class:`evlogic.RuleSet`) overriding the game's.

    Returns an :class:`ExplainResult`.  An unknown player or bad input
    raises :class:`evlogic.InputError`.

    >>> evlogic.explain("examples/lakeland/game.yaml", player="Ada").explanation.score.total
    45
    """
    from evlogic.reports.explain import explain_game

    return ExplainResult(explain_game(game_of(game, rules), player))


@dataclass(frozen=True)
class DiagramResult:
    """A drawn hex map: ``svg`` is the picture ``evlogic diagram`` writes,
    ``player`` whose region it shows (None: every player, ``--all``)."""

    svg: str
    player: str | None

    def to_json(self) -> str:
        """The drawing as data: ``{"player": ..., "svg": ...}``."""
        return json_text({"player": self.player, "svg": self.svg})

    def png(self, scale: float = 1.0) -> bytes:
        """The picture as PNG, ``scale`` pixels per SVG unit (``--scale``);
        needs cairosvg (``pip install 'evlogic[png]'``): InputError without."""
        from evlogic.drawing.diagram import svg_to_png

        try:
            return svg_to_png(self.svg, scale)
        except ImportError:
            raise InputError("--format png", "needs cairosvg: pip install 'evlogic[png]'") from None


def chosen_player(player: str | None, everyone: bool, focus: bool) -> str:
    """diagram's choice of whom to draw checked (one of ``player`` and
    ``everyone``, ``focus`` only with a player): the name, or "all"."""
    if everyone and player is not None:
        raise InputError("--all", "draws every player: give it or --player NAME, not both")
    if not everyone and player is None:
        raise InputError("diagram", "give --player NAME (one player's region) or --all")
    if everyone and focus:
        raise InputError("--focus", "crops to one player's home: use it with --player")
    return player or "all"


def diagram(
    game: GameInput,
    *,
    player: str | None = None,
    all: bool = False,
    focus: bool = False,
    rules: RulesInput | None = None,
) -> DiagramResult:
    """Draw one player's position as an SVG hex map, one tile per state,
    coloured by role (home, core, region, excluded, siege, opponent,
    unclaimed), with the links that built the region, a legend and the
    bonus arithmetic; or with ``all=True`` every player at once, regions
    outlined and the score table underneath.

    ``game``: a game file's path (``"-"``: standard input) or a loaded
    :class:`evlogic.Game`.  ``player``: whose region to draw (give it or
    ``all``).  ``focus``: crop to the home, its neighbours and the
    player's states.  ``rules``: a rule set overriding the game's.

    Returns a :class:`DiagramResult` (``.svg``; ``.png(scale)``).

    >>> evlogic.diagram("examples/lakeland/game.yaml", player="Bo").svg[:4]
    '<svg'
    """
    from evlogic.drawing.diagram import render_svg
    from evlogic.drawing.table_diagram import PLAYER_STYLES, render_table_svg
    from evlogic.reports.explain import explain_game

    chosen_player(player, all, focus)
    loaded = game_of(game, rules)
    if player is None:
        if len(loaded.players) > len(PLAYER_STYLES):
            raise InputError("--all", f"draws up to {len(PLAYER_STYLES)} players")
        # The tile values (rules/tile_value.lp) are every player's alike.
        explained = explain_game(loaded, loaded.players[0].name)
        return DiagramResult(
            render_table_svg(explained.report, loaded.board, explained.worth), None
        )
    svg = render_svg(explain_game(loaded, player), loaded.board, focus=focus)
    return DiagramResult(svg, player)


@dataclass(frozen=True)
class VerifyResult:
    """Every scenario verified: ``scenarios``, each passed or failed with
    the figures that differ, or the error that kept it from being scored."""

    scenarios: tuple[ScenarioResult, ...]

    @property
    def errors(self) -> list[str]:
        """The scenarios that could not be read or scored: their errors."""
        return [result.error for result in self.scenarios if result.error is not None]

    @property
    def passed(self) -> bool:
        return all(result.passed for result in self.scenarios)

    def exit_status(self) -> int:
        """The command's: 0 every scenario passed, 1 one failed, 2 one is broken."""
        return 2 if self.errors else 0 if self.passed else 1

    def to_json(self) -> str:
        """``evlogic verify --format json``."""
        from evlogic.reports.render import verify_to_json

        return verify_to_json(list(self.scenarios))

    def to_text(self) -> str:
        """``evlogic verify``: PASS or FAIL a line, the differences under it."""
        from evlogic.reports.render import verify_to_text

        return verify_to_text(list(self.scenarios))


def verify(
    paths: PathText | Iterable[PathText] | None = None, *, rules: RulesInput | None = None
) -> VerifyResult:
    """Score every scenario (a game file with an ``expect:`` key) and
    report the figures that differ from what it expects.

    ``paths``: game files, or folders searched for game files with
    ``expect:``; one path or several; default (None or none): the
    rulebook's scenarios.  ``rules``: a rule set overriding every game's.

    Returns a :class:`VerifyResult`: a scenario that cannot be read or
    scored is listed as failed, with its error (``.errors``), not raised.

    >>> evlogic.verify("examples/rulebook").passed
    True
    """
    from evlogic.reports.verify import default_paths, verify_paths

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names = [os.fspath(path) for path in paths or ()]
    return VerifyResult(tuple(verify_paths(names or default_paths(), rule_set(rules))))


@dataclass(frozen=True)
class BatchLine:
    """One scored line of batch input: its number (from 1, blank lines
    counted) and its report, or its error."""

    line: int
    text: str  # the line's JSON, as batch writes it (no newline)

    @property
    def error(self) -> str | None:
        """Why the line could not be scored; None when it was."""
        if not self.text.startswith(f'{{"line": {self.line}, "error": '):
            return None
        error: str = json.loads(self.text)["error"]
        return error

    def to_dict(self) -> dict[str, Any]:
        """The line's report (``score --format json`` plus ``"line"``) as JSON data."""
        document: dict[str, Any] = json.loads(self.text)
        return document

    def to_json(self) -> str:
        """The line of ``evlogic batch`` output (without its newline)."""
        return self.text


@contextmanager
def batch_chunks(
    input: PathText | Iterable[str],
    *,
    board: PathText | None = None,
    rules: PathText | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    memory_limit: int | None = BATCH_MEMORY_LIMIT,
    timeout: float | None = BATCH_TIMEOUT,
    chunk_size: int = BATCH_CHUNK_SIZE,
) -> Iterator[Iterator[tuple[str, int, int]]]:
    """:func:`batch` a chunk at a time, for the command line: each chunk's
    text (JSON lines), its failed lines and its lines, in input order.
    The board, the rule set and the input are checked when the block is
    entered; the workers end when it is left."""
    from evlogic.batching.reading import BatchOptions
    from evlogic.batching.runner import Limits, batch_results
    from evlogic.loading.boards import load_board, resolve_board
    from evlogic.loading.jsonlines import open_input
    from evlogic.loading.rulesets import load_rule_set, resolve_rule_set

    rules_path = None
    if rules is not None:  # resolved once here: a bad rule set fails the command
        rules_path = str(_resolved("--rules", rules, resolve_rule_set))
        load_rule_set(rules_path)
    board_path = None
    if board is not None:
        board_path = str(_resolved("--board", board, resolve_board))
        load_board(Path(board_path), os.fspath(board))  # bad boards fail here, once
    if isinstance(input, (str, os.PathLike)):
        name = os.fspath(input)
        source, base = (
            ("<stdin>", Path.cwd()) if name == "-" else (name, Path(name).resolve().parent)
        )
        opened: AbstractContextManager[Iterable[str]] = open_input(name)
    else:
        source, base, opened = "<lines>", Path.cwd(), nullcontext(input)
    options = BatchOptions(source=source, board=board_path, base=str(base), rules=rules_path)
    with opened as lines:
        results = batch_results(
            lines,
            options,
            jobs=jobs if jobs is not None else os.cpu_count() or 1,
            dask_address=dask,
            chunk_size=chunk_size,
            limits=Limits(memory_mb=memory_limit, timeout=timeout),
        )
        try:
            yield results
        finally:
            results.close()


def _resolved(option: str, reference: PathText, resolve: Callable[[Any, Path], Path]) -> Path:
    """A board or rule set named by ``option``, as a path resolved from here."""
    from evlogic.loading.yamlfile import Field

    field = Field(option, "", os.fspath(reference), None, None)
    return resolve(field, Path.cwd()).resolve()


def batch(
    input: PathText | Iterable[str],
    *,
    board: PathText | None = None,
    rules: PathText | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    memory_limit: int | None = BATCH_MEMORY_LIMIT,
    timeout: float | None = BATCH_TIMEOUT,
    chunk_size: int = BATCH_CHUNK_SIZE,
) -> Generator[BatchLine, None, None]:
    """Score many games, one per line of JSON Lines, each in the game-file
    schema as JSON (``{"board": "usa", "players": [...]}``): an iterator
    of :class:`BatchLine`, in input order, scored lazily a chunk at a time.
    A bad line is that line's error (``.error``), and the batch goes on.

    ``input``: a JSON Lines file's path (``"-"``: standard input), or the
    lines themselves (any iterable of text).  ``board``: a bundled name or
    path, for lines without one.  ``rules``: a bundled name or a rule set
    file, overriding the lines' rules.  ``jobs``: worker processes
    (default: all cores).  ``dask``: a Dask scheduler's address to run the
    chunks on instead.  ``memory_limit``: MiB of each worker (None: no
    limit).  ``timeout``: seconds a chunk may take in a worker before it
    is retried line by line.  ``chunk_size``: lines per grounding.

    A bad board or rule set raises :class:`evlogic.InputError` when the
    first line is taken.  Leave the loop early, or close the iterator, and
    the workers end.

    >>> lines = ['{"players": [{"name": "A", "home": "KY", "states": ["IN"]}]}']
    >>> [line.to_dict()["players"][0]["total"] for line in evlogic.batch(lines, board="usa")]
    [19]
    """
    with batch_chunks(
        input,
        board=board,
        rules=rules,
        jobs=jobs,
        dask=dask,
        memory_limit=memory_limit,
        timeout=timeout,
        chunk_size=chunk_size,
    ) as chunks:
        for text, _failed, _count in chunks:
            for line in text.splitlines():
                number = int(line[len('{"line": ') : line.index(",")])
                yield BatchLine(number, line)


@dataclass(frozen=True)
class SampleResult:
    """Random final positions: ``games``, each in the game-file schema
    (``{"board": ..., "players": [...]}``; no board when ``board`` is None)."""

    games: tuple[dict[str, Any], ...]
    board: str | None  # how the games name their board

    def to_json(self) -> str:
        """The games as a JSON list."""
        return json_text(list(self.games))

    def to_jsonl(self) -> str:
        """``evlogic sample``: one game a line."""
        return "".join(json.dumps(game) + "\n" for game in self.games)


def sample_board_reference(board: str, output: str) -> str | None:
    """The board as the lines of ``output`` must name it: a name stays; a
    path is rewritten relative to the output's folder (``-``, standard
    output: the current folder), which batch reads it from.  None when the
    board is outside that folder: batch reads no line's file from outside
    its input's folder, so the lines then name no board and batch is given
    it with --board."""
    from evlogic.loading.boards import resolve_board
    from evlogic.loading.yamlfile import Field
    from evlogic.resources import bundled_boards

    field = Field("--board", "", board, None, None)
    path = resolve_board(field, Path.cwd())
    if board in bundled_boards() and not board.endswith((".yaml", ".yml")) and "/" not in board:
        return board
    folder = Path.cwd() if output == "-" else Path(output).resolve().parent
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(os.path.realpath(folder)):
        return None
    return os.path.relpath(real, os.path.realpath(folder))


def sample(*, board: BoardInput = "usa", players: int, count: int, seed: int = 0) -> SampleResult:
    """Random final positions (exactly the board's ``game_end`` states
    won: distinct random homes, the other states dealt at random),
    reproducible by seed: input for batch, benchmarks and balance studies.

    ``board``: a bundled name, a board file or a loaded :class:`evlogic.Board`
    (the games name the board as given, a path relative to the current
    folder; a loaded board, or one outside this folder: no board, batch
    is then given it with ``board=``).  ``players``: players per game (1
    to the board's game end).  ``count``: games.  ``seed``: the random
    seed (the same seed, the same games).

    Returns a :class:`SampleResult`; ``to_jsonl()`` is the command's output.

    >>> len(evlogic.sample(board="usa", players=2, count=3).games)
    3
    """
    loaded = board_of(board)
    reference = None if isinstance(board, Board) else sample_board_reference(os.fspath(board), "-")
    return SampleResult(tuple(sampled_games(loaded, reference, players, count, seed)), reference)


def sampled_games(
    board: Board, reference: str | None, players: int, count: int, seed: int
) -> Iterator[dict[str, Any]]:
    """:func:`sample`'s games one at a time (the command line streams them),
    naming the board ``reference`` (None: no board); ``players`` is
    checked at once."""
    from evlogic.batching.sample import sample_games

    if not 1 <= players <= board.game_end:
        raise InputError("--players", f"must be between 1 and {board.game_end} (game_end)")
    return sample_games(board, reference, players, count, seed)
