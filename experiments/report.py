"""Reports from stored results: a Markdown table per task and family, and plots beside it.

Honest figures: each cell is the median wall time over the repetitions with the spread
(min-max) beside it; a run that hit its limit is counted and shown as such, never averaged
in; an answer that disagrees with the native ground truth is marked ✗ and listed; the
machine and the library versions head the report. Fair ones: each table says what every
configuration did about symmetry (lex-leader chains, or off, read from the runs' own
statistics), and beside the times stands each backend's own effort counter (`queens.solvers.routing.side_by_side`:
nodes and failures, conflicts, branches, decisions), which the machine's load does not change.
Plots (PNG and SVG, matplotlib): time vs n, a cactus plot per task (instances solved within a
time), and model size vs n, each in panels of one backend and at most `MAX_SERIES` lines, so
every line's colour and marker can be found in its legend.
"""

from __future__ import annotations

import io
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from queens.experiments.store import Row, Store
from queens.models.errors import OutputError
from queens.models.output import write_file
from queens.solvers.routing.side_by_side import EFFORT, effort
from queens.solvers.runtime.extras import require

if TYPE_CHECKING:  # matplotlib itself is imported when a report is drawn (`Plots`)
    from matplotlib.axes import Axes

FORMATS = ("png", "svg")
MAX_SERIES = 6
"""Most lines in one panel of a plot: past a handful, colours stop being told apart."""

ByConfiguration = Mapping[str, Mapping[int, list[Row]]]
"""configuration -> n -> the repetitions."""


def _median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def _seconds(value: float) -> str:
    if value < 0.001:
        return "< 0.001"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _walls(runs: list[Row]) -> list[float]:
    """The wall times of the runs that finished."""
    return [run.wall for run in runs if run.status == "ok" and run.wall is not None]


def cell(rows: list[Row], measure: str = "wall") -> str:
    """One table cell: 'median (min–max)' of `measure` (wall or cpu) over the finished runs, and
    what went wrong in the rest.

    >>> from queens.experiments.store import Row
    >>> base = dict(key="k", spec="s", task="count", family="nqueens", n=8, backend="sat", configuration="sat",
    ...             options={}, method="search", processes=None, symmetry=None, repetition=0, time_limit=10.0,
    ...             memory_limit=1024, outcome="complete", answer=92, expected=92, cpu=None, peak_mib=None,
    ...             variables=None, clauses=None, constraints=None, stats={}, error=None, versions={}, machine={},
    ...             finished="")
    >>> cell([Row(**base, status="ok", wall=w) for w in (0.2, 0.1, 0.3)])
    '0.200 (0.100–0.300)'
    >>> cell([Row(**base, status="ok", wall=0.2), Row(**base, status="timeout", wall=10.0)])
    '0.200 · 1/2 timeout'
    """
    finished = [getattr(row, measure) for row in rows if row.status == "ok" and getattr(row, measure) is not None]
    text = ""
    if finished:
        middle = _median(finished)
        text = _seconds(middle)
        if len(finished) > 1:
            text += f" ({_seconds(min(finished))}–{_seconds(max(finished))})"
    elif all(row.status == "timeout" for row in rows):
        text = f"> {rows[0].time_limit:g}"
    failed: defaultdict[str, int] = defaultdict(int)
    for row in rows:
        if row.status != "ok":
            failed[row.status] += 1
    notes = [f"{k}/{len(rows)} {status}" for status, k in sorted(failed.items())]
    if any(row.disagrees for row in rows):
        notes.append("✗")
    return " · ".join(part for part in (text, *notes) if part)


def effort_cell(rows: list[Row]) -> str:
    """One effort cell: the median of each effort counter over the finished runs ('' when the
    backend reports none).

    >>> from queens.experiments.store import Row
    >>> base = dict(key="k", spec="s", task="count", family="nqueens", n=8, backend="sat", configuration="sat",
    ...             options={}, method="search", processes=None, symmetry=None, repetition=0, time_limit=10.0,
    ...             memory_limit=1024, outcome="complete", answer=92, expected=92, wall=0.1, cpu=None,
    ...             peak_mib=None, variables=None, clauses=None, constraints=None, error=None, versions={},
    ...             machine={}, finished="", status="ok")
    >>> effort_cell([Row(**base, stats={"conflicts": c, "decisions": 10 * c}) for c in (100, 120, 300)])
    'conflicts 120 · decisions 1,200'
    """
    counters: defaultdict[str, list[int]] = defaultdict(list)
    for row in rows:
        if row.status == "ok":
            for key, value in effort(row.stats).items():
                counters[key].append(value)
    return " · ".join(f"{key} {round(_median(values)):,}" for key, values in counters.items())


