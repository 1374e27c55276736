"""The Commandeer tutorial in headless Chromium, played to its end by clicking what it highlights: from the
home page at 1400×900 (a wrong click is explained, a reload keeps the step), and from the lobby on a
390×844 phone in Thai, where every element to click must be in sight above the fixed tutorial panel and
every board square is a comfortable tap target with readable, uncut labels.

TUTORIAL_SCREENSHOTS=<dir> keeps a picture of the steps that teach something new at both sizes
(docs/screenshots/tutorial-commandeer-*.png are taken this way; tests/browser/tutorial_pages.py).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from frontend.tutorial_lessons import COMMANDEER
from tests.browser.cardset import load_cards
from tests.browser.tutorial_pages import (
    PHONE,
    open_from,
    play_to_the_end,
    press_the_one_button,
    shoot,
    tutorial_page,
    wait_for_step,
    written_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOTAL = len(COMMANDEER.steps())
# The steps worth a picture: deploy, defend, reinforce, attack, Formation, the won match.
PICTURES = {1: "deploy", 3: "defend", 5: "energy", 8: "attack", 11: "formation", TOTAL: "won"}
# On a phone: the smallest square (a tap target: 44 CSS px at least), and each unit's visible labels whose
# type is under 10 px or that do not fit inside their unit.
BOARD_ON_A_PHONE_JS = """() => {
  const squares = [...document.querySelectorAll('.board .square')].map((s) => s.getBoundingClientRect());
  const bad = [];
  for (const unit of document.querySelectorAll('.board .unit')) {
    const box = unit.getBoundingClientRect();
    for (const part of unit.querySelectorAll('.unit-name, .p, .hp, .arrows')) {
      if (getComputedStyle(part).display === 'none') continue;
      const range = document.createRange();
      range.selectNodeContents(part);
      const text = range.getBoundingClientRect();
      const size = parseFloat(getComputedStyle(part).fontSize);
      if (size < 9 || text.right > box.right + 0.5 || text.bottom > box.bottom + 0.5 || part.scrollWidth > part.clientWidth + 0.5)
        bad.push([unit.dataset.name, part.className, part.textContent, size]);
    }
  }
  return {smallest: Math.min(...squares.map((b) => Math.min(b.width, b.height))), units: document.querySelectorAll('.board .unit').length, bad};
}"""
STILL_TO_CLICK_JS = (
    "(step) => document.body.dataset.tutorialStep === step && !!document.querySelector('.tutorial-target')"
)


def _visible_above_panel(page: Any, locator: Any) -> None:
    """The element to click is on the screen and not under the tutorial panel (fixed at the bottom on a phone)."""
    box = locator.bounding_box()
    panel = page.locator("[data-testid=tutorial-panel]").bounding_box()
    fixed = page.evaluate("getComputedStyle(document.getElementById('decision')).position") == "fixed"
    bottom = panel["y"] if fixed else page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bottom + 1, (box, panel)


def _make_step(page: Any, step: int, *, check_in_view: bool = False) -> None:
    """Press the step's button, or click its highlighted cards and squares one after the other."""
    if page.locator("[data-testid=tutorial-next], [data-testid=tutorial-action]").count():
        press_the_one_button(page)
        return
    clicks = 0
    # the step and its highlight read at once: the next step's highlight may come as soon as the last click
    while page.evaluate(STILL_TO_CLICK_JS, str(step)):
        target = page.locator(".tutorial-target")
        assert target.count() == 1, "one element at a time is highlighted"
        page.mouse.move(1, 1)
        if check_in_view:
            _visible_above_panel(page, target)
        target.click()
        clicks += 1
    assert 1 <= clicks <= 2


def test_a_visitor_finishes_the_commandeer_tutorial_from_the_home_page(
    live_server: Any, chromium_browser: Any
) -> None:
    load_cards()
    with tutorial_page(chromium_browser, live_server) as page:
        open_from(page, live_server, "/", "home-learn-commandeer")
        assert "C-6.1" in page.locator("[data-testid=tutorial-instruction]").inner_text()
        # rule numbers are links to the rules page, like every other rule citation
        assert (
            page.locator("[data-testid=tutorial-instruction] a.rule-ref")
            .first.get_attribute("href")
            .startswith("/rules/commandeer/#C-")
        )
        page.click("[data-testid=tutorial-next]")
        wait_for_step(page, 1)
        # a click on anything but the highlight says where to click, and the step stays
        page.locator("[data-testid=hand-card][data-name='Warband Veteran']").click()
        assert page.locator("[data-testid=tutorial-error]").is_visible()
        assert "highlighted" in page.locator("[data-testid=tutorial-error]").inner_text()
        target = page.locator(".tutorial-target")
        assert target.get_attribute("data-name") == "Flamebrand Recruit"
        target.click()
        assert page.locator(".tutorial-target").get_attribute("data-square") == "c3"  # then the start square
        page.reload()  # the step is kept (the session): the card is to be clicked again
        wait_for_step(page, 1)
        seen = play_to_the_end(
            page, TOTAL, _make_step, before_step=lambda p, _s: shoot(p, "commandeer", PICTURES, "desktop")
        )
        assert len(seen) == TOTAL - 1
        # the engine's own end: six cards in the opponent's Defeated zone (C-6.1)
        assert page.locator("[data-testid=side-1]").inner_text().count("6/6") == 1
        assert "C-6.1" in page.locator("[data-testid=tutorial-explanation]").inner_text()
        page.click("[data-testid=tutorial-restart]")
        wait_for_step(page, 0)


def test_the_tutorial_on_a_phone_in_thai_from_the_lobby(live_server: Any, chromium_browser: Any) -> None:
    load_cards()
    with tutorial_page(chromium_browser, live_server, language="th", viewport=PHONE) as page:
        open_from(page, live_server, "/play/", "lobby-learn-commandeer", language="th")
        units_seen = []

        def before_step(p: Any, step: int) -> None:
            shoot(p, "commandeer", PICTURES, "phone-th")
            # every square a comfortable tap target, every unit's name, Power, Health and arrows readable
            # (10 px type; a name too long for its square is abbreviated, 9 px at the least) and uncut
            board = p.evaluate(BOARD_ON_A_PHONE_JS)
            assert board["smallest"] >= 44, board
            assert board["bad"] == [], board
            units_seen.append(board["units"])

        seen = play_to_the_end(page, TOTAL, partial(_make_step, check_in_view=True), before_step=before_step)
        assert all(written_in(text, "th") for text in seen), "every instruction in Thai"
        assert max(units_seen) >= 5  # the checks saw a board with units on it
