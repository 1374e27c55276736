"""Cards for the browser tests: the project's sample set when it exists, else a small set made here.

Both go through `cards.card_files.cards_import` (the cards app's own importer), so the browser test
exercises the same data path as `manage.py load_sample_cards`.
"""

from __future__ import annotations

import json
from typing import Any

from cards.card_files import cards_import
from cards.records import card_record
from matches.engine.decks import SAMPLE_CARDS


def _unit(
    name: str, faction: str, cp: int, energy: int, power: int, health: int, arrows: list[str], **extra: Any
) -> dict[str, Any]:
    return card_record(
        name=name,
        faction=faction,
        type="unit",
        command_cost=cp,
        energy_cost=energy,
        power=power,
        health=health,
        arrows=arrows,
        **extra,
    )


def _event(name: str, faction: str, cp: int, energy: int, event_type: str, text: str) -> dict[str, Any]:
    return card_record(
        name=name,
        faction=faction,
        type="event",
        command_cost=cp,
        energy_cost=energy,
        event_type=event_type,
        rules_text=text,
    )


def fallback_card_file() -> dict[str, Any]:
    """A small, valid card file: two factions, 15 Ember cards (one Legendary) and 4 Tide cards."""
    ember = [
        _unit("Ember Scout", "ember", 1, 0, 2000, 3000, ["N"]),
        _unit(
            "Ember Archer",
            "ember",
            2,
            0,
            2000,
            3000,
            ["N", "NE", "NW"],
            keywords=["range_attack"],
            rules_text="Range Attack.",
        ),
        _unit(
            "Ember Spotter",
            "ember",
            2,
            1,
            1000,
            4000,
            ["N", "E", "W"],
            keywords=["marking"],
            rules_text="Marking.",
        ),
        _unit("Ember Guard", "ember", 2, 0, 2000, 5000, ["N", "S"]),
        _unit("Ember Lancer", "ember", 3, 0, 3000, 4000, ["N", "NE"]),
        _unit("Ember Knight", "ember", 3, 1, 4000, 5000, ["N", "E", "W"]),
        _unit("Ember Drake", "ember", 4, 1, 5000, 5000, ["N", "NE", "NW", "S"]),
        _unit("Ember Titan", "ember", 5, 2, 6000, 8000, ["N", "S", "E", "W"]),
        _unit(
            "Ash Phoenix",
            "ember",
            6,
            2,
            7000,
            6000,
            ["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
            legendary=True,
            flavor_text="It rises every dawn.",
        ),
        _event("Fireball", "ember", 2, 1, "planning", "Deal 3000 damage to a chosen enemy unit."),
        _event(
            "Flame Wall", "ember", 1, 0, "defensive", "A chosen friendly unit gets +2000 Health this turn."
        ),
        {
            **_event(
                "Kindle", "ember", 0, 0, "planning", "A friendly unit you choose gets +1500 Power this turn."
            ),
            "abilities": [
                {
                    "trigger": "on_play",
                    "effects": [
                        {
                            "effect": "modify_power",
                            "target": "chosen_friendly_unit",
                            "amount": 1500,
                            "duration": "turn",
                        }
                    ],
                }
            ],
        },
        _event("War Banner", "ember", 2, 0, "ongoing", "The attached unit gets +1000 Power."),
        _event("Ember Rain", "ember", 3, 1, "planning", "Deal 2000 damage to each enemy unit in a line."),
        _event("Smoke Screen", "ember", 1, 0, "defensive", "Return a chosen friendly unit to hand."),
    ]
    tide = [
        _unit("Tide Caller", "tide", 1, 0, 1000, 3000, ["N"]),
        _unit("Tide Serpent", "tide", 3, 1, 3000, 5000, ["N", "E", "W"]),
        _unit("Deep Leviathan", "tide", 6, 2, 6000, 9000, ["N", "S"], legendary=True),
        _event("Undertow", "tide", 1, 0, "planning", "Move a chosen enemy unit."),
    ]
    return {
        "format": "commandeer-cards",
        "version": 1,
        "factions": [
            {"slug": "ember", "name": "Ember", "description": "Fire and fury.", "color": "#c0392b"},
            {"slug": "tide", "name": "Tide", "description": "Patience of the sea.", "color": "#2471a3"},
        ],
        "keywords": [
            {
                "code": "range_attack",
                "name": "Range Attack",
                "reminder_text": "Attacks along the arrow's whole line.",
            },
            {
                "code": "marking",
                "name": "Marking",
                "reminder_text": "Your Range Attack units deal +1000 to it.",
            },
        ],
        "cards": ember + tide,
    }


def load_cards() -> dict[str, Any]:
    """Import the sample set (or the fallback set) and return the card file that was imported."""
    data = json.loads(SAMPLE_CARDS.read_text()) if SAMPLE_CARDS.exists() else fallback_card_file()
    report = cards_import(data)
    assert report.ok, report.summary()
    return data
