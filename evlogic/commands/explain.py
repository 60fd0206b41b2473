"""evlogic explain: why a player's score is what it is, and what each state would add."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_limit_options,
    add_rules_option,
    read_game,
    rules_override,
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
    from evlogic.reports.explain import explain_game
    from evlogic.reports.render import explanation_to_json, explanation_to_text

    explanation = explain_game(read_game(args.game, rules_override(args)), args.player)
    write_output(args.format, explanation, explanation_to_json, explanation_to_text)
    return 0