def symmetry_cell(by_n: Mapping[int, list[Row]]) -> str:
    """What a configuration's finished runs did about symmetry, with the sizes where that changes.

    >>> from queens.experiments.store import Row
    >>> base = dict(key="k", spec="s", task="count", family="nqueens", backend="sat", configuration="sat",
    ...             options={}, method="search", processes=None, symmetry=None, repetition=0, time_limit=10.0,
    ...             memory_limit=1024, outcome="complete", answer=92, expected=92, wall=0.1, cpu=None,
    ...             peak_mib=None, variables=None, clauses=None, constraints=None, error=None, versions={},
    ...             machine={}, finished="", status="ok")
    >>> off, on = {"symmetry": "off (under 81 cells)"}, {"symmetry": "lex-leader over a group of 8"}
    >>> symmetry_cell({8: [Row(**base, n=8, stats=off)], 9: [Row(**base, n=9, stats=on)],
    ...                10: [Row(**base, n=10, stats=on)]})
    'off (n = 8), lex-leader (n = 9–10)'
    """
    spans: list[tuple[str, list[int]]] = []
    for n, runs in sorted(by_n.items()):
        finished = [run for run in runs if run.status == "ok"]  # a run killed at its limit said nothing
        if not finished:
            continue
        label = "/".join(sorted({run.symmetry_used for run in finished}))
        if spans and spans[-1][0] == label:
            spans[-1][1].append(n)
        else:
            spans.append((label, [n]))
    if len(spans) <= 1:
        return spans[0][0] if spans else "-"
    return ", ".join(f"{label} (n = {ns[0]}" + (f"–{ns[-1]})" if len(ns) > 1 else ")") for label, ns in spans)


def _grouped(rows: list[Row]) -> Mapping[tuple[str, str], ByConfiguration]:
    """(task, family) -> configuration -> n -> the repetitions."""
    groups: defaultdict[tuple[str, str], defaultdict[str, defaultdict[int, list[Row]]]] = \
        defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for row in rows:
        groups[row.task, row.family][row.configuration][row.n].append(row)
    return groups


def _sizes(configurations: ByConfiguration) -> list[int]:
    return sorted({n for by_n in configurations.values() for n in by_n})


def table(configurations: ByConfiguration, measure: str = "wall") -> list[str]:
    """A Markdown table: one line per configuration, what it did about symmetry, one column per n."""
    sizes = _sizes(configurations)
    lines = ["| configuration | symmetry | " + " | ".join(f"n = {n}" for n in sizes) + " |",
             "|---|---|" + "---:|" * len(sizes)]
    for name in sorted(configurations):
        by_n = configurations[name]
        lines.append(f"| {name} | {symmetry_cell(by_n)} | "
                     + " | ".join(cell(by_n[n], measure) if n in by_n else "" for n in sizes) + " |")
    return lines


