// queens explorer: the page's state, drawn on the board, updated over the JSON API.
// Plain JavaScript modules on purpose: no build step, nothing fetched but our own server's files.
//
// The page in parts, one module each:
//   board.js    the board as an ARIA grid (coordinates, keyboard, focus kept), painted from a view
//   legend.js   the armies' colours and names, and what the marks mean
//   address.js  the board in the address (#family=...&n=...&queens=...): links, back and forward
//   calls.js    the JSON API, and the searches as named jobs (progress, cancel)
//   app.js      (this file) the state, the actions behind the buttons, the search replayed
// A panel beside the board (a search tree, say) is a module of its own: a <div class="pane"> in
// index.html's .panes, and `onPaint(listener)` (board.js) to follow what the board shows.

import { paint, clear as clearBoard, listen, onPress } from "./board.js";
import { drawLegend } from "./legend.js";
import { read, remember, replace } from "./address.js";
import { call, searching, cancel } from "./calls.js";
import { searchPanel, offerChoices } from "./tree.js";

const FILE = "";  // the family menu's value for "your puzzle file"
const EXAMPLE = `# Kings and knights: the most k such that k kings and k knights share the board, none attacked.
title = "Kings and knights"
[board]
shape = ["n", "n"]
[[army]]
name = "kings"
piece = "king"
count = "maximise"
[[army]]
name = "knights"
piece = "knight"
count = "maximise"
`;

const state = {
  info: null,        // /api/info: families, backends, limits
  board: null,       // /api/board: the board as the user set it
  family: "nqueens", // the family shown, or the one to return to when a file is open
  file: null,        // the text of the user's own puzzle file, when one is open
  queens: [],        // pieces the user placed, as [r, c]
  pawns: [],         // pawns the user placed (nine queens)
  shown: null,       // a solver's solution on display, or null
  shownArmies: [],   // the army of each piece of `shown` (parallel list)
  shownPawns: null,  // pawns the solver placed for the solution on display, or null
  index: -1,         // which solution "next solution" showed last
  culprits: [],      // /api/why's subset: the givens that have no solution by themselves
  trace: null,       // /api/trace reply: events and each cell's neighbours
  at: -1,            // the trace event on display
  timer: null,       // the play loop
  busy: false,       // a call is on its way: the board waits
};

const $ = (id) => document.getElementById(id);
const key = (cell) => `${cell[0]},${cell[1]}`;
const BUTTONS = ["complete", "count", "next", "why", "clear", "play", "step", "rewind", "file-open"];

function say(text, kind) {
  const message = $("message");
  message.textContent = text;
  message.className = "message" + (kind ? " " + kind : "");
}

function timing(reply, what) {
  if (reply.time === undefined) return;
  const by = what || (reply.method ? `${reply.backend}/${reply.method}` : reply.backend);
  $("timing").textContent = `${by}: ${(reply.time * 1000).toFixed(1)} ms`;
}

// --- the board's state, in requests and in the address ------------------------------------

function where() {
  return { family: state.family, file: state.file, n: Number($("n").value), queens: state.queens,
           pawns: state.pawns, backend: $("backend").value };
}

/** What every call reads: the puzzle (a family or the file) and the user's pieces. */
function puzzleBody() {
  const body = state.file !== null ? { file: state.file } : { family: state.family };
  body.n = Number($("n").value);
  body.queens = state.queens;
  if (state.pawns.length) body.pawns = state.pawns;
  return body;
}

function solvingBody(extra) {
  return { ...puzzleBody(), backend: $("backend").value, ...(extra || {}) };
}

function busy(on) {
  state.busy = on;
  for (const id of BUTTONS) $(id).disabled = on;
}

async function guarded(action) {
  busy(true);
  try {
    await action();
  } catch (error) {
    say(error.message, "error");
    $("timing").textContent = "";
  } finally {
    busy(false);
  }
}

// --- drawing ---------------------------------------------------------------------------

function show(view) {
  const full = paint(state.board, view, state.queens);
  drawLegend(state.board, full);
}

function drawBoard() {
  const b = state.board;
  if (state.shown) {
    show({ pieces: state.shown, armies: state.shownArmies, pawns: state.shownPawns, attacked: [], conflicts: [] });
    return;
  }
  show({ pieces: b.queens, attacked: b.attacked, conflicts: b.conflicts.flat(), culprits: state.culprits });
}

