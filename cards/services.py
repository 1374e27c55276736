"""Writes to the card database: the card JSON format (to/from a Card), import, export, API writes.

The card file format is the shared contract described in docs/card-format.md. Every write goes
through ``card_record_errors`` so the importer, the API and the admin refuse the same cards (C-1).
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop

from cards.data_translations import (
    translation_errors,
    translation_limits,
    translations_apply,
    translations_of,
    with_translations,
)
from cards.models import DIRECTIONS, Card, Faction, Keyword, card_field_errors
from cards.records import CARD_DEFAULTS, CARD_FIELDS, REQUIRED_CARD_FIELDS
from config.errors import ApplicationError, character_problem
from config.text import first_unstorable
from matches.engine.vocabulary import KEYWORDS

CARD_FILE_FORMAT = "commandeer-cards"
CARD_FILE_VERSION = 1

FACTION_FIELDS = ("slug", "name", "description", "color")
KEYWORD_FIELDS = ("code", "name", "reminder_text")
# The translatable fields of each record (cards/translation.py), carried under "translations".
CARD_TRANSLATED = ("name", "rules_text", "flavor_text")
FACTION_TRANSLATED = ("name", "description")
KEYWORD_TRANSLATED = ("name", "reminder_text")
SOURCE_LANGUAGE = "en"  # records, exports and lookups by name are English whatever the viewer reads
MAX_COST = 32767  # PositiveSmallIntegerField
MAX_STAT = 2_000_000_000  # PositiveIntegerField
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
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

# The language of the person reading the errors: records are read in English (SOURCE_LANGUAGE), so
# `_in_source_language` notes the reader's language before it switches, and `_say` words messages in it.
_READER: contextvars.ContextVar[str | None] = contextvars.ContextVar("card_errors_reader", default=None)
_F = TypeVar("_F", bound=Callable[..., Any])


def _in_source_language(fn: _F) -> _F:
    """Run ``fn`` with English active (model fields, lookups), its error messages in the caller's language."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _READER.set(_READER.get() or translation.get_language() or SOURCE_LANGUAGE)
        try:
            with translation.override(SOURCE_LANGUAGE):
                return fn(*args, **kwargs)
        finally:
            _READER.reset(token)

    return wrapper  # type: ignore[return-value]


def _in_reader_language() -> translation.override:
    return translation.override(_READER.get() or translation.get_language())


def _say(template: str, **params: Any) -> str:
    """``template`` (a ``gettext_noop``'d message) in the reader's language, with named ``params``."""
    with _in_reader_language():
        text = gettext(template)
    return text % params if params else text


