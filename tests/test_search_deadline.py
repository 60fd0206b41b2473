"""An answer is never lost: at its time limit check and diff print their
answer so far, in their own report format (text, or JSON that their schema
accepts), whatever the searches were doing: solving, grounding, or stuck
where no search looks at the clock (the command line's watchdog).

The deadline is made to fall where each test wants it by hooks, not by
racing a clock: the solve is made to look unfinished past a deadline moved
to now, or a step is held until the work is given up on."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from test_schemas import assert_valid

from conftest import board_dict
from evlogic.asp.program import read_program
from evlogic.asp.search import Answer, SearchRequest, running, search
from evlogic.asp.search.running import RunningSearch
from evlogic.limits import checkpoint
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set

#: A board where two rule sets differ (swing state C counts 3 times, not 2).
EDGES = [("A", "B"), ("B", "C"), ("C", "D"), ("D", "A")]

#: A property with counterexamples in every position.
ALWAYS = "violation :- net_bonus(0, 0, B), B >= 0.\n"


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board_dict(EDGES, swing={"C"})))
    (tmp_path / "plus.yaml").write_text("name: plus\nextends: standard\nswing_multiplier: 3\n")
    (tmp_path / "owned.lp").write_text(ALWAYS)
    return tmp_path


class _StillSolving:
    """A solve handle that has not answered yet at any wait: what a solve
    that outlasts its deadline looks like to the search."""

    def __init__(self, handle) -> None:
        self.handle = handle

    def wait(self, timeout: float | None = None) -> bool:
        return False

    def cancel(self) -> None:
        self.handle.cancel()


def deadline_during_solve(
    monkeypatch: pytest.MonkeyPatch, when: Callable[[RunningSearch], bool]
) -> list[str]:
    """From the first wait for a solve of a search for which ``when`` says
    so, the search's deadline is now and the solve has not answered: the
    search must stop it and answer with what it has.  Returns the labels
    of the searches stopped so."""
    stopped: list[str] = []
    wait = RunningSearch.wait

    def hooked(self: RunningSearch, handle, halt):
        if self.progress.label in stopped or when(self):
            if self.progress.label not in stopped:
                stopped.append(self.progress.label)
            self.deadline = min(self.deadline, time.monotonic())
            return wait(self, _StillSolving(handle), halt)  # type: ignore[arg-type]
        return wait(self, handle, halt)

    monkeypatch.setattr(RunningSearch, "wait", hooked)
    return stopped


def held(work: Callable) -> Callable:
    """``work``, then held until the work it runs for is given up on: a
    step that cannot look at the clock (a grounding) outlasting it."""

    def hold(*args, **kwargs):
        value = work(*args, **kwargs)
        while True:
            checkpoint()
            time.sleep(0.01)
        return value

    return hold


def found_first(search: RunningSearch) -> bool:
    return search.progress.best is not None


def at_once(search: RunningSearch) -> bool:
    return True


# --- check ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("when", "result", "code"),
    [(at_once, "unknown", 3), (found_first, "counterexample", 1)],
    ids=["before-any-counterexample", "after-a-counterexample"],
)
def test_check_stopped_in_a_solve_answers_what_it_found(
    cli, place, monkeypatch, when, result, code
):
    stopped = deadline_during_solve(monkeypatch, when)
    answer = cli("check", "owned.lp", "--board", "board.yaml", "--format", "json")
    assert answer.code == code, answer.err
    assert stopped == ["check owned"]
    assert answer.err == ""
    document = answer.json()
    assert_valid("check", document)
    assert document["result"] == result
    assert (document["counterexample"] is not None) == (result == "counterexample")
    stopped.clear()
    text = cli("check", "owned.lp", "--board", "board.yaml")
    assert text.code == code and text.err == ""
    if result == "unknown":
        assert text.out.startswith("owned: unknown on test board with 2 players")
    else:
        game = yaml.safe_load(text.out)  # the counterexample, a game file
        assert game["board"] == "board.yaml" and len(game["players"]) == 2


def test_check_stopped_in_its_grounding_answers_unknown(cli, place, monkeypatch):
    monkeypatch.setattr(running, "ground", held(running.ground))
    answer = cli(
        "check", "owned.lp", "--board", "board.yaml", "--timeout", "0.3", "--format", "json"
    )
    assert answer.code == 3, answer.err
    assert answer.err == ""
    document = answer.json()
    assert_valid("check", document)
    assert (document["result"], document["counterexample"]) == ("unknown", None)


# --- diff -------------------------------------------------------------------------


def total_after_a_difference(search: RunningSearch) -> bool:
    """The total search once it has found a difference; the winner search at once."""
    return search.progress.label == "diff winner" or search.progress.best is not None


DIFF = ("diff", "--board", "board.yaml", "--rules", "standard", "--rules", "plus.yaml")


def test_diff_stopped_in_its_solves_answers_the_difference_found(cli, place, monkeypatch):
    stopped = deadline_during_solve(monkeypatch, total_after_a_difference)
    answer = cli(*DIFF, "--format", "json")
    assert sorted(stopped) == ["diff total", "diff winner"]
    assert answer.code == 3, answer.err  # the time limit came first; the difference is shown
    assert answer.err == ""
    document = answer.json()
    assert_valid("diff", document)
    total, winner = document["total_diff"], document["winner_diff"]
    assert total["result"] == "differs" and total["counterexample"]["board"] == "board.yaml"
    assert (winner["result"], winner["counterexample"]) == ("unknown", None)

    stopped.clear()
    text = cli(*DIFF)
    assert text.code == 3 and text.err == ""
    assert text.out.startswith("standard vs plus.yaml on test board with 2 players\n")
    assert "Position with a different total" in text.out
    assert "A different winner: unknown, no answer within" in text.out


def test_diff_stopped_before_any_difference_answers_unknown(cli, place, monkeypatch):
    deadline_during_solve(monkeypatch, at_once)
    answer = cli(*DIFF, "--format", "json")
    assert answer.code == 3, answer.err
    document = answer.json()
    assert_valid("diff", document)
    assert [document[kind]["result"] for kind in ("total_diff", "winner_diff")] == [
        "unknown",
        "unknown",
    ]


def test_diff_stopped_in_its_grounding_answers_unknown(cli, place, monkeypatch):
    monkeypatch.setattr(running, "ground", held(running.ground))
    answer = cli(*DIFF, "--timeout", "0.3", "--format", "json")
    assert answer.code == 3, answer.err
    assert answer.err == ""
    document = answer.json()
    assert_valid("diff", document)
    assert document["total_diff"]["result"] == document["winner_diff"]["result"] == "unknown"


# --- the watchdog: work that cannot look at the clock -----------------------------


@pytest.mark.parametrize("output", ["text", "json"])
def test_at_the_watchdog_diff_still_prints_its_answer_so_far(cli, place, monkeypatch, output):
    """The command held past its deadline and the watchdog's grace before
    its searches start: the watchdog prints the answer so far in the
    report's format, never only its own line."""
    from evlogic.reports import diff as diff_module

    monkeypatch.setattr(diff_module, "diff", held(lambda *args, **kwargs: None))
    answer = cli(*DIFF, "--timeout", "0.3", "--format", output)
    assert answer.code == 3 and answer.err == ""
    if output == "json":
        document = answer.json()
        assert_valid("diff", document)
        assert [document[kind]["result"] for kind in ("total_diff", "winner_diff")] == [
            "unknown",
            "unknown",
        ]
    else:
        assert answer.out.startswith("standard vs plus.yaml on test board with 2 players\n")
        assert answer.out.count("unknown, no answer within") == 2


