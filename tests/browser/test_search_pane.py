"""The explorer's search view in a real browser (headless Chromium; the package's explorer and
browser, tests/browser/conftest.py): the teaching engine's tree beside the board, a node's
domains shaded on the board when it is clicked, propagation step by step, and the ladder.

What the page shows is held to ground truth that shares no code with the engine: the solutions
in the tree to OEIS A000170, a node's domains to forward checking written in tests/test_ladder.py
(applied to the decisions on the node's path), the ladder's counts to that file's brute force,
the 9-queens steps to the MiniZinc handbook's story as docs/propagation.md retells it (0-based).
Screenshots are kept in build/screenshots/ (explorer-search-tree.png, explorer-search-steps.png,
explorer-ladder.png), their paths printed (`pytest -rP`).
"""

from __future__ import annotations

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browser.test_page import (  # the page's helpers
    DESKTOP,
    WAIT,
    _emulate,
    _load,
    _shot,
    _squares,
    _wait_message,
    pytestmark,
)
from tests.conftest import Reference
from tests.test_ladder import RUNGS, Domains, forward, placements, two_way
from tests.test_web_search import STORY

__all__ = ["pytestmark"]  # the skip when chromium is missing

WIDE = (1500, 1000)
"""A screen wide enough for the board, the tree and the buttons side by side."""


def _open_search(browser: webdriver.Chrome, url: str, var: str = "input_order", every: bool = False) -> None:
    """Open the board at `url`, open the search panel, choose the orders, and search."""
    _load(browser, url)
    browser.find_element(By.CSS_SELECTOR, "#search-panel summary").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "search-pane").is_displayed())
    Select(browser.find_element(By.ID, "search-var")).select_by_value(var)
    Select(browser.find_element(By.ID, "search-val")).select_by_value("indomain_min")
    Select(browser.find_element(By.ID, "search-propagate")).select_by_value("forward")
    if browser.find_element(By.ID, "search-all").is_selected() != every:
        browser.find_element(By.ID, "search-all").click()
    browser.find_element(By.ID, "search-run").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tree g[data-node]"))


def _nodes(browser: webdriver.Chrome, status: str) -> list[WebElement]:
    return browser.find_elements(By.CSS_SELECTOR, f'#tree g[data-status="{status}"]')


def _marked(browser: webdriver.Chrome, mark: str) -> set[tuple[int, int]]:
    return set(_squares(browser, f"#board .cell.{mark}"))


def _steps(browser: webdriver.Chrome) -> list[tuple[str, str | None]]:
    """The step list's items, each its text and its kind, read in one round trip (two WebDriver
    calls an item took seconds on the 9-queens story)."""
    found = browser.execute_script("return [...document.querySelectorAll('#steps li')]"
                                   ".map(e => [e.innerText.trim(), e.dataset.kind ?? null]);")
    return [(text, kind) for text, kind in found]


def _domains_on_the_board(browser: webdriver.Chrome, n: int) -> Domains:
    """Each row's values as the board shows them: its queen, or its squares shaded as possible."""
    left = _marked(browser, "possible") | _marked(browser, "queen")
    return [frozenset(c for r, c in left if r == row) for row in range(n)]


def _brute_force_domains(n: int, path: list[tuple[int, str, int]]) -> Domains | None:
    """Forward checking from tests/test_ladder.py after each decision (row, "=" or "!=", column)."""
    domains: Domains | None = forward([frozenset(range(n))] * n)
    for row, op, column in path:
        assert domains is not None
        kept = frozenset({column}) if op == "=" else domains[row] - {column}
        domains = forward([kept if r == row else d for r, d in enumerate(domains)])
    return domains


def _path(browser: webdriver.Chrome, node: WebElement) -> list[tuple[int, str, int]]:
    """The decisions from the root to `node` ('q[1] != 2'), read from the nodes the tree draws (each
    says its parent and its decision)."""
    path: list[tuple[int, str, int]] = []
    while decision := node.get_attribute("data-decision"):
        name, op, value = decision.split()
        path.insert(0, (int(name[2:-1]), op, int(value)))
        node = browser.find_element(By.CSS_SELECTOR, f'#tree g[data-node="{node.get_attribute("data-parent")}"]')
    return path


def test_the_tree_of_4_queens_has_a_green_node_per_solution(browser: webdriver.Chrome, page: str,
                                                            reference: Reference) -> None:
    """Every solution of 4-queens: Q(4) = 2 green nodes, red failures, blue branches; each green node
    on the bold path."""
    _open_search(browser, f"{page}#family=nqueens&n=4", every=True)
    assert len(_nodes(browser, "solution")) == reference.term("A000170", 4)
    assert _nodes(browser, "failure") and _nodes(browser, "branch")
    fills = {e.find_element(By.CSS_SELECTOR, "rect, circle, polygon").get_attribute("fill")
             for status in ("solution", "failure", "branch") for e in _nodes(browser, status)[:1]}
    assert fills == {"#2e9e3e", "#d32f2f", "#1e63c4"}  # CP-Profiler's green, red and blue
    assert "2 solutions" in browser.find_element(By.ID, "search-message").text


