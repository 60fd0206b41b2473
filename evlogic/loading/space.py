"""A tuning space (``evlogic tune SPACE.yaml``): a base rule set, the
numbers to search, the objectives and the requirements.

Every candidate is a rule set built from the base by the loader that reads
rule set files (evlogic.loading.rulesets.derived_rule_set), so a candidate is
data, checked as a rule set file is, and never program text.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evlogic.errors import quote
from evlogic.loading.rulesets import (
    PARAMETERS,
    RuleSet,
    derived_rule_set,
    load_rule_set,
    resolve_rule_set,
)
from evlogic.loading.yamlfile import Field, read_yaml
from evlogic.resources import bundled_properties

#: What tune can minimise (docs/tune.md).
OBJECTIVES = ("first_seat_advantage", "home_spread", "seat_spread")

#: What play can be required to show, and the bounds a requirement takes.
PLAY_REQUIREMENTS = ("bonus_decides", "siege_decides")
BOUNDS = ("at_least", "at_most")

#: Candidates a space may hold.
MAX_CANDIDATES = 100_000


@dataclass(frozen=True)
class Candidate:
    """A rule set of the space, and the numbers it sets (as a rule set file
    would write them)."""

    rules: RuleSet
    numbers: dict[str, Any]


@dataclass(frozen=True)
class PlayRequirement:
    figure: str  # bonus_decides | siege_decides
    at_least: float | None
    at_most: float | None

    def met(self, rate: float) -> bool:
        return (self.at_least is None or rate >= self.at_least) and (
            self.at_most is None or rate <= self.at_most
        )


@dataclass(frozen=True)
class Space:
    source: str
    base: RuleSet
    base_reference: str
    candidates: tuple[Candidate, ...]
    objectives: tuple[str, ...]
    properties: tuple[str, ...]  # as the space names them
    play: tuple[PlayRequirement, ...]
    #: Each property as check takes it: a bundled name, or its .lp file
    #: found from the space file's folder.
    property_references: tuple[str, ...] = ()


def load_space(path: Path) -> Space:
    top = read_yaml(path, str(path))
    fields = top.fields(["search"], ["extends", "objectives", "require"], what="a tuning space")
    reference = fields["extends"].text("a rule set") if "extends" in fields else "standard"
    base = (
        load_rule_set(resolve_rule_set(fields["extends"], path.parent))
        if "extends" in fields
        else load_rule_set("standard")
    )
    choices = _search(fields["search"])
    candidates = _candidates(top, base, choices)
    objectives = _objectives(fields.get("objectives"))
    properties: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    play: list[PlayRequirement] = []
    if "require" in fields:
        required = fields["require"].fields([], ["properties", *PLAY_REQUIREMENTS], "requirements")
        if "properties" in required:
            items = required["properties"].items()
            properties = tuple(item.text("a property") for item in items)
            references = tuple(_property(item, path.parent) for item in items)
        for figure in PLAY_REQUIREMENTS:
            if figure in required:
                play.append(_play_requirement(figure, required[figure]))
    return Space(
        str(path), base, reference, candidates, objectives, properties, tuple(play), references
    )


def _search(field: Field) -> list[tuple[str, list[tuple[Field, Any]]]]:
    """Each searched parameter and its values (as fields, for errors), in
    file order; tiers become one choice a region size."""
    choices: list[tuple[str, list[tuple[Field, Any]]]] = []
    known = [name for name in PARAMETERS if name != "game_end"]
    for key, value in field.entries("a mapping of parameter to values"):
        name = str(key.value)
        if name not in known:
            raise key.error(f"unknown parameter {quote(name)} (searchable: {', '.join(known)})")
        if name == "tiers":
            for size, bonuses in value.entries("a mapping of region size to a list of bonuses"):
                options = [(item, item.value) for item in bonuses.items("a list of bonuses")]
                if not options:
                    raise bonuses.error("must list at least one bonus")
                choices.append((f"tiers.{size.value}", options))
        else:
            options = [(item, item.value) for item in value.items("a list of values")]
            if not options:
                raise value.error("must list at least one value")
            choices.append((name, options))
    if not choices:
        raise field.error("names nothing to search")
    return choices


def _candidates(
    top: Field, base: RuleSet, choices: list[tuple[str, list[tuple[Field, Any]]]]
) -> tuple[Candidate, ...]:
    count = 1
    for _, options in choices:
        count *= len(options)
    if count > MAX_CANDIDATES:
        raise top.error(f"{count} candidates; a space may hold at most {MAX_CANDIDATES}")
    candidates = []
    for number, picked in enumerate(itertools.product(*(options for _, options in choices))):
        fields: dict[str, Field] = {}
        numbers: dict[str, Any] = {}
        tiers = dict(base.tiers)
        tier_line = None
        for (name, _), (item, value) in zip(choices, picked, strict=True):
            if name.startswith("tiers."):
                size = name.split(".", 1)[1]
                bonus = item.integer(0, 1_000_000, what="a bonus")
                if not size.isdigit():
                    raise item.error(f"region size {quote(size)} is not a whole number")
                tiers[int(size)] = bonus
                tier_line = item.line
            else:
                fields[name] = item
                numbers[name] = value
        if tier_line is not None:
            fields["tiers"] = Field(top.source, "search.tiers", tiers, tier_line, None)
            numbers["tiers"] = dict(sorted(tiers.items()))
        rules = derived_rule_set(top, base, fields, f"candidate-{number + 1}")
        candidates.append(Candidate(rules, numbers))
    return tuple(candidates)


def _objectives(field: Field | None) -> tuple[str, ...]:
    if field is None:
        return ("first_seat_advantage", "home_spread")
    names = []
    for item in field.items("a list of objectives"):
        name = item.text("an objective")
        if name not in OBJECTIVES:
            raise item.error(f"unknown objective {quote(name)} (known: {', '.join(OBJECTIVES)})")
        if name in names:
            raise item.error(f"objective {quote(name)} is named twice")
        names.append(name)
    if not names:
        raise field.error("must name at least one objective")
    return tuple(names)


def _property(item: Field, folder: Path) -> str:
    """A bundled property's name, or the path of a .lp file, relative to
    the space file's ``folder``, that exists."""
    name = item.text("a property")
    if name in bundled_properties():
        return name
    if not name.endswith(".lp"):
        known = ", ".join(bundled_properties())
        raise item.error(f"unknown property {quote(name)} (bundled: {known}; or a .lp file)")
    found = folder / name
    if not found.is_file():
        raise item.error(f"no such property file {quote(name)} (read from {folder})")
    return str(found.resolve())


def _play_requirement(figure: str, field: Field) -> PlayRequirement:
    bounds = field.fields([], BOUNDS, what="a bound (at_least, at_most)")
    if not bounds:
        raise field.error("must give at_least or at_most")
    values: dict[str, float] = {}
    for name, bound in bounds.items():
        value = bound.value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise bound.error(f"must be a rate between 0 and 1, not {quote(bound.raw or value)}")
        values[name] = float(value)
    if "at_least" in values and "at_most" in values and values["at_least"] > values["at_most"]:
        raise bounds["at_least"].error(
            f"{values['at_least']:g} is above at_most {values['at_most']:g}: no rate can meet both"
        )
    return PlayRequirement(figure, values.get("at_least"), values.get("at_most"))
