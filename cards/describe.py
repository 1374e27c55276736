"""Plain-English rules text of structured card abilities (C-1.5): the one renderer of the project.

Generated from the ability data (matches/engine/vocabulary.py), never typed by hand, so what players
read is what the rules engine does. The admin, the API, docs/card-abilities.md and the sample-set
checker (cards/data/check_sample.py, which requires every sample card's ``rules_text`` and each
ability's ``text`` to equal this rendering) all use it. Pure Python; tolerant of invalid data (it
describes what it can and names what it cannot).

Every phrase is a message (a ``gettext_noop``'d English template with named placeholders) rendered by a
``Words``: ``ENGLISH`` (the default) fills the templates as written, so the English output is the source
text byte for byte; ``reader_words()`` reads the cards app's catalogue in the active language, so a Thai
or Chinese reader gets the same description in their language (templates, not pieces: the word order is
the translation's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_noop

from matches.engine.vocabulary import TRIGGERS


class Words:
    """How the renderer words its phrases: a template looked up (English as written, or a catalogue's
    translation), then filled with named parameters."""

    def __init__(
        self,
        lookup: Callable[[str], str] | None = None,
        lookup_in: Callable[[str, str], str] | None = None,
    ) -> None:
        self._lookup = lookup or (lambda message: message)
        self._lookup_in = lookup_in or (lambda _context, message: message)

    def gettext(self, message: str, **params: Any) -> str:
        template = self._lookup(message)
        return template % params if params else template

    def pgettext(self, context: str, message: str, **params: Any) -> str:
        template = self._lookup_in(context, message)
        return template % params if params else template


ENGLISH = Words()


def reader_words() -> Words:
    """Words in the active language (Django's catalogue of the cards app); English reads as the source."""
    from django.utils import translation

    return Words(translation.gettext, translation.pgettext)


# How each trigger's sentence opens. Formation fills in %(x)s; activated triggers are worded by `_opening`.
TRIGGER_PHRASES: dict[str, str] = {
    "deploying": gettext_noop("Deploying: when this unit enters the battlefield, "),
    "casting": gettext_noop(
        "Casting: at the start of your turn, if this unit was not attacked during the previous turn, "
    ),
    "spoil": gettext_noop("Spoil: when this unit causes an enemy unit to be defeated, "),
    "marking": gettext_noop("When this unit attacks an enemy unit, "),
    "formation": gettext_noop(
        "Formation %(x)s: while you have %(x)s or more of your units connected to one another, "
    ),
    "start_of_turn": gettext_noop("At the start of your turn, "),
    "start_of_planning": gettext_noop("At the start of your Planning phase, "),
    "start_of_defending": gettext_noop("At the start of your Defending phase, "),
    "on_attack": gettext_noop("After this unit attacks, "),
    "on_defeated": gettext_noop("When this unit is defeated, "),
    "planning_activated": gettext_noop("%(often)s, during your Planning phase, you may %(pay)s: "),
    "defending_activated": gettext_noop("%(often)s, during your Defending phase, you may %(pay)s: "),
    "static": "",
    "on_play": "",
    "attached": "",
}
# An activated ability usable only while Formation X holds (C-7.6): the condition inside its opening.
FORMATION_ACTIVATED_PHRASES: dict[str, str] = {
    "planning_activated": gettext_noop(
        "%(often)s, during your Planning phase, while you have %(x)s or more of your units connected to one "
        "another (Formation %(x)s), you may %(pay)s: "
    ),
    "defending_activated": gettext_noop(
        "%(often)s, during your Defending phase, while you have %(x)s or more of your units connected to one "
        "another (Formation %(x)s), you may %(pay)s: "
    ),
}
# An Ongoing event's on_play ability happens when it is played, unlike its attached abilities (C-1.3).
ONGOING_ON_PLAY_PHRASE = gettext_noop("When you play this event, ")
ONCE_PER_TURN = gettext_noop("Once per turn")
ANY_NUMBER_OF_TIMES = gettext_noop("Any number of times")

TARGET_PHRASES: dict[str, str] = {
    "self": gettext_noop("this unit"),
    "attached_unit": gettext_noop("the attached unit"),
    "attack_target": gettext_noop("the attacked unit"),
    "defeated_unit": gettext_noop("the defeated unit"),
    "chosen_enemy_unit": gettext_noop("an enemy unit you choose"),
    "chosen_friendly_unit": gettext_noop("a friendly unit you choose"),
    "chosen_other_friendly_unit": gettext_noop("another friendly unit you choose"),
    "chosen_unit": gettext_noop("a unit you choose (yours or your opponent's)"),
    "adjacent_enemy_units": gettext_noop("each enemy unit adjacent to this unit"),
    "adjacent_friendly_units": gettext_noop("each of your other units adjacent to this unit"),
    "all_enemy_units": gettext_noop("each enemy unit"),
    "all_friendly_units": gettext_noop("each of your units"),
    "all_other_friendly_units": gettext_noop("each of your other units"),
    "controller": gettext_noop("you"),
    "opponent": gettext_noop("your opponent"),
}

# The first line of every Ongoing event's rules text (C-1.3).
ATTACH_SENTENCE = gettext_noop("Attach this event to a unit on the battlefield.")
# Keywords with a built-in rule and no ability (C-7.1, C-7.4), each a line of its own in the rules text.
PLAIN_KEYWORD_LINES: dict[str, str] = {
    "range_attack": gettext_noop("Range Attack."),
    "marking": gettext_noop("Marking."),
}

# A change of a stat or Range Attack, in two contexts: after "gets" (a one-shot change, "+1000 Power until
# end of turn") and after "has" (while a condition holds); Thai and Chinese word the two differently.
_PART: dict[str, dict[bool, Callable[[Words, str], str]]] = {
    "modify_power": {
        False: lambda w, a: w.pgettext(
            "a one-shot change of a unit's stat, after 'gets'", "%(amount)s Power", amount=a
        ),
        True: lambda w, a: w.pgettext(
            "what a unit has while a condition holds, after 'has'", "%(amount)s Power", amount=a
        ),
    },
    "modify_health": {
        False: lambda w, a: w.pgettext(
            "a one-shot change of a unit's stat, after 'gets'", "%(amount)s Health", amount=a
        ),
        True: lambda w, a: w.pgettext(
            "what a unit has while a condition holds, after 'has'", "%(amount)s Health", amount=a
        ),
    },
    "grant_range_attack": {
        True: lambda w, _a: w.pgettext(
            "what a unit has while a condition holds, after 'has'", "Range Attack"
        ),
    },
}
_STAT_EFFECTS = ("modify_power", "modify_health")
GETS = {
    "until_end_of_turn": gettext_noop("%(who)s gets %(changes)s until end of turn"),
    "permanent": gettext_noop("%(who)s gets %(changes)s permanently"),
}
GAINS_RANGE_ATTACK = {
    "until_end_of_turn": gettext_noop("%(who)s gains Range Attack until end of turn"),
    "permanent": gettext_noop("%(who)s gains Range Attack permanently"),
}
HAS = gettext_noop("%(who)s has %(what)s")
LIST_ITEM = gettext_noop("%(items)s, %(item)s")
LIST_LAST = gettext_noop("%(items)s and %(last)s")
THEN = gettext_noop("%(before)s, then %(after)s")
SENTENCE = gettext_noop("%(sentence)s.")
CARDS = (gettext_noop("%(count)s card"), gettext_noop("%(count)s cards"))
TOP = (gettext_noop("the top card"), gettext_noop("the top %(count)s cards"))


def _signed(amount: Any) -> str:
    return (
        f"+{amount}"
        if isinstance(amount, int) and not isinstance(amount, bool) and amount > 0
        else str(amount)
    )


def _one(count: Any, forms: tuple[str, str], words: Words) -> str:
    """`forms` (one, more) by `count`: Thai and Chinese word both alike (they have no plural)."""
    return words.gettext(forms[0] if count == 1 else forms[1], count=count)


def _duration(effect: Mapping[str, Any]) -> str:
    return "permanent" if effect.get("duration") == "permanent" else "until_end_of_turn"


def _target(target: Any, words: Words) -> str:
    phrase = TARGET_PHRASES.get(str(target))
    return words.gettext(phrase) if phrase is not None else f"'{target}'"


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join_and(parts: list[str], words: Words) -> str:
    if len(parts) == 1:
        return parts[0]
    items = parts[0]
    for part in parts[1:-1]:
        items = words.gettext(LIST_ITEM, items=items, item=part)
    return words.gettext(LIST_LAST, items=items, last=parts[-1])


def describe_effect(effect: Any, *, continuous: bool = False, words: Words = ENGLISH) -> str:
    """One effect as a lower-case clause, e.g. 'deal 1000 damage to an enemy unit you choose'.

    Under a continuous trigger stat changes and Range Attack hold while the condition holds ("has"),
    otherwise they last until end of turn or permanently ("gets ... until end of turn").
    """
    if not isinstance(effect, Mapping):
        return words.gettext(gettext_noop("(invalid effect)"))
    name, target = effect.get("effect"), effect.get("target")
    who = _target(target, words)
    amount, count = effect.get("amount"), effect.get("count")
    you = target == "controller"
    t = words.gettext
    if name in _STAT_EFFECTS:
        change = _PART[str(name)][continuous](words, _signed(amount))
        if continuous:
            return t(HAS, who=who, what=change)
        return t(GETS[_duration(effect)], who=who, changes=change)
    if name == "grant_range_attack":
        if continuous:
            return t(HAS, who=who, what=_PART["grant_range_attack"][True](words, ""))
        return t(GAINS_RANGE_ATTACK[_duration(effect)], who=who)
    if name == "deal_damage":
        return t(gettext_noop("deal %(amount)s damage to %(who)s"), amount=amount, who=who)
    if name == "heal":
        return t(gettext_noop("remove up to %(amount)s damage from %(who)s"), amount=amount, who=who)
    if name == "defeat":
        return t(gettext_noop("defeat %(who)s"), who=who)
    if name == "return_to_hand":
        return t(gettext_noop("return %(who)s to its owner's hand"), who=who)
    if name == "move":
        return t(
            gettext_noop("move %(who)s to an empty square adjacent to another card on the battlefield"),
            who=who,
        )
    if name == "remove_from_game":
        return t(gettext_noop("remove %(who)s from the game"), who=who)
    cards = _one(count, CARDS, words)
    if name == "draw":
        if you:
            return t(gettext_noop("draw %(cards)s"), cards=cards)
        return t(gettext_noop("%(who)s draws %(cards)s"), who=who, cards=cards)
    if name == "gain_cp":
        if you:
            return t(gettext_noop("gain %(amount)s CP"), amount=amount)
        return t(gettext_noop("%(who)s gains %(amount)s CP"), who=who, amount=amount)
    if name == "lose_cp":
        if you:
            return t(gettext_noop("you lose up to %(amount)s CP"), amount=amount)
        return t(gettext_noop("%(who)s loses up to %(amount)s CP"), who=who, amount=amount)
    if name == "gain_energy":
        top = _one(count, TOP, words)
        if you:
            return t(gettext_noop("put %(top)s of your deck into your Energy zone"), top=top)
        if target == "opponent":
            return t(gettext_noop("put %(top)s of your opponent's deck into their Energy zone"), top=top)
        return t(gettext_noop("put %(top)s of %(who)s's deck into their Energy zone"), top=top, who=who)
    if name == "discard":
        if you:
            return t(gettext_noop("discard %(cards)s of your choice"), cards=cards)
        return t(gettext_noop("%(who)s discards %(cards)s of their choice"), who=who, cards=cards)
    if name == "retire_energy":
        if you:
            return t(
                gettext_noop("move %(cards)s of your choice from your Energy zone to your Retired zone"),
                cards=cards,
            )
        return t(
            gettext_noop(
                "%(who)s moves %(cards)s of their choice from their Energy zone to their Retired zone"
            ),
            who=who,
            cards=cards,
        )
    return t(gettext_noop("unknown effect '%(name)s'"), name=name)


def _clauses(effects: list[Any], *, continuous: bool, words: Words) -> list[str]:
    """Clauses for an ability's effects; neighbouring stat changes of one target read as one clause.

    Continuous: "the attached unit has Range Attack and +500 Health". One-shot changes merge only when
    they share target and duration: "this unit gets +1000 Power and +1000 Health until end of turn".
    """
    clauses: list[str] = []
    group: list[Mapping[str, Any]] = []

    def flush() -> None:
        if len(group) == 1:
            clauses.append(describe_effect(group[0], continuous=continuous, words=words))
        elif group:
            parts = [_PART[str(e.get("effect"))][continuous](words, _signed(e.get("amount"))) for e in group]
            subject = _target(group[0].get("target"), words)
            if continuous:
                clauses.append(words.gettext(HAS, who=subject, what=_join_and(parts, words)))
            else:
                clauses.append(
                    words.gettext(GETS[_duration(group[0])], who=subject, changes=_join_and(parts, words))
                )
        group.clear()

    for effect in effects:
        mergeable = isinstance(effect, Mapping) and (
            effect.get("effect") in _STAT_EFFECTS
            or (continuous and effect.get("effect") == "grant_range_attack")
        )
        if not mergeable:
            flush()
            clauses.append(describe_effect(effect, continuous=continuous, words=words))
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


def _cost(cost: Any, words: Words) -> str:
    parts = []
    if isinstance(cost, Mapping):
        if cost.get("cp"):
            parts.append(words.gettext(gettext_noop("%(amount)s CP"), amount=cost["cp"]))
        if cost.get("energy"):
            parts.append(words.gettext(gettext_noop("%(amount)s Energy"), amount=cost["energy"]))
    return _join_and(parts, words) if parts else ""


def _opening(ability: Mapping[str, Any], event_type: str | None, words: Words) -> str:
    """How the ability's sentence opens: its trigger, Formation's X, an activated ability's cost."""
    name = ability.get("trigger")
    phrase = TRIGGER_PHRASES.get(str(name))
    if phrase is None:
        return words.gettext(gettext_noop("Unknown trigger '%(name)s': "), name=name)
    if name == "on_play" and event_type == "ongoing":
        return words.gettext(ONGOING_ON_PLAY_PHRASE)
    if not phrase:
        return ""
    trigger = TRIGGERS.get(str(name))
    if trigger is None or not trigger.activated:
        return words.gettext(phrase, x=ability.get("x", "?")) if "%(x)s" in phrase else words.gettext(phrase)
    often = words.gettext(ONCE_PER_TURN if ability.get("once_per_turn", True) else ANY_NUMBER_OF_TIMES)
    cost = _cost(ability.get("cost"), words)
    pay = (
        words.gettext(gettext_noop("pay %(cost)s"), cost=cost)
        if cost
        else words.gettext(gettext_noop("use this ability"))
    )
    if "x" in ability:  # usable while Formation X holds (C-7.6)
        return words.gettext(FORMATION_ACTIVATED_PHRASES[str(name)], often=often, pay=pay, x=ability["x"])
    return words.gettext(phrase, often=often, pay=pay)


def describe_ability(ability: Any, *, event_type: str | None = None, words: Words = ENGLISH) -> str:
    """One ability as a sentence, e.g. 'Deploying: when this unit enters the battlefield, draw 1 card.'

    ``event_type`` is the card's (an Ongoing event's on_play ability reads "When you play this event").
    """
    if not isinstance(ability, Mapping):
        return words.gettext(gettext_noop("(invalid ability)"))
    trigger = TRIGGERS.get(str(ability.get("trigger")))
    body = _body(ability, continuous=trigger is not None and trigger.continuous, words=words)
    return words.gettext(SENTENCE, sentence=_capitalize(_opening(ability, event_type, words) + body))


def _body(ability: Mapping[str, Any], *, continuous: bool, words: Words) -> str:
    effects = ability.get("effects")
    if not isinstance(effects, list) or not effects:
        return words.gettext(gettext_noop("(no effect)"))
    clauses = _clauses(effects, continuous=continuous, words=words)
    body = clauses[0]
    for clause in clauses[1:]:
        body = (
            words.gettext(LIST_LAST, items=body, last=clause)
            if continuous
            else words.gettext(THEN, before=body, after=clause)
        )
    return body


def describe_effects(ability: Any, *, words: Words = ENGLISH) -> str:
    """What an ability does, without its trigger's opening, as a sentence: "Deal 1000 damage to an enemy
    unit you choose." (the game log names the card and the timing already)."""
    if not isinstance(ability, Mapping):
        return words.gettext(gettext_noop("(invalid ability)"))
    trigger = TRIGGERS.get(str(ability.get("trigger")))
    body = _body(ability, continuous=trigger is not None and trigger.continuous, words=words)
    return words.gettext(SENTENCE, sentence=body)


def describe_abilities(abilities: Any, *, event_type: str | None = None, words: Words = ENGLISH) -> list[str]:
    """Every ability of a card as a sentence, in order (in `words`' language).

    Without ``event_type`` a list holding an ``attached`` ability is read as an Ongoing event's, the
    only card that may have one (C-1.3), so callers that pass just the abilities get the card's words.
    """
    if not isinstance(abilities, list):
        return []
    if event_type is None and any(
        isinstance(a, Mapping) and a.get("trigger") == "attached" for a in abilities
    ):
        event_type = "ongoing"
    return [describe_ability(a, event_type=event_type, words=words) for a in abilities]


def rules_text_for(card: Any, *, words: Words = ENGLISH) -> str:
    """A card's full rules text: attach sentence, plain keywords, then one line per ability.

    ``card`` is a card in the shared card format (``event_type``, ``keywords``, ``abilities``).
    """
    if not isinstance(card, Mapping):
        return ""
    event_type = card.get("event_type") or None
    lines: list[str] = []
    if event_type == "ongoing":
        lines.append(words.gettext(ATTACH_SENTENCE))
    keywords = card.get("keywords")
    if isinstance(keywords, list | tuple | set | frozenset):
        lines.extend(words.gettext(line) for code, line in PLAIN_KEYWORD_LINES.items() if code in keywords)
    abilities = card.get("abilities")
    lines.extend(
        describe_abilities(abilities, event_type=event_type or "", words=words)
        if isinstance(abilities, list)
        else []
    )
    return "\n".join(lines)
