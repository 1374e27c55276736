"""Plain-English rules text of structured card abilities (C-1.5): the one renderer of the project.

Generated from the ability data (matches/engine/vocabulary.py), never typed by hand, so what players
read is what the rules engine does. The admin, the API, docs/card-abilities.md and the sample-set
checker (cards/data/check_sample.py, which requires every sample card's ``rules_text`` and each
ability's ``text`` to equal this rendering) all use it. Pure Python; tolerant of invalid data (it
describes what it can and names what it cannot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.engine.vocabulary import TRIGGERS

# How each trigger's sentence opens. Formation fills in {x}; activated triggers fill in {often}
# ("Once per turn" / "Any number of times") and {pay} ("pay 1 CP" / "use this ability").
TRIGGER_PHRASES: dict[str, str] = {
    "deploying": "Deploying: when this unit enters the battlefield, ",
    "casting": "Casting: at the start of your turn, if this unit was not attacked during the previous turn, ",
    "spoil": "Spoil: when this unit causes an enemy unit to be defeated, ",
    "marking": "When this unit attacks an enemy unit, ",
    "formation": "Formation {x}: while you have {x} or more of your units connected to one another, ",
    "start_of_turn": "At the start of your turn, ",
    "start_of_planning": "At the start of your Planning phase, ",
    "start_of_defending": "At the start of your Defending phase, ",
    "on_attack": "After this unit attacks, ",
    "on_defeated": "When this unit is defeated, ",
    "planning_activated": "{often}, during your Planning phase, you may {pay}: ",
    "defending_activated": "{often}, during your Defending phase, you may {pay}: ",
    "static": "",
    "on_play": "",
    "attached": "",
}
# An Ongoing event's on_play ability happens when it is played, unlike its attached abilities (C-1.3).
ONGOING_ON_PLAY_PHRASE = "When you play this event, "

TARGET_PHRASES: dict[str, str] = {
    "self": "this unit",
    "attached_unit": "the attached unit",
    "attack_target": "the attacked unit",
    "defeated_unit": "the defeated unit",
    "chosen_enemy_unit": "an enemy unit you choose",
    "chosen_friendly_unit": "a friendly unit you choose",
    "chosen_other_friendly_unit": "another friendly unit you choose",
    "chosen_unit": "a unit you choose (yours or your opponent's)",
    "adjacent_enemy_units": "each enemy unit adjacent to this unit",
    "adjacent_friendly_units": "each of your other units adjacent to this unit",
    "all_enemy_units": "each enemy unit",
    "all_friendly_units": "each of your units",
    "all_other_friendly_units": "each of your other units",
    "controller": "you",
    "opponent": "your opponent",
}

# The first line of every Ongoing event's rules text (C-1.3).
ATTACH_SENTENCE = "Attach this event to a unit on the battlefield."
# Keywords with a built-in rule and no ability (C-7.1, C-7.4), each a line of its own in the rules text.
PLAIN_KEYWORDS: dict[str, str] = {"range_attack": "Range Attack", "marking": "Marking"}

_STAT_EFFECTS = {"modify_power": "Power", "modify_health": "Health"}


def _signed(amount: Any) -> str:
    return (
        f"+{amount}"
        if isinstance(amount, int) and not isinstance(amount, bool) and amount > 0
        else str(amount)
    )


def _cards(count: Any, what: str = "card") -> str:
    return f"{count} {what}" if count == 1 else f"{count} {what}s"


def _duration(effect: Mapping[str, Any]) -> str:
    return "permanently" if effect.get("duration") == "permanent" else "until end of turn"


def _target(target: Any) -> str:
    return TARGET_PHRASES.get(str(target), f"'{target}'")


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join_and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_effect(effect: Any, *, continuous: bool = False) -> str:
    """One effect as a lower-case clause, e.g. 'deal 1000 damage to an enemy unit you choose'.

    Under a continuous trigger stat changes and Range Attack hold while the condition holds ("has"),
    otherwise they last until end of turn or permanently ("gets ... until end of turn").
    """
    if not isinstance(effect, Mapping):
        return "(invalid effect)"
    name, target = effect.get("effect"), effect.get("target")
    who = _target(target)
    amount, count = effect.get("amount"), effect.get("count")
    you = target == "controller"
    if name in _STAT_EFFECTS:
        verb, tail = ("has", "") if continuous else ("gets", " " + _duration(effect))
        return f"{who} {verb} {_signed(amount)} {_STAT_EFFECTS[name]}{tail}"
    if name == "grant_range_attack":
        return f"{who} has Range Attack" if continuous else f"{who} gains Range Attack {_duration(effect)}"
    if name == "deal_damage":
        return f"deal {amount} damage to {who}"
    if name == "heal":
        return f"remove up to {amount} damage from {who}"
    if name == "defeat":
        return f"defeat {who}"
    if name == "return_to_hand":
        return f"return {who} to its owner's hand"
    if name == "move":
        return f"move {who} to an empty square adjacent to another card on the battlefield"
    if name == "remove_from_game":
        return f"remove {who} from the game"
    if name == "draw":
        return f"draw {_cards(count)}" if you else f"{who} draws {_cards(count)}"
    if name == "gain_cp":
        return f"gain {amount} CP" if you else f"{who} gains {amount} CP"
    if name == "lose_cp":
        return f"you lose up to {amount} CP" if you else f"{who} loses up to {amount} CP"
    if name == "gain_energy":
        top = "the top card" if count == 1 else f"the top {count} cards"
        if you:
            return f"put {top} of your deck into your Energy zone"
        whose = "your opponent's" if target == "opponent" else f"{who}'s"
        return f"put {top} of {whose} deck into their Energy zone"
    if name == "discard":
        return (
            f"discard {_cards(count)} of your choice"
            if you
            else f"{who} discards {_cards(count)} of their choice"
        )
    if name == "retire_energy":
        if you:
            return f"move {_cards(count)} of your choice from your Energy zone to your Retired zone"
        return f"{who} moves {_cards(count)} of their choice from their Energy zone to their Retired zone"
    return f"unknown effect '{name}'"


def _clauses(effects: list[Any], *, continuous: bool) -> list[str]:
    """Clauses for an ability's effects; neighbouring stat changes of one target read as one clause.

    Continuous: "the attached unit has Range Attack and +500 Health". One-shot changes merge only when
    they share target and duration: "this unit gets +1000 Power and +1000 Health until end of turn".
    """
    clauses: list[str] = []
    group: list[Mapping[str, Any]] = []

    def flush() -> None:
        if len(group) == 1:
            clauses.append(describe_effect(group[0], continuous=continuous))
        elif group:
            parts = [
                "Range Attack"
                if e.get("effect") == "grant_range_attack"
                else f"{_signed(e.get('amount'))} {_STAT_EFFECTS[str(e.get('effect'))]}"
                for e in group
            ]
            subject = _target(group[0].get("target"))
            if continuous:
                clauses.append(f"{subject} has {_join_and(parts)}")
            else:
                clauses.append(f"{subject} gets {_join_and(parts)} {_duration(group[0])}")
        group.clear()

    for effect in effects:
        mergeable = isinstance(effect, Mapping) and (
            effect.get("effect") in _STAT_EFFECTS
            or (continuous and effect.get("effect") == "grant_range_attack")
        )
        if not mergeable:
            flush()
            clauses.append(describe_effect(effect, continuous=continuous))
            continue
        same = (
            bool(group)
            and group[0].get("target") == effect.get("target")
            and (continuous or _duration(group[0]) == _duration(effect))
        )
        if not same:
            flush()
        group.append(effect)
    flush()
    return clauses


def _cost(cost: Any) -> str:
    parts = []
    if isinstance(cost, Mapping):
        if cost.get("cp"):
            parts.append(f"{cost['cp']} CP")
        if cost.get("energy"):
            parts.append(f"{cost['energy']} Energy")
    return " and ".join(parts)


def _opening(ability: Mapping[str, Any], event_type: str | None) -> str:
    """How the ability's sentence opens: its trigger, Formation's X, an activated ability's cost."""
    name = ability.get("trigger")
    phrase = TRIGGER_PHRASES.get(str(name))
    if phrase is None:
        return f"Unknown trigger '{name}': "
    if name == "on_play" and event_type == "ongoing":
        return ONGOING_ON_PLAY_PHRASE
    trigger = TRIGGERS.get(str(name))
    often = "Once per turn" if ability.get("once_per_turn", True) else "Any number of times"
    cost = _cost(ability.get("cost")) if trigger is not None and trigger.activated else ""
    pay = f"pay {cost}" if cost else "use this ability"
    if trigger is not None and trigger.activated and "x" in ability:  # usable while Formation X holds (C-7.6)
        x = ability["x"]
        phrase = phrase.replace(
            ", you may",
            f", while you have {x} or more of your units connected to one another (Formation {x}), you may",
        )
    return phrase.format(x=ability.get("x", "?"), often=often, pay=pay)