function describeBoard() {
  const b = state.board;
  if (b.pawns_first && !state.pawns.length) {
    say(`${b.name}: place the pawns first (click places: pawn), or let the solver place them: complete`);
  } else if (b.conflicts.length) {
    const [a, c] = b.conflicts[0];
    say(`pieces at (${a}) and (${c}) attack each other`, "error");
  } else {
    const goal = b.pieces === null ? "" : ` of ${b.pieces}`;
    say(`${b.name}: ${b.queens.length}${goal} ${b.piece}s placed`);
  }
}

function showAsks() {
  const source = state.file !== null ? "your puzzle file" : state.family;
  $("asks").textContent = state.board ? `${source}: ${state.board.asks}` : "";
}

// --- actions ---------------------------------------------------------------------------

function forgetSolver() {
  stopTrace();
  state.shown = null;
  state.shownArmies = [];
  state.shownPawns = null;
  state.index = -1;
  state.trace = null;
  state.at = -1;
  $("counters").textContent = "";
  offerWhy(false);
}

// "why?" is offered after every "no solution": the family's count is a given even on an empty
// board (no 3 queens fit on 3 x 3), besides the placed pieces, pawns and holes.
function offerWhy(noSolution) {
  $("why").hidden = !noSolution;
  state.culprits = [];
  $("reasons").replaceChildren();
}

/** Ask for the board as it now is and draw it; `step` records it in the history (a new step, or
 * "replace" for the first board and one the history restored). */
async function refresh(step) {
  state.board = await call("board", puzzleBody());
  drawBoard();
  describeBoard();
  showAsks();
  if (step === "replace") replace(where());
  else remember(where());
}

function place(cell) {
  if (state.busy || !state.board) return;
  guarded(() => placed(cell));
}

async function placed(cell) {
  const k = key(cell);
  const pawnMode = !$("mode").hidden && document.querySelector("input[name=mode]:checked").value === "pawn";
  if (state.board.blocked.some((b) => key(b) === k)) return;
  if (!state.board.placeable && !pawnMode) {
    say(`${state.board.name}: the solver places these pieces; use complete, count or next solution`, "none");
    return;
  }
  if (pawnMode) {
    if (state.queens.some((q) => key(q) === k)) return;
    state.pawns = toggle(state.pawns, cell);
  } else {
    if (state.pawns.some((p) => key(p) === k)) return;
    state.queens = toggle(state.queens, cell);
  }
  forgetSolver();
  $("timing").textContent = "";
  await refresh();
}

function toggle(cells, cell) {
  const k = key(cell);
  return cells.some((c) => key(c) === k) ? cells.filter((c) => key(c) !== k) : [...cells, cell];
}

function showReply(reply) {
  if (reply.solution && reply.solution.length) {
    state.shown = reply.solution;
    state.shownArmies = reply.armies || [];
    state.shownPawns = reply.pawns || null;
    drawBoard();
  }
  const kind = ["solved", "optimal", "complete"].includes(reply.status) ? "ok" : "none";
  say(reply.message, kind);
  offerWhy(reply.status === "no solution" && !reply.index);  // not "no solution number 5": there are 4
  timing(reply);
}

// --- searches: progress and cancel ------------------------------------------------------

function progressed(report) {
  const parts = [report.strategy || "starting"];
  if (report.total) parts.push(`${report.done.toLocaleString("en")} of ${report.total.toLocaleString("en")} parts`);
  if (report.solutions !== undefined) parts.push(`${report.solutions.toLocaleString("en")} solutions so far`);
  if (report.bound !== undefined) parts.push(`at least ${report.bound} proved`);
  parts.push(`${report.elapsed.toFixed(1)} s`);
  $("progress-text").textContent = parts.join(" · ");
  const bar = $("bar");
  if (report.total) bar.value = report.done / report.total;
  else bar.removeAttribute("value");  // indeterminate: no parts to count
}

/** A call that searches, with its progress shown and a cancel button while it runs. */
async function searched(route, body, what) {
  say(what);
  $("bar").removeAttribute("value");
  $("progress-text").textContent = "";
  $("progress").hidden = false;
  $("cancel").disabled = false;
  try {
    return await searching(route, body, progressed);
  } finally {
    $("progress").hidden = true;
  }
}

