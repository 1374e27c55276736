"""Guard rails in a real browser: an action that loses the match at once, or gives it up, is asked once in
the page's own dialog (never `window.confirm`), in words that say what happens and why, the rule number
linked like every rule citation — and only a confirmed one is played.

- Ending Planning with no unit on the battlefield loses at once (C-5.4, C-6.2): the page sends the move with
  `guard`, the server answers `loses_at_once`, and the question comes — for the button and for the E key
  alike; "Go back" leaves the match as it was, "Play it and lose" plays it.
- Conceding (C-6.4) is asked the same way, and so is leaving a waiting room one created (it cancels the
  match for everyone who joined).
Both at 1400×900 and on a 390×844 phone, in English and Thai (and Chinese for the screenshot); with
SCREENSHOT_DIR set the question is photographed (docs/screenshots/guard-*.png).
"""

# ruff: noqa: F811  (the rigged-position site fixture is imported from test_match_log_browser and named as a parameter)
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_match_log_browser import Site, site  # noqa: F401  (the rigged-position site)

pytestmark = [pytest.mark.browser, pytest.mark.celery_worker]

SIZES = {"1400": {"width": 1400, "height": 900}, "390": {"width": 390, "height": 844}}


def player(
    browser: Any, site: Site, name: str, match_id: int, lang: str, size: str, *, waiting: bool = False
) -> Any:
    """`name`'s page on the match in `lang` at `size`, once its board is drawn; a `window.confirm` fails the test."""
    phone = size == "390"
    ctx = browser.new_context(viewport=SIZES[size], bypass_csp=True, has_touch=phone, is_mobile=phone)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": site.url}])
    page = ctx.new_page()
    page.set_default_timeout(30000)  # a loaded CI machine: a login alone may take seconds
    page.on("dialog", lambda d: pytest.fail(f"a native dialog was shown: {d.message}"))
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"pw-{name}-123")
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{site.url}/play/{match_id}/")
    if waiting:
        page.wait_for_selector("[data-testid=waiting-room]:visible")
        return page
    page.wait_for_selector("[data-testid=board]:visible")
    page.wait_for_function("document.body.dataset.status === 'active'")
    return page


def shoot(page: Any, name: str) -> None:
    shots = os.environ.get("SCREENSHOT_DIR")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png")


def inside_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    return (
        bool(box)
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= view["width"] + 0.5
        and (box["y"] + box["height"] <= view["height"] + 0.5)
    )


@pytest.mark.parametrize(("lang", "size"), [("en", "1400"), ("th", "390"), ("th", "1400"), ("en", "390")])
def test_ending_planning_with_no_unit_is_asked_first_c_6_2(
    chromium_browser: Any, site: Site, lang: str, size: str
) -> None:
    match_id = site.seed("trap")  # alice in Planning, no unit of hers on the battlefield
    page = player(chromium_browser, site, "alice", match_id, lang, size)
    version = page.evaluate("Number(document.body.dataset.version)")

    # The E key asks (the keyboard goes through the same question as the button).
    page.locator("body").press("e")
    question = page.locator("[data-testid=lose-question]")
    question.wait_for(state="visible")
    assert page.evaluate("document.querySelector('[data-testid=lose-question]').open")
    link = question.locator("a.rule-ref", has_text="C-6.2")
    assert link.get_attribute("href") == "/rules/commandeer/#C-6.2"
    assert inside_viewport(page, "[data-testid=lose-question]")
    # The safe answer has the focus: a second E or Enter does not lose the match.
    assert page.evaluate("document.activeElement.dataset.testid") == "lose-question-no"
    page.keyboard.press("e")
    if lang == "en":
        text = question.inner_text()
        assert "End the Planning Phase" in text and "no unit on the battlefield (C-6.2)" in text
    shoot(page, f"guard-lose-{lang}-{size}")
    page.keyboard.press("Escape")
    question.wait_for(state="detached")
    assert page.evaluate("Number(document.body.dataset.version)") == version
    assert page.evaluate("document.body.dataset.status") == "active"

    # The button asks too; "Go back" keeps the match as it was.
    page.locator("#actions [data-testid=action][data-type=pass]").click()
    question.wait_for(state="visible")
    page.locator("[data-testid=lose-question-no]").click()
    question.wait_for(state="detached")
    assert page.evaluate("Number(document.body.dataset.version)") == version

    # Confirmed, the move is played and loses at once (the rules are unchanged).
    page.locator("#actions [data-testid=action][data-type=pass]").click()
    page.locator("[data-testid=lose-question-yes]").click()
    page.wait_for_function("document.body.dataset.status === 'finished'")
    assert "C-6.2" in page.locator("[data-testid=result]").inner_text()


def test_the_question_reads_in_chinese(chromium_browser: Any, site: Site) -> None:
    match_id = site.seed("trap")
    for size in SIZES:
        page = player(chromium_browser, site, "alice", match_id, "zh-hans", size)
        page.locator("#actions [data-testid=action][data-type=pass]").click()
        question = page.locator("[data-testid=lose-question]")
        question.wait_for(state="visible")
        text = question.inner_text()
        assert "C-6.2" in text and "Go back" not in text and "lose" not in text.lower()
        shoot(page, f"guard-lose-zh-hans-{size}")
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_conceding_is_asked_first_c_6_4(chromium_browser: Any, site: Site, size: str) -> None:
    match_id = site.seed("deploy")  # alice has a unit: nothing loses at once but conceding
    page = player(chromium_browser, site, "alice", match_id, "en", size)
    page.locator("[data-testid=concede]").click()
    question = page.locator("[data-testid=concede-question]")
    question.wait_for(state="visible")
    assert (
        question.locator("a.rule-ref", has_text="C-6.4").get_attribute("href") == "/rules/commandeer/#C-6.4"
    )
    assert "bob wins" in question.inner_text()
    assert inside_viewport(page, "[data-testid=concede-question]")
    shoot(page, f"guard-concede-en-{size}")
    page.locator("[data-testid=concede-question-no]").click()
    question.wait_for(state="detached")
    assert page.evaluate("document.body.dataset.status") == "active"
    page.locator("[data-testid=concede]").click()
    page.locator("[data-testid=concede-question-yes]").click()
    page.wait_for_function("document.body.dataset.status === 'finished'")


def test_the_creator_leaving_a_waiting_room_is_asked_first(chromium_browser: Any, site: Site) -> None:
    match_id = site.seed("waiting")  # alice created it, bob joined
    page = player(chromium_browser, site, "alice", match_id, "en", "390", waiting=True)
    page.locator("[data-testid=leave]").click()
    question = page.locator("[data-testid=leave-question]")
    question.wait_for(state="visible")
    assert "cancelled for every player" in question.inner_text()
    page.locator("[data-testid=leave-question-no]").click()
    question.wait_for(state="detached")
    assert page.url.endswith(f"/play/{match_id}/")
    page.locator("[data-testid=leave]").click()
    page.locator("[data-testid=leave-question-yes]").click()
    page.wait_for_url(f"{site.url}/play/")
