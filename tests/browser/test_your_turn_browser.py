"""Your-turn notices in the browser: a hidden tab shows "(●) Your turn" in its title (and the
favicon dot, and a browser notification when allowed) when the opponent's move hands it the turn; the
title goes back when the player has moved; a live clock that runs low shows a warning.

Two players in headless Chromium against a live daphne server (the fixtures of test_browser_match.py);
the moves are sent through the REST API from each player's page (the notices only read snapshots).
The hidden tab is emulated: `document.visibilityState`/`hidden` are overridden before the page loads.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.browser.test_browser_match import Player, browser, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

PREFIX = "(●) Your turn — "

HIDDEN_TAB = """
(() => {
  window.__visibility = "hidden";
  Object.defineProperty(Document.prototype, "visibilityState", { get: () => window.__visibility, configurable: true });
  Object.defineProperty(Document.prototype, "hidden", { get: () => window.__visibility === "hidden", configurable: true });
  window.__notes = [];
  class FakeNotification {
    constructor(title, options) { window.__notes.push({ title, body: (options || {}).body || "" }); }
    close() {}
  }
  FakeNotification.permission = "granted";
  FakeNotification.requestPermission = async () => "granted";
  window.Notification = FakeNotification;
})();
"""

CALL = """
async ([method, path, body, headers]) => {
  const token = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  const response = await fetch(path, {
    method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(token), ...headers },
    body: body === null ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}
"""


def call(p: Player, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    answer = p.page.evaluate(CALL, [method, path, body, headers or {}])
    assert answer["status"] < 300, (method, path, answer)
    return answer["body"]


def deck_of(p: Player) -> int:
    decks = call(p, "GET", "/api/decks/")
    rows = decks["results"] if isinstance(decks, dict) else decks
    return next(d["id"] for d in rows if d.get("is_owner"))


def state(p: Player, match_id: int) -> Any:
    return call(p, "GET", f"/api/matches/{match_id}/state/")


def move(p: Player, match_id: int) -> None:
    """One legal move of `p`, preferring the ones that hand the turn on (keep, pass, end)."""
    snap = state(p, match_id)
    actions = [a["action"] for a in snap["legal_actions"]]
    assert actions, "not this player's move"
    for wanted in ("keep", "pass", "end_turn", "end_phase"):
        chosen = next((a for a in actions if a.get("type") == wanted), None)
        if chosen:
            break
    else:
        chosen = actions[0]
    call(
        p,
        "POST",
        f"/api/matches/{match_id}/actions/",
        {"action": chosen, "state_version": snap["state_version"], "idempotency_key": uuid.uuid4().hex},
    )


def started_match(
    a: Player, b: Player, time_control: dict[str, int] | None = None
) -> tuple[int, Player, Player]:
    """A running Commandeer match of a and b past the simultaneous openings: (id, mover, waiter)."""
    body: dict[str, Any] = {"kind": "commandeer", "deck_id": deck_of(a), "auto_start": False}
    if time_control:
        body["time_control"] = time_control
    # A fresh key: the same settings again within a few seconds would be taken for a double submit and
    # answered with the first test's match (matches/services/lobby.py, match_create_once).
    match_id = call(a, "POST", "/api/matches/", body, {"Idempotency-Key": uuid.uuid4().hex})["id"]
    call(b, "POST", f"/api/matches/{match_id}/join/", {"deck_id": deck_of(b)})
    call(a, "POST", f"/api/matches/{match_id}/start/")
    for _ in range(20):
        current = state(a, match_id)["current_players"]
        if len(current) == 1:
            break
        for p in (a, b):
            if state(p, match_id)["legal_actions"]:
                move(p, match_id)
    you_a = state(a, match_id)["you"]
    current = state(a, match_id)["current_players"]
    assert len(current) == 1
    return (match_id, a, b) if current == [you_a] else (match_id, b, a)


def test_a_hidden_tab_shows_your_turn_in_its_title_when_the_opponent_moves(browser: Any, server: str) -> None:  # noqa: F811
    alice, bob = Player(browser, server, "alice"), Player(browser, server, "bob")
    try:
        match_id, mover, waiter = started_match(alice, bob)
        call(
            waiter, "PATCH", "/api/me/settings/", {"browser_notifications": True, "notifications_asked": True}
        )
        waiter.page.add_init_script(HIDDEN_TAB)
        waiter.page.goto(f"{server}/play/{match_id}/")
        waiter.page.wait_for_function("document.documentElement.dataset.yourTurn === '0'")
        assert waiter.page.evaluate("document.hidden") is True
        assert not waiter.page.title().startswith(PREFIX)

        for _ in range(60):  # the mover plays until the turn is the waiter's
            if state(waiter, match_id)["legal_actions"]:
                break
            move(mover, match_id)
        waiter.page.wait_for_function(f"document.title.startsWith({PREFIX!r})", timeout=10000)
        assert f"#{match_id}" in waiter.page.title()
        waiter.page.wait_for_function("document.querySelector('link[rel=icon]').dataset.yourTurn === '1'")
        icon = waiter.page.get_attribute('link[rel="icon"]', "href")
        assert icon.startswith("data:image/svg+xml")
        badge = waiter.page.get_by_test_id("nav-turns")  # the header counts the games waiting for you
        badge.wait_for(state="attached", timeout=10000)
        assert badge.inner_text() == "1"
        notes = waiter.page.evaluate("window.__notes")
        assert (
            len(notes) == 1
            and notes[0]["title"].startswith("Your turn — ")
            and mover.name in notes[0]["body"]
        )

        # Back in the tab and moved: the title and icon are plain again.
        waiter.page.evaluate(
            "window.__visibility = 'visible'; document.dispatchEvent(new Event('visibilitychange'))"
        )
        for _ in range(60):
            if not state(waiter, match_id)["legal_actions"]:
                break
            move(waiter, match_id)
        waiter.page.wait_for_function(f"!document.title.startsWith({PREFIX!r})", timeout=10000)
        assert waiter.page.get_attribute('link[rel="icon"]', "href").endswith("favicon.svg")
        assert len(waiter.page.evaluate("window.__notes")) == 1
        waiter.page.get_by_test_id("nav-turns").wait_for(state="detached", timeout=10000)
    finally:
        alice.ctx.close()
        bob.ctx.close()


def test_a_live_clock_running_low_shows_a_warning(browser: Any, server: str) -> None:  # noqa: F811
    alice, bob = Player(browser, server, "alice"), Player(browser, server, "bob")
    try:
        match_id, mover, _ = started_match(alice, bob, {"initial_s": 5, "increment_s": 0})
        call(mover, "PATCH", "/api/me/settings/", {"notifications_asked": False})  # not asked yet
        # The offer is for people: a browser under automation (navigator.webdriver) is never asked.
        mover.page.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'webdriver', {get: () => false})"
        )
        mover.page.goto(f"{server}/play/{match_id}/")
        warning = mover.page.get_by_test_id("low-time")
        warning.wait_for(state="visible", timeout=10000)
        assert warning.inner_text().startswith("Low time: 0:0")
        assert warning.get_attribute("role") == "status"
        # Browser notifications are offered once, inline, the first time it is your turn.
        offer = mover.page.get_by_test_id("notify-offer")
        offer.wait_for(state="visible")
        offer.get_by_role("button", name="Not now").click()
        assert offer.count() == 0
        mover.page.wait_for_timeout(300)
        assert call(mover, "GET", "/api/me/settings/")["notifications_asked"] is True
        mover.page.reload()
        mover.page.wait_for_function("document.documentElement.dataset.yourTurn === '1'")
        mover.page.wait_for_timeout(300)
        assert mover.page.get_by_test_id("notify-offer").count() == 0
    finally:
        alice.ctx.close()
        bob.ctx.close()


def test_my_games_page_moves_a_game_to_your_turn_without_a_reload(browser: Any, server: str) -> None:  # noqa: F811
    """/play/mine/ keeps itself current: when the opponent's move hands the turn over, the game moves
    from "Waiting for others" to "Your turn" in place (the page asks /api/me/turns/ while it shows)."""
    alice, bob = Player(browser, server, "alice"), Player(browser, server, "bob")
    try:
        match_id, mover, waiter = started_match(alice, bob)
        waiter.page.goto(f"{server}/play/mine/")
        # The header's badge comes with the page (its script's first read is a minute on): none waits yet.
        assert waiter.page.locator("[data-testid=nav-my-games]").get_attribute("data-turns") == "0"
        assert waiter.page.locator("[data-testid=nav-turns]").count() == 0
        running = waiter.page.locator(f"[data-testid=running-list] [data-match='{match_id}']")
        assert running.count() == 1
        waiter.page.evaluate("window.__sameDocument = true")  # gone if the page were reloaded
        for _ in range(60):  # the mover plays until the turn is the waiter's
            if state(waiter, match_id)["legal_actions"]:
                break
            move(mover, match_id)
        # The page checks every 15 s and whenever the tab comes back into view; the latter, at once:
        waiter.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        mine = waiter.page.locator(f"[data-testid=your-turn-list] [data-match='{match_id}']")
        mine.wait_for(state="attached", timeout=10000)
        assert running.count() == 0
        assert waiter.page.evaluate("window.__sameDocument") is True
        assert waiter.page.title().startswith("(1) My games")
        assert mine.locator("a.button").get_attribute("href").endswith(f"/{match_id}/")
        # The header's badge follows with the same answer, not at its own once-a-minute check.
        badge = waiter.page.locator("[data-testid=nav-turns]")
        badge.wait_for(state="attached", timeout=3000)
        assert badge.inner_text() == "1"
        # Any page drawn now has the badge from the server, with no read of /api/me/turns/ at all.
        reads: list[str] = []
        waiter.page.on("request", lambda r: reads.append(r.url) if "/api/me/turns/" in r.url else None)
        waiter.page.goto(f"{server}/cards/")
        assert waiter.page.locator("[data-testid=nav-turns]").inner_text() == "1"
        assert waiter.page.locator("[data-testid=nav-my-games]").get_attribute("aria-label") == (
            "My games: 1 waiting for your move"
        )
        waiter.page.wait_for_timeout(1500)  # a page without the server's count reads it after 1 s
        assert reads == []
    finally:
        alice.ctx.close()
        bob.ctx.close()
