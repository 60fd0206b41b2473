"""evlogic verify: check game files against the figures they expect."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_limit_options,
    add_rules_option,
    say,
    write_output,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = add_command(
        commands,
        "verify",
        "Score every scenario (a game file with an expect: key) and report the "
        "figures that differ. PATHS are files or directories (searched for game files with "
        "expect:); default: the rulebook's scenarios. Exit status 1 when any scenario fails, "
        "2 when one cannot be read or scored (it is listed as failed, with its error).",
        run,
    )
    verify.add_argument(
        "paths",
        nargs="*",
        metavar="PATHS",
        help="game files, or folders searched for game files with expect: "
        "(default: the rulebook's scenarios)",
    )
    add_format_option(verify)
    add_rules_option(verify)
    add_limit_options(verify, 600.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.scoring import VerifyResult, verify

    result = verify(args.paths, rules=args.rules)
    write_output(args.format, result, VerifyResult.to_json, VerifyResult.to_text)
    for error in result.errors:  # bad input: listed as failed, and said on stderr (exit 2)
        say(f"evlogic: error: {error}")
    return result.exit_status()
