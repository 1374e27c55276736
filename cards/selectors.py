"""Reads of the card database: the search used by the API, the deck builder and the bench."""

from __future__ import annotations

from django.db.models import QuerySet

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
