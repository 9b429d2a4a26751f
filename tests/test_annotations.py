"""tests/ is type-checked by `make lint` (mypy -p queens -p tests) as strictly as the package, but
for the test modules pyproject.toml lists as older than that: their functions may go unannotated
(mypy still checks their bodies). The list only shrinks: a listed module whose functions are all
annotated is struck from it, and so is one that is gone; this test names both."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def exempt() -> list[str]:
    """The test modules that may leave functions unannotated (pyproject's mypy override)."""
    overrides = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    (older,) = [override for override in overrides if override.get("disallow_untyped_defs") is False]
    modules: list[str] = older["module"]
    return modules


def unannotated(source: str) -> list[str]:
    """The functions mypy --strict calls untyped or incompletely typed: a parameter (but self and
    cls) or the return without a type; `__init__` needs no return type once a parameter has one.

    >>> unannotated("def f(x: int) -> int: ...\\ndef g(x): ...\\ndef h(): ...")
    ['g', 'h']
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = node.args
        parameters = [a for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                  arguments.vararg, arguments.kwarg) if a is not None]
        if parameters and parameters[0].arg in ("self", "cls"):
            parameters = parameters[1:]
        untyped_return = node.returns is None and not (node.name == "__init__" and parameters)
        if untyped_return or any(parameter.annotation is None for parameter in parameters):
            found.append(node.name)
    return found


def test_every_exempt_test_module_exists_and_still_needs_it() -> None:
    annotated = []
    for module in exempt():
        path = REPO / (module.replace(".", "/") + ".py")
        assert path.is_file(), f"{module} is gone: strike it from pyproject.toml's list of unannotated test modules"
        if not unannotated(path.read_text()):
            annotated.append(module)
    assert annotated == [], "annotated now: strike them from pyproject.toml's list of unannotated test modules"
