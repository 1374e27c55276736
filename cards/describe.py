"""Plain-words descriptions of structured card abilities (C-1.5), shown in the admin and the API.

Generated from the ability data (matches/engine/vocabulary.py), never typed by hand, so what players
read is what the rules engine does. Pure Python; tolerant of invalid data (it describes what it can).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.engine.vocabulary import TRIGGERS

TRIGGER_PHRASES: dict[str, str] = {
    "deploying": "Deploying",
    "casting": "Casting",
    "spoil": "Spoil",
    "marking": "Marking",
    "formation": "Formation {x}",
    "start_of_turn": "At the start of your turn",
    "start_of_planning": "At the start of your Planning phase",
    "start_of_defending": "At the start of your Defending phase",
    "on_attack": "When this unit attacks",
    "on_defeated": "When this unit is defeated",
    "planning_activated": "Planning phase",
    "defending_activated": "Defending phase",
    "static": "While on the battlefield",
    "on_play": "When played",
    "attached": "While attached",
}

TARGET_PHRASES: dict[str, str] = {
    "self": "this unit",
    "attached_unit": "the attached unit",
    "attack_target": "the attacked unit",
    "defeated_unit": "the defeated unit",
    "chosen_enemy_unit": "a chosen enemy unit",
    "chosen_friendly_unit": "a chosen friendly unit",
    "chosen_other_friendly_unit": "another chosen friendly unit",
    "chosen_unit": "a chosen unit",
    "adjacent_enemy_units": "each adjacent enemy unit",
    "adjacent_friendly_units": "each adjacent friendly unit",
    "all_enemy_units": "each enemy unit",
    "all_friendly_units": "each of your units",
    "all_other_friendly_units": "each of your other units",
    "controller": "you",
    "opponent": "your opponent",
}


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _signed(amount: Any) -> str:
    return f"+{amount}" if isinstance(amount, int) and amount > 0 else str(amount)


def _duration(effect: Mapping[str, Any], continuous: bool) -> str:
    if continuous:
        return ""  # holds while the trigger's condition holds
    return " permanently" if effect.get("duration") == "permanent" else " until end of turn"


def _player(target: Any, you: str, they: str) -> str:
    """Pick the verb phrase for the player target: 'you draw' vs 'your opponent draws'."""
    return you if target == "controller" else f"{TARGET_PHRASES.get(str(target), str(target))} {they}"


def describe_effect(effect: Any, *, continuous: bool = False) -> str:
    """One effect in plain words, e.g. 'deal 1000 damage to a chosen enemy unit'."""
    if not isinstance(effect, Mapping):
        return "(invalid effect)"
    name = effect.get("effect")
    target = effect.get("target")
    who = TARGET_PHRASES.get(str(target), f"'{target}'")
    amount = effect.get("amount")
    count = effect.get("count")
    if name == "deal_damage":
        return f"deal {amount} damage to {who}"
    if name == "heal":
        return f"remove up to {amount} damage from {who}"
    if name == "modify_power":
        return f"{who} gets {_signed(amount)} Power{_duration(effect, continuous)}"
    if name == "modify_health":
        return f"{who} gets {_signed(amount)} Health{_duration(effect, continuous)}"
    if name == "defeat":
        return f"defeat {who}"
    if name == "return_to_hand":
        return f"return {who} to its owner's hand"
    if name == "move":
        return f"move {who} to an empty square next to another card"
    if name == "remove_from_game":
        return f"remove {who} from the game"
    if name == "grant_range_attack":
        return f"{who} gains Range Attack{_duration(effect, continuous)}"
    if name == "draw":
        return _player(target, f"draw {_plural(count, 'card')}", f"draws {_plural(count, 'card')}")
    if name == "gain_cp":
        return _player(target, f"gain {amount} CP", f"gains {amount} CP")
    if name == "lose_cp":
        return _player(target, f"lose up to {amount} CP", f"loses up to {amount} CP")
    if name == "gain_energy":
        whose = "your" if target == "controller" else "their"
        return _player(
            target,
            f"put the top {_plural(count, 'card')} of your deck into your Energy zone",
            f"puts the top {_plural(count, 'card')} of {whose} deck into {whose} Energy zone",
        )
    if name == "discard":
        return _player(target, f"discard {_plural(count, 'card')}", f"discards {_plural(count, 'card')}")
    if name == "retire_energy":
        return _player(
            target,
            f"move {_plural(count, 'card')} from your Energy zone to your Retired zone",
            f"moves {_plural(count, 'card')} from their Energy zone to their Retired zone",
        )
    return f"unknown effect '{name}'"


def _trigger_phrase(ability: Mapping[str, Any]) -> str:
    name = ability.get("trigger")
    phrase = TRIGGER_PHRASES.get(str(name))
    if phrase is None:
        return f"Unknown trigger '{name}'"
    phrase = phrase.format(x=ability.get("x", "?"))
    trigger = TRIGGERS.get(str(name))
    if trigger is not None and trigger.activated:
        cost = ability.get("cost") or {}
        parts = []
        if isinstance(cost, Mapping):
            if cost.get("cp"):
                parts.append(f"{cost['cp']} CP")
            if cost.get("energy"):
                parts.append(f"{cost['energy']} Energy")
        phrase += f", pay {' and '.join(parts)}" if parts else ", free"
        phrase += " (once per turn)" if ability.get("once_per_turn", True) else " (any number of times)"
    return phrase


def describe_ability(ability: Any) -> str:
    """One ability in plain words, e.g. 'Deploying: deal 1000 damage to a chosen enemy unit.'"""
    if not isinstance(ability, Mapping):
        return "(invalid ability)"
    trigger = TRIGGERS.get(str(ability.get("trigger")))
    continuous = trigger is not None and trigger.continuous
    effects = ability.get("effects")
    if not isinstance(effects, list) or not effects:
        return f"{_trigger_phrase(ability)}: (no effect)."
    phrases = [describe_effect(e, continuous=continuous) for e in effects]
    body = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + ", then " + phrases[-1]
    if continuous:
        body = body.replace(", then ", " and ")
    return f"{_trigger_phrase(ability)}: {body}."


def describe_abilities(abilities: Any) -> list[str]:
    """Every ability of a card in plain words, in order."""
    if not isinstance(abilities, list):
        return []
    return [describe_ability(a) for a in abilities]
