"""Abilities in plain words (admin, API, docs, sample-set checker) are generated from the structured data."""

from __future__ import annotations

import json

import pytest

from cards.describe import (
    ATTACH_SENTENCE,
    TARGET_PHRASES,
    TRIGGER_PHRASES,
    describe_abilities,
    describe_ability,
    describe_effect,
    rules_text_for,
)
from matches.engine.decks import SAMPLE_CARDS
from matches.engine.vocabulary import EFFECTS, TARGETS, TRIGGERS

SAMPLE = SAMPLE_CARDS
DEPLOY_DAMAGE = {
    "trigger": "deploying",
    "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}],
}


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


def test_deploying_damage_reads_like_the_card_c_7_2():
    assert describe_ability(DEPLOY_DAMAGE) == (
        "Deploying: when this unit enters the battlefield, deal 1000 damage to an enemy unit you choose."
    )


def test_player_effects_conjugate_for_the_opponent():
    ability = {
        "trigger": "spoil",
        "effects": [
            {"effect": "draw", "target": "controller", "count": 2},
            {"effect": "discard", "target": "opponent", "count": 1},
        ],
    }
    assert describe_ability(ability) == (
        "Spoil: when this unit causes an enemy unit to be defeated, "
        "draw 2 cards, then your opponent discards 1 card of their choice."
    )


def test_durations_and_continuous_formation_c_7_6():
    turn = {"effect": "modify_power", "target": "self", "amount": -1000}
    assert describe_effect(turn) == "this unit gets -1000 Power until end of turn"
    assert describe_effect(turn | {"duration": "permanent"}) == "this unit gets -1000 Power permanently"
    assert describe_effect(turn, continuous=True) == "this unit has -1000 Power"
    formation = {"trigger": "formation", "x": 4, "effects": [turn | {"amount": 500}]}
    assert describe_ability(formation) == (
        "Formation 4: while you have 4 or more of your units connected to one another, "
        "this unit has +500 Power."
    )


def test_an_activated_ability_usable_while_formation_holds_says_so_c_7_6():
    ability = {
        "trigger": "planning_activated",
        "x": 3,
        "cost": {"cp": 1},
        "effects": [{"effect": "draw", "target": "controller", "count": 1}],
    }
    assert describe_ability(ability) == (
        "Once per turn, during your Planning phase, while you have 3 or more of your units connected to "
        "one another (Formation 3), you may pay 1 CP: draw 1 card."
    )


def test_stat_changes_of_one_target_read_as_one_clause():
    ability = {
        "trigger": "on_play",
        "effects": [
            {"effect": "modify_power", "target": "chosen_friendly_unit", "amount": 1000},
            {"effect": "modify_health", "target": "chosen_friendly_unit", "amount": 1000},
            {
                "effect": "modify_health",
                "target": "chosen_friendly_unit",
                "amount": 500,
                "duration": "permanent",
            },
        ],
    }
    assert describe_ability(ability) == (
        "A friendly unit you choose gets +1000 Power and +1000 Health until end of turn, "
        "then a friendly unit you choose gets +500 Health permanently."
    )


def test_activated_costs_and_repetition_c_5_2():
    ability = {
        "trigger": "defending_activated",
        "cost": {"cp": 1, "energy": 2},
        "once_per_turn": False,
        "effects": [{"effect": "gain_cp", "target": "controller", "amount": 1}],
    }
    assert describe_ability(ability) == (
        "Any number of times, during your Defending phase, you may pay 1 CP and 2 Energy: gain 1 CP."
    )
    free = ability | {"cost": {}, "once_per_turn": True}
    assert describe_ability(free).startswith(
        "Once per turn, during your Defending phase, you may use this ability: "
    )


def test_ongoing_event_on_play_reads_when_played_c_1_3():
    on_play = {"trigger": "on_play", "effects": [{"effect": "draw", "target": "controller", "count": 1}]}
    attached = {
        "trigger": "attached",
        "effects": [{"effect": "grant_range_attack", "target": "attached_unit"}],
    }
    assert describe_ability(on_play) == "Draw 1 card."
    assert describe_ability(on_play, event_type="ongoing") == "When you play this event, draw 1 card."
    # an 'attached' ability exists only on Ongoing events, so the list alone says which card it is
    assert describe_abilities([attached, on_play]) == [
        "The attached unit has Range Attack.",
        "When you play this event, draw 1 card.",
    ]
    assert describe_abilities([on_play], event_type="planning") == ["Draw 1 card."]


def test_rules_text_has_attach_sentence_plain_keywords_then_abilities():
    card = {
        "event_type": None,
        "keywords": ["deploying", "marking", "range_attack"],
        "abilities": [DEPLOY_DAMAGE],
    }
    assert rules_text_for(card).split("\n") == ["Range Attack.", "Marking.", describe_ability(DEPLOY_DAMAGE)]
    ongoing = {"event_type": "ongoing", "keywords": [], "abilities": []}
    assert rules_text_for(ongoing) == ATTACH_SENTENCE


@pytest.mark.skipif(not SAMPLE.exists(), reason="no sample card set")
def test_every_sample_card_reads_exactly_as_printed():
    """The sample cards' texts are what players read; the renderer must reproduce them word for word."""
    cards = json.loads(SAMPLE.read_text(encoding="utf-8"))["cards"]
    assert len(cards) >= 90
    for card in cards:
        assert rules_text_for(card) == card["rules_text"], card["name"]
        assert describe_abilities(card["abilities"]) == [a["text"] for a in card["abilities"]], card["name"]


def test_invalid_data_is_described_without_crashing():
    assert describe_abilities("nonsense") == []
    assert describe_abilities([42]) == ["(invalid ability)"]
    assert describe_effect("boom") == "(invalid effect)"
    assert describe_ability({"trigger": "sneeze", "effects": [{"effect": "explode", "target": "self"}]}) == (
        "Unknown trigger 'sneeze': unknown effect 'explode'."
    )
    assert describe_ability({"trigger": "deploying"}) == (
        "Deploying: when this unit enters the battlefield, (no effect)."
    )
    assert describe_ability(
        {"trigger": "formation", "effects": [{"effect": "defeat", "target": "nobody"}]}
    ) == ("Formation ?: while you have ? or more of your units connected to one another, defeat 'nobody'.")
    odd = {"trigger": "planning_activated", "cost": "lots", "effects": [{"effect": "modify_power"}, 7]}
    assert describe_ability(odd) == (
        "Once per turn, during your Planning phase, you may use this ability: "
        "'None' gets None Power until end of turn, then (invalid effect)."
    )
    assert rules_text_for("not a card") == ""
    assert rules_text_for({"keywords": "marking", "abilities": None}) == ""