def describe_ability(ability: Any, *, event_type: str | None = None) -> str:
    """One ability as a sentence, e.g. 'Deploying: when this unit enters the battlefield, draw 1 card.'

    ``event_type`` is the card's (an Ongoing event's on_play ability reads "When you play this event").
    """
    if not isinstance(ability, Mapping):
        return "(invalid ability)"
    trigger = TRIGGERS.get(str(ability.get("trigger")))
    continuous = trigger is not None and trigger.continuous
    effects = ability.get("effects")
    if not isinstance(effects, list) or not effects:
        body = "(no effect)"
    else:
        body = (" and " if continuous else ", then ").join(_clauses(effects, continuous=continuous))
    return _capitalize(_opening(ability, event_type) + body) + "."


def describe_abilities(abilities: Any, *, event_type: str | None = None) -> list[str]:
    """Every ability of a card as a sentence, in order.

    Without ``event_type`` a list holding an ``attached`` ability is read as an Ongoing event's, the
    only card that may have one (C-1.3), so callers that pass just the abilities get the card's words.
    """
    if not isinstance(abilities, list):
        return []
    if event_type is None and any(
        isinstance(a, Mapping) and a.get("trigger") == "attached" for a in abilities
    ):
        event_type = "ongoing"
    return [describe_ability(a, event_type=event_type) for a in abilities]


def rules_text_for(card: Any) -> str:
    """A card's full rules text: attach sentence, plain keywords, then one line per ability.

    ``card`` is a card in the shared card format (``event_type``, ``keywords``, ``abilities``).
    """
    if not isinstance(card, Mapping):
        return ""
    event_type = card.get("event_type") or None
    lines: list[str] = []
    if event_type == "ongoing":
        lines.append(ATTACH_SENTENCE)
    keywords = card.get("keywords")
    if isinstance(keywords, list | tuple | set | frozenset):
        lines.extend(f"{name}." for code, name in PLAIN_KEYWORDS.items() if code in keywords)
    abilities = card.get("abilities")
    lines.extend(
        describe_abilities(abilities, event_type=event_type or "") if isinstance(abilities, list) else []
    )
    return "\n".join(lines)
