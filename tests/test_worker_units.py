"""The suite's units of work under xdist (tests/conftest.py, `KEPT_TOGETHER`): a module whose
module-scoped fixture starts a server, a browser or a Dask cluster runs on one worker, and so
does a package whose package-scoped fixture does, so that the set-up is made once, not once per
worker that happens to run one of its tests."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import KEPT_TOGETHER

TESTS = Path(__file__).resolve().parent
STARTS = ("running_explorer(", "serving(", "webdriver.Chrome(", "local_cluster(")
"""What such a fixture calls: the explorer in a thread, `queens serve`, Chromium, a Dask cluster."""
SHARED = ("dask_cluster",)
"""Such fixtures made elsewhere and used here."""


def _starts_something(text: str, scope: str = "module") -> bool:
    fixtures = re.split(rf"@pytest\.fixture\(scope=\"{scope}\"\)", text)[1:]
    own = any(any(call in fixture.split("\n\n\n")[0] for call in STARTS) for fixture in fixtures)
    return own or any(shared in text for shared in SHARED)


def test_every_module_that_starts_a_server_browser_or_cluster_per_module_runs_on_one_worker() -> None:
    modules = {f"tests/{path.name}" for path in TESTS.glob("test_*.py")
               if _starts_something(text := path.read_text()) and text.count("\ndef test_") > 1}
    packages = {f"tests/{path.parent.name}" for path in TESTS.glob("*/conftest.py")
                if _starts_something(path.read_text(), "package")}
    assert len(modules) >= 5 and packages == {"tests/browser"}  # the explorer's three, Dask's two; the browser's
    assert modules | packages <= KEPT_TOGETHER, sorted(modules | packages - KEPT_TOGETHER)
    assert all((TESTS.parent / unit).exists() for unit in KEPT_TOGETHER)
