"""The bundled rule sets and their numbers: ``evlogic rules``.

Every number is the rule set as its loader reads it (``extends`` resolved),
the facts the rules read (docs/formats.md, "Rule sets"); nothing is scored.
"""

from __future__ import annotations

from dataclasses import dataclass

from evlogic.loading.rulesets import RuleSet, bundled_rule_sets, load_rule_set
from evlogic.reports.render import columns
from evlogic.resources import display_path


@dataclass(frozen=True)
class RuleSetNumbers:
    """A rule set's numbers under their rule-set keys."""

    name: str
    tiers: tuple[tuple[int, int], ...]  # (region size, bonus), by size
    siege_penalty: int
    links_needed: int
    swing_multiplier: int
    home_swing: bool
    region: str  # best-core or union
    game_end: int | None  # None: the board's
    programs: tuple[str, ...]  # .lp files of its own

    @classmethod
    def of(cls, rules: RuleSet) -> RuleSetNumbers:
        return cls(
            rules.name,
            rules.tiers,
            rules.siege_penalty,
            rules.links_needed,
            rules.swing_multiplier,
            rules.home_swing,
            rules.region,
            rules.game_end,
            tuple(display_path(path) for path in rules.programs),
        )

    def to_dict(self) -> dict[str, object]:
        """``evlogic rules --format json``: a rule set file's keys."""
        return {
            "name": self.name,
            "tiers": {str(size): bonus for size, bonus in self.tiers},
            "siege_penalty": self.siege_penalty,
            "links_needed": self.links_needed,
            "swing_multiplier": self.swing_multiplier,
            "home_swing": self.home_swing,
            "region": self.region,
            "game_end": self.game_end,
            "programs": list(self.programs),
        }


def bundled_rules() -> list[RuleSetNumbers]:
    """Every bundled rule set (rules/standard.yaml, then rules/variants/), read."""
    return [RuleSetNumbers.of(load_rule_set(name)) for name in bundled_rule_sets()]


def rules_to_text(rule_sets: list[RuleSetNumbers]) -> str:
    header = ("name", "tiers", "siege", "links", "swing", "home swing", "region", "game end")
    rows = [header]
    for rules in rule_sets:
        rows.append(
            (
                rules.name,
                " ".join(f"{size}:+{bonus}" for size, bonus in rules.tiers),
                f"-{rules.siege_penalty}" if rules.siege_penalty else "0",
                str(rules.links_needed),
                f"×{rules.swing_multiplier}",
                "yes" if rules.home_swing else "no",
                rules.region,
                "the board's" if rules.game_end is None else str(rules.game_end),
            )
        )
    return "\n".join(columns(rows)) + "\n"
