"""A new player's first hour at a Westeros table, in headless Chromium against the live stack of
`test_westeros_online` (daphne + Celery worker + Redis + PostgreSQL), one user against two easy AI houses:

- the chat never lies over a control or the decision: folded, it is a button with the unread count in the
  status bar; open, it docks beside the game at 1400×900 (the game reflows), and is a full-screen sheet with
  its own close button on a 390×844 phone;
- every order token on the map answers a tap 44 CSS px across on a phone, and a tap on it chooses its area;
- while another house acts, the heading names it ("Lannister is marching (W-7.1)"), never "Move your units";
- leaving a running game is asked first in the page's own dialog, never `window.confirm`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.chat_overlap import is_sheet, overlaps
from tests.browser.test_westeros_online import Player, Stack, click_simplest, in_browser, open_stack
from tests.browser.test_westeros_page import new_game, shoot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

# What the heading says to the house that decides; never shown while another house does (W-3.1 steps).
OWN_HEADINGS = (
    "Move your units", "Resolve a Raid order", "Choose a March order", "Resolve a Consolidate Power order",
    "Muster units", "Declare support", "Place an order in each of your areas",
)  # fmt: skip
NAMES = {"stark": "Stark", "lannister": "Lannister", "baratheon": "Baratheon", "greyjoy": "Greyjoy",
         "tyrell": "Tyrell", "martell": "Martell"}  # fmt: skip

TITLES_JS = """() => {
  window.__titles = [];
  const title = document.getElementById("wx-decide-title");
  const note = () => {
    const s = window.liveMatch && window.liveMatch.snapshot;
    const v = s && s.view;
    window.__titles.push({ title: title.textContent, deciding: v ? v.current_players || [] : [], me: v ? v.player : null });
  };
  new MutationObserver(note).observe(title, { childList: true, characterData: true, subtree: true });
  note();
}"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from open_stack(tmp_path_factory, "westeros-first-hour")


def test_chat_and_order_targets_leave_every_control_free(stack: Stack) -> None:
    def body(browser: Any) -> None:
        player = Player(browser, stack.url, "alice")
        match_id = new_game(stack, player)
        for width, height in ((1400, 900), (390, 844)):
            phone = width < 700
            ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True,
                                      has_touch=phone, is_mobile=phone)  # fmt: skip
            ctx.add_cookies(player.ctx.cookies())
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto(f"{stack.url}/westeros/games/{match_id}/")
            page.wait_for_selector("[data-testid=orders-plan]")
            toggle = page.locator("[data-testid=status-bar] #chat-toggle")
            toggle.wait_for(state="visible")  # folded: a button in the status bar
            assert overlaps(page) == [], f"{width}: folded chat"
            toggle.click()
            page.wait_for_selector("#chat.is-open")
            if phone:
                assert is_sheet(page), "an open chat on a phone is a full-screen sheet"
                page.click("#chat-close")
                page.wait_for_selector("#chat.is-open", state="detached")
                assert overlaps(page) == [], "after closing the sheet"
                # Order tokens: a 44-px tap target each, at the board's own zoom; a tap chooses the area.
                targets = page.eval_on_selector_all(
                    "[data-testid=order-target]",
                    "els => els.map(e => { const r = e.getBoundingClientRect();"
                    " return {area: e.dataset.hitArea, w: r.width, h: r.height, x: r.x + r.width / 2, y: r.y + r.height / 2}; })",
                )
                assert targets, "the AI houses' face-down orders are on the board"
                assert all(t["w"] >= 44 and t["h"] >= 44 for t in targets), targets
                t = page.evaluate(
                    """() => { for (const e of document.querySelectorAll("[data-testid=order-target]")) {
                         e.scrollIntoView({ block: "center", inline: "center" });
                         const r = e.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2;
                         const top = document.elementFromPoint(x, y);
                         if (top && top.dataset && top.dataset.hitArea === e.dataset.hitArea) return {area: e.dataset.hitArea, x, y}; }
                       return null; }"""
                )
                assert t is not None, "some order target is on top where it is drawn"
                page.touchscreen.tap(t["x"], t["y"])
                page.wait_for_function(f"document.body.dataset.selectedArea === {t['area']!r}")
            else:
                assert page.locator("#chat.is-docked.is-open").count() == 1
                assert overlaps(page) == [], f"{width}: docked chat"
                assert page.locator("#wx-decide").bounding_box()["x"] + page.locator("#wx-decide").bounding_box()[
                    "width"] <= page.locator("#chat").bounding_box()["x"] + 0.5  # fmt: skip
            shoot(page, f"westeros-chat-{width}")
            assert errors == []
            ctx.close()
        player.ctx.close()

    in_browser(body)


