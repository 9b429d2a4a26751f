"""WHAT to solve: puzzles as plain data, lowered once to a generic constraint model."""

from models.check import Placement, verify
from models.completion import Completion, parse_cells, parse_vector, read_cells
from models.errors import (
    AttackingQueens,
    BackendError,
    BackendUnavailable,
    InvalidBoard,
    InvalidPlacement,
    MalformedInput,
    OffBoard,
    QueensError,
    TimeLimit,
    Unsupported,
)
from models.ir import ConstraintModel, LinearKey, Line, LineFamily, LineKind
from models.lowering import lower
from models.nqueens import NQueens
from models.pieces import BISHOP, KING, KNIGHT, PIECES, QUEEN, ROOK, SUPERQUEEN, Cell, Piece
from models.puzzle import Puzzle
from models.symmetry import canonical_form, symmetry_group

__all__ = [
    "AttackingQueens", "Completion", "parse_cells", "parse_vector", "read_cells", "BackendError", "BackendUnavailable", "BISHOP", "Cell", "ConstraintModel", "InvalidBoard",
    "InvalidPlacement", "KING", "KNIGHT", "Line", "LineFamily", "LineKind", "LinearKey",
    "MalformedInput", "NQueens", "OffBoard", "PIECES", "Piece", "Placement", "Puzzle", "QUEEN",
    "QueensError", "ROOK", "SUPERQUEEN", "Unsupported", "canonical_form", "lower",
    "symmetry_group", "TimeLimit", "verify",
]
