"""Solving requests in worker processes, so that a request past its time ends.

clingo's grounding cannot be interrupted and a thread cannot be killed: a
request solved on a thread of the server would go on grounding after its
503, holding a core and gigabytes of memory for minutes, and a handful of
dense boards would bring the machine down.  So every request that solves is
sent to one of a few worker processes; one that passes the request's time
limit is killed and replaced, which frees all it held at once.  Each worker
caps its own address space (``--worker-memory-limit``): past it, its request
is answered 503 and the worker goes on, or is replaced if it died.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from evlogic.errors import InputError
from evlogic.limits import DEFAULT_WORKER_MEMORY_MB

if TYPE_CHECKING:
    from evlogic.web.service import Catalog

#: Worker processes started with the server; requests beyond them wait
#: (within their time limit) for one to be free.
DEFAULT_WORKERS = 4

#: Where the evlogic package lives: a worker imports the same one.
PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent.parent)


@dataclass(frozen=True)
class Solved:
    """The worker function's document (a JSON document, or the text of an
    SVG or a YAML file)."""

    document: Any


@dataclass(frozen=True)
class BadInput:
    """The request is wrong: the InputError to answer 400 with."""

    error: InputError


@dataclass(frozen=True)
class OverBound:
    """A board over the server's bound: the message to answer 413 with."""

    message: str


@dataclass(frozen=True)
class OutOfMemory:
    """The worker ran out of memory (or died: the usual cause)."""


@dataclass(frozen=True)
class Internal:
    """A bug in evlogic, never the request's: the message, one line."""

    message: str


#: A worker's answer to one request.
Answer = Solved | BadInput | OverBound | OutOfMemory | Internal


def _work(connection: Connection, megabytes: int) -> None:
    """A worker's life: cap its memory at ``megabytes`` MiB, read the
    catalog, then answer requests until the server closes the socket."""
    # Ctrl-C at a terminal reaches the whole process group; the server stops
    # its workers itself, so they must not print a KeyboardInterrupt each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from evlogic.drawing import diagram  # noqa: F401  (loaded before the first request)
    from evlogic.limits import limit_memory
    from evlogic.web import service

    limit_memory(megabytes)

    try:
        catalog = connection.recv()
    except (EOFError, OSError):
        return
    # only a head start: a request that meets the same error says it in its words
    with contextlib.suppress(Exception):
        service.warm(catalog)
    while True:
        try:
            name, top = connection.recv()
        except (EOFError, OSError):  # the server has gone
            return
        try:
            answer: Answer = Solved(getattr(service, name)(catalog, top))
        except service.TooLarge as error:
            answer = OverBound(str(error))
        except InputError as error:
            answer = BadInput(error)
        except MemoryError:
            answer = OutOfMemory()
        except RecursionError:
            answer = BadInput(InputError(service.SOURCE, "nests too deeply"))
        except Exception as error:  # a bug in evlogic, never the request's: say it in one line
            answer = Internal(f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (OSError, ValueError):
            return
        if isinstance(answer, OutOfMemory):  # what is left of its heap is no use: a fresh one
            return


class Worker:
    """One worker process and the server's end of the socket to it.

    A worker is a fresh interpreter (``python -m evlogic.web.workers FD``),
    not a fork: the server has threads, and a fork of a process with threads
    can inherit a held lock; nor multiprocessing's spawn, which re-imports
    the program that started the server (a script without a main guard, or
    one read from standard input, would break every worker)."""

    def __init__(self, catalog: Catalog, megabytes: int) -> None:
        ours, theirs = socket.socketpair()
        environment = dict(os.environ)
        path = environment.get("PYTHONPATH")
        environment["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + path if path else "")
        with theirs:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "evlogic.web.workers",
                    str(theirs.fileno()),
                    str(megabytes),
                ],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                env=environment,
                start_new_session=True,  # Ctrl-C is the server's; it stops its workers
            )
        self.connection = Connection(ours.detach())
        self.connection.send(catalog)  # the worker reads it when it is up

    def ask(self, name: str, top: object) -> Answer:
        """Blocking: the answer, or EOFError when the worker died."""
        try:
            self.connection.send((name, top))
            answer: Answer = self.connection.recv()
        except (EOFError, OSError):
            self.connection.close()  # this thread is its only reader: safe to close
            raise EOFError from None
        return answer

    def kill(self) -> None:
        """End the worker now.  A thread waiting in :meth:`ask` then reads
        end of file and finishes; the pipe is left to it to close."""
        self.process.kill()
        self.process.wait()


class Workers:
    """A pool of ``size`` workers over ``catalog``, each capped at
    ``megabytes`` MiB."""

    def __init__(
        self,
        catalog: Catalog,
        size: int = DEFAULT_WORKERS,
        megabytes: int = DEFAULT_WORKER_MEMORY_MB,
    ) -> None:
        self.catalog = catalog
        self.size = size
        self.megabytes = megabytes
        self._idle: list[Worker] = []
        self._slots = anyio.Semaphore(size)
        self._all: set[Worker] = set()

    def start(self) -> None:
        """Start every worker now (else each starts at its first request)."""
        while len(self._all) < self.size:
            self._idle.append(self._new())

    def _new(self) -> Worker:
        worker = Worker(self.catalog, self.megabytes)
        self._all.add(worker)
        return worker

    def _retire(self, worker: Worker) -> None:
        worker.kill()
        self._all.discard(worker)

    async def solve(self, name: str, top: object) -> Answer:
        """``service.<name>(catalog, top)`` in a worker.  Cancelled (the
        request's time is up), the worker is killed and a fresh one started,
        as is one that ran out of memory; a worker that dies answers
        :class:`OutOfMemory` (the usual cause)."""
        async with self._slots:
            if self._idle:
                worker = self._idle.pop()
            else:  # off the event loop: a new worker reads the catalog first
                worker = await anyio.to_thread.run_sync(self._new)
            try:
                answer = await anyio.to_thread.run_sync(
                    worker.ask, name, top, abandon_on_cancel=True
                )
            except EOFError:
                self._retire(worker)
                return OutOfMemory()
            except BaseException:  # cancelled: the time limit passed
                self._discard(worker)
                raise
            if isinstance(answer, OutOfMemory):
                self._discard(worker)
                worker.connection.close()  # (no thread is reading it)
            else:
                self._idle.append(worker)
            return answer

    def _discard(self, worker: Worker) -> None:
        """Kill ``worker``; reaped and replaced off the event loop: a process
        that held gigabytes takes a while to go, and a new one to read the
        catalog."""
        worker.process.kill()
        self._all.discard(worker)
        threading.Thread(target=self._replace, args=(worker,), daemon=True).start()

    def _replace(self, dead: Worker) -> None:
        dead.process.wait()
        if len(self._all) < self.size:
            self._idle.append(self._new())

    def close(self) -> None:
        """Stop every worker."""
        for worker in list(self._all):
            self._retire(worker)
        self._idle.clear()


if __name__ == "__main__":
    # run as the module, not as __main__: answers must pickle as
    # evlogic.web.workers' classes for the server to read them
    from evlogic.web.workers import _work as work

    work(Connection(int(sys.argv[1])), int(sys.argv[2]))
