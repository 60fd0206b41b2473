"""evlogic facts: a game's facts, the program plain clingo scores with rules/score.lp."""

from __future__ import annotations

import argparse
import shlex
import sys

from evlogic.commands import add_command
from evlogic.commands.options import add_rules_option, read_game, rules_override

HELP = """\
Print a game's facts: everything evlogic grounds beside its rules to score
the game, as a program plain clingo reads with rules/score.lp (the scoring
rules as #includes):

  evlogic facts game.yaml | python -m clingo rules/score.lp -

(python -m clingo: the clingo package evlogic is installed with, which has
no clingo command; a clingo program, where one is installed, reads the same)
prints score(G, P, FaceEv, RegionBonus, SiegePenalty, NetBonus, Total),
winner(G, P) and the rest of rules/scoring/output.lp for position G = 0:
the figures evlogic score reports. Numbers stand for names: a player is its
place in the game's list (0 first), a state the rank of its id in sorted
order; a comment on each line of the facts names it.

The facts are the rule set's numbers (param/3, tier/3, rule_set/1), the
board (board_game_end/1, state/1, ev/2, swing/1, adjacent/2) and the
position (home/3, owned/3, listed/4, what rules/scoring/position_input.lp
reads from evlogic's Python side). A rule set's own .lp programs are rules,
not facts: the first lines of the output name them, to give clingo as well.

With no GAME, the rulebook's full example. GAME may be - for standard
input (a board path is then relative to the current directory)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    facts = add_command(commands, "facts", HELP, run)
    facts.add_argument(
        "game", nargs="?", metavar="GAME", help="game file (YAML); default: the rulebook example"
    )
    add_rules_option(facts)


def run(args: argparse.Namespace) -> int:
    from evlogic.asp.facts import game_facts
    from evlogic.errors import escaped
    from evlogic.loading.games import checked_game
    from evlogic.reports.score import score_game
    from evlogic.resources import display_path, rules_dir

    game = checked_game(read_game(args.game, rules_override(args)))
    # The facts of a position score accepts, and only those: the rules say
    # whether the position is past its game end (past_game_end/1 of
    # rules/scoring/position.lp), which scoring it decides.
    score_game(game)
    command = ["evlogic", "facts", *([args.game] if args.game else [])]
    command += ["--rules", args.rules] if args.rules is not None else []
    clingo = ["python", "-m", "clingo", display_path(rules_dir() / "score.lp"), "-"]
    clingo += [display_path(path) for path in game.rules.programs]
    header = [f"% The facts of {escaped(game.source)}, scored by plain clingo with:"]
    if game.rules.programs:
        header[0] = f"% The facts of {escaped(game.source)}; the rule set's programs are"
        header.append("% rules, not facts: clingo scores them with")
    header.append(f"%   {escaped(shlex.join(command))} | {escaped(shlex.join(clingo))}")
    sys.stdout.write("\n".join(header) + "\n\n" + game_facts(game))
    return 0
