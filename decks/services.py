"""Writes of decks: create, update, delete, restore, import. Each is atomic and saves a revision."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from rest_framework import status

from cards.models import Card, Faction
from config.errors import ApplicationError
from decks.formats import MAX_COUNT, ResolvedDeck
from decks.models import Deck, DeckCard, DeckLike, DeckRevision, Visibility
from decks.selectors import cards_by_slugs, deck_queryset, faction_by_slug

_UNSET: Any = object()


def resolve_card_slugs(cards: Sequence[tuple[str, int]]) -> list[tuple[Card, int]]:
    """Slugs with counts to cards with counts, copies summed; unknown slugs are one 400 naming them all."""
    summed: dict[str, int] = {}
    for slug, count in cards:
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
            raise ApplicationError(
                "invalid_count",
                gettext("Count of %(card)s must be a whole number from 1 to %(max)s.")
                % {"card": slug, "max": MAX_COUNT},
                extra={"card": slug},
            )
        summed[slug] = summed.get(slug, 0) + count
    found = cards_by_slugs(summed)
    unknown = sorted(s for s in summed if s not in found)
    if unknown:
        raise ApplicationError(
            "unknown_cards",
            ngettext("Unknown card slug: %(cards)s.", "Unknown card slugs: %(cards)s.", len(unknown))
            % {"cards": ", ".join(unknown)},
            extra={"cards": unknown},
        )
    by_name: dict[str, list[Any]] = {}
    for slug, count in summed.items():
        card = found[slug]
        by_name.setdefault(card.name.casefold(), [card, 0])[1] += count
    return [(card, count) for card, count in by_name.values()]


def _faction(slug: str | None) -> Faction | None:
    if not slug:
        return None
    faction = faction_by_slug(slug)
    if faction is None:
        raise ApplicationError(
            "unknown_faction",
            gettext("Unknown faction: %(faction)s.") % {"faction": slug},
            extra={"faction": slug},
        )
    return faction


def _commander(slug: str | None) -> Card | None:
    if not slug:
        return None
    card = cards_by_slugs([slug]).get(slug)
    if card is None:
        raise ApplicationError(
            "unknown_cards",
            gettext("Unknown card slug: %(cards)s.") % {"cards": slug},
            extra={"cards": [slug]},
        )
    return card


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise ApplicationError(
            "invalid_visibility",
            gettext("Visibility must be one of %(values)s.") % {"values": ", ".join(Visibility.values)},
            extra={"visibility": visibility},
        )


def snapshot_of(deck: Deck, entries: Sequence[tuple[Card, int]]) -> dict[str, Any]:
    """What a revision keeps: name, faction, commander, notes and cards (by slug, stable across renames of ids)."""
    return {
        "name": deck.name,
        "faction": deck.faction.slug if deck.faction else None,
        "commander": deck.commander.slug if deck.commander else None,
        "notes": deck.notes,
        "cards": [
            {"card": card.slug, "name": card.name, "count": count}
            for card, count in sorted(entries, key=lambda e: e[0].slug)
        ],
    }


# The builder saves as you type (a second after each change): the saves of one sitting are one revision,
# as a document editor groups its edits, so the history lists sittings and restores, not keystrokes.
EDIT_SESSION = timedelta(minutes=10)
SAVED = "saved"


def _save_revision(deck: Deck, entries: Sequence[tuple[Card, int]], note: str) -> DeckRevision:
    """A new revision; a plain save within EDIT_SESSION of the last plain save updates that one instead,
    and a save that changed nothing adds nothing."""
    snapshot = snapshot_of(deck, entries)
    last = deck.revisions.order_by("-number").first()
    if last is not None and note == SAVED:
        if last.snapshot == snapshot:
            return last
        if last.note == SAVED and timezone.now() - last.created_at < EDIT_SESSION:
            last.snapshot = snapshot
            last.save(update_fields=["snapshot"])
            return last
    number = (last.number if last is not None else 0) + 1
    return DeckRevision.objects.create(deck=deck, number=number, snapshot=snapshot, note=note)


def _set_entries(deck: Deck, entries: Sequence[tuple[Card, int]]) -> None:
    DeckCard.objects.filter(deck=deck).delete()
    DeckCard.objects.bulk_create([DeckCard(deck=deck, card=card, count=count) for card, count in entries])


def _fresh(deck_id: int) -> Deck:
    return deck_queryset().get(pk=deck_id)


@transaction.atomic
def deck_create(
    *,
    owner: User,
    name: str,
    faction: str | None = None,
    commander: str | None = None,
    notes: str = "",
    visibility: str = Visibility.PRIVATE,
    cards: Sequence[tuple[str, int]] = (),
) -> Deck:
    """Save a new deck (legal or a draft) and its first revision."""
    _check_visibility(visibility)
    entries = resolve_card_slugs(cards)
    deck = Deck.objects.create(
        owner=owner,
        name=name,
        faction=_faction(faction),
        commander=_commander(commander),
        notes=notes,
        visibility=visibility,
    )
    _set_entries(deck, entries)
    _save_revision(deck, entries, "created")
    return _fresh(deck.pk)


@transaction.atomic
def deck_update(
    *,
    deck: Deck,
    name: str = _UNSET,
    faction: str | None = _UNSET,
    commander: str | None = _UNSET,
    notes: str = _UNSET,
    visibility: str = _UNSET,
    cards: Sequence[tuple[str, int]] | None = _UNSET,
    note: str = SAVED,
) -> Deck:
    """Change the given fields (others stay), replace the cards when given, and save a revision (the
    saves of one sitting share one: ``_save_revision``)."""
    locked = Deck.objects.select_for_update().get(pk=deck.pk)
    if name is not _UNSET:
        locked.name = name
    if faction is not _UNSET:
        locked.faction = _faction(faction)
    if commander is not _UNSET:
        locked.commander = _commander(commander)
    if notes is not _UNSET:
        locked.notes = notes
    if visibility is not _UNSET:
        _check_visibility(visibility)
        locked.visibility = visibility
    if cards is not _UNSET and cards is not None:
        entries = resolve_card_slugs(cards)
        _set_entries(locked, entries)
    else:
        entries = [(e.card, e.count) for e in locked.entries.select_related("card")]
    locked.save()
    _save_revision(locked, entries, note)
    return _fresh(locked.pk)


@transaction.atomic
def deck_delete(*, deck: Deck) -> None:
    Deck.objects.filter(pk=deck.pk).delete()


@transaction.atomic
def deck_restore(*, deck: Deck, number: int) -> Deck:
    """Bring back revision `number` as a new revision (history is never rewritten)."""
    revision = deck.revisions.filter(number=number).first()
    if revision is None:
        raise ApplicationError(
            "not_found",
            gettext("Deck has no revision %(number)s.") % {"number": number},
            status_code=status.HTTP_404_NOT_FOUND,
        )
    snap = revision.snapshot
    return deck_update(
        deck=deck,
        name=snap["name"],
        faction=snap.get("faction"),
        commander=snap.get("commander"),
        notes=snap.get("notes", ""),
        cards=[(c["card"], c["count"]) for c in snap.get("cards", [])],
        note=f"restored revision {number}",
    )


@transaction.atomic
def deck_create_from_import(
    *,
    owner: User,
    resolved: ResolvedDeck,
    name: str = "",
    visibility: str = Visibility.PRIVATE,
    notes: str | None = None,
) -> Deck:
    """Save the lines of an imported decklist that were read (the caller lists the others with their
    suggestions, so one typo does not throw the list away); the faction is the declared or the cards' one."""
    refuse_unreadable_import(resolved)
    faction = resolved.faction
    if not faction:
        factions = {card.faction.slug for card, _ in resolved.entries}
        faction = factions.pop() if len(factions) == 1 else None
    return deck_create(
        owner=owner,
        name=name or resolved.name or "Imported deck",
        faction=faction,
        commander=resolved.commander.slug if resolved.commander is not None else None,
        notes=resolved.notes if notes is None else notes,
        visibility=visibility,
        cards=[(card.slug, count) for card, count in resolved.entries],
    )


