"""Progress on stderr for anything slow: one line, from the first second of a run.

The solvers report what they have (`queens.solvers.runtime.progress`: subproblems done out of all,
solutions so far, a minimisation's lower bound); this draws it, with the time elapsed and,
once subproblems are finishing, an estimate of the time left. On a terminal the line is
rewritten in place and wiped at the end; elsewhere (`--progress` into a pipe or a log) it is
a new line at most once a second.
It never goes to stdout, so `--json` output stays one JSON document.

>>> import io
>>> line = ProgressLine(io.StringIO(), terminal=False, start=0.0)
>>> line.text(Progress(solutions=4012, done=30, total=120), elapsed=12.0)
'progress: 30/120 subproblems, 4,012 solutions so far, 12 s (about 36 s left)'
>>> line.text(Progress(bound=7), elapsed=30.0)
'progress: none with fewer than 7 pieces, 30 s'
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TextIO

import click

from queens.solvers.runtime.progress import Progress, listening

SHOW_AFTER = 1.0
"""Seconds before the first line: a run that ends sooner shows none."""
EVERY = {True: 0.2, False: 1.0}
"""Seconds between two lines, on a terminal (rewritten in place) and elsewhere (appended)."""

progress_option = click.option(
    "--progress/--no-progress", default=None,
    help="Progress of a long run on stderr: subproblems, solutions so far, lower bound, time [default: on a terminal].")


class ProgressLine:
    """A listener (`queens.solvers.runtime.progress.listening`) that draws the reports on `stream`."""

    def __init__(self, stream: TextIO, *, terminal: bool, start: float | None = None) -> None:
        self.stream, self.terminal = stream, terminal
        self.start = time.monotonic() if start is None else start
        self.shown: float | None = None

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if now - self.start < SHOW_AFTER or (self.shown is not None and now - self.shown < EVERY[self.terminal]):
            return
        self.shown = now
        text = self.text(progress, now - self.start)
        self.stream.write(f"\r{text}\x1b[K" if self.terminal else f"{text}\n")
        self.stream.flush()

    @staticmethod
    def text(progress: Progress, elapsed: float) -> str:
        parts = []
        done, total = progress.done, progress.total
        if done is not None and total is not None:
            parts.append(f"{done:,}/{total:,} subproblems")
        if progress.solutions is not None:
            parts.append(f"{progress.solutions:,} solutions so far")
        if progress.bound is not None:
            parts.append(f"none with fewer than {progress.bound:,} pieces")
        parts.append(f"{elapsed:.0f} s")
        if done and total and done < total:
            parts[-1] += f" (about {elapsed * (total - done) / done:.0f} s left)"
        return "progress: " + ", ".join(parts)

    def close(self) -> None:
        """Wipe the line on a terminal, so the answer that follows starts on a clean line."""
        if self.terminal and self.shown is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def progress_shown() -> AbstractContextManager[None]:
    """`showing_progress` as the command line asks: --progress, --no-progress, or (neither, or a
    command without the option) on a terminal. Commands wrap the work alone in it, not the
    printing of the answer, so the line is wiped before the answer is printed."""
    context = click.get_current_context(silent=True)
    return showing_progress(None if context is None else context.params.get("progress"))


@contextmanager
def showing_progress(wanted: bool | None, stream: TextIO | None = None) -> Iterator[None]:
    """Inside the block, the solvers' reports are drawn on stderr when `wanted` (None: when
    stderr is a terminal)."""
    stream = sys.stderr if stream is None else stream
    terminal = stream.isatty()
    if not (terminal if wanted is None else wanted):
        yield
        return
    line = ProgressLine(stream, terminal=terminal)
    try:
        with listening(line):
            yield
    finally:
        line.close()
