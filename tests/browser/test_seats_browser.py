"""Playwright in headless Chromium against a live daphne server: seats, houses and rematch.

A joiner picks a free house in a Westeros waiting room (W-1.1), the creator fills the rest with AI houses
and starts, and the joiner plays the house they picked; two players finish a Commandeer match (one
concedes), one offers a rematch, the other accepts, and both land on the new match with the seats swapped.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.test_browser_match import Player, browser, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def match_id(page: Any) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def api_get(page: Any, path: str) -> Any:
    return json.loads(page.evaluate(f"fetch({json.dumps(path)}).then((r) => r.text())"))


def test_a_joiner_picks_a_free_house_in_the_westeros_waiting_room_w_1_1(browser: Any, server: str) -> None:  # noqa: F811
    alice, bob = Player(browser, server, "alice"), Player(browser, server, "bob")
    alice.page.goto(f"{server}/play/?kind=westeros")
    alice.page.select_option("[data-testid=player-count]", "3")
    alice.page.select_option("[data-testid=seating]", "choose")
    alice.page.select_option("[data-testid=house]", "lannister")
    alice.page.click("[data-testid=create-match]")
    alice.page.wait_for_url(lambda u: u.rstrip("/").rsplit("/", 1)[1].isdigit())
    mid = match_id(alice.page)
    alice.page.wait_for_selector("[data-house=lannister] >> text=alice (you)")

    bob.page.goto(f"{server}/play/{mid}/")
    bob.page.wait_for_selector("#join-here:not([hidden]) [data-testid=join-house]")
    offered = bob.page.eval_on_selector_all("[data-testid=join-house] option", "os => os.map((o) => o.value)")
    assert offered == ["stark", "baratheon"]  # Lannister is taken; a 3-player game has no Greyjoy (W-1.1)
    bob.page.select_option("[data-testid=join-house]", "baratheon")
    bob.page.click("#join-here [data-testid=join]")
    bob.page.wait_for_selector("[data-house=baratheon] >> text=bob (you)")
    alice.page.wait_for_selector("[data-house=baratheon] >> text=bob")  # live in the creator's waiting room

    alice.page.select_option("[data-testid=fill-level]", "easy")
    alice.page.click("[data-testid=fill-ai]")
    alice.page.wait_for_selector("[data-house=stark] >> text=AI (easy)")
    alice.page.click("[data-testid=start]")
    alice.page.wait_for_url(f"**/westeros/games/{mid}/")
    bob.page.wait_for_url(f"**/westeros/games/{mid}/", timeout=15000)
    bob.page.wait_for_function("document.querySelector('[data-testid=you]').innerText.includes('Baratheon')")
    seats = api_get(bob.page, f"/api/matches/{mid}/")["seats"]
    assert [(s["name"], s["house"]) for s in seats] == [
        ("alice", "lannister"),
        ("bob", "baratheon"),
        ("AI (easy)", "stark"),
    ]


def test_a_rematch_creates_the_match_with_the_seats_swapped(browser: Any, server: str) -> None:  # noqa: F811
    alice, bob = Player(browser, server, "alice"), Player(browser, server, "bob")
    alice.page.goto(f"{server}/play/")
    alice.page.select_option("[data-testid=kind]", "commandeer")
    alice.page.uncheck("[data-testid=auto-start]")  # this test starts it with the button
    alice.page.click("[data-testid=create-match]")
    alice.page.wait_for_url(lambda u: u.rstrip("/").rsplit("/", 1)[1].isdigit())
    first = match_id(alice.page)
    bob.page.goto(f"{server}/play/{first}/")
    bob.page.click("[data-testid=join]")
    alice.page.wait_for_selector("[data-testid=start]:not([hidden])")
    alice.page.click("[data-testid=start]")
    bob.page.wait_for_selector("[data-testid=concede]:not([hidden])")
    bob.page.click("[data-testid=concede]")
    bob.page.click("[data-testid=concede-question-yes]")  # asked first, in the page's own dialog

    alice.page.wait_for_selector("[data-testid=rematch-button]:not([hidden])")
    alice.page.click("[data-testid=rematch-button]")
    alice.page.wait_for_selector("text=waiting for bob to accept")
    bob.page.wait_for_selector("text=Rematch offered by alice")
    bob.page.click("[data-testid=rematch-button] >> text=Accept rematch")

    def moved_on(url: str) -> bool:
        tail = url.rstrip("/").rsplit("/", 1)[1]
        return tail.isdigit() and int(tail) != first

    bob.page.wait_for_url(moved_on)
    alice.page.wait_for_url(moved_on, timeout=15000)  # pushed to the other page through the socket
    second = match_id(alice.page)
    assert match_id(bob.page) == second
    new = api_get(alice.page, f"/api/matches/{second}/")
    old = api_get(alice.page, f"/api/matches/{first}/")
    assert new["status"] == "active" and new["rematch_of"] == first and old["rematch"]["match_id"] == second
    assert [s["name"] for s in old["seats"]] == ["alice", "bob"]
    assert [s["name"] for s in new["seats"]] == ["bob", "alice"]  # sides swapped
    assert new["time_control"] == old["time_control"]
    alice.page.wait_for_selector("#table:not([hidden])")
