// The board in the address: a link reopens the same board, and back and forward step through
// the changes (a placement, a family, a size, a file opened).
//
// It lives in the fragment (#...), which the browser keeps to itself: the server never sees it,
// however long a pasted file makes it. Cells are written as the puzzle files and the CLI write
// them, r,c, joined by ";":  #family=nqueens&n=8&queens=0,1;4,2  or  #file=<the text>&n=6

const CELLS = /^\d+,\d+(;\d+,\d+)*$/;

function cells(text) {
  if (!text || !CELLS.test(text)) return [];
  return text.split(";").map((pair) => pair.split(",").map(Number));
}

function written(list) {
  return list.map((cell) => `${cell[0]},${cell[1]}`).join(";");
}

/** The board the fragment describes: { family, file, n, queens, pawns, backend }, each null when absent. */
export function read(hash) {
  const found = { family: null, file: null, n: null, queens: [], pawns: [], backend: null };
  for (const part of hash.replace(/^#/, "").split("&")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const name = part.slice(0, at);
    let value;
    try {
      value = decodeURIComponent(part.slice(at + 1));
    } catch (error) {
      continue;  // a mangled link: that part is left out, the rest still opens
    }
    if (name === "queens" || name === "pawns") found[name] = cells(value);
    else if (name === "n") found.n = Number(value);
    else if (name in found) found[name] = value;
  }
  return found;
}

/** The fragment for a board; the backend only when one is chosen, pawns only when placed. */
export function write(board) {
  const parts = board.file !== null ? [`file=${encodeURIComponent(board.file)}`] : [`family=${board.family}`];
  parts.push(`n=${board.n}`);
  if (board.queens.length) parts.push(`queens=${written(board.queens)}`);
  if (board.pawns.length) parts.push(`pawns=${written(board.pawns)}`);
  if (board.backend && board.backend !== "auto") parts.push(`backend=${encodeURIComponent(board.backend)}`);
  return "#" + parts.join("&");
}

/** Record the board as a new step of the history (nothing when the address says it already). */
export function remember(board) {
  const hash = write(board);
  if (hash !== location.hash) history.pushState(null, "", hash);
}

/** Say the board in the address without a new step (the first board, or one the history restored). */
export function replace(board) {
  const hash = write(board);
  if (hash !== location.hash) history.replaceState(null, "", hash);
}
