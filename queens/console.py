"""The `queens` console script: the signal handlers first, then the command line.

Ctrl-C and SIGTERM may come at any moment, also while the CLI's imports (click, rich, numpy,
OR-Tools) are still loading, before `queens.cli.main` could catch anything. So this module,
which imports nothing heavy, installs the handlers and then imports the CLI. Every way out
of an interruption is the same: "interrupted" on stderr, no traceback, exit 130.

SIGTERM exits 130 as well: it is raised as the same KeyboardInterrupt, so every clean-up
written for Ctrl-C (the ledger flush, the worker processes killed, the solver thread joined)
also runs when a batch system or `kill` ends the count politely. The handler is
`queens.solvers.runtime.interrupts.handler`, which remembers the signal, so one swallowed by a finaliser still
stops the command (exit 130).

A closed standard stream (`queens count ... 2>&-`) is reopened on /dev/null before anything
else: Python then has `sys.stderr = None`, and the first progress line crashed the command
before it printed its answer; worse, the next file opened (a ledger, an --out file) would
take descriptor 2, and any C library's message to stderr would be written into it.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

from queens.solvers.runtime import interrupts
from queens.solvers.runtime.cores import one_blas_thread

INTERRUPTED = 130


def main() -> None:
    """Run `queens.cli.main` with SIGINT and SIGTERM raised as KeyboardInterrupt; exit 130 when interrupted."""
    one_blas_thread()  # before the CLI imports numpy; inherited by every process the command starts
    interrupts.install()
    atexit.register(_ignore_signals)  # registered before any other: it runs last of them
    _reopen_closed_streams()
    code: str | int | None = INTERRUPTED
    try:
        from queens.cli import main as run_cli

        run_cli()
    except SystemExit as finished:
        code = finished.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    if interrupts.signalled() and code != INTERRUPTED:  # the signal was swallowed where it landed
        print("interrupted", file=sys.stderr)
        code = INTERRUPTED
    # The work is done and reported: a signal during the interpreter's shutdown ends it at once
    # (a KeyboardInterrupt there would print a traceback from wherever shutdown was).
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _exit_now)
    if interrupts.abandoned():  # a solver thread still runs: finalising beside it could abort the process
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(INTERRUPTED)
    sys.exit(code)


def _reopen_closed_streams() -> None:
    """Descriptors 0, 1 and 2, when closed, get /dev/null (read for 0, write for 1 and 2), and
    the matching sys stream, None when Python started without it, gets a file on it; but for
    stdout: a closed stdout stays an error (`sys.stdout` None, refused by `queens.cli.main`: the
    answer goes there), its descriptor only kept from the next file opened."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if null != fd:  # the lowest free descriptor: another closed standard one
            os.dup2(null, fd)
            os.close(null)
        if getattr(sys, name) is None and fd != 1:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))  # noqa: SIM115 - for the whole run


def _exit_now(signum: int, frame: object) -> None:
    os._exit(INTERRUPTED)


def _ignore_signals() -> None:
    """The last exit handler: from here on the shutdown only frees memory, and Python gives a
    signal with a Python handler back its default action there, so a SIGINT then killed the
    process (exit -2, not 130 or the command's own code: `timeout`'s second signal, in one lone
    clone run of three). Ignored instead."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