def test_clicking_a_node_shades_its_domains_on_the_board(browser: webdriver.Chrome, page: str) -> None:
    """Each node clicked shows its domains on the board, equal to forward checking written in
    tests/test_ladder.py after the decisions on the node's path; the decision's square is ringed."""
    n = 6
    _emulate(browser, WIDE, mobile=False)
    try:
        _open_search(browser, f"{page}#family=nqueens&n={n}", every=True)
        seen = []
        for node in browser.find_elements(By.CSS_SELECTOR, "#tree g[data-node]")[:12]:
            if node.get_attribute("data-status") == "collapsed":
                continue
            node.click()
            expected = _brute_force_domains(n, _path(browser, node))
            shown = _domains_on_the_board(browser, n)
            if expected is None:  # a failure: a row ran out of values
                assert node.get_attribute("data-status") == "failure"
                assert any(not values for values in shown)
            else:
                assert shown == expected
            seen.append(frozenset(_marked(browser, "possible")))
            if node.get_attribute("data-node") != "0":
                assert len(_marked(browser, "decided")) == 1
        assert len(set(seen)) > 3  # the shading changes from node to node
        assert "still possible" in browser.find_element(By.ID, "legend").text
        _shot(browser, "search-tree")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_9_queens_story_step_by_step(browser: webdriver.Chrome, page: str) -> None:
    """The MiniZinc handbook's 9-queens story (tests/test_web_search.py's STORY) in the step list,
    and the board following the steps: the wipe-out, and the value forced after the backtrack."""
    _emulate(browser, DESKTOP, mobile=False)
    try:
        _open_search(browser, f"{page}#family=nqueens&n=9", var="first_fail")
        items = browser.find_elements(By.CSS_SELECTOR, "#steps li")
        steps = _steps(browser)
        assert len(steps) == len(items)
        told = ("decision", "forced", "wipe-out", "backtrack")
        story = [text for text, kind in steps if kind in told]
        assert story[:len(STORY)] == STORY
        texts = [text for text, _ in steps]
        wipe = texts.index(STORY[7])
        items[wipe - 1].click()  # q[6] = 1 takes q[8]'s last value: crossed out, row 8 left empty
        assert texts[wipe - 1] == "columns q[6] q[8]: q[8] loses 1"
        assert _marked(browser, "struck") == {(8, 1)}
        assert not any(r == 8 for r, _ in _marked(browser, "possible") | _marked(browser, "queen"))
        browser.find_element(By.ID, "step-on").click()  # the wipe-out
        assert "node 4 fails" in browser.find_element(By.ID, "node-info").text
        assert "now" in (items[wipe].get_attribute("class") or "")
        forced = texts.index(STORY[10])
        items[forced].click()  # after the backtrack, q[5] != 3 leaves q[5] one value: 8
        assert (5, 8) in _marked(browser, "queen")
        decided = _brute_force_domains(9, [(0, "=", 0), (1, "=", 2), (2, "=", 4), (5, "!=", 3)])
        assert decided is not None and decided[5] == frozenset({8})  # the brute force forces it too
        _shot(browser, "search-steps")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_ladder_for_6_queens(browser: webdriver.Chrome, page: str) -> None:
    """The ladder's counts, each rung against the brute force of tests/test_ladder.py."""
    _emulate(browser, DESKTOP, mobile=False)
    try:
        _load(browser, f"{page}#family=nqueens&n=6")
        browser.find_element(By.CSS_SELECTOR, "#search-panel summary").click()
        browser.find_element(By.ID, "ladder-run").click()
        WebDriverWait(browser, 120).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ladder-rows tr"))
        rows = {e.get_attribute("data-level"): [td.text for td in e.find_elements(By.CSS_SELECTOR, "td")]
                for e in browser.find_elements(By.CSS_SELECTOR, "#ladder-rows tr")}
        for level, propagate in RUNGS.items():
            nodes, solutions = two_way(6, propagate)
            assert rows[level] == [f"{nodes:,} nodes", str(solutions)]
        assert rows["native"] == [f"{placements(6)} placements", "4"]
        assert "every solution" in _wait_message(browser, "one rung after another")
        _shot(browser, "ladder")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_changed_board_makes_the_tree_stale(browser: webdriver.Chrome, page: str) -> None:
    _open_search(browser, f"{page}#family=nqueens&n=5", every=True)
    browser.find_element(By.CSS_SELECTOR, '#board .cell[data-r="0"][data-c="0"]').click()
    _wait_message(browser, "1 of 5 queens placed")
    WebDriverWait(browser, WAIT).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#tree g[data-node]"))
    assert "search again" in browser.find_element(By.ID, "search-message").text
    browser.find_element(By.ID, "search-run").click()  # the search starts from the queen placed
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tree g[data-node]"))
    browser.find_element(By.CSS_SELECTOR, '#tree g[data-node="0"]').click()
    assert (0, 0) in _marked(browser, "queen")
    assert not any(r == 0 for r, _ in _marked(browser, "possible"))


def test_a_board_beyond_the_engines_limits_is_refused_with_the_reason(browser: webdriver.Chrome,
                                                                      page: str) -> None:
    _load(browser, f"{page}#family=domination&n=5")
    browser.find_element(By.CSS_SELECTOR, "#search-panel summary").click()
    browser.find_element(By.ID, "search-run").click()
    message = _wait_message(browser, "the search view")
    assert "error" in (browser.find_element(By.ID, "message").get_attribute("class") or "")
    assert "optimum" in message or "one search per value" in message, message
