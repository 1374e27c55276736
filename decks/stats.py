"""Deck statistics for the builder: cost curves, type split, keywords, averages, sample hands, odds.

Pure Python over `(card, count)` pairs (rows with prefetched keywords, card-JSON mappings or
CardFacts). The sample hand follows C-4.1/C-4.3: a chosen Commander leaves the deck, the rest is
shuffled with a seeded `random.Random` and 6 cards are drawn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb
from typing import Any

from decks.cardfacts import CardFacts, card_facts

HAND_SIZE = 6  # C-4.3


def _facts(entries: Sequence[tuple[Any, int]]) -> list[tuple[CardFacts, int]]:
    return [(card_facts(card), count) for card, count in entries]


def draw_pile(entries: Sequence[tuple[Any, int]], commander: Any = None) -> list[CardFacts]:
    """The deck as single cards in a stable order, without one copy of the Commander (C-4.1)."""
    pile: list[CardFacts] = []
    commander_name = (
        card_facts(commander, with_keywords=False).name.casefold() if commander is not None else None
    )
    for facts, count in sorted(_facts(entries), key=lambda fc: fc[0].name.casefold()):
        if commander_name is not None and facts.name.casefold() == commander_name:
            count -= 1
            commander_name = None
        pile.extend([facts] * max(count, 0))
    return pile


def hand_probability(deck_size: int, copies: int, hand_size: int = HAND_SIZE) -> float:
    """Chance that at least one of `copies` cards is among `hand_size` drawn from `deck_size`.

    Hypergeometric: 1 - C(N-k, n) / C(N, n).
    """
    if copies <= 0 or deck_size <= 0:
        return 0.0
    hand_size = min(hand_size, deck_size)
    return 1.0 - comb(deck_size - copies, hand_size) / comb(deck_size, hand_size)


def sample_hand(
    entries: Sequence[tuple[Any, int]], *, seed: int, mulligans: int = 0, commander: Any = None
) -> list[CardFacts]:
    """A seeded opening hand of 6 (C-4.3); each mulligan shuffles the hand back and draws 6 again.

    The same seed gives the same hand; mulligan k is the (k+1)-th draw of the same shuffled stream
    (C-4.4's bottom-of-deck cards are not modelled: this previews hands, it does not play a match).
    """
    rng = random.Random(seed)
    pile = draw_pile(entries, commander)
    hand: list[CardFacts] = []
    for _ in range(mulligans + 1):
        rng.shuffle(pile)
        hand = pile[:HAND_SIZE]
    return hand


def _curve(values: list[tuple[int, int]]) -> dict[str, int]:
    curve: dict[int, int] = {}
    for value, count in values:
        curve[value] = curve.get(value, 0) + count
    if not curve:
        return {}
    return {str(cost): curve.get(cost, 0) for cost in range(0, max(curve) + 1)}


def deck_stats(entries: Sequence[tuple[Any, int]], *, commander: Any = None) -> dict[str, Any]:
    """Every figure the builder shows: curves, unit/event split, keyword counts, averages, hand odds."""
    facts = _facts(entries)
    total = sum(c for _, c in facts)
    units = [(f, c) for f, c in facts if f.is_unit]
    unit_count = sum(c for _, c in units)
    keywords: dict[str, int] = {}
    for f, c in facts:
        for code in f.keywords:
            keywords[code] = keywords.get(code, 0) + c

    def average(attr: str) -> float | None:
        values = [(getattr(f, attr), c) for f, c in units if getattr(f, attr) is not None]
        copies = sum(c for _, c in values)
        return round(sum(v * c for v, c in values) / copies, 1) if copies else None

    pile_size = len(draw_pile(entries, commander))
    commander_name = (
        card_facts(commander, with_keywords=False).name.casefold() if commander is not None else None
    )
    odds = []
    for f, c in sorted(facts, key=lambda fc: fc[0].name.casefold()):
        copies = c - 1 if commander_name == f.name.casefold() else c
        odds.append(
            {
                "card": f.slug,
                "name": f.name,
                "count": c,
                "probability": round(hand_probability(pile_size, copies), 4),
            }
        )
    return {
        "total_cards": total,
        "draw_pile": pile_size,
        "command_curve": _curve([(f.command_cost, c) for f, c in facts]),
        "energy_curve": _curve([(f.energy_cost, c) for f, c in facts]),
        "types": {"unit": unit_count, "event": total - unit_count},
        "keywords": dict(sorted(keywords.items())),
        "average_power": average("power"),
        "average_health": average("health"),
        "opening_hand_odds": odds,
    }
