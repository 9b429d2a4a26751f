"""Board symmetries: which of the 8 (square) or 4 (rectangle) transforms map a model to itself.

The group is found, not declared: a transform belongs to it when it maps the model's cells,
lines, covers and fixed cells onto themselves. So a completion puzzle with an off-centre queen
gets a smaller group automatically, and no family has to state its symmetries by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from itertools import permutations, product

from queens.models.ir import ConstraintModel, Var
from queens.models.pieces import Cell


@dataclass(frozen=True)
class Transform:
    name: str
    apply: Callable[[Cell, int, int], Cell]

    def __call__(self, cell: Cell, rows: int, cols: int) -> Cell:
        return self.apply(cell, rows, cols)


_RECTANGLE = (
    Transform("identity", lambda p, n, m: p),
    Transform("rotate 180", lambda p, n, m: (n - 1 - p[0], m - 1 - p[1])),
    Transform("flip rows", lambda p, n, m: (n - 1 - p[0], p[1])),
    Transform("flip columns", lambda p, n, m: (p[0], m - 1 - p[1])),
)
_SQUARE_ONLY = (
    Transform("rotate 90", lambda p, n, m: (p[1], n - 1 - p[0])),
    Transform("rotate 270", lambda p, n, m: (n - 1 - p[1], p[0])),
    Transform("transpose", lambda p, n, m: (p[1], p[0])),
    Transform("anti-transpose", lambda p, n, m: (n - 1 - p[1], n - 1 - p[0])),
)


def board_transforms(rows: int, cols: int) -> tuple[Transform, ...]:
    """D4 on a square board, the Klein four-group on a rectangle."""
    return _RECTANGLE + _SQUARE_ONLY if rows == cols else _RECTANGLE


def symmetry_group(model: ConstraintModel) -> tuple[Transform, ...]:
    """The transforms under which `model` is invariant (always includes the identity)."""
    def signature(t: Transform) -> tuple[object, ...]:
        def image(cells: Iterable[Cell]) -> frozenset[Cell]:
            return frozenset(t(c, model.rows, model.cols) for c in cells)
        return (
            image(model.cells),
            frozenset((image(line.cells), line.bounds) for line in model.lines),
            frozenset(image(cover) for cover in model.covers),
            image(model.fixed),
        )
    reference = signature(_RECTANGLE[0])
    return tuple(t for t in board_transforms(model.rows, model.cols) if signature(t) == reference)


Mapping = Callable[[Var], Var]
Move = Callable[[Var], Var]


def _space_transforms(shape: tuple[int, ...]) -> list[Move]:
    """Every permutation of the axes followed by any flips: the 48 symmetries of a cube (and of
    a box, those that fit its sides survive `army_symmetry_group`'s check)."""
    transforms: list[Move] = []
    for order in permutations(range(len(shape))):
        for flips in product((False, True), repeat=len(shape)):
            def move(cell: tuple[int, ...], order: tuple[int, ...] = order,
                     flips: tuple[bool, ...] = flips) -> tuple[int, ...]:
                moved = [cell[axis] for axis in order]
                pairs = enumerate(zip(moved, flips, strict=True))
                return tuple(shape[i] - 1 - x if flip else x for i, (x, flip) in pairs)
            transforms.append(move)
    return transforms


def _plane_move(transform: Transform, shape: tuple[int, ...], cell: Var) -> Var:
    return transform(cell, shape[0], shape[1])


def army_symmetry_group(model: ConstraintModel, shape: tuple[int, ...], armies: int) -> list[Mapping]:
    """The maps of (army, cell) variables that keep a model with armies: a board symmetry
    together with a permutation of the armies (two armies of the same piece and count swap).
    Found, as for one army, by checking that the map carries the model onto itself.

    >>> from queens.models.armies import Army, ArmyPuzzle
    >>> from queens.models.army_lowering import lower_armies
    >>> peaceable = ArmyPuzzle((4, 4), (Army("w", goal="maximise"), Army("b", goal="maximise")), within=False)
    >>> len(army_symmetry_group(lower_armies(peaceable), (4, 4), 2))
    16
    """
    boards: list[Move]
    if len(shape) == 2:
        boards = [partial(_plane_move, t, shape) for t in board_transforms(*shape)]
    else:
        boards = _space_transforms(shape)
    reference = _army_signature(model, lambda var: var)
    group: list[Mapping] = []
    for board in boards:
        for order in permutations(range(armies)):
            def mapping(var: Var, board: Callable[..., Var] = board, order: tuple[int, ...] = order) -> Var:
                return (order[var[0]], board(var[1]))
            if _army_signature(model, mapping) == reference:
                group.append(mapping)
    return group


def _army_signature(model: ConstraintModel, mapping: Mapping) -> tuple[object, ...]:
    def image(cells: Iterable[Var]) -> frozenset[Var]:
        return frozenset(mapping(c) for c in cells)
    goals = model.objective.groups if model.objective else ()
    return (image(model.cells), frozenset((image(line.cells), line.bounds) for line in model.lines),
            frozenset(image(cover) for cover in model.covers), image(model.fixed),
            frozenset(image(group) for group in goals))


def canonical_armies(placement: Iterable[Var], group: list[Mapping]) -> tuple[Var, ...]:
    """The least image of a placement of (army, cell) variables under `group`: one
    representative per symmetry class."""
    cells = list(placement)
    return min(tuple(sorted(mapping(c) for c in cells)) for mapping in group)


def lex_leader_pairs(model: ConstraintModel) -> list[list[tuple[Var, Var]]]:
    """For each symmetry of `model` but the identity, the cells in `model.cells` order paired
    with their images (cells the transform keeps in place left out): what a lex-leader
    constraint compares. A solver that keeps only solutions no symmetry makes lexicographically
    larger (x >=lex x o t for every t) keeps one of each symmetry class, so a "yes or no" or an
    optimisation question loses nothing and searches up to |group| times less.

    >>> from queens.models import lower
    >>> from queens.models.families import of_size
    >>> pairs = lex_leader_pairs(lower(of_size("domination", 3)))
    >>> len(pairs), pairs[0][:2]
    (7, [((0, 0), (2, 2)), ((0, 1), (2, 1))])
    """
    group = [t for t in symmetry_group(model) if t.name != "identity"]
    return [[(c, t(c, model.rows, model.cols)) for c in model.cells if t(c, model.rows, model.cols) != c]
            for t in group]
