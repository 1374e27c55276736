"""Card files: import (checked whole first, then written in one transaction) and export, in the card
file format (docs/card-format.md); each card goes through ``card_record_errors`` like every write (C-1)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from cards.data_translations import (
    translation_errors,
    translation_limits,
    translations_apply,
    translations_of,
    with_translations,
)
from cards.models import Card, Faction, Keyword
from cards.services import (
    CARD_TRANSLATED,
    FACTION_TRANSLATED,
    KEYWORD_TRANSLATED,
    card_record_errors,
    card_slug,
    card_to_dict,
    card_upsert_from_dict,
    faction_to_dict,
    keyword_to_dict,
)
from cards.wording import in_reader_language, in_source_language, say, unknown_field
from config.errors import character_problem
from config.text import first_unstorable
from matches.engine.vocabulary import KEYWORDS

CARD_FILE_FORMAT = "commandeer-cards"
CARD_FILE_VERSION = 1
FACTION_FIELDS = ("slug", "name", "description", "color")
KEYWORD_FIELDS = ("code", "name", "reminder_text")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")


def known_slugs() -> set[str]:
    return set(Faction.objects.values_list("slug", flat=True))


def known_codes() -> set[str]:
    return set(Keyword.objects.values_list("code", flat=True))


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
        errors.append(f"{section}: " + say(gettext_noop("must be a list")))
        return []
    valid: list[dict[str, Any]] = []
    seen_keys: set[str] = set()
    seen_names: set[str] = set()
    for i, record in enumerate(records):
        label = _label(section, i, record, key)
        if not isinstance(record, Mapping):
            errors.append(f"{label}: " + say(gettext_noop("must be a JSON object")))
            continue
        problems = [f"{k}: " + unknown_field(fields) for k in sorted(set(record) - {*fields, "translations"})]
        problems += check(record)
        for attr, seen in ((key, seen_keys), ("name", seen_names)):
            value = record.get(attr)
            if isinstance(value, str):
                if value in seen:
                    problems.append(f"{attr}: " + say(gettext_noop("'%(value)s' appears twice"), value=value))
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
    with in_reader_language():
        return translation_errors(record["translations"], limits=translation_limits(model, fields))


def _faction_problems(record: Mapping[str, Any]) -> list[str]:
    problems = _translation_problems(record, Faction)
    slug, name = record.get("slug"), record.get("name")
    if not isinstance(slug, str) or not _SLUG.match(slug) or len(slug) > 60:
        problems.append(
            "slug: " + say(gettext_noop("must be letters, digits, '-' or '_' (at most %(max)s)"), max=60)
        )
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        problems.append(
            "name: " + say(gettext_noop("must be a non-empty text of at most %(max)s characters"), max=60)
        )
    if not isinstance(record.get("description", ""), str):
        problems.append("description: " + say(gettext_noop("must be text")))
    if not isinstance(record.get("color", "#666666"), str) or not _COLOR.match(
        record.get("color", "#666666")
    ):
        problems.append("color: " + say(gettext_noop("must be a hex colour like #c0392b")))
    return problems


def _keyword_problems(record: Mapping[str, Any]) -> list[str]:
    problems = _translation_problems(record, Keyword)
    if record.get("code") not in KEYWORDS:
        problems.append(
            "code: "
            + say(
                gettext_noop("unknown keyword code '%(code)s' (known: %(known)s)"),
                code=record.get("code"),
                known=", ".join(KEYWORDS),
            )
        )
    name = record.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        problems.append(
            "name: " + say(gettext_noop("must be a non-empty text of at most %(max)s characters"), max=60)
        )
    text = record.get("reminder_text")
    if not isinstance(text, str) or not text.strip():
        problems.append("reminder_text: " + say(gettext_noop("must be a non-empty text")))
    return problems


def _name_clashes(
    records: Iterable[Mapping[str, Any]], model: type[Faction] | type[Keyword], key: str, section: str
) -> list[str]:
    """A record whose name belongs to another row in the database (names are unique)."""
    owners = dict(model.objects.values_list("name", key))
    return [
        f"{section} ({r[key]}): name: "
        + say(
            gettext_noop("'%(name)s' already belongs to %(key)s '%(owner)s'"),
            name=r["name"],
            key=key,
            owner=owners[r["name"]],
        )
        for r in records
        if r["name"] in owners and owners[r["name"]] != r[key]
    ]


@in_source_language
def cards_validate(data: Any) -> tuple[list[str], dict[str, Any]]:
    """Check a whole card file; return (every error with its position, the valid sections)."""
    errors: list[str] = []
    if not isinstance(data, Mapping):
        return [say(gettext_noop("the file must be a JSON object"))], {}
    unstorable = first_unstorable(data)
    if unstorable is not None:  # PostgreSQL would refuse it at write time (a 500 in the admin)
        with in_reader_language():
            described = character_problem(unstorable[1])
        problem = say(gettext_noop("contains %(problem)s"), problem=described)
        return [f"{unstorable[0]}: {problem}"], {}
    for key in sorted(set(data) - {"format", "version", "factions", "keywords", "cards"}):
        errors.append(f"{key}: " + say(gettext_noop("unknown top-level field")))
    if data.get("format") != CARD_FILE_FORMAT:
        errors.append("format: " + say(gettext_noop("must be '%(format)s'"), format=CARD_FILE_FORMAT))
    if data.get("version") != CARD_FILE_VERSION:
        errors.append("version: " + say(gettext_noop("must be %(version)s"), version=CARD_FILE_VERSION))
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
    faction_slugs = known_slugs() | {f["slug"] for f in factions}
    keyword_codes = known_codes() | {k["code"] for k in keywords}
    # Faction/keyword records that failed validation still count as "known" so that their cards are
    # not reported a second time for the same mistake.
    for section, key, known in (("factions", "slug", faction_slugs), ("keywords", "code", keyword_codes)):
        for record in data.get(section) or []:
            if isinstance(record, Mapping) and isinstance(record.get(key), str):
                known.add(record[key])
    cards = data.get("cards", [])
    if not isinstance(cards, list):
        errors.append("cards: " + say(gettext_noop("must be a list")))
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
                    say(gettext_noop("the same name appears at cards[%(index)s]"), index=seen_names[name])
                )
            else:
                seen_names[name] = i
                slug = card_slug(name)
                owner = seen_slugs.get(slug) or existing_slugs.get(slug)
                if owner is not None and owner != name:
                    problems.setdefault("name", []).append(
                        say(
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
                        + say(
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


@in_source_language
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
        report.errors = [say(gettext_noop("the import was rolled back: %(error)s"), error=exc)]
    return report


@in_source_language
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
