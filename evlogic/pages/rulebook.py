"""The rulebook's Scoring & Regions page for a rule set, every number and
every diagram from the solver.

A template (Jinja2, autoescaped; evlogic/templates/rulebook.html.j2 ships
with evlogic, a designer may pass their own) writes the page's words; what
it prints comes from here: the rule set's numbers (the facts the rules
read) and the rulebook's scenarios (``examples/rulebook/*.yaml``, or files
the template names) scored and explained by the rules, drawn by
``evlogic diagram``.  Nothing is scored in this module or in the template.

Every figure is a :class:`Figure`: a value and, with ``--against R2``, R2's
value for the same place on the page; where they differ, the figure prints
inside ``<mark title="R2: ...">``, diagrams too, so a designer sees which
sentences a rule change touches.  A placeholder the engine cannot fill (an
unknown scenario or player, a figure no report has) is an InputError naming
the template's line, never a blank.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import jinja2
from markupsafe import Markup, escape

from evlogic.errors import quote
from evlogic.loading.boards import looks_like_board_path
from evlogic.loading.games import Game, game_from_document
from evlogic.loading.rulesets import RuleSet
from evlogic.loading.yamlfile import Field, read_yaml
from evlogic.pages.sandbox import FolderLoader, PageEnvironment, Refused, beside, render
from evlogic.reports.explain import Explanation, explain_game
from evlogic.resources import display_path, examples_dir

#: The template that ships with evlogic.
TEMPLATE = Path(__file__).resolve().parent.parent / "templates" / "rulebook.html.j2"


# --- figures -----------------------------------------------------------------------------


def _minus(number: int) -> str:
    return f"\u2212{-number}" if number < 0 else str(number)


FORMATS: dict[str, Callable[[Any], str]] = {
    "plain": lambda value: _minus(value) if isinstance(value, int) else str(value),
    "signed": lambda value: f"+{value}" if value > 0 else _minus(value),
    "negated": lambda value: _minus(-value) if value else "0",
    "list": lambda value: " + ".join(value),
    "words": lambda value: _and(value),
    "ordinal": lambda value: _ordinal(value),
}


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class Figure:
    """A number (or a list of ids, or a word) on the page, with the value
    of the rule set compared against (``other``; ``against`` names it)."""

    value: Any
    other: Any = None
    against: str | None = None
    form: str = "plain"
    names: Mapping[str, str] | None = None  # state id -> name, for .named

    def __post_init__(self) -> None:
        # plain values: a list is handed to a template as a tuple
        for name in ("value", "other"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))

    def _as(self, form: str) -> Figure:
        return Figure(self.value, self.other, self.against, form, self.names)

    @property
    def named(self) -> Figure:
        """States by name: ``Kentucky``, ``Indiana and West Virginia``."""
        return self._as("named")

    @property
    def signed(self) -> Figure:
        """``+25``, ``−10``, ``0``."""
        return self._as("signed")

    @property
    def negated(self) -> Figure:
        """A penalty as it is taken off: ``−20``."""
        return self._as("negated")

    @property
    def joined(self) -> Figure:
        """States as ``KY + IN + WV``."""
        return self._as("list")

    @property
    def words(self) -> Figure:
        """States as ``VA and MO``."""
        return self._as("words")

    @property
    def ordinal(self) -> Figure:
        """``36th``."""
        return self._as("ordinal")

    @property
    def differs(self) -> bool:
        return self.against is not None and self.other != self.value

    def _text(self, value: Any) -> str:
        if self.form == "named":
            names = self.names or {}
            if isinstance(value, (list, tuple)):
                return _and([names.get(item, item) for item in value])
            return names.get(value, str(value))
        return FORMATS[self.form](value)

    def __str__(self) -> str:
        if self.value is None:
            raise LookupError("nothing fills this figure")
        return self._text(self.value)

    def __html__(self) -> str:
        text = escape(str(self) or "(none)" if self.differs else str(self))
        if not self.differs:
            return str(text)
        theirs = (self._text(self.other) if self.other is not None else "") or "none"
        return str(Markup('<mark title="{}: {}">{}</mark>').format(self.against, theirs, text))

    # Templates compare figures with numbers (``{% if rules.links > 1 %}``).
    def __eq__(self, other: object) -> bool:
        return bool(self.value == (other.value if isinstance(other, Figure) else other))

    def __hash__(self) -> int:
        return hash(str(self.value))

    def __lt__(self, other: object) -> bool:
        return bool(self.value < (other.value if isinstance(other, Figure) else other))

    def __gt__(self, other: object) -> bool:
        return bool(self.value > (other.value if isinstance(other, Figure) else other))

    def __bool__(self) -> bool:
        return bool(self.value)

    def __len__(self) -> int:
        return len(self.value)

    def __iter__(self) -> Iterator[Figure]:
        """A list's items, each a figure (unmarked: the list is marked whole)."""
        return iter(Figure(item, names=self.names) for item in self.value)


