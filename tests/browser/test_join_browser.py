"""Joining with eyes open: the invite page says rated or not, the time control, the length and the seats
before the join; the creator copies the invite link ("Copied"); the match starts by itself when the last
seat is taken, and both pages follow onto the table. At 1400×900 and 390×844."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_browser_match import Player, browser, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

SIZES = [{"width": 1400, "height": 900}, {"width": 390, "height": 844}]


@pytest.mark.parametrize("size", SIZES, ids=["laptop", "phone"])
def test_the_invite_page_tells_what_is_joined_and_the_match_starts_at_the_last_seat(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
    size: dict[str, int],
) -> None:
    alice, bob = Player(browser, server, "alice"), Player(browser, server, "bob")
    a, b = alice.page, bob.page
    alice.ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    for p in (a, b):
        p.set_viewport_size(size)
    a.goto(f"{server}/play/")
    a.select_option("[data-testid=kind]", "commandeer")
    a.select_option("[data-testid=turn-limit]", "10")
    assert a.is_checked("[data-testid=auto-start]")  # on unless the creator turns it off
    a.uncheck("[data-testid=public]")  # private: only the invite link lets bob in
    a.click("[data-testid=create-match]")
    a.wait_for_url(re.compile(r"/play/\d+/$"))
    match_id = int(a.url.rstrip("/").split("/")[-1])
    a.wait_for_selector("[data-testid=invite-link]:visible")
    assert a.is_visible("[data-testid=auto-start-note]")

    # The copy button puts the link on the clipboard and says so.
    a.click("[data-testid=invite-copy]")
    a.locator("[data-testid=invite-copied]").filter(has_text="Copied").wait_for()
    link = a.input_value("[data-testid=invite-link]")
    assert a.evaluate("navigator.clipboard.readText()") == link

    # The invite page: rated or not, time control, length, seats and how it starts, before joining.
    b.goto(link)
    facts = b.locator("[data-testid=match-facts]")
    assert "Unrated" in facts.locator("[data-testid=fact-rated]").text_content()
    assert facts.locator("[data-testid=fact-time]").text_content().strip() != ""
    assert "10 turns (C-6.5)" in facts.locator("[data-testid=fact-length]").text_content()
    assert facts.locator("[data-testid=fact-seats]").text_content().startswith("1 of 2 taken: alice")
    assert "Starts by itself" in facts.locator("[data-testid=fact-start]").text_content()
    assert b.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    b.screenshot(path=f"/tmp/join-invite-{size['width']}.png", full_page=True)

    # Bob takes the last seat: no one presses Start, both pages are at the table.
    b.click("[data-testid=join]")
    for p in (a, b):
        p.wait_for_selector("[data-testid=board]:visible", timeout=15_000)
    assert a.locator("[data-testid=start]:visible").count() == 0
    status = a.evaluate(f"fetch('/api/matches/{match_id}/').then(r => r.json()).then(m => m.status)")
    assert status == "active"
    # alice concedes, so the next size's run starts with both players free (no match in progress)
    conceded = a.evaluate(
        """async (id) => {
             const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
             const answer = await fetch(`/api/matches/${id}/concede/`, {method: "POST", credentials: "same-origin",
               headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}, body: "{}"});
             return answer.status;
           }""",
        match_id,
    )
    assert conceded == 200, conceded
    for player in (alice, bob):
        player.ctx.close()
