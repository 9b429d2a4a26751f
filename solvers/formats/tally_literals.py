"""A tally's terms (`queens.models.tally`) as the variable numbers a backend made for the cells:
what cpsat, the CNF encoder and the csp backend each post in their own constraints.

A cell without a variable (cleared by a fixed piece, `number` -1) is empty: a conjunction that
needs a piece there never holds and is left out; one that needs it empty loses that condition.

>>> import numpy as np
>>> from queens.models.ir import ConstraintModel
>>> from queens.models.tally import Conjunction, Tally
>>> model = ConstraintModel(1, 2, ((0, 0), (0, 1)), ())
>>> tally = Tally("attacking pairs", ((Conjunction(((0, 0), (0, 1))),),))
>>> term_literals(model, tally, np.array([4, -1]))
[[]]
"""

from __future__ import annotations

import numpy as np
from queens.models.ir import ConstraintModel, Var
from queens.models.tally import Tally
from queens.solvers.formats.cell_order import literals

TermLiterals = list[list[tuple[list[int], list[int]]]]
"""Per term, its conjunctions as (present, absent) variable numbers."""


def term_literals(model: ConstraintModel, tally: Tally, number: np.ndarray) -> TermLiterals:
    """Each term's live conjunctions (see the module docstring)."""
    variables = tally.variables
    found = literals(model, [variables], number)[0].tolist() if variables else []
    of: dict[Var, int] = dict(zip(variables, found, strict=True))
    terms: TermLiterals = []
    for term in tally.terms:
        live = []
        for conjunction in term:
            present = [of[v] for v in conjunction.present]
            if all(p >= 0 for p in present):
                live.append((present, [of[v] for v in conjunction.absent if of[v] >= 0]))
        terms.append(live)
    return terms
