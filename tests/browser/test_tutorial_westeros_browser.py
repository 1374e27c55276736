"""The Westeros tutorial in headless Chromium, played to its end by clicking what it marks: from the home
page at 1400×900 (a wrong area is explained, a reload keeps the step), and from the lobby on a 390×844 phone
in Thai, where every area to click must be on the screen.

TUTORIAL_SCREENSHOTS=<dir> keeps a picture of the steps that teach something new at both sizes
(docs/screenshots/tutorial-westeros-*.png are taken this way).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from boardgame import dataset as board_dataset
from frontend.tutorial_westeros import WESTEROS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOTAL = len(WESTEROS.steps())
# The steps worth a picture: orders, the raven, the raid, the march, the house card, the bid, the end.
PICTURES = {0: "orders", 4: "raven", 6: "raid", 7: "march", 8: "house-card", 10: "bid", TOTAL: "done"}

AREA_POINT_JS = """(id) => {
  const el = document.querySelector(`svg [data-area-id="${id}"]`);
  const p = el.ownerSVGElement.createSVGPoint();
  p.x = Number(el.dataset.x); p.y = Number(el.dataset.y);
  const q = p.matrixTransform(el.getScreenCTM());
  return [q.x, q.y];
}"""


def _step(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.tutorialStep || '-1'"))


def _shoot(page: Any, size: str) -> None:
    shots = os.environ.get("TUTORIAL_SCREENSHOTS")
    step = _step(page)
    if shots and step in PICTURES:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(200)
        page.screenshot(path=str(Path(shots) / f"tutorial-westeros-{step:02d}-{PICTURES[step]}-{size}.png"))


def _click_area(page: Any, area: str, *, check_in_view: bool) -> None:
    """Click a marked area where a player would (on its name), first checking it is on the screen."""
    x, y = page.evaluate(AREA_POINT_JS, area)
    if check_in_view:
        size = page.viewport_size
        assert 0 <= x <= size["width"] and 0 <= y <= size["height"], (area, x, y)
    else:
        page.locator(f'svg [data-area-id="{area}"]').scroll_into_view_if_needed()
        x, y = page.evaluate(AREA_POINT_JS, area)
    page.mouse.click(x, y)


def _play_to_the_end(page: Any, size: str, *, check_in_view: bool = False) -> list[str]:
    """Click through every step; answer the instructions seen, in order."""
    seen = []
    for _ in range(TOTAL + 1):
        step = _step(page)
        _shoot(page, size)
        if page.locator("[data-testid=tutorial-done]").is_visible():
            break
        seen.append(page.locator("[data-testid=tutorial-instruction]").inner_text())
        marked = page.locator("svg .wx-area.tutorial-target")
        if marked.count():
            assert marked.count() == 1, "one area at a time is marked"
            _click_area(page, marked.get_attribute("data-area-id"), check_in_view=check_in_view)
            # an order is chosen after its area: the button comes, else the step moves on
            page.wait_for_function(
                f"document.body.dataset.tutorialStep !== '{step}'"
                " || document.querySelector('[data-testid=tutorial-action]')"
            )
        if _step(page) == step:
            page.locator("[data-testid=tutorial-action]").click()
        page.wait_for_function(f"document.body.dataset.tutorialStep === '{step + 1}'")
    assert _step(page) == TOTAL
    return seen


def test_a_visitor_finishes_the_westeros_tutorial_from_the_home_page(
    live_server: Any, browser_page: Any
) -> None:
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{live_server.url}/")
    page.click("[data-testid=home-learn-westeros]")
    page.wait_for_function("document.body.dataset.tutorialStep === '0'")
    instruction = page.locator("[data-testid=tutorial-instruction]")
    assert "W-5.1" in instruction.inner_text()
    # rule numbers are links to the rules page, like every other rule citation
    assert instruction.locator("a.rule-ref").first.get_attribute("href").startswith("/rules/westeros/#W-")
    assert page.locator("svg .wx-area.tutorial-target").get_attribute("data-area-id") == "winterfell"
    # a click on another area says where to click, and the step stays
    _click_area(page, "karhold", check_in_view=False)
    assert page.locator("[data-testid=tutorial-error]").is_visible()
    _click_area(page, "winterfell", check_in_view=False)
    assert page.locator("[data-testid=tutorial-action]").get_attribute("data-type") == "place_order"
    page.reload()  # the step is kept (the session): the area is to be clicked again
    page.wait_for_function("document.body.dataset.tutorialStep === '0'")
    seen = _play_to_the_end(page, "desktop")
    assert len(seen) == TOTAL
    assert page.locator("[data-testid=tutorial-done]").is_visible()
    # the engine's end of the lesson: round 2, the wildlings beaten, Stark's power back after the bid
    assert page.locator("[data-testid=round]").inner_text() == "2"
    assert "W-16.4" in page.locator("[data-testid=tutorial-explanation]").inner_text()
    assert page.locator("svg [data-units=moat_cailin]").get_attribute("data-house") == "stark"
    page.click("[data-testid=tutorial-restart]")
    page.wait_for_function("document.body.dataset.tutorialStep === '0'")


def test_the_westeros_tutorial_on_a_phone_in_thai_from_the_lobby(
    live_server: Any, chromium_browser: Any
) -> None:
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "django_language", "value": "th", "domain": host, "path": "/"}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{live_server.url}/play/")
        page.click("[data-testid=lobby-learn-westeros]")
        page.wait_for_function("document.body.dataset.tutorialStep === '0'")
        assert page.locator("html").get_attribute("lang") == "th"
        seen = _play_to_the_end(page, "phone-th", check_in_view=True)
        assert all(any("\u0e00" <= ch <= "\u0e7f" for ch in text) for text in seen), (
            "every instruction in Thai"
        )
        assert page.locator("[data-testid=tutorial-done]").is_visible()
    finally:
        context.close()
    assert not errors, errors