def _unknown_field(fields: Iterable[str]) -> str:
    return _say(gettext_noop("unknown field (allowed: %(fields)s, translations)"), fields=", ".join(fields))


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
    with _in_reader_language():  # the card file's reader (staff), though the records are read in English
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
        return {"card": [_say(gettext_noop("a card must be a JSON object"))]}
    for key in sorted(set(record) - {*CARD_FIELDS, "translations"}, key=str):
        add(str(key), _unknown_field(CARD_FIELDS))
    if "translations" in record:
        with _in_reader_language():
            problems = translation_errors(
                record["translations"], limits=translation_limits(Card, CARD_TRANSLATED)
            )
        for problem in problems:
            add("translations", problem)
    for key in REQUIRED_CARD_FIELDS:
        if key not in record:
            add(key, _say(gettext_noop("this field is required")))
    r = {name: record.get(name, CARD_DEFAULTS.get(name)) for name in CARD_FIELDS}
    name = r["name"]
    if "name" in record and (not isinstance(name, str) or not name.strip() or len(name) > 80):
        add("name", _say(gettext_noop("must be a non-empty text of at most %(max)s characters"), max=80))
    if "faction" in record:
        if not isinstance(r["faction"], str):
            add("faction", _say(gettext_noop("must be a faction slug")))
        elif r["faction"] not in faction_slugs:
            known = ", ".join(sorted(faction_slugs)) or "-"
            add(
                "faction",
                _say(
                    gettext_noop("unknown faction '%(faction)s' (known: %(known)s)"),
                    faction=r["faction"],
                    known=known,
                ),
            )
    if "type" in record and r["type"] not in ("unit", "event"):
        add("type", _say(gettext_noop("must be 'unit' or 'event'")))
    for cost in ("command_cost", "energy_cost"):
        if cost in record and (not _is_int(r[cost]) or not 0 <= r[cost] <= MAX_COST):
            add(cost, _say(gettext_noop("must be a whole number, 0 or more")))
    for stat in ("power", "health"):
        if r[stat] is not None and (not _is_int(r[stat]) or not 0 <= r[stat] <= MAX_STAT):
            add(stat, _say(gettext_noop("must be a whole number, 0 or more (e.g. 3000), or null")))
    for flag in ("legendary", "unique"):
        if not isinstance(r[flag], bool):
            add(flag, _say(gettext_noop("must be true or false")))
    if r["event_type"] is not None and not isinstance(r["event_type"], str):
        add("event_type", _say(gettext_noop("must be null, 'planning', 'defensive' or 'ongoing'")))
    if not isinstance(r["arrows"], list):
        add(
            "arrows",
            _say(
                gettext_noop("must be a list drawn from %(directions)s (C-1.2)"),
                directions=" ".join(DIRECTIONS),
            ),
        )
    for text in ("rules_text", "flavor_text"):
        if not isinstance(r[text], str):
            add(text, _say(gettext_noop("must be text")))
    if not isinstance(r["abilities"], list):
        add("abilities", _say(gettext_noop("must be a list of abilities (docs/card-abilities.md)")))
    codes = r["keywords"]
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        add("keywords", _say(gettext_noop("must be a list of keyword codes")))
        codes = None
    else:
        for code in codes:
            if code not in keyword_codes:
                known = ", ".join(sorted(keyword_codes)) or "-"
                add(
                    "keywords",
                    _say(
                        gettext_noop("unknown keyword '%(code)s' (known: %(known)s)"), code=code, known=known
                    ),
                )
        if len(set(codes)) != len(codes):
            add("keywords", _say(gettext_noop("each keyword may appear once")))
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


def _known_slugs() -> set[str]:
    return set(Faction.objects.values_list("slug", flat=True))


def _known_codes() -> set[str]:
    return set(Keyword.objects.values_list("code", flat=True))


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
@_in_source_language
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
            message = _say(
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
@_in_source_language
def card_create(*, data: Mapping[str, Any]) -> Card:
    """Create a card from a card record (API); a card of that name must not exist yet."""
    name = data.get("name")
    if isinstance(name, str) and Card.objects.filter(name=name).exists():
        raise ValidationError(
            {"name": [_say(gettext_noop("a card named '%(name)s' already exists"), name=name)]}
        )
    card, _ = card_upsert_from_dict(data, change_reason="Created through the API")
    return card


@transaction.atomic
@_in_source_language
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
        errors = {"name": [_say(gettext_noop("a card named '%(name)s' already exists"), name=new_name)]}
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
            _say(
                gettext_noop("'%(card)s' is used by %(count)s other record(s) and cannot be deleted"),
                card=card.name,
                count=len(exc.protected_objects),
            ),
            status_code=409,
        ) from exc


# ---------------------------------------------------------------- import / export


@dataclass
class ImportReport:
    """What an import did (or, with errors, why it did nothing)."""

    errors: list[str] = field(default_factory=list)
    factions: dict[str, int] = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    keywords: dict[str, int] = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    cards: dict[str, int] = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors

    def summary(self) -> str:
        if self.errors:
            return gettext("%(count)s error(s); nothing was imported") % {"count": len(self.errors)}
        parts = [
            template % c
            for template, c in (
                (
                    gettext("factions: %(created)s created, %(updated)s updated, %(unchanged)s unchanged"),
                    self.factions,
                ),
                (
                    gettext("keywords: %(created)s created, %(updated)s updated, %(unchanged)s unchanged"),
                    self.keywords,
                ),
                (
                    gettext("cards: %(created)s created, %(updated)s updated, %(unchanged)s unchanged"),
                    self.cards,
                ),
            )
        ]
        summary = "; ".join(parts)
        return (
            gettext("dry run, nothing written; %(summary)s") % {"summary": summary}
            if self.dry_run
            else summary
        )


