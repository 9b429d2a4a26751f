"""The package as a user gets it: `python -m build` gives an sdist and a wheel (built from the
sdist, so the sdist must carry the C sources), and the wheel, installed (not editable) in a
fresh venv far from this repo, counts, solves and serves the explorer's page.

Slow (a build and a venv): `make test-slow`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXTENSIONS = ("_fast", "_kernel", "_completion", "_localsearch")


def _run(*args: object, cwd: Path | None = None) -> str:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "QUEENS_KERNEL")}
    result = subprocess.run([str(arg) for arg in args], capture_output=True, text=True, cwd=cwd, env=env,
                            timeout=900)
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result.stdout


def _one(paths: list[Path]) -> Path:
    assert len(paths) == 1, paths
    return paths[0]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "build", "--outdir", out, REPO)
    return out


@pytest.mark.slow
def test_the_wheel_installs_one_package_with_its_extensions_and_data(dist: Path) -> None:
    names = zipfile.ZipFile(_one(list(dist.glob("*.whl")))).namelist()
    assert {name.split("/")[0] for name in names} == {"queens", "queens-0.1.0.dist-info"}
    for module in EXTENSIONS:
        assert any(name.startswith(f"queens/solvers/native/{module}.") and name.endswith((".so", ".pyd"))
                   for name in names), module
    assert {"queens/web/static/index.html", "queens/experiments/yardstick/classic.c",
            "queens/solvers/mznlib/fzn_all_different_int.mzn"} <= set(names)


@pytest.mark.slow
def test_the_sdist_carries_the_c_sources(dist: Path) -> None:
    with tarfile.open(_one(list(dist.glob("*.tar.gz")))) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    for source in ("fastcount.c", "fastcore.c", "fastcore.h", "lanes.h", "lanes_avx512.h", "common.h",
                   "kernel.c", "kernelcore.c", "kernelcore.h", "tests/driver.c", "tests/kerneldriver.c"):
        assert f"solvers/native/{source}" in names


@pytest.mark.slow
def test_the_wheel_works_in_a_fresh_venv_outside_the_repo(dist: Path, tmp_path: Path, reference) -> None:
    venv, elsewhere = tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "pip", "install", "--quiet", _one(list(dist.glob("*.whl"))))
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
