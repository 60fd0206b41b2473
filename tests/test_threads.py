"""The Python API from many threads at once: the same answers as from one;
and work given up on at its deadline stops."""

from __future__ import annotations

import dataclasses
import random
import threading
import time

import clingo
import pytest

import evlogic
from evlogic.asp.solver import ground
from evlogic.limits import OutOfTime, call_before, watch
from evlogic.loading.boards import Board
from evlogic.loading.games import Game, Player
from evlogic.resources import bundled_boards

THREADS = 8

#: Rounds of THREADS fresh threads, each scoring small positions on two
#: boards of the round's own (other game ends), so that nothing a round
#: parses is cached when its threads start.  When threads shared parsed
#: trees, 4 in 5 runs of this many rounds met "invalid ast: term expected"
#: or a crash.
ROUNDS = 100

#: Boards a round, and the game ends they are given in turn.
BOARDS = 2
GAME_ENDS = range(20, 52)


def deal(board: Board, players: int, won: int, seed: int) -> Game:
    """``won`` states (homes included) dealt at random to ``players`` players."""
    rng = random.Random(seed)
    taken = rng.sample(sorted(board.states), won)
    homes, rest = taken[:players], taken[players:]
    owned: list[list[str]] = [[] for _ in range(players)]
    for state in rest:
        owned[rng.randrange(players)].append(state)
    players_ = (Player(f"P{i + 1}", homes[i], tuple(owned[i])) for i in range(players))
    return Game(board, tuple(players_), "<test>")


def score_at_once(games: list[Game]) -> dict[tuple[int, int], evlogic.ScoreReport]:
    """Each game scored by every one of THREADS fresh threads, all at once:
    (thread, game number) -> report; the first failure is raised."""
    found: dict[tuple[int, int], evlogic.ScoreReport] = {}
    failures: list[BaseException] = []

    def score(thread: int) -> None:
        try:
            for k in range(len(games)):
                number = (thread + k) % len(games)
                found[thread, number] = evlogic.score_game(games[number])
        except BaseException as error:  # handed to the test's thread
            failures.append(error)

    threads = [threading.Thread(target=score, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return found


@pytest.mark.exhaustive
def test_scoring_from_eight_threads_gives_what_one_thread_gives():
    usa = evlogic.load_board(bundled_boards()["usa"])
    for round_ in range(ROUNDS):
        numbers = [round_ * BOARDS + k for k in range(BOARDS)]
        games = [
            deal(
                dataclasses.replace(usa, game_end=GAME_ENDS[number % len(GAME_ENDS)]),
                players=2,
                won=4,
                seed=number,
            )
            for number in numbers
        ]
        found = score_at_once(games)
        alone = [evlogic.score_game(game) for game in games]
        assert found == {key: alone[key[1]] for key in found}, f"round {round_}"


#: A program whose grounding takes a while (hundreds of milliseconds).
SLOW = "n(1..300). p(X, Y, Z) :- n(X), n(Y), n(Z), X + Y = Z."


def test_work_given_up_on_stops_after_the_grounding_under_way(tmp_path):
    slow = tmp_path / "slow.lp"
    slow.write_text(SLOW)
    steps: list[str] = []
    workers: list[threading.Thread] = []

    def work() -> None:
        workers.append(threading.current_thread())
        ground("", [slow])  # longer than the deadline
        steps.append("after the first grounding")
        ground("", [slow])
        steps.append("after the second grounding")

    with pytest.raises(OutOfTime):
        call_before(time.monotonic() + 0.01, work)
    # Not threading.enumerate(): on a busy machine the worker may start late,
    # or have ended already by the time this thread runs again.
    started = time.monotonic()
    while not workers and time.monotonic() - started < 120:
        time.sleep(0.01)
    (worker,) = workers
    worker.join(120)  # it ends by itself: the grounding under way, then no more
    assert not worker.is_alive()
    assert steps == []


def test_a_solve_of_work_given_up_on_is_interrupted():
    control = clingo.Control(["--models=0"])
    control.add("base", [], "n(1..60). { p(X) : n(X) }.")  # 2^60 answers
    control.ground([("base", [])])
    answers: list[int] = []
    workers: list[threading.Thread] = []

    def work() -> None:
        workers.append(threading.current_thread())
        watch(control)  # interrupts at once if the work was given up on already
        with control.solve(yield_=True) as handle:
            answers.extend(1 for _ in handle)

    with pytest.raises(OutOfTime):
        call_before(time.monotonic() + 0.2, work)
    # The worker may run late on a busy machine, or be done already: wait for
    # it to have started, whenever that is, then for it to end.
    started = time.monotonic()
    while not workers and time.monotonic() - started < 120:
        time.sleep(0.01)
    (worker,) = workers
    worker.join(120)
    assert not worker.is_alive()  # the solve was interrupted, not left to count 2^60 answers
