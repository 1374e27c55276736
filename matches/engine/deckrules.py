"""Deck construction, C-3.1 … C-3.4: the one source of the deck rules, for the engine and the deck builder.

Pure Python (no Django): the engine checks decks at match start (``cards.deck_problems``) and the deck
builder's validator (``decks/validation.py``) checks them while they are built, both through ``deck_issues``.
A card is anything with the ``DeckCard`` attributes (the engine's ``CardDef``, the builder's ``CardFacts``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from .messages import Msg, card, gettext_noop, listing, msg, nested


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
    """One broken deck rule: the rule number, a stable code, a message (English; ``msg``: the message for
    every language, docs/commandeer-engine.md "Messages") and the cards it names."""

    rule: str
    code: str
    message: str
    cards: tuple[str, ...] = ()
    msg: Msg | None = None


def _issue(rule: str, code: str, m: Msg, cards: tuple[str, ...] = ()) -> DeckIssue:
    return DeckIssue(rule, code, m.english(), cards, m)


def is_one_of(card: DeckCard) -> bool:
    """C-3.3: a Legendary unit or a Unique event (C-1.4) may appear only once."""
    return (card.is_unit and card.legendary) or (not card.is_unit and card.unique)


def max_copies(card: DeckCard, rules: DeckRules = DEFAULT_DECK_RULES) -> int:
    """C-3.2 / C-3.3: how many copies of ``card`` a deck may hold."""
    return rules.max_legendary_copies if is_one_of(card) else rules.max_copies


def _copies(n: int) -> dict[str, object]:
    return nested(msg(gettext_noop("1 copy")) if n == 1 else msg(gettext_noop("%(count)s copies"), count=n))


def _times(n: int) -> dict[str, object]:
    return nested(msg(gettext_noop("1 time")) if n == 1 else msg(gettext_noop("%(count)s times"), count=n))


def copy_issues(
    copies: Iterable[tuple[DeckCard, int]], rules: DeckRules = DEFAULT_DECK_RULES
) -> list[DeckIssue]:
    """C-3.1 … C-3.3 for ``(card, copies)`` pairs, one pair per distinct card."""
    issues: list[DeckIssue] = []
    pairs = list(copies)
    total = sum(n for _, n in pairs)
    if total < rules.min_cards:  # C-3.1
        m = msg(
            gettext_noop("%(total)s cards: a deck needs at least %(min)s (C-3.1)"),
            total=total,
            min=rules.min_cards,
        )
        issues.append(_issue("C-3.1", "too_few_cards", m))
    for c, count in pairs:
        if is_one_of(c) and count > rules.max_legendary_copies:  # C-3.3
            if c.is_unit:
                key = gettext_noop(
                    "%(copies)s of %(card)s: a Legendary unit may appear at most %(times)s (C-3.3)"
                )
            else:
                key = gettext_noop(
                    "%(copies)s of %(card)s: a Unique event may appear at most %(times)s (C-3.3)"
                )
            m = msg(key, copies=_copies(count), card=card(c.name), times=_times(rules.max_legendary_copies))
            issues.append(_issue("C-3.3", "too_many_copies_of_one_of", m, (c.name,)))
        elif not is_one_of(c) and count > rules.max_copies:  # C-3.2
            m = msg(
                gettext_noop("%(copies)s of %(card)s: at most %(max)s (C-3.2)"),
                copies=_copies(count),
                card=card(c.name),
                max=rules.max_copies,
            )
            issues.append(_issue("C-3.2", "too_many_copies", m, (c.name,)))
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
        for c, count in pairs:
            per_faction[c.faction] = per_faction.get(c.faction, 0) + count
        if len(per_faction) <= 1:
            return None
        deck_slug = max(sorted(per_faction), key=lambda s: per_faction[s])
        deck_name = names.get(deck_slug) or deck_slug
    off = [c for c, _ in pairs if c.faction != deck_slug]
    if not off:
        return None
    listed = listing(
        [
            nested(
                msg(
                    gettext_noop("%(card)s (%(faction)s)"),
                    card=card(c.name),
                    faction=names.get(c.faction) or c.faction,
                )
            )
            for c in off
        ]
    )
    n = len(off)
    if n == 1:
        key = gettext_noop("1 card is not %(faction)s: %(cards)s; a deck uses one faction (C-3.4)")
        m = msg(key, faction=deck_name, cards=listed)
    else:
        key = gettext_noop("%(count)s cards are not %(faction)s: %(cards)s; a deck uses one faction (C-3.4)")
        m = msg(key, count=n, faction=deck_name, cards=listed)
    return _issue("C-3.4", "mixed_factions", m, tuple(c.name for c in off))


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
