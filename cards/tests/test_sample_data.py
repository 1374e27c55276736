"""The sample card set (cards/data/sample_cards.json) imports cleanly and meets the set's requirements."""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict

import pytest
from django.core.management import call_command

from cards.card_files import cards_export, cards_import
from cards.models import Card
from matches.engine.decks import SAMPLE_CARDS
from matches.engine.vocabulary import KEYWORDS

SAMPLE = SAMPLE_CARDS
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not SAMPLE.exists(), reason="cards/data/sample_cards.json is not written yet"),
]


@pytest.fixture
def sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def test_sample_set_imports_cleanly_and_idempotently(sample):
    report = cards_import(sample)
    assert report.ok, "\n".join(report.errors)
    assert report.cards["created"] == len(sample["cards"])
    again = cards_import(sample)
    assert again.cards == {"created": 0, "updated": 0, "unchanged": len(sample["cards"])}


def test_sample_set_round_trips_through_export(sample):
    assert cards_import(sample).ok
    exported = cards_export()
    by_name = {c["name"]: c for c in exported["cards"]}
    for card in sample["cards"]:
        mine = by_name[card["name"]]
        for field, value in card.items():
            if field in ("arrows", "keywords"):
                assert sorted(mine[field]) == sorted(value), (card["name"], field)
            else:
                assert mine[field] == value, (card["name"], field)


def test_sample_set_requirements(sample):
    """≥3 factions × ≥30 distinct cards; per faction ≥3 Legendary units and ≥2 Unique events;
    every keyword and every event type used (C-1.3, C-1.4, C-7)."""
    cards = sample["cards"]
    per_faction: dict[str, list[dict]] = defaultdict(list)
    for card in cards:
        per_faction[card["faction"]].append(card)
    big = {f: cs for f, cs in per_faction.items() if len({c["name"] for c in cs}) >= 30}
    assert len(big) >= 3, {f: len(cs) for f, cs in per_faction.items()}
    for faction, faction_cards in big.items():
        legendary_units = [c for c in faction_cards if c["type"] == "unit" and c["legendary"]]
        unique_events = [c for c in faction_cards if c["type"] == "event" and c["unique"]]
        assert len(legendary_units) >= 3, faction
        assert len(unique_events) >= 2, faction
    used_keywords = Counter(code for c in cards for code in c["keywords"])
    assert set(KEYWORDS) <= set(used_keywords), set(KEYWORDS) - set(used_keywords)
    assert {c["event_type"] for c in cards if c["type"] == "event"} >= {"planning", "defensive", "ongoing"}


def test_load_sample_cards_command_is_idempotent():
    call_command("load_sample_cards", stdout=io.StringIO())
    count = Card.objects.count()
    out = io.StringIO()
    call_command("load_sample_cards", stdout=out)
    assert Card.objects.count() == count > 0
    assert "0 created, 0 updated" in out.getvalue()
