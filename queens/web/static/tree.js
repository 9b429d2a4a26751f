// The search view beside the board: the teaching engine (solvers/learn/) run on the board as it is.
//
//   search   one search with MiniZinc's names (variable order, value order, propagation level): its tree
//            as the server draws it (CP-Profiler's colours: blue branch, red failure, green solution; failed
//            subtrees collapsed into a triangle; the paths to the solutions bold), and its steps;
//   a node   clicked (or reached with Tab and Enter), shows that node's domains on the board: each row's
//            values still possible shaded, those this node removed crossed out, the node's decision ringed;
//   steps    propagation one step at a time (each value removed and the constraint that removed it, the
//            values forced, the wipe-out), a list to step through with the board following it;
//   ladder   the nodes of generate and test, backtracking, forward checking, arc consistency and the native
//            search for the board (docs/ladder.md).
// The names offered come from /api/info (the engine's own tables); the page keeps no list of its own.

import { onPaint, paint } from "./board.js";
import { drawLegend } from "./legend.js";

const $ = (id) => document.getElementById(id);
const BUTTONS = ["search-run", "ladder-run", "step-back", "step-on"];

let app = null;  // what app.js lends: { body, board, mine, searched, guarded, say }
const shown = {
  reply: null,    // /api/search's reply on display, or null
  body: null,     // the board it was asked for (a change of board makes it stale)
  node: null,     // the node whose domains are on the board
  step: -1,       // the step on the board
  nodes: new Map(),  // node id -> the tree's JSON node
};

/** Wire the panel: `hooks` are app.js's board and calls (see the comment at the top). */
export function searchPanel(hooks) {
  app = hooks;
  $("search-panel").addEventListener("toggle", () => {
    $("search-pane").hidden = !$("search-panel").open;
  });
  $("search-run").addEventListener("click", () => app.guarded(runSearch));
  $("ladder-run").addEventListener("click", () => app.guarded(runLadder));
  $("step-back").addEventListener("click", () => showStep(shown.step - 1));
  $("step-on").addEventListener("click", () => showStep(shown.step + 1));
  $("tree").addEventListener("click", (event) => chooseNode(event.target));
  $("tree").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      chooseNode(event.target);
    }
  });
  $("steps").addEventListener("click", (event) => {
    const item = event.target.closest("li");
    if (item) showStep(Number(item.dataset.step));
  });
  onPaint(followBoard);
}

/** Fill the menus from /api/info's `search`: MiniZinc's names, the engine's defaults first. */
export function offerChoices(search) {
  for (const [key, names] of [["var", search.var], ["val", search.val], ["propagate", search.propagate]]) {
    const menu = $(`search-${key}`);
    menu.replaceChildren(...names.map((name) => new Option(name, name)));
  }
  $("search-propagate").value = "forward";
}

function settings() {
  return { var: $("search-var").value, val: $("search-val").value, propagate: $("search-propagate").value,
           all: $("search-all").checked };
}

function busy(on) {
  for (const id of BUTTONS) $(id).disabled = on;
}

async function asked(route, body, what) {
  busy(true);
  try {
    return await app.searched(route, body, what);
  } finally {
    busy(false);
  }
}

// --- the search and its tree ---------------------------------------------------------------

async function runSearch() {
  const body = app.body();
  const reply = await asked("search", { ...body, ...settings() }, "searching with the teaching engine…");
  if (reply.status === "cancelled") return;
  shown.reply = reply;
  shown.body = JSON.stringify(body);
  shown.nodes = new Map(reply.tree.nodes.map((node) => [node.id, node]));
  shown.node = null;
  shown.step = -1;
  $("ladder").hidden = true;
  $("search-view").hidden = false;
  $("search-message").textContent = reply.message;
  app.say(reply.message, reply.stats.solutions ? "ok" : "none");
  drawTree(reply.svg);
  listSteps(reply.steps, reply.steps_truncated);
  $("node-info").textContent = "click a node to see its domains on the board";
}

function drawTree(text) {
  const picture = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  for (const group of picture.querySelectorAll("g[data-node]")) {  // each node says its parent and decision too
    const node = shown.nodes.get(Number(group.dataset.node));
    group.dataset.parent = node.parent === null ? "" : node.parent;
    if (node.decision) group.dataset.decision = node.decision.text;
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.setAttribute("aria-label", group.querySelector("title").textContent);
  }
  $("tree").replaceChildren(document.importNode(picture, true));
  const root = $("tree").querySelector('g[data-node="0"]');  // a wide tree opens on its root, not its left edge
  if (root) $("tree").scrollLeft = root.getBBox().x - $("tree").clientWidth / 2;
}

function listSteps(steps, truncated) {
  const items = steps.map((step, i) => {
    const item = document.createElement("li");
    item.dataset.step = i;
    item.dataset.kind = step.kind;
    item.className = `step ${step.kind}`;
    item.textContent = step.text;
    return item;
  });
  if (truncated) {
    const cut = document.createElement("li");
    cut.className = "cut";
    cut.textContent = `… the first ${steps.length.toLocaleString("en")} steps only`;
    items.push(cut);
  }
  $("steps").replaceChildren(...items);
  $("step-at").textContent = steps.length ? `${steps.length.toLocaleString("en")} steps` : "";
}

