"""Progress on stderr for anything slow, from the first second of a run, as rich draws it.

The solvers report what they have (`queens.solvers.runtime.progress`: subproblems done out of
all, solutions so far, a minimisation's lower bound, the subproblems a resumed count found
already done). This draws it: on a terminal a bar redrawn in place, with the percentage, the
rate and an estimate of the time left, wiped at the end; elsewhere (`--progress` into a pipe or
a log) a line of text at most once a second. It never goes to stdout, so `--json` output stays
one JSON document.

The rate and the time left count only the work done in this run: the subproblems a resumed
count read from its ledger are done, but not now, so they move the bar and not the estimate.

>>> Estimate.of(Progress(solutions=4012, done=30, total=120), elapsed=12.0).text()
'30/120 subproblems (25%), about 36 s left, 2.5/s, 4,012 solutions so far, 12 s in'
>>> Estimate.of(Progress(done=100, total=120, resumed=90), elapsed=10.0).text()  # 10 done in 10 s
'100/120 subproblems (83%), about 20 s left, 1.0/s, 10 s in'
>>> Estimate.of(Progress(bound=7), elapsed=30.0).text()
'none with fewer than 7 pieces, 30 s in'
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import TextIO

import click
from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from queens.solvers.runtime.progress import Progress, listening

SHOW_AFTER = 1.0
"""Seconds before anything is drawn: a run that ends sooner shows none."""
EVERY = {True: 0.1, False: 1.0}
"""Seconds between two drawings, on a terminal (redrawn in place) and elsewhere (appended)."""

progress_option = click.option(
    "--progress/--no-progress", default=None,
    help="Progress of a long run on stderr: a bar with the rate and the time left, solutions so far, lower "
         "bound [default: on a terminal].")


@dataclass(frozen=True)
class Estimate:
    """What a report says once the time is known: how far (`fraction`), how fast this run goes
    (`rate`, subproblems a second, resumed ones left out) and how long it has left."""

    progress: Progress
    elapsed: float
    fraction: float | None
    rate: float | None
    left: float | None

    @classmethod
    def of(cls, progress: Progress, elapsed: float) -> Estimate:
        done, total = progress.done, progress.total
        if done is None or not total:
            return cls(progress, elapsed, None, None, None)
        now = done - progress.resumed  # the work of this run
        rate = now / elapsed if now > 0 and elapsed > 0 else None
        left = (total - done) / rate if rate is not None and done < total else None
        return cls(progress, elapsed, min(done / total, 1.0), rate, left)

    def text(self) -> str:
        """The estimate in words: what a log line says, and the words beside the bar."""
        parts, progress = [], self.progress
        if self.fraction is not None:
            parts.append(f"{progress.done:,}/{progress.total:,} subproblems ({self.fraction:.0%})")
        if self.left is not None:
            parts.append(f"about {_duration(self.left)} left")
        if self.rate is not None:
            parts.append(f"{self.rate:,.1f}/s")
        if progress.solutions is not None:
            parts.append(f"{progress.solutions:,} solutions so far")
        if progress.bound is not None:
            parts.append(f"none with fewer than {progress.bound:,} pieces")
        parts.append(f"{_duration(self.elapsed)} in")
        return ", ".join(parts)


def _duration(seconds: float) -> str:
    """12 s, 4 min 05 s, 2 h 03 min: short enough to read at a glance.

    >>> _duration(12.4), _duration(245), _duration(7400)
    ('12 s', '4 min 05 s', '2 h 03 min')
    """
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


class ProgressView:
    """A listener (`queens.solvers.runtime.progress.listening`) that draws the reports on `stream`:
    a bar (rich's) on a terminal, a line of text elsewhere."""

    def __init__(self, stream: TextIO, *, terminal: bool, start: float | None = None) -> None:
        self.stream, self.terminal = stream, terminal
        self.start = time.monotonic() if start is None else start
        self.shown: float | None = None
        self.live: Live | None = None

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if now - self.start < SHOW_AFTER or (self.shown is not None and now - self.shown < EVERY[self.terminal]):
            return
        self.shown = now
        estimate = Estimate.of(progress, now - self.start)
        if not self.terminal:
            self.stream.write(f"progress: {estimate.text()}\n")
            self.stream.flush()
            return
        if self.live is None:
            console = Console(file=self.stream, force_terminal=True, highlight=False)
            self.live = Live(console=console, auto_refresh=False, transient=True, redirect_stdout=False,
                             redirect_stderr=False)
            self.live.start()
        self.live.update(self.drawing(estimate), refresh=True)

    @staticmethod
    def drawing(estimate: Estimate) -> Table | Group:
        """The bar (when the total is known) and the words beside it."""
        words = Text(estimate.text(), style="dim", no_wrap=True, overflow="ellipsis")
        if estimate.fraction is None:
            return Group(words)
        row = Table.grid(padding=(0, 1))
        row.add_column(width=20)
        row.add_column()
        row.add_row(ProgressBar(total=1.0, completed=estimate.fraction, width=20), words)
        return row

    def close(self) -> None:
        """Wipe the bar, so the answer that follows starts on a clean line."""
        if self.live is not None:
            self.live.stop()
            self.live = None


def progress_shown() -> AbstractContextManager[None]:
    """`showing_progress` as the command line asks: --progress, --no-progress, or (neither, or a
    command without the option) on a terminal. Commands wrap the work alone in it, not the
    printing of the answer, so the bar is wiped before the answer is printed."""
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
    view = ProgressView(stream, terminal=terminal)
    try:
        with listening(view):
            yield
    finally:
        view.close()
