"""Card definitions for the engine (C-1), parsed from the shared card JSON format, and the deck builder.

A ``CardDef`` is immutable and shared by every state of a match; card instances in a match are ints
(ids) that index into the state's list of definitions.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .deckrules import count_copies, deck_issues, max_copies
from .vocabulary import KEYWORDS, TRIGGERS, validate_abilities

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
EVENT_TYPES = ("planning", "defensive", "ongoing")
CONTINUOUS_TRIGGERS = frozenset(t.name for t in TRIGGERS.values() if t.continuous)


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card as the rules see it (C-1.1, C-1.3); ``raw`` keeps the original JSON object."""

    name: str
    faction: str
    type: str  # "unit" | "event"
    command_cost: int
    energy_cost: int
    power: int
    health: int
    arrows: tuple[str, ...]
    legendary: bool
    unique: bool
    event_type: str | None
    keywords: frozenset[str]
    abilities: tuple[Mapping[str, Any], ...]
    raw: Mapping[str, Any] = field(compare=False, repr=False)
    # trigger name -> indexes of abilities with that trigger (precomputed for the interpreter)
    by_trigger: Mapping[str, tuple[int, ...]] = field(compare=False, repr=False)
    # precomputed flags for the hot paths
    is_unit: bool = field(default=False, compare=False, repr=False)
    has_continuous: bool = field(default=False, compare=False, repr=False)  # static, formation, attached

    def max_copies(self) -> int:
        """C-3.2 / C-3.3: 4 copies, or 1 for a Legendary unit or a Unique event (``deckrules``)."""
        return max_copies(self)


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})


def _copy_json(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), cheaper than ``copy.deepcopy``.

    Match set-up parses every card of both decks (``new_match``), so the copy is most of the parse
    (measured by ``bench/commandeer_engine.py``).
    Values of any other type (tuples, other mappings) still go through ``copy.deepcopy``.
    """
    kind = type(value)
    if kind is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if kind is list:
        return [_copy_json(v) for v in value]
    if kind in _JSON_SCALARS:
        return value
    return copy.deepcopy(value)


def card_from_dict(data: Mapping[str, Any]) -> CardDef:
    """Parse and check one card JSON object; raises ValueError naming the card and the problem."""
    if not isinstance(data, Mapping):
        raise ValueError("a card must be a JSON object")
    data = _copy_json(dict(data))  # the definition never changes, whatever the caller does later
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("a card needs a non-empty name")
    ctype = data.get("type")
    if ctype not in ("unit", "event"):
        raise ValueError(f"card {name!r}: type must be unit or event")
    event_type = data.get("event_type") or None
    if ctype == "event" and event_type not in EVENT_TYPES:
        raise ValueError(f"card {name!r}: an event needs event_type planning, defensive or ongoing")
    arrows = tuple(data.get("arrows") or ())
    bad = [a for a in arrows if a not in DIRECTIONS]
    if bad:
        raise ValueError(f"card {name!r}: unknown arrows {bad}")
    keywords = frozenset(data.get("keywords") or ())
    unknown_kw = sorted(k for k in keywords if k not in KEYWORDS)
    if unknown_kw:
        raise ValueError(f"card {name!r}: unknown keywords {unknown_kw}")
    abilities = data.get("abilities") or []
    problems = validate_abilities(abilities, card_type=ctype, event_type=event_type)
    if problems:
        raise ValueError(f"card {name!r}: " + "; ".join(problems))
    by_trigger: dict[str, list[int]] = {}
    for i, ab in enumerate(abilities):
        by_trigger.setdefault(ab["trigger"], []).append(i)
    power = int(data.get("power") or 0)
    health = int(data.get("health") or 0)
    if ctype == "unit" and health <= 0:
        raise ValueError(f"card {name!r}: a unit needs a positive health")
    return CardDef(
        name=name,
        faction=str(data.get("faction", "")),
        type=ctype,
        command_cost=int(data.get("command_cost") or 0),
        energy_cost=int(data.get("energy_cost") or 0),
        power=power,
        health=health,
        arrows=arrows,
        legendary=bool(data.get("legendary")),
        unique=bool(data.get("unique")),
        event_type=event_type if ctype == "event" else None,
        keywords=keywords,
        abilities=tuple(abilities),
        # The card file's Thai and Chinese texts are the site's, not the rules': a game keeps the English card.
        raw=data if "translations" not in data else {k: v for k, v in data.items() if k != "translations"},
        by_trigger={k: tuple(v) for k, v in by_trigger.items()},
        is_unit=ctype == "unit",
        has_continuous=any(t in by_trigger for t in CONTINUOUS_TRIGGERS),
    )


_PARSED: dict[int, tuple[Mapping[str, Any], CardDef]] = {}


def card_from_dict_cached(data: Mapping[str, Any]) -> CardDef:
    """``card_from_dict`` memoised on the dict object, re-checked by value (safe if the dict was changed)."""
    hit = _PARSED.get(id(data))
    if hit is not None and hit[0] == data:
        return hit[1]
    card = card_from_dict(data)
    if len(_PARSED) > 20000:
        _PARSED.clear()
    _PARSED[id(data)] = (card.raw, card)
    return card


def load_card_file(data: Mapping[str, Any]) -> dict[str, CardDef]:
    """Parse a ``commandeer-cards`` file (already JSON-decoded) into definitions by name."""
    if data.get("format") != "commandeer-cards":
        raise ValueError("not a commandeer-cards file (format field)")
    out: dict[str, CardDef] = {}
    for raw in data.get("cards", []):
        card = card_from_dict(raw)
        if card.name in out:
            raise ValueError(f"duplicate card name {card.name!r}")
        out[card.name] = card
    return out


def deck_problems(cards: Sequence[CardDef]) -> list[str]:
    """C-3.1 … C-3.4 checks for a deck (list of definitions, one per copy); empty when legal.

    The rules and their messages are ``deckrules.deck_issues``, the same the deck builder uses.
    """
    return [issue.message for issue in deck_issues(count_copies(cards))]


def build_deck(catalog: Mapping[str, CardDef], faction: str, *, size: int = 50) -> dict[str, Any]:
    """Deterministic legal deck for one faction: copies added round-robin, cheapest cards first.

    Returns the engine's deck form ``{"cards": [card dicts], "commander": None}``; raises ValueError
    when the faction has too few cards for a legal deck.
    """
    pool = sorted(
        (c for c in catalog.values() if c.faction == faction),
        key=lambda c: (c.type != "unit", c.command_cost + c.energy_cost, c.name),
    )
    if not pool:
        raise ValueError(f"no cards of faction {faction!r}")
    counts = {c.name: 0 for c in pool}
    chosen: list[CardDef] = []
    while len(chosen) < size:
        added = False
        for c in pool:
            if len(chosen) >= size:
                break
            if counts[c.name] < c.max_copies():
                counts[c.name] += 1
                chosen.append(c)
                added = True
        if not added:
            raise ValueError(f"faction {faction!r} has too few cards for a {size}-card deck")
    chosen.sort(key=lambda c: (c.type != "unit", c.command_cost, c.name))
    return {"cards": [dict(c.raw) for c in chosen], "commander": None}


def factions_of(catalog: Mapping[str, CardDef]) -> list[str]:
    """Faction slugs present in a catalog, sorted."""
    return sorted({c.faction for c in catalog.values()})