def _figure(mine: Any, theirs: Any, against: str | None) -> Figure:
    return Figure(mine, theirs, against)


# --- the rule set ------------------------------------------------------------------------


@dataclass(frozen=True)
class RulesView:
    """The rule set's numbers, as the rules read them (RuleSet.program)."""

    name: Figure
    tiers: tuple[tuple[Figure, Figure], ...]  # (region size, bonus), by size
    largest_tier: Figure
    siege_penalty: Figure
    links: Figure
    swing_multiplier: Figure
    home_swing: Figure
    union: Figure  # every core's region counts
    game_end: Figure


def rules_view(rules: RuleSet, game_end: int, other: RuleSet | None, other_end: int) -> RulesView:
    against = other.name if other is not None else None

    def pair(mine: Any, theirs: Any) -> Figure:
        return _figure(mine, theirs if other is not None else None, against)

    theirs = dict(other.tiers) if other is not None else {}
    tiers = tuple((Figure(size), pair(bonus, theirs.get(size))) for size, bonus in rules.tiers)
    largest = max(size for size, _ in rules.tiers)
    return RulesView(
        name=Figure(rules.name),
        tiers=tiers,
        largest_tier=pair(largest, max(theirs) if theirs else None),
        siege_penalty=pair(rules.siege_penalty, other and other.siege_penalty),
        links=pair(rules.links_needed, other and other.links_needed),
        swing_multiplier=pair(rules.swing_multiplier, other and other.swing_multiplier),
        home_swing=pair(rules.home_swing, other and other.home_swing),
        union=pair(rules.region == "union", other is not None and other.region == "union"),
        game_end=pair(game_end, other_end if other is not None else None),
    )


# --- scenarios ---------------------------------------------------------------------------


class PlayerView:
    """One player of a scenario: the figures ``explain`` gives, each a
    :class:`Figure`."""

    def __init__(
        self,
        mine: Explanation,
        theirs: Explanation | None,
        against: str | None,
        names: Mapping[str, str],
    ) -> None:
        self._mine, self._theirs, self._against, self._names = mine, theirs, against, names

    def _pair(self, read: Callable[[Explanation], Any]) -> Figure:
        other = read(self._theirs) if self._theirs is not None else None
        return Figure(read(self._mine), other, self._against, names=self._names)

    def __getattr__(self, name: str) -> Figure:
        if name.startswith("_"):
            raise AttributeError(name)
        reader = _PLAYER_FIGURES.get(name)
        if reader is None:
            raise AttributeError(name)
        return self._pair(reader)

    def _state(self, state: object) -> str:
        """``state``, a state of the board (else a LookupError)."""
        if isinstance(state, Figure):
            state = state.value
        if not isinstance(state, str) or state not in self._names:
            raise LookupError(f"the scenario's board has no state {quote(state)}")
        return state

    def face_of(self, state: str) -> Figure:
        """What ``state`` scores for this player (face EV, times the
        multiplier when swing)."""
        state = self._state(state)

        def read(explanation: Explanation) -> int:
            if state not in explanation.worth:
                player = quote(explanation.player)
                raise LookupError(f"no face value of {quote(state)} for {player}")
            return explanation.worth[state][0]

        return self._pair(read)

    def links_of(self, state: str) -> Figure:
        """The region states ``state`` touched when it joined, or touches
        when it is left out."""
        state = self._state(state)

        def read(explanation: Explanation) -> list[str]:
            for join in explanation.joins:
                if join.state == state:
                    return sorted(join.links)
            for excluded in explanation.excluded:
                if excluded.state == state:
                    return sorted(excluded.links)
            return []

        return self._pair(read)

    def joins(self, state: str) -> Figure:
        """Whether ``state`` is in the region."""
        state = self._state(state)
        return self._pair(lambda e: state in e.score.region)

    def siege_cost(self, state: str) -> Figure:
        """What ``state``, an opponent's neighbour of the home, takes off
        the bonus (``explain``'s siege line for it; 0 when it is none)."""
        state = self._state(state)
        return self._pair(lambda e: next((s.penalty for s in e.siege if s.state == state), 0))


