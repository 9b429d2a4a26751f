"""The explorer in a real browser: headless Chromium (Debian's) driven by Selenium.

`make test-browser` and `.ci/run` install the Debian packages `chromium` and `chromium-driver`
when they are missing; these tests skip only when those programs are still absent (the
packages could not be installed), and say so.

Screenshots are kept as the tests' artefacts in build/screenshots/ (the desktop and the phone
layout, a long count's progress, the families drawn in colour); each test that takes one prints
its path (`pytest -rP tests/browser` shows them). The explorer and the browser are the
package's (tests/browser/conftest.py): one of each for this module and tests/browser/test_search_pane.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from queens.models import NQueens, verify
from queens.models.drawing import ARMY_FILLS
from queens.models.families import FAMILIES
from queens.solvers import count
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browser.chromium import TIME_LIMIT, pytestmark

__all__ = ["pytestmark"]  # the skip when chromium is missing

WAIT = 20
REPO = Path(__file__).resolve().parents[2]
SHOT_DIR = REPO / "build" / "screenshots"
PUZZLES = REPO / "models" / "puzzles"
DESKTOP = (1280, 900)
PHONE = (390, 844)


def _shot(browser: webdriver.Chrome, name: str) -> Path:
    """A screenshot kept in build/screenshots/, its path printed."""
    SHOT_DIR.mkdir(parents=True, exist_ok=True)
    shot = SHOT_DIR / f"explorer-{name}.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 1000
    print(f"screenshot: {shot}")
    return shot


def _load(browser: webdriver.Chrome, url: str) -> None:
    """Open the page afresh at `url` (a whole load, not a move within the page) and wait for its board."""
    browser.get("about:blank")
    browser.get(url)
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell")
                                       and "…" not in _message(d))


def _open(browser: webdriver.Chrome, page: str, n: int, family: str = "nqueens") -> None:
    _load(browser, f"{page}#family={family}&n={n}")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell")) == n * n


def _cell(browser: webdriver.Chrome, r: int, c: int) -> WebElement:
    return browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-r="{r}"][data-c="{c}"]')


def _message(browser: webdriver.Chrome) -> str:
    return browser.find_element(By.ID, "message").text


def _wait_message(browser: webdriver.Chrome, text: str, wait: float = WAIT) -> str:
    WebDriverWait(browser, wait).until(lambda d: text in _message(d))
    return _message(browser)


def _attribute(element: WebElement, name: str) -> str:
    """An attribute the page always sets (None: a broken page)."""
    value = element.get_attribute(name)
    assert value is not None, f"no {name} on {element}"
    return value


def _squares(browser: webdriver.Chrome, selector: str) -> list[tuple[int, int]]:
    """The (row, column) of each board square `selector` matches, read in one round trip: a
    WebDriver call per attribute (two per square) made reading boards most of a test's time."""
    found = browser.execute_script("return [...document.querySelectorAll(arguments[0])]"
                                   ".map(e => [e.dataset.r, e.dataset.c]);", selector)
    assert all(r is not None and c is not None for r, c in found), f"a square without its row or column: {found}"
    return sorted((int(r), int(c)) for r, c in found)


def _queens(browser: webdriver.Chrome) -> list[tuple[int, int]]:
    return _squares(browser, "#board .cell.queen")


def _focused(browser: webdriver.Chrome) -> tuple[int, int] | None:
    """The board square that has the keyboard's focus, or None when the focus is elsewhere."""
    found = browser.execute_script("const e = document.activeElement;"
                                   "return e && e.classList.contains('cell') ? [e.dataset.r, e.dataset.c] : null;")
    return None if found is None else (int(found[0]), int(found[1]))


def _keys(browser: webdriver.Chrome, *keys: str) -> None:
    """Keys pressed where the focus is, as a user presses them."""
    webdriver.ActionChains(browser).send_keys(*keys).perform()


def _hash(browser: webdriver.Chrome) -> str:
    found: str = browser.execute_script("return location.hash")
    return found


def _colour(element: WebElement) -> str:
    return element.value_of_css_property("color")


