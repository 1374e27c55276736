"""The card-ability vocabulary (C-1.5): the triggers, effects, targets and parameters admins may use.

This module is the single source of truth for what an ability may say. The card database validates
curated abilities against it (``abilities_problems``: each problem a message, key + parameters, that the
play layer words in the staff member's language; ``validate_abilities``: the same in English) and the rules
engine interprets exactly these names. It is plain data and pure Python (no Django), documented for admins
in docs/card-abilities.md.

An ability is a JSON object::

    {"trigger": "deploying", "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit",
                                           "amount": 1000}],
     "x": 3,                      # Formation X (C-7.6): required for trigger "formation" (active while it
                                  # holds); optional on activated triggers (usable only while it holds)
     "cost": {"cp": 1, "energy": 0},   # only for activated triggers (optional)
     "once_per_turn": true,       # only for activated triggers (optional, default true)
     "text": "Deal 1000 damage to an enemy unit."}   # optional reminder shown to players
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .messages import Msg, gettext_noop, msg, nested


@dataclass(frozen=True)
class Trigger:
    name: str
    card_types: frozenset[str]  # "unit", "event"
    doc: str
    activated: bool = False  # the controller chooses to use it (an action), paying an optional cost
    continuous: bool = False  # a static modifier that holds while its condition holds
    rule: str = ""


@dataclass(frozen=True)
class Effect:
    name: str
    params: Mapping[str, str]  # name -> kind ("amount", "count", "duration")
    targets: frozenset[str]
    doc: str
    continuous_ok: bool = False  # may appear under a continuous trigger


UNIT = frozenset({"unit"})
EVENT = frozenset({"event"})
BOTH = frozenset({"unit", "event"})

TRIGGERS: dict[str, Trigger] = {
    t.name: t
    for t in [
        Trigger("deploying", UNIT, "When this unit enters the battlefield.", rule="C-7.2"),
        Trigger(
            "casting",
            UNIT,
            "At the start of its owner's turn, if this unit was not attacked during the previous turn.",
            rule="C-7.3",
        ),
        Trigger(
            "spoil",
            UNIT,
            "When this unit causes an enemy unit to be defeated (attack or ability).",
            rule="C-7.5",
        ),
        Trigger(
            "marking",
            UNIT,
            "When this unit attacks an enemy unit (in addition to the Marking keyword's +1000 for Range Attack units).",
            rule="C-7.4",
        ),
        Trigger(
            "formation",
            UNIT,
            "Continuous: holds while its owner has at least x of their own units connected to one another by "
            "adjacency (C-2.5), in any shape; this unit need not be one of them.",
            continuous=True,
            rule="C-7.6",
        ),
        Trigger("start_of_turn", UNIT, "At the start of its owner's turn.", rule="C-5.1"),
        Trigger("start_of_planning", UNIT, "At the start of its owner's Planning phase.", rule="C-5.1"),
        Trigger("start_of_defending", UNIT, "At the start of its owner's Defending phase.", rule="C-5.5"),
        Trigger("on_attack", UNIT, "When this unit attacks (after the attack's damage).", rule="C-5.6"),
        Trigger("on_defeated", UNIT, "When this unit is defeated.", rule="C-5.7"),
        Trigger(
            "planning_activated",
            UNIT,
            "Used by its owner during their Planning phase, paying the optional cost (an ability with no timing).",
            activated=True,
            rule="C-5.2",
        ),
        Trigger(
            "defending_activated",
            UNIT,
            "Used by its owner during their Defending phase, paying the optional cost.",
            activated=True,
            rule="C-5.5",
        ),
        Trigger(
            "static", UNIT, "Continuous: always holds while this unit is on the battlefield.", continuous=True
        ),
        Trigger("on_play", EVENT, "When the event is played (Planning or Defensive event).", rule="C-1.3"),
        Trigger(
            "attached",
            EVENT,
            "Ongoing events only. Continuous: holds for the unit the event is attached to.",
            continuous=True,
            rule="C-1.3",
        ),
    ]
}

# Targets. "chosen_*" targets are picked by the ability's controller when it resolves (an action).
TARGETS: dict[str, str] = {
    "self": "This unit.",
    "attached_unit": "The unit this Ongoing event is attached to.",
    "attack_target": "The unit this unit attacked (on_attack, marking).",
    "defeated_unit": "The enemy unit this unit defeated (spoil).",
    "chosen_enemy_unit": "One enemy unit on the battlefield, chosen by the controller.",
    "chosen_friendly_unit": "One of the controller's units on the battlefield, chosen by the controller.",
    "chosen_other_friendly_unit": "One of the controller's other units on the battlefield, chosen.",
    "chosen_unit": "Any one unit on the battlefield, chosen by the controller.",
    "adjacent_enemy_units": "Every enemy unit adjacent (C-2.5) to this unit.",
    "adjacent_friendly_units": "Every other friendly unit adjacent (C-2.5) to this unit.",
    "all_enemy_units": "Every enemy unit on the battlefield.",
    "all_friendly_units": "Every unit of the controller on the battlefield.",
    "all_other_friendly_units": "Every other unit of the controller on the battlefield.",
    "controller": "The player who controls the ability.",
    "opponent": "The controller's opponent.",
}
UNIT_TARGETS = frozenset(t for t in TARGETS if t not in {"controller", "opponent"})
PLAYER_TARGETS = frozenset({"controller", "opponent"})
CHOSEN_TARGETS = frozenset(t for t in TARGETS if t.startswith("chosen_"))
# Targets that only make sense under some triggers.
TARGET_TRIGGERS: dict[str, frozenset[str]] = {
    "attached_unit": frozenset({"attached", "on_play"}),
    "attack_target": frozenset({"on_attack", "marking"}),
    "defeated_unit": frozenset({"spoil"}),
}
CONTINUOUS_TARGETS = frozenset(
    {
        "self",
        "attached_unit",
        "adjacent_enemy_units",
        "adjacent_friendly_units",
        "all_enemy_units",
        "all_friendly_units",
        "all_other_friendly_units",
    }
)

DURATIONS = ("turn", "permanent")

EFFECTS: dict[str, Effect] = {
    e.name: e
    for e in [
        Effect(
            "deal_damage", {"amount": "amount"}, UNIT_TARGETS, "Deal `amount` damage (thousands, e.g. 1000)."
        ),
        Effect("heal", {"amount": "amount"}, UNIT_TARGETS, "Remove up to `amount` damage."),
        Effect(
            "modify_power",
            {"amount": "signed_amount", "duration": "duration"},
            UNIT_TARGETS,
            "Add `amount` (may be negative) to Power; `duration` turn (until end of turn, default) or permanent. "
            "Under a continuous trigger it holds while the condition holds.",
            continuous_ok=True,
        ),
        Effect(
            "modify_health",
            {"amount": "signed_amount", "duration": "duration"},
            UNIT_TARGETS,
            "Add `amount` (may be negative) to Health; same durations as modify_power.",
            continuous_ok=True,
        ),
        Effect("defeat", {}, UNIT_TARGETS, "The target is defeated (goes to its owner's Defeated zone)."),
        Effect("return_to_hand", {}, UNIT_TARGETS, "Return the target unit to its owner's hand."),
        Effect(
            "move",
            {},
            UNIT_TARGETS,
            "The controller moves the target to an empty square adjacent (C-2.5) to another card on the battlefield.",
        ),
        Effect("remove_from_game", {}, UNIT_TARGETS, "The target goes to its owner's Removed zone."),
        Effect("draw", {"count": "count"}, PLAYER_TARGETS, "The target player draws `count` cards."),
        Effect(
            "gain_cp", {"amount": "count"}, PLAYER_TARGETS, "The target player gains `amount` Command Points."
        ),
        Effect(
            "lose_cp",
            {"amount": "count"},
            PLAYER_TARGETS,
            "The target player loses up to `amount` Command Points.",
        ),
        Effect(
            "gain_energy",
            {"count": "count"},
            PLAYER_TARGETS,
            "Put the top `count` cards of the target player's deck into their Energy zone.",
        ),
        Effect(
            "discard",
            {"count": "count"},
            PLAYER_TARGETS,
            "The target player discards `count` cards of their choice to the Retired zone.",
        ),
        Effect(
            "retire_energy",
            {"count": "count"},
            PLAYER_TARGETS,
            "The target player moves `count` cards of their choice from Energy to Retired.",
        ),
        Effect(
            "grant_range_attack",
            {"duration": "duration"},
            UNIT_TARGETS,
            "The target has Range Attack (C-7.1) for the duration (or while a continuous trigger holds).",
            continuous_ok=True,
        ),
    ]
}

# What each parameter kind accepts (docs/card-abilities.md; a message key of the problems below).
PARAM_KINDS = {
    "amount": gettext_noop("a positive multiple of 500 (e.g. 1000)"),
    "signed_amount": gettext_noop("a non-zero multiple of 500, may be negative"),
    "count": gettext_noop("a whole number from 1 to 10"),
    "duration": gettext_noop("turn or permanent"),
}

KEYWORDS: dict[str, str] = {
    "range_attack": "Range Attack (C-7.1): attacks any enemy unit along the chosen arrow's line.",
    "deploying": "Deploying (C-7.2): an ability that triggers when the unit enters the battlefield.",
    "casting": "Casting (C-7.3): triggers at the start of your turn if the unit was not attacked last turn.",
    "marking": "Marking (C-7.4): when it attacks an enemy unit, your Range Attack units deal +1000 to it this turn.",
    "spoil": "Spoil (C-7.5): triggers when this unit causes an enemy unit to be defeated.",
    "formation": "Formation X (C-7.6): active (or usable) while you have X or more of your units connected "
    "to one another, whether or not this unit is one of them.",
}
# Keywords that name an ability trigger: a card with such an ability shows the keyword, and vice versa.
TRIGGER_KEYWORDS = {
    "deploying": "deploying",
    "casting": "casting",
    "spoil": "spoil",
    "formation": "formation",
}


def _check_param(kind: str, value: Any) -> Msg | None:
    if kind == "duration":
        return (
            None
            if value in DURATIONS
            else msg(gettext_noop("must be one of %(choices)s"), choices=", ".join(DURATIONS))
        )
    if isinstance(value, bool) or not isinstance(value, int):
        return msg(gettext_noop("must be a whole number"))
    if kind == "amount":
        return None if value > 0 and value % 500 == 0 else Msg(PARAM_KINDS[kind])
    if kind == "signed_amount":
        return None if value != 0 and value % 500 == 0 else Msg(PARAM_KINDS[kind])
    if kind == "count":
        return None if 1 <= value <= 10 else Msg(PARAM_KINDS[kind])
    return msg(gettext_noop("unknown parameter kind %(kind)s"), kind=kind)


def _at(where: str, problem: Msg) -> Msg:
    """``problem`` prefixed by the place it was found ("effects[0]: ...")."""
    return msg(gettext_noop("%(where)s: %(problem)s"), where=where, problem=nested(problem))


def _not_allowed_on(trigger_name: str, card_type: str) -> Msg:
    if card_type == "unit":
        return msg(gettext_noop("trigger '%(trigger)s' is not allowed on a unit card"), trigger=trigger_name)
    if card_type == "event":
        return msg(
            gettext_noop("trigger '%(trigger)s' is not allowed on an event card"), trigger=trigger_name
        )
    return msg(
        gettext_noop("trigger '%(trigger)s' is not allowed on a %(card_type)s card"),
        trigger=trigger_name,
        card_type=str(card_type),
    )


def ability_problems(ability: Any, *, card_type: str, event_type: str | None = None) -> list[Msg]:
    """Every problem with one ability as a message (empty list when it is valid); each names the field.

    Values taken from the ability (an unknown trigger, effect or field name) are plain parameters: they are
    the data's own words, shown as written in every language.
    """
    if not isinstance(ability, Mapping):
        return [msg(gettext_noop("an ability must be a JSON object"))]
    problems: list[Msg] = []
    allowed_keys = {"trigger", "effects", "x", "cost", "once_per_turn", "text"}
    for key in sorted(set(ability) - allowed_keys):
        problems.append(
            msg(
                gettext_noop("unknown field '%(field)s' (allowed: %(allowed)s)"),
                field=str(key),
                allowed=", ".join(sorted(allowed_keys)),
            )
        )
    trigger_name = ability.get("trigger")
    trigger = TRIGGERS.get(trigger_name) if isinstance(trigger_name, str) else None
    if trigger is None:
        problems.append(
            msg(
                gettext_noop("unknown trigger '%(trigger)s' (known: %(known)s)"),
                trigger=str(trigger_name),
                known=", ".join(TRIGGERS),
            )
        )
    elif card_type not in trigger.card_types:
        problems.append(_not_allowed_on(str(trigger_name), card_type))
    elif trigger_name == "attached" and event_type != "ongoing":
        problems.append(msg(gettext_noop("trigger 'attached' is only for Ongoing events")))
    activated = trigger is not None and trigger.activated
    if trigger_name == "formation" or (activated and "x" in ability):
        x = ability.get("x")
        if isinstance(x, bool) or not isinstance(x, int) or not 2 <= x <= 36:
            problems.append(
                msg(gettext_noop("a Formation ability needs x, a whole number from 2 to 36 (C-7.6)"))
            )
    elif "x" in ability:
        problems.append(
            msg(
                gettext_noop(
                    "x is only for Formation abilities: the formation trigger, or an activated ability usable "
                    "only while Formation X holds (C-7.6)"
                )
            )
        )
    if "cost" in ability:
        cost = ability["cost"]
        if not activated:
            problems.append(
                msg(
                    gettext_noop(
                        "cost is only for activated abilities (planning_activated, defending_activated)"
                    )
                )
            )
        elif not isinstance(cost, Mapping) or set(cost) - {"cp", "energy"}:
            problems.append(msg(gettext_noop("cost must be an object with cp and/or energy")))
        else:
            for k, v in cost.items():
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10:
                    problems.append(
                        msg(gettext_noop("cost.%(part)s must be a whole number from 0 to 10"), part=str(k))
                    )
    if "once_per_turn" in ability and not activated:
        problems.append(msg(gettext_noop("once_per_turn is only for activated abilities")))
    if "text" in ability and not isinstance(ability["text"], str):
        problems.append(msg(gettext_noop("text must be a string")))
    effects = ability.get("effects")
    if not isinstance(effects, list) or not effects:
        problems.append(msg(gettext_noop("effects must be a non-empty list")))
        return problems
    for i, effect in enumerate(effects):
        where = f"effects[{i}]"
        if not isinstance(effect, Mapping):
            problems.append(msg(gettext_noop("%(where)s must be a JSON object"), where=where))
            continue
        name = effect.get("effect")
        spec = EFFECTS.get(name) if isinstance(name, str) else None
        if spec is None:
            problems.append(
                _at(
                    where,
                    msg(
                        gettext_noop("unknown effect '%(effect)s' (known: %(known)s)"),
                        effect=str(name),
                        known=", ".join(EFFECTS),
                    ),
                )
            )
            continue
        target = effect.get("target")
        if target not in TARGETS:
            problems.append(
                _at(
                    where,
                    msg(
                        gettext_noop("unknown target '%(target)s' (known: %(known)s)"),
                        target=str(target),
                        known=", ".join(TARGETS),
                    ),
                )
            )
        elif target not in spec.targets:
            problems.append(
                _at(
                    where,
                    msg(
                        gettext_noop("effect '%(effect)s' cannot target '%(target)s'"),
                        effect=name,
                        target=target,
                    ),
                )
            )
        elif target in TARGET_TRIGGERS and trigger_name not in TARGET_TRIGGERS[target]:
            problems.append(
                _at(
                    where,
                    msg(
                        gettext_noop("target '%(target)s' is only available under %(triggers)s"),
                        target=target,
                        triggers=str(sorted(TARGET_TRIGGERS[target])),
                    ),
                )
            )
        elif target == "attached_unit" and event_type != "ongoing":
            problems.append(
                _at(where, msg(gettext_noop("target 'attached_unit' is only for Ongoing events")))
            )
        if trigger is not None and trigger.continuous:
            if not spec.continuous_ok:
                problems.append(
                    _at(
                        where,
                        msg(
                            gettext_noop("effect '%(effect)s' cannot be continuous (trigger '%(trigger)s')"),
                            effect=name,
                            trigger=str(trigger_name),
                        ),
                    )
                )
            elif target in TARGETS and target not in CONTINUOUS_TARGETS:
                problems.append(
                    _at(
                        where,
                        msg(
                            gettext_noop("target '%(target)s' cannot be used by a continuous ability"),
                            target=str(target),
                        ),
                    )
                )
        for key in sorted(set(effect) - {"effect", "target", *spec.params}):
            problems.append(
                _at(
                    where,
                    msg(
                        gettext_noop("unknown parameter '%(param)s' for effect '%(effect)s'"),
                        param=str(key),
                        effect=name,
                    ),
                )
            )
        for pname, kind in spec.params.items():
            if pname not in effect:
                if kind == "duration":
                    continue  # defaults to "turn"
                problems.append(
                    _at(
                        where,
                        msg(
                            gettext_noop("effect '%(effect)s' needs '%(param)s' (%(kind)s)"),
                            effect=name,
                            param=pname,
                            kind=nested(Msg(PARAM_KINDS[kind])),
                        ),
                    )
                )
                continue
            err = _check_param(kind, effect[pname])
            if err:
                problems.append(_at(f"{where}.{pname}", err))
    return problems


def abilities_problems(abilities: Any, *, card_type: str, event_type: str | None = None) -> list[Msg]:
    """Every problem with a card's list of abilities as a message; each starts with the ability's index."""
    if abilities in (None, []):
        return []
    if not isinstance(abilities, list):
        return [msg(gettext_noop("abilities must be a list"))]
    return [
        _at(f"abilities[{i}]", problem)
        for i, ability in enumerate(abilities)
        for problem in ability_problems(ability, card_type=card_type, event_type=event_type)
    ]


def validate_ability(ability: Any, *, card_type: str, event_type: str | None = None) -> list[str]:
    """Every problem with one ability in English (empty list when it is valid); ``ability_problems`` gives
    them as messages for a reader of another language."""
    return [m.english() for m in ability_problems(ability, card_type=card_type, event_type=event_type)]


def validate_abilities(abilities: Any, *, card_type: str, event_type: str | None = None) -> list[str]:
    """Validate a card's list of abilities, in English; each message starts with the ability's index
    (``abilities_problems``: the same as messages)."""
    return [m.english() for m in abilities_problems(abilities, card_type=card_type, event_type=event_type)]
