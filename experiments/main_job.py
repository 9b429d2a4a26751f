"""`make run`: every family counted by every backend, each count checked against the native
ground truth, in one screen.

The rows are the family registry (`queens.models.families`): each family's labelled examples,
and a family with none (those written as puzzle files, models/puzzles/*.toml) on a small board,
`SMALL_SIDE` (a cube: `SMALL_CUBE`). The columns are the backend registry
(`queens.solvers.registry`). A new family or backend appears here without an edit.

Each backend counts with its best strategy (the router, narrowed to it), within `TIME_LIMIT`.
A row shows the native count and, per backend, the seconds it took; a count that disagrees with
the native one is shown in its cell with a ✗, and the job exits 3. A backend that cannot answer
is a footnote mark, its reason written once under the table (for every row it applies to), so
that it is not a disagreement and does not fill the screen. The table fits the terminal (80 to
200 columns; a file or a pipe gets `FILE_WIDTH`), and the job ends with three commands to try.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from queens.models import Puzzle, QueensError, Unsupported
from queens.models.errors import Refused
from queens.models.families import FAMILIES, FamilyOptions, build
from queens.solvers import BACKENDS, Result, Status, count
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as Bar
from rich.table import Table
from rich.text import Text

TIME_LIMIT = 60.0
SMALL_SIDE = 4
"""The board a family without labelled examples is counted on: n = 4, where every backend that
can count answers in seconds (peaceable queens n = 5 takes the native search past the limit)."""
SMALL_CUBE = 3
"""The same on a cube: 3 x 3 x 3 (on 4 x 4 x 4, cpsat and csp pass the limit)."""
WIDTHS = (80, 200)
"""The narrowest and widest terminal the table is laid out for."""
FILE_WIDTH = 100
"""The width when stdout is a file or a pipe and COLUMNS does not say."""
DESCRIBED = 30
MIN_LABEL = 12
"""The narrowest the puzzles' labels are cut to (with …) so that the numbers fit."""
"""Columns to spare beyond the grid before it says what each family asks."""
MARKS = "¹²³⁴⁵⁶⁷⁸⁹"
TRY_NEXT = (
    ("queens count nqueens -n 14", "365,596 (A000170), by the native counter"),
    ("queens solve peaceable -n 6", "5 white and 5 black queens, proved, drawn"),
    ("queens serve", "the explorer, in your browser"),
)
"""Three commands to try next, printed at the end (tests/test_experiments.py runs them and checks the count)."""


def jobs() -> list[tuple[str, Puzzle]]:
    """(label, puzzle) for every row: each family's examples, or the family on a small board."""
    found = []
    for name, family in FAMILIES.items():
        examples = family.examples or ((f"n={SMALL_SIDE}", FamilyOptions(SMALL_SIDE)),)
        for label, options in examples:
            puzzle = build(name, options)
            if puzzle.dimensions == 3 and not family.examples:
                label, puzzle = f"n={SMALL_CUBE}", build(name, FamilyOptions(SMALL_CUBE))
            found.append((f"{name} {label}", puzzle))
    return found


@dataclass(frozen=True)
class Answer:
    """One backend on one puzzle: its exact count, or why it gave none."""

    count: int | None = None
    seconds: float = 0.0
    reasons: tuple[str, ...] = ()
    """Why the backend cannot count this puzzle (refused before any work)."""
    stopped: bool = False
    """Stopped at the time limit: a lower bound only, not checked."""
    error: str = ""


def answer(target: Puzzle, backend: str) -> Answer:
    """`backend`'s count of `target`, by its best strategy, within the time limit."""
    try:
        result: Result = count(target, backend, time_limit=TIME_LIMIT)
    except Refused as refusal:
        return Answer(reasons=refusal.reasons)
    except Unsupported as refusal:
        return Answer(reasons=(str(refusal),))
    except QueensError as error:
        return Answer(error=str(error))
    if result.status is not Status.COMPLETE:
        return Answer(seconds=result.wall_time, stopped=True)
    return Answer(result.count, result.wall_time)


@dataclass
class Row:
    label: str
    answers: dict[str, Answer]

    @property
    def truth(self) -> int | None:
        """The native count; without one, the count every backend that answered agrees on."""
        native = self.answers.get("native")
        if native is not None and native.count is not None:
            return native.count
        counts = {a.count for a in self.answers.values() if a.count is not None}
        return counts.pop() if len(counts) == 1 else None

    @property
    def unanswered(self) -> bool:
        """No backend can count this puzzle."""
        return all(a.reasons for a in self.answers.values())

    def disagreeing(self) -> list[str]:
        native = self.answers.get("native")
        if native is not None and native.count is not None:
            return [name for name, a in self.answers.items() if a.count is not None and a.count != native.count]
        counts = {a.count for a in self.answers.values() if a.count is not None}
        return [name for name, a in self.answers.items() if a.count is not None] if len(counts) > 1 else []


