"""Boards as pictures: text (the `Q . ~` board), SVG, PNG, and a heat map of cell use.

Every puzzle draws the same way: its cells are laid on a canvas (a 2-D board as it is, a cube
as its layers side by side), each army's pieces in a colour of their own (and, as text, a letter
of their own when there are several armies).

A `Board` (a puzzle and a placement) and a `HeatMap` show themselves in Jupyter through
`_repr_svg_` and `_repr_html_`, as python-chess boards do: no IPython import, no dependency.
SVG is written by hand (plain text); PNG needs Pillow (`pip install 'queens[pictures]'`),
imported only when a PNG is asked for. Both draw the pieces from the same outlines below, so
they look alike and need no chess font.

>>> from queens.models import NQueens
>>> print(Board(NQueens(4), ((0, 1), (1, 3), (2, 0), (3, 2))).text())
. Q . .
. . . Q
Q . . .
. . Q .
>>> Board(NQueens(4)).svg().startswith("<svg")
True
"""

from __future__ import annotations

import html
import io
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from queens.models.check import attacked
from queens.models.errors import MissingExtra, QueensError
from queens.models.geometry import Coord
from queens.models.output import write_file
from queens.models.pieces import Cell
from queens.models.placement import Placed, Placement
from queens.models.puzzle import Puzzle

LIGHT, DARK = "#f0d9b5", "#b58863"
ATTACKED_LIGHT, ATTACKED_DARK = "#f2a48f", "#cf7358"  # the square colours tinted red
MISSING = "#ffffff"  # a square that is not there: white, no piece, no covering
PIECE_FILL, PIECE_EDGE = "#222222", "#f8f8f8"
ARMY_FILLS = (PIECE_FILL, "#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457")
"""One fill per army, in army order (cycled): the first army is drawn as a single army is."""
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""One text symbol per army when the armies' initials do not tell them apart."""
PAWN_FILL, PAWN_EDGE = "#fafafa", "#222222"  # pawns are white: they block, they do not count
MAX_DRAWN = 100
"""Boards wider than this are not drawn: a picture would be a smear of pixels, a text board
unreadable and huge."""

Polygon = tuple[tuple[float, float], ...]
Shape = tuple[tuple[Polygon, ...], tuple[tuple[float, float, float], ...]]
"""Polygons and circles (x, y, radius) in the unit square, y pointing down."""

_CROWN: tuple[Polygon, ...] = (
    ((0.18, 0.78), (0.12, 0.32), (0.33, 0.55), (0.5, 0.22), (0.67, 0.55), (0.88, 0.32), (0.82, 0.78)),
    ((0.18, 0.81), (0.82, 0.81), (0.82, 0.88), (0.18, 0.88)))
SHAPES: dict[str, Shape] = {
    "queen": (_CROWN, ((0.12, 0.28, 0.055), (0.5, 0.18, 0.055), (0.88, 0.28, 0.055))),
    "superqueen": (_CROWN, ((0.12, 0.28, 0.055), (0.5, 0.18, 0.055), (0.88, 0.28, 0.055), (0.5, 0.62, 0.08))),
    "king": ((((0.2, 0.8), (0.15, 0.42), (0.35, 0.52), (0.5, 0.38), (0.65, 0.52), (0.85, 0.42), (0.8, 0.8)),
              ((0.46, 0.1), (0.54, 0.1), (0.54, 0.36), (0.46, 0.36)),
              ((0.37, 0.17), (0.63, 0.17), (0.63, 0.25), (0.37, 0.25)),
              ((0.2, 0.82), (0.8, 0.82), (0.8, 0.88), (0.2, 0.88))), ()),
    "rook": ((((0.22, 0.86), (0.78, 0.86), (0.78, 0.78), (0.68, 0.72), (0.68, 0.38), (0.76, 0.32),
               (0.76, 0.16), (0.66, 0.16), (0.66, 0.24), (0.56, 0.24), (0.56, 0.16), (0.44, 0.16),
               (0.44, 0.24), (0.34, 0.24), (0.34, 0.16), (0.24, 0.16), (0.24, 0.32), (0.32, 0.38),
               (0.32, 0.72), (0.22, 0.78)),), ()),
    "bishop": ((((0.5, 0.16), (0.68, 0.4), (0.62, 0.68), (0.38, 0.68), (0.32, 0.4)),
                ((0.25, 0.74), (0.75, 0.74), (0.75, 0.86), (0.25, 0.86))), ((0.5, 0.13, 0.05),)),
    "knight": ((((0.3, 0.86), (0.76, 0.86), (0.72, 0.55), (0.66, 0.3), (0.5, 0.15), (0.42, 0.2), (0.22, 0.42),
                 (0.26, 0.52), (0.45, 0.46), (0.3, 0.7)),), ()),
    "pawn": ((((0.32, 0.86), (0.68, 0.86), (0.58, 0.5), (0.42, 0.5)),), ((0.5, 0.36, 0.14),)),
}
_LETTERS = {"knight": "N", "superqueen": "S"}
_GLYPHS = {"queen": "♛", "king": "♚", "rook": "♜", "bishop": "♝", "knight": "♞"}
"""The Unicode chess pieces; a superqueen has none and keeps its letter."""


