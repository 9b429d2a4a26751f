"""What each backend answers, construct by construct: the table in docs/support.md, generated from
the router's own refusals (each strategy's `supports()`), never written by hand.

A construct is shown by one small puzzle that uses it (a published puzzle's file where there is
one). For each backend the router is asked, for that backend only, to route the puzzle's task: a
route is a "yes" (with the method that answers), a refusal its reason. So the table says what a
user would get, and changes the day a backend learns a construct.

>>> rows = support_rows(backends=("cpsat",))
>>> rows[0][0], rows[0][1]["cpsat"]
('one army, pieces that do not attack', 'yes (search)')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from queens.models.armies import Army
from queens.models.errors import Refused
from queens.models.nqueens import NQueens
from queens.models.pieces import KNIGHT, PIECES_ON, QUEEN, ROOK
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import PUBLISHED, read
from queens.models.rules import Region
from queens.solvers.registry import BACKENDS
from queens.solvers.routing.router import route, task_of
from queens.solvers.routing.strategy import Subject


def _file(stem: str, n: int) -> Callable[[], Puzzle]:
    return lambda: read(PUBLISHED / f"{stem}.toml", n).puzzle


CONSTRUCTS: dict[str, Callable[[], Puzzle]] = {
    "one army, pieces that do not attack": lambda: NQueens(6),
    "several armies": lambda: Puzzle(shape=(4, 4), armies=(Army("white", least=2, most=2),
                                                           Army("black", least=2, most=2)), within=False),
    "a cube": lambda: Puzzle(shape=(3, 3, 3), armies=(Army("queens", PIECES_ON[3]["queen"], least=4, most=4),)),
    "cell sets by condition, bounds on regions (A007016)": _file("A007016-one-per-main-diagonal", 5),
    "missing squares": lambda: Puzzle(rows=4, cols=4, piece=KNIGHT, pieces=None, cover=True,
                                      missing={(1, 1), (2, 2)}),
    "a total cover (A261752)": _file("A261752-total-knight-domination", 4),
    "a cover by one army": lambda: Puzzle(shape=(4, 4), armies=(Army("queens", goal="minimise"),
                                                                Army("rooks", ROOK, least=1, most=1)),
                                          cover=True, cover_by=0, within=False, between=False),
    "pieces that block, placed by the solver (A103330)": _file("A103330-queens-and-a-pawn", 5),
    "bounds on attacks (A260113)": _file("A260113-attacking-at-most-one", 4),
    "a goal on the total (A006317)": _file("A006317-three-colours", 3),
    "solutions a symmetry keeps (A033148)": _file("A033148-quarter-turn-queens", 5),
    "a twisted wrap: a Moebius strip (A137279)": _file("A137279-moebius-queens", 5),
    "a region of one army": lambda: Puzzle(rows=5, cols=5, piece=QUEEN, pieces=5,
                                           regions=(Region(frozenset({(0, 0), (4, 4)}), 1, 1, 0),)),
    "connected armies (A370428)": _file("A370428-connected-king-domination", 4),
    "private squares (A075709)": _file("A075709-upper-irredundance-kings", 4),
}
"""Each construct of the puzzle language, by a small puzzle that uses it."""


def answer_of(puzzle: Puzzle, backend: str) -> str:
    """"yes (method)" when the router answers the puzzle's task with `backend`, else what the
    backend's own search lacks (its other methods serve other kinds of puzzle)."""
    task, subject = task_of(puzzle), Subject(puzzle)
    try:
        return f"yes ({route(task, subject, backend=backend).strategy.method})"
    except Refused as refused:
        reasons = refused.reasons
    try:
        route(task, subject, backend=backend, method="search")
    except Refused as searched:
        reasons = searched.reasons
    return "no: " + "; ".join(reasons).removeprefix(f"{backend}: ").replace("|", "/")


def support_rows(backends: Iterable[str] = BACKENDS) -> list[tuple[str, dict[str, str]]]:
    """Per construct, each backend's answer (`answer_of`)."""
    names = list(backends)
    return [(construct, {name: answer_of(build(), name) for name in names}) for construct, build in CONSTRUCTS.items()]


def support_table() -> str:
    """The markdown table of docs/support.md."""
    names = list(BACKENDS)
    lines = ["| construct | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for construct, answers in support_rows(names):
        lines.append(f"| {construct} | " + " | ".join(answers[name] for name in names) + " |")
    return "\n".join(lines) + "\n"
