"""The Commandeer match page by keyboard alone, in headless Chromium, against the AI: the skip link to the
decision, the log as a Tab stop named by its heading, a hand card named first by its visible name, and the
focus on a highlighted square once a card is picked (so the next choice is one arrow key away).
"""

# ruff: noqa: F811  (the live-server fixtures are imported from test_browser_match and named as parameters)
from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_accessibility import ACTIVE, tabs_until
from tests.browser.test_browser_match import browser, server  # noqa: F401  (fixtures: the live server, Chromium)
from tests.browser.test_match_page import Viewer, _against_ai, _play_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# A hand card whose play asks for a square next: two or more legal actions name it (a deploy, C-5.2).
CARD_NEEDING_A_SQUARE = """() => {
  const legal = window.matchConnection.snapshot.legal_actions || [];
  for (const node of document.querySelectorAll(".hand-card.selectable")) {
    const id = Number(node.dataset.token.slice(2));
    if (legal.filter((a) => a.action.card === id && typeof a.action.square === "string").length > 1) return node.dataset.token;
  }
  return null;
}"""


def test_skip_link_log_and_focus_after_picking_a_card(server: str, browser: Any) -> None:
    v = Viewer(browser, server, "carol")
    page = v.page
    _against_ai(v, turn_limit="10")

    # the second Tab stop of the page skips to the decision ("Skip to the content" is the first)
    assert tabs_until(page, "[data-testid=skip-to-move]") == 2
    page.keyboard.press("Enter")
    assert page.evaluate(ACTIVE, "#decision")

    # the log scrolls and is reachable: a Tab stop named by its heading
    log = page.locator("#log")
    assert log.get_attribute("tabindex") == "0"
    assert (
        page.evaluate(
            "() => document.getElementById(document.getElementById('log').getAttribute('aria-labelledby')).textContent"
        )
        == "Match log"
    )
    tabs_until(page, "#log", limit=120)  # from the decision on

    _play_until(v, lambda: v.my_move() and page.evaluate(CARD_NEEDING_A_SQUARE) is not None)
    token = page.evaluate(CARD_NEEDING_A_SQUARE)
    squares = page.evaluate(
        "(id) => window.matchConnection.snapshot.legal_actions.filter((a) => a.action.card === id).map((a) => a.action.square)",
        int(token[2:]),
    )
    card = page.locator(f'.hand-card[data-token="{token}"]')
    # label in name (WCAG 2.5.3): the card's accessible name starts with the name printed on it
    assert (card.get_attribute("aria-label") or "").startswith(card.locator(".hc-name").inner_text())
    assert card.get_attribute("aria-hidden") is None and card.get_attribute("role") == "button"
    card.focus()
    page.keyboard.press("Enter")
    # the focus moved onto the board, to a square the picked card can go to (highlighted)
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches('.board .square.selectable')"
    )
    assert page.evaluate("() => document.activeElement.dataset.square") in squares
    assert page.locator(".board .square[tabindex='0']").count() == 1  # the board stays one Tab stop
    v.ctx.close()
