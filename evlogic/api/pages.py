"""The library's page command: rulebook, the rulebook's Scoring & Regions
page with every number and diagram from the solver."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from evlogic.api.inputs import BoardInput, PathText, RulesInput, board_of, rule_set
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet, load_rule_set
from evlogic.reports.render import json_text


@dataclass(frozen=True)
class RulebookResult:
    """The rulebook page: ``html`` is what ``evlogic rulebook`` writes."""

    html: str
    rules: str  # the rule set's name
    against: str | None  # the rule set it marks differences from

    def to_json(self) -> str:
        """The page as data: ``{"rules": ..., "against": ..., "html": ...}``."""
        return json_text({"rules": self.rules, "against": self.against, "html": self.html})

    def pdf(self) -> bytes:
        """The page printed to PDF (A4) through chromium (``--pdf``)."""
        from evlogic.pages.pdf import print_pdf

        return print_pdf(self.html)


@dataclass(frozen=True)
class RulebookInputs:
    """What a rulebook page is made of, read and checked."""

    rules: RuleSet
    against: RuleSet | None
    board: Board
    template: Path


def rulebook_inputs(
    *,
    rules: RulesInput = "standard",
    against: RulesInput | None = None,
    board: BoardInput | None = None,
    template: PathText | None = None,
) -> RulebookInputs:
    """:func:`rulebook`'s inputs read (rules, against, board, template)."""
    from evlogic.pages.rulebook import TEMPLATE

    loaded = rule_set(rules) or load_rule_set("standard")
    against_loaded = rule_set(against) if against else None
    page_board = board_of(board if board is not None else "usa")
    path = Path(template) if template else TEMPLATE
    if not path.is_file():
        raise InputError("--template", f"no file {os.fspath(template or path)!r}")
    return RulebookInputs(loaded, against_loaded, page_board, path)


def rulebook_of(inputs: RulebookInputs) -> RulebookResult:
    """:func:`rulebook` on read inputs."""
    from evlogic.pages.rulebook import rulebook_page

    def end(of: RuleSet | None) -> int:
        game_end = getattr(of, "game_end", None)
        return inputs.board.game_end if game_end is None else int(game_end)

    against = inputs.against
    page = rulebook_page(
        inputs.rules, end(inputs.rules), inputs.template, against, end(against) if against else 0
    )
    return RulebookResult(page, inputs.rules.name, None if against is None else against.name)


def rulebook(
    *,
    rules: RulesInput = "standard",
    against: RulesInput | None = None,
    board: BoardInput | None = None,
    template: PathText | None = None,
) -> RulebookResult:
    """The rulebook's Scoring & Regions page for a rule set, as HTML: the
    scoring table, the tier table, the region rule with its worked steps,
    the siege rule with its worked example and the full scoring example,
    every number and diagram from the solver (the scenarios in
    examples/rulebook/).

    ``rules``: a bundled name, a rule set file or a loaded
    :class:`evlogic.RuleSet`.  ``against``: another rule set; every number
    and diagram that differs under it is marked (a ``<mark>`` whose title
    gives its value).  ``board``: the board the page's game end is read
    from (default usa).  ``template``: a Jinja2 template of your own,
    rendered in a sandbox (default: evlogic's, docs/rulebook.md).

    Returns a :class:`RulebookResult` (``.html``; ``.pdf()``).  A
    placeholder the solver cannot fill raises :class:`evlogic.InputError`
    naming the template's line.

    >>> "<html" in evlogic.rulebook(rules="gentle-siege", against="standard").html
    True
    """
    return rulebook_of(
        rulebook_inputs(rules=rules, against=against, board=board, template=template)
    )
