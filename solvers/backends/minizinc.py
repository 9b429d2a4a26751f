"""The `minizinc` backend: the suite's own MiniZinc export, solved by the MiniZinc binary.

The model goes through `queens.solvers.formats.minizinc.minizinc_of` (the same text `queens export
--format mzn` writes), so the export is exercised by a real client: for n-queens and every
puzzle the textbook can say, the handbook's model (q[i] in 1..n, an alldifferent per keyed
family of lines); the generic row viewpoint or the Boolean x[cell] model otherwise. The
`minizinc` Python package runs the binary; any solver MiniZinc lists can be named
(`solver="chuffed"`), Gecode by default. Finding, enumerating (`all_solutions`) and minimising
(`solve minimize`) are one MiniZinc call each (`queens.solvers.backends.minizinc_call`: Ctrl-C
stops it, MiniZinc's solver included), with the time left as MiniZinc's own timeout; a cut-off
enumeration is reported with what it found as a lower bound.

Search and effort, in MiniZinc's names, so that a student moves between this backend, `queens
search` and a .mzn file without translating:

    get_backend("minizinc", var="first_fail", val="indomain_median")
    queens count nqueens -n 8 --backend minizinc --var first_fail --val indomain_median --json

`var` is one of `queens.solvers.formats.minizinc.VARIABLE_CHOICES` (input_order, first_fail,
smallest, largest, dom_w_deg, random), `val` one of its `VALUE_CHOICES` (indomain_min,
indomain_max, indomain_median, indomain_split, indomain_random); the half not given is
`DEFAULT_SEARCH`'s. The annotation goes into
the solve item exactly as given: `int_search(q, var, val)` on the row viewpoint, `bool_search(x,
var, val)` on the Boolean model, which refuses median and split (no middle in 0..1; `supports`
says so). `random` is Gecode's own choice (gecode.mzn), refused for another solver; Gecode's
random choices use its default seed, so a run repeats. Asked for no annotation, the backend
searches first_fail, indomain_median (`DEFAULT_SEARCH`).

Every answer carries the solver's statistics (`-s`, MiniZinc's `%%%mzn-stat:` lines) in
`Result.stats` under MiniZinc's names: `nodes`, `failures`, `solutions`, `propagations`,
`peakDepth`, `restarts`, `variables`, `propagators`, and its times in seconds (`flatTime`,
`initTime`, `solveTime`); `search` says the annotation, `model` which text Gecode solved.

The model Gecode solves is the text as written: MiniZinc hands Debian's Gecode 6.2, whose library
predates MiniZinc 2.3's fzn_ names, each alldifferent as pairwise disequalities (8-queens: 8
variables, 84 int_lin_ne), which is what the effort counts measure. Only to find one solution with
no annotation asked does the backend give Gecode its own global alldifferent back
(`global_alldifferent`), which finds large boards faster; counting keeps the decomposition,
which counts faster.

>>> from queens.models import NQueens, lower
>>> MiniZinc().supports(lower(NQueens(4))) is None or "MiniZinc" in MiniZinc().supports(lower(NQueens(4)))
True
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from datetime import timedelta
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from queens.models import ConstraintModel, Placement, TimeLimit, Unsupported
from queens.solvers.backend import Backend, seconds_left
from queens.solvers.formats.minizinc import Search, minizinc_of, row_viewpoint, textbook
from queens.solvers.runtime.extras import install_command

if TYPE_CHECKING:  # imported lazily at run time: the package is optional (supports() says when it is missing)
    import minizinc

DEFAULT_SOLVER = "gecode"
DEFAULT_SEARCH = Search("first_fail", "indomain_median")
"""The search when none is asked for. The handbook's indomain_min has a heavy tail on one
solution of a large board, where indomain_median goes almost straight down
(experiments/results/design-choices.md)."""
MZNLIB = Path(__file__).resolve().parent / "mznlib"
"""An include folder that gives a pre-2.3 solver library its own global alldifferent back
(`global_alldifferent`)."""


@functools.cache
def global_alldifferent(mznlib: str) -> bool:
    """Whether a solver whose library is `mznlib` (a solver configuration's field: a path, or
    -G<name> for a folder of MiniZinc's standard library) should be given `MZNLIB`: its library
    declares the builtin all_different_int but not MiniZinc 2.3's fzn_all_different_int, so
    MiniZinc would hand it the pairwise decomposition (Debian's Gecode 6.2 beside MiniZinc 2.6).

    Measured with Gecode 6.2 (experiments/results/defaults.md): one solution is found faster with
    the global constraint, the more so the larger the board (1000 queens decompose into 1.5 x 10^6
    disequalities); counting is slower with it, so it is given to find one solution only."""
    folder = Path(mznlib)
    if mznlib.startswith("-G"):
        dirs = subprocess.run(["minizinc", "--config-dirs"], capture_output=True, text=True, check=False)
        try:
            folder = Path(json.loads(dirs.stdout)["mznStdlibDir"]) / mznlib[2:]
        except (ValueError, KeyError):
            return False
    return (folder / "all_different_int.mzn").is_file() and not (folder / "fzn_all_different_int.mzn").is_file()


@functools.cache
def _missing() -> str | None:
    """Why MiniZinc itself cannot be used here (the binary or the Python package), or None."""
    if shutil.which("minizinc") is None:
        return "minizinc: the MiniZinc binary is not on PATH (Debian: apt-get install minizinc flatzinc)"
    if find_spec("minizinc") is None:
        return f"minizinc: the Python package is missing ({install_command('minizinc')})"
    return None


@functools.cache
def _lookup(name: str) -> minizinc.Solver | str:
    """The solver MiniZinc lists under `name` and can run, or why not (MiniZinc is there: `_missing`)."""
    import minizinc

    try:
        solver = minizinc.Solver.lookup(name)
    except LookupError:
        return f"minizinc: no solver {name!r} among those MiniZinc lists (minizinc --solvers)"
    probe = subprocess.run(["minizinc", "--solver", name, "-"], input="var 0..1: x; solve satisfy;",
                           capture_output=True, text=True, timeout=30, check=False)
    if probe.returncode != 0:  # listed is not loadable: Debian lists scip without its plugin
        return f"minizinc: solver {name!r} is listed but does not run here ({probe.stderr.strip()[:120]})"
    return solver


class _Solution(Protocol):
    """One solution of the exported model: minizinc-python builds its class at run time, with
    the model's output variables as attributes: `x` (`array[CELL] of var bool`) in the Boolean
    model, `q` in the row viewpoints (`array[1..rows] of var 1..cols` in the textbook model,
    `array[0..rows-1] of var 0..cols-1` in the generic one); the other is absent."""

    @property
    def x(self) -> Sequence[bool]: ...

    @property
    def q(self) -> Sequence[int]: ...


class MiniZinc(Backend):
    """Options: `solver`, a solver tag or id MiniZinc knows (`minizinc --solvers`); `var` and
    `val`, the search annotation in MiniZinc's names (see the module docstring)."""

    name = "minizinc"
    lex_from_cells = None
    """Gecode 6.2 pays more for the chains than the classes save on every count measured
    (experiments/results/defaults.md)."""
    split_from_cells = 196
    """Each subproblem is a MiniZinc call of its own, with its fixed cost before any search, so
    the split pays later than in-process backends: from Q(14) (experiments/results/defaults.md)."""

    def __init__(self, solver: str = DEFAULT_SOLVER, var: str | None = None, val: str | None = None) -> None:
        """Looks the solver and its library up at once: the calls that run in a forked child (a
        time limit) then share the answers instead of each asking MiniZinc again, a cost paid on
        every call (experiments/results/defaults.md, design-choices.md)."""
        super().__init__()
        self.solver_name = solver
        self.search = Search.of(var, val, DEFAULT_SEARCH)  # None: none asked for
        if _missing() is not None:  # said by `supports`: a backend not installed is not a bad option
            return
        found = _lookup(solver)
        if isinstance(found, str):  # a value MiniZinc cannot take, refused before any work like any other
            raise Unsupported(found)  # (the router then takes a strategy that can: mip for --solver scip)
        if self.search is not None and self.search.includes and not found.id.startswith("org.gecode"):
            raise Unsupported(f"minizinc: var=random is Gecode's own choice (gecode.mzn); solver {solver!r} "
                              "does not know it")
        if found.mznlib:
            global_alldifferent(found.mznlib)

    def supports(self, model: ConstraintModel) -> str | None:
        if model.beyond_lines:
            return (f"the MiniZinc export writes lines, covers, fixed pieces and sizes only; this model also asks "
                    f"{model.beyond_lines}")
        if model.numbering:
            return ("the MiniZinc export writes the cells of one 2-D board (x[r, c]); this model's variables are "
                    "(army, cell) pairs or 3-D cells")
        if model.objective is not None:
            return "the MiniZinc export writes no objective over armies' sizes (it minimises a piece count only)"
        if self.search is not None and self.search.boolean_refusal and row_viewpoint(model) is None:
            return f"minizinc: this puzzle is written in the Boolean model; {self.search.boolean_refusal}"
        return _missing()

    def _search(self, model: ConstraintModel) -> Search | None:
        """The annotation the model is written with: the one asked for, else `DEFAULT_SEARCH` on
        the row viewpoint and MiniZinc's default search on the Boolean model."""
        if self.search is not None or row_viewpoint(model) is None:
            return self.search
        return DEFAULT_SEARCH

    def _instance(self, model: ConstraintModel) -> minizinc.Instance:
        refusal = self.supports(model)
        if refusal:
            raise Unsupported(refusal)
        import minizinc
        from queens.solvers.backends.minizinc_call import driver

        search = self._search(model)
        text, data = minizinc_of(model, search=search)
        mzn = minizinc.Model()
        mzn.add_string(text)
        mzn.add_string(data)
        written = "textbook" if textbook(model) is not None else "rows" if row_viewpoint(model) else "Boolean"
        self._written = written  # how a solution reads (`_placement`)
        self.stats = {"solver": self.solver_name, "cells": len(model.cells),
                      "lines": sum(1 for _ in model.lines), "covers": len(model.covers), "model": written,
                      "search": "the solver's default" if search is None else search.annotation(
                          "x" if written == "Boolean" else "q", written == "Boolean")}
        return minizinc.Instance(self._solver(), mzn, driver())

    def _solver(self) -> minizinc.Solver:
        found = _lookup(self.solver_name)
        assert not isinstance(found, str)  # the constructor refused it
        return found

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._instance(model)

    def _run(self, model: ConstraintModel, deadline: float | None, **options: object) -> minizinc.Result:
        instance = self._instance(model)
        timeout = None
        if deadline is not None:
            timeout = timedelta(seconds=seconds_left(deadline, "minizinc: time limit reached before solving"))
        from minizinc.error import MiniZincWarning
        from queens.solvers.backends.minizinc_call import solve

        solver = self._solver()
        if (self.search is None and not options.get("all_solutions") and solver.mznlib
                and global_alldifferent(solver.mznlib)):  # an annotation asked: its effort on the text as written
            options["-I"] = str(MZNLIB)
        with warnings.catch_warnings():  # Debian's Gecode library redefines count.mzn: its packaging, not ours
            warnings.simplefilter("ignore", MiniZincWarning)
            if model.lex:  # half-reified cell tests leave a lex chain undecided where Gecode does not branch, and
                options["no-half-reifications"] = True  # it then reported solutions that break the chain (5 x 7 queens)
            result = solve(instance, timeout=timeout, **options)
        self.stats["status"] = result.status.name
        self.stats.update(statistics(result.statistics))
        return result

    @staticmethod
    def _placement(model: ConstraintModel, solution: _Solution, written: str) -> Placement:
        """The cells of `solution` in the model it was `written` in: textbook, rows or Boolean."""
        if written == "textbook":
            return tuple((r, c - 1) for r, c in enumerate(solution.q))  # q[i] in 1..cols
        if written == "rows":
            return tuple(enumerate(solution.q))  # q[r] in 0..cols-1: the column of row r's piece
        x = solution.x  # x[i] is cell (r, c) with i = r * cols + c (0-based here)
        return tuple(divmod(i, model.cols) for i, held in enumerate(x) if held)

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        return self._single(model, deadline)

    def minimise(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """MiniZinc's own `solve minimize sum(x)`: optimal only when MiniZinc says so."""
        return self._single(model, deadline)

    def _single(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        from minizinc import Status

        result = self._run(model, deadline)
        if result.status is Status.UNSATISFIABLE:
            return None
        if result.status in (Status.SATISFIED, Status.ALL_SOLUTIONS) and not model.minimise:
            return self._placement(model, result.solution, self._written)
        if result.status is Status.OPTIMAL_SOLUTION:
            return self._placement(model, result.solution, self._written)
        if result.status is Status.ERROR:
            raise Unsupported(f"minizinc ({self.solver_name}) failed on this model")
        raise TimeLimit("minizinc: time limit reached without a proved answer")

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        from minizinc import Status

        start = time.monotonic()
        result = self._run(model, deadline, all_solutions=True)
        found = result.solution or []
        written = self._written
        for solution in found:
            yield self._placement(model, solution, written)
        self.stats["solver_wall_time"] = round(time.monotonic() - start, 6)
        if result.status is Status.ERROR:
            raise Unsupported(f"minizinc ({self.solver_name}) failed on this model")
        if result.status not in (Status.ALL_SOLUTIONS, Status.UNSATISFIABLE):
            raise TimeLimit("minizinc: time limit reached while enumerating", partial=len(found))


def statistics(found: Mapping[str, object]) -> dict[str, int | float]:
    """The solver's statistics as MiniZinc names them (`nodes`, `failures`, `solutions`,
    `propagations`, `peakDepth`, ...): counts as they are, times in seconds, text left out.

    >>> statistics({"nodes": 767, "method": "satisfy", "solveTime": timedelta(milliseconds=16)})
    {'nodes': 767, 'solveTime': 0.016}
    """
    stats: dict[str, int | float] = {}
    for key, value in found.items():
        if isinstance(value, timedelta):
            stats[key] = round(value.total_seconds(), 6)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            stats[key] = value
    return stats
