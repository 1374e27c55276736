"""Deck test data: a small two-faction card pool, as plain card JSON and as database rows."""

from __future__ import annotations

from typing import Any

import pytest

from cards.records import card_record
from cards.services import card_model_fields
from decks.cardfacts import CardFacts, card_facts


def unit(
    name: str,
    faction: str = "fire",
    cp: int = 1,
    energy: int = 0,
    power: int = 2000,
    health: int = 3000,
    legendary: bool = False,
    keywords: tuple[str, ...] = (),
) -> dict[str, Any]:
    return card_record(
        name=name,
        faction=faction,
        type="unit",
        command_cost=cp,
        energy_cost=energy,
        power=power,
        health=health,
        arrows=["N"],
        legendary=legendary,
        keywords=list(keywords),
    )


def event(
    name: str, faction: str = "fire", cp: int = 1, energy: int = 0, unique: bool = False
) -> dict[str, Any]:
    return card_record(
        name=name,
        faction=faction,
        type="event",
        command_cost=cp,
        energy_cost=energy,
        unique=unique,
        event_type="planning",
    )


# 12 common Fire cards (4 copies each = 48), a Legendary unit, a Unique event, and a Water card.
POOL: list[dict[str, Any]] = [
    unit("Ember Scout", cp=1, power=1000, health=2000),
    unit("Ash Runner", cp=1, power=2000, health=2000, keywords=("range_attack",)),
    unit("Cinder Guard", cp=2, power=2000, health=4000),
    unit("Flame Archer", cp=2, energy=1, power=3000, health=2000, keywords=("range_attack",)),
    unit("Kiln Warden", cp=3, power=3000, health=5000),
    unit("Magma Brute", cp=3, energy=1, power=4000, health=5000),
    unit("Pyre Knight", cp=4, energy=2, power=5000, health=5000, keywords=("marking",)),
    unit("Smoke Sentry", cp=2, power=1000, health=4000),
    event("Fire Bolt", cp=1),
    event("Heat Wave", cp=2, energy=1),
    event("Scorched Earth", cp=3, energy=2),
    event("Spark Ritual", cp=0),
    unit("Blaze Queen", cp=5, energy=2, power=6000, health=7000, legendary=True),
    event("Inferno", cp=4, energy=3, unique=True),
    unit("Tide Caller", faction="water", cp=2, power=2000, health=3000),
]
COMMONS = [c["name"] for c in POOL[:12]]

for _c in POOL:
    _c["slug"] = _c["name"].lower().replace(" ", "-")

FACTIONS = {"fire": "Fire", "water": "Water"}


def facts(name: str) -> CardFacts:
    """The pool card called `name` as CardFacts (pure tests)."""
    card = next(c for c in POOL if c["name"] == name)
    return card_facts({**card, "faction": {"slug": card["faction"], "name": FACTIONS[card["faction"]]}})


def legal_entries() -> list[tuple[CardFacts, int]]:
    """A legal 50-card Fire deck: 12 commons x4, the Legendary unit and the Unique event."""
    return [(facts(n), 4) for n in COMMONS] + [(facts("Blaze Queen"), 1), (facts("Inferno"), 1)]


@pytest.fixture
def pool_facts() -> list[CardFacts]:
    return [facts(c["name"]) for c in POOL]


@pytest.fixture
def cards(db: Any) -> dict[str, Any]:
    """The pool as database rows, keyed by name."""
    from cards.models import Card, Faction, Keyword
    from matches.engine.vocabulary import KEYWORDS

    factions = {slug: Faction.objects.create(name=name, slug=slug) for slug, name in FACTIONS.items()}
    keywords = {
        code: Keyword.objects.create(code=code, name=code.replace("_", " ").title(), reminder_text=text)
        for code, text in KEYWORDS.items()
    }
    rows: dict[str, Any] = {}
    for c in POOL:
        card = Card.objects.create(slug=c["slug"], faction=factions[c["faction"]], **card_model_fields(c))
        card.keywords.set([keywords[k] for k in c["keywords"]])
        rows[c["name"]] = card
    return rows


def legal_payload(name: str = "Fire deck", **extra: Any) -> dict[str, Any]:
    """An API write body for the legal deck."""
    cards = [{"card": n.lower().replace(" ", "-"), "count": 4} for n in COMMONS]
    cards += [{"card": "blaze-queen", "count": 1}, {"card": "inferno", "count": 1}]
    return {"name": name, "faction": "fire", "commander": "blaze-queen", "notes": "", "cards": cards, **extra}


LEGAL_TEXT = (
    "\n".join([f"4 {n}" for n in COMMONS] + ["1 Blaze Queen", "1 Inferno", "Commander: Blaze Queen"]) + "\n"
)


def client_for(user: Any = None) -> Any:
    """An API client, signed in as `user` when one is given."""
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
