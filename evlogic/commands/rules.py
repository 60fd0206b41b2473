"""evlogic rules: the bundled rule sets and their numbers."""

from __future__ import annotations

import argparse
import sys

from evlogic.commands import add_command
from evlogic.commands.options import add_format_option

HELP = (
    "List the bundled rule sets (rules/standard.yaml and rules/variants/), each "
    "with its numbers: the bonus tiers (region size: bonus), the siege penalty a "
    "state, the region links a state needs to join, the swing multiplier, whether "
    "a swing home is multiplied, the region mode and the game end. Any command's "
    "--rules takes these names. JSON: a list of objects under the rule set "
    "file's keys (docs/formats.md)."
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = add_command(commands, "rules", HELP, run)
    add_format_option(rules)


def run(args: argparse.Namespace) -> int:
    from evlogic.reports.render import json_text
    from evlogic.reports.rulesets import bundled_rules, rules_to_text

    found = bundled_rules()
    if args.format == "json":
        sys.stdout.write(json_text([rules.to_dict() for rules in found]))
    else:
        sys.stdout.write(rules_to_text(found))
    return 0
