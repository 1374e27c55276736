"""Reads of the card database: the search used by the API, the deck builder and the bench."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from cards.data_translations import TRANSLATION_LANGUAGES, column, reader_language
from cards.models import Card, Faction, Keyword
from cards.search import parse_query


def card_queryset() -> QuerySet[Card]:
    """Cards with what listing them needs (faction, keywords) loaded in O(1) queries."""
    return Card.objects.select_related("faction").prefetch_related("keywords")


def card_search(query: str) -> QuerySet[Card]:
    """Cards matching a search query (cards/search.py); raises QuerySyntaxError when malformed."""
    return card_queryset().filter(parse_query(query or ""))


def card_get(slug: str) -> Card | None:
    return card_queryset().filter(slug=slug).first()


def faction_list() -> QuerySet[Faction]:
    return Faction.objects.all()


def keyword_list() -> QuerySet[Keyword]:
    return Keyword.objects.all()


CARD_TEXT_FIELDS = ("name", "rules_text", "flavor_text")


def card_texts(names: Iterable[str], *, language: str | None = None) -> dict[str, dict[str, Any]]:
    """Name and texts of cards (by English name) in the reader's language, for pages that show cards by
    their English name (a match's card catalog): ``{"name", "rules_text", "flavor_text", "untranslated"}``,
    a field without a translation in English and listed in ``untranslated``. One query; none in English."""
    language = language or reader_language()
    wanted = sorted(set(names))
    if language == "en" or not wanted:
        return {}
    columns = [column(f, lang) for f in CARD_TEXT_FIELDS for lang in ("en", language)]
    out: dict[str, dict[str, Any]] = {}
    for row in Card.objects.rewrite(False).filter(name_en__in=wanted).values(*columns):  # type: ignore[attr-defined]
        texts: dict[str, Any] = {"untranslated": []}
        for field in CARD_TEXT_FIELDS:
            english, local = row[column(field, "en")] or "", row[column(field, language)]
            texts[field] = local or english
            if english and not local:
                texts["untranslated"].append(field)
        out[row["name_en"]] = texts
    return out


def english_names(names: Iterable[str]) -> dict[str, str]:
    """{casefolded Thai or Chinese card name: its English name}, for decklists written in either (the
    English name is what deck lists, share codes and the engine use). Matching ignores case."""
    lowered = {n.lower() for n in names}
    if not lowered:
        return {}
    found: dict[str, str] = {}
    for language in TRANSLATION_LANGUAGES:
        name = column("name", language)
        rows = Card.objects.rewrite(False).annotate(lname=Lower(name)).filter(lname__in=lowered)  # type: ignore[attr-defined]
        for local, english in rows.values_list(name, "name_en"):
            found.setdefault(local.casefold(), english)
    return found


def translated_names() -> list[str]:
    """Every Thai and Chinese card name (for "did you mean" on a decklist)."""
    columns = [column("name", language) for language in TRANSLATION_LANGUAGES]
    rows = Card.objects.rewrite(False).filter(Q(name_th__isnull=False) | Q(name_zh_hans__isnull=False))  # type: ignore[attr-defined]
    return [name for row in rows.values_list(*columns) for name in row if name]
