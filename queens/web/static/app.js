// queens explorer: the page's state, drawn on a grid of buttons, updated over the JSON API.
// Plain JavaScript on purpose: no build step, nothing fetched from the network but our own server.
"use strict";

const GLYPHS = { queen: "♛", rook: "♜", bishop: "♝", knight: "♞", king: "♚", superqueen: "♛", pawn: "♟" };

const state = {
  info: null,        // /api/info: families, backends, limits
  board: null,       // /api/board: the board as the user set it
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
};

const $ = (id) => document.getElementById(id);
const key = (cell) => `${cell[0]},${cell[1]}`;

function say(text, kind) {
  const message = $("message");
  message.textContent = text;
  message.className = "message" + (kind ? " " + kind : "");
}

async function call(route, body) {
  let response;
  try {
    response = await fetch(`/api/${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error("the explorer does not answer: is `queens serve` still running?");
  }
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(reply.error || `the explorer answered HTTP ${response.status}`);
  return reply;
}

function request(extra) {
  return Object.assign({
    family: $("family").value, n: Number($("n").value), queens: state.queens, pawns: state.pawns,
    backend: $("backend").value,
  }, extra || {});
}

function busy(on) {
  for (const id of ["complete", "count", "next", "why", "clear", "play", "step", "rewind"]) $(id).disabled = on;
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

function draw(view) {
  const b = state.board;
  const grid = $("board");
  grid.style.gridTemplateColumns = `repeat(${b.cols}, 1fr)`;
  grid.style.gridTemplateRows = `repeat(${b.rows}, 1fr)`;
  grid.style.aspectRatio = `${b.cols} / ${b.rows}`;
  grid.style.setProperty("--glyph", `${Math.max(0.7, 22 / Math.max(b.rows, b.cols))}rem`);
  const armyOf = new Map(view.pieces.map((cell, i) => [key(cell), (view.armies || [])[i] || 0]));
  const mine = new Set(state.queens.map(key));
  const attacked = new Set(view.attacked.map(key));
  const conflicts = new Set(view.conflicts.map(key));
  const pawns = new Set((view.pawns || b.pawns).map(key));
  const blocked = new Set(b.blocked.map(key));
  const gaps = new Set((b.gaps || []).map(key));
  const culprits = new Set((view.culprits || []).map(key));
  grid.replaceChildren();
  for (let r = 0; r < b.rows; r++) {
    for (let c = 0; c < b.cols; c++) {
      const k = `${r},${c}`;
      const cell = document.createElement("button");
      cell.type = "button";
      cell.dataset.r = r;
      cell.dataset.c = c;
      cell.className = "cell " + ((r + c) % 2 === 0 ? "light" : "dark");
      let label = `row ${r} column ${c}`;
      if (gaps.has(k)) {
        cell.className = "cell gap";
        cell.disabled = true;
        cell.setAttribute("aria-hidden", "true");
        grid.appendChild(cell);
        continue;
      }
      if (armyOf.has(k)) {
        const army = armyOf.get(k);
        const piece = (b.armies[army] || b.armies[0]).piece;
        cell.classList.add("queen", `army${army % 8}`);
        if (!mine.has(k)) cell.classList.add("solver");
        cell.textContent = GLYPHS[piece] || piece.slice(0, 1).toUpperCase();
        label += `: ${piece}` + (b.armies.length > 1 ? ` of ${b.armies[army].name}` : "");
      } else if (pawns.has(k)) {
        cell.classList.add("pawn");
        cell.textContent = GLYPHS.pawn;
        label += ": pawn";
      } else if (blocked.has(k)) {
        cell.classList.add("blocked");
      } else if (attacked.has(k)) {
        cell.classList.add("attacked");
        label += ": attacked";
      }
      if (conflicts.has(k)) cell.classList.add("conflict");
      if (culprits.has(k)) {
        cell.classList.add("culprit");
        label += ": one of the givens that have no solution together";
      }
      if (view.tried && view.tried === k) cell.classList.add("tried");
      cell.setAttribute("aria-label", label);
      cell.addEventListener("click", () => guarded(() => clicked([r, c])));
      grid.appendChild(cell);
    }
  }
}

function drawBoard() {
  const b = state.board;
  if (state.shown) {
    draw({ pieces: state.shown, armies: state.shownArmies, pawns: state.shownPawns, attacked: [], conflicts: [] });
    return;
  }
  const conflicts = b.conflicts.flat();
  draw({ pieces: b.queens, attacked: b.attacked, conflicts, culprits: state.culprits });
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

async function refresh() {
  state.board = await call("board", request());
  drawBoard();
  describeBoard();
}

async function clicked(cell) {
  const k = key(cell);
  const mode = document.querySelector("input[name=mode]:checked").value;
  if (state.board.blocked.some((b) => key(b) === k)) return;
  if (!state.board.placeable && !(document.querySelector("input[name=mode]:checked").value === "pawn")) {
    say(`${state.board.name}: the solver places these pieces; use solve, count or next solution`, "none");
    return;
  }
  if (mode === "pawn" && !$("mode").hidden) {
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
  const kind = reply.status === "solved" || reply.status === "optimal" || reply.status === "complete" ? "ok" : "none";
  say(reply.message, kind);
  offerWhy(reply.status === "no solution" && !reply.index);  // not "no solution number 5": there are 4
  if (reply.time !== undefined) $("timing").textContent = `${reply.backend}: ${(reply.time * 1000).toFixed(1)} ms`;
}

async function complete() {
  forgetSolver();
  drawBoard();
  say("solving…");
  showReply(await call("complete", request()));
}

async function countSolutions() {
  say("counting…");
  const reply = await call("count", request());
  say(reply.message, reply.status === "complete" && reply.count > 0 ? "ok" : "none");
  offerWhy(reply.status === "complete" && reply.count === 0);
  if (reply.time !== undefined) $("timing").textContent = `${reply.backend}: ${(reply.time * 1000).toFixed(1)} ms`;
}

async function nextSolution() {
  stopTrace();
  state.trace = null;
  const reply = await call("solution", request({ index: state.index + 1 }));
  if (reply.status === "solved") state.index += 1;
  else if (state.index >= 0) reply.message += "; starting again from the first";
  if (reply.status !== "solved") state.index = -1;
  showReply(reply);
}

// The fewest givens with no solution (as `queens why` finds them), ringed on the board and listed
// in the command's words: the first line as the message, one line per given below it.
async function whyNot() {
  say("looking for the fewest givens with no solution…");
  const body = request();
  delete body.backend;  // answered from a SAT solver's cores whichever backend is chosen
  const reply = await call("why", body);
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

async function clearBoard() {
  state.queens = [];
  state.pawns = [];
  forgetSolver();
  $("timing").textContent = "";
  await refresh();
}

// A new family or size starts from nothing: no pieces, no pawns, no result, no board until the
// server has drawn the new one (so an error never leaves the previous family's board on show).
async function newBoard() {
  const family = state.info.families.find((f) => f.name === $("family").value);
  $("mode").hidden = !family.pawns;
  document.querySelector(`input[name=mode][value=${family.pawns ? "pawn" : "queen"}]`).checked = true;
  state.board = null;
  $("board").replaceChildren();
  say("");
  await clearBoard();
}

// --- the search, replayed ---------------------------------------------------------------

async function loadTrace() {
  if (state.trace) return true;
  say("recording the search…");
  state.trace = await call("trace", request());
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
  draw({
    pieces: event.placement,
    attacked: [...attacked].map((k) => k.split(",").map(Number)),
    conflicts: event.attacker ? [event.attacker] : [],
    tried: event.step === "conflict" ? key(event.cell) : null,
  });
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

// --- start -------------------------------------------------------------------------------

async function start() {
  state.info = await call("info");
  for (const family of state.info.families) $("family").add(new Option(family.name, family.name));
  for (const backend of state.info.backends) $("backend").add(new Option(backend, backend));
  $("n").max = state.info.limits.side;
  $("family").addEventListener("change", () => guarded(newBoard));
  $("n").addEventListener("change", () => guarded(newBoard));
  $("complete").addEventListener("click", () => guarded(complete));
  $("count").addEventListener("click", () => guarded(countSolutions));
  $("next").addEventListener("click", () => guarded(nextSolution));
  $("why").addEventListener("click", () => guarded(whyNot));
  $("clear").addEventListener("click", () => guarded(clearBoard));
  $("play").addEventListener("click", () => guarded(playTrace));
  $("step").addEventListener("click", () => guarded(stepTrace));
  $("rewind").addEventListener("click", rewindTrace);
  $("speed").addEventListener("input", () => {
    if (state.timer) {
      stopTrace();
      playTrace();
    }
  });
  await newBoard();
}

guarded(start);