def test_the_heading_names_the_house_that_acts_w_7_1(stack: Stack) -> None:
    def body(browser: Any) -> None:
        player = Player(browser, stack.url, "bob")
        page = player.page
        page.set_viewport_size({"width": 390, "height": 844})
        new_game(stack, player)
        page.evaluate(TITLES_JS)
        started = time.monotonic()
        while int(page.inner_text("[data-testid=round]") or 0) < 2 and player.status() != "finished":
            assert time.monotonic() - started < 300, "a round took more than 5 minutes"
            mine = page.locator("[data-testid=whose-turn][data-mine='1']").count() == 1
            if not mine or page.locator("body[data-submitting]").count():
                time.sleep(0.05)
                continue
            version = player.version()
            try:
                if page.locator(".wx-plan-row.is-open [data-type=place_order]").count():
                    page.locator(".wx-plan-row.is-open [data-type=place_order]").first.click(timeout=3000)
                else:
                    click_simplest(page)
            except Exception:  # the page re-rendered under the click (a live update): look again
                continue
            end = time.monotonic() + 10
            while player.version() <= version and time.monotonic() < end:
                time.sleep(0.03)
        titles = page.evaluate("window.__titles")
        others = [t for t in titles if t["deciding"] and t["me"] not in t["deciding"]]
        assert others, "another house decided while the page was open"
        for t in others:
            assert not t["title"].startswith(OWN_HEADINGS), t
            assert any(NAMES[h] in t["title"] for h in t["deciding"]), t
        marching = [t for t in others if "is marching (W-7.1)" in t["title"]]
        moving = [t for t in titles if t["title"].startswith("Move your units")]
        assert all(t["me"] in t["deciding"] for t in moving), moving
        print(
            "headings while others acted:", sorted({t["title"] for t in others}), "marching:", len(marching)
        )
        assert player.errors == []
        player.ctx.close()

    in_browser(body)


def test_leaving_a_running_game_is_asked_first(stack: Stack) -> None:
    def body(browser: Any) -> None:
        player = Player(browser, stack.url, "carol")
        page = player.page
        native: list[str] = []
        page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
        new_game(stack, player)
        page.click("[data-testid=leave-game-button]")
        question = page.locator("[data-testid=leave-question]")
        question.wait_for(state="visible")
        text = question.inner_text()
        assert (
            NAMES[str(player.house)] in text and "(AI, left)" in text and "cannot take the seat back" in text
        )
        assert page.evaluate("document.activeElement.dataset.testid") == "leave-question-no"
        page.keyboard.press("Escape")
        question.wait_for(state="detached")
        assert page.locator("[data-testid=leave-game]").is_visible()  # still seated
        page.click("[data-testid=leave-game-button]")
        page.click("[data-testid=leave-question-yes]")
        page.locator("[data-testid=leave-game]").wait_for(state="hidden")  # an AI plays the house now
        page.wait_for_function("document.body.dataset.version !== undefined")
        assert page.locator("[data-testid=leave-game]").is_hidden()
        assert native == []
        player.ctx.close()

    in_browser(body)
