"""Reads of decks: who may see which deck, deck entries with their cards, card lookups for imports."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import BooleanField, Count, Exists, Max, OuterRef, Prefetch, Q, QuerySet, Value
from django.db.models.functions import Lower
from django.utils.translation import gettext
from rest_framework import status

from cards import selectors as card_selectors
from cards.models import Card, Faction
from config.errors import ApplicationError
from decks.cardfacts import CardFacts
from decks.models import Deck, DeckCard, DeckLike, DeckRevision, Visibility
from decks.validation import DeckValidation, validate_deck

User = AbstractBaseUser | AnonymousUser


def card_queryset() -> QuerySet[Card]:
    """Cards with what deck rules and statistics read (faction, keywords) loaded up front."""
    return card_selectors.card_queryset()


def deck_queryset() -> QuerySet[Deck]:
    """Decks with owner, faction, commander and every entry's card loaded (no N+1 in lists)."""
    return Deck.objects.select_related(
        "owner", "faction", "commander__faction", "copied_from__owner"
    ).prefetch_related(
        Prefetch(
            "entries",
            queryset=DeckCard.objects.select_related("card__faction").prefetch_related("card__keywords"),
        )
    )


def _not_found() -> ApplicationError:
    return ApplicationError("not_found", gettext("No such deck."), status_code=status.HTTP_404_NOT_FOUND)


def with_likes(qs: QuerySet[Deck], viewer: User | None = None) -> QuerySet[Deck]:
    """Annotate `like_count` and, for a signed-in viewer, `liked` (one query for a whole page)."""
    qs = qs.annotate(like_count=Count("likes", distinct=True))
    if viewer is not None and viewer.is_authenticated:
        qs = qs.annotate(liked=Exists(DeckLike.objects.filter(deck_id=OuterRef("pk"), user_id=viewer.pk)))
    else:
        qs = qs.annotate(liked=Value(False, output_field=BooleanField()))
    return qs


def deck_list_own(*, user: User) -> QuerySet[Deck]:
    return with_likes(deck_queryset().filter(owner_id=user.pk), user).order_by("-updated_at", "-id")


def deck_list_public(*, search: str = "", viewer: User | None = None) -> QuerySet[Deck]:
    """Every user's public decks, newest first; `search` matches the deck name."""
    qs = deck_queryset().filter(visibility=Visibility.PUBLIC)
    if search:
        qs = qs.filter(name__icontains=search)
    return with_likes(qs, viewer).order_by("-updated_at", "-id")  # GROUP BY drops Meta.ordering


PUBLIC_SORTS = {
    # sort key -> (label, ordering); every ordering ends with -id so pages never overlap
    "newest": ("Newest", ("-created_at", "-id")),
    "liked": ("Most liked", ("-like_count", "-created_at", "-id")),
    "faction": ("Faction", ("faction__name", "-created_at", "-id")),
    "updated": ("Recently updated", ("-updated_at", "-id")),
}


def public_decks(
    *,
    owner: Any = None,
    search: str = "",
    card: str = "",
    faction: str = "",
    sort: str = "newest",
    viewer: User | None = None,
) -> QuerySet[Deck]:
    """Public decks only (never private or unlisted), each annotated with `like_count` and `liked`.

    owner: a user (or a username) whose public decks to list, e.g. on a profile page;
    search: words that must each appear in the deck name or in the name of one of its cards;
    card: a card slug the deck must contain; faction: a faction slug; sort: a key of PUBLIC_SORTS;
    viewer: the signed-in user, for `liked` (False for anonymous viewers).
    """
    qs = deck_queryset().filter(visibility=Visibility.PUBLIC)
    if owner is not None:
        qs = qs.filter(owner__username=owner) if isinstance(owner, str) else qs.filter(owner_id=owner.pk)
    for word in search.split()[:10]:
        has_card = DeckCard.objects.filter(deck_id=OuterRef("pk"), card__name__icontains=word)
        qs = qs.filter(Q(name__icontains=word) | Q(Exists(has_card)))
    if card:
        qs = qs.filter(Exists(DeckCard.objects.filter(deck_id=OuterRef("pk"), card__slug=card)))
    if faction:
        qs = qs.filter(faction__slug=faction)
    qs = with_likes(qs, viewer)
    _, ordering = PUBLIC_SORTS.get(sort, PUBLIC_SORTS["newest"])
    return qs.order_by(*ordering)


def deck_like_count(deck: Deck) -> int:
    return DeckLike.objects.filter(deck=deck).count()


def deck_liked_by(deck: Deck, user: User) -> bool:
    return bool(user.is_authenticated and DeckLike.objects.filter(deck=deck, user_id=user.pk).exists())


def deck_get_readable(*, user: User, deck_id: int) -> Deck:
    """A deck the user may read by id: their own or a public one. Private/unlisted of others: 404."""
    deck = deck_queryset().filter(pk=deck_id).first()
    if deck is None or (deck.owner_id != user.pk and deck.visibility != Visibility.PUBLIC):
        raise _not_found()
    return deck


@dataclass(frozen=True)
class PlayDeck:
    """A deck as match set-up reads it (create, join and start check it, C-3): values, no model rows.

    `cards` (card JSON in the shared format, with copies) is filled only when asked for (match start).
    """

    pk: int
    name: str
    commander: str | None  # the Commander's card name
    legality: DeckValidation
    cards: list[tuple[dict[str, Any], int]]


# What the validator reads of a card (CardFacts), then what the card JSON adds (cards.services.card_to_dict).
_FACT_COLUMNS = (
    "name",
    "slug",
    "card_type",
    "legendary",
    "unique",
    "command_cost",
    "energy_cost",
    "power",
    "health",
)
_JSON_COLUMNS = ("arrows", "event_type", "rules_text", "abilities", "flavor_text")