def effort_table(configurations: ByConfiguration) -> list[str]:
    """A Markdown table of the effort counters of the configurations that report one, and a line
    naming those that report none (nothing to show is said, not left blank)."""
    counted = {name: by_n for name, by_n in configurations.items()
               if any(effort_cell(runs) for runs in by_n.values())}
    if not counted:
        return []
    sizes = _sizes(counted)
    lines = ["| configuration | " + " | ".join(f"n = {n}" for n in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for name in sorted(counted):
        by_n = counted[name]
        lines.append(f"| {name} | " + " | ".join(effort_cell(by_n[n]) if n in by_n else "" for n in sizes) + " |")
    silent = sorted(set(configurations) - set(counted))
    if silent:
        lines += ["", "No effort counter reported by: " + ", ".join(silent) + "."]
    return lines


def flagged(rows: list[Row]) -> list[Row]:
    """The runs whose answer contradicts the ground truth."""
    return [row for row in rows if row.disagrees]


def _machine(rows: list[Row]) -> list[str]:
    lines = []
    machines = {json.dumps({k: v for k, v in row.machine.items() if k != "load average"}) for row in rows}
    for info in sorted(machines):
        lines.append("- machine: " + ", ".join(f"{k} {v}" for k, v in json.loads(info).items()))
    for versions in sorted({json.dumps(row.versions) for row in rows}):
        lines.append("- libraries: " + ", ".join(f"{k} {v}" for k, v in json.loads(versions).items()))
    loads = [row.machine.get("load average", [None])[0] for row in rows]
    known = [load for load in loads if load is not None]
    if known:
        lines.append(f"- load average (1 min) when the grid started: {min(known)}–{max(known)} "
                     "(other work on the machine inflates wall times more than CPU times, and leaves the effort "
                     "counters alone)")
    return lines


def _notes(rows: list[Row]) -> list[str]:
    lines = []
    limited: dict[tuple[str, str, int, str, str], list[Row]] = defaultdict(list)
    for row in rows:
        if row.status != "ok":
            limited[row.task, row.family, row.n, row.configuration, row.status].append(row)
    for (task, family, n, configuration, status), group in sorted(limited.items()):
        total = sum(1 for r in rows if (r.task, r.family, r.n, r.configuration) == (task, family, n, configuration))
        what = {"timeout": f"hit the {group[0].time_limit:g} s limit",
                "memout": f"ran out of its {group[0].memory_limit} MiB", "error": "failed"}[status]
        detail = f" ({group[0].error})" if status == "error" and group[0].error else ""
        lines.append(f"- {task} {family} n = {n}, {configuration}: {len(group)} of {total} runs {what}{detail}")
    asked = sorted({(row.configuration, row.symmetry_used) for row in rows
                    if row.symmetry is True and row.symmetry_used != "lex-leader"})
    for configuration, used in asked:
        note = next(row.stats.get("symmetry") for row in rows if (row.configuration, row.symmetry_used) ==
                    (configuration, used))
        lines.append(f"- {configuration}: symmetry asked on, the runs went without ({note})")
    wrong = flagged(rows)
    checked = sum(1 for row in rows if row.status == "ok" and row.expected is not None)
    if wrong:
        for row in wrong:
            lines.append(f"- ✗ {row.task} {row.family} n = {row.n}, {row.configuration} "
                         f"#{row.repetition + 1}: answered {row.answer}, native says {row.expected}")
    else:
        lines.append(f"- every answer checked against the native ground truth agrees ({checked} checked)")
    return lines


def _legend(rows: list[Row]) -> list[str]:
    """What the symmetry column and the effort counters mean."""
    keys = [key for key in EFFORT if any(key in row.stats for row in rows)]
    lines = ["The symmetry column is what each configuration's runs did, read from their own statistics: "
             "lex-leader (one solution per symmetry class enumerated, weighted by the class's size; an optimum "
             "searched among the classes' leaders), off (every solution; the configuration's symmetry=off asks "
             "for it, else the backend chose), none to break, or - (the answer breaks none: one solution of a "
             "puzzle without a goal, a counter that does not enumerate)."]
    if keys:
        lines += ["", "Effort: each backend's own counters, the median over the finished runs (a split run's are "
                  "the sums over its subproblems):", "", *(f"- `{key}`: {EFFORT[key]}" for key in keys)]
    return lines


def write(store: Store, out: Path, spec: str | None = None, plots: bool = True) -> Path:
    """Write report.md and, unless `plots` is False, its plots into `out`; returns the report's
    path. Without plots the tables need nothing beyond the base install (matplotlib is the
    `plots` extra's)."""
    rows = store.rows(spec)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file of that name, /proc, no right: one line, as every write says it
        raise OutputError(f"cannot write the report into {out}: {error.strerror or error}") from None
    specs = sorted({row.spec for row in rows})
    repetitions = max((row.repetition + 1 for row in rows), default=0)
    lines = [f"# Benchmark report: {', '.join(specs) or 'no runs'}", "",
             f"{len(rows)} runs. Each cell: median wall time in seconds over up to {repetitions} repetitions, "
             "with the spread (min–max) of the finished runs; the time covers the whole queens.solvers.count or "
             "queens.solvers.solve call (lowering, solving, verifying every solution), not the process start. "
             "A run that hit its limit is counted beside the median, never in it; ✗ marks an answer that "
             "disagrees with the native ground truth.", "",
             *_machine(rows), "", *_legend(rows), ""]
    drawn = Plots(out) if plots else None
    for (task, family), configurations in sorted(_grouped(rows).items()):
        lines += [f"## {task}: {family}", "", "Wall time (s):", "", *table(configurations), ""]
        name = drawn.time_vs_n(task, family, configurations) if drawn else None
        if name:
            lines += [f"![{task} {family}: time vs n]({name})", ""]
        efforts = effort_table(configurations)
        if efforts:
            lines += ["Effort (each backend's own counters, median):", "", *efforts, ""]
        lines += ["CPU time (s, this process and its children; above the wall time when a run "
                  "uses several cores, below it when other work shares the machine):", "",
                  *table(configurations, "cpu"), ""]
        name = drawn.model_size(task, family, configurations) if drawn else None
        if name:
            lines += [f"![{task} {family}: model size vs n]({name})", ""]
    for task in sorted({row.task for row in rows}):
        name = drawn.cactus(task, [row for row in rows if row.task == task]) if drawn else None
        if name:
            lines += [f"![{task}: cactus plot]({name})", ""]
    lines += ["## Notes", "", *_notes(rows), ""]
    return write_file(out / "report.md", "\n".join(lines))


# --- plots ---------------------------------------------------------------------------------------
Points = list[tuple[float, float]]


@dataclass
class Panel:
    """One box of a figure: up to `MAX_SERIES` lines (configuration -> points) and the points
    where every repetition hit the limit (drawn as ×)."""

    title: str
    lines: dict[str, Points] = field(default_factory=dict)
    limits: dict[str, Points] = field(default_factory=dict)


def backend_of(configuration: str) -> str:
    """The backend a configuration label starts with ('sat encoding=ladder' -> 'sat')."""
    return configuration.split(" ", 1)[0]


def short_label(configuration: str) -> str:
    """A configuration's label inside its backend's panel: the settings alone.

    >>> short_label("sat encoding=ladder symmetry=off"), short_label("csp")
    ('encoding=ladder symmetry=off', 'defaults')
    """
    return configuration.partition(" ")[2] or "defaults"


def panels(title: str, names: Iterable[str]) -> list[Panel]:
    """One panel per backend, split so that none holds more than `MAX_SERIES` configurations."""
    by_backend: defaultdict[str, list[str]] = defaultdict(list)
    for name in sorted(names):
        by_backend[backend_of(name)].append(name)
    boxes = []
    for backend, chosen in sorted(by_backend.items()):
        parts = math.ceil(len(chosen) / MAX_SERIES)
        size = math.ceil(len(chosen) / parts)  # even panels: 7 lines as 4 and 3, not 6 and 1
        for part in range(parts):
            suffix = f" ({part + 1} of {parts})" if parts > 1 else ""
            lines: dict[str, Points] = {name: [] for name in chosen[part * size:(part + 1) * size]}
            boxes.append(Panel(f"{title}{backend}{suffix}", lines))
    return boxes


class Plots:
    """matplotlib figures, each saved as PNG and SVG; methods return the PNG's file name."""

    MARKERS = ("o", "s", "^", "D", "v", "P")

    def __init__(self, out: Path) -> None:
        require("plots", "the report's plots")
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot

        self.out = out
        self.pyplot = pyplot

    def _draw(self, boxes: list[Panel], stem: str, title: str, xlabel: str, ylabel: str, log_x: bool) -> str | None:
        """The panels side by side (three to a row), sharing their axes; None when nothing is drawn."""
        boxes = [box for box in boxes if any(box.lines.values()) or any(box.limits.values())]
        if not boxes:
            return None
        from matplotlib.ticker import MaxNLocator

        columns = min(3, len(boxes))
        rows = math.ceil(len(boxes) / columns)
        figure, grid = self.pyplot.subplots(rows, columns, figsize=(4.6 * columns, 4.4 * rows + 0.4),
                                            sharey=True, squeeze=False, layout="constrained")
        for axes, box in zip(grid.flat, boxes, strict=False):
            self._panel(axes, box)
            axes.set(yscale="log", title=box.title, xlabel=xlabel)
            if log_x:
                axes.set_xscale("log")
            else:
                axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        for axes in list(grid.flat)[len(boxes):]:
            axes.set_visible(False)
        for axes in grid[:, 0]:
            axes.set_ylabel(ylabel)
        dashed = any("symmetry=off" in name for box in boxes for name in box.lines)
        figure.suptitle(title + ("; dashed: symmetry=off" if dashed else ""), fontsize=10)
        for suffix in FORMATS:  # drawn in memory, written by the one writer (the path and the reason on failure)
            drawn = io.BytesIO()
            figure.savefig(drawn, format=suffix, dpi=110)
            write_file(self.out / f"{stem}.{suffix}", drawn.getvalue())
            figure.set_layout_engine("none")  # the next format keeps this layout: laid out again, it took half the time
        self.pyplot.close(figure)
        return f"{stem}.png"

    def _panel(self, axes: Axes, box: Panel) -> None:
        colours = self.pyplot.get_cmap("tab10")
        for i, name in enumerate(box.lines):
            points, limits = box.lines[name], box.limits.get(name, [])
            colour = colours(i)
            if points:
                axes.plot(*zip(*sorted(points), strict=True), label=short_label(name), markersize=4, color=colour,
                          marker=self.MARKERS[i % len(self.MARKERS)], linestyle="--" if "symmetry=off" in name else "-")
            if limits:
                axes.plot(*zip(*sorted(limits), strict=True), linestyle="none", color=colour, marker="x",
                          markersize=8, label=None if points else f"{short_label(name)} (at the limit)")
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, -0.16), frameon=False)  # below: off the data

    def time_vs_n(self, task: str, family: str, configurations: ByConfiguration) -> str | None:
        boxes = panels("", configurations)
        for box in boxes:
            for name in box.lines:
                by_n = configurations[name]
                box.lines[name] = [(n, _median(_walls(runs))) for n, runs in by_n.items() if _walls(runs)]
                box.limits[name] = [(n, runs[0].time_limit) for n, runs in by_n.items()
                                    if all(r.status == "timeout" for r in runs)]
        sizes = _sizes(configurations)
        return self._draw(boxes, f"time-{task}-{family}", f"{task}: {family}, median wall time "
                          "(× every repetition at the limit)", "n", "seconds", max(sizes) >= 5 * min(sizes))

    def cactus(self, task: str, rows: list[Row]) -> str | None:
        times: defaultdict[str, list[float]] = defaultdict(list)
        for row in rows:
            if row.status == "ok" and row.wall is not None:
                times[row.configuration].append(row.wall)
        boxes = panels("", times)
        for box in boxes:
            for name in box.lines:
                box.lines[name] = list(enumerate(sorted(times[name]), start=1))
        return self._draw(boxes, f"cactus-{task}", f"{task}: cactus plot (further right and lower is better)",
                          "runs finished", "seconds per run", False)

    def model_size(self, task: str, family: str, configurations: ByConfiguration) -> str | None:
        """Each model size the backends report (variables, clauses, constraints) in a panel of its
        own per backend, read from the runs that posted no symmetry-breaking chains and did not
        split (those sizes count the chains' variables, or add up subproblems)."""
        boxes: list[Panel] = []
        for measure in ("variables", "clauses", "constraints"):
            measured = {name: {n: value for n, runs in by_n.items()
                               if (value := next((getattr(r, measure) for r in runs if getattr(r, measure)
                                                  and r.method != "split" and r.symmetry_used != "lex-leader"),
                                                 None))}
                        for name, by_n in configurations.items()}
            for box in panels(f"{measure}: ", [name for name, by_n in measured.items() if by_n]):
                box.lines = {name: sorted(measured[name].items()) for name in box.lines}
                boxes.append(box)
        sizes = _sizes(configurations)
        return self._draw(boxes, f"size-{task}-{family}", f"{task} {family}: model size without symmetry-breaking "
                          "chains", "n", "count", max(sizes) >= 5 * min(sizes))
