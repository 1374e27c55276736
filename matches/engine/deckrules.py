"""Deck construction, C-3.1 … C-3.4: the one source of the deck rules, for the engine and the deck builder.

Pure Python (no Django): the engine checks decks at match start (``cards.deck_problems``) and the deck
builder's validator (``decks/validation.py``) checks them while they are built, both through ``deck_issues``.
A card is anything with the ``DeckCard`` attributes (the engine's ``CardDef``, the builder's ``CardFacts``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol


class DeckCard(Protocol):
    """What the deck rules read of a card (C-1.4, C-3)."""

    @property
    def name(self) -> str: ...

    @property
    def faction(self) -> str: ...

    @property
    def legendary(self) -> bool: ...

    @property
    def unique(self) -> bool: ...

    @property
    def is_unit(self) -> bool: ...


@dataclass(frozen=True)
class DeckRules:
    """The numbers of C-3 and the C-3.5 Decision, kept in one place."""

    min_cards: int = 50  # C-3.1
    max_copies: int = 4  # C-3.2
    max_legendary_copies: int = 1  # C-3.3: Legendary units and Unique events
    warn_without_legendary: bool = True  # C-3.5 Decision: legal, but the builder warns


DEFAULT_DECK_RULES = DeckRules()


@dataclass(frozen=True)
class DeckIssue:
    """One broken deck rule: the rule number, a stable code, a message and the cards it names."""

    rule: str
    code: str
    message: str
    cards: tuple[str, ...] = ()


def is_one_of(card: DeckCard) -> bool:
    """C-3.3: a Legendary unit or a Unique event (C-1.4) may appear only once."""
    return (card.is_unit and card.legendary) or (not card.is_unit and card.unique)


def max_copies(card: DeckCard, rules: DeckRules = DEFAULT_DECK_RULES) -> int:
    """C-3.2 / C-3.3: how many copies of ``card`` a deck may hold."""
    return rules.max_legendary_copies if is_one_of(card) else rules.max_copies


def _copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


def copy_issues(
    copies: Iterable[tuple[DeckCard, int]], rules: DeckRules = DEFAULT_DECK_RULES
) -> list[DeckIssue]:
    """C-3.1 … C-3.3 for ``(card, copies)`` pairs, one pair per distinct card."""
    issues: list[DeckIssue] = []
    pairs = list(copies)
    total = sum(n for _, n in pairs)
    if total < rules.min_cards:  # C-3.1
        issues.append(
            DeckIssue(
                "C-3.1", "too_few_cards", f"{total} cards: a deck needs at least {rules.min_cards} (C-3.1)"
            )
        )
    for card, count in pairs:
        if is_one_of(card) and count > rules.max_legendary_copies:  # C-3.3
            kind = "a Legendary unit" if card.is_unit else "a Unique event"
            times = f"{rules.max_legendary_copies} time{'s' if rules.max_legendary_copies != 1 else ''}"
            issues.append(
                DeckIssue(
                    "C-3.3",
                    "too_many_copies_of_one_of",
                    f"{_copies(count)} of {card.name}: {kind} may appear at most {times} (C-3.3)",
                    (card.name,),
                )
            )
        elif not is_one_of(card) and count > rules.max_copies:  # C-3.2
            issues.append(
                DeckIssue(
                    "C-3.2",
                    "too_many_copies",
                    f"{_copies(count)} of {card.name}: at most {rules.max_copies} (C-3.2)",
                    (card.name,),
                )
            )
    return issues


def faction_issue(
    copies: Iterable[tuple[DeckCard, int]],
    deck_faction: tuple[str, str] | None = None,
    faction_names: Mapping[str, str] | None = None,
) -> DeckIssue | None:
    """C-3.4: every card belongs to one and the same faction; name the cards outside it.

    ``deck_faction`` is the deck's declared (slug, name); without it the faction holding most copies is
    the deck's (ties: the first slug in order). ``faction_names`` maps slugs to names for the message.
    """
    pairs = list(copies)
    names = dict(faction_names or {})
    if deck_faction is not None:
        deck_slug, deck_name = deck_faction
    else:
        per_faction: dict[str, int] = {}
        for card, count in pairs:
            per_faction[card.faction] = per_faction.get(card.faction, 0) + count
        if len(per_faction) <= 1:
            return None
        deck_slug = max(sorted(per_faction), key=lambda s: per_faction[s])
        deck_name = names.get(deck_slug) or deck_slug
    off = [card for card, _ in pairs if card.faction != deck_slug]
    if not off:
        return None
    listed = ", ".join(f"{c.name} ({names.get(c.faction) or c.faction})" for c in off)
    n = len(off)
    return DeckIssue(
        "C-3.4",
        "mixed_factions",
        f"{n} card{'s are' if n != 1 else ' is'} not {deck_name}: {listed}; a deck uses one faction (C-3.4)",
        tuple(c.name for c in off),
    )


def deck_issues(
    copies: Iterable[tuple[DeckCard, int]],
    *,
    rules: DeckRules = DEFAULT_DECK_RULES,
    deck_faction: tuple[str, str] | None = None,
    faction_names: Mapping[str, str] | None = None,
) -> list[DeckIssue]:
    """Every broken rule of C-3.1 … C-3.4 for ``(card, copies)`` pairs, one pair per distinct card."""
    pairs = list(copies)
    issues = copy_issues(pairs, rules)
    mixed = faction_issue(pairs, deck_faction, faction_names)
    if mixed is not None:
        issues.append(mixed)
    return issues


def count_copies(cards: Iterable[DeckCard]) -> list[tuple[DeckCard, int]]:
    """One ``(card, copies)`` pair per card name from a list with one entry per copy (first-seen order)."""
    first: dict[str, DeckCard] = {}
    counts: dict[str, int] = {}
    for c in cards:
        first.setdefault(c.name, c)
        counts[c.name] = counts.get(c.name, 0) + 1
    return [(card, counts[name]) for name, card in first.items()]