def _facts(row: tuple[Any, ...]) -> CardFacts:
    """CardFacts from `_FACT_COLUMNS` + faction slug and name, as `card_facts` gives them for a Card row."""
    name, slug, card_type, legendary, unique, command_cost, energy_cost, power, health, faction, fname = row
    return CardFacts(
        name=str(name),
        slug=str(slug),
        faction=str(faction),
        faction_name=str(fname),
        card_type=str(card_type),
        legendary=bool(legendary),
        unique=bool(unique),
        command_cost=int(command_cost or 0),
        energy_cost=int(energy_cost or 0),
        power=power,
        health=health,
    )


_DECK_COLUMNS = ("id", "name", "owner_id", "visibility", "faction__slug", "faction__name", "commander_id")


def deck_play_get(*, user: User, deck_id: int, with_cards: bool = False) -> PlayDeck:
    """A deck the user may play (readable: own or public, else 404) with the live C-3 verdict on it.

    The same checks as `deck_get_readable` + `deck_legality` on the same rows, read with one `values()`
    query of the deck's entries joined to their deck and cards (and, `with_cards`, the cards' keywords:
    one row per keyword), where the model queries with prefetches took three and most of a match
    set-up's CPU: create, join and start each check a deck, start again (C-3). An empty deck, or a
    Commander outside the deck (illegal, C-4.1), costs one query more.
    """
    card_columns = [*_FACT_COLUMNS, "faction__slug", "faction__name"]
    if with_cards:
        card_columns += [*_JSON_COLUMNS, "keywords__code"]
    # deck_entries' order (DeckCard.Meta.ordering): the snapshot's card order feeds the engine's set-up.
    rows = (
        DeckCard.objects.filter(deck_id=deck_id)
        .order_by("card__name")
        .values_list(
            *(f"deck__{c}" for c in _DECK_COLUMNS), "count", *(f"card__{c}" for c in ("id", *card_columns))
        )
    )
    deck: tuple[Any, ...] | None = None
    entries: dict[int, tuple[Any, ...]] = {}  # card id -> (count, card id, card columns), deck order
    codes: dict[int, list[str]] = {}  # card id -> keyword codes
    for row in rows:
        deck, entry = row[: len(_DECK_COLUMNS)], row[len(_DECK_COLUMNS) :]
        if with_cards:
            entry, code = entry[:-1], entry[-1]
            codes.setdefault(entry[1], [])
            if code is not None:  # a card without keywords: one row, no code
                codes[entry[1]].append(code)
        entries.setdefault(entry[1], entry)
    if deck is None:  # no entries: the deck row alone
        deck = Deck.objects.filter(pk=deck_id).values_list(*_DECK_COLUMNS).first()
    if deck is None or (deck[2] != user.pk and deck[3] != Visibility.PUBLIC):
        raise _not_found()
    pk, name, _, _, faction_slug, faction_name, commander_id = deck
    facts = {card_id: _facts(e[2 : 2 + len(_FACT_COLUMNS) + 2]) for card_id, e in entries.items()}
    commander = None
    if commander_id is not None:
        commander = facts.get(commander_id)
        if commander is None:  # not in the deck (illegal, C-4.1): its facts for the message
            columns = [*_FACT_COLUMNS, "faction__slug", "faction__name"]
            commander = _facts(Card.objects.filter(pk=commander_id).values_list(*columns).get())
    legality = validate_deck(
        [(facts[card_id], e[0]) for card_id, e in entries.items()],
        commander=commander,
        faction=None if faction_slug is None else {"slug": faction_slug, "name": faction_name},
    )
    cards: list[tuple[dict[str, Any], int]] = []
    if with_cards:
        from cards.services import card_to_dict

        keys = [*_FACT_COLUMNS, "faction", "faction_name", *_JSON_COLUMNS]
        for card_id, e in entries.items():
            record = dict(zip(keys, e[2:], strict=True))
            record["keywords"] = codes[card_id]
            cards.append((card_to_dict(record), e[0]))
    return PlayDeck(
        pk=pk,
        name=name,
        commander=commander.name if commander is not None else None,
        legality=legality,
        cards=cards,
    )


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
            "not_owner",
            gettext("Only the owner can change this deck."),
            status_code=status.HTTP_403_FORBIDDEN,
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
            "not_found",
            gettext("Deck has no revision %(number)s.") % {"number": number},
            status_code=status.HTTP_404_NOT_FOUND,
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
            gettext("Deck '%(deck)s' is not legal: %(problem)s")
            % {"deck": deck.name, "problem": legality.errors[0].message},
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


def example_decklist() -> str:
    """A short decklist of real cards (from the card database, read when a page renders) showing every
    accepted line form, for import placeholders; empty when there are no cards."""
    faction = card_selectors.faction_list().order_by("name").first()
    if faction is None:
        return ""
    plain = list(
        card_queryset()
        .filter(faction=faction, legendary=False, unique=False)
        .order_by("command_cost", "name")
        .values_list("name", flat=True)[:3]
    )
    if not plain:
        return ""
    forms = ["4 {}", "3x {}", "{} x2"]
    lines = [
        f"# Deck: {faction.name} example",
        *(form.format(n) for form, n in zip(forms, plain, strict=False)),
    ]
    legend = (
        card_queryset().filter(faction=faction, legendary=True, card_type="unit").order_by("name").first()
    )
    if legend is not None:
        lines += [f"1 {legend.name}", f"Commander: {legend.name}"]
    return "\n".join(lines)
