"""The library's simulation commands: play, balance and tune, each a
function returning a frozen report whose ``to_json()`` is the command's
``--format json`` output (without its final newline) and ``to_text()``
its text output."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal

from evlogic.api.inputs import (
    BoardInput,
    GameInput,
    PathText,
    RulesInput,
    board_of,
    game_of,
)
from evlogic.api.inputs import (
    rule_set as loaded_rule_set,
)
from evlogic.errors import InputError, quote
from evlogic.loading.rulesets import RuleSet, load_rule_set, with_moves
from evlogic.loading.space import Space, load_space
from evlogic.reports.balance_figures import BalanceReport
from evlogic.reports.ladder import LadderReport
from evlogic.simulation.balance import Record
from evlogic.simulation.report import PlayReport
from evlogic.simulation.solving import SolveReport
from evlogic.simulation.state import GameState
from evlogic.simulation.table import Table
from evlogic.simulation.tune_report import TuneReport

__all__ = [
    "BalanceReport",
    "GameState",
    "LadderReport",
    "PlayReport",
    "SolveReport",
    "TuneReport",
    "balance",
    "game_state",
    "ladder",
    "play",
    "solve",
    "tune",
]

#: The turn orders: snake (1..N, N..1, ...) or round-robin (1..N, 1..N, ...).
Order = Literal["snake", "round-robin"]

#: Players when neither ``players`` nor a game file says.
DEFAULT_PLAYERS = 4

#: The ladder's agents when none are named, weakest first.
LADDER_AGENTS = "random,face,greedy,lookahead"

#: Players solve seats when neither ``players`` nor ``homes`` says.
SOLVE_PLAYERS = 2

#: Spaces tune plays whole without being given a budget.
DEFAULT_BUDGET_CANDIDATES = 32


def _rules(rules: RulesInput | None, moves: str | None = None) -> RuleSet:
    loaded = loaded_rule_set(rules) or load_rule_set("standard")
    return _moved(loaded, moves)


def _moved(rules: RuleSet, moves: str | None) -> RuleSet:
    """``rules`` with ``moves`` as its move model (if given), the model read
    and checked now, once (errors before any game is played)."""
    from evlogic.simulation.moves import move_model

    if moves is not None:
        rules = with_moves(rules, moves)
    move_model(rules)
    return rules


def play(
    game: GameInput | None = None,
    *,
    board: BoardInput | None = None,
    rules: RulesInput | None = None,
    players: int | None = None,
    agents: str = "greedy",
    order: Order = "snake",
    seed: int = 0,
    moves: str | None = None,
) -> PlayReport:
    """Play one simulated game (docs/play.md): homes dealt, then each player
    in turn makes a move its agent chooses among those the move model makes
    legal (a draft: any unclaimed state), until the game ends.  Nothing is
    scored in Python: every total is the rules'.

    ``game``: a game file to play on from (its path, or a loaded
    :class:`evlogic.Game`: its board, players, homes and states won), or
    None to deal homes at random on ``board``.
    ``board``: a bundled board name, a board file or a loaded
    :class:`evlogic.Board` (default "usa"; not with ``game``).
    ``rules``: a bundled rule set name, a rule set file or a loaded
    :class:`evlogic.RuleSet` (default: the game's own, else "standard").
    ``players``: how many players (default 4, or the game's).
    ``agents``: one agent for every seat or one a seat, comma-separated in
    seat order: greedy, spoiler, face, random or a .lp file.
    ``order``: "snake" or "round-robin".
    ``seed``: ties and dealt homes are drawn by it: the same seed plays the
    same game.
    ``moves``: the move model, overriding the rule set's: draft, market,
    campaign or a move program's .lp file.

    Returns a :class:`evlogic.simulation.report.PlayReport`: ``moves`` (each
    with the mover's gain, every total after it, the legal moves and the
    model's visible state before it), ``final`` (the final
    position's :class:`evlogic.ScoreReport`), ``to_json()``, ``to_text()``
    and ``to_yaml(path)`` (the final position as a game file).  Bad input
    raises :class:`evlogic.InputError`.

    >>> report = evlogic.play(players=3, agents="greedy,random,random", seed=3)
    >>> len(report.final.players)
    3
    >>> moves = [(move.player, move.state, move.gain) for move in report.moves]
    """
    from evlogic.simulation.engine import play as play_game

    table = _table(game, board, rules, players, agents, order, seed, moves)
    return PlayReport(play_game(table))


def game_state(
    game: GameInput | None = None,
    *,
    board: BoardInput | None = None,
    rules: RulesInput | None = None,
    players: int | None = None,
    agents: str = "greedy",
    order: Order = "snake",
    seed: int = 0,
    moves: str | None = None,
) -> GameState:
    """A game to move on yourself, move by move (docs/play.md, "The
    game-state API"): the table :func:`play` would deal (or ``game``'s
    position); ``choice()`` says what the mover's agent would choose.

    ``game``: a game file to play on from (path or loaded Game), or None.
    ``board``: a bundled board name, a board file or a loaded Board
    (default "usa"; not with ``game``).
    ``rules``: a rule set name, file or loaded RuleSet (default: the
    game's own, else "standard").
    ``players``: how many players (default 4, or the game's).
    ``agents``: the seats' agents, as for :func:`play` (``choice()``).
    ``order``: "snake" or "round-robin" (passes count as turns).
    ``seed``: deals the homes and shuffles a market's deck.
    ``moves``: the move model, overriding the rule set's: draft, market,
    campaign or a move program's .lp file.

    Returns a :class:`evlogic.simulation.state.GameState`: ``mover()``,
    ``legal()`` (state ids in the board's order, None for a legal pass),
    ``after(move)`` (every player's total if the mover made it),
    ``apply(move)``, ``is_over()``, ``totals()``, ``market()``,
    ``points()``, ``moves()``, ``report()`` (the position scored by
    score's rules), ``choice()`` (the mover's agent's move) and
    ``clone()``.  Every figure is the rules'.

    >>> state = evlogic.game_state(players=2, seed=2, moves="market")
    >>> while not state.is_over():
    ...     legal = state.legal()
    ...     state.apply(max(legal, key=lambda move: state.after(move)[state.mover()]))
    >>> state.report().final
    True
    """
    table = _table(game, board, rules, players, agents, order, seed, moves)
    return GameState(table)


def _table(
    game: GameInput | None,
    board: BoardInput | None,
    rules: RulesInput | None,
    players: int | None,
    agents: str,
    order: Order,
    seed: int,
    moves: str | None,
) -> Table:
    """The table of a game file's position, or of homes dealt on ``board``."""
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.table import deal, seated

    if game is not None:
        if board is not None:
            raise InputError("--board", "a game file names its own board: leave --board out")
        loaded = game_of(game, rules)
        loaded = replace(loaded, rules=_moved(loaded.rules, moves))
        if players is not None and players != len(loaded.players):
            raise InputError(
                "--players", f"{players}, but {loaded.source} has {len(loaded.players)} players"
            )
        return seated(loaded, load_agents(agents, len(loaded.players)), order, seed)
    count = players if players is not None else DEFAULT_PLAYERS
    return deal(
        board_of(board or "usa"), _rules(rules, moves), load_agents(agents, count), order, seed
    )


def balance(
    *,
    rules: RulesInput | Sequence[RulesInput] = "standard",
    board: BoardInput = "usa",
    players: int = DEFAULT_PLAYERS,
    agents: str = "greedy",
    order: Order = "snake",
    games: int = 1000,
    seed: int = 0,
    jobs: int = 1,
    dask: str | None = None,
    on_game: Callable[[str], None] | None = None,
    progress: Callable[[int], object] | None = None,
    moves: str | None = None,
) -> BalanceReport:
    """Play ``games`` simulated games under each rule set and report, each
    figure with a 95% confidence interval: win rate by seat and the first
    seat's advantage, by home (significantly strong or weak homes), by
    agent; how often the regional bonus and the siege decide the winner;
    mean face EV, region size, bonus, siege penalty and total; how early
    each state is won.  Every rule set plays the same deals and seeds, so
    the differences (each rule set against the first, paired by game) are
    the rules' doing.

    ``rules``: a rule set (bundled name, file or loaded
    :class:`evlogic.RuleSet`) or a list of them to compare (default
    "standard").
    ``board``: a bundled board name, a board file or a loaded
    :class:`evlogic.Board` (default "usa").
    ``players``: players, homes dealt at random (default 4).
    ``agents``: one agent for every seat or one a seat, comma-separated.
    ``order``: "snake" or "round-robin".
    ``games``: games a rule set.  ``seed``: the first game's seed.
    ``jobs``: worker processes; ``dask``: a Dask scheduler's address
    instead (the report is the same however the games ran).
    ``on_game``: called with each game's JSON line (its moves and final
    report, what ``--games-out`` writes and ``evlogic stats`` reads).
    ``progress``: called with the number of games just played.
    ``moves``: the move model every rule set is played under, overriding
    theirs: draft, market, campaign or a move program's .lp file.

    Returns a :class:`evlogic.reports.balance_figures.BalanceReport`:
    ``rule_sets`` (each a ``RuleSetFigures``: ``seat_win_rate``,
    ``home_win_rate``, ``bonus_decides``, ``mean``, ...), ``differences``,
    ``to_json()`` and ``to_text()``.  Bad input raises
    :class:`evlogic.InputError`.

    >>> report = evlogic.balance(games=20, seed=1, players=2, board="usa")
    >>> figures = report.rule_sets[0]
    >>> [seat.seat for seat in figures.seat_win_rate]
    [1, 2]
    >>> rows = [(seat.seat, seat.rate, seat.low, seat.high) for seat in figures.seat_win_rate]
    """
    from evlogic.reports.balance import BalanceHeading, balance_report
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.balance import Setup, play_games
    from evlogic.simulation.table import deal

    loaded_board = board_of(board)
    references = [rules] if isinstance(rules, (str, os.PathLike, RuleSet)) else list(rules)
    rule_sets = tuple(_rules(reference, moves) for reference in references)
    names = [rule_set.name for rule_set in rule_sets]
    for name in names:
        if names.count(name) > 1:
            raise InputError("--rules", f"two rule sets named {quote(name)}: a report names them")
    seats = load_agents(agents, players)
    for rule_set in rule_sets:
        deal(loaded_board, rule_set, seats, order, seed)  # too many players: an error now
    setup = Setup(
        loaded_board, rule_sets, agents, players, order, games, seed, record=on_game is not None
    )
    heading = BalanceHeading(
        loaded_board.name, players, tuple(a.name for a in seats), order, games, seed
    )
    records = play_games(
        setup, jobs=jobs if dask is None else None, dask_address=dask, progress=progress
    )
    return balance_report(heading, _handed_on(records, on_game))


def _handed_on(
    records: Iterator[Record], on_game: Callable[[str], None] | None
) -> Iterator[Record]:
    for record in records:
        if on_game is not None:
            on_game(json.dumps(record, ensure_ascii=False))
        yield record


def space_of(space: Space | PathText) -> Space:
    """``space`` loaded (a path to a space file, or a loaded Space)."""
    if isinstance(space, Space):
        return space
    path = Path(os.fspath(space))
    if not path.is_file():
        raise InputError(os.fspath(space), "no such file")
    return load_space(path)


def _space_moved(space: Space, moves: str | None) -> Space:
    """``space`` with every rule set under ``moves`` (if given)."""
    if moves is None:
        _moved(space.base, None)
        return space
    candidates = tuple(
        replace(candidate, rules=_moved(candidate.rules, moves)) for candidate in space.candidates
    )
    return replace(space, base=_moved(space.base, moves), candidates=candidates)


def tune_budget(space: Space, games: int, budget: int | None) -> int:
    """The games tune plays in all: ``budget``, or by default every
    candidate its ``games`` (spaces of up to DEFAULT_BUDGET_CANDIDATES)."""
    count = len(space.candidates)
    if budget is None:
        if count > DEFAULT_BUDGET_CANDIDATES:
            raise InputError(
                "--budget",
                f"the space holds {count} candidates (more than {DEFAULT_BUDGET_CANDIDATES}): "
                "say how many games to play in all",
            )
        budget = count * games
    if budget < count:
        raise InputError("--budget", f"{budget} games cannot play each of {count} candidates once")
    return budget


def tune(
    space: Space | PathText,
    *,
    board: BoardInput = "usa",
    players: int = DEFAULT_PLAYERS,
    agents: str = "greedy",
    order: Order = "snake",
    games: int = 200,
    budget: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    dask: str | None = None,
    check_timeout: float = 60.0,
    progress: Callable[[int], object] | None = None,
    moves: str | None = None,
) -> TuneReport:
    """Search a space of rule sets for the fairest games that keep the
    rules' promises (docs/tune.md): each candidate is played as
    :func:`balance` plays it, on the same deals and seeds, a budget smaller
    than every candidate's games spent by successive halving; properties
    are proved by check.

    ``space``: a space file's path (``extends``, ``search``,
    ``objectives``, ``require``) or a loaded
    :class:`evlogic.loading.space.Space`.
    ``board``, ``players``, ``agents``, ``order``, ``seed``, ``jobs``,
    ``dask``: as for :func:`balance`.
    ``games``: the most games a candidate plays (default 200).
    ``budget``: games in all (default: every candidate its ``games``, for
    spaces of up to 32 candidates).
    ``check_timeout``: seconds each property proof may take (past it: unknown).
    ``progress``: called with the number of games just played.
    ``moves``: the move model every candidate is played under, overriding
    the space's base's: draft, market, campaign or a move program's .lp file.

    Returns a :class:`evlogic.simulation.tune_report.TuneReport`: ``front`` (the
    Pareto front, each candidate's rule set, objectives with intervals,
    requirements and distance from the base), ``best`` (its index, None
    when no candidate meets every requirement), ``to_json()``,
    ``to_text()``.  Bad input raises :class:`evlogic.InputError`.

    >>> report = evlogic.tune("examples/tune/lakeland-space.yaml", games=10, budget=60)
    >>> report.objectives
    ('first_seat_advantage', 'home_spread')
    >>> best = None if report.best is None else report.front[report.best].rule_set
    """
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.table import deal
    from evlogic.simulation.tune import TuneOptions
    from evlogic.simulation.tune import tune as search
    from evlogic.simulation.tune_report import tune_document

    loaded = _space_moved(space_of(space), moves)
    loaded_board = board_of(board)
    deal(loaded_board, loaded.base, load_agents(agents, players), order, seed)
    options = TuneOptions(
        loaded_board,
        agents,
        players,
        order,
        games,
        tune_budget(loaded, games, budget),
        seed,
        check_timeout,
    )
    result = search(
        loaded,
        options,
        jobs=jobs if dask is None else None,
        dask_address=dask,
        progress=progress,
    )
    return tune_document(loaded, options, result)


def solve(
    board: BoardInput,
    *,
    players: int | None = None,
    homes: str | Sequence[str] | None = None,
    rules: RulesInput | None = None,
    moves: str | None = None,
    order: Order = "snake",
    agents: str | Sequence[str] | None = None,
    seed: int = 0,
) -> SolveReport:
    """Perfect play on a small board (docs/play.md, "Perfect play"): every
    position of the game searched, each player maximising its own final
    total less the best rival's (for two players: minimax of seat 1's
    margin), ties between equally good moves going to the smallest state
    id.  Every position is ruled on by the move model's rules and every
    final position scored by score's rules.

    ``board``: a bundled board name, a board file or a loaded
    :class:`evlogic.Board`; at most 14 states nobody holds at the start
    for two players, 10 for three or more.
    ``players``: how many players (default: as many as ``homes``, else 2).
    ``homes``: the homes in seat order (turn order), comma-separated or a
    list of state ids (default: dealt at random by ``seed``).
    ``rules``: a rule set name, file or loaded RuleSet (default "standard").
    ``moves``: the move model, overriding the rule set's.
    ``order``: "snake" or "round-robin".
    ``agents``: agents to measure against perfect play (comma-separated
    or a list): how often each chooses a perfect move where perfect play
    goes, and its margin with every rival playing perfectly.
    ``seed``: deals the homes (unless given) and shuffles a market's deck.

    Returns a :class:`evlogic.simulation.solving.SolveReport`: ``value``
    (each seat's total and margin under perfect play), ``first_move``,
    ``positions``, ``agents``, ``to_json()`` and ``to_text()``.  Bad input
    (a board over the bound included) raises :class:`evlogic.InputError`.

    >>> report = evlogic.solve("examples/lakeland/board.yaml", homes="W,E")
    >>> [(seat.seat, seat.total, seat.margin) for seat in report.value]
    [(1, 30, 10), (2, 20, -10)]
    """
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.solving import solve_table
    from evlogic.simulation.table import deal, homed

    loaded_board = board_of(board, "BOARD")
    loaded_rules = _rules(rules, moves)
    chosen = _listed(homes, "--homes")
    if players is not None:
        _whole(players, "--players", 2, 10_000)
    _order(order)
    _whole(seed, "--seed", -(2**63), 2**63 - 1)
    count = players if players is not None else len(chosen) if chosen else SOLVE_PLAYERS
    if count < 2:
        raise InputError("--homes", f"{count} home: perfect play needs at least two players")
    seats = load_agents("greedy", count)  # (solve plays no seat's agent)
    if chosen:
        _check_homes(loaded_board.states, chosen, count)
        table = homed(loaded_board, loaded_rules, chosen, seats, order, seed)
    else:
        table = deal(loaded_board, loaded_rules, seats, order, seed)
    return solve_table(table, _listed(agents, "--agents"))


def _listed(text: str | Sequence[str] | None, option: str) -> tuple[str, ...]:
    """A comma-separated option (or a list of text): its items, none empty."""
    if text is None:
        return ()
    if isinstance(text, str):
        items = [part.strip() for part in text.split(",")]
    elif isinstance(text, (list, tuple)) and all(isinstance(item, str) for item in text):
        items = list(text)
    else:
        raise InputError(option, f"must be comma-separated text or a list of text, not {text!r}")
    if any(not item for item in items):
        raise InputError(option, f"an empty item in {quote(str(text))}")
    return tuple(items)


def _whole(value: object, option: str, low: int, high: int | None = None) -> None:
    """A library argument the command line reads as a whole number."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(option, f"must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"at least {low}" if high is None else f"between {low} and {high}"
        raise InputError(option, f"must be {bounds}, not {value}")


def _order(order: object) -> None:
    if order not in ("snake", "round-robin"):
        raise InputError("--order", f"must be snake or round-robin, not {order!r}")


def _check_homes(states: Mapping[str, object], homes: tuple[str, ...], players: int) -> None:
    from evlogic.errors import closest

    if len(homes) != players:
        raise InputError("--homes", f"{len(homes)} homes for {players} players: one a seat")
    for home in homes:
        if home not in states:
            raise InputError("--homes", f"no state {quote(home)}{closest(home, list(states))}")
        if homes.count(home) > 1:
            raise InputError("--homes", f"{quote(home)} is two seats' home")


def ladder(
    *,
    agents: str | Sequence[str] = LADDER_AGENTS,
    board: BoardInput = "usa",
    rules: RulesInput | None = None,
    moves: str | None = None,
    players: int = 2,
    order: Order = "snake",
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    dask: str | None = None,
    on_game: Callable[[str], None] | None = None,
    progress: Callable[[int], object] | None = None,
) -> LadderReport:
    """A skill ladder (docs/play.md, "The skill ladder"): each agent against
    the one before it, ``games`` deals a step, each deal played in every
    seating of the two (two players: the stronger in seat 1, then in seat
    2; N players: the stronger in one seat and the weaker in the others,
    rotated), so that seat and deal cancel.

    ``agents``: weakest first, comma-separated or a list (default
    random, face, greedy, lookahead).
    ``board``, ``rules``, ``moves``, ``order``, ``seed``, ``jobs``,
    ``dask``, ``on_game``, ``progress``: as for :func:`balance`.
    ``players``: players a game (default 2).
    ``games``: deals a step (default 100): a step plays ``games`` times
    ``players`` games.

    Returns a :class:`evlogic.reports.ladder.LadderReport`: ``steps``
    (each the stronger's win rate with its 95% interval and whether it is
    significant), ``depth`` (significant steps in a row from the bottom),
    ``ratings`` (Bradley-Terry, Elo scale), ``to_json()`` and
    ``to_text()``.  The same however the games ran.

    >>> lakeland = "examples/lakeland/board.yaml"
    >>> report = evlogic.ladder(agents="random,greedy", board=lakeland, games=20)
    >>> [(step.stronger, step.significant) for step in report.steps]
    [('greedy', True)]
    """
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.ladder import LadderSetup, ladder_report, play_ladder
    from evlogic.simulation.table import deal

    names = _listed(agents, "--agents")
    if len(names) < 2:
        raise InputError("--agents", "a ladder needs at least two agents, weakest first")
    _whole(players, "--players", 2, 10_000)
    _whole(games, "--games", 1, 1_000_000)
    _whole(seed, "--seed", -(2**63), 2**63 - 1)
    _whole(jobs, "--jobs", 1, 256)
    _order(order)
    loaded_board = board_of(board)
    loaded_rules = _rules(rules, moves)
    ends = loaded_board.game_end if loaded_rules.game_end is None else loaded_rules.game_end
    if players >= ends:
        raise InputError(
            "--players",
            f"{players} players hold {players} homes, and the game ends when {ends} states "
            "are won: no move would be made",
        )
    for name in names:
        deal(loaded_board, loaded_rules, load_agents(name, players), order, seed)
    setup = LadderSetup(loaded_board, loaded_rules, names, players, order, games, seed)

    def recorded(record: Record) -> None:
        if on_game is not None:
            on_game(json.dumps(record, ensure_ascii=False))

    tallies = play_ladder(
        setup,
        jobs=jobs if dask is None else None,
        dask_address=dask,
        progress=progress,
        on_game=recorded if on_game is not None else None,
    )
    return ladder_report(setup, tallies)
