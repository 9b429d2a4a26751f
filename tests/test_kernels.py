"""Every kernel of the classes counter this CPU runs, forced one by one, and the scalar kernel's
baseline build: exact counts (OEIS A000170, A002562), the same classes and nodes per subproblem
as the scalar kernel, and a clear refusal of the kernels it cannot run, in Python and on the
command line (`queens info`, exit 2)."""

from __future__ import annotations

import json

import pytest
from queens.solvers.native import _classes
from queens.solvers.native.counting import count_classes, subproblems
from queens.solvers.native.kernels import ENVIRONMENT, NAMES, KernelUnavailable, choose_kernel

from tests.cli import error_line, run_cli

RUNNABLE = list(_classes.SUPPORTED)
REFUSED = [name for name in NAMES if name not in RUNNABLE]


@pytest.fixture(autouse=True)
def _no_forced_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A QUEENS_KERNEL in the caller's shell must not choose for these tests."""
    monkeypatch.delenv(ENVIRONMENT, raising=False)


@pytest.mark.parametrize("kernel", RUNNABLE)
def test_each_kernel_counts_exactly(kernel: str, reference) -> None:
    for n in range(1, 15):
        classes = count_classes(n, kernel=kernel, threads=1)
        assert (n, classes.total) == (n, reference.term("A000170", n))
        assert (n, classes.fundamental) == (n, reference.term("A002562", n))


@pytest.mark.parametrize("kernel", RUNNABLE)
def test_the_environment_forces_a_kernel(kernel: str, monkeypatch: pytest.MonkeyPatch, reference) -> None:
    monkeypatch.setenv(ENVIRONMENT, kernel)
    choice = choose_kernel()
    assert (choice.name, choice.forced) == (kernel, True)
    assert count_classes(12).total == reference.term("A000170", 12)


def test_the_scalar_kernels_baseline_build_counts_exactly(reference) -> None:
    """`scalar` runs its BMI1/BMI2 build where the CPU has them (SCALAR_BUILD); its baseline
    build, what other CPUs run, is checked here on any CPU."""
    for n in range(4, 15):
        counted = _classes.count(n, subproblems(n), kernel="scalar-baseline")
        c2, c4, c8, _ = (sum(column) for column in zip(*counted, strict=True))
        assert (n, 2 * c2 + 4 * c4 + 8 * c8) == (n, reference.term("A000170", n))
        assert (n, c2 + c4 + c8) == (n, reference.term("A002562", n))


@pytest.mark.parametrize("kernel", [*RUNNABLE, "scalar-baseline"])
def test_each_kernel_walks_the_scalar_tree(kernel: str) -> None:
    """Same classes and same nodes per subproblem: the lanes visit exactly the scalar search's nodes."""
    keys = subproblems(13)
    assert _classes.count(13, keys, kernel=kernel) == _classes.count(13, keys, kernel="scalar")


def test_auto_runs_the_best_kernel_this_cpu_has() -> None:
    choice = choose_kernel()
    automatic = [kernel for kernel in RUNNABLE if kernel in _classes.AUTOMATIC]  # RUNNABLE: worst to best
    assert not choice.forced and choice.name == _classes.BEST == automatic[-1]
    # the scalar kernel outruns the 4-lane ones
    assert "scalar" in _classes.AUTOMATIC and not {"sse2", "neon"} & set(_classes.AUTOMATIC)
    assert "scalar" in RUNNABLE and set(RUNNABLE) <= set(_classes.KERNELS) <= set(NAMES)


@pytest.mark.parametrize("kernel", [*REFUSED, "gpu", "AVX2"])
def test_a_kernel_the_cpu_cannot_run_is_refused(kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(KernelUnavailable, match=kernel):
        count_classes(10, kernel=kernel)
    monkeypatch.setenv(ENVIRONMENT, kernel)
    with pytest.raises(KernelUnavailable, match=ENVIRONMENT):
        count_classes(10)


def test_the_cli_refuses_a_forced_kernel_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, REFUSED[0])
    result = run_cli("count", "nqueens", "-n", "10", "--backend", "native")
    assert result.returncode == 2
    assert error_line(result).startswith(f"error: the {REFUSED[0]} kernel ({ENVIRONMENT}) cannot run")


def test_info_says_which_kernel_runs_and_why() -> None:
    result = run_cli("info")
    assert result.returncode == 0
    lines = dict(line.split(":", 1) for line in result.stdout.splitlines())
    assert lines["kernel"].strip() == _classes.BEST
    assert lines["why"].strip().startswith("auto: the best of")
    assert lines["CPU features seen"].split() == _classes.FEATURES.split() or not _classes.FEATURES
    assert lines["scalar kernel's build"].strip() == _classes.SCALAR_BUILD in ("baseline", "bmi1+bmi2")


@pytest.mark.parametrize("kernel", RUNNABLE)
def test_info_json_reports_a_forced_kernel(kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, kernel)
    result = run_cli("info", "--json")
    assert result.returncode == 0
    info = json.loads(result.stdout)
    details = info["details"]
    assert (info["command"], info["backend"], info["method"]) == ("info", "native", "classes")
    assert (details["kernel"], details["chosen_by"]) == (kernel, ENVIRONMENT)
    assert details["supported"] == RUNNABLE and details["cpu_features"] == _classes.FEATURES.split()


def test_info_refuses_a_kernel_the_cpu_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "gpu")
    result = run_cli("info")
    assert result.returncode == 2 and "unknown kernel 'gpu'" in error_line(result)
