"""The ``evlogic`` command line: the top-level parser and running a command
(limits, streams, errors); each command is a module in evlogic/commands/."""

from __future__ import annotations

import argparse
import errno
import gc
import io
import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from typing import TYPE_CHECKING, NoReturn

from evlogic import __version__
from evlogic.commands import COMMANDS, RawDescriptionHelpFormatter, command_named
from evlogic.errors import InputError, escaped, shortened

if TYPE_CHECKING:
    from evlogic.commands.answer import Answer

# The rest of evlogic (the command's module, what it reads and solves with,
# the limits) is imported by main, with the cycle collector paused: see
# _collector_paused.

DESCRIPTION = """\
Score positions of the electoral-vote board game with answer-set rules.

Every figure comes from the clingo programs in rules/: face EVs (swing
states double, the home scores face value), the regional bonus of the
block grown from the home (+15/+25/+35/+45 for 3/4/5/6+ states), and the
siege penalty (-10 from the bonus per opponent-held neighbour of the home,
never below zero). Those are the standard rules (rules/standard.yaml);
--rules picks a variant or a rule set file of your own."""


class _Parser(argparse.ArgumentParser):
    """Usage errors are one line too: ``evlogic: error: ...`` and exit 2."""

    def error(self, message: str) -> NoReturn:
        message = message.removeprefix("argument ")
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if wrong is not None:  # a misspelt command or choice: the nearest one
            from evlogic.errors import closest

            choices = re.findall(r"'([^']*)'", wrong.group(2))
            where = wrong.start(2) - len(" (choose from ")
            message = message[:where] + closest(wrong.group(1), choices) + message[where:]
        message = shortened(escaped(message), 300)
        self.exit(2, f"evlogic: error: {message} (see {self.prog} -h)\n")


def build_parser(only: str | None = None, others: bool = True) -> argparse.ArgumentParser:
    """The parser of every command, or with ``only``, of that command alone
    (its module imported and registered): the others are listed by their
    summary, which is all ``evlogic --help`` shows of them, and never run;
    without ``others``, not even listed (``evlogic COMMAND ...``, the
    command first, never reaches the top level's help)."""
    parser = _Parser(
        prog="evlogic",
        description=DESCRIPTION,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"evlogic {__version__}")
    # bounded: --timeout limits the whole command (not batch's per-chunk one);
    # timeout_status: the exit status when it runs out (3: a time limit).
    parser.set_defaults(bounded=False, timeout_status=3)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        if only is None or command.name == only:
            command.load().register(commands)
        elif others:
            commands.add_parser(command.name, help=command.summary, add_help=False)
    return parser


def named_command(argv: Sequence[str]) -> str:
    """The command ``argv`` runs, found as argparse finds it: the first
    argument that is not an option (the top level's options take no
    value); "" when that names no command (the parser then says so)."""
    for argument in argv:
        if argument.startswith("-") and argument != "-":
            continue
        found = command_named(argument)
        return found.name if found else ""
    return ""


#: Seconds past a command's --timeout before it is stopped: its own deadline
#: (``args.deadline``) comes first, this only catches work that cannot look
#: at the clock; a command with an answer so far (evlogic/commands/answer.py)
#: prints it then.
GRACE = 0.4


