"""Deck builder, public decks and card pages in a real browser: the Faction
filter follows "Only this deck's faction", one request per search with the filters in the address bar,
the C-4.4 sample hand, import messages, the public deck browser (browse signed out, like, copy), the
card page's deck list, and no sideways scroll on a 390×844 phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cards.models import Card
from decks import services as deck_services
from decks.models import Deck, DeckLike, Visibility
from tests.browser.cardset import load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"
PHONE = {"width": 390, "height": 844}


def user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=PASSWORD)


def log_in(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")


def legal_cards(faction: str) -> list[tuple[str, int]]:
    """50 cards of one faction, at most 4 of a name and 1 of a Legendary/Unique one (C-3)."""
    plan, left = [], 50
    for card in Card.objects.filter(faction__slug=faction).order_by("name"):
        copies = min(1 if card.legendary or card.unique else 4, left)
        if copies:
            plan.append((card.slug, copies))
            left -= copies
    assert left == 0, f"{faction} has too few cards for a 50-card deck"
    return plan


def deck_of(owner: Any, name: str, faction: str, visibility: str = Visibility.PRIVATE) -> Deck:
    return deck_services.deck_create(
        owner=owner, name=name, faction=faction, visibility=visibility, cards=legal_cards(faction)
    )


def other_faction_card(faction: str) -> Card:
    return Card.objects.exclude(faction__slug=faction).order_by("name").first()


def test_the_faction_filter_follows_the_only_this_decks_faction_checkbox(
    live_server: Any, browser_page: Any
) -> None:
    page, url = browser_page, live_server.url
    load_cards()
    owner = user("builder")
    deck = deck_services.deck_create(owner=owner, name="Half built", faction="cinder-legion")
    stranger = other_faction_card("cinder-legion")
    log_in(page, url, "builder")
    page.goto(f"{url}/decks/{deck.pk}/")
    page.wait_for_selector("#deck-builder[data-ready=true]")
    search = page.locator("#builder-search")
    faction = search.locator("[data-testid=filter-faction]")
    restrict = search.locator("[data-testid=restrict-faction]")

    # Ticked: the dropdown shows the deck's faction and is locked.
    assert restrict.is_checked()
    assert faction.input_value() == "cinder-legion" and faction.is_disabled()

    # Unticked: the dropdown is free again and on "Any faction", so another faction's card is found.
    restrict.uncheck()
    assert faction.is_enabled() and faction.input_value() == ""
    search.locator("[data-testid=card-search-input]").fill(f'name:"{stranger.name}"')
    search.locator("[data-testid=card-search-input]").press("Enter")
    search.locator(f"[data-testid=card-tile][data-card='{stranger.slug}']").wait_for()

    # The player's own choice survives ticking and unticking again.
    faction.select_option(stranger.faction.slug)
    restrict.check()
    assert faction.input_value() == "cinder-legion" and faction.is_disabled()
    search.locator(f"[data-testid=card-tile][data-card='{stranger.slug}']").wait_for(state="detached")
    restrict.uncheck()
    assert faction.input_value() == stranger.faction.slug
    search.locator(f"[data-testid=card-tile][data-card='{stranger.slug}']").wait_for()


def test_each_search_sends_one_request_and_its_filters_live_in_the_address_bar(
    live_server: Any, browser_page: Any
) -> None:
    page, url = browser_page, live_server.url
    load_cards()
    owner = user("searcher")
    deck = deck_services.deck_create(owner=owner, name="Search deck", faction="stonehold")
    log_in(page, url, "searcher")
    page.goto(f"{url}/decks/{deck.pk}/")
    page.wait_for_selector("#deck-builder[data-ready=true]")
    page.wait_for_load_state("networkidle")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/cards/" in r.url else None)
    search = page.locator("#builder-search")
    box = search.locator("[data-testid=card-search-input]")

    # Typing then pressing Enter at once: one request, not one for Enter and one for the typing pause.
    box.fill("cp<=2")
    box.press("Enter")
    page.wait_for_timeout(900)
    assert len(sent) == 1, sent

    # A dropdown: one request; every filter is in the address bar.
    sent.clear()
    search.locator("[data-testid=filter-type]").select_option("unit")
    page.wait_for_timeout(900)
    assert len(sent) == 1, sent
    search.locator("[data-testid=restrict-faction]").uncheck()
    search.locator("[data-testid=filter-cost]").select_option("=2")
    page.wait_for_timeout(500)
    assert re.search(r"[?&]q=cp%3C%3D2", page.url) and "type=unit" in page.url and "cost=2" in page.url
    assert "only=0" in page.url

    # A reload (or the shared link) brings the same search back.
    page.reload()
    page.wait_for_selector("#deck-builder[data-ready=true]")
    page.locator("[data-testid=card-tile]").first.wait_for()  # the search ran with the address bar's filters
    assert box.input_value() == "cp<=2"
    assert search.locator("[data-testid=filter-type]").input_value() == "unit"
    assert search.locator("[data-testid=filter-cost]").input_value() == "=2"
    assert not search.locator("[data-testid=restrict-faction]").is_checked()

    # The card browser keeps its dropdowns in the address bar too.
    page.goto(f"{url}/cards/?faction=veilborn&type=event")
    browser = page.locator("#card-browser")
    browser.locator("[data-testid=card-tile]").first.wait_for()
    assert browser.locator("[data-testid=filter-faction]").input_value() == "veilborn"
    assert browser.locator("[data-testid=filter-type]").input_value() == "event"
    factions = {
        Card.objects.get(slug=tile.get_attribute("data-card")).faction.slug
        for tile in browser.locator("[data-testid=card-tile]").all()
    }
    assert factions == {"veilborn"}


def test_the_sample_hand_mulligans_as_c_4_4_and_an_import_suggestion_shows_once(
    live_server: Any, browser_page: Any
) -> None:
    page, url = browser_page, live_server.url
    load_cards()
    owner = user("shuffler")
    deck = deck_of(owner, "Hand deck", "tidewardens")
    log_in(page, url, "shuffler")
    page.goto(f"{url}/decks/{deck.pk}/")
    page.wait_for_selector("#deck-builder[data-ready=true]")
    hand = page.locator("[data-testid=sample-hand]")
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=sample-hand] [data-testid=hand-card]').length === 6"
    )

    # C-4.4: the 2nd mulligan draws 6 again and asks for 2 cards to put on the bottom.
    page.click("[data-testid=mulligan]")
    page.wait_for_function("document.querySelectorAll('[data-testid=hand-pick]').length === 6")
    page.click("[data-testid=mulligan]")
    page.locator("[data-testid=hand-note]").filter(has_text="Mulligan 2 (C-4.4)").wait_for()
    assert page.locator("[data-sample-hand]").get_attribute("data-hand-state") == "choosing"
    picks = hand.locator("[data-testid=hand-pick]")
    assert picks.count() == 6
    assert page.locator("[data-testid=reinforce]").is_disabled()
    picks.nth(0).click()
    picks.nth(3).click()
    page.locator("[data-sample-hand][data-hand-state=kept]").wait_for()
    assert picks.locator("xpath=self::*[@aria-pressed='true']").count() == 2
    assert "4 cards in hand" in page.text_content("[data-testid=hand-note]")
    page.click("[data-testid=reinforce]")  # C-5.2: draw 2
    assert "6 cards in hand" in page.text_content("[data-testid=hand-note]")

    # Draw odds: a row for every card, exact percentages.
    page.locator("[data-testid=odds-cards] tbody tr").first.wait_for()
    assert page.locator("[data-testid=odds-cards] tbody tr").count() == deck.entries.count()

    # An unknown name: the suggestion is printed once.
    misspelt = Card.objects.filter(faction__slug="tidewardens").order_by("name").first().name
    page.fill("[data-testid=builder-import-text]", f"2 {misspelt[:-1]}")
    page.click("[data-testid=import-replace]")
    error = page.locator("[data-testid=builder-import-error]")
    error.wait_for()
    assert error.text_content().lower().count("did you mean") == 1
    assert error.text_content().count(misspelt) == 1


def test_public_decks_are_browsed_signed_out_then_liked_and_copied(
    live_server: Any, browser_page: Any
) -> None:
    page, url = browser_page, live_server.url
    load_cards()
    alice, bob = user("alice"), user("bob")
    rush = deck_of(alice, "Cinder Rush", "cinder-legion", Visibility.PUBLIC)
    deck_of(bob, "Stone Wall", "stonehold", Visibility.PUBLIC)
    deck_of(alice, "Hidden Plan", "cinder-legion", Visibility.PRIVATE)
    deck_of(alice, "Link Only", "cinder-legion", Visibility.UNLISTED)

    # Signed out: public decks only; search, faction and sort, kept in the address bar.
    page.goto(f"{url}/decks/public/")
    listed = page.locator("[data-testid=public-deck]")
    listed.first.wait_for()
    assert sorted(listed.locator("h3").all_text_contents()) == ["Cinder Rush", "Stone Wall"]
    assert page.locator("[data-testid=like-deck]").count() == 0  # liking needs an account
    page.fill("[data-testid=public-q]", "stone")
    page.press("[data-testid=public-q]", "Enter")
    page.wait_for_function("document.querySelectorAll('[data-testid=public-deck]').length === 1")
    assert listed.locator("h3").all_text_contents() == ["Stone Wall"]
    page.fill("[data-testid=public-q]", "")
    page.select_option("[data-testid=public-faction]", "cinder-legion")
    page.wait_for_function(
        "[...document.querySelectorAll('[data-testid=public-deck] h3')].map(e => e.textContent).join() === 'Cinder Rush'"
    )
    page.select_option("[data-testid=public-sort]", "liked")
    page.wait_for_timeout(300)
    assert "faction=cinder-legion" in page.url and "sort=liked" in page.url

    # A card page lists the public decks that use the card (signed out too).
    card = Card.objects.get(slug=rush.entries.order_by("card__name").first().card.slug)
    page.goto(f"{url}/cards/{card.slug}/")
    page.locator("[data-testid=card-deck]").first.wait_for()
    assert page.locator("[data-testid=card-deck] a").all_text_contents() == ["Cinder Rush"]

    # Signed in as bob: like alice's deck once, see it stay liked, then copy it.
    log_in(page, url, "bob")
    page.goto(f"{url}/decks/public/?faction=cinder-legion")
    item = page.locator(f"[data-testid=public-deck][data-deck='{rush.pk}']")
    like = item.locator("[data-testid=like-deck]")
    like.wait_for()
    like.click()
    page.locator(f"[data-deck='{rush.pk}'] [data-testid=like-deck][aria-pressed=true]").wait_for()
    assert like.text_content().strip() == "♥ 1"
    assert DeckLike.objects.filter(deck=rush).count() == 1
    page.reload()
    page.locator(f"[data-deck='{rush.pk}'] [data-testid=like-deck][aria-pressed=true]").wait_for()
    item.locator("[data-testid=copy-deck]").click()
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    page.wait_for_selector("#deck-builder[data-ready=true]")
    copy = Deck.objects.exclude(pk=rush.pk).get(owner=bob, name="Cinder Rush (copy)")
    assert copy.visibility == Visibility.PRIVATE and copy.copied_from_id == rush.pk
    assert {(e.card_id, e.count) for e in copy.entries.all()} == {
        (e.card_id, e.count) for e in rush.entries.all()
    }


def test_no_sideways_scroll_on_a_phone(live_server: Any, chromium_browser: Any) -> None:
    url = live_server.url
    load_cards()
    owner = user("phoner")
    shared = deck_of(owner, "A deck with a share link", "veilborn", Visibility.UNLISTED)
    public = deck_of(owner, "Phone public", "veilborn", Visibility.PUBLIC)
    context = chromium_browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        log_in(page, url, "phoner")
        for path, ready in [
            (f"/decks/{shared.pk}/", "#deck-builder[data-ready=true]"),
            (f"/decks/{public.pk}/", "#deck-builder[data-ready=true]"),
            ("/decks/public/", "#public-decks[data-ready=true]"),
            (f"/cards/{shared.entries.first().card.slug}/", "[data-testid=card-deck]"),
        ]:
            page.goto(f"{url}{path}")
            page.wait_for_selector(ready)
            page.wait_for_load_state("networkidle")
            widths = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            assert widths[0] <= widths[1], (path, widths)
            page.evaluate("window.scrollTo(200, 0)")
            assert page.evaluate("window.scrollX") == 0, path
    finally:
        context.close()
    assert not errors, errors


def test_a_saved_decks_rows_show_the_cards_text_on_hover(live_server: Any, browser_page: Any) -> None:
    """The card component on the deck list too: a row fetches its card on the first hover and
    shows the same frame as /cards/ with its text."""
    load_cards()
    owner = user("rowan")
    deck = deck_of(owner, "Hover deck", "stonehold")
    page = browser_page
    log_in(page, live_server.url, "rowan")
    page.goto(f"{live_server.url}/decks/{deck.pk}/")
    name = page.locator("[data-testid=row-name]").first
    card = Card.objects.get(faction__slug="stonehold", name=name.inner_text())
    name.hover()
    pop = page.locator("[data-testid=card-pop]")
    pop.wait_for(state="visible")
    expected = str(card.rules_text or "").split("\n")[0][:30]
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).innerText.includes(text)",
        arg=["[data-testid=card-pop]", expected or card.name],
    )
    assert card.name in pop.inner_text()
