"""Packaging hygiene, read from the files: the requirements are ranges (python-sat's exact pin
aside), the versions CI tests are locked inside them and `make install` uses the lock, every
extra a part of the suite asks for is declared, and a missing one is refused with its install
command, before any work (exit 2). The built wheel and sdist are tests/test_wheel.py's (slow)."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from queens.models.errors import MissingExtra
from queens.solvers.runtime.extras import EXTRAS, install_command

from tests.cli import run_main

REPO = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
LOCK = {Requirement(line).name.lower().replace("_", "-"): Requirement(line)
        for line in (REPO / "requirements" / "lock.txt").read_text().splitlines() if line and not line.startswith("#")}
EXACT = {"python-sat": "publishes only 1.9.devN builds"}


def _name(requirement: Requirement) -> str:
    return requirement.name.lower().replace("_", "-")


@pytest.mark.parametrize("line", PROJECT["dependencies"])
def test_each_requirement_is_a_range_and_its_locked_version_is_in_it(line):
    requirement = Requirement(line)
    pinned = [spec for spec in requirement.specifier if spec.operator == "=="]
    assert not pinned or _name(requirement) in EXACT, f"{line}: a range, so that queens installs beside others"
    locked = LOCK[_name(requirement)]
    version = next(iter(locked.specifier)).version
    assert requirement.specifier.contains(version, prereleases=True), (line, version)


@pytest.mark.parametrize("extra", sorted(PROJECT["optional-dependencies"]))
def test_each_extras_packages_are_locked_inside_their_range(extra):
    for line in PROJECT["optional-dependencies"][extra]:
        requirement = Requirement(line)
        if requirement.name == "queens":
            continue
        version = next(iter(LOCK[_name(requirement)].specifier)).version
        assert requirement.specifier.contains(version, prereleases=True), (extra, line, version)


def test_every_extra_a_part_asks_for_is_declared_and_installs_its_modules():
    declared = PROJECT["optional-dependencies"]
    assert set(EXTRAS) <= set(declared)
    distributions = {"drup": "drup", "dratify": "dratify", "matplotlib": "matplotlib", "distributed": "dask",
                     "minizinc": "minizinc", "PIL": "pillow"}
    for name, extra in EXTRAS.items():
        packages = {_name(Requirement(line)) for line in declared[name]}
        assert {distributions[module] for module in extra.modules} <= packages, name


def test_the_base_install_leaves_out_what_only_some_features_need():
    base = {_name(Requirement(line)) for line in PROJECT["dependencies"]}
    assert not base & {"matplotlib", "drup", "dratify", "cdclkit-native", "dask", "minizinc", "pillow"}


def test_make_install_installs_the_locked_versions():
    recipe = (REPO / "Makefile").read_text().replace("\\\n", " ")  # continued lines joined
    install = next(line for line in recipe.splitlines() if "pip install" in line and " -e '." in line)
    assert "-c requirements/lock.txt" in install
    listed = re.search(r"\.\[([a-z,]+)\]", install)
    assert listed, install
    extras = listed.group(1).split(",")
    assert set(extras) >= {"test", *EXTRAS}  # development tests every feature


def test_license_changelog_and_contributing_are_there_and_linked():
    assert (REPO / "LICENSE").read_text().startswith("MIT License") and PROJECT["license"] == "MIT"
    assert "LICENSE" in PROJECT["license-files"]
    manifest = (REPO / "MANIFEST.in").read_text()
    assert all(name in manifest for name in ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "requirements/lock.txt"))
    contributing = (REPO / "CONTRIBUTING.md").read_text()
    for linked in re.findall(r"\]\(([^)#]+)\)", contributing):
        assert (REPO / linked).is_file(), linked
    assert {"docs/architecture.md", "docs/adding-a-backend.md"} <= set(re.findall(r"\]\(([^)#]+)\)", contributing))
    assert "## [Unreleased]" in (REPO / "CHANGELOG.md").read_text()


def _hidden(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """The modules as if not installed (an import of one raises ImportError)."""
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("args,extra,hidden", [
    (["solve", "domination", "-n", "4", "--certify"], "certify", "dratify"),
    (["count", "nqueens", "-n", "8", "--dask", "local"], "dask", "distributed"),
    (["show", "nqueens", "-n", "4", "--png", "q.png"], "pictures", "PIL"),
])
def test_a_missing_extra_is_refused_before_any_work_with_its_install_command(args, extra, hidden, monkeypatch,
                                                                              tmp_path):
    monkeypatch.chdir(tmp_path)
    _hidden(monkeypatch, hidden)
    refused = run_main(*args)
    assert refused.returncode == 2, refused.stderr
    assert install_command(extra) in refused.stderr and "Traceback" not in refused.stderr
    assert refused.stdout == ""  # nothing was answered


def test_the_reports_plots_ask_for_their_extra(monkeypatch, tmp_path):
    from queens.experiments.report import Plots

    _hidden(monkeypatch, "matplotlib")
    with pytest.raises(MissingExtra, match=re.escape(install_command("plots"))):
        Plots(tmp_path)


def test_the_minizinc_backend_names_its_extra(monkeypatch):
    from queens.solvers.backends import minizinc

    _hidden(monkeypatch, "minizinc")
    said = minizinc._missing.__wrapped__()  # uncached: what a fresh process would say
    assert said is not None and ("MiniZinc binary" in said or install_command("minizinc") in said)
