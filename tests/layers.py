"""The import-layer contract: which part of the package may import which, checked from the source.

Run by `make lint` (`python tests/layers.py`) and by the test suite (tests/test_layers.py). It
reads every module's imports with `ast` (nothing is imported), maps each module to its part, and
fails on an import that goes up a layer. An import inside a function (a *deferred* edge, made
to break a cycle or to keep start-up cheap) is allowed against the layers only when it is listed
in `DEFERRED` below; the list is counted down, never up: a new one fails the check, and a listed
one that is gone must be struck from the list.

    python tests/layers.py           # the contract, and the deferred edges that remain
    python tests/layers.py --graph   # the import graph between the parts, as text
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"models": "queens.models", "solvers": "queens.solvers", "experiments": "queens.experiments",
           "queens": "queens"}
"""Source folder -> import name: pyproject's package-dir mapping."""

SOLVER_ROOMS = ("runtime", "formats", "native", "backends", "proofs", "routing", "learn")

MAY_IMPORT: dict[str, frozenset[str]] = {
    "models": frozenset(),
    "solvers.runtime": frozenset({"models"}),
    "solvers.formats": frozenset({"models", "solvers.runtime"}),
    "solvers.core": frozenset({"models", "solvers.runtime", "solvers.native"}),
    "solvers.native": frozenset({"models", "solvers.runtime", "solvers.core"}),
    "solvers.backends": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.core"}),
    "solvers.proofs": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.native",
                                 "solvers.core"}),
    "solvers.routing": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.native",
                                  "solvers.core", "solvers.backends", "solvers.proofs"}),
    "solvers.learn": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.native",
                                "solvers.core", "solvers.backends", "solvers.proofs", "solvers.routing"}),
    "solvers.entry": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.native",
                                "solvers.core", "solvers.backends", "solvers.proofs", "solvers.routing",
                                "solvers.learn"}),
    "cli": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.native", "solvers.core",
                      "solvers.backends", "solvers.proofs", "solvers.routing", "solvers.learn",
                      "solvers.entry", "cli"}),
    "experiments": frozenset({"models", "solvers.runtime", "solvers.formats", "solvers.native",
                              "solvers.core", "solvers.backends", "solvers.proofs", "solvers.routing",
                              "solvers.learn", "solvers.entry", "cli"}),
}
"""Each part and the parts below it that it may import: models import nothing of the package;
the solvers' rooms, lowest first (runtime, formats, the core interface -- backend, result,
options, registry, api --, native, backends, proofs, routing, learn, and the package's entry
points); the command line and the explorer (`cli`) only solvers and models; experiments
anything."""

SOLVER_ENTRY = frozenset({"queens.solvers"})
"""Modules of solvers/ that re-export the others (the package's lazy entry points)."""

DEFERRED: dict[tuple[str, str], str] = {
    ("queens.solvers.api", "queens.solvers.routing.split_count"):
        "api.count splits a count over processes; split counting counts each part through api",
}
"""Deferred imports that go against the layers, each with why it is still there."""


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    deferred: bool


def module_name(path: Path) -> str:
    """The import name of a source file: solvers/backends/sat.py -> queens.solvers.backends.sat."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    name = [FOLDERS[parts[0]], *parts[1:]]
    return ".".join(name[:-1] if name[-1] == "__init__" else name)


def part(module: str) -> str:
    """The part of the package a module belongs to (a key of `MAY_IMPORT`)."""
    names = module.split(".")
    if names[:2] == ["queens", "models"]:
        return "models"
    if names[:2] == ["queens", "experiments"]:
        return "experiments"
    if names[:2] != ["queens", "solvers"]:
        return "cli"
    if module in SOLVER_ENTRY:
        return "solvers.entry"
    return f"solvers.{names[2]}" if len(names) > 3 and names[2] in SOLVER_ROOMS else "solvers.core"


def _sources() -> Iterator[Path]:
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "tests" not in path.relative_to(ROOT).parts[1:]:
                yield path


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import statement and whether it is deferred (inside a function); imports under
    `if TYPE_CHECKING:` are left out (they never run)."""
    def walk(node: ast.AST, deferred: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, deferred
            yield from walk(child, deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
    yield from walk(tree, False)


def _targets(node: ast.Import | ast.ImportFrom, source: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # relative: from the source's package
        base = source.split(".")[: len(source.split(".")) - node.level]
        module = ".".join([*base, *([node.module] if node.module else [])])
    else:
        module = node.module or ""
    # `from queens.solvers import count` names an entry point, `from queens.solvers.native import _simple` a module
    return [f"{module}.{alias.name}" if _is_package(f"{module}.{alias.name}") else module for alias in node.names]


def _is_package(module: str) -> bool:
    names = module.split(".")
    if names[0] != "queens" or len(names) < 2:
        return False
    folder = ROOT / (names[1] if names[1] in FOLDERS and names[1] != "queens" else "queens")
    rest = names[2:] if names[1] in FOLDERS else names[1:]
    path = folder.joinpath(*rest)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() or \
        any(path.parent.glob(f"{path.name}.*.so"))


def edges() -> list[Edge]:
    """Every import of one module of the package by another."""
    found = []
    for path in _sources():
        source = module_name(path)
        for node, deferred in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node, source):
                if target.split(".")[0] == "queens" and target != source:
                    found.append(Edge(source, target, node.lineno, deferred))
    return found


def violations(found: list[Edge]) -> tuple[list[str], list[tuple[str, str]]]:
    """The imports against the contract (as messages), and the deferred ones that the list allows."""
    wrong, allowed = [], []
    for edge in found:
        if part(edge.target) in MAY_IMPORT[part(edge.source)] | {part(edge.source)}:
            continue
        key = (edge.source, _listed(edge.target))
        if edge.deferred and key in DEFERRED:
            allowed.append(key)
            continue
        how = "a deferred import" if edge.deferred else "an import"
        wrong.append(f"{edge.source} (line {edge.line}): {how} of {edge.target} goes up from "
                     f"{part(edge.source)} to {part(edge.target)}")
    return wrong, allowed


def _listed(target: str) -> str:
    """The module an import names, as `DEFERRED` lists it (an entry point's module)."""
    return target if _is_package(target) else target.rsplit(".", 1)[0]


def graph(found: list[Edge]) -> str:
    """The import graph between the parts, one line per pair: how many imports, how many deferred."""
    pairs = Counter((part(e.source), part(e.target)) for e in found if part(e.source) != part(e.target))
    late = Counter((part(e.source), part(e.target)) for e in found if e.deferred and part(e.source) != part(e.target))
    return "\n".join(f"{a:18} -> {b:18} {n:3} imports, {late[(a, b)]} deferred" for (a, b), n in sorted(pairs.items()))


def main(argv: list[str]) -> int:
    found = edges()
    if "--graph" in argv:
        print(graph(found))
    wrong, allowed = violations(found)
    stale = sorted(set(DEFERRED) - set(allowed))
    for message in wrong:
        print(f"layers: {message}")
    for source, target in stale:
        print(f"layers: {source} -> {target} is listed in DEFERRED but no longer imported: strike it")
    print(f"layers: {len(found)} imports checked; {len(set(allowed))} deferred edges against the layers remain "
          f"(tests/layers.py DEFERRED)")
    return 1 if wrong or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
