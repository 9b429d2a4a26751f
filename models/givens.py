"""A puzzle's givens: what the user fixed before asking (pieces, holes, pawns) and the rules the
user stated that a solution must meet (each army's count, each per-line bound, each region,
each bound on attacks).

When a puzzle has no solution, "why not?" is answered by a smallest set of these that has no
solution by itself (`queens.solvers.proofs.why`). The givens are plain data; `with_givens` rebuilds the
puzzle from any subset of them, so the search can ask about each subset without knowing the
puzzle's family. A rule given is named by its kind and its place in the puzzle's list (an army's
count by the army's number): what the guarded lowering (`queens.models.lowering.lower`) tags the
rule's lines with, so that the rule is one literal the search can assume or leave out.

Rules that are part of what the pieces are (pieces of one army do not attack, a cover, a
partition, a symmetry every solution keeps) are not givens: without them the puzzle is another
puzzle, not the same one with less asked.

>>> from queens.models import Completion
>>> [g.name for g in givens_of(Completion(4, [(0, 0), (1, 2)]))]
['queen at 0,0', 'queen at 1,2', 'exactly 4 queens in all']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from queens.models.geometry import Coord
from queens.models.puzzle import Puzzle
from queens.models.rules import AttackBound, Region

Kind = Literal["piece", "hole", "pawn", "count", "per line", "region", "attacks"]
RULES: tuple[Kind, ...] = ("count", "per line", "region", "attacks")
"""The kinds of given that are stated rules (no square on the board)."""


@dataclass(frozen=True, order=True)
class Given:
    """One thing the user fixed: a piece already placed (of army number `army`), a hole (no
    piece, lines pass), a pawn (no piece, lines stop), or a stated rule: an army's count, a
    per-line bound, a region or an attack bound, number `index` of its kind (an army's count:
    the army's number), said in `words`."""

    kind: Kind
    cell: Coord | None = None
    piece: str = "queen"
    army: int = 0
    index: int = 0
    words: str = field(default="", compare=False)

    @property
    def name(self) -> str:
        if self.cell is None:
            return self.words
        what = self.piece if self.kind == "piece" else self.kind
        return f"{what} at {self.cell[0]},{self.cell[1]}"

    @property
    def rule(self) -> bool:
        """Whether this given is a stated rule (it has no square to draw)."""
        return self.kind in RULES

    def literal(self, puzzle: Puzzle) -> Hashable | None:
        """What this given is an assumption on in `puzzle`'s guarded model (`lower(puzzle,
        guarded=True)`): a piece, its variable (`Puzzle.variable`: the cell, or (army, cell)); a
        rule, its guard (the given itself). None for a hole or a pawn: they change the board,
        and the model is rebuilt without them."""
        if self.rule:
            return self
        if self.kind == "piece" and self.cell is not None:
            return puzzle.variable(self.army, self.cell)
        return None


def givens_of(puzzle: Puzzle) -> list[Given]:
    """Every given of `puzzle`: pieces, holes, pawns (each kind in board order), then the rules
    (`stated_rules`)."""
    pieces = sorted(((cell, a) for a, army in enumerate(puzzle.armies) for cell in army.fixed))
    return ([Given("piece", cell, puzzle.armies[a].piece.name, a) for cell, a in pieces]
            + [Given("hole", cell) for cell in sorted(puzzle.holes)]
            + [Given("pawn", cell) for cell in sorted(puzzle.blockers)]
            + stated_rules(puzzle))


def stated_rules(puzzle: Puzzle) -> list[Given]:
    """The rules of `puzzle` that ask something: each army's count (not a goal), each per-line
    bound, each region and attack bound with a bound. The guarded lowering lists these as the
    model's guards.

    >>> from queens.models.rules import Region
    >>> corner = Region(frozenset({(0, 0)}), 1, 1, name="A")
    >>> [g.name for g in stated_rules(Puzzle(rows=4, cols=4, pieces=5, per_line=(("rows", 0, 2),), regions=(corner,)))]
    ['exactly 5 queens in all', 'at most 2 pieces on every row', 'exactly 1 piece on region A']
    """
    several = len(puzzle.armies) > 1
    found = [Given("count", army=a, index=a,
                   words=f"{_bound(army.least, army.most)} {_pieces(puzzle, a, several)} in all")
             for a, army in enumerate(puzzle.armies)
             if army.goal is None and army.copies is not None and (army.least > 0 or army.most is not None)]
    found += [Given("per line", index=i,
                    words=f"{_bound(least, most)} {_plural('piece', most)} on every {_LINE[family]}")
              for i, (family, least, most) in enumerate(puzzle.per_line)]
    found += [Given("region", index=i, words=_region_words(puzzle, region))
              for i, region in enumerate(puzzle.regions) if region.least > 0 or region.most is not None]
    found += [Given("attacks", index=i, words=_attack_words(puzzle, bound))
              for i, bound in enumerate(puzzle.attack_bounds) if bound.least > 0 or bound.most is not None]
    return found


_LINE = {"rows": "row", "cols": "column", "diagonals": "diagonal"}
_TARGETS = {"any": "", "own": " of its own army", "other": " of other armies"}


def _bound(least: int, most: int | None) -> str:
    """between `least` and `most` in words: "exactly 2", "at most 1", "at least 3", "between 1 and 4"."""
    if most is None:
        return f"at least {least}"
    if least == most:
        return f"exactly {least}"
    return f"at most {most}" if least == 0 else f"between {least} and {most}"


def _plural(word: str, count: int | None) -> str:
    return word if count == 1 else f"{word}s"


def _pieces(puzzle: Puzzle, army: int | None, several: bool) -> str:
    """The pieces a bound counts: "queens", "white queens", or "pieces" of every army."""
    if army is None:
        return "pieces"
    chosen = puzzle.armies[army]
    plural = f"{chosen.piece.name}s"
    named = several and chosen.name not in (chosen.piece.name, plural)  # an army called "queens" is not "queens queens"
    return f"{chosen.name} {plural}" if named else plural


def _region_words(puzzle: Puzzle, region: Region) -> str:
    counted = _pieces(puzzle, region.army, len(puzzle.armies) > 1)
    if counted == "pieces" and region.most == 1:
        counted = "piece"
    cells = sorted(region.cells)
    listed = " ".join(",".join(map(str, cell)) for cell in cells[:3]) + (" ..." if len(cells) > 3 else "")
    where = f"region {region.name}" if region.name else f"the {len(cells)} cells {listed}"
    return f"{_bound(region.least, region.most)} {counted} on {where}"


def _attack_words(puzzle: Puzzle, bound: AttackBound) -> str:
    who = "every piece" if bound.army is None else f"every piece of {puzzle.armies[bound.army].name}"
    return f"{who} attacks {_bound(bound.least, bound.most)} {_plural('other', bound.most)}{_TARGETS[bound.of]}"


def with_givens(puzzle: Puzzle, givens: Iterable[Given]) -> Puzzle:
    """`puzzle` with exactly these givens (the others taken away: a rule left out asks nothing,
    an army whose count is left out may have any number of pieces)."""
    chosen = list(givens)
    rules = {(g.kind, g.index) for g in chosen if g.rule}
    squares = {kind: frozenset(g.cell for g in chosen if g.kind == kind and g.cell is not None)
               for kind in ("hole", "pawn")}
    armies = []
    for a, army in enumerate(puzzle.armies):
        placed = frozenset(g.cell for g in chosen if g.kind == "piece" and g.army == a and g.cell is not None)
        counted = ("count", a) in rules or army.goal is not None
        armies.append(replace(army, fixed=placed, least=army.least if counted else 0,
                              most=army.most if counted else None))
    return replace(puzzle, armies=tuple(armies), holes=squares["hole"], blockers=squares["pawn"],
                   per_line=tuple(b for i, b in enumerate(puzzle.per_line) if ("per line", i) in rules),
                   regions=tuple(r for i, r in enumerate(puzzle.regions) if ("region", i) in rules),
                   attack_bounds=tuple(b for i, b in enumerate(puzzle.attack_bounds) if ("attacks", i) in rules))