def _letter(name: str) -> str:
    return _LETTERS.get(name, name[:1].upper())


def _glyph(name: str) -> str:
    return _GLYPHS.get(name) or _letter(name)


def army_letters(puzzle: Puzzle, *, unicode: bool) -> list[str]:
    """The text symbol of each army: its piece's letter (or glyph) for one army, the armies'
    initials when they differ, else 1, 2, 3, ..."""
    if len(puzzle.armies) == 1:
        name = puzzle.armies[0].piece.name
        return [_glyph(name) if unicode else _letter(name)]
    initials = [army.name[:1].upper() for army in puzzle.armies]
    if len(set(initials)) == len(initials) and all(initials):
        return initials
    return [SYMBOLS[a % len(SYMBOLS)] for a in range(len(puzzle.armies))]


def attacked_cells(puzzle: Puzzle, placement: Iterable[Cell | Placed]) -> frozenset[Coord]:
    """Empty squares a placed piece attacks, of any army on any board (blockers cut rays): what a
    learner must avoid. `placement` holds the model's variables (`queens.models.placement`)."""
    armies = puzzle.per_army(placement)
    occupied = {cell for cells in armies for cell in cells} | puzzle.blockers
    return frozenset(square for army, cells in zip(puzzle.armies, armies, strict=True) for cell in cells
                     for square in attacked(puzzle, army.piece, cell) if square not in occupied)


@dataclass(frozen=True)
class Canvas:
    """Where each board cell is drawn: a 2-D board as it is, a cube's layer x as a block of rows
    y and columns z, the layers side by side with one empty column between them."""

    rows: int
    cols: int
    layer: int = 0
    """A cube's layer width (its third side); 0 on a 2-D board."""

    @classmethod
    def of(cls, puzzle: Puzzle) -> Canvas:
        if puzzle.dimensions == 2:
            return cls(puzzle.rows, puzzle.cols)
        layers, rows, cols = puzzle.shape
        return cls(rows, layers * (cols + 1) - 1, cols)

    def position(self, cell: tuple[int, ...]) -> Cell:
        """The canvas square of a board cell."""
        if len(cell) == 2:
            return cell[0], cell[1]
        x, y, z = cell
        return y, x * (self.layer + 1) + z

    def cell(self, square: Cell) -> Coord | None:
        """The board cell drawn on a canvas square (None: the gap between two of a cube's layers).

        >>> Canvas(3, 11, 3).cell((1, 5)), Canvas(3, 11, 3).cell((1, 3))
        ((1, 1, 1), None)
        """
        if not self.layer:
            return square
        x, z = divmod(square[1], self.layer + 1)
        return None if z == self.layer else (x, square[0], z)


def _colours(shape: str, army: int) -> tuple[str, str]:
    if shape == "pawn":
        return PAWN_FILL, PAWN_EDGE
    return ARMY_FILLS[army % len(ARMY_FILLS)], PIECE_EDGE