@dataclass
class Notes:
    """The footnotes: each reason written once, with the cells it explains."""

    texts: list[str] = field(default_factory=list)
    who: list[list[str]] = field(default_factory=list)
    """The backends each note speaks for (none: a note on a puzzle)."""
    marks: dict[tuple[str, str], str] = field(default_factory=dict)
    """(row label, backend or "count") -> the mark its cell shows."""

    def add(self, text: str, cells: list[tuple[str, str]], backend: str | None = None) -> None:
        if text not in self.texts:
            self.texts.append(text)
            self.who.append([])
        index = self.texts.index(text)
        if backend is not None and backend not in self.who[index]:
            self.who[index].append(backend)
        for cell in cells:
            self.marks[cell] = _mark(index)

    def lines(self) -> list[str]:
        return [f"{_mark(i)} {', '.join(who) + ': ' if who else ''}{text}"
                for i, (text, who) in enumerate(zip(self.texts, self.who, strict=True))]


def _mark(index: int) -> str:
    return MARKS[index] if index < len(MARKS) else f"[{index + 1}]"


def notes_for(rows: list[Row]) -> Notes:
    """A note for a puzzle no backend counts (the reason they share), then one per backend for the
    rows it cannot count: the reason it gives on all of them, or, when it gives different ones,
    the fewest reasons that cover its rows."""
    notes = Notes()
    for row in rows:
        if row.unanswered:
            shared = set.intersection(*(set(a.reasons) for a in row.answers.values()))
            reason = next((r for r in next(iter(row.answers.values())).reasons if r in shared), None)
            notes.add(f"no backend counts {row.label}: {reason or 'queens count --backend all says why'}",
                      [(row.label, "count")])
    for backend in BACKENDS:
        refused = {row.label: row.answers[backend].reasons for row in rows
                   if not row.unanswered and row.answers[backend].reasons}
        for reason, labels in _cover(refused):
            notes.add(_own(reason, backend), [(label, backend) for label in labels], backend)
    return notes


def _own(reason: str, backend: str) -> str:
    """A backend's reason without its own name in front ("cpsat counts boards of ..." is "counts
    boards of ..."), so that backends refusing alike share one note."""
    for prefix in (f"{backend}: ", f"{backend} "):
        if reason.startswith(prefix):
            return reason[len(prefix):]
    return reason


def _cover(refused: dict[str, tuple[str, ...]]) -> Iterator[tuple[str, list[str]]]:
    """Reasons that together cover every row, greedily: the reason most rows give first, and of
    those the one given first (the router lists a backend's reasons in its order of preference)."""
    left = dict(refused)
    while left:
        tally = Counter(reason for reasons in left.values() for reason in reasons)
        rank = {r: min(reasons.index(r) for reasons in left.values() if r in reasons) for r in tally}
        reason = max(tally, key=lambda r: (tally[r], -rank[r]))
        covered = [label for label, reasons in left.items() if reason in reasons]
        yield reason, covered
        for label in covered:
            del left[label]


def _width() -> int:
    """The terminal's width (COLUMNS when set), held to `WIDTHS`; `FILE_WIDTH` for a file or a pipe."""
    if os.environ.get("COLUMNS", "").isdigit():
        columns = int(os.environ["COLUMNS"])
    elif sys.stdout.isatty():
        columns = shutil.get_terminal_size().columns
    else:
        columns = FILE_WIDTH
    return min(columns, WIDTHS[1])


def _cell(row: Row, backend: str, notes: Notes) -> Text:
    found = row.answers[backend]
    if found.reasons or found.error:
        return Text(f"n/a{notes.marks.get((row.label, backend), '')}", style="dim")
    if found.stopped:
        return Text(f">{TIME_LIMIT:.0f}", style="yellow")
    if backend in row.disagreeing():
        return Text(f"✗ {found.count:,}", style="bold red")
    return Text(f"{found.seconds:.2f}")


