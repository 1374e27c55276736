"""The Westeros tutorial in headless Chromium, played to its end by clicking what it marks: from the home
page at 1400×900 (a wrong area is explained, a reload keeps the step), from the lobby on a 390×844 phone in
Thai, where every area and button to use must be on the screen, and in Chinese from the step where the
learner decides what a Westeros card does (Dark Wings, Dark Words: the card shown with its text, its three
options offered, the one the lesson asks for highlighted).

TUTORIAL_SCREENSHOTS=<dir> keeps a picture of the steps that teach something new at both sizes
(docs/screenshots/tutorial-westeros-*.png are taken this way; tests/browser/tutorial_pages.py).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from boardgame import dataset as board_dataset
from frontend.tutorial_westeros import WESTEROS
from tests.browser.tutorial_pages import (
    PHONE,
    axe_findings,
    open_from,
    play_to_the_end,
    shoot,
    step_of,
    tutorial_page,
    wait_for_step,
    written_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEPS = WESTEROS.steps()
TOTAL = len(STEPS)
# the step where Stark chooses what Dark Wings, Dark Words does
DARK_WINGS = next(
    i for i, (_c, _w, s) in enumerate(STEPS) if s.move and s.move.get("decision") == "dark_wings"
)
# The steps worth a picture: orders, the raven, the raid, the march, the house card, the Westeros card, the
# bid, the end.
PICTURES = {
    0: "orders",
    4: "raven",
    6: "raid",
    7: "march",
    8: "house-card",
    DARK_WINGS: "westeros-card",
    DARK_WINGS + 1: "bid",
    TOTAL: "done",
}
CARD = "[data-testid=westeros-card-dark_wings_dark_words]"

AREA_POINT_JS = """(id) => {
  const el = document.querySelector(`svg [data-area-id="${id}"]`);
  const p = el.ownerSVGElement.createSVGPoint();
  p.x = Number(el.dataset.x); p.y = Number(el.dataset.y);
  const q = p.matrixTransform(el.getScreenCTM());
  return [q.x, q.y];
}"""

# Every step's move sent as the page sends it, up to step `n` (to begin a test at a later step).
SEND_STEPS_JS = """async (n) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  let lesson = await (await fetch("/api/tutorials/westeros/")).json();
  while (lesson.step < n) {
    const answer = await fetch("/api/tutorials/westeros/", {
      method: "POST", headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify({step: lesson.step, action: lesson.expect}),
    });
    lesson = await answer.json();
  }
  return lesson.step;
}"""


def _in_view(page: Any, locator: Any) -> None:
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box


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


def _make_step(page: Any, step: int, *, check_in_view: bool = False) -> None:
    """Click the marked area (an order's area, then its button), or press the step's button."""
    marked = page.locator("svg .wx-area.tutorial-target")
    if marked.count():
        assert marked.count() == 1, "one area at a time is marked"
        _click_area(page, marked.get_attribute("data-area-id"), check_in_view=check_in_view)
        # an order is chosen after its area: the button comes, else the step moves on
        page.wait_for_function(
            f"document.body.dataset.tutorialStep !== '{step}'"
            " || document.querySelector('[data-testid=tutorial-action]')"
        )
    if step_of(page) == step:
        button = page.locator("[data-testid=tutorial-action]")
        if check_in_view:
            _in_view(page, button)  # the page brings the button to press into sight
        button.click()


def _check_the_westeros_card_step(page: Any, language: str) -> None:
    """Dark Wings, Dark Words: the round's cards with this one pointed at and its text, its three options
    with the lesson's highlighted; another option only says which to press."""
    instruction = page.locator("[data-testid=tutorial-instruction]").inner_text()
    assert "W-4.4" in instruction
    cards = page.locator("[data-testid=tutorial-cards] li")
    assert cards.count() == 3 and page.locator("[data-testid=tutorial-cards]").is_visible()
    card = page.locator(CARD)
    assert "tutorial-focus" in (card.get_attribute("class") or "")
    assert card.locator(".tutorial-card-text").is_visible()  # what the card does, in the reader's words
    button = page.locator("[data-testid=tutorial-action]")
    assert button.get_attribute("data-type") == "choose"
    assert "tutorial-target" in (button.get_attribute("class") or "")
    others = page.locator("[data-testid=tutorial-option]")
    assert sorted(others.nth(i).get_attribute("data-option") for i in range(others.count())) == [
        "clash_of_kings",
        "nothing",
    ]
    if language != "en":
        # (Thai keeps "Clash of Kings" in Latin script, docs/glossary.md: the other option is Thai)
        options = " ".join(others.nth(i).inner_text() for i in range(others.count()))
        for text in (instruction, card.inner_text(), button.inner_text(), options):
            assert written_in(text, language), text
    else:
        assert button.inner_text() == "Collect power tokens"
        assert "Dark Wings, Dark Words" in card.inner_text()
    others.first.click()
    assert page.locator("[data-testid=tutorial-error]").is_visible()
    assert step_of(page) == DARK_WINGS
    page.locator("[data-testid=tutorial-error]").evaluate("e => { e.hidden = true; }")


def _after_the_westeros_card(page: Any, power_before: str) -> None:
    """Power income (W-15.2) happened: Stark has one token more, and the wildlings attack next."""
    assert "W-15.2" in page.locator("[data-testid=tutorial-explanation]").inner_text()
    assert page.locator("[data-testid=tutorial-action]").get_attribute("data-type") == "bid"
    assert page.locator("[data-testid=tutorial-facts]").inner_text() != power_before


def test_a_visitor_finishes_the_westeros_tutorial_from_the_home_page(
    live_server: Any, chromium_browser: Any
) -> None:
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    with tutorial_page(chromium_browser, live_server) as page:
        open_from(page, live_server, "/", "home-learn-westeros")
        instruction = page.locator("[data-testid=tutorial-instruction]")
        assert "W-5.1" in instruction.inner_text()
        # rule numbers are links to the rules page, like every other rule citation
        assert instruction.locator("a.rule-ref").first.get_attribute("href").startswith("/rules/westeros/#W-")
        assert page.locator("svg .wx-area.tutorial-target").get_attribute("data-area-id") == "winterfell"
        assert not page.locator("[data-testid=tutorial-cards]").is_visible()  # no Westeros card in round 1
        # a click on another area says where to click, and the step stays
        _click_area(page, "karhold", check_in_view=False)
        assert page.locator("[data-testid=tutorial-error]").is_visible()
        _click_area(page, "winterfell", check_in_view=False)
        assert page.locator("[data-testid=tutorial-action]").get_attribute("data-type") == "place_order"
        page.reload()  # the step is kept (the session): the area is to be clicked again
        wait_for_step(page, 0)
        checked: dict[str, str] = {}

        def before_step(p: Any, step: int) -> None:
            shoot(p, "westeros", PICTURES, "desktop")
            if step == DARK_WINGS:
                _check_the_westeros_card_step(p, "en")
                assert axe_findings(p) == []  # the panel with the card and its options, as axe-core sees it
                checked["facts"] = p.locator("[data-testid=tutorial-facts]").inner_text()
            elif step == DARK_WINGS + 1:
                _after_the_westeros_card(p, checked["facts"])
                checked["after"] = "yes"

        seen = play_to_the_end(page, TOTAL, _make_step, before_step=before_step)
        assert len(seen) == TOTAL and checked.get("after") == "yes"
        # the engine's end of the lesson: round 2, the wildlings beaten, Stark's power back after the bid
        assert page.locator("[data-testid=round]").inner_text() == "2"
        assert "W-16.4" in page.locator("[data-testid=tutorial-explanation]").inner_text()
        assert page.locator("svg [data-units=moat_cailin]").get_attribute("data-house") == "stark"
        page.reload()  # the visitor comes back later: the lesson stays finished, at its end
        page.locator("[data-testid=tutorial-done]").wait_for(state="visible")
        assert page.locator("[data-testid=round]").inner_text() == "2"
        assert not page.locator("[data-testid=tutorial-instruction]").is_visible()
        page.click("[data-testid=tutorial-restart]")
        wait_for_step(page, 0)


def test_the_westeros_tutorial_on_a_phone_in_thai_from_the_lobby(
    live_server: Any, chromium_browser: Any
) -> None:
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    with tutorial_page(chromium_browser, live_server, language="th", viewport=PHONE) as page:
        open_from(page, live_server, "/play/", "lobby-learn-westeros", language="th")

        def before_step(p: Any, step: int) -> None:
            shoot(p, "westeros", PICTURES, "phone-th")
            if step == DARK_WINGS:
                _check_the_westeros_card_step(p, "th")
                _in_view(p, p.locator(CARD))  # the card and its button are on the phone's screen together
                _in_view(p, p.locator("[data-testid=tutorial-action]"))

        seen = play_to_the_end(page, TOTAL, partial(_make_step, check_in_view=True), before_step=before_step)
        assert all(written_in(text, "th") for text in seen), "every instruction in Thai"


def test_the_westeros_card_step_in_chinese_to_the_end(live_server: Any, chromium_browser: Any) -> None:
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    with tutorial_page(chromium_browser, live_server, language="zh-hans") as page:
        open_from(page, live_server, "/", "home-learn-westeros", language="zh-hans")
        assert page.evaluate(SEND_STEPS_JS, DARK_WINGS) == DARK_WINGS
        page.reload()
        wait_for_step(page, DARK_WINGS)
        _check_the_westeros_card_step(page, "zh-hans")
        assert "黑翼，黑语" in page.locator(CARD).inner_text()  # the card's Chinese name (docs/glossary.md)
        facts = page.locator("[data-testid=tutorial-facts]").inner_text()
        seen = play_to_the_end(
            page,
            TOTAL,
            _make_step,
            before_step=lambda p, s: _after_the_westeros_card(p, facts) if s == DARK_WINGS + 1 else None,
        )
        assert len(seen) == TOTAL - DARK_WINGS and all(written_in(text, "zh-hans") for text in seen)
        explanation = page.locator("[data-testid=tutorial-explanation]").inner_text()
        assert "W-16.4" in explanation and written_in(explanation, "zh-hans")
