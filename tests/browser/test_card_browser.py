"""The card browser and card page in a real browser: query errors, filters, ability descriptions, phone width."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.cardset import load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_malformed_query_shows_the_api_message_and_a_good_query_shows_tiles(
    live_server: Any, browser_page: Any
) -> None:
    load_cards()
    page = browser_page
    page.goto(f"{live_server.url}/cards/")
    page.locator("[data-testid=card-tile]").first.wait_for()
    box = page.locator("input[name=q]")
    box.fill("cp<=")
    box.press("Enter")
    error = page.locator("[data-testid=card-search-error]")
    error.wait_for(state="visible")
    assert "Query problem" in error.text_content()
    assert "cp<=" in error.text_content()
    assert page.locator("[data-testid=card-tile]").count() == 0

    box.fill("t:unit cp<=2")
    box.press("Enter")
    error.wait_for(state="hidden")
    page.locator("[data-testid=card-tile]").first.wait_for()
    assert "q=t%3Aunit" in page.url or "q=t:unit" in page.url  # the query is kept in the address

    page.click(".syntax-help summary")
    popover = page.locator(".syntax-popover")
    assert popover.is_visible()
    for syntax in ("f:cinder", "kw:marking", "pow>=3000", "hp<4000", "legendary"):
        assert syntax in popover.text_content()


def test_type_filter_narrows_results(live_server: Any, browser_page: Any) -> None:
    card_file = load_cards()
    events = sum(1 for c in card_file["cards"] if c["type"] == "event")
    page = browser_page
    page.goto(f"{live_server.url}/cards/")
    page.locator("[data-testid=card-tile]").first.wait_for()
    page.select_option("[data-testid=filter-type]", "event")
    page.locator("[data-search-meta]").filter(has_text=f"of {events} card").wait_for()


def test_card_page_lists_ability_descriptions(live_server: Any, browser_page: Any) -> None:
    from cards.describe import describe_abilities
    from cards.models import Card

    load_cards()
    card = next(c for c in Card.objects.order_by("name") if c.abilities)
    expected = describe_abilities(card.abilities)
    page = browser_page
    page.goto(f"{live_server.url}/cards/{card.slug}/")
    page.locator("#card-detail h1").filter(has_text=card.name).wait_for()
    assert expected, "the card set needs a card with structured abilities"
    items = page.locator("[data-testid=ability-descriptions] li").all_text_contents()
    assert items == expected


def test_pages_fit_a_phone_width(live_server: Any, chromium_browser: Any) -> None:
    """No sideways scrolling at 390 px on the card browser, the deck list and the builder."""
    from django.contrib.auth.models import User

    from decks.services import deck_create

    load_cards()
    user = User.objects.create_user("phone", password="a-long-pass-123")
    deck = deck_create(owner=user, name="A deck with a rather long name for a small phone screen")
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "phone")
        page.fill("#id_password", "a-long-pass-123")
        page.click("form.form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        for path in ("/cards/", "/decks/", f"/decks/{deck.pk}/"):
            page.goto(f"{live_server.url}{path}")
            page.wait_for_load_state("networkidle")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width}px wide at a 390px viewport"
    finally:
        context.close()


def test_load_more_appends_the_next_page(live_server: Any, browser_page: Any) -> None:
    card_file = load_cards()
    page = browser_page
    page.goto(f"{live_server.url}/cards/")
    tiles = page.locator("[data-testid=card-tile]")
    tiles.first.wait_for()
    first_page = tiles.count()
    assert first_page < len(card_file["cards"])
    page.click("[data-load-more]")
    page.wait_for_function(f"document.querySelectorAll('[data-testid=card-tile]').length > {first_page}")
    names = tiles.locator(".card-name").all_text_contents()
    assert len(names) == len(set(names)) == min(2 * first_page, len(card_file["cards"]))
