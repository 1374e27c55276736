"""`make run` publishes a legal starter deck per faction, so a newcomer can play against the AI at once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from cards.models import Faction
from decks.models import Deck, Visibility
from decks.selectors import deck_legality

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample_cards() -> None:
    call_command("load_sample_cards", verbosity=0)


def test_every_faction_gets_a_public_legal_starter_deck_c_3(sample_cards: None) -> None:
    call_command("starter_decks")
    starters = Deck.objects.filter(owner__username="starter")
    assert {d.faction.slug for d in starters} == set(Faction.objects.values_list("slug", flat=True))
    for deck in starters:
        assert deck.visibility == Visibility.PUBLIC
        legality = deck_legality(deck)
        assert legality.valid, (deck.name, legality.errors)
        assert sum(entry.count for entry in deck.entries.all()) >= 50


def test_starter_decks_are_created_once_and_the_demo_player_gets_private_copies(sample_cards: None) -> None:
    get_user_model().objects.create_user(username="player", password="x-Long-password-1")
    call_command("starter_decks")
    call_command("starter_decks")
    factions = Faction.objects.count()
    assert Deck.objects.filter(owner__username="starter").count() == factions
    copies = Deck.objects.filter(owner__username="player")
    assert copies.count() == factions
    assert set(copies.values_list("visibility", flat=True)) == {Visibility.PRIVATE}
    assert not get_user_model().objects.get(username="starter").has_usable_password()
