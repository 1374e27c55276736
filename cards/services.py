"""Writes to the card database: the card JSON format (to/from a Card), its validation, API writes (card
files: ``cards.card_files``).

The card file format is the shared contract described in docs/card-format.md. Every write goes
through ``card_record_errors`` so the importer, the API and the admin refuse the same cards (C-1).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from cards.data_translations import (
    translation_errors,
    translation_limits,
    translations_apply,
    translations_of,
    with_translations,
)
from cards.models import DIRECTIONS, Card, Faction, Keyword, card_field_errors
from cards.records import CARD_DEFAULTS, CARD_FIELDS, REQUIRED_CARD_FIELDS
from cards.wording import in_reader_language, in_source_language, say, unknown_field
from config.errors import ApplicationError

# The translatable fields of each record (cards/translation.py), carried under "translations".
CARD_TRANSLATED = ("name", "rules_text", "flavor_text")
FACTION_TRANSLATED = ("name", "description")
KEYWORD_TRANSLATED = ("name", "reminder_text")
MAX_COST = 32767  # PositiveSmallIntegerField
MAX_STAT = 2_000_000_000  # PositiveIntegerField
# The Card fields the consistency rules read: the keyword arguments of card_field_errors (C-1).
CONSISTENCY_FIELDS = (
    "card_type",
    "power",
    "health",
    "arrows",
    "legendary",
    "unique",
    "event_type",
    "abilities",
)

Errors = dict[str, list[str]]


# ---------------------------------------------------------------- the card JSON format


def _canonical_effect(effect: Any) -> Any:
    if not isinstance(effect, Mapping):
        return effect
    head = {k: effect[k] for k in ("effect", "target") if k in effect}
    return head | {k: effect[k] for k in sorted(effect) if k not in head}


def canonical_ability(ability: Any) -> Any:
    """An ability with its keys in one fixed order, so exports are identical on every database."""
    if not isinstance(ability, Mapping):
        return ability
    order = ("trigger", "x", "cost", "once_per_turn", "effects", "text")
    result = {k: ability[k] for k in order if k in ability}
    result |= {k: ability[k] for k in sorted(ability) if k not in result}
    if isinstance(result.get("effects"), list):
        result["effects"] = [_canonical_effect(e) for e in result["effects"]]
    if isinstance(result.get("cost"), Mapping):
        result["cost"] = {k: result["cost"][k] for k in sorted(result["cost"])}
    return result


def canonical_arrows(arrows: Any) -> Any:
    """Arrows in compass order (N, NE, E, ... NW); anything invalid is returned untouched."""
    if isinstance(arrows, list) and all(a in DIRECTIONS for a in arrows):
        return sorted(arrows, key=DIRECTIONS.index)
    return arrows


def card_to_dict(card: Card | Mapping[str, Any]) -> dict[str, Any]:
    """One card in the shared card JSON format (docs/card-format.md).

    `card` is a Card row (uses its prefetched faction and keywords) or a mapping of the row's field
    values with `faction` as the faction slug and `keywords` as keyword codes: match set-up reads decks
    with `values()` queries (decks.selectors.deck_play_get), where model instances would cost more CPU
    than the rest of the work, and still gets the one format written here.
    """
    value: Callable[[str], Any]
    if isinstance(card, Mapping):
        value = card.__getitem__
        faction, codes = card["faction"], card["keywords"]
    else:
        row = card

        def value(name: str) -> Any:
            # The English columns: the format is English whatever language the request reads (decks
            # frozen for a match, AI decks, exports), while `row.name` would be the reader's language.
            if name in CARD_TRANSLATED:
                return getattr(row, f"{name}_en") or ""
            return getattr(row, name)

        faction, codes = card.faction.slug, [k.code for k in card.keywords.all()]
    abilities = value("abilities")
    return {
        "name": value("name"),
        "faction": faction,
        "type": value("card_type"),
        "command_cost": value("command_cost"),
        "energy_cost": value("energy_cost"),
        "power": value("power"),
        "health": value("health"),
        "arrows": list(value("arrows") or []),
        "legendary": value("legendary"),
        "unique": value("unique"),
        "event_type": value("event_type") or None,
        "keywords": sorted(codes),
        "rules_text": value("rules_text"),
        "abilities": [canonical_ability(a) for a in abilities] if isinstance(abilities, list) else abilities,
        "flavor_text": value("flavor_text"),
    }


def card_model_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """A card record's values as Card model fields: card_to_dict the other way, without faction and keywords."""
    return {
        "name": record["name"],
        "card_type": record["type"],
        "command_cost": record["command_cost"],
        "energy_cost": record["energy_cost"],
        "power": record["power"],
        "health": record["health"],
        "arrows": record["arrows"],
        "legendary": record["legendary"],
        "unique": record["unique"],
        "event_type": record["event_type"] or "",
        "rules_text": record["rules_text"],
        "abilities": record["abilities"],
        "flavor_text": record["flavor_text"],
    }


