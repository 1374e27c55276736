"""The few facts about a card that deck rules and statistics read, from a model row or plain data.

Pure Python (no Django import) so the validator, formats and statistics work at match start, in the
CLI and in the engine on plain card JSON (the shared card format) as well as on `cards.Card` rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What deck building needs to know about one card (C-1, C-3)."""

    name: str
    slug: str = ""
    faction: str = ""  # faction slug
    faction_name: str = ""
    card_type: str = "unit"  # "unit" | "event"
    legendary: bool = False
    unique: bool = False
    command_cost: int = 0
    energy_cost: int = 0
    power: int | None = None
    health: int | None = None
    keywords: tuple[str, ...] = ()
    shown: str = ""  # the name in the reader's language (the English `name` is the card's identity)

    @property
    def is_unit(self) -> bool:
        return self.card_type == "unit"


def faction_of(value: Any) -> tuple[str, str]:
    """(slug, name) of a faction given as a model/object, a mapping or a slug string (None: blank)."""
    if value is None:
        return "", ""
    if isinstance(value, str):
        return value, value
    if isinstance(value, Mapping):
        slug = str(value.get("slug", ""))
        return slug, str(value.get("name", slug))
    slug = str(getattr(value, "slug", ""))
    return slug, str(getattr(value, "name", slug))


def _keywords_of(value: Any) -> tuple[str, ...]:
    """Keyword codes from a list of codes, mappings or objects, or a Django related manager."""
    if value is None:
        return ()
    if hasattr(value, "all"):  # a related manager: uses prefetched rows when the caller prefetched
        value = value.all()
    codes: list[str] = []
    for item in value:
        if isinstance(item, str):
            codes.append(item)
        elif isinstance(item, Mapping):
            codes.append(str(item.get("code", "")))
        else:
            codes.append(str(getattr(item, "code", "")))
    return tuple(codes)


def card_facts(card: Any, *, with_keywords: bool = True) -> CardFacts:
    """CardFacts of a `cards.Card`, a card-JSON mapping (shared format) or any object with those attributes."""
    if isinstance(card, CardFacts):
        return card
    if isinstance(card, Mapping):
        faction, faction_name = faction_of(card.get("faction"))
        return CardFacts(
            name=str(card["name"]),
            slug=str(card.get("slug", "")),
            faction=faction,
            faction_name=faction_name,
            card_type=str(card.get("type", card.get("card_type", "unit"))),
            legendary=bool(card.get("legendary", False)),
            unique=bool(card.get("unique", False)),
            command_cost=int(card.get("command_cost", 0) or 0),
            energy_cost=int(card.get("energy_cost", 0) or 0),
            power=card.get("power"),
            health=card.get("health"),
            keywords=_keywords_of(card.get("keywords")) if with_keywords else (),
        )
    faction, faction_name = faction_of(getattr(card, "faction", None))
    return CardFacts(
        # The English name (modeltranslation's `name` follows the active language): copies are summed and
        # issues name their cards by it in every language; messages show the reader's translation.
        name=str(getattr(card, "name_en", None) or card.name),
        shown=str(card.name),
        slug=str(getattr(card, "slug", "")),
        faction=faction,
        faction_name=faction_name,
        card_type=str(getattr(card, "card_type", getattr(card, "type", "unit"))),
        legendary=bool(getattr(card, "legendary", False)),
        unique=bool(getattr(card, "unique", False)),
        command_cost=int(getattr(card, "command_cost", 0) or 0),
        energy_cost=int(getattr(card, "energy_cost", 0) or 0),
        power=getattr(card, "power", None),
        health=getattr(card, "health", None),
        keywords=_keywords_of(getattr(card, "keywords", None)) if with_keywords else (),
    )