function chooseNode(target) {
  const group = target.closest && target.closest("g[data-node]");
  if (!group || !shown.reply) return;
  const node = shown.nodes.get(Number(group.dataset.node));
  for (const other of $("tree").querySelectorAll("g.chosen")) other.classList.remove("chosen");
  group.classList.add("chosen");
  shown.node = node.id;
  const parent = node.parent === null ? null : shown.nodes.get(node.parent);
  showDomains(node.domains, parent ? parent.domains : null, node.decision);
  $("node-info").textContent = describeNode(node, group.dataset.status);
  const first = shown.reply.steps.findIndex((step) => step.node === node.id && step.kind !== "backtrack");
  markStep(first);
}

function describeNode(node, status) {
  const what = node.decision ? node.decision.text : "the root";
  let text = `node ${node.id}: ${what} (${status === "collapsed" ? "a failed subtree, collapsed" : node.status})`;
  if (node.failed) text += `: ${node.failed.var} has no value left (${node.failed.by})`;
  return text;
}

// --- the steps ---------------------------------------------------------------------------

function showStep(index) {
  const steps = shown.reply ? shown.reply.steps : [];
  if (index < 0 || index >= steps.length) return;
  const step = steps[index];
  const before = index > 0 ? steps[index - 1].domains : null;
  const node = shown.nodes.get(step.node);
  showDomains(step.domains, before, node ? node.decision : null);
  markStep(index);
  $("node-info").textContent = `step ${index + 1} of ${steps.length}: ${step.text}`;
}

function markStep(index) {
  shown.step = index;
  for (const item of $("steps").querySelectorAll("li.now")) item.classList.remove("now");
  const item = $("steps").querySelector(`li[data-step="${index}"]`);
  if (item) {
    item.classList.add("now");
    item.scrollIntoView({ block: "nearest" });
  }
  const total = shown.reply ? shown.reply.steps.length : 0;
  $("step-at").textContent = index >= 0 ? `step ${index + 1} of ${total}` : `${total} steps`;
}

// --- domains on the board ------------------------------------------------------------------

/** The board for `domains` (values by variable): a variable with one value left is a piece, its other values
 * still possible are shaded, the values gone since `before` are crossed out, the decision's square ringed. */
function showDomains(domains, before, decision) {
  const view = { pieces: [], possible: [], removed: [], struck: [], decided: null, attacked: [], conflicts: [],
                 search: true };
  for (const [name, cells] of Object.entries(shown.reply.cells)) {
    const left = new Set(domains[name]);
    const had = before ? new Set(before[name]) : null;
    const fixed = left.size === 1 ? [...left][0] : null;
    for (const [value, r, c] of cells) {
      if (value === fixed) view.pieces.push([r, c]);
      else if (left.has(value)) view.possible.push([r, c]);
      else {
        view.removed.push([r, c]);
        if (had && had.has(value)) view.struck.push([r, c]);
      }
      if (decision && decision.var === name && decision.value === value && "=!=".includes(decision.op)) {
        view.decided = `${r},${c}`;
      }
    }
  }
  const board = app.board();
  drawLegend(board, paint(board, view, app.mine()));
}

/** Another paint of the board (a placement, a solution): the chosen node is no longer shown, and a board
 * that has changed since the search makes the tree stale. */
function followBoard(view) {
  if (view.search || !shown.reply) return;
  for (const other of $("tree").querySelectorAll("g.chosen")) other.classList.remove("chosen");
  for (const item of $("steps").querySelectorAll("li.now")) item.classList.remove("now");
  shown.node = null;
  shown.step = -1;
  if (JSON.stringify(app.body()) !== shown.body) forget("the board has changed: search again");
}

function forget(message) {
  shown.reply = null;
  $("tree").replaceChildren();
  $("steps").replaceChildren();
  $("step-at").textContent = "";
  $("node-info").textContent = "";
  $("search-message").textContent = message;
}

// --- the ladder ----------------------------------------------------------------------------

async function runLadder() {
  const reply = await asked("ladder", app.body(), "climbing the ladder: one search per rung…");
  if (reply.status === "cancelled") return;
  forget(reply.message);
  app.say(reply.message, "ok");
  $("search-view").hidden = true;
  const rows = reply.rungs.map((rung) => {
    const row = document.createElement("tr");
    row.dataset.level = rung.level;
    const cells = [rung.name];
    if (rung.refused) cells.push(rung.refused, "");
    else {
      const bound = rung.complete ? "" : "≥ ";  // stopped at the node limit or the time limit
      cells.push(`${bound}${rung.nodes.toLocaleString("en")} ${rung.unit}`,
                 rung.complete ? rung.solutions.toLocaleString("en") : `≥ ${rung.solutions.toLocaleString("en")}`);
    }
    row.replaceChildren(...cells.map((text, i) => {
      const cell = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) cell.scope = "row";
      cell.textContent = text;
      return cell;
    }));
    return row;
  });
  $("ladder-rows").replaceChildren(...rows);
  $("ladder").hidden = false;
}
