"""The deck builder in a real browser: sign up, build a 50-card deck by clicking, see the C-3.2 copy
limit appear and clear in the live legality panel, save, export as text, re-import as a new deck."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from decks.models import Deck
from tests.browser.cardset import load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DECK_SIZE = 50  # C-3.1
MAX_COPIES = 4  # C-3.2
LEGAL = re.compile(r"^Legal$")  # the legality badge of a deck with no error


def pick_cards(card_file: dict[str, Any]) -> tuple[str, list[tuple[dict[str, Any], int]]]:
    """A faction and (card, copies) adding up to 50 cards, at most 4 of each, no Legendary/Unique (C-3)."""
    by_faction: dict[str, list[dict[str, Any]]] = {}
    for card in card_file["cards"]:
        if not card["legendary"] and not card["unique"]:
            by_faction.setdefault(card["faction"], []).append(card)
    faction, cards = max(by_faction.items(), key=lambda item: len(item[1]))
    cards.sort(key=lambda c: c["name"])
    needed = -(-DECK_SIZE // MAX_COPIES)
    assert len(cards) >= needed, f"the card set needs {needed} plain cards in one faction"
    plan: list[tuple[dict[str, Any], int]] = []
    left = DECK_SIZE
    for card in cards[:needed]:
        copies = min(MAX_COPIES, left)
        plan.append((card, copies))
        left -= copies
    assert sum(c for _, c in plan) == DECK_SIZE
    return faction, plan


def slug_of(card: dict[str, Any]) -> str:
    from cards.models import Card

    return Card.objects.get(name=card["name"]).slug


def deck_counts(deck: Deck) -> dict[str, int]:
    return {entry.card.slug: entry.count for entry in deck.entries.select_related("card")}


def test_build_a_50_card_deck_see_c_3_2_live_save_export_and_reimport(
    live_server: Any, browser_page: Any
) -> None:
    page = browser_page
    card_file = load_cards()
    faction, plan = pick_cards(card_file)
    url = live_server.url

    # Sign up through the UI: the new user lands on the deck list, logged in.
    page.goto(f"{url}/accounts/signup/")
    page.fill("#id_username", "builder")
    page.fill("#id_password1", "a-long-pass-123")
    page.fill("#id_password2", "a-long-pass-123")
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{url}/decks/")
    assert page.text_content("[data-testid=nav-username]") == "builder"

    # Create a deck of the chosen faction.
    page.fill("[data-testid=new-deck-name]", "Browser Deck")
    page.wait_for_selector(f"[data-testid=new-deck-faction] option[value='{faction}']", state="attached")
    page.select_option("[data-testid=new-deck-faction]", faction)
    page.click("[data-testid=new-deck-submit]")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    page.wait_for_selector("#deck-builder[data-ready=true]")
    deck_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert page.input_value("[data-testid=deck-faction]") == faction

    # Build 50 cards by searching each card and clicking "Add".
    search = page.locator("#builder-search")
    for card, copies in plan:
        slug = slug_of(card)
        search.locator("[data-testid=card-search-input]").fill(f'name:"{card["name"]}"')
        search.locator("[data-testid=card-search-input]").press("Enter")
        tile = search.locator(f"[data-testid=card-tile][data-card='{slug}']")
        tile.wait_for()
        for _ in range(copies):
            tile.locator("[data-testid=add-card]").click()
        row = page.locator(f"[data-testid=deck-row][data-card='{slug}'] [data-testid=row-count]")
        assert row.text_content() == str(copies)
    assert page.text_content("[data-testid=deck-total]") == f"{DECK_SIZE} / 50"
    status = page.locator("[data-testid=legality-status]")
    status.filter(has_text=LEGAL).wait_for()
    assert page.locator("[data-testid=legality-error]").count() == 0

    # A 5th copy of a card: the live legality panel shows the C-3.2 error; back to 4 clears it.
    first, first_copies = plan[0]
    assert first_copies == MAX_COPIES
    first_row = page.locator(f"[data-testid=deck-row][data-card='{slug_of(first)}']")
    first_row.locator("[data-testid=row-plus]").click()
    c_3_2 = page.locator("[data-testid=legality-error][data-rule='C-3.2']")
    c_3_2.wait_for()
    assert f"5 copies of {first['name']}" in c_3_2.text_content()
    assert "(C-3.2)" in c_3_2.text_content()
    assert status.text_content() == "Not legal yet"
    first_row.locator("[data-testid=row-minus]").click()
    c_3_2.wait_for(state="detached")
    status.filter(has_text=LEGAL).wait_for()

    # Saved as it was built, with no button to press; the database holds exactly the built deck.
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    deck = Deck.objects.get(pk=deck_id)
    built = {slug_of(card): copies for card, copies in plan}
    assert deck_counts(deck) == built
    assert deck.owner.username == "builder"

    # Export as text.
    page.click("[data-testid=export-text]")
    output = page.locator("[data-testid=export-output]")
    page.wait_for_function("document.querySelector('[data-testid=export-output]').value.length > 0")
    text = output.input_value()
    for card, copies in plan:
        assert f"{copies} {card['name']}" in text

    # Re-import the text as a new deck from the deck list; cards and counts match.
    page.goto(f"{url}/decks/")
    page.fill("[data-testid=import-name]", "Reimported")
    page.fill("[data-testid=import-text]", text)
    page.click("[data-testid=import-submit]")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    page.wait_for_selector("#deck-builder[data-ready=true]")
    new_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert new_id != deck_id
    reimported = Deck.objects.get(pk=new_id)
    assert reimported.name == "Reimported"
    assert deck_counts(reimported) == built
    assert reimported.faction is not None and reimported.faction.slug == faction
    shown = Counter(
        {
            row.get_attribute("data-card"): int(row.locator("[data-testid=row-count]").text_content())
            for row in page.locator("[data-testid=deck-row]").all()
        }
    )
    assert shown == Counter(built)
    assert page.text_content("[data-testid=deck-total]") == f"{DECK_SIZE} / 50"
