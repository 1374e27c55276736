"""Small things a new player meets: a search for a faction or keyword that does not exist says so and
lists the valid ones (never a silent "No cards match"); a profile counts rated and unrated games apart.
At 1400×900 and 390×844."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from matches.models import Match, MatchStatus, Seat
from tests.browser.cardset import load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 1400, "height": 900}, {"width": 390, "height": 844}]


@pytest.mark.parametrize("size", SIZES, ids=["laptop", "phone"])
def test_an_unknown_faction_or_keyword_is_named_with_the_valid_values(
    live_server: Any, browser_page: Any, size: dict[str, int]
) -> None:
    load_cards()
    page = browser_page
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/cards/?q=f:nonexistent")
    error = page.locator("[data-testid=card-search-error]")
    error.wait_for(state="visible")
    text = error.text_content()
    assert "unknown faction 'nonexistent'" in text and "cinder-legion" in text
    assert page.locator("[data-testid=card-tile]").count() == 0
    box = page.locator("input[name=q]")
    box.fill("kw:flyng")
    box.press("Enter")
    page.locator("[data-testid=card-search-error]", has_text="unknown keyword 'flyng'").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=f"/tmp/search-unknown-{size['width']}.png")


@pytest.mark.parametrize("size", SIZES, ids=["laptop", "phone"])
def test_a_profile_counts_rated_and_unrated_games_apart(
    live_server: Any, browser_page: Any, size: dict[str, int]
) -> None:
    users = get_user_model().objects
    alice, bob = users.create_user("alice", password="x-long-pass-1"), users.create_user("bob")
    for rated in (True, False, False):  # one rated game, two unrated (say against the AI)
        match = Match.objects.create(
            kind="commandeer", created_by=alice, seed=1, status=MatchStatus.FINISHED, rated=rated,
            result={"winner": 0, "reason": "concede"},
        )  # fmt: skip
        Seat.objects.create(match=match, position=0, user=alice)
        Seat.objects.create(match=match, position=1, user=bob)
    page = browser_page
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/players/alice/")
    assert page.text_content("[data-testid=games-commandeer]") == "3"
    assert page.text_content("[data-testid=games-split-commandeer]").strip() == "1 rated · 2 unrated"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=f"/tmp/profile-split-{size['width']}.png")
