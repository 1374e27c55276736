"""The `"translations"` object of curated data records (card JSON, Westeros JSON; docs/i18n-data.md).

A record carries its Thai and Chinese texts as
``"translations": {"th": {"name": "…"}, "zh-hans": {"name": "…", "rules_text": "…"}}`` — only the
translatable fields, any of them may be missing. In the database they are modeltranslation's
per-language columns (``name_th``, ``name_zh_hans``); English stays in the record's own fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.db import models

# The languages a data file may carry besides English (the source), in file order.
TRANSLATION_LANGUAGES = ("th", "zh-hans")


def translation_errors(value: Any, *, limits: Mapping[str, int | None]) -> list[str]:
    """Problems with one record's "translations" object, each naming the language and field.

    ``limits`` maps each translatable field to its English length bound (None: any length).
    """
    if not isinstance(value, Mapping):
        return [_("translations: must be an object keyed by language (th, zh-hans)")]
    problems: list[str] = []
    for language in sorted(value, key=str):
        texts = value[language]
        if language not in TRANSLATION_LANGUAGES:
            problems.append(
                _("translations: unknown language '%(language)s' (allowed: %(allowed)s)")
                % {"language": language, "allowed": ", ".join(TRANSLATION_LANGUAGES)}
            )
            continue
        if not isinstance(texts, Mapping):
            problems.append(
                _("translations.%(language)s: must be an object of translated fields")
                % {"language": language}
            )
            continue
        for name in sorted(texts, key=str):
            text = texts[name]
            where = {"language": language, "field": name}
            if name not in limits:
                problems.append(
                    _("translations.%(language)s.%(field)s: not a translatable field (allowed: %(allowed)s)")
                    % {**where, "allowed": ", ".join(limits)}
                )
            elif not isinstance(text, str) or not text.strip():
                problems.append(
                    _(
                        "translations.%(language)s.%(field)s: must be a non-empty text (leave it out if untranslated)"
                    )
                    % where
                )
            elif (limit := limits[name]) is not None and len(text) > limit:
                problems.append(
                    _("translations.%(language)s.%(field)s: at most %(limit)s characters")
                    % {**where, "limit": limit}
                )
    return problems


def column(field: str, language: str) -> str:
    """modeltranslation's column of ``field`` in ``language``: name, zh-hans -> name_zh_hans."""
    return f"{field}_{language.replace('-', '_')}"


def all_languages(*fields: str) -> tuple[str, ...]:
    """Each field's column in every language (name_en, name_th, name_zh_hans), for searches that find a
    row by any of its translations, not only in the reader's own language."""
    return tuple(column(name, language) for name in fields for language in ("en", *TRANSLATION_LANGUAGES))


def translation_limits(model: type[models.Model], fields: tuple[str, ...]) -> dict[str, int | None]:
    """Each translatable field's length bound, taken from the English field of ``model``."""
    return {name: model._meta.get_field(name).max_length for name in fields}


def translations_of(obj: models.Model, fields: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The record's "translations" object for a row: the languages and fields that have a text."""
    result: dict[str, dict[str, str]] = {}
    for language in TRANSLATION_LANGUAGES:
        texts = {name: text for name in fields if (text := getattr(obj, column(name, language), None))}
        if texts:
            result[language] = texts
    return result


def translations_apply(obj: models.Model, value: Mapping[str, Any], fields: tuple[str, ...]) -> None:
    """Set a row's translated columns to exactly ``value`` (a field left out is untranslated again)."""
    for language in TRANSLATION_LANGUAGES:
        texts = value.get(language) or {}
        for name in fields:
            setattr(obj, column(name, language), texts.get(name) or None)


def with_translations(record: dict[str, Any], obj: models.Model, fields: tuple[str, ...]) -> dict[str, Any]:
    """``record`` plus its "translations" key when the row has any (an untranslated row exports as before)."""
    translations = translations_of(obj, fields)
    return {**record, "translations": translations} if translations else record


def reader_language() -> str:
    """The active language as one of the data's languages (en, th, zh-hans); English when unknown."""
    from django.utils.translation import get_language

    active = (get_language() or "en").lower()
    for language in TRANSLATION_LANGUAGES:
        if active == language or active.split("-")[0] == language:
            return language
    return "en"


def untranslated_fields(obj: models.Model, fields: tuple[str, ...], language: str | None = None) -> list[str]:
    """The fields of a row the reader sees in English because it has no text in their language (shown
    marked); none for an English reader or a field without English text either."""
    language = language or reader_language()
    if language == "en":
        return []
    return [
        name
        for name in fields
        if getattr(obj, column(name, "en"), None) and not getattr(obj, column(name, language), None)
    ]


def localise_record(
    record: dict[str, Any],
    texts: Mapping[str, str | None] | None,
    fields: tuple[str, ...],
    *,
    mark: bool = True,
) -> dict[str, Any]:
    """A data record with its translatable fields in the reader's language (``texts``: that language's
    columns) and the English kept: ``name_en``, and ``untranslated`` listing the fields left in English
    (none when not ``mark``: an English reader)."""
    out = dict(record)
    if "name" in record:
        out["name_en"] = record["name"]
    missing = []
    for name in fields:
        text = (texts or {}).get(name)
        if text:
            out[name] = text
        elif record.get(name) and mark:
            missing.append(name)
    out["untranslated"] = missing
    return out