def table(rows: list[Row], notes: Notes, described: int = 0, label_width: int | None = None) -> Table:
    """The grid; `described` columns more say what each family asks (the registry's words);
    `label_width` cuts the puzzles' labels short (with …) where the numbers would not fit: a
    number is never cut."""
    lines = [[Text(row.label), _count(row, notes), *(_cell(row, backend, notes) for backend in BACKENDS)]
             for row in rows]
    headers = ["puzzle", "count", *BACKENDS]
    grid = Table(box=None, pad_edge=False, padding=(0, 1), collapse_padding=True, header_style="bold",
                 show_edge=False)
    grid.add_column("puzzle", no_wrap=True, overflow="ellipsis", max_width=label_width)
    for index, header in enumerate(headers[1:], 1):
        widest = max([len(header), *(line[index].cell_len for line in lines)])
        grid.add_column(header, justify="right", no_wrap=True, min_width=widest)
    if described:
        grid.add_column("what it asks", no_wrap=True, overflow="ellipsis", style="dim", max_width=described)
    for row, line in zip(rows, lines, strict=True):
        grid.add_row(*line, *([FAMILIES[row.label.split()[0]].description] if described else []))
    return grid


def _count(row: Row, notes: Notes) -> Text:
    """The row's count: the native one (`*` when only the backends that answered agree on it)."""
    if row.unanswered:
        return Text(f"n/a{notes.marks[(row.label, 'count')]}", style="dim")
    truth = row.truth
    shown = Text("-" if truth is None else f"{truth:,}")
    if truth is not None and row.answers.get("native", Answer()).count is None:
        shown.append("*")
    return shown


def _natural(console: Console, grid: Table) -> int:
    """The grid's width with no width to fit in (rich's own measure stops at the console's)."""
    return console.measure(grid, options=console.options.update_width(10_000)).maximum


def run(progress: Bar | None = None) -> list[Row]:
    """Every backend on every row, advancing `progress` (a bar on stderr) as each puzzle is done."""
    listed = jobs()
    task = None if progress is None else progress.add_task("counting", total=len(listed), label="")
    rows = []
    for label, target in listed:
        if progress is not None and task is not None:
            progress.update(task, label=label)
        rows.append(Row(label, {backend: answer(target, backend) for backend in BACKENDS}))
        if progress is not None and task is not None:
            progress.advance(task)
    return rows


def report(rows: list[Row], seconds: float, console: Console) -> int:
    """The table, its notes, a summary and what to try next; 3 when a count disagrees, else 0."""
    notes = notes_for(rows)
    grid = table(rows, notes)
    room = console.width - _natural(console, grid) - 1
    if room >= DESCRIBED:
        grid = table(rows, notes, described=room)
    label = max(len(row.label) for row in rows)
    while _natural(console, grid) > console.width and label > MIN_LABEL:  # the labels give way, not a number
        label -= 1
        grid = table(rows, notes, label_width=label)
    width = console.width
    console.print("Every family on every backend, each count checked against the native counter", style="bold",
                  width=width)
    console.print("count: solutions (with a goal: the optimal ones). Per backend: its seconds, or ✗ and "
                  "its count if it disagrees, or n/a¹ if it cannot count (note ¹ says why)", style="dim", width=width)
    console.print()
    console.print(grid)
    console.print()
    for line in notes.lines():
        console.print(Text(line, style="dim"), width=width)
    if any(a.stopped for row in rows for a in row.answers.values()):
        console.print(f">{TIME_LIMIT:.0f}: stopped at the {TIME_LIMIT:.0f} s limit, not counted", style="dim")
    if any(row.truth is not None and row.answers.get("native", Answer()).count is None for row in rows):
        console.print("*: no native count; the backends that answered agree", style="dim")
    wrong = sum(len(row.disagreeing()) for row in rows)
    counted = sum(a.count is not None for row in rows for a in row.answers.values())
    verdict = (f"[bold red]✗ {wrong} disagree with the native counter[/]" if wrong
               else "[green]✓ all equal to the native counter's[/]")
    console.print(f"\n{len(rows)} puzzles × {len(BACKENDS)} backends: {counted} counts, {verdict} ({seconds:.0f} s)",
                  width=width)
    console.print("\nTry next:", style="bold")
    column = max(len(line) for line, _ in TRY_NEXT) + 2
    for line, why in TRY_NEXT:
        console.print(f"  {line:<{column}}[dim]# {why}[/]", width=width, overflow="fold")
    return 3 if wrong else 0


def main() -> int:
    console = Console(highlight=False, width=_width())
    start = time.perf_counter()
    on_terminal = sys.stderr.isatty()
    if on_terminal:
        columns = (TextColumn("counting"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[label]}"),
                   TimeElapsedColumn())
        with Bar(*columns, console=Console(stderr=True), transient=True) as bar:
            rows = run(bar)
    else:
        rows = run()
    return report(rows, time.perf_counter() - start, console)


if __name__ == "__main__":
    sys.exit(main())