def _rgb(hex_colour: str) -> str:
    """A #rrggbb colour as the browser's computed style writes it."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, 1)"


def test_place_by_clicking_then_complete(browser, page):
    _open(browser, page, 6)
    _cell(browser, 0, 1).click()
    _wait_message(browser, "1 of 6 queens placed")
    assert "attacked" in _attribute(_cell(browser, 0, 4), "class")
    _cell(browser, 1, 2).click()  # on the diagonal of (0, 1): both are ringed
    _wait_message(browser, "attack each other")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell.conflict")) == 2
    _cell(browser, 1, 2).click()  # take it back
    _wait_message(browser, "1 of 6 queens placed")
    assert _focused(browser) == (1, 2)  # the focus stays on the board, on the square clicked
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


def _completions(cells: list[tuple[int, int]]) -> int:
    """8-queens solutions through these queens, by the native counter (no SAT, no MUS code)."""
    found = count(NQueens(8).with_fixed(cells), "native").count
    assert found is not None
    return found


def test_why_rings_the_givens_that_have_no_solution(browser, page):
    """Five queens no solution extends; why? rings those among them that already have none with the
    count (checked here by the native counter: none, and one each without any of them) and lists
    them in the command's words, the count too, which has no square to ring."""
    placed = [(3, 0), (4, 7), (6, 4), (1, 3), (0, 6)]
    _load(browser, f"{page}#family=nqueens&n=8&queens=" + ";".join(f"{r},{c}" for r, c in placed))
    _wait_message(browser, "5 of 8 queens placed")
    assert not browser.find_element(By.ID, "why").is_displayed()
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "cannot be completed")
    browser.find_element(By.ID, "why").click()
    _wait_message(browser, "of its 6 givens")
    ringed = _squares(browser, "#board .cell.queen.culprit")
    assert set(ringed) < set(placed) and len(_queens(browser)) == 5
    assert _completions(ringed) == 0
    assert all(_completions(ringed[:i] + ringed[i + 1:]) > 0 for i in range(len(ringed)))
    listed = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#reasons li")]
    assert listed == [f"queen at {r},{c}" for r, c in ringed] + ["exactly 8 queens in all"]
    assert "givens with no solution together" in browser.find_element(By.ID, "legend").text
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


def test_counting_is_the_native_counters_beyond_144_cells(browser, page, reference):
    """16-queens, 256 cells (the explorer refused to count past 144): the native meet-in-the-middle
    counter's exact total, as `queens count nqueens -n 16` gives it."""
    _open(browser, page, 16)
    browser.find_element(By.ID, "count").click()
    message = _wait_message(browser, "solutions, counted by", wait=TIME_LIMIT)
    assert message.startswith(f"{reference.term('A000170', 16):,} solutions, counted by native/"), message
    assert browser.find_element(By.ID, "progress").get_attribute("hidden") is not None


def test_a_long_count_shows_its_progress_and_can_be_cancelled(browser, page, reference):
    """20-queens takes the native counter minutes: the page shows the strategy, the parts done
    and the time as it runs, and cancel stops it at once with what it had found."""
    _open(browser, page, 20)
    browser.find_element(By.ID, "count").click()
    progress, bar = browser.find_element(By.ID, "progress-text"), browser.find_element(By.ID, "bar")
    WebDriverWait(browser, WAIT).until(lambda d: "parts" in progress.text and float(bar.get_attribute("value")) > 0)
    assert progress.text.startswith("native/") and browser.find_element(By.ID, "progress").is_displayed()
    assert not browser.find_element(By.ID, "count").is_enabled()  # one search at a time
    _shot(browser, "progress")
    browser.find_element(By.ID, "cancel").click()
    message = _wait_message(browser, "cancelled after")
    assert "native/" in message and not browser.find_element(By.ID, "progress").is_displayed()
    if "solutions found" in message:  # a lower bound: fewer than Q(20)
        found = int(message.split("; ")[1].split()[0].replace(",", ""))
        assert found < reference.term("A000170", 20)
    assert browser.find_element(By.ID, "count").is_enabled()


