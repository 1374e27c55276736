"""Match set-up reads each seat's deck cheaply and exactly as the deck builder does (C-3, C-4.1).

Create, join and start each check a deck (start again, C-3); `decks.selectors.deck_play_get` reads it
with one `values()` query instead of model rows with prefetches. These tests pin that cost in queries
and pin the result to the model path it replaced (`deck_get_readable` + `deck_legality` + `card_to_dict`).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Card, Faction, Keyword
from cards.services import card_to_dict
from config.errors import ApplicationError
from decks import selectors as deck_selectors
from decks.models import Deck, DeckCard, Visibility
from matches.games.registry import get_game
from matches.services.lobby import match_create, match_join, match_start
from matches.tests.commandeer_fixtures import legal_deck, load_cards

pytestmark = pytest.mark.django_db


def _sql(ctx: CaptureQueriesContext) -> list[str]:
    """Statements that reach the database (transaction bookkeeping left out)."""
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].upper().startswith(skip)]


def _model_path(*, user: Any, deck_id: int) -> tuple[Any, dict[str, Any]] | str:
    """What match set-up read before: model rows with prefetches, one card_to_dict per copy."""
    try:
        deck = deck_selectors.deck_get_readable(user=user, deck_id=deck_id)
    except ApplicationError as exc:
        return exc.code
    cards: list[dict[str, Any]] = []
    for card, count in deck_selectors.deck_entries(deck):
        cards.extend(card_to_dict(card) for _ in range(count))
    commander = deck.commander.name if deck.commander_id else None
    snapshot = {"cards": cards, "commander": commander, "deck_id": deck.pk, "name": deck.name}
    return deck_selectors.deck_legality(deck), snapshot


def _play_path(*, user: Any, deck_id: int) -> tuple[Any, dict[str, Any]] | str:
    try:
        deck = deck_selectors.deck_play_get(user=user, deck_id=deck_id, with_cards=True)
    except ApplicationError as exc:
        return exc.code
    cards: list[dict[str, Any]] = []
    for card, count in deck.cards:
        cards.extend([card] * count)
    snapshot = {"cards": cards, "commander": deck.commander, "deck_id": deck.pk, "name": deck.name}
    return deck.legality, snapshot


def _deck(owner: Any, name: str, cards: list[tuple[Card, int]], **fields: Any) -> Deck:
    deck = Deck.objects.create(owner=owner, name=name, **fields)
    DeckCard.objects.bulk_create(DeckCard(deck=deck, card=c, count=n) for c, n in cards)
    return deck


def test_seat_deck_check_and_snapshot_read_the_deck_in_one_query_each(alice: Any) -> None:
    deck = legal_deck(alice, "stonehold")
    game = get_game("commandeer")
    with CaptureQueriesContext(connection) as check:
        game.seat_deck_check(user=alice, deck_id=deck.pk)
    with CaptureQueriesContext(connection) as snap:
        snapshot = game.seat_deck_snapshot(user=alice, deck_id=deck.pk)
    assert len(_sql(check)) == 1, _sql(check)
    assert len(_sql(snap)) == 1, _sql(snap)
    assert snapshot == _model_path(user=alice, deck_id=deck.pk)[1]  # type: ignore[index]
    assert len(snapshot["cards"]) == 50


def test_match_start_reads_each_seat_deck_once(alice: Any, bob: Any) -> None:
    """C-3: start validates both decks again and snapshots them — one deck query per seat."""
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    with CaptureQueriesContext(connection) as ctx:
        match_start(match_id=match.pk, user=alice)
    deck_reads = [q for q in _sql(ctx) if "decks_deck" in q and q.lstrip().upper().startswith("SELECT")]
    assert len(deck_reads) == 2, deck_reads


def test_play_path_gives_the_model_paths_verdict_and_cards_on_odd_decks(alice: Any, bob: Any) -> None:
    """Mixed factions, too many copies, bad or absent Commanders, empty and private decks, keywords."""
    load_cards()
    cards = list(Card.objects.order_by("name"))
    keyword_codes = list(Keyword.objects.order_by("code"))
    cards[1].keywords.set(keyword_codes[:3])  # several keywords on one card: one row each in the query
    cards[2].keywords.clear()
    factions = list(Faction.objects.order_by("slug"))
    legendary = [c for c in cards if c.legendary and c.card_type == "unit"]
    not_legendary = next(c for c in cards[:14] if not c.legendary)
    decks = [
        legal_deck(alice, "stonehold"),
        _deck(alice, "mixed, no faction", [(c, 3) for c in cards[:20]]),
        _deck(
            bob,
            "too many, public",
            [(c, 5) for c in cards[:14]],
            faction=factions[0],
            commander=not_legendary,
            visibility=Visibility.PUBLIC,
        ),
        _deck(bob, "empty", [], faction=factions[1], commander=legendary[0]),
        _deck(bob, "commander outside", [(cards[0], 2)], commander=legendary[-1]),
    ]
    legal = decks[0]
    cmd = next(c for c, _ in deck_selectors.deck_entries(legal) if c.legendary and c.card_type == "unit")
    legal.commander = cmd
    legal.save(update_fields=["commander"])
    checked = 0
    for deck in decks:
        for user in (alice, bob):
            expected = _model_path(user=user, deck_id=deck.pk)
            assert _play_path(user=user, deck_id=deck.pk) == expected, (deck.name, user)
            checked += 0 if isinstance(expected, str) else 1
    assert _play_path(user=alice, deck_id=10**9) == "not_found"
    assert checked == 6  # private decks of the other player are not_found, on both paths


def test_a_card_edit_is_seen_by_the_next_check(alice: Any) -> None:
    """Nothing about cards is cached: an admin's edit between join and start is validated (C-3)."""
    deck = legal_deck(alice, "stonehold")
    card = next(c for c, _ in deck_selectors.deck_entries(deck))
    game = get_game("commandeer")
    game.seat_deck_check(user=alice, deck_id=deck.pk)
    Card.objects.filter(pk=card.pk).update(faction=Faction.objects.exclude(slug="stonehold").first())
    with pytest.raises(ApplicationError) as exc:
        game.seat_deck_snapshot(user=alice, deck_id=deck.pk)
    assert exc.value.code == "invalid_deck" and "C-3.4" in exc.value.extra["rules"]
