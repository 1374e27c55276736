"""Deck statistics for the builder: cost curves, type split, keywords, averages, sample hands, odds.

Pure Python over `(card, count)` pairs (rows with prefetched keywords, card-JSON mappings or
CardFacts). The sample hand follows C-4.1/C-4.3/C-4.4: a chosen Commander leaves the deck, the rest is
shuffled with a seeded `random.Random`, 6 cards are drawn, and the k-th mulligan shuffles them back,
draws 6 and owes k cards to the bottom. Draw odds are exact fractions (hypergeometric).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from decks.cardfacts import CardFacts, card_facts
from matches.engine.config import RulesConfig

RULES = RulesConfig()  # the match rules' numbers: opening hand (C-4.3), mulligans (C-4.4), CP, Reinforce
HAND_SIZE = RULES.opening_hand  # C-4.3
UPCOMING = 10  # cards on top of the deck a sample hand shows for Reinforce draws (C-5.2)


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


@dataclass(frozen=True)
class SampleHand:
    """A sample opening after `mulligans` mulligans (C-4.3, C-4.4).

    `drawn` are the 6 cards of the last draw; the player now puts `bottom` of them on the bottom of the
    deck (C-4.4: the k-th mulligan puts k cards) and keeps the rest. `upcoming` are the next cards on top
    of the deck, in order, for Reinforce draws (C-5.2); the bottomed cards go under all of them.
    """

    drawn: list[CardFacts]
    bottom: int
    upcoming: list[CardFacts]


def max_mulligans(config: RulesConfig = RULES) -> int:
    """C-4.4 (engine Decision): at most `max_mulligans`, and never so many that the hand would be empty."""
    return min(config.max_mulligans, config.opening_hand - 1)


def sample_hand(
    entries: Sequence[tuple[Any, int]],
    *,
    seed: int,
    mulligans: int = 0,
    commander: Any = None,
    upcoming: int = UPCOMING,
    config: RulesConfig = RULES,
) -> SampleHand:
    """A seeded opening as a match deals it: the Commander leaves the deck (C-4.1), the deck is shuffled
    and 6 are drawn (C-4.3); each mulligan shuffles the hand back into the whole deck, draws 6 again
    and owes one more card to the bottom than the last (C-4.4). The same seed gives the same cards."""
    if not 0 <= mulligans <= max_mulligans(config):
        raise ValueError(f"mulligans must be 0 to {max_mulligans(config)} (C-4.4), got {mulligans}")
    rng = random.Random(seed)
    pile = draw_pile(entries, commander)
    for _ in range(mulligans + 1):  # the hand is always shuffled back: the whole pile is shuffled
        rng.shuffle(pile)
    hand_size = config.opening_hand
    return SampleHand(
        drawn=pile[:hand_size], bottom=mulligans, upcoming=pile[hand_size : hand_size + upcoming]
    )


# --- draw odds (hypergeometric, exact) --------------------------------------------------------------


def miss_probability(deck_size: int, copies: int, seen: int) -> Fraction:
    """Exact chance that none of `copies` cards is among the top `seen` of a shuffled `deck_size`."""
    if copies <= 0:
        return Fraction(1)
    seen = max(0, min(seen, deck_size))
    return Fraction(comb(deck_size - copies, seen), comb(deck_size, seen))


def reinforces_by_turn(turn: int, per_turn: int, *, first: bool, config: RulesConfig = RULES) -> int:
    """Reinforces (1 CP each, C-5.2) made in your turns 1..`turn` when you try `per_turn` a turn: the
    first player's first turn has only 2 CP (C-4.6), every other turn 3 (C-5.1). Commandeer has no
    draw step: Reinforce is the only draw the rules give every deck."""
    total = 0
    for t in range(1, turn + 1):
        cp = config.first_turn_cp if (first and t == 1) else config.cp_per_turn
        total += min(per_turn, cp)
    return total


def cards_seen(turn: int, per_turn: int, *, first: bool, config: RulesConfig = RULES) -> int:
    """Cards seen by your turn `turn`: the opening hand (C-4.3) plus `reinforce_draw` per Reinforce."""
    return config.opening_hand + config.reinforce_draw * reinforces_by_turn(
        turn, per_turn, first=first, config=config
    )


def hit_probability(
    deck_size: int,
    copies: int,
    seen: int,
    *,
    mulligans: int = 0,
    hand_size: int = HAND_SIZE,
) -> Fraction:
    """Exact chance to have held at least one of `copies` cards after seeing `seen` cards, mulliganing
    (C-4.4) up to `mulligans` times while the opening hand has none.

    Each mulligan shuffles the whole deck again, so the openings are independent draws of `hand_size`;
    a kept hand with a copy keeps it (only k of the 6 go to the bottom), and a hand without one bottoms
    only other cards, under every card still to be drawn. So the miss chance is
    P(no copy in 6)^mulligans * P(no copy in the first `seen` cards of a shuffled deck).
    """
    opening_miss = miss_probability(deck_size, copies, hand_size)
    return 1 - opening_miss**mulligans * miss_probability(deck_size, copies, seen)


MAX_TURN = 15  # draw odds: columns up to this turn of yours
MAX_REINFORCES = 3  # a turn's CP (C-5.1) pays for at most 3 Reinforces of 1 CP (C-5.2)


def draw_odds(
    entries: Sequence[tuple[Any, int]],
    *,
    commander: Any = None,
    turns: int = 5,
    reinforces: int = 1,
    mulligans: int = 0,
    first: bool = True,
    config: RulesConfig = RULES,
) -> dict[str, Any]:
    """Exact chances (hypergeometric over the real draw pile) to hold each card, and a unit of Command
    cost <= N, in the opening hand (C-4.3) and by each of your turns 1..`turns`, Reinforcing
    `reinforces` times a turn (C-5.2; the first player's first turn has 2 CP, C-4.6) and mulliganing up
    to `mulligans` times to find it (C-4.4). The Commander waits in the Commander zone, playable as if in
    hand (C-4.1, C-4.5): a chance of 1."""
    pile = draw_pile(entries, commander)
    size = len(pile)
    seen = [config.opening_hand] + [
        cards_seen(t, reinforces, first=first, config=config) for t in range(1, turns + 1)
    ]
    commander_facts = card_facts(commander, with_keywords=False) if commander is not None else None

    def chances(copies: int, certain: bool) -> list[float]:
        if certain:
            return [1.0] * len(seen)
        return [
            round(
                float(hit_probability(size, copies, n, mulligans=mulligans, hand_size=config.opening_hand)), 6
            )  # 6 places: a near-certain chance is never shown as certain
            for n in seen
        ]

    in_pile: dict[str, int] = {}
    for facts in pile:
        in_pile[facts.slug] = in_pile.get(facts.slug, 0) + 1
    cards = []
    for facts, count in sorted(_facts(entries), key=lambda fc: (fc[0].command_cost, fc[0].name.casefold())):
        is_commander = commander_facts is not None and commander_facts.slug == facts.slug
        cards.append(
            {
                "card": facts.slug,
                "name": facts.shown or facts.name,
                "count": count,
                "commander": is_commander,
                "probabilities": chances(in_pile.get(facts.slug, 0), is_commander),
            }
        )
    commander_cost = (
        commander_facts.command_cost if commander_facts is not None and commander_facts.is_unit else None
    )
    unit_costs = {f.command_cost for f in pile if f.is_unit} | (
        {commander_cost} if commander_cost is not None else set()
    )
    units = []
    for cost in range(min(unit_costs, default=0), max(unit_costs, default=-1) + 1):
        copies = sum(1 for f in pile if f.is_unit and f.command_cost <= cost)
        certain = commander_cost is not None and commander_cost <= cost
        units.append({"max_cost": cost, "copies": copies, "probabilities": chances(copies, certain)})
    return {
        "draw_pile": size,
        "opening_hand": config.opening_hand,
        "reinforce_draw": config.reinforce_draw,
        "reinforces": reinforces,
        "mulligans": mulligans,
        "first": first,
        "cards_seen": seen,
        "cards": cards,
        "units_by_cost": units,
    }


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
                "name": f.shown or f.name,
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