async function complete() {
  forgetSolver();
  drawBoard();
  showReply(await searched("complete", solvingBody(), "solving…"));
}

async function countSolutions() {
  const reply = await searched("count", solvingBody(), "counting…");
  say(reply.message, reply.status === "complete" && reply.count > 0 ? "ok" : "none");
  offerWhy(reply.status === "complete" && reply.count === 0);
  timing(reply);
}

async function nextSolution() {
  stopTrace();
  state.trace = null;
  const reply = await searched("solution", solvingBody({ index: state.index + 1 }), "looking for the next solution…");
  if (reply.status === "solved") state.index += 1;
  else if (reply.status === "cancelled") return say(reply.message, "none");  // the same solution comes next
  else if (state.index >= 0) reply.message += "; starting again from the first";
  if (reply.status !== "solved") state.index = -1;
  showReply(reply);
}

// The fewest givens with no solution (as `queens why` finds them), ringed on the board and listed
// in the command's words: the first line as the message, one line per given below it.
async function whyNot() {
  const reply = await searched("why", puzzleBody(), "looking for the fewest givens with no solution…");
  if (reply.status === "cancelled") {
    say(reply.message, "none");
    return;
  }
  state.shown = null;
  state.culprits = reply.subset.filter((given) => given.cell).map((given) => given.cell);  // a count has no square
  drawBoard();
  say(reply.message, reply.status === "solved" ? "ok" : "none");
  $("reasons").replaceChildren(...reply.lines.slice(1).map((line) => {
    const item = document.createElement("li");
    item.textContent = line.trim();
    return item;
  }));
  $("why").hidden = true;
  if (reply.time !== undefined) $("timing").textContent = `why: ${reply.calls} SAT calls, ${(reply.time * 1000).toFixed(1)} ms`;
}

async function clearPieces() {
  state.queens = [];
  state.pawns = [];
  forgetSolver();
  $("timing").textContent = "";
  await refresh();
}

// A new family, size or file starts from nothing: no pieces, no pawns, no result, no board until
// the server has drawn the new one (so an error never leaves the previous board on show).
async function newBoard(step) {
  const family = state.info.families.find((f) => f.name === state.family);
  const pawns = state.file === null && family !== undefined && family.pawns;
  $("mode").hidden = !pawns;
  document.querySelector(`input[name=mode][value=${pawns ? "pawn" : "queen"}]`).checked = true;
  $("family").value = state.file !== null ? FILE : state.family;
  $("file-option").hidden = state.file === null;
  state.board = null;
  clearBoard();
  $("legend").replaceChildren();
  $("asks").textContent = family && state.file === null ? `${state.family}: ${family.description}` : "";
  say("");
  forgetSolver();
  $("timing").textContent = "";
  await refresh(step);
}

async function chooseFamily() {
  if ($("family").value === FILE) return;
  state.family = $("family").value;
  state.file = null;
  state.queens = [];
  state.pawns = [];
  await newBoard();
}

async function resize() {
  state.queens = [];
  state.pawns = [];
  await newBoard();
}

// --- the user's own puzzle file ------------------------------------------------------------

async function openFile(text) {
  state.file = text;
  state.queens = [];
  state.pawns = [];
  await newBoard();
}

async function chooseFile() {
  const chosen = $("file-choose").files[0];
  if (!chosen) return;
  if (chosen.size > 4 * state.info.limits.file_chars) {  // UTF-8: at most 4 bytes a character
    throw new Error(`${chosen.name}: ${chosen.size.toLocaleString("en")} bytes; the explorer reads puzzle files ` +
                    `of at most ${state.info.limits.file_chars.toLocaleString("en")} characters`);
  }
  $("file-text").value = await chosen.text();
  await openFile($("file-text").value);
}

// --- the search, replayed ---------------------------------------------------------------

async function loadTrace() {
  if (state.trace) return true;
  say("recording the search…");
  state.trace = await call("trace", puzzleBody());
  state.at = -1;
  if (!state.trace.events.length) {
    say(state.trace.message, "none");
    state.trace = null;
    return false;
  }
  return true;
}

