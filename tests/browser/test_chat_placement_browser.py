"""The chat never lies over a control or the decision on the Commandeer match page, in headless Chromium
(the rigged-position site of `test_match_log_browser`: daphne, a Celery worker, alice against bob).

Folded, the chat is a button with the unread count in the page's header; open at 1400×900 it docks on the
right and the table takes its narrower layout beside it (Concede, the log and the decision stay free); on a
390×844 phone the open chat is a full-screen sheet with its own close button. Checked by bounding boxes
against every visible button, link, field, card, square and the decision panel, at the top of the page and
scrolled to its end, in the Commander choice (C-4.1) and in a Planning phase.
"""

# ruff: noqa: F811  (the rigged-position site fixture is imported from test_match_log_browser and named as a parameter)
from __future__ import annotations

from typing import Any

import pytest

from tests.browser.chat_overlap import is_sheet, overlaps
from tests.browser.test_match_log_browser import Site, site  # noqa: F401  (the rigged-position site)

pytestmark = [pytest.mark.browser, pytest.mark.celery_worker]

SIZES = {"1400": {"width": 1400, "height": 900}, "390": {"width": 390, "height": 844}}

POST_CHAT_JS = """async ([id, text]) => {
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
  const r = await fetch(`/api/matches/${id}/chat/?channel=table`, { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": token }, body: JSON.stringify({ body: text }) });
  return r.status;
}"""


def player(browser: Any, site: Site, name: str, match_id: int, size: str) -> Any:
    phone = size == "390"
    ctx = browser.new_context(viewport=SIZES[size], bypass_csp=True, has_touch=phone, is_mobile=phone)
    page = ctx.new_page()
    page.set_default_timeout(30000)  # a loaded CI machine: a login alone may take seconds
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"pw-{name}-123")
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{site.url}/play/{match_id}/")
    page.wait_for_selector("[data-testid=board]:visible")
    page.locator(".match-head #chat-toggle").wait_for(state="visible")  # folded: in the header
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_chat_covers_no_control_in_a_planning_phase(chromium_browser: Any, site: Site, size: str) -> None:
    match_id = site.seed("deploy")
    alice = player(chromium_browser, site, "alice", match_id, size)
    bob = player(chromium_browser, site, "bob", match_id, "1400")
    toggle = alice.locator("#chat-toggle")
    if size == "1400":
        # Someone to talk to and room beside the table: docked open by default, the table beside it.
        alice.wait_for_selector("#chat.is-docked.is-open")
        assert overlaps(alice) == []
        chat = alice.locator("#chat").bounding_box()
        for part in (
            "#decision",
            "[data-testid=concede]",
            "#log",
            "[data-testid=board]",
            "[data-testid=hand]",
        ):
            box = alice.locator(part).bounding_box()
            assert box is not None and box["x"] + box["width"] <= chat["x"] + 0.5, part
        decision = alice.locator("#decision").bounding_box()
        assert decision["y"] + decision["height"] <= 900, "the decision is on screen beside the chat"
        toggle.click()  # folded: nothing at all over the page
        alice.wait_for_selector("#chat.is-open", state="detached")
    else:
        assert toggle.get_attribute("aria-expanded") == "false"  # a phone: folded by default
    assert overlaps(alice) == []
    # A message while folded: the count shows on the button, which still covers nothing.
    assert bob.evaluate(POST_CHAT_JS, [match_id, "hello alice"]) == 201
    alice.wait_for_function("document.getElementById('chat-badge').textContent === '1'")
    assert alice.locator(".match-head #chat-badge").is_visible()
    assert overlaps(alice) == []
    toggle.click()
    alice.wait_for_selector("#chat.is-open")
    if size == "390":
        assert is_sheet(alice)
        alice.click("#chat-close")
        alice.wait_for_selector("#chat.is-open", state="detached")
    assert overlaps(alice) == []
    assert alice.locator("#chat-badge").is_hidden()  # read


def test_the_chat_covers_no_commander_choice_on_a_phone_c_4_1(chromium_browser: Any, site: Site) -> None:
    match_id = site.seed("setup")
    for name in ("alice", "bob"):
        page = player(chromium_browser, site, name, match_id, "390")
        if page.locator("#actions [data-type=choose_commander]").count():
            choices = page.locator("#actions [data-type=choose_commander]")
            assert choices.count() >= 2
            assert overlaps(page) == []
            last = choices.last.bounding_box()
            chip = page.locator("#chat-toggle").bounding_box()
            assert last["y"] >= chip["y"] + chip["height"], (
                "the last Commander choice lies below the chat button"
            )
            return
    pytest.fail("nobody had the Commander choice")
