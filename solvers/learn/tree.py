"""The search tree, recorded node by node, and written as JSON, DOT, SVG or TikZ.

A `SearchTree` follows an `Engine` (it is the engine's `Listener`): each node gets its number
(the order the search met it, the root 0), its parent, the decision on the edge above it
(`q[3] = 5` on a left branch, `q[3] != 5` on a right one), its status after propagation
(**branch**, **failure** or **solution**), its depth, and on small problems its domains after
propagation (`DOMAINS_UP_TO`). A failure also says which variable ran out of values and which
constraint took the last one away.

Pictures follow CP-Profiler's conventions: branch nodes blue circles, failures red squares,
solutions green diamonds; a failed subtree (one without a solution) of more than `collapse`
nodes is drawn as one red triangle labelled with its size, and the edges on the path to each
solution are drawn bold (`queens.solvers.learn.tree_drawing`).

>>> from queens.models import NQueens, lower
>>> from queens.solvers.learn.engine import Engine, Strategy
>>> from queens.solvers.learn.viewpoint import build
>>> problem = build(lower(NQueens(4)))
>>> tree = SearchTree(problem)
>>> engine = Engine(problem, Strategy(), listener=tree)
>>> _ = list(engine.solutions())
>>> [(n.id, n.parent, n.status) for n in tree.nodes[:4]]
[(0, None, 'branch'), (1, 0, 'branch'), (2, 1, 'failure'), (3, 1, 'failure')]
>>> tree.nodes[2].decision_text, tree.nodes[2].failed
('q[1] = 2', ('q[2]', 'anti-diagonals q[1] q[2]'))
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from queens.models import QueensError
from queens.models.output import write_file
from queens.solvers.learn.constraints import Constraint
from queens.solvers.learn.domains import values
from queens.solvers.learn.orders import Decision
from queens.solvers.learn.viewpoint import Problem

DOMAINS_UP_TO = 400
"""The most values (variables x values) whose domains each node keeps: 20 x 20 queens."""
COLLAPSE = 12
"""Failed subtrees of more nodes than this are drawn as one triangle."""
FORMATS = (".json", ".dot", ".svg", ".tex")


@dataclass
class TreeNode:
    """One node of the search tree (see the module docstring)."""

    id: int
    parent: int | None
    decision: Decision | None
    decision_text: str
    depth: int
    status: str = "open"
    domains: tuple[int, ...] | None = None
    failed: tuple[str, str] | None = None
    """For a failure: the variable left without a value (or "-" when a count failed with values
    left) and the constraint that failed."""
    children: list[int] = field(default_factory=list)

    @property
    def left(self) -> bool:
        """Whether this node is its parent's first branch (`x = v`, `x <= v`)."""
        return self.decision is not None and self.decision.op in ("=", "<=")


class SearchTree:
    """The tree an engine explores; `keep_domains` (default: on problems of at most
    `DOMAINS_UP_TO` values) keeps every node's domains."""

    def __init__(self, problem: Problem, keep_domains: bool | None = None) -> None:
        self.problem = problem
        size = sum(mask.bit_count() for mask in problem.domains)
        self.keep_domains = size <= DOMAINS_UP_TO if keep_domains is None else keep_domains
        self.nodes: list[TreeNode] = []
        self.stats: dict[str, int] = {}
        self.strategy: dict[str, object] = {}
        self.complete = False

    # --- the engine's Listener --------------------------------------------------------------

    def opened(self, node: int, parent: int | None, decision: Decision | None, depth: int) -> None:
        text = "" if decision is None else decision.text(self.problem.names)
        self.nodes.append(TreeNode(node, parent, decision, text, depth))
        if parent is not None:
            self.nodes[parent].children.append(node)

    def closed(self, node: int, status: str, dom: list[int]) -> None:
        entry = self.nodes[node]
        entry.status = status
        if self.keep_domains:
            entry.domains = tuple(dom)

    def removed(self, var: int, lost: int, left: int, by: Constraint | None) -> None:
        return None

    def wiped_out(self, var: int, by: Constraint | None) -> None:
        name = self.problem.names[var] if var >= 0 else "-"
        self.nodes[-1].failed = (name, "a decision" if by is None else by.name)

    # --- reading it ---------------------------------------------------------------------

    def subtree_sizes(self) -> list[int]:
        """How many nodes each node's subtree holds (itself included)."""
        sizes = [1] * len(self.nodes)
        for node in reversed(self.nodes):  # children come after their parent
            if node.parent is not None:
                sizes[node.parent] += sizes[node.id]
        return sizes

    def on_solution_path(self) -> list[bool]:
        """Whether each node is a solution or has one below it."""
        marked = [node.status == "solution" for node in self.nodes]
        for node in reversed(self.nodes):
            if marked[node.id] and node.parent is not None:
                marked[node.parent] = True
        return marked

    def domain_lists(self, node: TreeNode) -> dict[str, list[int]] | None:
        """A node's domains, each variable's values by name (None when not kept)."""
        if node.domains is None:
            return None
        return {name: values(mask) for name, mask in zip(self.problem.names, node.domains, strict=True)}

    def to_json(self) -> dict[str, Any]:
        """The tree as the documented JSON object (docs/search-strategies.md): `nodes`, each with
        `id`, `parent`, `decision`, `alternative` (0 left, 1 right), `status`, `depth`, and
        `domains` after propagation on small problems; `failed` on a failure."""
        nodes = []
        for node in self.nodes:
            entry: dict[str, Any] = {"id": node.id, "parent": node.parent, "decision": None, "alternative": None,
                                     "status": node.status, "depth": node.depth}
            if node.decision is not None:
                entry["decision"] = {"var": self.problem.names[node.decision.var], "op": node.decision.op,
                                     "value": node.decision.value, "text": node.decision_text}
                entry["alternative"] = 0 if node.left else 1
            if node.failed is not None:
                entry["failed"] = {"var": node.failed[0], "by": node.failed[1]}
            domains = self.domain_lists(node)
            if domains is not None:
                entry["domains"] = domains
            nodes.append(entry)
        return {"viewpoint": self.problem.viewpoint, "variables": list(self.problem.names),
                "strategy": self.strategy, "stats": self.stats, "complete": self.complete, "nodes": nodes}

    def save(self, path: str | Path, collapse: int = COLLAPSE) -> Path:
        """Write the tree; the suffix chooses the format: .json, .dot, .svg or .tex (TikZ)."""
        from queens.solvers.learn.tree_drawing import dot, svg, tikz  # the pictures only when asked

        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".json":
            text = json.dumps(self.to_json(), indent=1) + "\n"
        elif suffix in (".dot", ".svg", ".tex"):
            text = {".dot": dot, ".svg": svg, ".tex": tikz}[suffix](self, collapse)
        else:
            raise QueensError(f"cannot tell the tree's format from {path.name!r}: use {', '.join(FORMATS)}")
        return write_file(path, text)

    def _repr_svg_(self) -> str:
        """The tree, drawn in Jupyter."""
        from queens.solvers.learn.tree_drawing import svg

        return svg(self, COLLAPSE)
