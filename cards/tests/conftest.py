"""Small card fixtures for the card database tests (independent of the sample set)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cards.card_files import cards_import
from cards.data.check_sample import KEYWORD_NAMES
from cards.models import Faction, Keyword
from cards.records import card_record
from matches.engine.vocabulary import KEYWORDS


def unit(**overrides: Any) -> dict[str, Any]:
    """A valid unit record in the card JSON format."""
    return card_record(
        **{
            "name": "Ember Scout",
            "faction": "ember",
            "type": "unit",
            "command_cost": 1,
            "power": 2000,
            "health": 3000,
            "arrows": ["N", "E"],
            **overrides,
        }
    )


def event(**overrides: Any) -> dict[str, Any]:
    """A valid Planning event record in the card JSON format."""
    record = unit(
        name="Fire Rain",
        type="event",
        power=None,
        health=None,
        arrows=[],
        event_type="planning",
        abilities=[
            {
                "trigger": "on_play",
                "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}],
            }
        ],
        rules_text="Deal 1000 damage to an enemy unit.",
    )
    record.update(overrides)
    return record


DEPLOY_DAMAGE = {
    "trigger": "deploying",
    "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}],
}


def card_file(cards: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A small valid card file: two factions, every keyword, a handful of cards."""
    return {
        "format": "commandeer-cards",
        "version": 1,
        "factions": [
            {"slug": "ember", "name": "Ember Legion", "description": "Fire.", "color": "#c0392b"},
            {"slug": "tide", "name": "Tide Court", "description": "Water.", "color": "#2980b9"},
        ],
        "keywords": [{"code": c, "name": KEYWORD_NAMES[c], "reminder_text": t} for c, t in KEYWORDS.items()],
        "cards": copy.deepcopy(cards)
        if cards is not None
        else [
            unit(),
            unit(
                name="Ember Warlord",
                command_cost=4,
                energy_cost=2,
                power=5000,
                health=6000,
                arrows=["N", "NE", "NW", "S"],
                legendary=True,
                keywords=["deploying"],
                abilities=[DEPLOY_DAMAGE],
                rules_text="Deploying: deal 1000 damage to an enemy unit.",
            ),
            unit(
                name="Tide Archer",
                faction="tide",
                command_cost=2,
                power=3000,
                health=2000,
                arrows=["N"],
                keywords=["range_attack", "marking"],
                rules_text="Range Attack. Marking.",
            ),
            unit(
                name="Tide Phalanx",
                faction="tide",
                command_cost=3,
                power=3500,
                health=5000,
                arrows=["W", "E"],
                keywords=["formation"],
                abilities=[
                    {
                        "trigger": "formation",
                        "x": 3,
                        "effects": [{"effect": "modify_power", "target": "self", "amount": 1000}],
                    }
                ],
            ),
            event(),
            event(
                name="Tide Shield",
                faction="tide",
                event_type="defensive",
                unique=True,
                abilities=[
                    {
                        "trigger": "on_play",
                        "effects": [{"effect": "heal", "target": "chosen_friendly_unit", "amount": 2000}],
                    }
                ],
                rules_text="Heal a friendly unit.",
            ),
        ],
    }


@pytest.fixture
def small_set(db: Any) -> dict[str, Any]:
    """The small card file, imported."""
    data = card_file()
    report = cards_import(data)
    assert report.ok, report.errors
    return data


@pytest.fixture
def ember(db: Any) -> Faction:
    return Faction.objects.create(slug="ember", name="Ember Legion", color="#c0392b")


@pytest.fixture
def keywords(db: Any) -> dict[str, Keyword]:
    return {
        code: Keyword.objects.create(code=code, name=KEYWORD_NAMES[code], reminder_text=text)
        for code, text in KEYWORDS.items()
    }


@pytest.fixture
def staff_user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="curator", password="pw", is_staff=True)


@pytest.fixture
def staff_client(staff_user: Any) -> Any:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(staff_user)
    return client


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()
