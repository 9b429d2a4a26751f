"""The explorer in a real browser: headless Chromium (Debian's) driven by Selenium.

`make test-browser` and `.ci/run` install the Debian packages `chromium` and `chromium-driver`
when they are missing; these tests skip only when those programs are still absent (the
packages could not be installed), and say so.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from queens.models import NQueens, verify
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.explorer_server import running_explorer

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="chromium/chromedriver not found and could not be installed: "
           "run `make test-browser` (apt-get install chromium chromium-driver)",
)
WAIT = 20


@pytest.fixture(scope="module")
def page() -> Iterator[str]:
    with running_explorer() as url:
        yield url + "/"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=900,1100"):
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:  # installed but unable to start is a failure, not a skip
        pytest.fail(f"headless chromium did not start: {error.msg}")
    yield driver
    driver.quit()


def _open(browser: webdriver.Chrome, page: str, n: int) -> None:
    browser.get(page)
    WebDriverWait(browser, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .cell")) == 64)
    field = browser.find_element(By.ID, "n")
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))",
                           field, str(n))
    WebDriverWait(browser, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .cell")) == n * n)


def _cell(browser: webdriver.Chrome, r: int, c: int):
    return browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-r="{r}"][data-c="{c}"]')


def _message(browser: webdriver.Chrome) -> str:
    return browser.find_element(By.ID, "message").text


def _wait_message(browser: webdriver.Chrome, text: str) -> str:
    WebDriverWait(browser, WAIT).until(lambda d: text in _message(d))
    return _message(browser)


def _queens(browser: webdriver.Chrome) -> list[tuple[int, int]]:
    return sorted((int(e.get_attribute("data-r")), int(e.get_attribute("data-c")))
                  for e in browser.find_elements(By.CSS_SELECTOR, "#board .cell.queen"))


def test_place_by_clicking_then_complete(browser, page):
    _open(browser, page, 6)
    _cell(browser, 0, 1).click()
    _wait_message(browser, "1 of 6 queens placed")
    assert "attacked" in _cell(browser, 0, 4).get_attribute("class")
    _cell(browser, 1, 2).click()  # on the diagonal of (0, 1): both are ringed
    _wait_message(browser, "attack each other")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell.conflict")) == 2
    _cell(browser, 1, 2).click()  # take it back
    _wait_message(browser, "1 of 6 queens placed")
    browser.find_element(By.ID, "complete").click()
    assert "solved by native" in _wait_message(browser, "solved")
    queens = _queens(browser)
    assert (0, 1) in queens and verify(NQueens(6), queens)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell.queen.solver")) == 5


def test_no_solution_message_for_n_2(browser, page):
    _open(browser, page, 2)
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "no solution")
    assert _queens(browser) == []
    assert "none" in browser.find_element(By.ID, "message").get_attribute("class")


def test_blocked_completion_message(browser, page):
    _open(browser, page, 6)
    _cell(browser, 0, 0).click()  # no 6-queens solution has a queen in a corner
    _wait_message(browser, "1 of 6 queens placed")
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "cannot be completed")


def test_why_rings_the_givens_that_have_no_solution(browser, page):
    """Five queens no solution extends; why? rings the three that already have none with the count
    (as `queens why` finds them, tests/test_web.py re-checks them) and lists them in the command's
    words, the count too, which has no square to ring."""
    _open(browser, page, 8)
    assert not browser.find_element(By.ID, "why").is_displayed()
    for placed, (r, c) in enumerate([(3, 0), (4, 7), (6, 4), (1, 3), (0, 6)], start=1):
        _cell(browser, r, c).click()
        _wait_message(browser, f"{placed} of 8 queens placed")  # the board is redrawn before the message
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "cannot be completed")
    browser.find_element(By.ID, "why").click()
    _wait_message(browser, "These 4 of its 6 givens have none by themselves")
    ringed = sorted((int(e.get_attribute("data-r")), int(e.get_attribute("data-c")))
                    for e in browser.find_elements(By.CSS_SELECTOR, "#board .cell.queen.culprit"))
    assert ringed == [(0, 6), (1, 3), (3, 0)] and len(_queens(browser)) == 5
    listed = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#reasons li")]
    assert listed == ["queen at 0,6", "queen at 1,3", "queen at 3,0", "exactly 8 queens in all"]
    _cell(browser, 4, 7).click()  # any change to the board forgets the answer
    _wait_message(browser, "4 of 8 queens placed")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .cell.culprit")
    assert not browser.find_elements(By.CSS_SELECTOR, "#reasons li")


def test_count_and_step_through_the_search(browser, page, reference):
    _open(browser, page, 4)
    browser.find_element(By.ID, "count").click()
    _wait_message(browser, f"{reference.term('A000170', 4)} solutions")
    for _ in range(3):
        browser.find_element(By.ID, "step").click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "step").is_enabled())
    assert _message(browser).startswith("step 3 of ")
    assert "nodes" in browser.find_element(By.ID, "counters").text


def _choose_family(browser: webdriver.Chrome, family: str) -> None:
    Select(browser.find_element(By.ID, "family")).select_by_value(family)


def _in_viewport(browser: webdriver.Chrome, element_id: str) -> bool:
    """Whether the element is wholly inside the window as it is (no scrolling done)."""
    return browser.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight"
        " && r.right <= window.innerWidth && window.scrollY === 0;", element_id)


def test_switching_family_resets_board_pawns_and_result(browser, page):
    _open(browser, page, 8)
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "solved by ")
    assert len(_queens(browser)) == 8 and browser.find_element(By.ID, "timing").text
    _choose_family(browser, "ninequeens")
    _wait_message(browser, "place the pawns first")
    assert _queens(browser) == [] and not browser.find_elements(By.CSS_SELECTOR, "#board .cell.pawn")
    assert browser.find_element(By.ID, "timing").text == ""
    _cell(browser, 3, 3).click()  # pawn mode is chosen for a family with pawns
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.pawn"))
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "solved by ")
    assert len(_queens(browser)) == 9
    _choose_family(browser, "nqueens")
    _wait_message(browser, "0 of 8 queens placed")
    assert _queens(browser) == [] and not browser.find_elements(By.CSS_SELECTOR, "#board .cell.pawn")
    assert browser.find_element(By.ID, "timing").text == ""


def test_result_is_visible_without_scrolling_at_n_20(browser, page):
    _open(browser, page, 20)
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "solved by ")
    assert len(_queens(browser)) == 20
    assert _in_viewport(browser, "message") and _in_viewport(browser, "timing")


def test_errors_are_shown_in_the_page(browser, page):
    _open(browser, page, 20)
    browser.find_element(By.ID, "count").click()  # 400 cells: beyond what the explorer counts
    _wait_message(browser, "counting is limited to")
    message = browser.find_element(By.ID, "message")
    assert "error" in message.get_attribute("class") and _in_viewport(browser, "message")
    field = browser.find_element(By.ID, "n")
    browser.execute_script("arguments[0].value = '99'; arguments[0].dispatchEvent(new Event('change'))", field)
    _wait_message(browser, "'n' must be between 1 and 20")
    assert "error" in message.get_attribute("class")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .cell")  # no stale board under the error


FAMILY_NAMES = sorted(__import__("queens.models.families", fromlist=["FAMILIES"]).FAMILIES)
SHOTS = {"peaceable", "colouring", "cube"}
SHOT_DIR = Path(tempfile.gettempdir()) / "queens-explorer-shots"
SHOT_DIR.mkdir(exist_ok=True)
"""Families whose answered board is also saved as a picture (armies in colours, a cube's layers)."""


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_every_family_is_answered_on_the_page(browser, page, family, tmp_path):
    """Each family of the registry: chosen, answered by `complete`, and drawn: pieces on the
    board, in as many colours as the answer has armies (a cube's layers side by side)."""
    _open(browser, page, 4)
    _choose_family(browser, family)
    WebDriverWait(browser, WAIT).until(lambda d: _message(d) and "…" not in _message(d))
    browser.find_element(By.ID, "complete").click()
    WebDriverWait(browser, 60).until(lambda d: _message(d) and "solving" not in _message(d))
    message = _message(browser)
    assert "Error" not in message and "internal" not in message, message
    pieces = browser.find_elements(By.CSS_SELECTOR, "#board .cell.queen")
    if "place some pieces" in message or "no solution" in message:
        assert not pieces
        return
    assert pieces, message
    armies = {cls for e in pieces for cls in e.get_attribute("class").split() if cls.startswith("army")}
    assert armies, "every piece names its army"
    if family in SHOTS:
        shot = SHOT_DIR / f"explorer-{family}.png"
        browser.save_screenshot(str(shot))
        assert shot.stat().st_size > 1000