function showEvent() {
  const event = state.trace.events[state.at];
  const near = state.trace.neighbours;
  const attacked = new Set();
  for (const piece of event.placement) for (const cell of near[key(piece)] || []) attacked.add(key(cell));
  for (const piece of event.placement) attacked.delete(key(piece));
  state.shown = null;
  paint(state.board, {
    pieces: event.placement,
    attacked: [...attacked].map((k) => k.split(",").map(Number)),
    conflicts: event.attacker ? [event.attacker] : [],
    tried: event.step === "conflict" ? key(event.cell) : null,
  }, state.queens);
  const what = {
    place: `place (${event.cell})`,
    conflict: `(${event.cell}) is attacked by (${event.attacker})`,
    backtrack: `backtrack: remove (${event.cell})`,
    solution: `solution ${event.solutions}`,
    size: `try ${event.size} pieces`,
  }[event.step];
  say(`step ${state.at + 1} of ${state.trace.events.length}: ${what}`, event.step === "solution" ? "ok" : "");
  $("counters").textContent = `depth ${event.depth} · nodes ${event.nodes} · conflicts ${event.conflicts} · ` +
    `backtracks ${event.backtracks} · solutions ${event.solutions}`;
  if (state.at === state.trace.events.length - 1) {
    stopTrace();
    if (event.solutions === 0) say(`search finished: ${state.trace.message}`, "none");
  }
}

async function stepTrace() {
  if (!(await loadTrace())) return;
  if (state.at < state.trace.events.length - 1) state.at += 1;
  showEvent();
}

function stopTrace() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  $("play").textContent = "play";
}

async function playTrace() {
  if (state.timer) {
    stopTrace();
    return;
  }
  if (!(await loadTrace())) return;
  if (state.at >= state.trace.events.length - 1) state.at = -1;
  $("play").textContent = "pause";
  const tick = () => {
    state.at += 1;
    showEvent();
  };
  state.timer = setInterval(tick, 1000 / Number($("speed").value));
}

function rewindTrace() {
  stopTrace();
  state.trace = null;
  state.at = -1;
  $("counters").textContent = "";
  drawBoard();
  describeBoard();
}

// --- start, and the history ----------------------------------------------------------------

/** Take the board the address describes (a shared link, or back and forward). */
function restore(hash) {
  const found = read(hash);
  state.file = found.file;
  if (found.family !== null) state.family = found.family;
  if (found.n !== null) $("n").value = found.n;
  if (found.backend !== null) $("backend").value = found.backend;
  state.queens = found.queens;
  state.pawns = found.pawns;
  if (found.file !== null) $("file-text").value = found.file;
}

function wire() {
  const on = (id, event, action) => $(id).addEventListener(event, () => guarded(action));
  on("family", "change", chooseFamily);
  on("n", "change", resize);
  on("backend", "change", () => refresh());
  on("complete", "click", complete);
  on("count", "click", countSolutions);
  on("next", "click", nextSolution);
  on("why", "click", whyNot);
  on("clear", "click", clearPieces);
  on("play", "click", playTrace);
  on("step", "click", stepTrace);
  on("file-open", "click", () => openFile($("file-text").value));
  on("file-choose", "change", chooseFile);
  $("file-example").addEventListener("click", () => {
    $("file-text").value = EXAMPLE;
  });
  $("cancel").addEventListener("click", () => {
    $("cancel").disabled = true;
    cancel().catch((error) => say(error.message, "error"));
  });
  $("rewind").addEventListener("click", rewindTrace);
  $("speed").addEventListener("input", () => {
    if (state.timer) {
      stopTrace();
      playTrace();
    }
  });
  window.addEventListener("popstate", () => guarded(async () => {
    restore(location.hash);
    await newBoard("replace");
  }));
  onPress(place);
  listen();
  searchPanel({ body: puzzleBody, board: () => state.board, mine: () => state.queens, searched, guarded, say });
}

async function start() {
  state.info = await call("info");
  for (const family of state.info.families) $("family").add(new Option(family.name, family.name));
  for (const backend of state.info.backends) $("backend").add(new Option(backend, backend));
  $("n").max = state.info.limits.side;
  $("file-text").maxLength = state.info.limits.file_chars;
  offerChoices(state.info.search);
  wire();
  restore(location.hash);
  await newBoard("replace");
}

guarded(start);
