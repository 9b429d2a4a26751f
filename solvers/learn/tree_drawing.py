"""The search tree as a picture: DOT (Graphviz lays it out), SVG and TikZ (laid out here).

CP-Profiler's conventions: a branch node is a blue circle, a failure a red square, a solution
a green diamond; a failed subtree (no solution in it) of more than `collapse` nodes is one red
triangle with its size beneath (never the root: a tree without solutions still shows its first
branches); the edges on the path from the root to a solution are bold. Small trees label each
edge with its decision; in SVG every node carries its number (`data-node`) and its decision as
a tooltip, so a page can show that node's domains when it is clicked.

The layout (`layout`) is the simplest tidy one: the leaves that are shown (and the triangles)
stand side by side in the order the search met them, each parent centred over its first and
last child, one row per depth.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from queens.solvers.learn.tree import SearchTree, TreeNode

COLOURS = {"branch": "#1e63c4", "failure": "#d32f2f", "solution": "#2e9e3e", "open": "#9e9e9e"}
"""CP-Profiler's colours: blue branch nodes, red failures, green solutions (grey: not explored)."""
PATH_COLOUR = "#1b5e20"
LABELS_UP_TO = 60
"""Trees of at most this many nodes shown get their decisions written on the edges."""
DX, DY, R, MARGIN = 16.0, 34.0, 6.0, 20.0
"""SVG: the leaves' spacing, the rows' spacing, a node's radius and the margin, in pixels."""
LABELLED_DX, LABELLED_DY = 70.0, 46.0
"""The spacings when the edges carry their decisions."""


@dataclass(frozen=True)
class Shown:
    """A node as drawn: where (`x` in leaf widths, `y` its depth), whether it stands for a whole
    failed subtree of `size` nodes (`collapsed`), and whether it lies on a path to a solution."""

    node: TreeNode
    x: float
    y: int
    collapsed: bool
    size: int
    on_path: bool


def layout(tree: SearchTree, collapse: int) -> list[Shown]:
    """The nodes to draw, parents before children (see the module docstring)."""
    sizes, on_path = tree.subtree_sizes(), tree.on_solution_path()
    hidden = [False] * len(tree.nodes)
    collapsed = [False] * len(tree.nodes)
    x = [0.0] * len(tree.nodes)
    leaves = 0
    for node in tree.nodes:  # numbered depth first, left branch first: leaves come left to right
        parent = node.parent
        if parent is not None and (hidden[parent] or collapsed[parent]):
            hidden[node.id] = True
            continue
        collapsed[node.id] = parent is not None and not on_path[node.id] and sizes[node.id] > collapse
        if collapsed[node.id] or not node.children:
            x[node.id] = leaves
            leaves += 1
    for node in reversed(tree.nodes):
        shown = [c for c in node.children if not hidden[c]]
        if shown and not collapsed[node.id] and not hidden[node.id]:
            x[node.id] = (x[shown[0]] + x[shown[-1]]) / 2
    return [Shown(node, x[node.id], node.depth, collapsed[node.id], sizes[node.id], on_path[node.id])
            for node in tree.nodes if not hidden[node.id]]


def _edges(shown: list[Shown]) -> list[tuple[Shown, Shown]]:
    """(parent, child) for every edge drawn."""
    where = {s.node.id: s for s in shown}
    return [(where[s.node.parent], s) for s in shown if s.node.parent is not None]


def _status(s: Shown) -> str:
    return "collapsed" if s.collapsed else s.node.status


def _caption(tree: SearchTree) -> str:
    stats = tree.stats
    strategy = ", ".join(str(v) for k, v in tree.strategy.items() if k != "seed")
    counts = ", ".join(f"{k} {stats[k]:,}" for k in ("nodes", "failures", "solutions") if k in stats)
    return f"{strategy}: {counts}" if strategy else counts


# --- SVG ----------------------------------------------------------------------------------

