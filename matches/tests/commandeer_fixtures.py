"""Helpers that put the sample card set and legal decks in the database (Commandeer matches in tests)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management import call_command

from decks import services as deck_services
from decks.selectors import card_queryset


def load_cards() -> None:
    """Import the sample card set (idempotent)."""
    if not card_queryset().exists():
        call_command("load_sample_cards", verbosity=0)


def legal_deck(user: Any, faction: str, *, size: int = 50) -> Any:
    """A legal deck of `faction` for `user`, built by the engine's deterministic deck builder."""
    from matches.games.registry import get_game

    load_cards()
    from matches.engine import build_deck

    catalog = get_game("commandeer")._catalog()  # type: ignore[attr-defined]
    built = build_deck(catalog, faction, size=size)
    counts = Counter(c["name"] for c in built["cards"])
    slugs = {c.name: c.slug for c in card_queryset()}
    return deck_services.deck_create(
        owner=user,
        name=f"{user.get_username()} {faction}",
        faction=faction,
        cards=[(slugs[n], k) for n, k in counts.items()],
    )


def illegal_deck(user: Any, faction: str) -> Any:
    """A 10-card draft: breaks C-3.1."""
    load_cards()
    card = card_queryset().filter(faction__slug=faction, legendary=False).first()
    return deck_services.deck_create(owner=user, name="draft", faction=faction, cards=[(card.slug, 4)])