def army_colour(puzzle: Puzzle, army: int) -> str:
    """The fill army number `army`'s pieces are drawn in (pawns white, the others `ARMY_FILLS` in
    army order): what a legend shows beside the army's name.

    >>> from queens.models import NQueens
    >>> army_colour(NQueens(4), 0) == PIECE_FILL
    True
    """
    return _colours(puzzle.armies[army].piece.name, army)[0]


def check_drawable(puzzle: Puzzle) -> None:
    canvas = Canvas.of(puzzle)
    if max(canvas.rows, canvas.cols) > MAX_DRAWN:
        raise QueensError(f"boards are drawn up to {MAX_DRAWN} wide; {puzzle.size_text} is too large")


@dataclass(frozen=True)
class _Layer:
    """What one square shows: fill colour, an optional piece shape (of army `army`), a label."""

    fill: str
    shape: str | None = None
    label: str = ""
    cross: bool = False
    army: int = 0


def _svg(canvas: Canvas, layers: dict[Cell, _Layer], size: int, title: str,
         at: tuple[float, float] | None = None) -> str:
    """The board as an <svg> element; `at` (x, y) places it inside another one (a `Sheet`)."""
    square = size / max(canvas.rows, canvas.cols)
    width, height = square * canvas.cols, square * canvas.rows
    placed = "" if at is None else f'x="{at[0]:.0f}" y="{at[1]:.0f}" '
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" {placed}width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.2f} {height:.2f}" role="img">',
             f"<title>{html.escape(title)}</title>"]
    for (r, c), layer in layers.items():
        x, y = c * square, r * square
        parts.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{square:.2f}" height="{square:.2f}" fill="{layer.fill}"/>')
        if layer.cross:
            s = f"{square:.2f}"
            parts.append(f'<path d="M{x:.2f},{y:.2f}l{s},{s}m0,-{s}l-{s},{s}" stroke="#555" stroke-width="1.5"/>')
        if layer.shape:
            polygons, circles = SHAPES.get(layer.shape, SHAPES["queen"])
            fill, edge = _colours(layer.shape, layer.army)
            paint = f'fill="{fill}" stroke="{edge}" stroke-width="{max(square / 40, 0.5):.2f}"'
            for polygon in polygons:
                points = " ".join(f"{x + px * square:.2f},{y + py * square:.2f}" for px, py in polygon)
                parts.append(f'<polygon points="{points}" {paint}/>')
            for cx, cy, radius in circles:
                parts.append(f'<circle cx="{x + cx * square:.2f}" cy="{y + cy * square:.2f}" '
                             f'r="{radius * square:.2f}" {paint}/>')
        if layer.label:
            parts.append(f'<text x="{x + square / 2:.2f}" y="{y + square * 0.62:.2f}" text-anchor="middle" '
                         f'font-family="sans-serif" font-size="{square * 0.32:.1f}" fill="#111">'
                         f"{html.escape(layer.label)}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def _png(canvas: Canvas, layers: dict[Cell, _Layer], size: int) -> bytes:
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise MissingExtra("PNG pictures need the pictures extra (Pillow): pip install 'queens[pictures]' "
                           "(SVG needs nothing)") from None
    square = max(size // max(canvas.rows, canvas.cols), 4)
    image = Image.new("RGB", (square * canvas.cols, square * canvas.rows), "#ffffff")
    draw = ImageDraw.Draw(image)
    edge = max(square // 40, 1)
    for (r, c), layer in layers.items():
        x, y = c * square, r * square
        draw.rectangle((x, y, x + square - 1, y + square - 1), fill=layer.fill)
        if layer.cross:
            draw.line((x, y, x + square, y + square), fill="#555555", width=edge)
            draw.line((x + square, y, x, y + square), fill="#555555", width=edge)
        if layer.shape:
            polygons, circles = SHAPES.get(layer.shape, SHAPES["queen"])
            fill, outline = _colours(layer.shape, layer.army)
            for polygon in polygons:
                draw.polygon([(x + px * square, y + py * square) for px, py in polygon],
                             fill=fill, outline=outline, width=edge)
            for cx, cy, radius in circles:
                box = (x + (cx - radius) * square, y + (cy - radius) * square,
                       x + (cx + radius) * square, y + (cy + radius) * square)
                draw.ellipse(box, fill=fill, outline=outline, width=edge)
        if layer.label:
            draw.text((x + square / 2, y + square / 2), layer.label, fill="#111111", anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class _Picture:
    """Text, SVG, PNG and the Jupyter hooks, for anything that can list its squares' layers."""

    puzzle: Puzzle
    size: int

    def _layers(self) -> dict[Cell, _Layer]:
        raise NotImplementedError

    def _title(self) -> str:
        return self.puzzle.name

    def _caption(self) -> str:
        return self._title()

    def svg(self) -> str:
        """The picture as an SVG document (a string)."""
        check_drawable(self.puzzle)
        return _svg(Canvas.of(self.puzzle), self._layers(), self.size, self._title())

    def png(self) -> bytes:
        """The picture as PNG bytes (needs Pillow)."""
        check_drawable(self.puzzle)
        return _png(Canvas.of(self.puzzle), self._layers(), self.size)

    def save(self, path: str | Path, kind: str | None = None) -> Path:
        """Write the picture to exactly `path` as `kind` (svg, png or txt; by default the path's
        suffix: .svg, .png or .txt). A failure is one OutputError naming the path and the reason
        (`queens.models.output`)."""
        path = Path(path)
        suffix = f".{kind}" if kind else path.suffix.lower()
        if suffix == ".svg":
            return write_file(path, self.svg())
        if suffix == ".png":
            return write_file(path, self.png())
        if suffix == ".txt":
            return write_file(path, self.text() + "\n")
        raise QueensError(f"cannot tell the picture format of {path.name!r}: use .svg, .png or .txt")

    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return (f'<figure style="display:inline-block;margin:0">{self.svg()}'
                f"<figcaption>{html.escape(self._caption())}</figcaption></figure>")


@dataclass(frozen=True)
class Board(_Picture):
    """A puzzle with pieces on it; `show_attacks` shades the squares the pieces attack.

    `Board.of(puzzle, result)` wraps a solver's result, so a notebook cell ending in it shows the
    solution with the status as caption.
    """

    puzzle: Puzzle
    placement: Placement = ()
    show_attacks: bool = False
    caption: str = ""
    size: int = 360

    @classmethod
    def of(cls, puzzle: Puzzle, result: object, *, show_attacks: bool = False, size: int = 360) -> Board:
        """The first solution of a `solvers.Result` (or an empty board), captioned with its status;
        drawn on the puzzle it answers (a layout of pawns the solver places, a colouring's k armies)."""
        puzzle = getattr(result, "answered", None) or puzzle
        solution = getattr(result, "solution", None) or ()
        status = getattr(getattr(result, "status", None), "value", "")
        backend = getattr(result, "backend", "")
        wall = getattr(result, "wall_time", 0.0)
        caption = f"{puzzle.name}: {status} by {backend} in {wall:.3f} s"
        return cls(puzzle, tuple(solution), show_attacks, caption, size)

    def _caption(self) -> str:
        return self.caption or self.puzzle.name

    def attacked(self) -> frozenset[Coord]:
        """The squares the pieces attack, when asked (`show_attacks`)."""
        if not self.show_attacks:
            return frozenset()
        return attacked_cells(self.puzzle, self.placement)

    def _armies(self) -> dict[tuple[int, ...], int]:
        """The army of each occupied cell (the placement holds the model's variables)."""
        return {cell: a for a, cells in enumerate(self.puzzle.per_army(self.placement)) for cell in cells}

    def _layers(self) -> dict[Cell, _Layer]:
        canvas, armies, attacked = Canvas.of(self.puzzle), self._armies(), self.attacked()
        layers = {}
        for cell in self.puzzle.board_cells:
            r, c = canvas.position(cell)
            light = sum(cell) % 2 == 0
            if cell in attacked:
                fill = ATTACKED_LIGHT if light else ATTACKED_DARK
            else:
                fill = LIGHT if light else DARK
            if cell in self.puzzle.missing:
                fill = MISSING
            army = armies.get(cell)
            shape = (self.puzzle.armies[army].piece.name if army is not None
                     else "pawn" if cell in self.puzzle.blockers else None)
            layers[(r, c)] = _Layer(fill, shape, cross=cell in self.puzzle.holes, army=army or 0)
        return layers

    def text(self, marks: dict[Cell, str] | None = None, *, unicode: bool = False) -> str:
        """The `Q . ~` board: pieces by letter (one per army), `~` attacked (with show_attacks),
        p pawn, # blocked, _ missing; a cube as its layers side by side.

        `unicode` draws chess glyphs instead, as `queens solve` prints a board: `♛` a queen
        (`♜ ♝ ♞ ♚` the other pieces), `·` empty, `♟` pawn, `▪` blocked, `□` missing. `marks` overrides single
        squares (the trace marks a conflicting try with `x`).

        >>> from queens.models import NQueens
        >>> print(Board(NQueens(4), ((0, 1), (1, 3), (2, 0), (3, 2))).text(unicode=True))
        · ♛ · ·
        · · · ♛
        ♛ · · ·
        · · ♛ ·
        """
        canvas, armies, attacked, marks = Canvas.of(self.puzzle), self._armies(), self.attacked(), marks or {}
        letters = army_letters(self.puzzle, unicode=unicode)
        empty, pawn, blocked, missing = ("·", "♟", "▪", "□") if unicode else (".", "p", "#", "_")
        grid = [[" "] * canvas.cols for _ in range(canvas.rows)]
        for cell in self.puzzle.board_cells:
            r, c = canvas.position(cell)
            army = armies.get(cell)
            grid[r][c] = marks.get((r, c)) or (letters[army] if army is not None
                                               else pawn if cell in self.puzzle.blockers
                                               else blocked if cell in self.puzzle.holes
                                               else missing if cell in self.puzzle.missing
                                               else "~" if cell in attacked else empty)
        return "\n".join(" ".join(row).rstrip() for row in grid)


@dataclass(frozen=True)
class HeatMap(_Picture):
    """How many solutions use each cell (a piece of any army on it): `counts[cell]` out of
    `total` solutions, drawn on the puzzle's canvas (a cube as its layers side by side).

    >>> from queens.models import NQueens
    >>> print(HeatMap(NQueens(2), {(0, 1): 3}, 3).text())
    0 3
    0 0
    """

    puzzle: Puzzle
    counts: dict[Coord, int] = field(default_factory=dict)
    total: int = 0
    size: int = 360

    def _title(self) -> str:
        return f"{self.puzzle.name}: cell use across {self.total:,} solutions"

    def _layers(self) -> dict[Cell, _Layer]:
        top = max(self.counts.values(), default=0) or 1
        canvas = Canvas.of(self.puzzle)
        layers = {}
        for cell in self.puzzle.board_cells:
            used = self.counts.get(cell, 0)
            heat = used / top  # white (never used) to deep orange (used most)
            fill = f"#ff{round(255 - 140 * heat):02x}{round(255 - 235 * heat):02x}"
            shape = "pawn" if cell in self.puzzle.blockers else None
            layers[canvas.position(cell)] = _Layer(fill, shape, str(used) if shape is None else "",
                                                   cross=cell in self.puzzle.holes)
        return layers

    def text(self) -> str:
        """Counts per cell, right-aligned in a grid (a cube's layers side by side)."""
        canvas = Canvas.of(self.puzzle)
        width = len(str(max(self.counts.values(), default=0)))
        grid = [[" " * width] * canvas.cols for _ in range(canvas.rows)]
        for cell in self.puzzle.board_cells:
            r, c = canvas.position(cell)
            grid[r][c] = f"{self.counts.get(cell, 0):>{width}}"
        return "\n".join(" ".join(row).rstrip() for row in grid)


@dataclass(frozen=True)
class Sheet(_Picture):
    """Boards in rows, each with its caption above it: what one picture cannot say alone, such as
    a solution's images under the board's symmetries (`queens show --symmetries`).

    >>> from queens.models import NQueens
    >>> sheet = Sheet((Board(NQueens(4), ((0, 1), (1, 3), (2, 0), (3, 2)), caption="identity"),
    ...                Board(NQueens(4), ((0, 2), (1, 0), (2, 3), (3, 1)), caption="flip columns")))
    >>> print(sheet.text())
    identity   flip columns
    . Q . .    . . Q .
    . . . Q    Q . . .
    Q . . .    . . . Q
    . . Q .    . Q . .
    """

    boards: tuple[Board, ...]
    columns: int = 4
    size: int = 180
    """Each board's side in pixels."""

    GAP: ClassVar[int] = 16
    CAPTION: ClassVar[int] = 22

    def _rows(self) -> list[tuple[Board, ...]]:
        return [self.boards[i:i + self.columns] for i in range(0, len(self.boards), self.columns)]

    def text(self, *, unicode: bool = False) -> str:
        """The boards as text, side by side, a row of `columns` at a time, each under its caption."""
        blocks = []
        for row in self._rows():
            drawn = [[board.caption, *board.text(unicode=unicode).splitlines()] for board in row]
            widths = [max(len(line) for line in lines) for lines in drawn]
            height = max(len(lines) for lines in drawn)
            blocks.append("\n".join("   ".join((lines[i] if i < len(lines) else "").ljust(width)
                                                for lines, width in zip(drawn, widths, strict=True)).rstrip()
                                     for i in range(height)))
        return "\n\n".join(blocks)

    def _cell(self, board: Board) -> tuple[int, int]:
        canvas = Canvas.of(board.puzzle)
        square = self.size / max(canvas.rows, canvas.cols)
        return round(square * canvas.cols), round(square * canvas.rows)

    def _layout(self) -> tuple[list[tuple[Board, int, int]], int, int]:
        """Where each board goes (its top-left corner, below its caption) and the sheet's size."""
        placed, y, width = [], 0, 0
        for row in self._rows():
            x, tallest = 0, 0
            for board in row:
                w, h = self._cell(board)
                placed.append((board, x, y + self.CAPTION))
                x, tallest = x + w + self.GAP, max(tallest, h)
            width, y = max(width, x - self.GAP), y + self.CAPTION + tallest + self.GAP
        return placed, width, y - self.GAP

    def svg(self) -> str:
        """The sheet as one SVG document, each board an <svg> of its own inside it."""
        placed, width, height = self._layout()
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                 f'viewBox="0 0 {width} {height}" role="img">']
        for board, x, y in placed:
            check_drawable(board.puzzle)
            parts.append(f'<text x="{x}" y="{y - 6}" font-family="sans-serif" font-size="14" fill="#111">'
                         f"{html.escape(board.caption)}</text>")
            parts.append(_svg(Canvas.of(board.puzzle), board._layers(), self.size, board._caption(), (x, y)))
        parts.append("</svg>")
        return "\n".join(parts)

    def png(self) -> bytes:
        """The sheet as PNG bytes (needs Pillow, as a board's PNG does)."""
        placed, width, height = self._layout()
        pictures = [replace(board, size=self.size).png() for board, _, _ in placed]
        from PIL import Image, ImageDraw, ImageFont  # there: each board's PNG above needed it

        sheet = Image.new("RGB", (width, height), "#ffffff")
        draw = ImageDraw.Draw(sheet)
        font = ImageFont.load_default(size=14)
        for (board, x, y), data in zip(placed, pictures, strict=True):
            sheet.paste(Image.open(io.BytesIO(data)), (x, y))
            draw.text((x, y - 6), board.caption, fill="#111111", anchor="ls", font=font)
        buffer = io.BytesIO()
        sheet.save(buffer, format="PNG")
        return buffer.getvalue()

    def _title(self) -> str:
        return ", ".join(board.caption for board in self.boards)