def svg(tree: SearchTree, collapse: int) -> str:
    """The tree as an SVG document."""
    shown = layout(tree, collapse)
    labels = len(shown) <= LABELS_UP_TO
    grid = _Grid(LABELLED_DX, LABELLED_DY) if labels else _Grid(DX, DY)
    caption = _caption(tree)
    width = max((max((s.x for s in shown), default=0) + 1) * grid.dx + 2 * MARGIN, 6.5 * len(caption) + 2 * MARGIN)
    height = (max((s.y for s in shown), default=0) + 1) * grid.dy + 2 * MARGIN + 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" font-family="sans-serif">',
             f"<title>{html.escape(caption)}</title>",
             f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>']
    for parent, child in _edges(shown):
        (x1, y1), (x2, y2) = grid.point(parent), grid.point(child)
        bold = child.on_path
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                     f'stroke="{PATH_COLOUR if bold else "#777777"}" stroke-width="{3 if bold else 1}"/>')
        if labels:
            anchor = "end" if child.x < parent.x else "start"
            shift = -5 if anchor == "end" else 5
            parts.append(f'<text x="{(x1 + x2) / 2 + shift:.1f}" y="{(y1 + y2) / 2:.1f}" font-size="10" '
                         f'text-anchor="{anchor}" fill="#333333">{html.escape(child.node.decision_text)}</text>')
    parts += [_svg_node(s, *grid.point(s)) for s in shown]
    parts.append(f'<text x="{MARGIN:.0f}" y="{height - 8:.0f}" font-size="11" fill="#333333">'
                 f"{html.escape(caption)}</text>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


@dataclass(frozen=True)
class _Grid:
    """Where the layout's (x, depth) falls in the picture, in pixels."""

    dx: float
    dy: float

    def point(self, s: Shown) -> tuple[float, float]:
        return MARGIN + s.x * self.dx + self.dx / 2, MARGIN + s.y * self.dy + R


def _svg_node(s: Shown, x: float, y: float) -> str:
    status = _status(s)
    tip = f"{s.node.id}: {s.node.decision_text or 'root'} ({status}" + (f", {s.size} nodes)" if s.collapsed else ")")
    if s.node.failed and not s.collapsed:
        tip += f": {s.node.failed[0]} has no value left ({s.node.failed[1]})"
    colour = COLOURS["failure" if s.collapsed else s.node.status]
    if s.collapsed:
        shape = (f'<polygon points="{x:.1f},{y - R:.1f} {x + 1.6 * R:.1f},{y + 2 * R:.1f} {x - 1.6 * R:.1f},'
                 f'{y + 2 * R:.1f}" fill="{colour}"/><text x="{x:.1f}" y="{y + 2 * R + 10:.1f}" font-size="8" '
                 f'text-anchor="middle" fill="#333333">{s.size}</text>')
    elif s.node.status == "failure":
        shape = f'<rect x="{x - R:.1f}" y="{y - R:.1f}" width="{2 * R:.1f}" height="{2 * R:.1f}" fill="{colour}"/>'
    elif s.node.status == "solution":
        shape = (f'<polygon points="{x:.1f},{y - 1.3 * R:.1f} {x + 1.3 * R:.1f},{y:.1f} {x:.1f},{y + 1.3 * R:.1f} '
                 f'{x - 1.3 * R:.1f},{y:.1f}" fill="{colour}"/>')
    else:
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R:.1f}" fill="{colour}"/>'
    return f'<g data-node="{s.node.id}" data-status="{status}"><title>{html.escape(tip)}</title>{shape}</g>'


# --- DOT ----------------------------------------------------------------------------------

_DOT_SHAPES = {"branch": "circle", "failure": "square", "solution": "diamond", "collapsed": "triangle",
               "open": "circle"}


def dot(tree: SearchTree, collapse: int) -> str:
    """The tree in Graphviz's DOT language (`dot -Tsvg tree.dot`)."""
    shown = layout(tree, collapse)
    labels = len(shown) <= LABELS_UP_TO
    lines = ["digraph search {", f'  label="{_caption(tree)}";',
             '  node [style=filled, fontcolor=white, fontsize=9, width=0.25, height=0.25, fixedsize=true];',
             "  edge [arrowhead=none, fontsize=9];"]
    for s in shown:
        status = _status(s)
        colour = COLOURS["failure" if s.collapsed else s.node.status]
        label = str(s.size) if s.collapsed else ""
        lines.append(f'  n{s.node.id} [shape={_DOT_SHAPES[status]}, fillcolor="{colour}", color="{colour}", '
                     f'label="{label}", tooltip="{s.node.decision_text or "root"} ({status})"];')
    for parent, child in _edges(shown):
        style = f'penwidth=3, color="{PATH_COLOUR}"' if child.on_path else 'color="#777777"'
        label = f', label="{child.node.decision_text}"' if labels else ""
        lines.append(f"  n{parent.node.id} -> n{child.node.id} [{style}{label}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- TikZ ---------------------------------------------------------------------------------

_TEX_OPS = {"=": "$=$", "!=": r"$\neq$", "<=": r"$\le$", ">": "$>$"}


def tikz(tree: SearchTree, collapse: int) -> str:
    """The tree as a standalone LaTeX document drawing it with TikZ (`pdflatex tree.tex`)."""
    shown = layout(tree, collapse)
    labels = len(shown) <= LABELS_UP_TO
    lines = [r"\documentclass[tikz,border=4pt]{standalone}", r"\usetikzlibrary{shapes.geometric}",
             *(rf"\definecolor{{{name}}}{{HTML}}{{{colour[1:].upper()}}}" for name, colour in COLOURS.items()),
             rf"\definecolor{{path}}{{HTML}}{{{PATH_COLOUR[1:].upper()}}}",
             r"\begin{document}", r"\begin{tikzpicture}[x=0.42cm, y=-0.9cm]"]
    for parent, child in _edges(shown):
        width = "line width=1.6pt, draw=path" if child.on_path else "draw=gray"
        label = ""
        if labels and child.node.decision is not None:
            decision = child.node.decision
            name = tree.problem.names[decision.var]
            side = "left" if child.x < parent.x else "right"
            label = (rf" node[midway, {side}, font=\tiny] {{\texttt{{{name}}} {_TEX_OPS[decision.op]} "
                     rf"{decision.value}}}")
        lines.append(rf"  \draw[{width}] ({parent.x:.2f},{parent.y}) -- ({child.x:.2f},{child.y}){label};")
    for s in shown:
        lines.append(rf"  \node[{_tex_shape(s)}] at ({s.x:.2f},{s.y}) {{}};")
    lines += [r"\end{tikzpicture}", r"\end{document}"]
    return "\n".join(lines) + "\n"


def _tex_shape(s: Shown) -> str:
    if s.collapsed:
        return (r"regular polygon, regular polygon sides=3, fill=failure, inner sep=0pt, minimum size=9pt, "
                r"label={[font=\tiny]below:" + str(s.size) + "}")
    shape = {"failure": "rectangle", "solution": "diamond"}.get(s.node.status, "circle")
    return f"{shape}, fill={s.node.status}, inner sep=0pt, minimum size=6pt"
