"""Reads of decks: who may see which deck, deck entries with their cards, card lookups for imports."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Max, Prefetch, QuerySet
from django.db.models.functions import Lower
from rest_framework import status

from cards import selectors as card_selectors
from cards.models import Card, Faction
from config.errors import ApplicationError
from decks.models import Deck, DeckCard, DeckRevision, Visibility
from decks.validation import DeckValidation, validate_deck

User = AbstractBaseUser | AnonymousUser


def card_queryset() -> QuerySet[Card]:
    """Cards with what deck rules and statistics read (faction, keywords) loaded up front."""
    return card_selectors.card_queryset()


def deck_queryset() -> QuerySet[Deck]:
    """Decks with owner, faction, commander and every entry's card loaded (no N+1 in lists)."""
    return Deck.objects.select_related("owner", "faction", "commander__faction").prefetch_related(
        Prefetch(
            "entries",
            queryset=DeckCard.objects.select_related("card__faction").prefetch_related("card__keywords"),
        )
    )


def _not_found() -> ApplicationError:
    return ApplicationError("not_found", "No such deck.", status_code=status.HTTP_404_NOT_FOUND)


def deck_list_own(*, user: User) -> QuerySet[Deck]:
    return deck_queryset().filter(owner_id=user.pk)


def deck_list_public(*, search: str = "") -> QuerySet[Deck]:
    """Every user's public decks, newest first; `search` matches the deck name."""
    qs = deck_queryset().filter(visibility=Visibility.PUBLIC)
    if search:
        qs = qs.filter(name__icontains=search)
    return qs


def deck_get_readable(*, user: User, deck_id: int) -> Deck:
    """A deck the user may read by id: their own or a public one. Private/unlisted of others: 404."""
    deck = deck_queryset().filter(pk=deck_id).first()
    if deck is None or (deck.owner_id != user.pk and deck.visibility != Visibility.PUBLIC):
        raise _not_found()
    return deck


def deck_get_shared(*, share_id: str) -> Deck:
    """A deck by its unguessable share id: unlisted and public decks; a private deck stays 404."""
    deck = deck_queryset().filter(share_id=share_id).exclude(visibility=Visibility.PRIVATE).first()
    if deck is None:
        raise _not_found()
    return deck


def deck_get_writable(*, user: User, deck_id: int) -> Deck:
    """A deck the user may change: only the owner. A deck they cannot even see is 404, a public one 403."""
    deck = deck_queryset().filter(pk=deck_id).first()
    if deck is None or (deck.owner_id != user.pk and deck.visibility != Visibility.PUBLIC):
        raise _not_found()
    if deck.owner_id != user.pk:
        raise ApplicationError(
            "not_owner", "Only the owner can change this deck.", status_code=status.HTTP_403_FORBIDDEN
        )
    return deck


def deck_entries(deck: Deck) -> list[tuple[Card, int]]:
    """The deck's cards with counts (uses the prefetched entries)."""
    return [(entry.card, entry.count) for entry in deck.entries.all()]


def deck_legality(deck: Deck) -> DeckValidation:
    """The live verdict of the one validator (C-3) on a stored deck."""
    return validate_deck(deck_entries(deck), commander=deck.commander, faction=deck.faction)


def deck_latest_revision(deck: Deck) -> int:
    return deck.revisions.aggregate(n=Max("number"))["n"] or 0


def deck_revisions(*, deck: Deck) -> QuerySet[DeckRevision]:
    return deck.revisions.all()


def deck_revision_get(*, deck: Deck, number: int) -> DeckRevision:
    revision = deck.revisions.filter(number=number).first()
    if revision is None:
        raise ApplicationError(
            "not_found", f"Deck has no revision {number}.", status_code=status.HTTP_404_NOT_FOUND
        )
    return revision


def cards_by_slugs(slugs: Iterable[str]) -> dict[str, Card]:
    wanted = set(slugs)
    if not wanted:
        return {}
    return {c.slug: c for c in card_queryset().filter(slug__in=wanted)}


def faction_by_slug(slug: str) -> Faction | None:
    return card_selectors.faction_list().filter(slug=slug).first()


class DbCatalog:
    """The card database as a `decks.formats.CardCatalog` (names match case-insensitively)."""

    def by_names(self, names: Iterable[str]) -> dict[str, Any]:
        lowered = {n.lower() for n in names}
        if not lowered:
            return {}
        cards = card_queryset().annotate(lname=Lower("name")).filter(lname__in=lowered)
        return {c.name.casefold(): c for c in cards}

    def by_slugs(self, slugs: Iterable[str]) -> dict[str, Any]:
        return dict(cards_by_slugs(slugs))

    def all_names(self) -> list[str]:
        return list(card_selectors.card_queryset().values_list("name", flat=True))


def deck_match_snapshot(*, user: User, deck_id: int) -> dict[str, Any]:
    """The deck frozen for a match: checked again by the one validator (C-3, C-4.1) at match start.

    The user's own deck or a public one; an illegal deck is `invalid_deck` naming the first problem
    (every issue in `extra.legality`). Cards are in the shared card JSON format plus their slug.
    """
    from cards.services import card_to_dict

    deck = deck_get_readable(user=user, deck_id=deck_id)
    legality = deck_legality(deck)
    if not legality.valid:
        raise ApplicationError(
            "invalid_deck",
            f"Deck '{deck.name}' is not legal: {legality.errors[0].message}",
            extra={"deck_id": deck.pk, "legality": legality.to_dict()},
        )
    return {
        "deck_id": deck.pk,
        "name": deck.name,
        "faction": deck.faction.slug if deck.faction else None,
        "commander": deck.commander.slug if deck.commander else None,
        "total_cards": legality.total_cards,
        "cards": [
            {"card": card.slug, "count": count, "data": card_to_dict(card)}
            for card, count in deck_entries(deck)
        ],
    }
