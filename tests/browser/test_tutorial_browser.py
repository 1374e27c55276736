"""The Commandeer tutorial in headless Chromium, played to its end by clicking what it highlights: from the
home page at 1400×900 (a wrong click is explained, a reload keeps the step), and from the lobby on a
390×844 phone in Thai, where every element to click must be in sight above the fixed tutorial panel.

TUTORIAL_SCREENSHOTS=<dir> keeps a picture of the steps that teach something new at both sizes
(docs/screenshots/tutorial-commandeer-*.png are taken this way).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from frontend.tutorial_lessons import COMMANDEER
from tests.browser.cardset import load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOTAL = len(COMMANDEER.steps())
# The steps worth a picture: deploy, defend, reinforce, attack, Formation, the won match.
PICTURES = {1: "deploy", 3: "defend", 5: "energy", 8: "attack", 11: "formation", TOTAL: "won"}


def _step(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.tutorialStep || '-1'"))


def _shoot(page: Any, size: str) -> None:
    shots = os.environ.get("TUTORIAL_SCREENSHOTS")
    step = _step(page)
    if shots and step in PICTURES:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.mouse.move(1, 1)  # no card text open under the pointer
        page.wait_for_timeout(200)
        page.screenshot(path=str(Path(shots) / f"tutorial-commandeer-{step:02d}-{PICTURES[step]}-{size}.png"))


def _visible_above_panel(page: Any, locator: Any) -> None:
    """The element to click is on the screen and not under the tutorial panel (fixed at the bottom on a phone)."""
    box = locator.bounding_box()
    panel = page.locator("[data-testid=tutorial-panel]").bounding_box()
    fixed = page.evaluate("getComputedStyle(document.getElementById('decision')).position") == "fixed"
    bottom = panel["y"] if fixed else page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bottom + 1, (box, panel)


def _play_to_the_end(page: Any, size: str, *, check_in_view: bool = False) -> list[str]:
    """Click through every step; answer the instructions seen, in order."""
    seen = []
    for _ in range(TOTAL + 1):
        step = _step(page)
        _shoot(page, size)
        if page.locator("[data-testid=tutorial-done]").is_visible():
            break
        seen.append(page.locator("[data-testid=tutorial-instruction]").inner_text())
        buttons = page.locator("[data-testid=tutorial-next], [data-testid=tutorial-action]")
        if buttons.count():
            assert buttons.count() == 1
            buttons.click()
        else:
            clicks = 0
            while _step(page) == step and page.locator(".tutorial-target").count():
                target = page.locator(".tutorial-target")
                assert target.count() == 1, "one element at a time is highlighted"
                page.mouse.move(1, 1)
                if check_in_view:
                    _visible_above_panel(page, target)
                target.click()
                clicks += 1
            assert 1 <= clicks <= 2
        page.wait_for_function(f"document.body.dataset.tutorialStep === '{step + 1}'")
    assert _step(page) == TOTAL
    return seen


def test_a_visitor_finishes_the_commandeer_tutorial_from_the_home_page(
    live_server: Any, browser_page: Any
) -> None:
    load_cards()
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{live_server.url}/")
    page.click("[data-testid=home-learn-commandeer]")
    page.wait_for_function("document.body.dataset.tutorialStep === '0'")
    assert "C-6.1" in page.locator("[data-testid=tutorial-instruction]").inner_text()
    # rule numbers are links to the rules page, like every other rule citation
    assert (
        page.locator("[data-testid=tutorial-instruction] a.rule-ref")
        .first.get_attribute("href")
        .startswith("/rules/commandeer/#C-")
    )
    page.click("[data-testid=tutorial-next]")
    page.wait_for_function("document.body.dataset.tutorialStep === '1'")
    # a click on anything but the highlight says where to click, and the step stays
    page.locator("[data-testid=hand-card][data-name='Warband Veteran']").click()
    assert page.locator("[data-testid=tutorial-error]").is_visible()
    assert "highlighted" in page.locator("[data-testid=tutorial-error]").inner_text()
    target = page.locator(".tutorial-target")
    assert target.get_attribute("data-name") == "Flamebrand Recruit"
    target.click()
    assert page.locator(".tutorial-target").get_attribute("data-square") == "c3"  # then the start square
    page.reload()  # the step is kept (the session): the card is to be clicked again
    page.wait_for_function("document.body.dataset.tutorialStep === '1'")
    seen = _play_to_the_end(page, "desktop")
    assert len(seen) == TOTAL - 1
    assert page.locator("[data-testid=tutorial-done]").is_visible()
    # the engine's own end: six cards in the opponent's Defeated zone (C-6.1)
    assert page.locator("[data-testid=side-1]").inner_text().count("6/6") == 1
    assert "C-6.1" in page.locator("[data-testid=tutorial-explanation]").inner_text()
    page.click("[data-testid=tutorial-restart]")
    page.wait_for_function("document.body.dataset.tutorialStep === '0'")


def test_the_tutorial_on_a_phone_in_thai_from_the_lobby(live_server: Any, chromium_browser: Any) -> None:
    load_cards()
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "django_language", "value": "th", "domain": host, "path": "/"}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{live_server.url}/play/")
        page.click("[data-testid=lobby-learn-commandeer]")
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