def _siege_cut(explanation: Explanation) -> int:
    """How much of the bonus the siege takes, in percent (rounded)."""
    bonus = explanation.score.region_bonus
    if bonus == 0:
        return 0
    return round(100 * (bonus - explanation.score.net_bonus) / bonus)


_PLAYER_FIGURES: dict[str, Callable[[Explanation], Any]] = {
    "name": lambda e: e.player,
    "home": lambda e: e.score.home,
    "states": lambda e: [s for s in e.score.states if s != e.score.home],
    "owned": lambda e: [e.score.home, *(s for s in e.score.states if s != e.score.home)],
    "face_ev": lambda e: e.score.face_ev,
    # face value a rule set's program gives from sources that are not states
    "face_sources": lambda e: [f"{s.source} {s.value:+d}" for s in e.face_sources],
    "core": lambda e: list(e.score.core),
    "core_pair": lambda e: list(e.score.core[1:]),
    "region": lambda e: list(e.score.region),
    "region_size": lambda e: len(e.score.region),
    "region_bonus": lambda e: e.score.region_bonus,
    "siege": lambda e: list(e.score.siege),
    "siege_count": lambda e: len(e.score.siege),
    "siege_penalty": lambda e: e.score.siege_penalty,
    "net_bonus": lambda e: e.score.net_bonus,
    "siege_cut_percent": _siege_cut,
    "total": lambda e: e.score.total,
    "excluded": lambda e: [x.state for x in e.excluded],
    "joined": lambda e: [j.state for j in e.joins],
}


class ScenarioView:
    """A scenario (a game file) under the rule set: its players by name, its
    winners and its diagrams."""

    def __init__(self, name: str, game: Game, other: Game | None, against: str | None) -> None:
        self.name = name
        self._game, self._other, self._against = game, other, against
        self._explained: dict[str, PlayerView] = {}
        self._drawn: dict[tuple[int, str, bool, bool], str] = {}

    def player(self, name: str | None = None) -> PlayerView:
        """A player by name (default: the first)."""
        names = [player.name for player in self._game.players]
        name = names[0] if name is None else name
        if name not in names:
            raise LookupError(f"scenario {self.name!r} has no player {name!r}")
        if name not in self._explained:
            mine = explain_game(self._game, name)
            theirs = explain_game(self._other, name) if self._other is not None else None
            self._explained[name] = PlayerView(mine, theirs, self._against, self._names())
        return self._explained[name]

    @property
    def you(self) -> PlayerView:
        return self.player()

    def _names(self) -> Mapping[str, str]:
        return MappingProxyType({s.id: s.name for s in self._game.board.states.values()})

    def name_of(self, state: str) -> Figure:
        """A state's name on the board."""
        if state not in self._game.board.states:
            raise LookupError(f"scenario {self.name!r}'s board has no state {state!r}")
        return Figure(state, names=self._names()).named

    def neighbours(self, state: str) -> Figure:
        """The board's neighbours of ``state``, sorted (the board's data)."""
        states = self._game.board.states
        if state not in states:
            raise LookupError(f"scenario {self.name!r}'s board has no state {state!r}")
        return Figure(sorted(states[state].neighbors), names=self._names())

    def _player_name(self, name: str | None) -> str:
        names = [player.name for player in self._game.players]
        name = names[0] if name is None else name
        if name not in names:
            raise LookupError(f"scenario {self.name!r} has no player {name!r}")
        return name

    def _drawing(self, game: Game, name: str, focus: bool, legend: bool) -> str:
        """The diagram, drawn once, from the explanation the prose reads."""
        from evlogic.drawing.diagram import render_svg

        key = (id(game), name, focus, legend)
        if key not in self._drawn:
            player = self.player(name)
            explained = player._mine if game is self._game else player._theirs
            assert explained is not None
            self._drawn[key] = render_svg(explained, game.board, focus=focus, legend=legend)
        return self._drawn[key]

    def diagram(self, name: str | None = None, focus: bool = True, legend: bool = True) -> Markup:
        """The player's diagram, as ``evlogic diagram --focus`` draws it
        (inline SVG); marked whole when the rule set compared against draws
        it otherwise.  ``legend=False``: the map alone, for a page with one
        legend for all its diagrams (:func:`legend_entries`)."""
        name = self._player_name(name)
        prefix = "d" + hashlib.sha1(f"{self.name}\0{name}".encode()).hexdigest()[:8] + "-"
        mine = _svg_body(self._drawing(self._game, name, focus, legend), prefix)
        if self._other is None:
            return Markup(mine)
        theirs = _svg_body(self._drawing(self._other, name, focus, legend), prefix)
        if theirs == mine:
            return Markup(mine)
        title = f"{self._against} draws this diagram otherwise"
        return Markup('<mark class="diagram" title="{}">').format(title) + Markup(mine + "</mark>")

    def marks(self, name: str | None = None, focus: bool = True) -> list[str]:
        """What the player's diagram draws (evlogic.drawing.diagram.MARKS):
        the marks a legend for it names."""
        from evlogic.drawing.diagram import marks_of

        return marks_of(self._drawing(self._game, self._player_name(name), focus, False))

    def _explanation(self, name: str | None = None) -> Explanation:
        """``explain``'s answer for the player (for the page's legend)."""
        return self.player(name)._mine


