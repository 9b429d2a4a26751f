"""One exception hierarchy for the whole suite.

It lives in `models` because every other package imports `models`; the CLI turns each of
these into a one-line message and an exit code, so a user never sees a traceback.
"""

from __future__ import annotations


class QueensError(Exception):
    """Base of every error the suite raises on purpose."""


class InvalidBoard(QueensError):
    """The board itself is unusable: a side <= 0, a non-square torus, a board too large."""


class OffBoard(QueensError):
    """A cell (a queen, a pawn, a blocked cell) lies outside the board."""


class AttackingQueens(QueensError):
    """Two pre-placed pieces attack each other, so no completion can exist."""

    def __init__(self, first: tuple[int, int], second: tuple[int, int]) -> None:
        super().__init__(f"pre-placed pieces at {first} and {second} attack each other")
        self.first = first
        self.second = second


class InvalidPlacement(QueensError):
    """A placement breaks the puzzle's rules (the checker says which rule and where)."""


class BackendUnavailable(QueensError):
    """A backend's package or extension is not installed or failed to import."""


class NativeMissing(BackendUnavailable):
    """The C extensions were not built, or were refused (QUEENS_NO_NATIVE=1): the CLI says how
    to rebuild them and exits 2, as for a usage error, since nothing was attempted."""


class MissingExtra(BackendUnavailable):
    """An optional part (`--certify`, the report's plots, Dask, MiniZinc, PNG pictures) whose
    packages are not installed: the message names the extra that installs them
    (`queens.solvers.runtime.extras`). Refused before any work, so a usage error, exit 2."""

    exit_code = 2


class Unsupported(QueensError):
    """A backend cannot handle this model's shape or size (it says what it lacks)."""


class BadOption(Unsupported):
    """An option that cannot apply (a --viewpoint the backend lacks, a value it does not know):
    a usage error, exit 2, whichever backend or option it is."""


class Refused(Unsupported):
    """Nothing that was asked can answer: `reasons` holds each distinct reason, short enough
    for a table cell ("n/a (reason)"). Nothing was attempted, so the CLI exits 2, as for a
    usage error."""

    exit_code = 2

    def __init__(self, message: str, reasons: tuple[str, ...]) -> None:
        super().__init__(message)
        self.reasons = reasons


class MalformedInput(QueensError):
    """A file or argument could not be parsed (the message names the line or token)."""


class BackendError(QueensError):
    """A backend misbehaved: it failed, or returned a duplicate solution."""


class TimeLimit(QueensError):
    """A search stopped at its time limit before it finished.

    `partial` is what was counted so far, when the search counted: a lower bound; `bound`, when
    the search minimised, the fewest pieces not yet refuted: a lower bound on the optimum.
    """

    def __init__(self, message: str, partial: int | None = None, bound: int | None = None) -> None:
        super().__init__(message)
        self.partial = partial
        self.bound = bound


class OutputError(QueensError):
    """An answer, a file or a picture could not be written: the message names the path (or
    stdout) and the reason the system gave ("cannot write /proc/version: Input/output error").
    Raised by `queens.models.output`, the one writer; exit 1."""


class InvalidNumber(MalformedInput):
    """A number that is not of its kind (a count, a size, seconds, a cell) or outside its range:
    NaN, infinity, 2^64 - 1, 2.5 pieces. Raised once, at the boundary, by `queens.models.numbers`,
    naming the field and the value; a usage error (exit 2), since nothing was attempted."""

    exit_code = 2
