"""The package as a user gets it: `python -m build` gives an sdist and a wheel (built from the
sdist, so the sdist must carry the C sources), and the wheel, installed (not editable) in a
fresh venv far from this repo, counts, solves and serves the explorer's page.

The base install (no extra) is small and refuses what needs an extra with its install command;
a user's snippet passes `mypy --strict` against the installed wheel (it ships py.typed); and
the lowest versions pyproject.toml allows (each `>=` bound) work too, so the ranges are true.

Slow (a build and venvs): `make test-slow`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
EXTENSIONS = ("_classes", "_simple", "_completion", "_localsearch")


def _run(*args: object, cwd: Path | None = None, code: int = 0) -> str:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "QUEENS_KERNEL")}
    result = subprocess.run([str(arg) for arg in args], capture_output=True, text=True, cwd=cwd, env=env,
                            timeout=900)
    assert result.returncode == code, f"{args}: {result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr if code else result.stdout


def _megabytes(folder: Path) -> float:
    """What a folder holds on disk, as `du` counts it."""
    used = subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True, check=True).stdout
    return int(used.split()[0]) / 1024


def _one(paths: list[Path]) -> Path:
    assert len(paths) == 1, paths
    return paths[0]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "build", "--outdir", out, REPO)
    return out


@pytest.fixture(scope="module")
def base(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and no extra: what `pip install queens` gives."""
    venv = tmp_path_factory.mktemp("base") / "venv"
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "pip", "install", "--quiet", _one(list(dist.glob("*.whl"))))
    return venv


@pytest.mark.slow
def test_the_wheel_installs_one_package_with_its_extensions_and_data(dist: Path) -> None:
    names = zipfile.ZipFile(_one(list(dist.glob("*.whl")))).namelist()
    print("\nthe wheel's files:\n" + "\n".join(sorted(names)))
    assert {name.split("/")[0] for name in names} == {"queens", "queens-0.1.0.dist-info"}
    assert {"queens/py.typed", "queens-0.1.0.dist-info/licenses/LICENSE"} <= set(names)
    for module in EXTENSIONS:
        assert any(name.startswith(f"queens/solvers/native/{module}.") and name.endswith((".so", ".pyd"))
                   for name in names), module
    assert {"queens/web/static/index.html", "queens/experiments/yardstick/classic.c",
            "queens/solvers/backends/mznlib/fzn_all_different_int.mzn"} <= set(names)