def main(argv: Sequence[str] | None = None) -> int:
    """The command line.  Run as a program (``argv`` None), the process
    imports the command with the cycle collector paused
    (:func:`_collector_paused`), is capped at --memory-limit, leaves at
    once when --timeout strands a grounding in its worker thread, and skips
    the collector's last passes (:func:`_ending`); called with ``argv``
    (tests), none of these."""
    standalone = argv is None
    _open_standard_streams()
    arguments = sys.argv[1:] if argv is None else list(argv)
    named = named_command(arguments)
    with _collector_paused() if standalone else nullcontext():
        parser = build_parser(named, others=arguments[:1] != [named])
        from evlogic import limits
    args = parser.parse_args(arguments)
    if standalone and getattr(args, "memory_limit", None):
        limits.limit_memory(args.memory_limit)
    status = _run(args)
    if standalone:
        _ending()
        if limits.busy():
            from evlogic.commands.output_file import remove_unfinished

            remove_unfinished()  # what the given-up worker thread was writing
            limits.leave(status)
    return status


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cycle collector paused while the command's modules are imported,
    then everything they made frozen out of its reach (gc.freeze).  Every
    collection during the imports walks all that was imported so far and
    finds nothing to free (a module lives as long as the process), about
    5 ms of evlogic score's start; afterwards the command's own collections
    walk only what the command makes."""
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _ending() -> None:
    """The process ends next.  Python's shutdown runs the cycle collector
    over every object still alive, every module's included (about 9 ms
    after a score, nearly what grounding it took); frozen (gc.freeze), they
    are left out of it, and the end of the process takes their memory back
    at once.  The rest of an orderly exit still runs: atexit handlers, the
    flushing and closing of files, the finalizers of objects that
    reference counting frees (only garbage in a cycle is left as it is)."""
    gc.freeze()


def _run(args: argparse.Namespace) -> int:
    from evlogic.asp.solver import SolverError
    from evlogic.commands.answer import Answer
    from evlogic.commands.options import say
    from evlogic.limits import OutOfTime, call_before
    from evlogic.signals import Terminated, terminate_raises

    timeout = getattr(args, "timeout", None) if args.bounded else None
    args.answer = answer = Answer()
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        with terminate_raises():  # SIGTERM stops every command as Ctrl-C does
            if timeout is None:
                code = run(args)
            else:
                # one deadline: the command's own (its searches stop there), and
                # the watchdog's, GRACE later, for a grounding that runs on
                args.deadline = time.monotonic() + timeout
                code = call_before(args.deadline + GRACE, lambda: run(args))
            sys.stdout.flush()  # a full disk shows here, not at exit
        return code
    except OutOfTime:
        so_far = _answer_so_far(answer)
        if so_far is not None:
            return so_far
        say(
            f"evlogic: error: {args.command}: no answer within {args.timeout:g} s "
            "(raise --timeout to give it longer)"
        )
        status: int = args.timeout_status
        return status
    except InputError as error:
        say(f"evlogic: error: {error}")
        return 2
    except MemoryError:
        return _out_of_memory(args)
    except SolverError as error:  # a bug in evlogic's rules, never the user's input
        say(f"evlogic: internal error: {error}")
        return 70
    except RuntimeError as error:  # clingo's std::bad_alloc, from inside a solve
        if "bad_alloc" not in str(error):
            raise
        return _out_of_memory(args)
    except BrokenPipeError:  # the reader went away (| head): nothing to say
        _discard_output()
        return 1
    except OSError as error:  # writing the output failed (> /dev/full, >&-)
        _discard_output()
        place = error.filename or "<stdout>"
        say(f"evlogic: error: {InputError(str(place), f'cannot write: {error.strerror}')}")
        return 2
    except KeyboardInterrupt:
        _stopped_quietly()
        say("evlogic: interrupted")
        return 130
    except Terminated:
        _stopped_quietly()
        say("evlogic: terminated")
        return 143


def _stopped_quietly() -> None:
    """Stopped by a signal, the command says so in one line and nothing
    more: work it was in the middle of (a clingo syntax tree half built when
    the signal came) may fail again as Python frees it, and that is not news
    (sys.unraisablehook, whose default prints such failures at exit)."""
    sys.unraisablehook = lambda _unraisable: None


def _answer_so_far(answer: Answer) -> int | None:
    """The command's answer so far printed, at its watchdog (its exit
    status); None when it has none, or cannot give it (then one line)."""
    from evlogic.commands.options import say

    try:
        code = answer.give_so_far()
        sys.stdout.flush()
    except InputError as error:  # the input, read only now, is bad: that first
        say(f"evlogic: error: {error}")
        return 2
    except Exception:  # its answer so far failed: the line instead
        return None
    return code


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it (``>&-``): writing is an OSError."""

    def write(self, text: object) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    @property
    def buffer(self) -> _ClosedOutput:  # for bytes (diagram -o -)
        return self


def _open_standard_streams() -> None:
    """Standard input, output and error always exist.  A closed one
    (``<&-``, ``>&-``, ``2>&-``) becomes /dev/null underneath, so that no
    file evlogic opens takes its number (a worker's warnings would land in
    it); reading closed standard input or writing closed standard output
    is then an error, and messages to closed standard error are dropped."""
    for number in range(3):
        try:
            os.fstat(number)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != number:
                os.dup2(null, number)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (lives as long as the process)


def _out_of_memory(args: argparse.Namespace) -> int:
    from evlogic.commands.options import say

    limit = getattr(args, "memory_limit", None)
    say(
        f"evlogic: error: {args.command}: out of memory"
        + (f" (limit {limit} MiB; raise --memory-limit)" if limit else "")
    )
    return 2


def _discard_output() -> None:
    """After a failed write, point standard output at /dev/null, so that
    flushing what is left at exit neither fails nor prints a warning."""
    with suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        number = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, number)
        os.close(null)
