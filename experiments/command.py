"""`queens bench run SPEC` and `queens bench report`: the experiments, from the command line.

It lives with the experiments, which may import anything (the command line's helpers too),
and the command line names it in `queens.cli.COMMANDS`: the CLI itself imports only solvers
and models (tests/layers.py), and this command is loaded only when `queens bench` runs.

The grid's progress goes to stderr, one line per finished run; the results go to SQLite
(`--db`, by default results.sqlite in the spec's `report` directory, else here), and the
report (report.md with PNG/SVG plots) next to the database unless `--out` says otherwise.
Exit 3 when an answer disagrees with the native ground truth, as `queens count` does.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import click
from queens.models import MalformedInput

from queens.commands.common import DISAGREES, err, group, out

DATABASE = "results.sqlite"


@group("bench", examples=(
    "queens bench run experiments/specs/tiny.toml --db tiny.sqlite   # a small grid, stored",
    "queens bench report --db tiny.sqlite --out report/              # report.md and its plots",
))
def bench_command() -> None:
    """Compare backends: run an experiment spec, then report on the stored results."""


@bench_command.command("run", examples=(
    "queens bench run experiments/specs/tiny.toml --db tiny.sqlite",
    "queens bench run experiments/specs/default.toml --dask local   # the grid on a local Dask cluster",
))
@click.argument("spec_path", metavar="SPEC", type=click.Path(path_type=Path))
@click.option("--db", type=click.Path(path_type=Path), default=None,
              help=f"Results database [default: {DATABASE} in the spec's report directory, else here].")
@click.option("--dask", "dask_address", metavar="local|ADDRESS", default=None,
              help="Run the grid on Dask: a local cluster, or the scheduler at ADDRESS.")
def run_command(spec_path: Path, db: Path | None, dask_address: str | None) -> int:
    """Run every run of SPEC not yet stored (an interrupted grid resumes where it stopped)."""
    from queens.experiments.dask_grid import dask_executor
    from queens.experiments.report import flagged
    from queens.experiments.runner import run_grid, sequential
    from queens.experiments.spec import load
    from queens.experiments.store import Store

    spec = load(spec_path)
    path = db or (spec.report / DATABASE if spec.report else Path(DATABASE))
    store = Store(path)
    try:
        with dask_executor(dask_address) if dask_address else nullcontext(sequential) as executor:
            tally = run_grid(spec, store, executor, progress=lambda line: err.print(line, markup=False))
        wrong = flagged(store.rows(spec.name))
    finally:
        store.close()
    summary = ", ".join(f"{k} {status}" for status, k in sorted(tally.items())) or "nothing new to run"
    out.print(f"{spec.name}: {summary}; results in {path}", markup=False)
    if wrong:
        err.print(f"{len(wrong)} answers disagree with the native ground truth (see `queens bench report`)")
        return DISAGREES
    return 0


@bench_command.command("report", examples=(
    "queens bench report --db tiny.sqlite --out report/",
    "queens bench report --db results.sqlite --spec default   # one spec's runs",
))
@click.option("--db", type=click.Path(path_type=Path), default=Path(DATABASE), show_default=True,
              help="Results database.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Directory for report.md and the plots [default: the database's directory].")
@click.option("--spec", "spec_name", default=None, help="Only this spec's runs (by its name).")
@click.option("--no-plots", "no_plots", is_flag=True,
              help="The tables alone: no plots drawn, and no matplotlib needed (the `plots` extra).")
def report_command(db: Path, out_dir: Path | None, spec_name: str | None, no_plots: bool) -> int:
    """Write report.md (a table per task) and its plots from the stored results."""
    from queens.experiments.report import flagged, write
    from queens.experiments.store import Store

    if not db.is_file():
        raise MalformedInput(f"no results database at {db}; run `queens bench run SPEC` first")
    store = Store(db)
    try:
        path = write(store, out_dir or db.parent, spec_name, plots=not no_plots)
        wrong = flagged(store.rows(spec_name))
    finally:
        store.close()
    out.print(f"report written to {path}", markup=False)
    return DISAGREES if wrong else 0
