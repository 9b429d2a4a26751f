// The legend under the board: each army in its colour and by its name (the user's pieces and the
// solver's on a one-army board), pawns, and what the squares' marks mean. Drawn from the view the
// board shows, so a colouring's copies appear as the solver places them.

import { GLYPHS, SOLVER } from "./board.js";

function item(swatch, text, colour, kind) {
  const li = document.createElement("li");
  const mark = document.createElement("span");
  mark.className = `swatch ${kind || ""}`.trim();
  mark.textContent = swatch;
  mark.setAttribute("aria-hidden", "true");
  if (colour) mark.style.color = colour;
  li.append(mark, document.createTextNode(" " + text));
  return li;
}

function plural(name) {
  return name.endsWith("s") ? name : `${name}s`;
}

function armies(board, view) {
  const items = [];
  const glyph = (piece) => GLYPHS[piece] || piece.slice(0, 1).toUpperCase();
  const shown = [...view.pieceAt.values()];
  const highest = Math.max(board.armies.length - 1, ...shown.map((p) => p.army));  // a colouring's copies too
  if (highest === 0) {  // one army: the user's pieces and the solver's, told apart by colour
    const piece = board.armies[0].piece;
    if (board.placeable || shown.some((p) => p.yours)) items.push(item(glyph(piece), `your ${plural(piece)}`, board.palette[0]));
    items.push(item(glyph(piece), `the solver's ${plural(piece)}`, SOLVER));
    return items;
  }
  for (let army = 0; army <= highest; army++) {  // armies by name, copies by number, as the board draws them
    const own = board.armies[army] || board.armies[0];
    const name = board.armies.length > 1 ? own.name : `${own.name} ${army + 1}`;
    items.push(item(glyph(own.piece), name, board.palette[army % board.palette.length]));
  }
  return items;
}

/** The legend for the board and the view on it (as `paint` completed it). */
export function drawLegend(board, view) {
  const items = armies(board, view);
  if (board.pawns.length || view.pawnSet.size || board.pawns_first) items.push(item(GLYPHS.pawn, "pawn", "", "pawn"));
  if (board.blocked.length) items.push(item("", "blocked square", "", "blocked"));
  if (board.placeable) {
    items.push(item("", "attacked square", "", "attacked"));
    items.push(item("", "pieces that attack each other", "", "conflict"));
  }
  if (view.culpritSet.size) items.push(item("", "givens with no solution together", "", "culprit"));
  if (view.search) {  // a search's domains (tree.js)
    items.push(item("", "still possible", "", "possible"));
    items.push(item("", "removed", "", "removed"));
    items.push(item("", "removed by this step", "", "removed struck"));
    if (view.decided) items.push(item("", "the decision", "", "decided"));
  }
  if (board.layer) {
    const layers = (board.cols + 1) / (board.layer + 1);
    items.push(item("", `a cube: its layers x = 0 to ${layers - 1}, left to right`));
  }
  document.getElementById("legend").replaceChildren(...items);
}