def faction_to_dict(faction: Faction) -> dict[str, Any]:
    record = {
        "slug": faction.slug,
        "name": faction.name_en,  # type: ignore[attr-defined]  # modeltranslation column
        "description": faction.description_en or "",  # type: ignore[attr-defined]
        "color": faction.color,
    }
    return with_translations(record, faction, FACTION_TRANSLATED)


def keyword_to_dict(keyword: Keyword) -> dict[str, Any]:
    record = {
        "code": keyword.code,
        "name": keyword.name_en,  # type: ignore[attr-defined]  # modeltranslation column
        "reminder_text": keyword.reminder_text_en,  # type: ignore[attr-defined]
    }
    return with_translations(record, keyword, KEYWORD_TRANSLATED)


def normalize_card_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A valid card record with defaults filled in and canonical ordering (what export would write)."""
    full = {name: record.get(name, CARD_DEFAULTS.get(name)) for name in CARD_FIELDS}
    full["event_type"] = full["event_type"] or None
    full["keywords"] = sorted(full["keywords"])
    full["arrows"] = canonical_arrows(list(full["arrows"]))
    full["abilities"] = [canonical_ability(a) for a in full["abilities"]]
    return full


def card_slug(name: str) -> str:
    """The URL slug of a card name; non-Latin names (e.g. Thai) keep their letters."""
    fallback = "card-" + hashlib.sha1(name.encode()).hexdigest()[:10]
    return (slugify(name) or slugify(name, allow_unicode=True) or fallback)[:80]


# ---------------------------------------------------------------- validation


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def record_field_errors(record: Mapping[str, Any], *, keyword_codes: list[str] | None = None) -> Errors:
    """cards.models.card_field_errors (C-1) for a well-typed record in the card JSON format."""
    fields = card_model_fields(record)
    with in_reader_language():  # the card file's reader (staff), though the records are read in English
        return card_field_errors(
            **{name: fields[name] for name in CONSISTENCY_FIELDS}, keyword_codes=keyword_codes
        )


def card_record_errors(
    record: Any, *, faction_slugs: Collection[str], keyword_codes: Collection[str]
) -> Errors:
    """Every problem with one card record, as {field: [messages]}; empty when it can be saved (C-1)."""
    errors: Errors = {}

    def add(name: str, message: str) -> None:
        errors.setdefault(name, []).append(message)

    if not isinstance(record, Mapping):
        return {"card": [say(gettext_noop("a card must be a JSON object"))]}
    for key in sorted(set(record) - {*CARD_FIELDS, "translations"}, key=str):
        add(str(key), unknown_field(CARD_FIELDS))
    if "translations" in record:
        with in_reader_language():
            problems = translation_errors(
                record["translations"], limits=translation_limits(Card, CARD_TRANSLATED)
            )
        for problem in problems:
            add("translations", problem)
    for key in REQUIRED_CARD_FIELDS:
        if key not in record:
            add(key, say(gettext_noop("this field is required")))
    r = {name: record.get(name, CARD_DEFAULTS.get(name)) for name in CARD_FIELDS}
    name = r["name"]
    if "name" in record and (not isinstance(name, str) or not name.strip() or len(name) > 80):
        add("name", say(gettext_noop("must be a non-empty text of at most %(max)s characters"), max=80))
    if "faction" in record:
        if not isinstance(r["faction"], str):
            add("faction", say(gettext_noop("must be a faction slug")))
        elif r["faction"] not in faction_slugs:
            known = ", ".join(sorted(faction_slugs)) or "-"
            add(
                "faction",
                say(
                    gettext_noop("unknown faction '%(faction)s' (known: %(known)s)"),
                    faction=r["faction"],
                    known=known,
                ),
            )
    if "type" in record and r["type"] not in ("unit", "event"):
        add("type", say(gettext_noop("must be 'unit' or 'event'")))
    for cost in ("command_cost", "energy_cost"):
        if cost in record and (not _is_int(r[cost]) or not 0 <= r[cost] <= MAX_COST):
            add(cost, say(gettext_noop("must be a whole number, 0 or more")))
    for stat in ("power", "health"):
        if r[stat] is not None and (not _is_int(r[stat]) or not 0 <= r[stat] <= MAX_STAT):
            add(stat, say(gettext_noop("must be a whole number, 0 or more (e.g. 3000), or null")))
    for flag in ("legendary", "unique"):
        if not isinstance(r[flag], bool):
            add(flag, say(gettext_noop("must be true or false")))
    if r["event_type"] is not None and not isinstance(r["event_type"], str):
        add("event_type", say(gettext_noop("must be null, 'planning', 'defensive' or 'ongoing'")))
    if not isinstance(r["arrows"], list):
        add(
            "arrows",
            say(
                gettext_noop("must be a list drawn from %(directions)s (C-1.2)"),
                directions=" ".join(DIRECTIONS),
            ),
        )
    for text in ("rules_text", "flavor_text"):
        if not isinstance(r[text], str):
            add(text, say(gettext_noop("must be text")))
    if not isinstance(r["abilities"], list):
        add("abilities", say(gettext_noop("must be a list of abilities (docs/card-abilities.md)")))
    codes = r["keywords"]
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        add("keywords", say(gettext_noop("must be a list of keyword codes")))
        codes = None
    else:
        for code in codes:
            if code not in keyword_codes:
                known = ", ".join(sorted(keyword_codes)) or "-"
                add(
                    "keywords",
                    say(
                        gettext_noop("unknown keyword '%(code)s' (known: %(known)s)"), code=code, known=known
                    ),
                )
        if len(set(codes)) != len(codes):
            add("keywords", say(gettext_noop("each keyword may appear once")))
    if errors.keys() & {
        "type",
        "power",
        "health",
        "legendary",
        "unique",
        "event_type",
        "arrows",
        "abilities",
    }:
        return errors  # the consistency rules need well-typed values
    if "type" not in record:
        return errors
    for field_name, messages in record_field_errors(r, keyword_codes=codes).items():
        for message in messages:
            if message not in errors.get(field_name, []):
                add(field_name, message)
    return errors


def _slug_owner(slug: str, *, exclude_pk: int | None) -> str | None:
    qs = Card.objects.filter(slug=slug)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return qs.values_list("name", flat=True).first()


# ---------------------------------------------------------------- single-card writes


def _apply_record(
    card: Card,
    record: Mapping[str, Any],
    *,
    factions: Mapping[str, Faction],
    keywords: Mapping[str, Keyword],
    change_reason: str,
    translations: Mapping[str, Any] | None = None,
) -> None:
    for name, value in card_model_fields(record).items():
        setattr(card, name, value)
    if translations is not None:
        translations_apply(card, translations, CARD_TRANSLATED)
    card.faction = factions[record["faction"]]
    if not card.slug:
        card.slug = card_slug(card.name)
    if change_reason:
        card._change_reason = change_reason  # type: ignore[attr-defined]  # simple_history
    card.save()
    wanted = {keywords[c].pk for c in record["keywords"]}
    if {k.pk for k in card.keywords.all()} != wanted:
        card.keywords.set(list(wanted))


@transaction.atomic
@in_source_language
def card_upsert_from_dict(
    data: Mapping[str, Any],
    *,
    factions: Mapping[str, Faction] | None = None,
    keywords: Mapping[str, Keyword] | None = None,
    change_reason: str = "",
) -> tuple[Card, str]:
    """Create or update the card named ``data['name']`` from a card record.

    Returns the card and "created", "updated" or "unchanged" (an unchanged card is not saved, so
    history stays clean). Raises ValidationError({field: [messages]}) for an inconsistent record.
    A record with "translations" sets exactly those; one without leaves the card's translations as they are.
    """
    factions = factions if factions is not None else {f.slug: f for f in Faction.objects.all()}
    keywords = keywords if keywords is not None else {k.code: k for k in Keyword.objects.all()}
    errors = card_record_errors(data, faction_slugs=factions.keys(), keyword_codes=keywords.keys())
    if errors:
        raise ValidationError(errors)
    record = normalize_card_record(data)
    translations = data.get("translations")
    card = (
        Card.objects.select_related("faction")
        .prefetch_related("keywords")
        .filter(name=record["name"])
        .first()
    )
    if card is None:
        slug = card_slug(record["name"])
        owner = _slug_owner(slug, exclude_pk=None)
        if owner is not None:
            message = say(
                gettext_noop("its URL slug '%(slug)s' is already used by the card '%(owner)s'"),
                slug=slug,
                owner=owner,
            )
            raise ValidationError({"name": [message]})
        card = Card(slug=slug)
        _apply_record(
            card, record, factions=factions, keywords=keywords, change_reason=change_reason,
            translations=translations,
        )  # fmt: skip
        return card, "created"
    if card_to_dict(card) == record and translations in (None, translations_of(card, CARD_TRANSLATED)):
        return card, "unchanged"
    _apply_record(
        card, record, factions=factions, keywords=keywords, change_reason=change_reason,
        translations=translations,
    )  # fmt: skip
    return card, "updated"


@transaction.atomic
@in_source_language
def card_create(*, data: Mapping[str, Any]) -> Card:
    """Create a card from a card record (API); a card of that name must not exist yet."""
    name = data.get("name")
    if isinstance(name, str) and Card.objects.filter(name=name).exists():
        raise ValidationError(
            {"name": [say(gettext_noop("a card named '%(name)s' already exists"), name=name)]}
        )
    card, _ = card_upsert_from_dict(data, change_reason="Created through the API")
    return card


@transaction.atomic
@in_source_language
def card_update(*, card: Card, data: Mapping[str, Any], partial: bool = False) -> Card:
    """Replace (or, when ``partial``, patch) a card's fields from a card record (API).

    Renaming keeps the card's slug (its URL) unless the new name's slug is free, then it follows.
    """
    card = Card.objects.select_for_update().get(pk=card.pk)
    record = {**card_to_dict(card), **data} if partial else dict(data)
    factions = {f.slug: f for f in Faction.objects.all()}
    keywords = {k.code: k for k in Keyword.objects.all()}
    errors = card_record_errors(record, faction_slugs=factions.keys(), keyword_codes=keywords.keys())
    new_name = record.get("name")
    if not errors and new_name != card.name and Card.objects.filter(name=new_name).exists():
        errors = {"name": [say(gettext_noop("a card named '%(name)s' already exists"), name=new_name)]}
    if errors:
        raise ValidationError(errors)
    normalized = normalize_card_record(record)
    if normalized["name"] != card.name:
        slug = card_slug(normalized["name"])
        if _slug_owner(slug, exclude_pk=card.pk) is None:
            card.slug = slug
    _apply_record(
        card, normalized, factions=factions, keywords=keywords, change_reason="Changed through the API",
        translations=record.get("translations"),
    )  # fmt: skip
    return card


@transaction.atomic
def card_delete(*, card: Card) -> None:
    """Delete a card; refuse (409) while decks or matches still use it."""
    try:
        card.delete()
    except ProtectedError as exc:
        raise ApplicationError(
            "card_in_use",
            say(
                gettext_noop("'%(card)s' is used by %(count)s other record(s) and cannot be deleted"),
                card=card.name,
                count=len(exc.protected_objects),
            ),
            status_code=409,
        ) from exc