def _svg_body(svg: str, prefix: str) -> str:
    """The SVG element alone (no XML declaration), for inline use, its
    pattern ids made the diagram's own (a page holds several)."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    for pattern in ("hatch", "dots"):
        body = body.replace(f'id="{pattern}"', f'id="{prefix}{pattern}"')
        body = body.replace(f"url(#{pattern})", f"url(#{prefix}{pattern})")
    return body


class Scenarios:
    """``scenario(NAME)`` in a template: a bundled rulebook scenario by name
    (``diagram-4-siege``), or a game file beside the template (its board
    bundled or beside the template too)."""

    def __init__(self, rules: RuleSet, other: RuleSet | None, folder: Path) -> None:
        self._rules, self._other, self._folder = rules, other, folder
        self._read: dict[str, ScenarioView] = {}

    def __call__(self, name: str) -> ScenarioView:
        if not isinstance(name, str):
            raise TypeError(f"scenario(NAME) takes a name, not {type(name).__name__}")
        if name not in self._read:
            path, bundled = self._path(name)
            top = read_yaml(path, display_path(path))
            if not bundled:
                self._board_beside(top, path.parent)
            game = game_from_document(top, path.parent, self._rules)
            other = game_from_document(top, path.parent, self._other) if self._other else None
            against = self._other.name if self._other is not None else None
            self._read[name] = ScenarioView(name, game, other, against)
        return self._read[name]

    def _path(self, name: str) -> tuple[Path, bool]:
        if "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml")):
            bundled = examples_dir() / "rulebook" / f"{name}.yaml"
            if bundled.is_file():
                return bundled, True
            known = ", ".join(sorted(p.stem for p in (examples_dir() / "rulebook").glob("*.yaml")))
            raise LookupError(
                f"no scenario {quote(name)} (bundled: {known}; or a game file's path)"
            )
        return beside(self._folder, name, "scenario file"), False

    def _board_beside(self, top: Field, game_folder: Path) -> None:
        """A scenario file's board: bundled, or a file beside the template."""
        board = top.value.get("board") if isinstance(top.value, Mapping) else None
        if not isinstance(board, str):
            return  # (the game's loader says what is wrong)
        if looks_like_board_path(board):
            path = Path(board).expanduser()
            folder = self._folder.resolve()
            try:
                inside = (game_folder / path).resolve().is_relative_to(folder)
            except (OSError, RuntimeError):
                inside = False
            if path.is_absolute() or not inside:
                raise Refused(f"scenario board {quote(board)} is not beside the template")


# --- the legend --------------------------------------------------------------------------


@dataclass(frozen=True)
class LegendEntry:
    """One line of a page's legend: a mark the diagrams draw
    (evlogic.drawing.diagram.MARKS), its words and a sample of it."""

    mark: str
    words: str
    sample: Markup


