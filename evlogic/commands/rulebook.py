"""evlogic rulebook: the Scoring & Regions page for a rule set, every
number and diagram from the solver."""

from __future__ import annotations

import argparse
import os
import sys

from evlogic.commands import add_command
from evlogic.commands.options import add_limit_options

HELP = """\
Build the rulebook's Scoring & Regions page for a rule set: the scoring
table, the tier table, the region rule with its worked steps, the siege
rule with its worked example and the full scoring example, every number
and every diagram from the solver, using the rulebook's scenarios in
examples/rulebook/. --against R2 marks every number and diagram that
differs under R2 (a <mark> whose title gives R2's value), so you see which
sentences a rule change touches.

  evlogic rulebook -o scoring.html
  evlogic rulebook --rules gentle-siege --against standard -o changes.html
  evlogic rulebook --rules my-rules.yaml --pdf scoring.pdf

The page's words come from a Jinja2 template (docs/rulebook.md); pass your
own with --template: it is rendered in a sandbox, reaches its placeholders
and the files beside it only, and the PDF loads nothing but the page. A
placeholder the solver cannot fill (an unknown scenario, a figure no report
has) is an error naming the template's line."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rulebook = add_command(commands, "rulebook", HELP, run)
    rulebook.add_argument(
        "--rules",
        metavar="R",
        default="standard",
        help="the rule set: a bundled name or a file (default: standard)",
    )
    rulebook.add_argument("--against", metavar="R2", help="mark what differs from this rule set")
    rulebook.add_argument(
        "--board",
        metavar="B",
        help="the board the page's game end is read from (default: the scenarios', usa)",
    )
    rulebook.add_argument(
        "--template", metavar="T", help="a Jinja2 template of your own (default: evlogic's)"
    )
    rulebook.add_argument(
        "-o", "--output", metavar="PAGE.html", default="-", help="default: standard output"
    )
    rulebook.add_argument(
        "--pdf", metavar="PAGE.pdf", help="also print the page to PDF (A4) through chromium"
    )
    add_limit_options(rulebook, 300.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.pages import rulebook_inputs, rulebook_of
    from evlogic.commands.output_file import check_writable, open_output, output_file
    from evlogic.errors import InputError
    from evlogic.pages.pdf import browser

    inputs = rulebook_inputs(
        rules=args.rules, against=args.against, board=args.board, template=args.template
    )
    if (
        args.pdf
        and args.output != "-"
        and os.path.realpath(args.pdf) == os.path.realpath(args.output)
    ):
        raise InputError("--pdf", "is the -o file too: name two files")

    # Every output is checked before the page is made, and written only when
    # everything is made: a path that cannot be written fails first, and a
    # failure leaves nothing written (standard output included).
    for output in (args.output, args.pdf):
        if output and output != "-":
            check_writable(output)
    if args.pdf:
        browser()
    result = rulebook_of(inputs)
    if args.pdf:
        printed = result.pdf()
        with output_file(args.pdf) as pdf:
            pdf.write(printed)
    if args.output == "-":
        sys.stdout.write(result.html)
    else:
        with open_output(args.output) as out:
            out.write(result.html)
    return 0
