"""Models in CNF: each line a pysat cardinality encoding, each cover a clause, each fixed cell a
unit, the size a totalizer, the model's clauses, attack counts, connected groups and lex chains
as clauses.

A library, not a backend: the `sat` backend solves what `encode` writes, and the exports
(DIMACS), certificates and "why not?" read the same formula through `cnf`, so every tool shows
exactly what the backend solves.

Encodings (pysat names; references as in pysat.card):
  pairwise    every pair of cells excluded: O(k^2) clauses, no auxiliaries;
  seqcounter  sequential counter (Sinz 2005): O(k) clauses and auxiliaries;
  ladder      ladder / regular encoding (Gent & Nightingale 2004): O(k);
  bitwise     binary / bitwise encoding (Frisch et al. 2005): O(k log k) clauses, log k aux;
  totalizer   totalizer (Bailleux & Boufkhad 2003); cardnetwrk, sortnetwrk: sorting networks
              (Asín et al. 2011; Eén & Sörensson 2006); mtotalizer, kmtotalizer: modulo and
              k-modulo totalizers (Ogawa et al. 2013; Morgado et al. 2014).

>>> from queens.models import NQueens
>>> from queens.models.lowering import lower
>>> formula, cells = cnf(lower(NQueens(4)), "pairwise")
>>> len(cells), len(formula.clauses)
(16, 84)
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import CNF
from queens.models import ConstraintModel, Unsupported
from queens.models.ir import CountIf, Line, Side, Var
from queens.models.tally import Tally
from queens.solvers.formats.cell_order import line_literals, literals, plain_numbering, positions
from queens.solvers.formats.clause_groups import ClauseGroup, Groups, bounds_text, line_names
from queens.solvers.formats.cnf_reachability import connection_clauses
from queens.solvers.formats.tally_literals import term_literals

ENCODINGS = {
    name: getattr(EncType, name)
    for name in ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer", "sortnetwrk",
                 "cardnetwrk", "mtotalizer", "kmtotalizer")
}


DEFAULT_ENCODING = "seqcounter"
"""The CNF that exports and `cnf` write when no encoding is named (compact at every size)."""


ONE_ONLY = frozenset({"pairwise", "bitwise", "ladder"})
"""Encodings pysat offers for a bound of one only; a line holding up to k > 1 pieces (an attack
count asking for k > 1 groups) falls back to `DEFAULT_ENCODING` when no encoding was named, and
is refused when one of these was."""


def cnf(model: ConstraintModel, encoding: str = DEFAULT_ENCODING) -> tuple[CNF, dict[int, tuple[int, int]]]:
    """The CNF the `sat` backend solves, and which variable is which cell (auxiliaries are absent).

    Cell variables are 1..len(model.cells) in `model.cells` order, then the model's guards
    (`guard_variables`); the encoding's auxiliary variables follow. Exports (DIMACS) and `queens
    explain` read the formula from here so that they show exactly what the backend solves.
    """
    written = encoded(model, encoding)
    return written.formula, dict(zip(written.var.tolist(), model.cells, strict=True))


def encoded(model: ConstraintModel, encoding: str = DEFAULT_ENCODING) -> Encoded:
    """`encode` for a caller that names an encoding (`cnf`, the DIMACS export): one of
    `ONE_ONLY` that cannot write the model is refused, a name pysat lacks is the default."""
    if encoding in ONE_ONLY and (refusal := one_only_refusal(model, encoding)):
        raise Unsupported(refusal)
    return encode(model, encoding if encoding in ENCODINGS else DEFAULT_ENCODING)


@dataclass
class Encoded:
    """A model's CNF (`formula`), each cell's variable (`var[p]` for `model.cells[p]`), each
    biclique side's variable (what lex chains over sides read), the formula's sizes, and which
    constraint each slice of it says (`groups`: metadata, `queens.solvers.formats.clause_groups`)."""

    formula: CNF
    var: np.ndarray
    sides: dict[Side, int]
    stats: dict[str, int | float | str]
    groups: list[ClauseGroup]


def encode(model: ConstraintModel, name: str, number: np.ndarray | None = None) -> Encoded:
    """The CNF of `model` with its lines in pysat encoding `name` (a line holding more than one
    piece falls back to `DEFAULT_ENCODING` when `name` is one of `ONE_ONLY`); model.cells[p] is
    variable number[p], numbered from 1 (default: the cells in the model's order). Each block
    written is closed as a named group (`Groups.close`), which only reads where it ends."""
    var = cell_variables(model, number)
    formula = CNF()
    guard = guard_variables(model)
    top = len(var) + len(guard)
    marks = Groups(formula, top)
    for (line, chosen), line_name in zip(line_variables(model, var), line_names(model), strict=True):
        usable = name not in ONE_ONLY or line.at_most == 1
        encoding = name if usable else DEFAULT_ENCODING
        lifted = [] if line.guard is None else [-guard[line.guard]]  # the rule's literal false lifts the line
        for part in cardinality(chosen, line.at_least, line.at_most, top, ENCODINGS[encoding]):
            _add_clauses(formula, ([*clause, *lifted] for clause in part.clauses))
            top = max(top, part.nv)
        marks.close(line_name, bounds_text(line.at_least, line.at_most, len(line.cells)), line.cells, encoding, top)
    exclusions, top, sides = biclique_clauses(model, var, top)
    _add_clauses(formula, exclusions)
    marks.close("bicliques", "two armies never share a line: x -> u, y -> v, not both u and v, over",
                tuple(c for b in model.bicliques for c in (*b.first, *b.second)), "clause", top)
    for i, (cover, held) in enumerate(zip(model.covers, literals(model, model.covers, var), strict=True)):
        formula.append(held.tolist())
        marks.close(f"cover {i}", "at least one of", cover, "clause", top)
    for cell, v in zip(sorted(model.fixed), fixed_variables(model, var), strict=True):
        formula.append([v])
        marks.close(f"fixed {cell}", "a piece on", (cell,), "unit", top)
    lex, top = chain_clauses(model, var, top, sides)
    _add_clauses(formula, lex)
    symmetry = (len(lex), top - marks.top)
    marks.close("lex-leader", "one solution per symmetry class: lex-leader chains over", model.lex.order
                if model.lex else (), "Aloul et al.", top)
    beyond, top = clauses_and_counts(model, var, top, name, guard)
    _add_clauses(formula, beyond)
    marks.close("clauses and attack counts", "the model's clauses and attack counts over", model.cells, name, top)
    for tally in model.tallies:
        top = tally_clauses(model, tally, var, top, name, formula)
        low, high = tally.held_bounds
        marks.close(tally.name, bounds_text(low, high, tally.top), tally.variables, name, top)
    if model.size is not None and not model.size_implied:
        for part in cardinality(var.tolist(), model.size, model.size, top, EncType.totalizer):  # more than the
            _add_clauses(formula, part.clauses)  # cells: the empty clause (a certificate of "no room" proves it so)
            top = max(top, part.nv)
        marks.close("size", bounds_text(model.size, model.size, len(var)), model.cells, "totalizer", top)
    top = occupancy_bound(model, var, top, formula)
    marks.close("occupancy", "k pieces occupy at most k lines of each direction, over", model.cells, "seqcounter", top)
    stats: dict[str, int | float | str] = {"encoding": name, "variables": top, "auxiliary": top - len(var),
                                           "clauses": len(formula.clauses)}
    if model.lex:  # counted apart, so a size plot can say the model's own size (what `explain` shows)
        stats["lex-leader clauses"], stats["lex-leader variables"] = symmetry
    return Encoded(formula, var, sides, stats, marks.groups)


def _add_clauses(formula: CNF, clauses: Iterable[list[int]]) -> None:
    """`formula.extend(clauses)` without its side effect on the process: pysat's `CNF.extend` also
    marks 1..nv taken in pysat's process-wide variable pool, one more interval per formula, sorted
    again each time, so a long-lived process (the explorer's solver processes, a notebook, a test
    worker) encoded slower with every formula it had encoded before (experiments/results/suite-time.md).
    Our variables are numbered here (`top`), never from that pool. The clauses go into the
    formula's public `clauses` and `nv` at once: `CNF.append`, a clause at a time, built a list
    per clause to find its largest variable, much of the encoder's time (suite-time.md)."""
    added = [list(clause) for clause in clauses]
    formula.clauses.extend(added)
    formula.nv = max(formula.nv, max((abs(literal) for clause in added for literal in clause), default=0))


def tally_clauses(model: ConstraintModel, tally: Tally, var: np.ndarray, top: int, encoding: str, cnf: CNF) -> int:
    """A board-wide count (`queens.models.tally`) into `cnf`, and the new top variable: per
    conjunction a variable c <-> AND(present, not absent) (a lone present cell is its own), per
    term t <-> OR(c), and the terms' bounds in pysat's `encoding` (the default for one of
    `ONE_ONLY`). t and c are functions of the cells, so enumeration lists each placement once."""
    terms: list[int] = []
    for conjunctions in term_literals(model, tally, var):
        ands = []
        for present, absent in conjunctions:
            if len(present) == 1 and not absent:
                ands.append(present[0])
                continue
            top += 1
            _add_clauses(cnf, [[-top, p] for p in present] + [[-top, -a] for a in absent])
            cnf.append([top, *(-p for p in present), *absent])
            ands.append(top)
        if len(ands) == 1:
            terms.append(ands[0])
        elif ands:
            top += 1
            cnf.append([-top, *ands])
            _add_clauses(cnf, [[-c, top] for c in ands])
            terms.append(top)
    low, high = tally.held_bounds
    name = DEFAULT_ENCODING if encoding in ONE_ONLY else encoding
    for part in cardinality(terms, low, high, top, ENCODINGS[name]):
        _add_clauses(cnf, part.clauses)
        top = max(top, part.nv)
    return top


def guard_variables(model: ConstraintModel) -> dict[Hashable, int]:
    """The variable of each of the model's guards in `cnf`: numbered after its cells. Assumed
    true, the guard's lines and counts hold; false, they are lifted."""
    return {guard: len(model.cells) + 1 + i for i, guard in enumerate(model.guards)}


def occupancy_bound(model: ConstraintModel, var: np.ndarray, top: int, cnf: CNF) -> int:
    """When the model bounds its pieces (a size, or a line over every cell: a certificate's "at
    most k pieces"), the same bound on each occupancy family's groups, added to `cnf`; the new
    top variable."""
    bounds = [line.at_most for line in model.lines if len(line.cells) == len(model.cells)]
    bound = min([*bounds, *([model.size] if model.size is not None else [])], default=None)
    if bound is None or not model.occupancy:
        return top
    occupying, top, occupied = occupancy_clauses(model, var, top)
    _add_clauses(cnf, occupying)
    for used in occupied:
        if bound < len(used):
            part = CardEnc.atmost(lits=used, bound=bound, top_id=top, encoding=EncType.seqcounter)
            _add_clauses(cnf, part.clauses)
            top = max(top, part.nv)
    return top


def occupancy_clauses(model: ConstraintModel, var: np.ndarray,
                      top: int) -> tuple[list[list[int]], int, list[list[int]]]:
    """The model's occupancy groups (`ConstraintModel.occupancy`) in CNF: a variable per group,
    true exactly when one of its cells holds a piece; the clauses, the new top variable, and each
    family's group variables (what a bound on the pieces also bounds: k pieces occupy at most k
    groups of each family). Queen domination: "7 queens dominate 14 x 14" refuted with these
    bounds, not within five times as long without (experiments/results/design-choices.md)."""
    clauses: list[list[int]] = []
    occupied: list[list[int]] = []
    for family in model.occupancy:
        used = []
        for group in literals(model, family, var):
            top += 1
            used.append(top)
            clauses += [[-x, top] for x in group.tolist()]
            clauses.append([-top, *group.tolist()])
        occupied.append(used)
    return clauses, top, occupied


def one_only_refusal(model: ConstraintModel, encoding: str) -> str | None:
    """Why `encoding`, one of `ONE_ONLY`, cannot write the CNF of `model`: a line or an attack
    count with a bound k > 1 (pysat has none in it); None when every bound is one."""
    if not model.one_per_line:
        return (f"sat encoding {encoding!r} encodes at most one piece per line only "
                f"(pysat has no bound k > 1 for it); choose e.g. {DEFAULT_ENCODING!r}")
    wide = sum(1 for count in model.counts if _wide(count))
    if wide:
        return (f"sat encoding {encoding!r} encodes bounds of one only (pysat has no bound k > 1 for it), "
                f"and {wide:,} {' and '.join(sorted({c.kind for c in model.counts if _wide(c)}))} ask for more; "
                f"choose e.g. {DEFAULT_ENCODING!r}")
    return None


def cell_variables(model: ConstraintModel, number: np.ndarray | None) -> np.ndarray:
    """Each cell's variable: number[p] (numbered from 1), or the cells in the model's order."""
    return plain_numbering(model, 1) if number is None else number


def line_variables(model: ConstraintModel, var: np.ndarray) -> Iterator[tuple[Line, list[int]]]:
    """Each line and its cells' variables, read in one pass (solvers/formats/cell_order.py); the lines of a
    family that carries them as bicliques are left to `biclique_clauses`."""
    lines = [line for family in model.families if not family.bicliques for line in family.lines]
    for line, chosen in zip(lines, line_literals(model, lines, var), strict=True):
        yield line, chosen.tolist()


def biclique_clauses(model: ConstraintModel, var: np.ndarray, top: int) -> tuple[list[list[int]], int, dict[Side, int]]:
    """The families' bicliques in CNF, the new top variable, and each biclique side's variable
    (`Side`, what lex chains over sides read): a biclique (X, Y) as x -> u, y -> v, not both u
    and v (|X| + |Y| + 1 clauses instead of |X| |Y| pairs). What the solver learns is then about
    lines, not about pairs of cells: peaceable queens n = 9, "13 of each?" refuted within the
    limit where the pairs gave no answer (experiments/results/frontier.md, design-choices.md)."""
    bicliques = model.bicliques
    groups = literals(model, [cells for b in bicliques for cells in (b.first, b.second)], var)
    clauses: list[list[int]] = []
    sides: dict[Side, int] = {}
    for i in range(len(bicliques)):
        u, v = top + 1, top + 2
        sides[Side(i, 0)], sides[Side(i, 1)] = u, v
        clauses += [[-x, u] for x in groups[2 * i].tolist()] + [[-y, v] for y in groups[2 * i + 1].tolist()]
        clauses += [[-u, -v], [u, v]]
        top = v
    return clauses, top, sides


def fixed_variables(model: ConstraintModel, var: np.ndarray) -> list[int]:
    fixed = sorted(model.fixed)
    chosen: list[int] = var[positions(model, fixed, len(fixed))].tolist()
    return chosen


def chain_clauses(model: ConstraintModel, var: np.ndarray, top: int,
                  sides: Mapping[Side, int]) -> tuple[list[list[int]], int]:
    """`lex_clauses` over the array numbering and the bicliques' sides (a dict by cell only when
    there are chains)."""
    if model.lex is None:
        return [], top
    return lex_clauses(model, {**dict(zip(model.cells, var.tolist(), strict=True)), **sides}, top)


def lex_clauses(model: ConstraintModel, var: Mapping[Var, int], top: int) -> tuple[list[list[int]], int]:
    """The model's lex chains in CNF, and the new top variable: per pair (a_i, b_i) of a chain,
    with e_i "equal so far" (e_1 true, no variable): e_i -> a_i or not b_i, and e_i and not
    a_i -> e_(i+1), e_i and b_i -> e_(i+1) (Aloul et al.'s three clauses). An e may be true when
    the prefix differs: it then only asks more, and enumeration blocks cell variables only."""
    clauses: list[list[int]] = []
    chains = model.lex.chains if model.lex else ()
    for chain in chains:
        equal: int | None = None
        for i, (a, b) in enumerate(chain):
            when: list[int] = [] if equal is None else [-equal]
            clauses.append([*when, var[a], -var[b]])
            if i == len(chain) - 1:
                break
            top += 1
            clauses += [[*when, var[a], top], [*when, -var[b], top]]
            equal = top
    return clauses, top


def clauses_and_counts(model: ConstraintModel, var: np.ndarray, top: int, encoding: str,
                        guard: Mapping[Hashable, int] | None = None) -> tuple[list[list[int]], int]:
    """The model's clauses, attack counts and connected groups in CNF, and the new top variable
    (nothing is read when it has none). A clause is one clause: its present cells' variables,
    its absent cells' negated. The counts are `_counts`, their cardinalities in `encoding`; the
    connected groups reachability layers (`queens.solvers.formats.cnf_reachability`)."""
    if not model.clauses and not model.counts and not model.connections:
        return [], top
    present = literals(model, [clause.present for clause in model.clauses], var)
    absent = literals(model, [clause.absent for clause in model.clauses], var)
    clauses = [[*held.tolist(), *(-empty).tolist()] for held, empty in zip(present, absent, strict=True)]
    top = _counts(model, var, top, encoding, clauses, guard or {})
    connected, top = connection_clauses(model, var, top)
    return clauses + connected, top


def _counts(model: ConstraintModel, var: np.ndarray, top: int, encoding: str, clauses: list[list[int]],
            guard: Mapping[Hashable, int]) -> int:
    """Each attack count "when w holds a piece, between lo and hi of these groups hold one" into
    `clauses`; returns the new top variable. A group of several cells is one fresh variable
    h <-> OR(group) (`_holding`, shared by every count with that group), and lo <= sum(h) <= hi
    is pysat's encoding with -w added to every clause: a conditional cardinality, which holds
    whatever its auxiliaries are when w is empty. h is a function of the cells, and the
    encoding's auxiliaries are never blocked, so enumeration still lists each placement once.
    `encoding` falls back to `DEFAULT_ENCODING` for a bound pysat has not in it (`ONE_ONLY`). A
    guarded count adds "or its rule's literal is false" to each clause, as a guarded line does."""
    whens = var[positions(model, [count.when for count in model.counts], len(model.counts))].tolist()
    groups = iter(literals(model, [group for count in model.counts for group in count.groups], var))
    holding: dict[tuple[int, ...], int] = {}
    for count, when in zip(model.counts, whens, strict=True):
        chosen = [group.tolist() for group in itertools.islice(groups, len(count.groups)) if len(group)]
        at_least, at_most, total = _bounds(count)
        unless = [-when] if count.guard is None else [-when, -guard[count.guard]]
        if at_least > at_most:  # never possible: the counting cell stays empty
            clauses.append(unless)
            continue
        if at_least == 0 and at_most == total:  # always true
            continue
        held = []
        for group in chosen:
            literal, top = _holding(group, holding, top, clauses)
            held.append(literal)
        name = DEFAULT_ENCODING if encoding in ONE_ONLY and _wide(count) else encoding
        for part in cardinality(held, at_least, at_most, top, ENCODINGS[name]):
            clauses.extend([*clause, *unless] for clause in part.clauses)
            top = max(top, part.nv)
    return top


def _holding(group: list[int], known: dict[tuple[int, ...], int], top: int,
             clauses: list[list[int]]) -> tuple[int, int]:
    """The literal "some cell of `group` holds a piece", and the new top variable: the cell's own
    variable for a group of one, else h <-> OR(group) (clauses h -> OR(group), and x -> h for
    each x), made once per group in `known`."""
    if len(group) == 1:
        return group[0], top
    key = tuple(sorted(group))
    if key not in known:
        top += 1
        known[key] = top
        clauses.append([-top, *group])
        clauses.extend([-v, top] for v in group)
    return known[key], top


def _bounds(count: CountIf) -> tuple[int, int, int]:
    """(at least, at most, groups) of an attack count, its empty groups (they never hold a
    piece) left out and at most cut down to the groups there are."""
    total = sum(1 for group in count.groups if group)
    return count.at_least, min(count.at_most, total), total


def _wide(count: CountIf) -> bool:
    """Whether the count's cardinality needs a bound k > 1 (not in the `ONE_ONLY` encodings)."""
    at_least, at_most, total = _bounds(count)
    return at_least <= at_most and (at_least > 1 or 1 < at_most < total)


def cardinality(literals: list[int], at_least: int, at_most: int, top: int, encoding: int) -> list[CNF]:
    """pysat's encodings of at_least <= sum(literals) <= at_most; none for a bound that always holds,
    the empty clause for one that never does (more than the literals, or more than at most: a
    guarded bound the lowering could not refuse, since the search may leave it out)."""
    if at_least > min(at_most, len(literals)):
        return [CNF(from_clauses=[[]])]
    if at_least == at_most:
        return [CardEnc.equals(lits=literals, bound=at_most, top_id=top, encoding=encoding)]
    parts: list[CNF] = []
    if at_most < len(literals):
        parts.append(CardEnc.atmost(lits=literals, bound=at_most, top_id=top, encoding=encoding))
        top = max(top, parts[-1].nv)
    if at_least > 0:
        parts.append(CardEnc.atleast(lits=literals, bound=at_least, top_id=top, encoding=encoding))
    return parts