def refuse_unreadable_import(resolved: ResolvedDeck) -> None:
    """A 400 for a decklist none of whose lines names a known card: nothing to import, only errors."""
    if resolved.errors and not resolved.entries:
        raise ApplicationError(
            "import_errors",
            gettext("No line of the decklist names a known card; nothing was imported."),
            extra={"errors": [e.to_dict() for e in resolved.errors]},
        )


COPY_SUFFIX = " (copy)"


def copy_name(name: str, *, max_length: int = 100) -> str:
    """'Name (copy)', shortening the name so the whole stays within the field's length."""
    return name[: max_length - len(COPY_SUFFIX)].rstrip() + COPY_SUFFIX


@transaction.atomic
def deck_copy(*, owner: User, source: Deck, name: str = "") -> Deck:
    """A private copy of `source` (the caller checked the owner may read it): same cards, faction,
    Commander and notes, named "<name> (copy)" unless a name is given; credits the source."""
    entries = [(e.card, e.count) for e in source.entries.select_related("card")]
    deck = Deck.objects.create(
        owner=owner,
        name=name or copy_name(source.name),
        faction=source.faction,
        commander=source.commander,
        notes=source.notes,
        visibility=Visibility.PRIVATE,
        copied_from=source,
    )
    _set_entries(deck, entries)
    _save_revision(deck, entries, f"copied from “{source.name}” by {source.owner.get_username()}"[:200])
    return _fresh(deck.pk)


def deck_like_set(*, user: User, deck: Deck, liked: bool) -> None:
    """Like (once: liking again changes nothing) or unlike a public deck that is not the user's own."""
    if deck.visibility != Visibility.PUBLIC:
        raise ApplicationError(
            "not_public", gettext("Only public decks can be liked."), status_code=status.HTTP_400_BAD_REQUEST
        )
    if deck.owner_id == user.pk:
        raise ApplicationError(
            "own_deck", gettext("You cannot like your own deck."), status_code=status.HTTP_403_FORBIDDEN
        )
    if liked:
        DeckLike.objects.get_or_create(deck=deck, user=user)
    else:
        DeckLike.objects.filter(deck=deck, user=user).delete()
