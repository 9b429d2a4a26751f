"""The explorer and headless Chromium, one of each for the package's modules (the page, the
search pane): package-scoped, so both modules' tests share them and they are gone when the
package's last test is (its modules are one unit of work on one xdist worker: KEPT_TOGETHER in
tests/conftest.py)."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

from tests.browser.chromium import CHROMEDRIVER, CHROMIUM, TIME_LIMIT
from tests.explorer_server import running_explorer


@pytest.fixture(scope="package")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The explorer, once both its solver processes have started (their imports are the
    fixture's time, not the first test's). It runs in a folder of its own, as a user's would:
    a count from 18-queens keeps its ledger in the folder the server was started from (the
    20-queens count of test_page.py left one in the repository)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("explorer"))  # before its solver processes start
        with running_explorer(time_limit=TIME_LIMIT, workers=2) as url:
            warming = [threading.Thread(target=_warm, args=(url,)) for _ in range(2)]
            for thread in warming:
                thread.start()
            for thread in warming:
                thread.join()
            yield url + "/"


def _warm(url: str) -> None:
    """One small search, which waits for a solver process to be ready (a busy pool's 503 is retried)."""
    request = urllib.request.Request(f"{url}/api/count", data=b'{"family": "nqueens", "n": 4}', method="POST")
    for _ in range(100):
        try:
            with urllib.request.urlopen(request, timeout=120) as reply:
                reply.read()
            return
        except urllib.error.HTTPError as error:
            assert error.code == 503, error.read()


@pytest.fixture(scope="package")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    assert CHROMIUM is not None  # the modules are skipped without it
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=900,1100"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:  # installed but unable to start is a failure, not a skip
        pytest.fail(f"headless chromium did not start: {error.msg}")
    yield driver
    driver.quit()