def test_the_board_is_a_grid_with_coordinates_for_a_screen_reader(browser, page):
    """Roles and names as the accessibility tree gives them to a screen reader (Chromium's own
    tree, read over the DevTools protocol): a grid, its rows, the coordinates as column and row
    headers, each square named by row and column (counted from 0, as puzzle files count) and
    what is on it."""
    _load(browser, f"{page}#family=nqueens&n=5&queens=3,4")
    _wait_message(browser, "1 of 5 queens placed")
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#board [role=columnheader]")][1:] == \
        ["0", "1", "2", "3", "4"]
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#board [role=rowheader]")] == \
        ["0", "1", "2", "3", "4"]
    nodes = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    roles: dict[str, list[str]] = {}
    for node in nodes:
        if not node.get("ignored"):
            roles.setdefault(node.get("role", {}).get("value"), []).append(node.get("name", {}).get("value", ""))
    assert roles["grid"] == ["board, 5 rows by 5 columns"]
    assert len(roles["row"]) == 6 and len(roles["gridcell"]) == 25
    assert "column 4" in roles["columnheader"] and "row 3" in roles["rowheader"]
    assert "row 3, column 4, queen" in roles["gridcell"]
    assert "row 0, column 4, attacked" in roles["gridcell"] and "row 0, column 0, empty" in roles["gridcell"]


def test_the_keyboard_moves_places_and_keeps_the_focus(browser, page):
    """Tab reaches the board (one square in the tab order), arrows move, Enter and Space place
    and remove, Home, End and Page Down jump; after every placement the focus is where it was."""
    _open(browser, page, 8)
    browser.execute_script("document.getElementById('backend').focus()")  # the control before the board
    _keys(browser, Keys.TAB)
    assert _focused(browser) == (0, 0)
    _keys(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ENTER)
    _wait_message(browser, "1 of 8 queens placed")
    assert _queens(browser) == [(1, 2)] and _focused(browser) == (1, 2)
    assert _cell(browser, 1, 2).get_attribute("aria-label") == "row 1, column 2, queen"
    _keys(browser, Keys.END, Keys.SPACE)  # (1, 7): on the queen's row
    _wait_message(browser, "attack each other")
    assert _focused(browser) == (1, 7) and "attacks another piece" in _attribute(_cell(browser, 1, 7), "aria-label")
    _keys(browser, Keys.SPACE)
    _wait_message(browser, "1 of 8 queens placed")
    _keys(browser, Keys.HOME, Keys.PAGE_DOWN, Keys.ARROW_UP, Keys.ARROW_LEFT, Keys.ENTER)  # (6, 0): the left edge holds
    _wait_message(browser, "2 of 8 queens placed")
    assert _queens(browser) == [(1, 2), (6, 0)] and _focused(browser) == (6, 0)
    assert [e.get_attribute("tabindex") for e in browser.find_elements(By.CSS_SELECTOR, "#board .cell")].count("0") == 1


def _legend(browser: webdriver.Chrome) -> dict[str, WebElement]:
    """The legend's entries by their words, each with its swatch."""
    found = {}
    for entry in browser.find_elements(By.CSS_SELECTOR, "#legend li"):
        swatch = entry.find_element(By.CSS_SELECTOR, ".swatch")
        found[entry.text.removeprefix(swatch.text).strip()] = swatch
    return found


def test_the_legend_and_what_the_family_asks(browser, page):
    """One line says what the family asks (its description in the registry); the legend names
    each army in the colour its pieces are drawn in."""
    _open(browser, page, 6, family="peaceable")
    assert browser.find_element(By.ID, "asks").text == f"peaceable: {FAMILIES['peaceable'].description}"
    assert list(_legend(browser))[:2] == ["white", "black"]
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "optimal")
    legend = _legend(browser)
    for army, name in enumerate(["white", "black"]):
        swatch = legend[name]
        assert swatch.text == "♛"
        pieces = browser.find_elements(By.CSS_SELECTOR, f"#board .cell.queen.army{army}")
        assert pieces and {_colour(p) for p in pieces} == {_colour(swatch)} == {_rgb(ARMY_FILLS[army])}
    _open(browser, page, 6)
    assert browser.find_element(By.ID, "asks").text == f"nqueens: {FAMILIES['nqueens'].description}"
    _cell(browser, 0, 1).click()
    _wait_message(browser, "1 of 6 queens placed")
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, "solved")
    items = _legend(browser)
    assert {"your queens", "the solver's queens", "attacked square"} <= set(items)
    solver = browser.find_elements(By.CSS_SELECTOR, "#board .cell.queen.solver")
    assert {_colour(p) for p in solver} == {_colour(items["the solver's queens"])}


