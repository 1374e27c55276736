"""Abilities in plain words (shown in the admin and the API) are generated from the structured data."""

from __future__ import annotations

import pytest

from cards.describe import (
    TARGET_PHRASES,
    TRIGGER_PHRASES,
    describe_abilities,
    describe_ability,
    describe_effect,
)
from matches.engine.vocabulary import EFFECTS, TARGETS, TRIGGERS


def test_every_trigger_and_target_has_a_phrase():
    assert set(TRIGGER_PHRASES) == set(TRIGGERS)
    assert set(TARGET_PHRASES) == set(TARGETS)


@pytest.mark.parametrize("name", list(EFFECTS))
def test_every_effect_has_a_sentence(name):
    target = "opponent" if EFFECTS[name].targets <= {"controller", "opponent"} else "self"
    effect = {"effect": name, "target": target, "amount": 1000, "count": 2}
    sentence = describe_effect(effect)
    assert "unknown" not in sentence
    assert ("your opponent" in sentence) if target == "opponent" else ("this unit" in sentence)


def test_deploying_damage_reads_like_the_card():
    ability = {
        "trigger": "deploying",
        "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}],
    }
    assert describe_ability(ability) == "Deploying: deal 1000 damage to a chosen enemy unit."


def test_player_effects_conjugate_for_the_opponent():
    ability = {
        "trigger": "spoil",
        "effects": [
            {"effect": "draw", "target": "controller", "count": 2},
            {"effect": "discard", "target": "opponent", "count": 1},
        ],
    }
    assert describe_ability(ability) == "Spoil: draw 2 cards, then your opponent discards 1 card."


def test_durations_and_continuous_abilities():
    turn = {"effect": "modify_power", "target": "self", "amount": -1000}
    assert describe_effect(turn) == "this unit gets -1000 Power until end of turn"
    assert describe_effect(turn | {"duration": "permanent"}) == "this unit gets -1000 Power permanently"
    formation = {"trigger": "formation", "x": 4, "effects": [turn | {"amount": 500}]}
    assert describe_ability(formation) == "Formation 4: this unit gets +500 Power."


def test_activated_costs_and_repetition():
    ability = {
        "trigger": "defending_activated",
        "cost": {"cp": 1, "energy": 2},
        "once_per_turn": False,
        "effects": [{"effect": "gain_cp", "target": "controller", "amount": 1}],
    }
    assert (
        describe_ability(ability)
        == "Defending phase, pay 1 CP and 2 Energy (any number of times): gain 1 CP."
    )


def test_invalid_data_is_described_without_crashing():
    assert describe_abilities("nonsense") == []
    assert describe_abilities([42]) == ["(invalid ability)"]
    assert describe_ability({"trigger": "sneeze", "effects": [{"effect": "explode", "target": "self"}]}) == (
        "Unknown trigger 'sneeze': unknown effect 'explode'."
    )
    assert describe_ability({"trigger": "deploying"}) == "Deploying: (no effect)."
