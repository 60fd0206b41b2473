"""evlogic explain: why a player's score is what it is, and what each state would add."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_limit_options,
    add_rules_option,
    write_output,
)

HELP = """\
Explain one player's score from the solver's witnesses: the core and why it
qualifies, each state that joined the region and the region states it
touched, each owned state left out and the links it lacks, each siege state
and its holder, and what-if: for every state the player does not own (homes
excepted), how much their own total would change if they won it too."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    explain = add_command(commands, "explain", HELP, run)
    explain.add_argument("game", metavar="GAME", help="game file (YAML), or - for stdin")
    explain.add_argument("--player", required=True, metavar="NAME", help="the player to explain")
    add_format_option(explain)
    add_rules_option(explain)
    add_limit_options(explain, 60.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.scoring import ExplainResult, explain

    result = explain(args.game, player=args.player, rules=args.rules)
    write_output(args.format, result, ExplainResult.to_json, ExplainResult.to_text)
    return 0
