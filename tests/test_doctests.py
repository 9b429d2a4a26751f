"""The examples in the packages' docstrings run, module by module, under their real names.

pytest's own --doctest-modules would import models/ir.py as a top-level `models.ir`, a second
copy beside `queens.models.ir`; walking the installed package imports each module once, by the
name users import it by.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import queens


def _modules() -> list[str]:
    """Every module of the package: queens/ and the card's folders mapped under it."""
    names = {"queens"}
    for package in ["queens", *(f"queens.{folder}" for folder in queens.CARD_FOLDERS)]:
        names.add(package)
        names.update(info.name for info in pkgutil.walk_packages(importlib.import_module(package).__path__,
                                                                 f"{package}."))
    return sorted(name for name in names if not name.endswith("__main__"))


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    names = []
    for name in _modules():
        module = importlib.import_module(name)
        if any(test.examples for test in finder.find(module)):
            names.append(name)
    return names


@pytest.mark.parametrize("name", _with_examples())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples in {name} failed (output above)"