def _label(section: str, index: int, record: Any, key: str) -> str:
    name = record.get(key) if isinstance(record, Mapping) else None
    return f"{section}[{index}]" + (f" ({name})" if isinstance(name, str) and name else "")


def _check_simple_records(
    records: Any,
    *,
    section: str,
    fields: tuple[str, ...],
    key: str,
    check: Any,
    errors: list[str],
) -> list[dict[str, Any]]:
    """Validate the factions or keywords section; return the valid records."""
    if not isinstance(records, list):
        errors.append(f"{section}: " + _say(gettext_noop("must be a list")))
        return []
    valid: list[dict[str, Any]] = []
    seen_keys: set[str] = set()
    seen_names: set[str] = set()
    for i, record in enumerate(records):
        label = _label(section, i, record, key)
        if not isinstance(record, Mapping):
            errors.append(f"{label}: " + _say(gettext_noop("must be a JSON object")))
            continue
        problems = [
            f"{k}: " + _unknown_field(fields) for k in sorted(set(record) - {*fields, "translations"})
        ]
        problems += check(record)
        for attr, seen in ((key, seen_keys), ("name", seen_names)):
            value = record.get(attr)
            if isinstance(value, str):
                if value in seen:
                    problems.append(
                        f"{attr}: " + _say(gettext_noop("'%(value)s' appears twice"), value=value)
                    )
                seen.add(value)
        if problems:
            errors.extend(f"{label}: {p}" for p in problems)
        else:
            valid.append(dict(record))
    return valid


def _translation_problems(record: Mapping[str, Any], model: type[Faction] | type[Keyword]) -> list[str]:
    if "translations" not in record:
        return []
    fields = FACTION_TRANSLATED if model is Faction else KEYWORD_TRANSLATED
    with _in_reader_language():
        return translation_errors(record["translations"], limits=translation_limits(model, fields))


def _faction_problems(record: Mapping[str, Any]) -> list[str]:
    problems = _translation_problems(record, Faction)
    slug, name = record.get("slug"), record.get("name")
    if not isinstance(slug, str) or not _SLUG.match(slug) or len(slug) > 60:
        problems.append(
            "slug: " + _say(gettext_noop("must be letters, digits, '-' or '_' (at most %(max)s)"), max=60)
        )
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        problems.append(
            "name: " + _say(gettext_noop("must be a non-empty text of at most %(max)s characters"), max=60)
        )
    if not isinstance(record.get("description", ""), str):
        problems.append("description: " + _say(gettext_noop("must be text")))
    if not isinstance(record.get("color", "#666666"), str) or not _COLOR.match(
        record.get("color", "#666666")
    ):
        problems.append("color: " + _say(gettext_noop("must be a hex colour like #c0392b")))
    return problems


def _keyword_problems(record: Mapping[str, Any]) -> list[str]:
    problems = _translation_problems(record, Keyword)
    if record.get("code") not in KEYWORDS:
        problems.append(
            "code: "
            + _say(
                gettext_noop("unknown keyword code '%(code)s' (known: %(known)s)"),
                code=record.get("code"),
                known=", ".join(KEYWORDS),
            )
        )
    name = record.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        problems.append(
            "name: " + _say(gettext_noop("must be a non-empty text of at most %(max)s characters"), max=60)
        )
    text = record.get("reminder_text")
    if not isinstance(text, str) or not text.strip():
        problems.append("reminder_text: " + _say(gettext_noop("must be a non-empty text")))
    return problems


