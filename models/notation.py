"""Linear expressions as a learner writes them: `r - c`, `q[r] + r`, `(r + c) mod 5`.

One writer for every formula the suite prints about lines: `queens explain`'s constraint groups
(a line's key in r and c) and the row viewpoint's AllDifferent (the same key in q[r] and r,
`queens.models.row_viewpoint`), so one key reads the same wherever it is printed.

>>> linear_text(((1, "q[r]"), (-1, "r")))
'q[r] - r'
>>> key_text(LinearKey(-1, -1, 5))
'(r + c) mod 5'
"""

from __future__ import annotations

from collections.abc import Sequence

from queens.models.ir import LinearKey


def linear_text(terms: Sequence[tuple[int, str]], modulus: int | None = None) -> str:
    """The sum of `terms` (coefficient, name), zero terms left out, unit coefficients unwritten,
    and "mod m" after it on a torus.

    >>> linear_text(((0, "r"), (-1, "c"))), linear_text(((1, "q[r]"), (2, "r")), 7)
    ('-c', '(q[r] + 2r) mod 7')
    """
    written = [(coefficient, name) for coefficient, name in terms if coefficient]
    text = ""
    for coefficient, name in written:
        term = ("" if abs(coefficient) == 1 else str(abs(coefficient))) + name
        if not text:
            text = ("-" if coefficient < 0 else "") + term
        else:
            text += (" - " if coefficient < 0 else " + ") + term
    text = text or "0"
    if not modulus:
        return text
    return f"({text}) mod {modulus}" if len(written) > 1 else f"{text} mod {modulus}"


def key_text(key: LinearKey) -> str:
    """a*r + b*c with its first coefficient positive (the same lines): (0, -1) -> 'c', (-1, -1) -> 'r + c'.

    >>> key_text(LinearKey(1, -1, None)), key_text(LinearKey(0, -1, None))
    ('r - c', 'c')
    """
    key = normalised(key)
    return linear_text(((key.a, "r"), (key.b, "c")), key.modulus)


def normalised(key: LinearKey) -> LinearKey:
    """The same lines' key with its first coefficient positive: a reader's r - c, not c - r.

    >>> normalised(LinearKey(-1, -1, None))
    LinearKey(a=1, b=1, modulus=None)
    """
    if key.a < 0 or (key.a == 0 and key.b < 0):
        return LinearKey(-key.a, -key.b, key.modulus)
    return key
