// The board as an ARIA grid: coordinates on its edges, one focusable square at a time, arrows to
// move and Enter or Space to place, for a keyboard and a screen reader as for a mouse.
//
// The squares are built once per board shape (`build`) and repainted in place (`paint`): the
// square that has the focus keeps it after a placement, since it is never replaced. Squares are
// named in the puzzle file's words (docs/puzzle-files.md): "row r, column c" counted from 0, as
// in `fixed = [[r, c]]`, `--queens r,c` and `queens why`; a cube's cell is "x, y, z".

export const GLYPHS = { queen: "♛", rook: "♜", bishop: "♝", knight: "♞", king: "♚", superqueen: "♛", pawn: "♟" };
export const SOLVER = "#1d4ed8";  // a one-army board's pieces placed by the solver (the user's are the army's colour)

const grid = () => document.getElementById("board");
let shape = null;        // { rows, cols, layer, gaps }: what the squares were built for
let cursor = [0, 0];     // the square that takes the focus (tabindex 0): the last one moved to or clicked
let pressed = () => {};  // what a click, Enter or Space on a square does: `place([r, c])`
const painted = [];      // listeners told of each view painted: panels beside the board follow it

const key = (cell) => `${cell[0]},${cell[1]}`;

/** Call `listener(view, board)` after every paint: a panel beside the board (a search tree) follows it. */
export function onPaint(listener) {
  painted.push(listener);
}

/** What a click, Enter or Space on the square [r, c] does. */
export function onPress(action) {
  pressed = action;
}

/** A square's name in the file format's words. */
export function squareName(board, r, c) {
  if (!board.layer) return `row ${r}, column ${c}`;
  const x = Math.floor(c / (board.layer + 1));
  return `x ${x}, y ${r}, z ${c % (board.layer + 1)}`;
}

function sameShape(board) {
  return shape && shape.rows === board.rows && shape.cols === board.cols && shape.layer === board.layer &&
    shape.gaps === JSON.stringify(board.gaps || []);
}

function header(role, text, label) {
  const cell = document.createElement("div");
  cell.setAttribute("role", role);
  cell.className = "coord";
  cell.textContent = text;
  if (label) cell.setAttribute("aria-label", label);
  return cell;
}

/** The squares for this board's shape (kept when the shape is the one already built). */
export function build(board) {
  if (sameShape(board)) return;
  const hadFocus = grid().contains(document.activeElement);
  shape = { rows: board.rows, cols: board.cols, layer: board.layer, gaps: JSON.stringify(board.gaps || []) };
  const gaps = new Set((board.gaps || []).map(key));
  const g = grid();
  g.style.setProperty("--rows", board.rows);
  g.style.setProperty("--cols", board.cols);
  g.setAttribute("aria-rowcount", board.rows + 1);
  g.setAttribute("aria-colcount", board.cols + 1);
  g.setAttribute("aria-label", `board, ${board.rows} rows by ${board.cols} columns`);
  const top = document.createElement("div");
  top.setAttribute("role", "row");
  top.append(header("columnheader", "", "row and column"));
  for (let c = 0; c < board.cols; c++) {
    const gap = gaps.has(`0,${c}`) && gaps.has(`${board.rows - 1},${c}`);
    const name = board.layer ? `x ${Math.floor(c / (board.layer + 1))}, z ${c % (board.layer + 1)}` : `column ${c}`;
    top.append(header("columnheader", gap ? "" : String(board.layer ? c % (board.layer + 1) : c), gap ? "" : name));
  }
  const rows = [top];
  for (let r = 0; r < board.rows; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.append(header("rowheader", String(r), board.layer ? `y ${r}` : `row ${r}`));
    for (let c = 0; c < board.cols; c++) row.append(square(r, c, gaps.has(`${r},${c}`)));
    rows.push(row);
  }
  g.replaceChildren(...rows);
  cursor = firstSquare();
  const first = at(cursor);
  if (first) first.tabIndex = 0;  // the board's one stop in the tab order
  if (hadFocus) focusCursor();
}

function square(r, c, gap) {
  const cell = document.createElement("div");
  cell.dataset.r = r;
  cell.dataset.c = c;
  if (gap) {  // between a cube's layers: no square, skipped by the arrows
    cell.className = "cell gap";
    cell.setAttribute("role", "gridcell");
    cell.setAttribute("aria-hidden", "true");
    return cell;
  }
  cell.className = "cell";
  cell.setAttribute("role", "gridcell");
  cell.tabIndex = -1;
  cell.addEventListener("click", () => {
    moveTo([r, c]);
    pressed([r, c]);
  });
  return cell;
}

function at(cell) {
  return grid().querySelector(`.cell[data-r="${cell[0]}"][data-c="${cell[1]}"]:not(.gap)`);
}

function firstSquare() {
  const first = grid().querySelector(".cell:not(.gap)");
  return first ? [Number(first.dataset.r), Number(first.dataset.c)] : [0, 0];
}

function moveTo(cell) {
  const previous = at(cursor);
  if (previous) previous.tabIndex = -1;
  cursor = cell;
  const next = at(cursor);
  if (next) next.tabIndex = 0;
}

function focusCursor() {
  const cell = at(cursor);
  if (cell) {
    cell.tabIndex = 0;
    cell.focus();
  }
}

/** The square the arrow leads to from [r, c]: the next one that exists (gaps skipped), or [r, c] at the edge. */
function step([r, c], dr, dc) {
  for (let nr = r + dr, nc = c + dc; nr >= 0 && nc >= 0 && nr < shape.rows && nc < shape.cols; nr += dr, nc += dc) {
    if (at([nr, nc])) return [nr, nc];
  }
  return [r, c];
}

