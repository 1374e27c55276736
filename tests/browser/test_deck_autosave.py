"""The deck builder saves as you go: every change is saved a moment later with its state shown, a
failed save keeps the change and offers a retry, leaving with an unsaved change asks first, and the last
changes undo (button and Ctrl+Z). An import with a typo keeps the lines it knows and offers one click
to fix each other line; an empty deck's draw odds print no "null". At 1400×900 and 390×844."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cards.models import Card
from decks import services as deck_services
from decks.models import Deck
from tests.browser.cardset import load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"
SIZES = [{"width": 1400, "height": 900}, {"width": 390, "height": 844}]


def log_in(page: Any, url: str, username: str) -> None:
    get_user_model().objects.create_user(username, password=PASSWORD)
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")


def counts(deck: Deck) -> dict[str, int]:
    return {e.card.slug: e.count for e in deck.entries.select_related("card")}


def save_state(page: Any) -> str:
    return str(page.get_attribute("[data-testid=save-state]", "data-state"))


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", SIZES, ids=["laptop", "phone"])
def test_changes_save_themselves_a_failed_save_keeps_them_and_undo_goes_back(
    live_server: Any, browser_page: Any, size: dict[str, int]
) -> None:
    page, url = browser_page, live_server.url
    page.set_viewport_size(size)
    load_cards()
    log_in(page, url, "saver")
    owner = get_user_model().objects.get(username="saver")
    cards = list(Card.objects.filter(faction__slug="cinder-legion", legendary=False).order_by("name")[:2])
    deck = deck_services.deck_create(owner=owner, name="Autosaved", faction="cinder-legion")
    page.goto(f"{url}/decks/{deck.pk}/")
    page.wait_for_selector("#deck-builder[data-ready=true]")
    assert save_state(page) == "saved" and page.is_disabled("[data-testid=deck-undo]")
    # an empty deck: the draw odds say what to do and print no "null"
    page.locator("[data-draw-odds]").filter(has_text="Save some cards").wait_for()
    assert "null" not in page.text_content("[data-draw-odds]")

    search = page.locator("#builder-search")

    def add(card: Card) -> None:
        search.locator("[data-testid=card-search-input]").fill(f'name:"{card.name}"')
        search.locator("[data-testid=card-search-input]").press("Enter")
        search.locator(f"[data-testid=card-tile][data-card='{card.slug}'] [data-testid=add-card]").click()

    # One click, no button: "Saving…", then "Saved" and the database has the card within seconds.
    add(cards[0])
    add(cards[0])
    page.wait_for_selector("[data-testid=save-state][data-state=saved]", timeout=5_000)
    assert counts(Deck.objects.get(pk=deck.pk)) == {cards[0].slug: 2}
    assert page.text_content("[data-testid=save-state]") == "Saved"

    # The server fails: the change stays on the page, marked "Not saved", with a retry; leaving asks first.
    page.route(re.compile(rf".*/api/decks/{deck.pk}/$"), lambda route: route.abort()
               if route.request.method == "PUT" else route.continue_())  # fmt: skip
    add(cards[1])
    page.wait_for_selector("[data-testid=save-state][data-state=failed]")
    assert page.text_content("[data-testid=save-state]").startswith("Not saved")
    assert page.is_visible("[data-testid=deck-save-retry]")
    assert page.locator(f"[data-testid=deck-row][data-card='{cards[1].slug}']").count() == 1
    assert counts(Deck.objects.get(pk=deck.pk)) == {cards[0].slug: 2}
    asks = page.evaluate(
        "() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
        " return e.defaultPrevented; }"
    )
    assert asks is True
    if size["width"] > 600:
        page.screenshot(path="/tmp/deck-autosave-failed.png")
    page.unroute(re.compile(rf".*/api/decks/{deck.pk}/$"))
    page.click("[data-testid=deck-save-retry]")
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    assert counts(Deck.objects.get(pk=deck.pk)) == {cards[0].slug: 2, cards[1].slug: 1}
    assert (
        page.evaluate(
            "() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
            " return e.defaultPrevented; }"
        )
        is False
    )

    # Undo: Ctrl+Z takes the last card out again (and saves that), the button the one before.
    page.evaluate("document.activeElement && document.activeElement.blur()")  # not in a text field
    page.keyboard.press("Control+z")
    page.locator(f"[data-testid=deck-row][data-card='{cards[1].slug}']").wait_for(state="detached")
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    page.wait_for_function("document.querySelector('[data-testid=deck-total]').textContent.startsWith('2 ')")
    assert counts(Deck.objects.get(pk=deck.pk)) == {cards[0].slug: 2}
    page.click("[data-testid=deck-undo]")
    page.wait_for_function("document.querySelector('[data-testid=row-count]').textContent === '1'")
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    assert counts(Deck.objects.get(pk=deck.pk)) == {cards[0].slug: 1}

    # Typing in the name saves too; the revision history shows one revision for the sitting.
    page.fill("[data-testid=deck-name]", "Autosaved and renamed")
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    assert Deck.objects.get(pk=deck.pk).name == "Autosaved and renamed"
    assert list(Deck.objects.get(pk=deck.pk).revisions.values_list("note", flat=True)) == ["saved", "created"]
    no_sideways_scroll(page)
    page.screenshot(path=f"/tmp/deck-autosave-{size['width']}.png", full_page=False)


@pytest.mark.parametrize("size", SIZES, ids=["laptop", "phone"])
def test_an_import_with_a_typo_keeps_the_known_lines_and_fixes_the_other_in_one_click(
    live_server: Any, browser_page: Any, size: dict[str, int]
) -> None:
    page, url = browser_page, live_server.url
    page.set_viewport_size(size)
    load_cards()
    log_in(page, url, "importer")
    known, meant = list(
        Card.objects.filter(faction__slug="cinder-legion", legendary=False).order_by("name")[:2]
    )
    typo = meant.name[:-1]
    text = f"4 {known.name}\n2 {typo}\n"

    # Imported as a new deck from the deck list: the known line is saved, the typo waits on the builder.
    page.goto(f"{url}/decks/")
    page.fill("[data-testid=import-name]", "Partly typed")
    page.fill("[data-testid=import-text]", text)
    page.click("[data-testid=import-submit]")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    page.wait_for_selector("#deck-builder[data-ready=true]")
    deck = Deck.objects.get(name="Partly typed")
    assert counts(deck) == {known.slug: 4}
    leftover = page.locator("[data-testid=import-leftover]")
    assert leftover.count() == 1 and "Line 2" in leftover.text_content() and typo in leftover.text_content()
    leftover.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/deck-import-leftovers-{size['width']}.png")
    no_sideways_scroll(page)
    fix = leftover.locator(f"[data-testid=import-fix][data-card='{meant.slug}']")
    assert fix.text_content() == f"Add 2 copies of {meant.name}"
    fix.click()
    page.locator(f"[data-testid=deck-row][data-card='{meant.slug}'] [data-testid=row-count]").filter(
        has_text="2"
    ).wait_for()
    assert page.locator("[data-testid=import-leftovers]").is_hidden()
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    assert counts(Deck.objects.get(pk=deck.pk)) == {known.slug: 4, meant.slug: 2}

    # "Replace this deck's cards" with a typo: the known lines replace the cards, the other is offered.
    page.fill("[data-testid=builder-import-text]", f"3 {meant.name}\n1 {typo}\n")
    page.click("[data-testid=import-replace]")
    leftover.wait_for()
    page.wait_for_selector("[data-testid=save-state][data-state=saved]")
    assert counts(Deck.objects.get(pk=deck.pk)) == {meant.slug: 3}
    assert page.is_hidden("[data-testid=builder-import-error]")
    leftover.locator("[data-testid=import-leftover-dismiss]").click()
    assert page.locator("[data-testid=import-leftovers]").is_hidden()
