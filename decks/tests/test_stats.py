"""Deck statistics on a known deck; the hypergeometric opening-hand odds; seeded sample hands (C-4.3)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb, prod

import pytest

from decks.stats import (
    cards_seen,
    deck_stats,
    draw_odds,
    hand_probability,
    hit_probability,
    max_mulligans,
    sample_hand,
)
from decks.tests.factories import facts, legal_entries


def test_known_deck_figures():
    stats = deck_stats(legal_entries())
    assert stats["total_cards"] == 50 and stats["draw_pile"] == 50
    assert stats["command_curve"] == {"0": 4, "1": 12, "2": 16, "3": 12, "4": 5, "5": 1}
    assert stats["energy_curve"] == {"0": 28, "1": 12, "2": 9, "3": 1}
    assert stats["types"] == {"unit": 33, "event": 17}
    assert stats["keywords"] == {"marking": 4, "range_attack": 8}
    assert stats["average_power"] == pytest.approx(2727.3)
    assert stats["average_health"] == pytest.approx(3727.3)


def test_opening_hand_odds_leave_the_commander_out_c_4_1():
    stats = deck_stats(legal_entries(), commander=facts("Blaze Queen"))
    odds = {o["name"]: o["probability"] for o in stats["opening_hand_odds"]}
    assert stats["draw_pile"] == 49
    assert odds["Blaze Queen"] == 0.0
    assert odds["Ember Scout"] == pytest.approx(round(hand_probability(49, 4), 4))
    assert odds["Inferno"] == pytest.approx(6 / 49, abs=1e-4)


@pytest.mark.parametrize("deck, copies", [(50, 4), (50, 1), (60, 3), (49, 2), (40, 4)])
def test_probability_is_one_minus_the_chance_of_missing_every_copy(deck, copies):
    miss = prod((deck - copies - i) / (deck - i) for i in range(6))
    assert hand_probability(deck, copies) == pytest.approx(1 - miss)


def test_probability_edges():
    assert hand_probability(50, 0) == 0.0
    assert hand_probability(50, 1) == pytest.approx(6 / 50)
    assert hand_probability(50, 45) == 1.0
    assert hand_probability(5, 1) == 1.0  # fewer cards than a hand: everything is drawn


def test_empty_deck_statistics():
    stats = deck_stats([])
    assert stats["command_curve"] == {} and stats["average_power"] is None and stats["total_cards"] == 0


def test_sample_hand_is_seeded_and_drawn_from_the_deck_c_4_3():
    entries = legal_entries()
    hand = sample_hand(entries, seed=7).drawn
    assert len(hand) == 6
    assert hand == sample_hand(entries, seed=7).drawn
    assert any(sample_hand(entries, seed=s).drawn != hand for s in range(8, 12))
    available = {card.name: n for card, n in entries}
    assert all(available[name] >= n for name, n in Counter(c.name for c in hand).items())


def test_the_kth_mulligan_redraws_six_from_the_whole_deck_and_owes_k_to_the_bottom_c_4_4():
    entries = legal_entries()
    deals = [sample_hand(entries, seed=3, mulligans=k) for k in range(6)]
    assert [d.bottom for d in deals] == [0, 1, 2, 3, 4, 5]  # the k-th mulligan puts k cards on the bottom
    assert all(len(d.drawn) == 6 for d in deals)  # every mulligan draws 6 again (C-4.4), never 6 - k
    assert len({tuple(c.name for c in d.drawn) for d in deals}) > 1
    assert deals[2] == sample_hand(entries, seed=3, mulligans=2)
    # the hand is shuffled back: over many seeds, a mulligan's hand can hold the first hand's cards again
    names = {card.name for card, _ in entries}
    again = sum(
        bool(
            {c.name for c in sample_hand(entries, seed=s).drawn}
            & {c.name for c in sample_hand(entries, seed=s, mulligans=1).drawn}
        )
        for s in range(50)
    )
    assert again > 0 and len(names) > 6
    # the next cards come from the rest of the deck: drawn + upcoming never exceed any card's copies
    for d in deals:
        shown = Counter(c.name for c in [*d.drawn, *d.upcoming])
        assert all(shown[name] <= n for card, n in entries for name in [card.name])


def test_no_more_mulligans_than_the_engine_allows_c_4_4():
    assert max_mulligans() == 5  # RulesConfig.max_mulligans, and the 6-card hand is never emptied
    with pytest.raises(ValueError, match="C-4.4"):
        sample_hand(legal_entries(), seed=1, mulligans=6)


def test_commander_is_never_in_the_sample_hand_c_4_1():
    entries = legal_entries()
    for seed in range(200):
        deal = sample_hand(entries, seed=seed, commander=facts("Blaze Queen"))
        assert "Blaze Queen" not in {c.name for c in [*deal.drawn, *deal.upcoming]}


# --- exact draw odds, checked against brute force -------------------------------------------------


def brute_force_hit(deck_size: int, copies: int, seen: int, mulligans: int, hand: int) -> Fraction:
    """Every ordering of a small deck (copies marked 1) dealt as C-4.4 says: take `hand` cards; while they
    hold no copy and mulligans are left, shuffle everything back (an independent ordering), draw again
    and bottom k non-copies; then draw up to `seen` cards from the top. Count the orderings that hold one."""
    orders = list(set(permutations([1] * copies + [0] * (deck_size - copies))))
    total = Fraction(0)
    weight = Fraction(1, len(orders))

    def chance(mulls_left: int, k: int) -> Fraction:
        hits = Fraction(0)
        for order in orders:
            if any(order[:hand]):
                hits += weight
            elif mulls_left:
                hits += weight * chance(mulls_left - 1, k + 1)
            else:
                library = list(order[hand:]) + [0] * k  # the k bottomed cards (no copy) go under the rest
                drawn = library[: max(0, seen - hand)]
                hits += weight * (1 if any(drawn) else 0)
        return hits

    total = chance(mulligans, 0)
    return total


@pytest.mark.parametrize(
    "deck_size, copies, seen, mulligans, hand",
    [(8, 2, 3, 0, 3), (8, 2, 5, 0, 3), (8, 1, 7, 1, 3), (7, 2, 4, 2, 2), (9, 3, 9, 1, 3), (6, 1, 2, 0, 2)],
)
def test_hit_probability_equals_brute_force_over_every_shuffle_c_4_4(
    deck_size, copies, seen, mulligans, hand
):
    exact = hit_probability(deck_size, copies, seen, mulligans=mulligans, hand_size=hand)
    assert exact == brute_force_hit(deck_size, copies, seen, mulligans, hand)


def test_known_values():
    # 4 copies in 50 cards, 6 seen: 1 - (44*43*42*41)/(50*49*48*47) = 0.410547...
    assert float(hit_probability(50, 4, 6)) == pytest.approx(0.410547, abs=1e-6)
    assert hit_probability(50, 4, 6) == 1 - Fraction(comb(46, 6), comb(50, 6))
    # one mulligan hunting for it: 1 - (C(46,6)/C(50,6))**2
    assert hit_probability(50, 4, 6, mulligans=1) == 1 - Fraction(comb(46, 6), comb(50, 6)) ** 2
    assert hit_probability(50, 1, 50) == 1 and hit_probability(50, 0, 20) == 0


def test_reinforce_is_the_only_draw_and_the_first_turn_has_two_cp_c_4_6_c_5_2():
    # opening 6 (C-4.3), 2 cards a Reinforce (C-5.2); going first, turn 1 has only 2 CP (C-4.6)
    assert cards_seen(0, 3, first=True) == 6
    assert cards_seen(1, 3, first=True) == 6 + 2 * 2
    assert cards_seen(1, 3, first=False) == 6 + 2 * 3
    assert cards_seen(3, 1, first=True) == cards_seen(3, 1, first=False) == 12
    assert cards_seen(2, 0, first=True) == 6  # no draw step in Commandeer


def test_draw_odds_table_for_a_deck_with_a_commander_c_4_5():
    entries = legal_entries()
    odds = draw_odds(entries, commander=facts("Blaze Queen"), turns=3, reinforces=1)
    assert odds["draw_pile"] == 49 and odds["cards_seen"] == [6, 8, 10, 12]
    rows = {row["name"]: row for row in odds["cards"]}
    assert rows["Blaze Queen"]["commander"] and rows["Blaze Queen"]["probabilities"] == [1.0] * 4
    scout = rows["Ember Scout"]["probabilities"]
    assert scout == [round(float(hit_probability(49, 4, n)), 6) for n in (6, 8, 10, 12)]
    assert scout == sorted(scout)  # more cards seen, never a lower chance
    cheap = {row["max_cost"]: row for row in odds["units_by_cost"]}
    units_le_1 = sum(n for card, n in entries if card.card_type == "unit" and card.command_cost <= 1)
    assert cheap[1]["copies"] == units_le_1
    assert cheap[1]["probabilities"][0] == round(float(hit_probability(49, units_le_1, 6)), 6)
    queen_cost = facts("Blaze Queen").command_cost
    assert cheap[queen_cost]["probabilities"] == [1.0] * 4  # the Commander is playable from its zone
