"""Deck statistics on a known deck; the hypergeometric opening-hand odds; seeded sample hands (C-4.3)."""

from __future__ import annotations

from collections import Counter
from math import prod

import pytest

from decks.stats import deck_stats, hand_probability, sample_hand
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
    hand = sample_hand(entries, seed=7)
    assert len(hand) == 6
    assert hand == sample_hand(entries, seed=7)
    assert any(sample_hand(entries, seed=s) != hand for s in range(8, 12))
    available = {card.name: n for card, n in entries}
    assert all(available[name] >= n for name, n in Counter(c.name for c in hand).items())


def test_mulligan_draws_a_new_hand_from_the_same_seed_c_4_4():
    entries = legal_entries()
    hands = [sample_hand(entries, seed=3, mulligans=k) for k in range(4)]
    assert len({tuple(c.name for c in h) for h in hands}) > 1
    assert hands[2] == sample_hand(entries, seed=3, mulligans=2)


def test_commander_is_never_in_the_sample_hand_c_4_1():
    entries = legal_entries()
    for seed in range(200):
        assert "Blaze Queen" not in {
            c.name for c in sample_hand(entries, seed=seed, commander=facts("Blaze Queen"))
        }