def _mark_words(mark: str, explanations: list[Explanation]) -> str:
    from evlogic.drawing.diagram import EXCEPTION_WORDS, LINK_WORDS

    homes = sorted({e.score.home for e in explanations})
    excluded = [x for e in explanations for x in e.excluded]
    words = {
        "home": f"Home ({homes[0]})" if len(homes) == 1 else "Home state",
        "core": "Core: the home and two states that touch it and each other",
        "region": "Your region, beyond the core",
        "excluded": "One link only \u2014 excluded"
        if excluded and all(len(x.links) == 1 for x in excluded)
        else "Owned, not in your region",
        "siege": "Opponent siege state: borders your home",
        "opponent": "Opponent state",
        "unclaimed": "Not in region (unclaimed)",
        **{f"link-{kind}": words for kind, words in LINK_WORDS.items()},
        "value-multiplied": "N\u00d7M: a swing state\u2019s EV, times the multiplier",
    }
    return words.get(mark) or EXCEPTION_WORDS[mark]


def legend_entries(*scenarios: ScenarioView) -> list[LegendEntry]:
    """``legend(s1, s2, ...)`` in a template: one legend for the diagrams
    of these scenarios (their first players', as ``diagram()`` draws them),
    naming every mark any of them draws and nothing else."""
    from evlogic.drawing.diagram import MARKS, mark_sample

    drawn = {mark for scenario in scenarios for mark in scenario.marks()}
    explanations = [scenario._explanation() for scenario in scenarios]
    return [
        LegendEntry(mark, _mark_words(mark, explanations), Markup(mark_sample(mark)))
        for mark in MARKS
        if mark in drawn
    ]


# --- the page ----------------------------------------------------------------------------


def rulebook_page(
    rules: RuleSet,
    game_end: int,
    template: Path = TEMPLATE,
    against: RuleSet | None = None,
    against_end: int = 0,
) -> str:
    """The page for ``rules`` (``against``: marks where it differs), the
    template rendered in the sandbox (evlogic.pages.sandbox) with only
    :data:`PLACEHOLDERS` reachable."""
    environment = PageEnvironment(FolderLoader(template.parent), PLACEHOLDERS, Unfilled)
    context = {
        "rules": rules_view(rules, game_end, against, against_end),
        "against": against.name if against is not None else None,
        "scenario": Scenarios(rules, against, template.parent),
        "legend": legend_entries,
        "identical": False,  # with against: nothing on the page differs
    }
    page = render(environment, template, context)
    if against is not None and _MARKED.search(page) is None:
        page = render(environment, template, {**context, "identical": True})
    return page


#: A mark the engine makes (a figure's or a diagram's: each has a title).
_MARKED = re.compile(r"<mark [^>]*title=")


class Unfilled(jinja2.StrictUndefined):
    """A placeholder nothing fills: an error that says what would."""

    @property
    def _undefined_message(self) -> str:
        owner, name = self._undefined_obj, self._undefined_name
        if isinstance(owner, tuple(_OWNERS)):
            return f"{_OWNERS[type(owner)]} has no {quote(name)} ({_fillers(owner)})"
        return str(super()._undefined_message)


#: What a template may read of each value it is handed (docs/rulebook.md).
PLACEHOLDERS: dict[type, frozenset[str]] = {
    RulesView: frozenset(RulesView.__dataclass_fields__),
    ScenarioView: frozenset({"you", "player", "diagram", "name_of", "neighbours"}),
    PlayerView: frozenset({*_PLAYER_FIGURES, "face_of", "links_of", "joins", "siege_cost"}),
    LegendEntry: frozenset({"mark", "words", "sample"}),
    Figure: frozenset({"value", "named", "signed", "negated", "joined", "words", "ordinal"}),
}

_OWNERS: dict[type, str] = {
    PlayerView: "a scenario's player",
    RulesView: "the rule set",
    ScenarioView: "a scenario",
    Figure: "a figure",
    Scenarios: "scenario",
}


def _fillers(owner: object) -> str:
    """What a template may ask of ``owner``."""
    if isinstance(owner, PlayerView):
        names = [*sorted(_PLAYER_FIGURES), "face_of(S)", "links_of(S)", "joins(S)"]
    elif isinstance(owner, RulesView):
        names = list(RulesView.__dataclass_fields__)
    elif isinstance(owner, Scenarios):
        return "it is called with a scenario's name: scenario(NAME)"
    elif isinstance(owner, Figure):
        names = ["value", "named", "signed", "negated", "joined", "words", "ordinal"]
    else:
        names = ["you", "player(NAME)", "diagram(NAME)", "name_of(S)", "neighbours(S)"]
    return "it has " + ", ".join(names)