def test_the_address_holds_the_board_and_back_and_forward_work(browser, page):
    _open(browser, page, 6)
    for placed, (r, c) in enumerate([(0, 1), (1, 3)], start=1):
        _cell(browser, r, c).click()
        _wait_message(browser, f"{placed} of 6 queens placed")
    assert _hash(browser) == "#family=nqueens&n=6&queens=0,1;1,3"
    browser.back()
    _wait_message(browser, "1 of 6 queens placed")
    assert _queens(browser) == [(0, 1)] and _hash(browser) == "#family=nqueens&n=6&queens=0,1"
    browser.back()
    _wait_message(browser, "0 of 6 queens placed")
    browser.forward()
    browser.forward()
    _wait_message(browser, "2 of 6 queens placed")
    assert _queens(browser) == [(0, 1), (1, 3)]
    _choose_family(browser, "kings")
    _wait_message(browser, "0 of 6 kings placed")
    assert _hash(browser) == "#family=kings&n=6"
    browser.back()
    _wait_message(browser, "2 of 6 queens placed")
    assert browser.find_element(By.ID, "family").get_attribute("value") == "nqueens"
    link = f"{page}#family=nqueens&n=6&queens=0,1;1,3&backend=sat"  # a shared link: the same board, afresh
    _load(browser, link)
    _wait_message(browser, "2 of 6 queens placed")
    assert _queens(browser) == [(0, 1), (1, 3)]
    assert browser.find_element(By.ID, "backend").get_attribute("value") == "sat"
    browser.find_element(By.ID, "complete").click()
    assert "by sat" in _wait_message(browser, "solved")  # 1,3,5,0,2,4: the one solution through both


AMAZONS = """# Amazons: n pieces that move as a queen and as a knight, none attacking another (OEIS A051223).
title = "Amazons"
[board]
shape = ["n", "n"]
[[army]]
piece = { name = "amazon", rays = [[0, 1], [1, 1]], leaps = [[1, 2]] }
count = "n"
"""
"""A user's own file: the superqueens family written with a piece of its own (rays and leaps)."""


def _open_file_panel(browser: webdriver.Chrome) -> None:
    panel = browser.find_element(By.ID, "file-panel")
    if panel.get_attribute("open") is None:
        panel.find_element(By.TAG_NAME, "summary").click()


def _paste(browser: webdriver.Chrome, text: str) -> None:
    """Type the file into the page's text area and open it, as a user pasting it would."""
    _open_file_panel(browser)
    area = browser.find_element(By.ID, "file-text")
    area.clear()
    area.send_keys(text)
    browser.find_element(By.ID, "file-open").click()


def test_a_pasted_puzzle_file_is_drawn_counted_and_kept_in_the_address(browser, page, reference):
    _open(browser, page, 10)
    _paste(browser, AMAZONS)
    _wait_message(browser, "Amazons: 0 of 10 amazons placed")
    assert browser.find_element(By.ID, "asks").text == (
        "your puzzle file: Amazons: n pieces that move as a queen and as a knight, none attacking another "
        "(OEIS A051223).")
    assert Select(browser.find_element(By.ID, "family")).first_selected_option.text == "your puzzle file"
    browser.find_element(By.ID, "count").click()
    _wait_message(browser, f"{reference.term('A051223', 10)} solutions, counted by")
    _shot(browser, "file")
    assert _hash(browser).startswith("#file=%23%20Amazons") and _hash(browser).endswith("&n=10")
    _cell(browser, 0, 1).click()
    _wait_message(browser, "1 of 10 amazons placed")
    assert "attacked" in _attribute(_cell(browser, 1, 3), "class")  # a knight's leap away
    _load(browser, page + _hash(browser))  # the link reopens the file's board
    _wait_message(browser, "Amazons: 1 of 10 amazons placed")
    assert browser.find_element(By.ID, "file-text").get_attribute("value") == AMAZONS
    _choose_family(browser, "nqueens")  # back to a family: the file is closed
    _wait_message(browser, "0 of 10 queens placed")
    assert _hash(browser) == "#family=nqueens&n=10"


def test_a_malformed_file_gets_the_readers_one_line_error(browser, page):
    _open(browser, page, 6)
    _paste(browser, AMAZONS.replace('count = "n"', 'count = "n +"'))
    message = _wait_message(browser, "your puzzle file: key 'army.count'")
    assert "error" in browser.find_element(By.ID, "message").get_attribute("class") and "\n" not in message
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .cell")  # no stale board under the error