def test_at_the_watchdog_diff_prints_what_its_searches_answered(cli, place, monkeypatch):
    """Held after its searches answered (its report not yet printed): the
    watchdog prints their answers, whatever they were."""
    from evlogic.reports import diff as diff_module

    real, answered = diff_module.diff, []
    monkeypatch.setattr(
        diff_module, "diff", held(lambda *args, **kwargs: answered.append(real(*args, **kwargs)))
    )
    answer = cli(*DIFF, "--timeout", "0.3", "--format", "json")
    [result] = answered
    assert answer.code == result.exit_status() and answer.err == ""
    document = answer.json()
    assert_valid("diff", document)
    for kind in ("total_diff", "winner_diff"):
        printed, search = document[kind], result.to_dict()[kind]
        assert {**printed, "seconds": 0} == {**search, "seconds": 0}


def test_at_the_watchdog_check_still_prints_its_answer_so_far(cli, place, monkeypatch):
    from evlogic.reports import check as check_module

    monkeypatch.setattr(check_module, "check", held(lambda *args, **kwargs: None))
    answer = cli("check", "owned.lp", "--board", "board.yaml", "--timeout", "0.3")
    assert answer.code == 3 and answer.err == ""
    assert answer.out.startswith("owned: unknown on test board with 2 players (standard rules)")


# --- the request's stop -----------------------------------------------------------


def _request(place: Path, text: str, stop: Callable[[], bool]) -> SearchRequest:
    (place / "prop.lp").write_text(text)
    return SearchRequest(
        load_board(place / "board.yaml"),
        load_rule_set("standard").program(),
        read_program([place / "prop.lp"]),
        2,
        stop=stop,
        progress=None,
    )


def test_a_search_stopped_at_once_answers_unknown(place):
    outcome = search(_request(place, ALWAYS, lambda: True))
    assert outcome.result is Answer.UNKNOWN and outcome.found is None


def test_the_proof_that_some_position_exists_heeds_the_stop(place, monkeypatch):
    """Once the solver refuted every position, "holds" still waits for the
    proof that some position exists (RunningSearch.any_position): a stop
    then answers unknown, as at the deadline, never holds."""
    refuted: list[bool] = []
    proved_holds = RunningSearch.proved_holds

    def hooked(self: RunningSearch):
        refuted.append(True)
        return proved_holds(self)

    monkeypatch.setattr(RunningSearch, "proved_holds", hooked)
    never_broken = "violation :- net_bonus(0, 0, B), B < 0, B > 0.\n"
    assert search(_request(place, never_broken, lambda: False)).result is Answer.HOLDS
    refuted.clear()
    outcome = search(_request(place, never_broken, lambda: bool(refuted)))
    assert refuted and outcome.result is Answer.UNKNOWN
