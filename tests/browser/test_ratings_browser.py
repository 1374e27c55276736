"""Playwright in headless Chromium: a finished rated match changes both players' ratings and shows on
both profiles, and the end-of-game summary opens by itself on both match pages.

Alice ticks "Rated" in the lobby, bob joins, alice starts, each makes a move, bob concedes (C-6.4); both
pages show the summary dialog (result, reason, time per player, rating changes, replay link); the profiles
list the match with its rating change; the leaderboard lists both players. With SCREENSHOT_DIR set, pictures of
the summary, a profile and the leaderboard are saved at 1400×900 and 390×844.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from tests.browser import test_browser_match as live

pytestmark = pytest.mark.browser

server = live.server  # the module's daphne server on a seeded SQLite database (alice, bob, carol, decks)
browser = live.browser

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.violatedDirective));
"""
SIZES = {"wide": (1400, 900), "phone": (390, 844)}


def _no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


# The player's first legal action, through the API as the page's own script sends it (session and CSRF
# cookie): true when it was accepted, false when the player had nothing to do.
PLAY_FIRST_LEGAL = """
async (id) => {
  const state = await (await fetch(`/api/matches/${id}/state/`)).json();
  if (!state.legal_actions.length) return false;
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
  const answer = await fetch(`/api/matches/${id}/actions/`, {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
    body: JSON.stringify({action: state.legal_actions[0].action, state_version: state.state_version}),
  });
  return answer.ok;
}
"""


def _one_move_each(match_id: int, *pages: Any) -> None:
    moved = [False] * len(pages)
    for _ in range(10):
        for i, page in enumerate(pages):
            moved[i] = moved[i] or bool(page.evaluate(PLAY_FIRST_LEGAL, match_id))
        if all(moved):
            return
    raise AssertionError(f"not every player could move: {moved}")


def test_a_finished_rated_match_changes_both_ratings_and_shows_on_both_profiles(
    server: str, browser: Any
) -> None:
    alice, bob = live.Player(browser, server, "alice"), live.Player(browser, server, "bob")
    a, b = alice.page, bob.page
    a.goto(f"{server}/play/")
    a.check("[data-testid=rated]")
    a.uncheck("[data-testid=auto-start]")  # this test starts it with the button
    a.click("[data-testid=create-match]")
    a.wait_for_url(re.compile(r"/play/\d+/$"))
    match_id = int(a.url.rstrip("/").split("/")[-1])
    created = a.evaluate(f"fetch('/api/matches/{match_id}/').then(r => r.json())")
    assert created["rated"] is True
    b.goto(f"{server}/play/{match_id}/")
    b.click("#join-here [data-testid=join]")
    a.wait_for_function("document.querySelectorAll('[data-testid=seat]').length === 2")
    a.click("[data-testid=start]")
    for p in (a, b):
        p.wait_for_selector("[data-testid=board]:visible")
    assert a.locator("[data-testid=game-over-bar]:visible").count() == 0  # nothing while the match runs
    _one_move_each(match_id, a, b)  # a rated result counts only after a move of each player's own

    b.click("[data-testid=concede]")
    b.click("[data-testid=concede-question-yes]")  # "Concede this match?" in the page's own dialog
    for p in (a, b):
        p.wait_for_selector("[data-testid=game-over][open]", timeout=10000)
        p.wait_for_selector("[data-testid=summary-ratings]")
    assert a.locator("#game-over-title").inner_text() == "You won!"
    assert b.locator("#game-over-title").inner_text().startswith("You lost")
    assert "conceded" in a.locator("[data-testid=summary-reason]").inner_text()
    ratings_text = a.locator("[data-testid=summary-ratings]").inner_text()
    assert re.search(r"alice 1500 → 1\d{3} \(\+\d+\)", ratings_text), ratings_text
    assert re.search(r"bob 1500 → 1\d{3} \(-\d+\)", ratings_text), ratings_text
    assert a.locator("[data-testid=summary-players] tbody tr").count() == 2
    a.click("[data-testid=rematch-button]", trial=True)  # the summary sits in the page: Rematch stays usable
    assert a.locator("[data-testid=summary-replay]").get_attribute("href") == f"/play/{match_id}/replay/"

    shots = os.environ.get("SCREENSHOT_DIR")
    if shots:
        for size, (w, h) in SIZES.items():
            a.set_viewport_size({"width": w, "height": h})
            a.screenshot(path=f"{shots}/summary-{size}.png")
        a.set_viewport_size({"width": 1400, "height": 900})
    b.click("[data-testid=summary-close]")  # the dialog closes; the Summary button stays
    assert b.locator("[data-testid=game-over][open]").count() == 0
    b.click("[data-testid=summary-button]")
    b.wait_for_selector("[data-testid=game-over][open]")
    b.keyboard.press("Escape")
    assert b.locator("[data-testid=game-over][open]").count() == 0
    b.reload()  # seen once: a later visit shows the button, not the dialog
    b.wait_for_selector("[data-testid=summary-button]:visible")
    assert b.locator("[data-testid=game-over][open]").count() == 0

    deltas = {}
    for name, page in (("alice", a), ("bob", b)):
        page.goto(f"{server}/players/{name}/")
        row = page.locator(f"[data-testid=recent-games] tr[data-match='{match_id}']")
        assert row.count() == 1, f"match {match_id} missing on {name}'s profile"
        assert row.locator("a", has_text="Replay").get_attribute("href") == f"/play/{match_id}/replay/"
        deltas[name] = int(row.locator(".delta").inner_text())
        rating = page.locator("[data-testid=rating-commandeer]").inner_text()
        assert (
            rating.endswith("?") and int(rating.rstrip("?")) == 1500 + deltas[name]
        )  # provisional: one game
        assert page.locator("[data-testid=chart-commandeer]").count() == 1
    assert deltas["alice"] > 0 > deltas["bob"]
    a.goto(f"{server}/leaderboard/commandeer/")
    names = a.locator("[data-testid=leaderboard] tbody td:nth-child(2)").all_inner_texts()
    assert names[:2] == ["alice", "bob"]
    a.click("[data-testid=nav-username]")
    a.wait_for_url(f"{server}/players/alice/")

    for size, (w, h) in SIZES.items():
        for path, label in (("/players/alice/", "profile"), ("/leaderboard/commandeer/", "leaderboard")):
            a.set_viewport_size({"width": w, "height": h})
            a.goto(f"{server}{path}")
            assert _no_sideways_scroll(a), f"{label} scrolls sideways at {size}"
            if shots:
                a.screenshot(path=f"{shots}/{label}-{size}.png", full_page=True)

    # the same pages under the site's real Content-Security-Policy: no violation reported
    strict = browser.new_context(viewport={"width": 1400, "height": 900})
    strict.add_init_script(RECORD_VIOLATIONS)
    page = strict.new_page()
    page.set_default_timeout(8000)
    page.goto(f"{server}/accounts/login/")
    page.fill("input[name=username]", "bob")
    page.fill("input[name=password]", "pw-bob-123")
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()
    for path, ready in (
        (f"/play/{match_id}/", "[data-testid=summary-button]:visible"),
        ("/players/bob/", "[data-testid=recent-games]"),
        ("/leaderboard/commandeer/", "[data-testid=leaderboard]"),
    ):
        page.goto(f"{server}{path}")
        page.wait_for_selector(ready)
        assert page.evaluate("window.__cspViolations") == [], path
    strict.close()
    alice.ctx.close()
    bob.ctx.close()
