"""C-4 set-up: Commander choice, seeded first player, opening hand, growing mulligan, reveal, 2 CP."""

from __future__ import annotations

import pytest

from matches.engine import IllegalActionError, build_deck, load_card_file, new_match
from matches.engine.actions import ChooseCard, ChooseCommander, Keep, Mulligan
from matches.engine.steps import Step
from matches.engine.tests.pool import pool_file

CAT = load_card_file(pool_file())
EMBER = build_deck(CAT, "ember")
TIDE = build_deck(CAT, "tide")


def test_commander_choice_is_an_action_and_leaves_the_deck_c_4_1() -> None:
    g = new_match(EMBER, TIDE, seed=3)
    assert g.step is Step.COMMANDER and g.current_players() == [0]
    acts = g.legal_actions(0)
    assert ChooseCommander(0, None) in acts and ChooseCommander(0, "Ember Queen") in acts
    assert ChooseCommander(0, "Ember Scout") not in acts  # not Legendary
    g.apply(ChooseCommander(0, "Ember Queen"))
    assert g.sides[0].commander is not None and g.card_name(g.sides[0].commander) == "Ember Queen"
    assert all(g.card_name(c) != "Ember Queen" for c in g.sides[0].deck + g.sides[0].hand)
    assert g.current_players() == [1]


def test_pre_chosen_commander_skips_the_choice_c_4_1() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=3)
    assert g.step is Step.MULLIGAN
    with pytest.raises(ValueError, match="Legendary"):
        new_match({**EMBER, "commander": "Ember Scout"}, TIDE, seed=3)


def test_face_down_commander_is_hidden_until_revealed_c_4_5() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, TIDE, seed=3)
    g.apply(ChooseCommander(1, None))
    assert g.player_view(1)["players"][0]["commander"] == {"face_down": True}
    assert g.player_view(0)["players"][0]["commander"]["card"] == "Ember Queen"
    while g.step is Step.MULLIGAN:
        g.apply(Keep(g.current_players()[0]))
    assert g.player_view(1)["players"][0]["commander"]["card"] == "Ember Queen"
    assert g.player_view(1)["players"][0]["commander"]["revealed"] is True


def test_first_player_is_seeded_and_random_c_4_2() -> None:
    firsts = set()
    for seed in range(20):
        a = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=seed)
        b = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=seed)
        assert a.first == b.first and a.to_dict() == b.to_dict()
        firsts.add(a.first)
    assert firsts == {0, 1}


def test_each_player_draws_six_and_first_player_decides_mulligan_first_c_4_3() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=5)
    assert [len(s.hand) for s in g.sides] == [6, 6]
    assert [len(s.deck) for s in g.sides] == [43, 43]
    assert g.current_players() == [g.first]


def test_kth_mulligan_puts_k_chosen_cards_on_the_bottom_c_4_4() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=5)
    p = g.first
    for k in (1, 2):
        g.apply(Mulligan(p))
        assert len(g.sides[p].hand) == 6
        for i in range(k):
            if g.decision is None:  # forced picks (all cards alike) are automatic
                break
            assert g.decision["kind"] == "bottom" and g.decision["count"] == k - i
            choice = g.legal_actions(p)[0]
            assert isinstance(choice, ChooseCard)
            g.apply(choice)
            assert g.sides[p].deck[0] == choice.card  # bottom of the deck
        assert len(g.sides[p].hand) == 6 - k
        assert g.decision is None and g.step is Step.MULLIGAN
    g.apply(Keep(p))
    assert g.current_players() == [1 - p]


def test_mulligan_limit_keeps_at_least_one_card_c_4_4() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=5)
    p = g.first
    for _ in range(g.config.max_mulligans):
        g.apply(Mulligan(p))
        while g.decision is not None:
            g.apply(g.legal_actions(p)[0])
    assert Mulligan(p) not in g.legal_actions(p)
    assert len(g.sides[p].hand) == 6 - g.config.max_mulligans
    with pytest.raises(IllegalActionError):
        g.apply(Mulligan(p))


def test_first_player_gets_two_cp_on_the_first_turn_then_three_c_4_6() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=5)
    g.apply(Keep(g.first))
    g.apply(Keep(1 - g.first))
    assert g.step is Step.PLANNING and g.turn == 1 and g.active == g.first
    assert g.sides[g.first].cp == 2


def test_illegal_deck_is_rejected_when_the_match_starts_c_3_1() -> None:
    with pytest.raises(ValueError, match="C-3.1"):
        new_match({"cards": EMBER["cards"][:40], "commander": None}, TIDE, seed=1)
