"""WHAT to solve: puzzles as plain data, lowered once to a generic constraint model."""

from models.check import Placement, verify
from models.completion import Completion, parse_cells, parse_vector
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
from models.ir import ConstraintModel, Line, LinearKey, LineFamily, LineKind
from models.lowering import lower
from models.nqueens import NQueens
from models.pieces import BISHOP, KING, KNIGHT, PIECES, QUEEN, ROOK, SUPERQUEEN, Cell, Piece
from models.puzzle import Puzzle
from models.symmetry import symmetry_group

__all__ = [
    "AttackingQueens", "BackendError", "BackendUnavailable", "BISHOP", "Cell",
    "Completion", "ConstraintModel", "InvalidBoard", "InvalidPlacement", "KING", "KNIGHT", "Line",
    "LinearKey", "LineFamily", "LineKind", "lower", "MalformedInput", "NQueens", "OffBoard",
    "parse_cells", "parse_vector", "Piece", "PIECES", "Placement", "Puzzle", "QUEEN", "QueensError",
    "ROOK", "SUPERQUEEN", "symmetry_group", "TimeLimit", "Unsupported", "verify",
]
