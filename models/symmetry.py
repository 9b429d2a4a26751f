"""Board symmetries: which of the 8 (square) or 4 (rectangle) transforms map a model to itself.

The group is found, not declared: a transform belongs to it when it maps the model's cells,
lines, covers and fixed cells onto themselves. So a completion puzzle with an off-centre queen
gets a smaller group automatically, and no family has to state its symmetries by hand.

Counting uses the group to look at one solution per symmetry class: `lex_leader` adds to the
model the constraints "the cells, read in `lex_order`, are lexicographically at least their image
under every symmetry" (X >=lex sigma(X), a piece above an empty cell), so a backend that compiles
them enumerates only each class's leader, and `Orbits` says how many solutions each stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import astuple, dataclass, replace
from functools import lru_cache, partial
from itertools import permutations, product

from queens.models.ir import Clause, ConstraintModel, LexChain, LexLeader, Side, Var
from queens.models.pieces import Cell
from queens.models.puzzle import Puzzle
from queens.models.tally import Tally


@dataclass(frozen=True)
class Transform:
    name: str
    apply: Callable[[Cell, int, int], Cell]

    def __call__(self, cell: Cell, rows: int, cols: int) -> Cell:
        return self.apply(cell, rows, cols)

    def __reduce__(self) -> tuple[Callable[[str], Transform], tuple[str]]:
        """Pickled by name (its function is a lambda): the split hands a group to its processes."""
        return transform_named, (self.name,)


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


def transform_named(name: str) -> Transform:
    return next(t for t in _RECTANGLE + _SQUARE_ONLY if t.name == name)


def board_transforms(rows: int, cols: int) -> tuple[Transform, ...]:
    """D4 on a square board, the Klein four-group on a rectangle."""
    return _RECTANGLE + _SQUARE_ONLY if rows == cols else _RECTANGLE


def symmetry_group(model: ConstraintModel) -> tuple[Transform, ...]:
    """The transforms under which `model` is invariant (always includes the identity). Its
    clauses are compared by what they mean (`Implications`): "invariant under a quarter turn" is
    written as a piece here means a piece a quarter turn on, which a reflection writes a quarter
    turn back; both say the same orbits hold pieces alike, so a reflection keeps the puzzle.
    """
    meaning = Implications.of(model.clauses)

    def signature(t: Transform) -> tuple[object, ...]:
        def image(cells: Iterable[Cell]) -> frozenset[Cell]:
            return frozenset(t(c, model.rows, model.cols) for c in cells)
        return (
            image(model.cells),
            frozenset((image(line.cells), line.bounds) for line in model.lines),
            frozenset(image(cover) for cover in model.covers),
            image(model.fixed),
            meaning.image(lambda c: t(c, model.rows, model.cols)),
            frozenset((t(k.when, model.rows, model.cols), frozenset(image(g) for g in k.groups), k.at_least, k.at_most)
                      for k in model.counts),
        )
    reference = signature(_RECTANGLE[0])
    return tuple(t for t in board_transforms(model.rows, model.cols) if signature(t) == reference)


@dataclass(frozen=True)
class Implications:
    """A model's clauses by what they mean, so that two writings of one rule compare equal: the
    one-literal clauses and what they force through the two-literal implications "a piece on x
    means a piece on y" (`Clause((y,), (x,))`), the other implications as what each variable
    reaches (their transitive closure: two sets of implications with the same closure allow the
    same placements), and every longer clause as written. Mapped by a symmetry (`image`), it
    is the meaning of the mapped clauses.

    The rule it is for: solutions invariant under a group H of board symmetries are written as
    one implication per cell and generator of H (`queens.models.lowering`), each cell's
    orbit a cycle. A symmetry t carries them to implications along t H t^-1; when t maps H to
    itself (or only its orbits to orbits), the closure, each orbit's cells reaching each other,
    is the same, and so t keeps the puzzle, as issue 37 asked: quarter-turn solutions are kept
    by all 8 symmetries of the square.

    >>> from queens.models.ir import Clause
    >>> turn = [Clause(((0, 1),), ((0, 0),)), Clause(((1, 1),), ((0, 1),)), Clause(((0, 0),), ((1, 1),))]
    >>> back = [Clause(((0, 0),), ((0, 1),)), Clause(((0, 1),), ((1, 1),)), Clause(((1, 1),), ((0, 0),))]
    >>> Implications.of(turn) == Implications.of(back)
    True
    >>> from queens.models.pieces import PIECES
    >>> len(puzzle_group(Puzzle(rows=8, cols=8, pieces=8, piece=PIECES["rook"], invariant=("quarter turn",))))
    8
    """

    forced: frozenset[tuple[Var, bool]]
    reach: frozenset[tuple[Var, frozenset[Var]]]
    others: frozenset[tuple[frozenset[Var], frozenset[Var]]]

    @classmethod
    def of(cls, clauses: Iterable[Clause]) -> Implications:
        edges: dict[Var, set[Var]] = {}
        backward: dict[Var, set[Var]] = {}
        forced: dict[Var, bool] = {}
        others = set()
        for clause in clauses:
            if len(clause.present) == len(clause.absent) == 1:
                edges.setdefault(clause.absent[0], set()).add(clause.present[0])
                backward.setdefault(clause.present[0], set()).add(clause.absent[0])
            elif len(clause.present) + len(clause.absent) == 1:
                forced[(clause.present or clause.absent)[0]] = bool(clause.present)
            else:
                others.add((frozenset(clause.present), frozenset(clause.absent)))
        _propagate(forced, edges, backward)
        reach = {var: _reached(var, edges, forced) for var in edges if var not in forced}
        return cls(frozenset(forced.items()), frozenset((v, r) for v, r in reach.items() if r),
                   frozenset(others))

    def image(self, move: Callable[[Var], Var]) -> tuple[object, ...]:
        """The meaning of the clauses mapped by `move`, comparable with `image` of another map."""
        return (frozenset((move(v), value) for v, value in self.forced),
                frozenset((move(v), frozenset(map(move, r))) for v, r in self.reach),
                frozenset((frozenset(map(move, p)), frozenset(map(move, a))) for p, a in self.others))


def _propagate(forced: dict[Var, bool], edges: dict[Var, set[Var]], backward: dict[Var, set[Var]]) -> None:
    """What the one-literal clauses force through the implications: a piece on x forces one on
    every y that x implies; an empty y empties every x that implies it."""
    stack = list(forced.items())
    while stack:
        var, value = stack.pop()
        for other in (edges if value else backward).get(var, ()):
            if other not in forced:
                forced[other] = value
                stack.append((other, value))


def _reached(start: Var, edges: dict[Var, set[Var]], forced: dict[Var, bool]) -> frozenset[Var]:
    """The variables `start` implies, directly or not, that nothing forces."""
    seen: set[Var] = set()
    stack = [start]
    while stack:
        for other in edges.get(stack.pop(), ()):
            if other not in seen and other not in forced:
                seen.add(other)
                stack.append(other)
    return frozenset(seen)


def lex_order(model: ConstraintModel) -> tuple[Var, ...]:
    """The cells middle rows first, and in each row centre columns first: the order a search that
    places pieces row by row does best in (Q(13) by cpsat: much faster than in board order,
    experiments/results/symmetry.md), so the lex chains read cells in it too.

    >>> from queens.models import NQueens, lower
    >>> lex_order(lower(NQueens(4)))[:5]
    ((1, 1), (1, 2), (1, 0), (1, 3), (2, 1))
    """
    return tuple(sorted(model.cells, key=partial(_middle_first, (model.rows, model.cols))))


def _middle_first(shape: tuple[int, ...], cell: tuple[int, ...]) -> tuple[int, ...]:
    """The rank of `cell` in `lex_order`, on a board of any dimension: each coordinate in turn,
    nearest the middle first."""
    return tuple(key for x, side in zip(cell, shape, strict=True) for key in (abs(2 * x - (side - 1)), x))


def army_lex_order(model: ConstraintModel, shape: tuple[int, ...]) -> tuple[Var, ...]:
    """The (army, cell) variables army by army, each army's cells in `lex_order`'s order: the
    chain of a swap of two armies then reads "at the first cell where they differ, the first
    army holds the piece" (with one piece per cell: the first army's first piece comes first).

    >>> from queens.models.lowering import lower
    >>> from queens.models.families import build, FamilyOptions
    >>> army_lex_order(lower(build("peaceable", FamilyOptions(4))), (4, 4))[:3]
    ((0, (1, 1)), (0, (1, 2)), (0, (1, 0)))
    """
    return tuple(sorted(model.cells, key=lambda var: (var[0], _middle_first(shape, var[1]))))


def lex_leader(model: ConstraintModel, group: Iterable[Transform]) -> ConstraintModel:
    """`model` with one lex chain per non-identity symmetry in `group`: its solutions are the
    leaders of their classes, the solution whose cells, sorted in `lex_order`, come first.

    >>> from queens.models import NQueens, lower
    >>> [len(chain) for chain in lex_leader(lower(NQueens(4)), symmetry_group(lower(NQueens(4)))).lex.chains]
    [8, 8, 8, 12, 12, 6, 6]
    """
    maps = [partial(_plane_move, t, (model.rows, model.cols)) for t in group]
    return lex_leader_over(model, lex_order(model), maps)


def lex_leader_over(model: ConstraintModel, order: tuple[Var, ...], group: Iterable[Mapping]) -> ConstraintModel:
    """`model` with one lex chain per map in `group` (maps of its variables that keep it, e.g.
    `army_symmetry_group`'s), the variables read in `order`.

    Chain for sigma: the pairs (v, sigma(v)) for v in `order` (x >=lex sigma^-1(x);
    the group holds every inverse, so all together they say x >=lex sigma(x) for every sigma),
    less the pairs already equal whenever all earlier pairs are (a fixed point, or a pair of
    variables an earlier equality ties together): those can never be the first to differ.
    """
    chains: list[LexChain] = []
    for sigma in group:
        tied: dict[Var, Var] = {}
        pairs = []
        for var in order:
            image = sigma(var)
            a, b = _root(tied, var), _root(tied, image)
            if a != b:
                pairs.append((var, image))
                tied[a] = b
        if pairs:
            chains.append(tuple(pairs))
    return replace(model, lex=LexLeader(order, tuple(chains)))


def _root(tied: dict[Var, Var], cell: Var) -> Var:
    """The cell that stands for every cell tied to `cell` (union-find without path compression:
    the chains are short)."""
    while tied.get(cell, cell) != cell:
        cell = tied[cell]
    return cell


class Orbits:
    """Which solution leads its symmetry class under `group` (the one `lex_leader` keeps: its
    cells, sorted in `lex_order`, come first), and
    how many solutions that class holds: |group| / |the symmetries that map the solution to itself|.

    >>> from queens.models import NQueens, lower
    >>> orbits = Orbits(lower(NQueens(5)), symmetry_group(lower(NQueens(5))))
    >>> orbits.size(((0, 0), (1, 2), (2, 4), (3, 1), (4, 3))), orbits.size(((0, 0), (1, 3), (2, 1), (3, 4), (4, 2)))
    (None, 8)
    """

    def __init__(self, model: ConstraintModel, group: Iterable[Transform]) -> None:
        # a placement read in lex order as one integer, its first cell the highest bit: the
        # leader is the class's largest integer (the sorted cells come first)
        self.bit = {cell: 1 << i for i, cell in enumerate(reversed(lex_order(model)))}
        self.images = [{cell: self.bit[t(cell, model.rows, model.cols)] for cell in model.cells} for t in group]

    def size(self, placement: Iterable[Var]) -> int | None:
        """The size of the placement's class, or None when the placement does not lead it."""
        cells = list(placement)
        own = sum(self.bit[c] for c in cells)
        images = [sum(image[c] for c in cells) for image in self.images]
        if max(images) != own:
            return None
        return len(images) // images.count(own)


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

    >>> from queens.models.armies import Army
    >>> from queens.models.lowering import lower
    >>> from queens.models.puzzle import Puzzle
    >>> peaceable = Puzzle(shape=(4, 4), armies=(Army("w", goal="maximise"), Army("b", goal="maximise")),
    ...                    within=False)
    >>> len(army_symmetry_group(lower(peaceable), (4, 4), 2))
    16
    """
    boards: list[Move]
    if len(shape) == 2:
        boards = [partial(_plane_move, t, shape) for t in board_transforms(*shape)]
    else:
        boards = _space_transforms(shape)
    meaning = Implications.of(model.clauses)
    reference = _army_signature(model, meaning, lambda var: var)
    group: list[Mapping] = []
    for board in boards:
        for order in permutations(range(armies)):
            def mapping(var: Var, board: Callable[..., Var] = board, order: tuple[int, ...] = order) -> Var:
                return (order[var[0]], board(var[1]))
            if _army_signature(model, meaning, mapping) == reference:
                group.append(mapping)
    return group


def _army_signature(model: ConstraintModel, meaning: Implications, mapping: Mapping) -> tuple[object, ...]:
    def image(cells: Iterable[Var]) -> frozenset[Var]:
        return frozenset(mapping(c) for c in cells)
    goals = model.objective.groups if model.objective else ()
    return (image(model.cells), frozenset((image(line.cells), line.bounds) for line in model.lines),
            frozenset(image(cover) for cover in model.covers), image(model.fixed),
            frozenset(image(group) for group in goals),
            meaning.image(mapping),
            frozenset((mapping(k.when), frozenset(image(g) for g in k.groups), k.at_least, k.at_most)
                      for k in model.counts),
            frozenset((image(c.cells), frozenset(image(e) for e in c.edges)) for c in model.connections),
            frozenset(_tally_image(t, image) for t in model.tallies),
            model.objective and model.objective.tally and _tally_image(model.objective.tally, image))


def _tally_image(tally: Tally, image: Callable[[Iterable[Var]], frozenset[Var]]) -> tuple[object, ...]:
    """A board-wide count mapped: what it counts, its bounds, and its terms as sets of mapped
    conjunctions (a map keeps the count when it carries the terms onto the terms)."""
    terms = frozenset(frozenset((image(c.present), image(c.absent)) for c in term) for term in tally.terms)
    return tally.name, tally.least, tally.most, tally.complement, terms


def canonical_armies(placement: Iterable[Var], group: list[Mapping]) -> tuple[Var, ...]:
    """The least image of a placement of (army, cell) variables under `group`: one
    representative per symmetry class."""
    cells = list(placement)
    return min(tuple(sorted(mapping(c) for c in cells)) for mapping in group)



@lru_cache(maxsize=8)
def puzzle_group(puzzle: Puzzle) -> tuple[Mapping, ...]:
    """The maps of the model's variables that keep `puzzle` (`model_group` of its model)."""
    from queens.models.lowering import lower  # the lowering's own imports reach this module

    return model_group(puzzle, lower(puzzle))


def model_group(puzzle: Puzzle, model: ConstraintModel) -> tuple[Mapping, ...]:
    """The maps of `model`'s variables that keep it (`model` is `puzzle`'s, perhaps with more
    rules): the board symmetries found from the model (`symmetry_group`), with swaps of
    interchangeable armies when it has several (`army_symmetry_group`)."""
    if puzzle.cells_are_variables:
        return tuple(partial(_plane_move, t, puzzle.shape) for t in symmetry_group(model))
    return tuple(army_symmetry_group(model, puzzle.shape, len(puzzle.armies)))


def side_leader(model: ConstraintModel, group: Iterable[Mapping]) -> ConstraintModel | None:
    """`model` with one lex chain per map in `group` over its bicliques' sides (`Side`) instead
    of its cells, or None when it has no biclique or a map carries a side to cells that are no
    side (then only cell chains can break the group). A side's image under a map is the side
    made of its cells' images; the sides are read biclique by biclique.

    >>> from queens.models.lowering import lower
    >>> from queens.models.families import build, FamilyOptions
    >>> peaceable = build("peaceable", FamilyOptions(4))
    >>> model = lower(peaceable)
    >>> side_leader(model, model_group(peaceable, model)).lex.chains[0][:2]
    ((Side(biclique=0, side=0), Side(biclique=0, side=1)), (Side(biclique=1, side=0), Side(biclique=1, side=1)))
    """
    side_of = {frozenset(cells): Side(i, s) for i, b in enumerate(model.bicliques)
               for s, cells in enumerate((b.first, b.second))}
    if not side_of:
        return None
    maps: list[Mapping] = []
    for sigma in group:
        images = {side: side_of.get(frozenset(map(sigma, cells))) for cells, side in side_of.items()}
        if None in images.values():
            return None
        maps.append(images.__getitem__)
    return lex_leader_over(model, tuple(sorted(side_of.values(), key=astuple)), maps)


def leaders_only(puzzle: Puzzle, model: ConstraintModel, sides: bool = False) -> tuple[ConstraintModel, str]:
    """`model` (`puzzle`'s) with lex chains over its whole group (`model_group`), and the
    group in words: each class of solutions keeps its leader, so an optimum is still reached,
    by fewer placements (what a backend that optimises searches: `queens.solvers.api.solve`).
    The model itself, and "", when the group is the identity alone or there is no cell to
    order (a board of holes: every symmetry keeps the empty placement, nothing to break).

    >>> from queens.models.lowering import lower
    >>> from queens.models.families import build, FamilyOptions
    >>> peaceable = build("peaceable", FamilyOptions(5))
    >>> model, group = leaders_only(peaceable, lower(peaceable))
    >>> group, len(model.lex.chains), model.lex.chains[0][0]
    ('16 (8 board symmetries x 2 orders of the armies)', 15, ((0, (2, 2)), (1, (2, 2))))
    """
    if not model.cells:
        return model, ""
    group = model_group(puzzle, model)
    if len(group) == 1:
        return model, ""
    over_sides = side_leader(model, group) if sides else None
    order = lex_order(model) if puzzle.cells_are_variables else army_lex_order(model, puzzle.shape)
    named = f"{len(group)} board symmetries"
    if not puzzle.cells_are_variables:
        some = model.cells[0][1]
        orders = len({tuple(g((a, some))[0] for a in range(len(puzzle.armies))) for g in group})
        named = f"{len(group)} ({len(group) // orders} board symmetries x {orders} orders of the armies)"
    if over_sides is not None:
        return over_sides, f"{named}, read on the sides of the lines the armies share"
    return lex_leader_over(model, order, group), named


def canonical_placement(puzzle: Puzzle, placement: Iterable[Var]) -> tuple[Var, ...]:
    """One representative of the placement's class under `puzzle_group`: two placements are in
    one class when they have the same representative (what `count --unique` counts).

    >>> from queens.models.nqueens import NQueens
    >>> canonical_placement(NQueens(4), [(0, 2), (1, 0), (2, 3), (3, 1)])
    ((0, 1), (1, 3), (2, 0), (3, 2))
    """
    return canonical_armies(placement, list(puzzle_group(puzzle)))