def test_a_chosen_puzzle_file_is_opened_and_optimised(browser, page, reference, tmp_path):
    """A file chosen from the disk (the shipped peaceable queens, as a user would have it): its
    armies in the legend, and the optimum OEIS gives."""
    chosen = tmp_path / "my-peaceable.toml"
    chosen.write_text((PUZZLES / "peaceable.toml").read_text())
    _open(browser, page, 5)
    _open_file_panel(browser)
    browser.find_element(By.ID, "file-choose").send_keys(str(chosen))
    _wait_message(browser, "Peaceable queens: 0 queens placed")
    assert list(_legend(browser))[:2] == ["white", "black"]
    browser.find_element(By.ID, "complete").click()
    _wait_message(browser, f"optimal (optimum {reference.term('A250000', 5)})")
    assert len(_queens(browser)) == 2 * reference.term("A250000", 5)


def _choose_family(browser: webdriver.Chrome, family: str) -> None:
    Select(browser.find_element(By.ID, "family")).select_by_value(family)


def _in_viewport(browser: webdriver.Chrome, element_id: str) -> bool:
    """Whether the element is wholly inside the window as it is (no scrolling done)."""
    inside: bool = browser.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight"
        " && r.right <= window.innerWidth && window.scrollY === 0;", element_id)
    return inside


def _emulate(browser: webdriver.Chrome, size: tuple[int, int], mobile: bool) -> None:
    width, height = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1,
                             "mobile": mobile})


def test_a_phone_sees_the_board_on_its_first_screen(browser, page):
    """At 390 x 844 (a phone held upright) the whole 8 x 8 board is on the first screen, under the
    puzzle's controls, and nothing is wider than the screen."""
    _emulate(browser, PHONE, mobile=True)
    try:
        _load(browser, f"{page}#family=nqueens&n=8&queens=0,3;1,5")
        _wait_message(browser, "2 of 8 queens placed")
        assert browser.execute_script("return [window.innerWidth, window.innerHeight]") == list(PHONE)
        assert _in_viewport(browser, "board") and _in_viewport(browser, "family")
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        side = browser.execute_script("return document.getElementById('board').getBoundingClientRect().width")
        assert side > 0.8 * PHONE[0]  # the board takes the screen's width, not a corner of it
        _shot(browser, "phone")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_desktop_has_the_board_beside_the_controls(browser, page):
    _emulate(browser, DESKTOP, mobile=False)
    try:
        _open(browser, page, 8)
        _cell(browser, 0, 0).click()
        _wait_message(browser, "1 of 8 queens placed")
        browser.find_element(By.ID, "complete").click()
        _wait_message(browser, "solved")
        assert _in_viewport(browser, "board") and _in_viewport(browser, "message") and _in_viewport(browser, "legend")
        board, side = (browser.execute_script(f"return document.getElementById('{i}').getBoundingClientRect().left")
                       for i in ("board", "complete"))
        assert side > board + 400  # side by side, not one under the other
        _shot(browser, "desktop")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


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
    assert _hash(browser) == "#family=ninequeens&n=8&pawns=3,3"
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
    _open(browser, page, 6)
    field = browser.find_element(By.ID, "n")
    browser.execute_script("arguments[0].value = '99'; arguments[0].dispatchEvent(new Event('change'))", field)
    _wait_message(browser, "'n' must be between 1 and 20")
    message = browser.find_element(By.ID, "message")
    assert "error" in message.get_attribute("class") and _in_viewport(browser, "message")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .cell")  # no stale board under the error
    browser.get("about:blank")
    browser.get(f"{page}#family=chess&n=8")  # a link to no family
    _wait_message(browser, "unknown family 'chess'")
    assert "error" in browser.find_element(By.ID, "message").get_attribute("class")


def test_the_page_logs_no_error(browser, page):
    """Whatever the tests above did, the page's console holds no error (a failed script, a
    missing file, an answer the page could not read)."""
    _open(browser, page, 5)
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
              and "/api/" not in entry["message"]]  # the API's 400s are answers the page shows
    assert severe == []


FAMILY_NAMES = sorted(FAMILIES)
SHOTS = {"peaceable", "colouring", "cube"}
"""Families whose answered board is also saved as a picture (armies in colours, a cube's layers)."""


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_every_family_is_answered_on_the_page(browser, page, family):
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
    assert browser.find_element(By.ID, "legend").text
    if family in SHOTS:
        _shot(browser, family)