def _name_clashes(
    records: Iterable[Mapping[str, Any]], model: type[Faction] | type[Keyword], key: str, section: str
) -> list[str]:
    """A record whose name belongs to another row in the database (names are unique)."""
    owners = dict(model.objects.values_list("name", key))
    return [
        f"{section} ({r[key]}): name: "
        + _say(
            gettext_noop("'%(name)s' already belongs to %(key)s '%(owner)s'"),
            name=r["name"],
            key=key,
            owner=owners[r["name"]],
        )
        for r in records
        if r["name"] in owners and owners[r["name"]] != r[key]
    ]


@_in_source_language
def cards_validate(data: Any) -> tuple[list[str], dict[str, Any]]:
    """Check a whole card file; return (every error with its position, the valid sections)."""
    errors: list[str] = []
    if not isinstance(data, Mapping):
        return [_say(gettext_noop("the file must be a JSON object"))], {}
    unstorable = first_unstorable(data)
    if unstorable is not None:  # PostgreSQL would refuse it at write time (a 500 in the admin)
        with _in_reader_language():
            described = character_problem(unstorable[1])
        problem = _say(gettext_noop("contains %(problem)s"), problem=described)
        return [f"{unstorable[0]}: {problem}"], {}
    for key in sorted(set(data) - {"format", "version", "factions", "keywords", "cards"}):
        errors.append(f"{key}: " + _say(gettext_noop("unknown top-level field")))
    if data.get("format") != CARD_FILE_FORMAT:
        errors.append("format: " + _say(gettext_noop("must be '%(format)s'"), format=CARD_FILE_FORMAT))
    if data.get("version") != CARD_FILE_VERSION:
        errors.append("version: " + _say(gettext_noop("must be %(version)s"), version=CARD_FILE_VERSION))
    factions = _check_simple_records(
        data.get("factions", []), section="factions", fields=FACTION_FIELDS, key="slug",
        check=_faction_problems, errors=errors,
    )  # fmt: skip
    keywords = _check_simple_records(
        data.get("keywords", []), section="keywords", fields=KEYWORD_FIELDS, key="code",
        check=_keyword_problems, errors=errors,
    )  # fmt: skip
    errors += _name_clashes(factions, Faction, "slug", "factions")
    errors += _name_clashes(keywords, Keyword, "code", "keywords")
    faction_slugs = _known_slugs() | {f["slug"] for f in factions}
    keyword_codes = _known_codes() | {k["code"] for k in keywords}
    # Faction/keyword records that failed validation still count as "known" so that their cards are
    # not reported a second time for the same mistake.
    for section, key, known in (("factions", "slug", faction_slugs), ("keywords", "code", keyword_codes)):
        for record in data.get(section) or []:
            if isinstance(record, Mapping) and isinstance(record.get(key), str):
                known.add(record[key])
    cards = data.get("cards", [])
    if not isinstance(cards, list):
        errors.append("cards: " + _say(gettext_noop("must be a list")))
        cards = []
    existing_slugs = dict(Card.objects.values_list("slug", "name"))
    seen_names: dict[str, int] = {}
    seen_slugs: dict[str, str] = {}
    seen_translated: dict[tuple[str, str], int] = {}
    valid_cards = []
    for i, record in enumerate(cards):
        label = _label("cards", i, record, "name")
        problems = card_record_errors(record, faction_slugs=faction_slugs, keyword_codes=keyword_codes)
        name = record.get("name") if isinstance(record, Mapping) else None
        if isinstance(name, str) and name:
            if name in seen_names:
                problems.setdefault("name", []).append(
                    _say(gettext_noop("the same name appears at cards[%(index)s]"), index=seen_names[name])
                )
            else:
                seen_names[name] = i
                slug = card_slug(name)
                owner = seen_slugs.get(slug) or existing_slugs.get(slug)
                if owner is not None and owner != name:
                    problems.setdefault("name", []).append(
                        _say(
                            gettext_noop("its URL slug '%(slug)s' is already used by '%(owner)s'"),
                            slug=slug,
                            owner=owner,
                        )
                    )
                seen_slugs[slug] = name
        # Translated names are unique per language too (a column each): two cards may not share one.
        translations = record.get("translations") if isinstance(record, Mapping) else None
        for language, texts in (translations or {}).items() if isinstance(translations, Mapping) else ():
            local = texts.get("name") if isinstance(texts, Mapping) else None
            if isinstance(local, str) and local:
                first = seen_translated.setdefault((language, local), i)
                if first != i:
                    problems.setdefault("translations", []).append(
                        f"translations.{language}.name: "
                        + _say(
                            gettext_noop("'%(name)s' is also the name of cards[%(index)s]"),
                            name=local,
                            index=first,
                        )
                    )
        for field_name, messages in problems.items():
            errors.extend(f"{label}: {field_name}: {m}" for m in messages)
        if not problems:
            valid_cards.append(record)
    return errors, {"factions": factions, "keywords": keywords, "cards": valid_cards}