const MOVES = {
  ArrowUp: (cell) => step(cell, -1, 0),
  ArrowDown: (cell) => step(cell, 1, 0),
  ArrowLeft: (cell) => step(cell, 0, -1),
  ArrowRight: (cell) => step(cell, 0, 1),
  Home: ([r]) => step([r, -1], 0, 1),
  End: ([r]) => step([r, shape.cols], 0, -1),
  PageUp: ([, c]) => step([-1, c], 1, 0),
  PageDown: ([, c]) => step([shape.rows, c], -1, 0),
};

function keyed(event) {
  if (!shape || !event.target.classList.contains("cell")) return;
  if (MOVES[event.key]) {
    event.preventDefault();
    moveTo(MOVES[event.key](cursor));
    focusCursor();
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();  // Space would scroll the page
    pressed(cursor);
  }
}

/** Listen to the keyboard on the board (once, at start). */
export function listen() {
  grid().addEventListener("keydown", keyed);
}

/** The square [r, c]'s state as words, after its name: what a screen reader says. */
function describe(board, view, k, r, c) {
  const words = [squareName(board, r, c)];
  const piece = view.pieceAt.get(k);
  if (piece) words.push(piece.words);
  else if (view.pawnSet.has(k)) words.push("pawn");
  else if (view.blockedSet.has(k)) words.push("blocked");
  else words.push(view.attackedSet.has(k) ? "attacked" : "empty");
  if (view.conflictSet.has(k)) words.push("attacks another piece");
  if (view.culpritSet.has(k)) words.push("one of the givens that have no solution together");
  if (view.tried === k) words.push("tried here");
  if (view.possibleSet.has(k)) words.push("still possible");
  if (view.removedSet.has(k)) words.push(view.struckSet.has(k) ? "removed by this step" : "removed");
  if (view.decided === k) words.push("the decision");
  return words.join(", ");
}

/** Who each piece of the view is: its army, its colour, its glyph and its words. */
function pieces(board, view, mine) {
  const found = new Map();
  const armies = view.armies || [];
  const many = board.armies.length > 1 || armies.some((army) => army > 0);  // armies, or a colouring's copies
  view.pieces.forEach((cell, i) => {
    const k = key(cell);
    const army = armies[i] || 0;
    const own = board.armies[army] || board.armies[0];
    const yours = mine.has(k);
    const colour = yours || many ? board.palette[army % board.palette.length] : SOLVER;
    const named = board.armies[army] && board.armies.length > 1 ? own.name : `${own.name} ${army + 1}`;
    const whose = yours ? "" : many ? ` of ${named}` : " placed by the solver";
    found.set(k, { army, piece: own.piece, yours, colour, words: `${own.piece}${whose}` });
  });
  return found;
}

/**
 * Paint `view` on the board's squares: { pieces, armies, pawns, attacked, conflicts, culprits, tried }, and a
 * search's domains (tree.js): { possible, removed, struck (removed by the step shown), decided (a key "r,c") },
 * cells as [r, c] on the canvas; `mine` the user's own pieces (drawn in their army's colour).
 */
export function paint(board, view, mine) {
  build(board);
  const full = {
    ...view,
    pieceAt: pieces(board, view, new Set(mine.map(key))),
    pawnSet: new Set((view.pawns || board.pawns).map(key)),
    blockedSet: new Set(board.blocked.map(key)),
    attackedSet: new Set((view.attacked || []).map(key)),
    conflictSet: new Set((view.conflicts || []).map(key)),
    culpritSet: new Set((view.culprits || []).map(key)),
    possibleSet: new Set((view.possible || []).map(key)),
    removedSet: new Set((view.removed || []).map(key)),
    struckSet: new Set((view.struck || []).map(key)),
  };
  for (const cell of grid().querySelectorAll(".cell:not(.gap)")) {
    const r = Number(cell.dataset.r);
    const c = Number(cell.dataset.c);
    paintSquare(cell, board, full, r, c);
  }
  for (const listener of painted) listener(full, board);
  return full;
}

function paintSquare(cell, board, view, r, c) {
  const k = `${r},${c}`;
  const piece = view.pieceAt.get(k);
  const classes = ["cell", (r + c) % 2 === 0 ? "light" : "dark"];
  cell.textContent = "";
  cell.style.color = "";
  if (piece) {
    classes.push("queen", `army${piece.army % 8}`);
    if (!piece.yours) classes.push("solver");
    cell.textContent = GLYPHS[piece.piece] || piece.piece.slice(0, 1).toUpperCase();
    cell.style.color = piece.colour;
  } else if (view.pawnSet.has(k)) {
    classes.push("pawn");
    cell.textContent = GLYPHS.pawn;
  } else if (view.blockedSet.has(k)) {
    classes.push("blocked");
  } else if (view.attackedSet.has(k)) {
    classes.push("attacked");
  } else if (view.possibleSet.has(k)) {
    classes.push("possible");
  } else if (view.removedSet.has(k)) {
    classes.push("removed", ...(view.struckSet.has(k) ? ["struck"] : []));
  }
  if (view.decided === k) classes.push("decided");
  if (view.conflictSet.has(k)) classes.push("conflict");
  if (view.culpritSet.has(k)) classes.push("culprit");
  if (view.tried === k) classes.push("tried");
  cell.className = classes.join(" ");
  cell.setAttribute("aria-label", describe(board, view, k, r, c));
}

/** Forget the squares (a new board is on its way, or none: an error must not leave a stale one). */
export function clear() {
  shape = null;
  grid().replaceChildren();
}
