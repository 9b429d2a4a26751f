"""queens: a constraint-programming modelling suite for the N-Queens family.

What the common tasks need is one import away, typed (the wheel ships `py.typed`):

>>> import queens
>>> queens.count(queens.NQueens(8)).count
92
>>> peaceable = queens.Puzzle(shape=(5, 5), armies=(queens.Army("white", count="maximise"),
...                                                  queens.Army("black", count="maximise")), within=False)
>>> queens.optimise(peaceable).objective
4
>>> queens.family("peaceable", 5).armies[0].name
'white'

- puzzles: `Puzzle` and `Army` (the puzzle file's keys as keywords), the families (`NQueens`,
  `Completion`, `Domination`, ... or any registry family by name: `family("cube", 4)`),
  `load` (a puzzle file), the pieces (`QUEEN`, `ROOK`, ...);
- answers: `solve`, `count`, `optimise`, `solutions`, each a `Result` (with `Status`) that draws
  its board(s) in Jupyter; `verify` checks a placement;
- pictures: `Board` (text, SVG, PNG), `HeatMap` and `heat_map`;
- teaching: `search`, one search by the teaching engine with MiniZinc's orders and a propagation
  level, its effort counted and its tree drawn (docs/search-strategies.md);
- `QueensError`, the base of every error the suite raises on purpose; `__version__`.

Names are imported when first used (`__getattr__`), so `import queens` costs nothing until then
(the console script imports this package before it installs its signal handlers).

One import package holds the design card's folders: `queens.models` (models/: what to solve),
`queens.solvers` (solvers/: how), `queens.experiments` (experiments/: measurements), beside the
command line in this folder. The mapping lives in pyproject.toml (`package-dir`), so an installed
wheel adds the single top-level name `queens` and never shadows another project's `models`.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from queens.models.armies import Army as Army
    from queens.models.check import verify as verify
    from queens.models.completion import Completion as Completion
    from queens.models.domination import Domination as Domination
    from queens.models.drawing import Board as Board
    from queens.models.drawing import HeatMap as HeatMap
    from queens.models.errors import QueensError as QueensError
    from queens.models.families import FAMILIES as FAMILIES
    from queens.models.ninequeens import FreePawns as FreePawns
    from queens.models.ninequeens import NineQueens as NineQueens
    from queens.models.nqueens import NQueens as NQueens
    from queens.models.pieces import BISHOP as BISHOP
    from queens.models.pieces import KING as KING
    from queens.models.pieces import KNIGHT as KNIGHT
    from queens.models.pieces import PIECES as PIECES
    from queens.models.pieces import QUEEN as QUEEN
    from queens.models.pieces import ROOK as ROOK
    from queens.models.pieces import SUPERQUEEN as SUPERQUEEN
    from queens.models.pieces_families import Bishops as Bishops
    from queens.models.pieces_families import Kings as Kings
    from queens.models.pieces_families import Knights as Knights
    from queens.models.pieces_families import RectangularQueens as RectangularQueens
    from queens.models.pieces_families import Rooks as Rooks
    from queens.models.puzzle import Puzzle as Puzzle
    from queens.models.superqueens import Superqueens as Superqueens
    from queens.models.toroidal import Toroidal as Toroidal
    from queens.solvers.api import solutions as solutions
    from queens.solvers.learn.heat_map import heat_map as heat_map
    from queens.solvers.learn.teaching import search as search
    from queens.solvers.result import Result as Result
    from queens.solvers.result import Status as Status

    __version__: str

_HOME = {
    "Army": "queens.models.armies", "verify": "queens.models.check", "Completion": "queens.models.completion",
    "Domination": "queens.models.domination", "Board": "queens.models.drawing", "HeatMap": "queens.models.drawing",
    "QueensError": "queens.models.errors", "FAMILIES": "queens.models.families",
    "FreePawns": "queens.models.ninequeens", "NineQueens": "queens.models.ninequeens",
    "NQueens": "queens.models.nqueens", **dict.fromkeys(("BISHOP", "KING", "KNIGHT", "PIECES", "QUEEN", "ROOK",
                                                         "SUPERQUEEN"), "queens.models.pieces"),
    **dict.fromkeys(("Bishops", "Kings", "Knights", "RectangularQueens", "Rooks"), "queens.models.pieces_families"),
    "Puzzle": "queens.models.puzzle", "Superqueens": "queens.models.superqueens", "Toroidal": "queens.models.toroidal",
    "solutions": "queens.solvers.api", "heat_map": "queens.solvers.learn.heat_map",
    "search": "queens.solvers.learn.teaching",
    "Result": "queens.solvers.result", "Status": "queens.solvers.result",
}
"""Where each name of the user API lives: imported when first asked for (PEP 562)."""

__all__ = sorted([*_HOME, "__version__", "count", "family", "load", "optimise", "solve"])


def __getattr__(name: str) -> Any:
    """A name of the user API, from its module (called only for names not yet bound here)."""
    if name == "__version__":
        from queens.solvers.result import suite_version

        return suite_version()
    if name not in _HOME:
        raise AttributeError(f"module 'queens' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

CARD_FOLDERS = ("models", "solvers", "experiments")
"""The card's folders, mapped as queens.<folder>: the same table as pyproject's package-dir."""


class _SourceTree(importlib.abc.MetaPathFinder):
    """Finds queens.models/.solvers/.experiments in the source tree beside this folder.

    An installed wheel has them inside queens/, and an editable install maps them with its own
    finder; a copy of the tree run from PYTHONPATH alone has neither (make test-asan builds the
    extensions with sanitizers in a scratch copy), so this finder maps them to that copy.
    """

    def __init__(self, root: str) -> None:
        self.root = root

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, folder = fullname.partition(".")
        if package != "queens" or folder not in CARD_FOLDERS:
            return None
        location = os.path.join(self.root, folder)
        return importlib.util.spec_from_file_location(fullname, os.path.join(location, "__init__.py"),
                                                      submodule_search_locations=[location])


_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if all(os.path.isfile(os.path.join(_root, folder, "__init__.py")) for folder in CARD_FOLDERS):
    sys.meta_path.insert(0, _SourceTree(_root))


def family(name: str, n: int, m: int | None = None, **flags: Any) -> Puzzle:
    """The registry family `name` (`FAMILIES`: the CLI's FAMILY) on an n x n board (n x m with
    `m`), with its flags as keywords, as the command line gives them (`family("completion", 8,
    queens="0,0")`, `family("ninequeens", 8, pawns=1)`); a flag the family does not take is refused."""
    from queens.models.families import FAMILIES, FamilyOptions, build

    if not isinstance(name, str):
        raise TypeError(f"name must be a family's name (one of {', '.join(FAMILIES)}), got {type(name).__name__}")
    given = frozenset(flags) | ({"m"} if m is not None else frozenset())
    return build(name, FamilyOptions(n, m, given=given, **flags))


def load(path: str | os.PathLike[str], n: int | None = None, **parameters: int) -> Puzzle:
    """The puzzle a puzzle file describes (docs/puzzle-files.md), for the parameter `n` and any
    others it declares (`queens.load("board.toml", n=8, m=5)`): the same `Puzzle` a shipped
    family builds, ready for `queens.solve` / `count` / `optimise`."""
    from queens.models.puzzle_file import load as load_file

    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a puzzle file's path (str or os.PathLike), got {type(path).__name__}")
    return load_file(path, n, **parameters)


def solve(puzzle: Puzzle, backend: str | None = None, *, certify: bool = False, proof_dir: str | None = None,
          **options: object) -> Result:
    """One answer to any puzzle (its optimum when it has a goal), by the strategy the CLI picks;
    `backend=`, `method=`, `time_limit=` and the backends' own options narrow it
    (`queens.solvers.routing.router.solve`). `certify=True` proves a "no" or an optimum
    (`result.certificate`, docs/certificates.md), whichever backend answered."""
    from dataclasses import replace
    from pathlib import Path

    from queens.solvers.proofs.certificate import certify_answer
    from queens.solvers.routing.router import solve as routed

    result = routed(puzzle, backend, **options)  # type: ignore[arg-type]
    if not certify:
        return result
    return replace(result, certificate=certify_answer(puzzle, result, None if proof_dir is None else Path(proof_dir)))


def count(puzzle: Puzzle, backend: str | None = None, **options: object) -> Result:
    """How many solutions (optimal ones, with a goal), by the fastest exact strategy
    (`queens.solvers.routing.router.count`); `unique=True` counts symmetry classes too."""
    from queens.solvers.routing.router import count as routed

    return routed(puzzle, backend, **options)  # type: ignore[arg-type]


def optimise(puzzle: Puzzle, backend: str | None = None, **options: object) -> Result:
    """The optimum of a puzzle with a goal, with its proof (`queens.solvers.routing.router.optimise`)."""
    from queens.solvers.routing.router import optimise as routed

    return routed(puzzle, backend, **options)  # type: ignore[arg-type]
