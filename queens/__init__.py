"""queens: a constraint-programming modelling suite for the N-Queens family.

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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from queens.models import Puzzle
    from queens.solvers import Result

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


def load(path: str | os.PathLike[str], n: int | None = None, **parameters: int) -> Puzzle:
    """The puzzle a puzzle file describes (docs/puzzle-files.md), for the parameter `n` and any
    others it declares (`queens.load("board.toml", n=8, m=5)`): the same `Puzzle` a shipped
    family builds, ready for `queens.solve` / `count` / `optimise`."""
    from queens.models.puzzle_file import load as load_file

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
