"""Publish one legal starter deck per faction (owned by the 'starter' account) so a new player can play at once."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cards.models import Card
from decks import services as deck_services
from decks.models import Deck, Visibility
from matches.engine.cards import build_deck, factions_of, load_card_file
from matches.engine.decks import load_sample

STARTER_OWNER = "starter"


class Command(BaseCommand):
    help = "Create (once) a public, legal 50-card starter deck per sample faction; 'player' gets copies too."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        data = load_sample()
        if data is None:
            raise CommandError("cards/data/sample_cards.json is missing: run load_sample_cards first")
        catalog = load_card_file(data)
        by_name = {c.name: c for c in Card.objects.select_related("faction")}
        user_model = get_user_model()
        owner, created = user_model.objects.get_or_create(username=STARTER_OWNER)
        if created:
            owner.set_unusable_password()
            owner.save()
        owners = [owner, *user_model.objects.filter(username="player")]
        made = 0
        for faction in factions_of(catalog):
            deck = build_deck(catalog, faction)
            counts = Counter(card["name"] for card in deck["cards"])
            missing = sorted(name for name in counts if name not in by_name)
            if missing:
                raise CommandError(f"starter deck {faction}: cards not in the database: {', '.join(missing)}")
            faction_name = by_name[next(iter(counts))].faction.name
            name = f"Starter: {faction_name}"
            for user in owners:
                if Deck.objects.filter(owner=user, name=name).exists():
                    continue
                deck_services.deck_create(
                    owner=user,
                    name=name,
                    faction=faction,
                    notes="A legal 50-card deck built from the sample set. Copy it and make it your own.",
                    visibility=Visibility.PUBLIC if user == owner else Visibility.PRIVATE,
                    cards=[(by_name[n].slug, c) for n, c in sorted(counts.items())],
                )
                made += 1
        self.stdout.write(f"starter decks: {made} created")