@pytest.mark.slow
def test_the_sdist_carries_the_c_sources(dist: Path) -> None:
    with tarfile.open(_one(list(dist.glob("*.tar.gz")))) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    for source in ("classcount.c", "classcore.c", "classcore.h", "lanes.h", "lanes_avx512.h", "common.h",
                   "simple.c", "simplecore.c", "simplecore.h", "tests/driver.c", "tests/simpledriver.c"):
        assert f"solvers/native/{source}" in names
    assert {"LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "requirements/lock.txt", "queens/py.typed"} <= names


@pytest.mark.slow
def test_the_wheel_works_in_a_fresh_venv_outside_the_repo(dist: Path, base: Path, tmp_path: Path, reference) -> None:
    venv, elsewhere = base, tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(venv / "bin" / "python", "-c", "import queens; print(queens.__file__)", cwd=elsewhere)
    assert Path(where.strip()).is_relative_to(venv)
    counted = _run(venv / "bin" / "queens", "count", "nqueens", "-n", "12", "--backend", "native", "--json",
                   cwd=elsewhere)
    assert f"{reference.term('A000170', 12)}" in counted
    solved = _run(venv / "bin" / "queens", "solve", "completion", "-n", "8", "--queens", "0,0", cwd=elsewhere)
    assert "cells: 0,0 " in solved
    page = _run(venv / "bin" / "python", "-c", "from queens.web.server import STATIC; "
                "print(all((STATIC / name).is_file() for name in ('index.html', 'app.js', 'style.css')), "
                "'<html' in (STATIC / 'index.html').read_text().lower())", cwd=elsewhere)
    assert page.split() == ["True", "True"]
    info = _run(venv / "bin" / "queens", "info", cwd=elsewhere)
    assert "kernel:" in info
    print(f"\nwheel: {_one(list(dist.glob('*.whl'))).name}\n{counted}{solved}{info}")


@pytest.mark.slow
def test_a_base_install_is_small_and_names_the_extra_a_feature_needs(base: Path, tmp_path: Path) -> None:
    """No matplotlib, no proof checkers, no Dask: each feature that needs one says how to get it."""
    installed = _run(base / "bin" / "pip", "list", "--format=freeze").lower()
    for absent in ("matplotlib", "drup", "dratify", "cdclkit-native", "dask", "distributed", "minizinc", "pillow"):
        assert f"{absent}==" not in installed, absent
    refused = _run(base / "bin" / "queens", "solve", "domination", "-n", "4", "--certify", cwd=tmp_path, code=2)
    assert "pip install 'queens[certify]'" in refused
    refused = _run(base / "bin" / "queens", "count", "nqueens", "-n", "8", "--dask", "local", cwd=tmp_path, code=2)
    assert "pip install 'queens[dask]'" in refused
    refused = _run(base / "bin" / "queens", "show", "nqueens", "-n", "4", "--png", "q.png", cwd=tmp_path, code=2)
    assert "pip install 'queens[pictures]'" in refused
    print(f"\nbase install (the wheel, no extra, in a fresh venv): {_megabytes(base):.0f} MB")


SNIPPET = """\
import queens
from queens import Army, Puzzle, Result

result: Result = queens.count(queens.NQueens(8))
total: int | None = result.count
peaceable = Puzzle(shape=(5, 5), armies=(Army("white", count="maximise"), Army("black", count="maximise")),
                   within=False)
best = queens.optimise(peaceable)
picture: str = queens.Board(peaceable, best.solution or ()).svg()
family: queens.Puzzle = queens.family("peaceable", 6)
version: str = queens.__version__
"""


@pytest.mark.slow
def test_a_users_snippet_passes_mypy_strict_against_the_installed_wheel(base: Path, tmp_path: Path) -> None:
    """The snippet's types come from the installed package (py.typed), not from this repo."""
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    checked = _run(sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable",
                   base / "bin" / "python", snippet, cwd=tmp_path)
    assert "Success" in checked
    snippet.write_text(SNIPPET + "wrong: str = queens.count(queens.NQueens(4)).count\n")
    failed = _run(sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable",
                  base / "bin" / "python", snippet, cwd=tmp_path, code=1)
    assert "Incompatible types in assignment" in failed  # the types are seen, not Any
    snippet.write_text(SNIPPET)
    _run(base / "bin" / "python", snippet, cwd=tmp_path)  # and it runs


CHECKED_EXTRAS = ("certify", "plots", "pictures")
"""The extras whose floors the lowest-versions run installs and uses too."""


def _lowest() -> list[str]:
    """Each requirement (and each of `CHECKED_EXTRAS`'s) at the lowest release pyproject.toml
    allows (`>=9.15` is 9.15.*, whose releases are 9.15.6755 and the like; an exact pin as it is)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *(line for extra in CHECKED_EXTRAS for line in
                                            project["optional-dependencies"][extra])]
    pins = []
    for requirement in declared:
        parsed = re.match(r"([A-Za-z0-9_.-]+)\s*(>=|==)\s*([^,;\s]+)", requirement)
        assert parsed, f"a requirement with no lower bound: {requirement}"
        name, operator, bound = parsed.groups()
        release = operator == "==" or bound.count(".") >= 2  # 1.2.1 is a release; 9.15 a series
        pins.append(f"{name}=={bound}" if release else f"{name}=={bound}.*")
    return pins


@pytest.mark.slow
def test_the_lowest_versions_pyproject_allows_work(dist: Path, tmp_path: Path, reference) -> None:
    """The ranges are true at their low end: every backend counts, an optimum is proved, the CLI's
    suggestions and the progress bar draw, on the oldest versions declared."""
    venv = tmp_path / "lowest"
    constraints = tmp_path / "lowest.txt"
    constraints.write_text("\n".join(_lowest()) + "\n")
    _run(sys.executable, "-m", "venv", venv)
    wheel = _one(list(dist.glob("*.whl")))
    _run(venv / "bin" / "pip", "install", "--quiet", "-c", constraints, f"{wheel}[{','.join(CHECKED_EXTRAS)}]")
    frozen = _run(venv / "bin" / "pip", "list", "--format=freeze").lower()
    installed = dict(line.split("==") for line in frozen.splitlines() if "==" in line)
    for pin in map(Requirement, _lowest()):
        assert pin.specifier.contains(installed[pin.name.lower()], prereleases=True), (pin, frozen)
    for backend in ("native", "cpsat", "sat", "csp"):
        counted = _run(venv / "bin" / "queens", "count", "nqueens", "-n", "8", "-b", backend, cwd=tmp_path)
        assert f": {reference.term('A000170', 8)} solutions" in counted, counted
    fewest = reference.term("A075458", 8)
    assert f"optimum {fewest} (proved)" in _run(venv / "bin" / "queens", "solve", "domination", "-n", "8", "-b", "mip",
                                                cwd=tmp_path)
    typo = _run(venv / "bin" / "queens", "count", "nqeens", "-n", "8", cwd=tmp_path, code=2)
    assert "Did you mean 'nqueens'" in typo
    drawn = _run(venv / "bin" / "python", "-c", "import io, time\n"
                 "from queens.commands.progress import ProgressView\n"
                 "from queens.solvers.runtime.progress import Progress\n"
                 "s = io.StringIO(); v = ProgressView(s, terminal=True, start=time.monotonic() - 5)\n"
                 "v(Progress(done=1, total=4)); v.close(); print('(25%)' in s.getvalue())", cwd=tmp_path)
    assert drawn.strip() == "True"
    certified = _run(venv / "bin" / "queens", "solve", "domination", "-n", "4", "--certify", cwd=tmp_path)
    assert "drup valid" in certified and "dratify" in certified
    _run(venv / "bin" / "queens", "show", "peaceable", "-n", "4", "--png", "p.png", cwd=tmp_path)
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    _run(venv / "bin" / "python", "-c", "from pathlib import Path; from queens.experiments.report import Plots; "
         "plots = Plots(Path('.')); figure, axes = plots.pyplot.subplots(); axes.plot([1, 2], [3, 4]); "
         "figure.savefig('plot.svg')", cwd=tmp_path)
    assert (tmp_path / "plot.svg").read_text().lstrip().startswith("<?xml")
    names = {pin.split("==")[0].lower() for pin in _lowest()}
    print("\nlowest versions: " + ", ".join(line for line in frozen.splitlines() if line.split("==")[0] in names))
