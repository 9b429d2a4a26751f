"""The symmetry kit (solvers/learn/symmetries.py, `show --symmetries`, `explain --symmetry`,
docs/symmetry.md) against an oracle that shares no code with models/: the 8-queens solutions
found here by brute force over permutations, the eight symmetries of the square written out
here, and the OEIS terms of tests/data/sequences.json."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from itertools import permutations
from pathlib import Path

import pytest
from queens.models import NQueens, lower
from queens.models.families import FamilyOptions, build
from queens.models.symmetry import lex_leader, symmetry_group
from queens.solvers.api import breaking
from queens.solvers.learn.symmetries import classes, images, symmetry_breaking
from queens.solvers.registry import BACKENDS, get_backend

from tests import schemas, test_docs
from tests.cli import run_main

DOC = Path(__file__).resolve().parents[1] / "docs" / "symmetry.md"
Cell = tuple[int, int]

SQUARE: dict[str, Callable[[int, int, int], Cell]] = {
    "identity": lambda r, c, n: (r, c),
    "rotate 90": lambda r, c, n: (c, n - 1 - r),  # a quarter turn clockwise: the top row becomes the right column
    "rotate 180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rotate 270": lambda r, c, n: (n - 1 - c, r),
    "flip rows": lambda r, c, n: (n - 1 - r, c),  # the first row becomes the last
    "flip columns": lambda r, c, n: (r, n - 1 - c),
    "transpose": lambda r, c, n: (c, r),
    "anti-transpose": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
"""The symmetries of the square, by the names the kit prints, written out independently."""


def brute_force(n: int) -> set[tuple[Cell, ...]]:
    """Every n-queens solution: a permutation (one queen per row and column) with no two queens
    on a diagonal."""
    return {tuple(enumerate(columns)) for columns in permutations(range(n))
            if len({r + c for r, c in enumerate(columns)}) == n == len({r - c for r, c in enumerate(columns)})}


def moved(solution: tuple[Cell, ...], name: str, n: int) -> tuple[Cell, ...]:
    return tuple(sorted(SQUARE[name](r, c, n) for r, c in solution))


def orbits(n: int) -> list[frozenset[tuple[Cell, ...]]]:
    left, found = brute_force(n), []
    while left:
        orbit = frozenset(moved(next(iter(left)), name, n) for name in SQUARE)
        found.append(orbit)
        left -= orbit
    return found


# --- images and classes ---------------------------------------------------------------------
def test_every_image_is_the_named_symmetry_of_the_solution_and_a_solution() -> None:
    solutions = brute_force(8)
    for solution in solutions:
        found = images(NQueens(8), solution)
        assert sorted(image.symmetry for image in found) == sorted(SQUARE)
        for image in found:
            assert image.placement == moved(solution, image.symmetry, 8) and image.placement in solutions
            earlier = [other.symmetry for other in found[:found.index(image)] if other.placement == image.placement]
            assert image.same_as == (earlier[0] if earlier else None)
        assert len({image.placement for image in found}) == len(frozenset(moved(solution, s, 8) for s in SQUARE))


@pytest.mark.parametrize("n", range(1, 11))
def test_the_classes_are_the_orbits_and_their_number_is_oeis(n: int, reference) -> None:
    found = classes(NQueens(n))
    assert len(found) == reference.term("A002562", n)
    assert sum(len(members) for members in found) == reference.term("A000170", n)
    if n <= 8:  # the brute force's permutations: 40,320 at n = 8
        assert sorted(map(sorted, found)) == sorted(map(sorted, orbits(n)))


def test_eight_queens_is_11_classes_of_8_and_1_of_4(reference) -> None:
    sizes = Counter(len(orbit) for orbit in orbits(8))
    assert sizes == Counter({8: 11, 4: 1}) and sum(sizes.values()) == reference.term("A002562", 8)
    assert Counter(len(members) for members in classes(NQueens(8))) == sizes


# --- the tutorial ---------------------------------------------------------------------------------
def test_the_symmetry_tutorial_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    test_docs.test_tutorial_runs(DOC, tmp_path, monkeypatch)


def _blocks() -> tuple[str, str]:
    """The tutorial's prose and its code blocks (commands and printed output), apart."""
    text = DOC.read_text(encoding="utf-8")
    code = "\n".join(body for _, body in test_docs.BLOCK.findall(text))
    return test_docs.BLOCK.sub("", text), code


