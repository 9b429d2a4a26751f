"""Reports from stored results: a Markdown table per task and family, and plots beside it.

Honest figures: each cell is the median wall time over the repetitions with the spread
(min-max) beside it; a run that hit its limit is counted and shown as such, never averaged
in; an answer that disagrees with the native ground truth is marked ✗ and listed; the
machine and the library versions head the report. Plots (PNG and SVG, matplotlib):
time vs n per configuration (log scale), a cactus plot per task (instances solved within a
time), and model size vs n.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from queens.experiments.store import Row, Store

if TYPE_CHECKING:  # matplotlib itself is imported when a report is drawn (`Plots`)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")

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
    ...             options={}, split=False, processes=None, repetition=0, time_limit=10.0, memory_limit=1024,
    ...             outcome="complete", answer=92, expected=92, cpu=None, peak_mib=None, variables=None,
    ...             clauses=None, constraints=None, stats={}, error=None, versions={}, machine={}, finished="")
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


def _grouped(rows: list[Row]) -> Mapping[tuple[str, str], ByConfiguration]:
    """(task, family) -> configuration -> n -> the repetitions."""
    groups: defaultdict[tuple[str, str], defaultdict[str, defaultdict[int, list[Row]]]] = \
        defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for row in rows:
        groups[row.task, row.family][row.configuration][row.n].append(row)
    return groups


def table(configurations: ByConfiguration, measure: str = "wall") -> list[str]:
    """A Markdown table: one line per configuration, one column per n."""
    sizes = sorted({n for by_n in configurations.values() for n in by_n})
    lines = ["| configuration | " + " | ".join(f"n = {n}" for n in sizes) + " |",
             "|---|" + "---:|" * len(sizes)]
    for name in sorted(configurations):
        by_n = configurations[name]
        lines.append(f"| {name} | " + " | ".join(cell(by_n[n], measure) if n in by_n else "" for n in sizes) + " |")
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
                     "(other work on the machine inflates wall times more than CPU times)")
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
    wrong = flagged(rows)
    checked = sum(1 for row in rows if row.status == "ok" and row.expected is not None)
    if wrong:
        for row in wrong:
            lines.append(f"- ✗ {row.task} {row.family} n = {row.n}, {row.configuration} "
                         f"#{row.repetition + 1}: answered {row.answer}, native says {row.expected}")
    else:
        lines.append(f"- every answer checked against the native ground truth agrees ({checked} checked)")
    return lines


def write(store: Store, out: Path, spec: str | None = None) -> Path:
    """Write report.md and its plots into `out`; returns the report's path."""
    rows = store.rows(spec)
    out.mkdir(parents=True, exist_ok=True)
    specs = sorted({row.spec for row in rows})
    repetitions = max((row.repetition + 1 for row in rows), default=0)
    lines = [f"# Benchmark report: {', '.join(specs) or 'no runs'}", "",
             f"{len(rows)} runs. Each cell: median wall time in seconds over up to {repetitions} repetitions, "
             "with the spread (min–max) of the finished runs; the time covers the whole queens.solvers.count or "
             "queens.solvers.solve call (lowering, solving, verifying every solution), not the process start. "
             "A run that hit its limit is counted beside the median, never in it; ✗ marks an answer that "
             "disagrees with the native ground truth.", "",
             *_machine(rows), ""]
    plots = Plots(out)
    for (task, family), configurations in sorted(_grouped(rows).items()):
        lines += [f"## {task}: {family}", "", "Wall time (s):", "", *table(configurations), ""]
        name = plots.time_vs_n(task, family, configurations)
        if name:
            lines += [f"![{task} {family}: time vs n]({name})", ""]
        lines += ["CPU time (s, this process and its children; above the wall time when a run "
                  "uses several cores, below it when other work shares the machine):", "",
                  *table(configurations, "cpu"), ""]
        name = plots.model_size(task, family, configurations)
        if name:
            lines += [f"![{task} {family}: model size vs n]({name})", ""]
    for task in sorted({row.task for row in rows}):
        name = plots.cactus(task, [row for row in rows if row.task == task])
        if name:
            lines += [f"![{task}: cactus plot]({name})", ""]
    lines += ["## Notes", "", *_notes(rows), ""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


class Style(TypedDict):
    """How one configuration's line looks in every plot."""

    color: tuple[float, float, float, float]
    marker: str


class Plots:
    """matplotlib figures, each saved as PNG and SVG; methods return the PNG's file name."""

    def __init__(self, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot

        self.out = out
        self.pyplot = pyplot

    def _style(self, names: list[str]) -> dict[str, Style]:
        """A colour per configuration (tab20 keeps a dozen apart) and a marker per backend."""
        colours = self.pyplot.get_cmap("tab20")  # a list of 20 colours: an integer picks one
        markers = {"native": "s", "cpsat": "o", "sat": "^", "csp": "D"}
        return {name: {"color": colours(i % colours.N), "marker": markers.get(name.split()[0], "o")}
                for i, name in enumerate(sorted(names))}

    def _finish(self, figure: Figure, axes: Axes, sizes: list[int], stem: str, **labels: str) -> str:
        axes.set(yscale="log", **labels)
        if sizes and max(sizes) >= 5 * min(sizes):
            axes.set_xscale("log")
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return self._save(figure, stem)

    def _save(self, figure: Figure, stem: str) -> str:
        figure.tight_layout()
        for suffix in FORMATS:
            figure.savefig(self.out / f"{stem}.{suffix}", dpi=110)
        self.pyplot.close(figure)
        return f"{stem}.png"

    def time_vs_n(self, task: str, family: str, configurations: ByConfiguration) -> str | None:
        figure, axes = self.pyplot.subplots(figsize=(9, 4.5))
        style = self._style(list(configurations))
        drawn = False
        for name in sorted(configurations):
            points = sorted((n, _median(_walls(runs))) for n, runs in configurations[name].items() if _walls(runs))
            limits = sorted((n, runs[0].time_limit) for n, runs in configurations[name].items()
                            if all(r.status == "timeout" for r in runs))
            if points:
                axes.plot(*zip(*points, strict=True), label=name, **style[name])
                drawn = True
            if limits:
                axes.plot(*zip(*limits, strict=True), linestyle="none", color=style[name]["color"], marker="x",
                          markersize=9, label=None if points else f"{name} (timed out)")
                drawn = True
        if not drawn:
            self.pyplot.close(figure)
            return None
        sizes = [n for by_n in configurations.values() for n in by_n]
        return self._finish(figure, axes, sizes, f"time-{task}-{family}", xlabel="n", ylabel="seconds (median)",
                            title=f"{task}: {family} (× at the limit: every repetition timed out)")

    def cactus(self, task: str, rows: list[Row]) -> str | None:
        by_configuration: dict[str, list[float]] = defaultdict(list)
        for row in rows:
            if row.status == "ok" and row.wall is not None:
                by_configuration[row.configuration].append(row.wall)
        if not by_configuration:
            return None
        figure, axes = self.pyplot.subplots(figsize=(9, 4.5))
        style = self._style(list(by_configuration))
        for name, times in sorted(by_configuration.items()):
            times.sort()
            axes.plot(range(1, len(times) + 1), times, label=name, markersize=3, **style[name])
        return self._finish(figure, axes, [], f"cactus-{task}", xlabel="runs finished", ylabel="seconds per run",
                            title=f"{task}: cactus plot (further right and lower is better)")

    def model_size(self, task: str, family: str, configurations: ByConfiguration) -> str | None:
        """Variables (solid), clauses (dashed) and constraints (dotted) of each configuration's model."""
        sizes: dict[tuple[str, str], dict[int, int]] = defaultdict(dict)
        for name, by_n in configurations.items():
            for n, runs in by_n.items():
                for measure in ("variables", "clauses", "constraints"):
                    value = next((getattr(r, measure) for r in runs if getattr(r, measure) and not r.split), None)
                    if value:  # a split run's sizes add up its subproblems: left out
                        sizes[name, measure][n] = value
        if not sizes:
            return None
        figure, axes = self.pyplot.subplots(figsize=(9, 4.5))
        style = self._style([name for name, _ in sizes])
        for (name, measure), counts in sorted(sizes.items()):
            points = sorted(counts.items())
            axes.plot(*zip(*points, strict=True), label=name if measure == "variables" else None,
                      linestyle={"variables": "-", "clauses": "--", "constraints": ":"}[measure], **style[name])
        ns = [n for by_n in sizes.values() for n in by_n]
        return self._finish(figure, axes, ns, f"size-{task}-{family}", xlabel="n", ylabel="count",
                            title=f"{task} {family}: model size (— variables, -- clauses, ··· constraints)")
