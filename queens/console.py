"""The `queens` console script: the signal handlers first, then the command line.

Ctrl-C and SIGTERM may come at any moment, also while the CLI's imports (click, rich, numpy,
OR-Tools) are still loading, before `queens.cli.main` could catch anything. So this module,
which imports nothing heavy, installs the handlers and then imports the CLI. Every way out
of an interruption is the same: "interrupted" on stderr, no traceback, exit 130.

SIGTERM exits 130 as well: it is raised as the same KeyboardInterrupt, so every clean-up
written for Ctrl-C (the ledger flush, the worker processes killed, the solver thread joined)
also runs when a batch system or `kill` ends the count politely.
"""

from __future__ import annotations

import os
import signal
import sys

INTERRUPTED = 130


def main() -> None:
    """Run `queens.cli.main` with SIGTERM raised as KeyboardInterrupt; exit 130 when interrupted."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    code: str | int | None = INTERRUPTED
    try:
        from queens.cli import main as run_cli

        run_cli()
    except SystemExit as finished:
        code = finished.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    # The work is done and reported: a signal during the interpreter's shutdown ends it at once
    # (a KeyboardInterrupt there would print a traceback from wherever shutdown was).
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _exit_now)
    sys.exit(code)


def _exit_now(signum: int, frame: object) -> None:
    os._exit(INTERRUPTED)