def test_every_number_in_the_tutorials_prose_is_printed_by_its_code() -> None:
    """'92 = 40 x 8' cannot be written here: a number in the prose must come out of the code."""
    prose, code = _blocks()
    number = r"(?<![\w.])\d+(?:,\d{3})*(?!\d)"  # 92, 1,924: not the digits of A002562 or of a version
    printed = set(re.findall(number, code))
    quoted = set(re.findall(number, re.sub(r"\S*/\S*", "", prose)))  # paths aside
    assert quoted and quoted <= printed, quoted - printed


def test_the_tutorials_numbers_are_the_oeis_terms(reference) -> None:
    _, code = _blocks()
    lists = re.findall(r"^\[(\d+(?:, \d+)+)\]$", code, re.MULTILINE)
    sides, classes_found, totals = ([int(x) for x in found.split(", ")] for found in lists[:3])
    assert sides == list(range(1, 11))
    assert classes_found == [reference.term("A002562", n) for n in sides]
    assert totals == [reference.term("A000170", n) for n in sides]
    sizes = Counter(len(orbit) for orbit in orbits(8))
    assert "'11 x 8 + 1 x 4'" in code and sizes == Counter({8: 11, 4: 1})
    assert "(12, 92)" in code and (len(orbits(8)), len(brute_force(8))) == (12, 92)


# --- the command line -------------------------------------------------------------------------------
def test_show_symmetries_draws_and_lists_every_image(tmp_path: Path) -> None:
    svg, png = tmp_path / "images.svg", tmp_path / "images.png"
    result = run_main("show", "nqueens", "-n", "8", "--backend", "native", "--symmetries", "--svg", str(svg),
                      "--png", str(png), "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    schemas.validate(payload)
    solution = tuple(map(tuple, payload["solutions"][0]))
    shown = payload["details"]["images"]
    assert [image["symmetry"] for image in shown] == [t.name for t in symmetry_group(lower(NQueens(8)))]
    assert all(tuple(map(tuple, image["cells"])) == moved(solution, image["symmetry"], 8) for image in shown)
    assert payload["details"]["class_size"] == len({moved(solution, name, 8) for name in SQUARE})
    drawn = svg.read_text()
    assert drawn.count("<svg") == 9 and all(f">{name}</text>" in drawn for name in SQUARE)
    assert png.read_bytes().startswith(b"\x89PNG")
    text = run_main("show", "nqueens", "-n", "8", "--backend", "native", "--symmetries").stdout
    assert all(name in text for name in SQUARE) and text.count("♛") == 8 * 8


def test_show_symmetries_refuses_armies_in_one_line() -> None:
    result = run_main("show", "peaceable", "-n", "4", "--symmetries")
    assert result.returncode == 2 and not result.stdout
    assert result.stderr.strip().count("\n") == 0 and "one army on a 2-D board" in result.stderr


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_explain_symmetry_prints_the_chains_the_backend_receives(backend: str) -> None:
    result = run_main("explain", "nqueens", "-n", "5", "--symmetry", "--backend", backend, "--json")
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)["details"]["symmetry"]
    posting = shown["backends"][0]
    assert posting["backend"] == backend
    model = lower(NQueens(5))
    engine = get_backend(backend)
    if not posting["asked"].startswith("lex-leader"):
        assert shown["chains"] == []  # it posts none, even asked: no chains are printed as its
        return
    received = breaking(engine, model, True).model.lex  # what api.count hands the backend with --symmetry
    assert received is not None
    assert [[[list(a), list(b)] for a, b in chain] for chain in received.chains] == \
        [chain["pairs"] for chain in shown["chains"]]
    assert [list(cell) for cell in received.order] == shown["order"]
    for named in shown["chains"]:  # each chain is its named symmetry: every cell against its image
        assert all(tuple(image) == SQUARE[named["symmetry"]](r, c, 5) for (r, c), image in named["pairs"])
    unasked = breaking(engine, model, None).note
    assert posting["unasked"] == unasked and posting["posts"] == unasked.startswith("lex-leader")


def test_explain_symmetry_for_an_optimum_names_the_chains_it_searches_under() -> None:
    domination = build("domination", FamilyOptions(5))
    found = symmetry_breaking(domination, ("sat",))
    assert found.task == "optimum" and found.postings[0].posts
    model = lower(domination)
    lex = lex_leader(model, symmetry_group(model)).lex
    assert lex is not None and [chain.pairs for chain in found.chains] == list(lex.chains)
    assert "searching for the optimum" in run_main("explain", "domination", "-n", "5", "--symmetry", "-b",
                                                   "sat").stdout


def test_explain_backend_without_symmetry_is_a_usage_error() -> None:
    result = run_main("explain", "nqueens", "-n", "4", "--backend", "sat")
    assert result.returncode == 2 and "--backend applies to --symmetry" in result.stderr