def _upsert_simple(
    model: type[Faction] | type[Keyword], key: str, records: list[dict[str, Any]], counts: dict[str, int]
) -> None:
    translated = FACTION_TRANSLATED if model is Faction else KEYWORD_TRANSLATED
    existing = {getattr(obj, key): obj for obj in model.objects.all()}
    for full_record in records:
        record = {k: v for k, v in full_record.items() if k != "translations"}
        translations = full_record.get("translations")
        obj = existing.get(record[key])
        if obj is None:
            obj = model(**record)
            if translations is not None:
                translations_apply(obj, translations, translated)
            obj._change_reason = "Imported from a card file"  # type: ignore[union-attr]
            obj.save()
            counts["created"] += 1
            continue
        changed = False
        for name, value in record.items():
            if getattr(obj, name) != value:
                setattr(obj, name, value)
                changed = True
        if translations is not None and translations != translations_of(obj, translated):
            translations_apply(obj, translations, translated)
            changed = True
        if changed:
            obj._change_reason = "Imported from a card file"  # type: ignore[union-attr]
            obj.save()
            counts["updated"] += 1
        else:
            counts["unchanged"] += 1


class _DryRun(Exception):
    """Rolls a dry-run import back after doing all the work."""


@_in_source_language
def cards_import(data: Any, *, dry_run: bool = False) -> ImportReport:
    """Import a card file ALL-OR-NOTHING: validate every record, then write in one transaction.

    Cards are matched by name, factions by slug, keywords by code; unchanged rows are not saved, so
    importing the same file twice leaves the same database. With errors nothing is written and the
    report lists every bad record with its position, e.g. "cards[12] (Ember Scout): power: ...".
    """
    report = ImportReport(dry_run=dry_run)
    errors, valid = cards_validate(data)
    if errors:
        report.errors = errors
        return report
    try:
        with transaction.atomic():
            _upsert_simple(Faction, "slug", valid["factions"], report.factions)
            _upsert_simple(Keyword, "code", valid["keywords"], report.keywords)
            factions = {f.slug: f for f in Faction.objects.all()}
            keywords = {k.code: k for k in Keyword.objects.all()}
            for record in valid["cards"]:
                _, outcome = card_upsert_from_dict(
                    record, factions=factions, keywords=keywords, change_reason="Imported from a card file"
                )
                report.cards[outcome] += 1
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    except (IntegrityError, ValidationError) as exc:
        report.errors = [_say(gettext_noop("the import was rolled back: %(error)s"), error=exc)]
    return report


@_in_source_language
def cards_export() -> dict[str, Any]:
    """The whole card database as a card file, in a deterministic order (factions by slug, keywords
    by code, cards by faction then name), so export -> import -> export gives the same JSON."""
    cards = Card.objects.select_related("faction").prefetch_related("keywords")
    return {
        "format": CARD_FILE_FORMAT,
        "version": CARD_FILE_VERSION,
        "factions": [faction_to_dict(f) for f in sorted(Faction.objects.all(), key=lambda f: f.slug)],
        "keywords": [keyword_to_dict(k) for k in sorted(Keyword.objects.all(), key=lambda k: k.code)],
        "cards": [
            with_translations(card_to_dict(c), c, CARD_TRANSLATED)
            for c in sorted(cards, key=lambda c: (c.faction.slug, c.name))
        ],
    }
