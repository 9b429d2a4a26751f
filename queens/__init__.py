"""queens: a constraint-programming modelling suite for the N-Queens family.

One import package holds the design card's folders: `queens.models` (models/: what to solve),
`queens.solvers` (solvers/: how), `queens.experiments` (experiments/: measurements), beside the
command line in this folder. The mapping lives in pyproject.toml (`package-dir`), so an installed
wheel adds the single top-level name `queens` and never shadows another project's `models`.
"""

import os

_checkout = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if all(os.path.isfile(os.path.join(_checkout, folder, "__init__.py")) for folder in ("models", "solvers")):
    # a source tree (not an installed wheel): the same mapping, so a copy of the tree runs from
    # PYTHONPATH alone with its own compiled extensions (make test-asan builds one in a scratch copy)
    __path__.append(_checkout)
