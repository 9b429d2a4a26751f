"""WHAT to solve: puzzles as plain data, lowered once to a generic constraint model."""

from queens.models.check import verify
from queens.models.completion import Completion, parse_cells, parse_vector
from queens.models.errors import (
    AttackingQueens,
    BackendError,
    BackendUnavailable,
    InvalidBoard,
    InvalidPlacement,
    MalformedInput,
    NativeMissing,
    OffBoard,
    QueensError,
    TimeLimit,
    Unsupported,
)
from queens.models.ir import ConstraintModel, Line, LinearKey, LineFamily, LineKind
from queens.models.lowering import lower
from queens.models.nqueens import NQueens
from queens.models.pieces import BISHOP, KING, KNIGHT, PIECES, QUEEN, ROOK, SUPERQUEEN, Cell, Piece
from queens.models.placement import PerArmy, Placed, Placement, as_cells, as_pairs
from queens.models.puzzle import Puzzle
from queens.models.symmetry import symmetry_group

__all__ = [
    "as_cells", "as_pairs", "AttackingQueens", "BackendError", "BackendUnavailable", "BISHOP", "Cell",
    "Completion", "ConstraintModel", "InvalidBoard", "InvalidPlacement", "KING", "KNIGHT", "Line",
    "LinearKey", "LineFamily", "LineKind", "lower", "MalformedInput", "NativeMissing", "NQueens", "OffBoard",
    "parse_cells", "parse_vector", "PerArmy", "Piece", "PIECES", "Placed", "Placement", "Puzzle", "QUEEN",
    "QueensError", "ROOK", "SUPERQUEEN", "symmetry_group", "TimeLimit", "Unsupported", "verify",
]
