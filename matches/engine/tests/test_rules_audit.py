"""Audit scenarios (docs/commandeer-rules-coverage.md): each rule of C-4 … C-8 checked at its boundary.

Positions are hand-written in the position format (docs/commandeer-position.md) through ``helpers``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.engine import IllegalActionError, Reason, build_deck, continuous, load_card_file, new_match
from matches.engine.actions import (
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    ChooseTarget,
    ChooseTrigger,
    Concede,
    Deploy,
    Keep,
    Move,
    Mulligan,
    Pass,
    PlayEvent,
    square_index,
)
from matches.engine.steps import Step
from matches.engine.tests.helpers import at, in_zone, position, result, side, unit
from matches.engine.tests.pool import _unit, ab, eff, pool_file

CAT = load_card_file(pool_file())
EMBER = build_deck(CAT, "ember")
TIDE = build_deck(CAT, "tide")

# Extra test cards for the boundaries the pool does not reach.
PENNY = _unit(  # a start-of-turn ability that would show whether it resolved before or after the CP gain
    "Penny Pincher",
    "test",
    1,
    0,
    1000,
    9000,
    [],
    abilities=[ab("start_of_turn", eff("lose_cp", "controller", amount=5))],
)
HERALD = _unit(
    "Tide Herald",
    "tide",
    1,
    0,
    1000,
    5000,
    ["N"],
    abilities=[ab("start_of_defending", eff("modify_health", "self", amount=1000))],
)
DUELIST = _unit(  # Spoil on a defeat caused by an ability (C-7.5)
    "Ember Duelist",
    "ember",
    2,
    0,
    1000,
    5000,
    ["N"],
    keywords=["spoil"],
    abilities=[
        ab("spoil", eff("gain_cp", "controller", amount=1)),
        ab("planning_activated", eff("deal_damage", "chosen_enemy_unit", amount=5000)),
    ],
)
SIDESTEP = _unit("Sidestep", "test", 1, 0, 1000, 9000, ["E"])  # only an "E" arrow (C-1.2 rotation)
EXTRA = [PENNY, HERALD, DUELIST, SIDESTEP]


def sq(name: str) -> int:
    return square_index(name)


def keys_of(x: Any) -> set[str]:
    """Every key anywhere in a JSON-like value."""
    out: set[str] = set()
    if isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            out |= keys_of(v)
    elif isinstance(x, list):
        for v in x:
            out |= keys_of(v)
    return out


def ids_in(x: Any) -> set[int]:
    """Every card id (``{"id": n}``) anywhere in a JSON-like value."""
    out: set[int] = set()
    if isinstance(x, dict):
        if isinstance(x.get("id"), int):
            out.add(x["id"])
        for v in x.values():
            out |= ids_in(v)
    elif isinstance(x, list):
        for v in x:
            out |= ids_in(v)
    return out


# ---------------------------------------------------------------------------------------------- C-4 set-up
def test_kth_mulligan_bottoms_k_cards_the_player_picks_hidden_from_the_opponent_c_4_4() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=5)
    p, o = g.first, 1 - g.first
    g.apply(Mulligan(p))
    while g.decision is not None:
        g.apply(g.legal_actions(p)[0])
    g.apply(Mulligan(p))  # the 2nd mulligan: the hand is shuffled back, 6 drawn, then 2 go to the bottom
    assert len(g.sides[p].hand) == 6 and g.decision is not None
    assert g.decision["kind"] == "bottom" and g.decision["count"] == 2 and g.current_players() == [p]
    chosen = []
    while g.decision is not None:
        options = [a for a in g.legal_actions(p) if isinstance(a, ChooseCard)]
        pick = options[-1]  # not simply the first card: the player decides which
        g.apply(pick)
        chosen.append(pick.card)
    assert len(chosen) == 2 and g.sides[p].deck[:2] == chosen[::-1]  # both on the bottom
    assert len(g.sides[p].hand) == 4
    seen_by_opponent = json.dumps(g.player_view(o)) + json.dumps(g.log_view(o))
    assert not (ids_in(g.player_view(o)) | ids_in(g.log_view(o))) & set(chosen)
    assert "bottom" in seen_by_opponent  # the opponent knows that cards went to the bottom, not which
    assert set(chosen) <= ids_in(g.log_view(p))  # the owner sees their own choice
    assert g.player_view(o)["decision"] is None and g.player_view(o)["players"][p]["mulligans"] == 2


def test_commander_is_playable_from_its_zone_only_once_revealed_c_4_5() -> None:
    hidden = position(
        board=[unit("c3", "Dummy", 0)],
        p0={"cp": 3, "commander": "Ember Queen", "commander_revealed": False, "energy": ["Dummy"]},
    )
    queen = hidden.sides[0].commander
    assert queen is not None
    assert not [a for a in hidden.legal_actions(0) if isinstance(a, Deploy) and a.card == queen]
    g = new_match({**EMBER, "commander": "Ember Queen"}, TIDE, seed=3)
    g.apply(ChooseCommander(1, None))
    g.apply(Keep(g.first))
    g.apply(Keep(1 - g.first))
    reveals = [ev for e in g.log_view(1 - 0) for ev in e["events"] if ev["type"] == "reveal"]
    assert [ev["card"]["card"] for ev in reveals] == ["Ember Queen"] and g.sides[0].revealed


def test_first_player_gets_2_cp_and_the_second_player_3_on_their_first_turn_c_4_6() -> None:
    g = position(board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)], turn=1, step="turn_start")
    assert g.sides[0].cp == 2
    g.apply(Pass(0))
    g.apply(Pass(1))
    g.apply(Pass(0))
    assert g.turn == 2 and g.active == 1 and g.sides[1].cp == 3


# ---------------------------------------------------------------------------------------------- C-5 turn
def test_start_of_turn_abilities_resolve_before_the_cp_gain_c_5_1() -> None:
    g = position(
        board=[unit("c3", "Penny Pincher", 0), unit("c4", "Dummy", 1)],
        p0=side(cp=0, deck=["Dummy"] * 3),
        step="turn_start",
        turn=5,
        extra_cards=EXTRA,
    )
    assert g.step is Step.PLANNING and g.sides[0].cp == 3  # lost 5 of 0 CP first, then gained 3


def test_trigger_order_is_the_active_players_choice_c_5_1() -> None:
    g = position(
        board=[unit("c3", "Tide Caller", 0), unit("c2", "Tide Mystic", 0), unit("c4", "Dummy", 1)],
        p0=side(deck=["Inferno"] * 3),
        step="turn_start",
        turn=5,
    )
    assert g.decision is not None and g.decision["kind"] == "order" and g.current_players() == [0]
    assert g.step is Step.START_CP and g.sides[0].cp == 0  # nothing resolved yet, no CP gained yet
    labels = g.decision["labels"]
    assert sorted(labels) == ["Tide Caller: start_of_turn", "Tide Mystic: start_of_planning"]
    second = [a for a in g.legal_actions(0) if isinstance(a, ChooseTrigger)][1]
    g.apply(second)
    order = [g.card_name(ev["card"]) for e in g.log for ev in e["events"] if ev["type"] == "trigger"]
    assert order[0] == labels[1].split(":")[0] and len(order) == 2


def test_deploy_square_must_touch_any_players_unit_orthogonally_c_5_2() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("e5", "Dummy", 1)],
        p0=side(cp=1, hand=["Ember Scout"]),
    )
    squares = {a.square for a in g.legal_actions(0) if isinstance(a, Deploy)}
    around_own = {sq(s) for s in ("c2", "b3", "d3", "c4")}
    around_enemy = {sq(s) for s in ("e4", "d5", "f5", "e6")}
    assert squares == around_own | around_enemy
    assert sq("d4") not in squares  # diagonal to both: not adjacent (C-2.5)


def test_move_goes_next_to_another_card_of_either_player_c_5_2() -> None:
    g = position(board=[unit("c3", "Ember Scout", 0), unit("e3", "Dummy", 0)], p0=side(cp=2))
    scout = at(g, "c3")
    moves = {a.square for a in g.legal_actions(0) if isinstance(a, Move) and a.unit == scout}
    assert moves == {sq(s) for s in ("e2", "d3", "f3", "e4")}  # next to the own Dummy, not to itself
    assert sq("c4") not in moves and sq("b3") not in moves


def test_events_keep_to_their_phase_c_5_2_c_5_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)], p0=side(cp=3, hand=["Ember Shield", "Fireball"], energy=["Dummy"])
    )
    playable = {g.card_name(a.card) for a in g.legal_actions(0) if isinstance(a, PlayEvent)}
    assert playable == {"Fireball"}  # a Defensive event is not a Planning event (C-1.3)


def test_reinforce_then_energy_choice_is_the_players_c_5_2() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Dummy"], deck=["Inferno", "Fireball"]))
    from matches.engine.actions import Reinforce

    g.apply(Reinforce(0))
    names = {g.card_name(a.card) for a in g.legal_actions(0) if isinstance(a, ChooseCard)}
    assert names == {"Dummy", "Inferno", "Fireball"}  # any card of the hand, the old one included
    g.apply(
        next(a for a in g.legal_actions(0) if isinstance(a, ChooseCard) and g.card_name(a.card) == "Dummy")
    )
    assert in_zone(g, 0, "energy") == ["Dummy"] and sorted(in_zone(g, 0, "hand")) == ["Fireball", "Inferno"]
    assert g.sides[0].cp == 0


def test_start_of_defending_abilities_are_ordered_by_the_defender_c_5_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Tide Warden", 1), unit("d4", "Tide Herald", 1)],
        p0=side(cp=0),
        step="planning",
        extra_cards=EXTRA,
    )
    g.apply(Pass(0))
    assert g.decision is not None and g.decision["kind"] == "order" and g.current_players() == [1]
    g.apply([a for a in g.legal_actions(1) if isinstance(a, ChooseTrigger)][0])
    assert g.step is Step.DEFENDING and g.current_players() == [1]


def test_second_players_east_arrow_points_to_the_boards_west_c_5_6_c_1_2() -> None:
    board = [unit("c3", "Sidestep", 1), unit("b3", "Dummy", 0), unit("d3", "Dummy", 0)]
    g = position(board=board, step="combat", active=1, extra_cards=EXTRA)
    attacks = [a for a in g.legal_actions(1) if isinstance(a, Attack)]
    assert [(a.direction, a.target) for a in attacks] == [("W", at(g, "b3"))]
    first = position(
        board=[unit("c3", "Sidestep", 0), unit("b3", "Dummy", 1), unit("d3", "Dummy", 1)],
        step="combat",
        extra_cards=EXTRA,
    )
    assert [(a.direction, a.target) for a in first.legal_actions(0) if isinstance(a, Attack)] == [
        ("E", at(first, "d3"))
    ]
    with pytest.raises(IllegalActionError):
        g.apply(Attack(1, at(g, "c3"), "E", at(g, "d3")))


def test_attack_is_once_per_unit_and_only_at_enemies_c_5_6() -> None:
    g = position(
        board=[unit("c3", "Brute", 0), unit("c4", "Dummy", 0), unit("d3", "Dummy", 1)], step="combat"
    )
    brute = at(g, "c3")
    assert {a.target for a in g.legal_actions(0) if isinstance(a, Attack)} == {at(g, "d3")}
    g.apply(Attack(0, brute, "E", at(g, "d3")))
    assert not [a for a in g.legal_actions(0) if isinstance(a, Attack)]
    assert g.units[brute].damage == 0  # no strike back


def test_a_negative_health_ongoing_defeats_a_damaged_unit_at_once_c_5_7() -> None:
    g = position(
        board=[unit("c3", "Dummy", 1), unit("c4", "Ember Scout", 0, damage=3000)],
        p1=side(cp=1, hand=["Tidal Mark"]),
        active=1,
    )
    scout = at(g, "c4")
    g.apply(PlayEvent(1, g.sides[1].hand[0], scout))  # 4000 - 1000 = 3000 <= 3000 damage
    assert scout not in g.units and in_zone(g, 0, "defeated") == ["Ember Scout"]
    assert in_zone(g, 1, "retired") == ["Tidal Mark"]  # the attached event follows the rules of C-5.7


def test_losing_a_health_bonus_defeats_at_once_c_5_7() -> None:
    g = position(
        board=[
            unit("c3", "Brute", 1),
            unit("c4", "Ember Queen", 0),
            unit("d4", "Ember Scout", 0, damage=4000),  # alive only thanks to the Queen's +1000 Health
        ],
        step="combat",
        active=1,
    )
    scout = at(g, "d4")
    assert scout in g.units
    g.apply(Attack(1, at(g, "c3"), "N", at(g, "c4")))
    assert scout not in g.units and in_zone(g, 0, "defeated") == ["Ember Queen", "Ember Scout"]


def test_damage_from_the_planning_phase_stays_until_combat_ends_c_5_7_c_5_8() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)],
        p0=side(cp=1, hand=["Fireball"], energy=["Dummy"]),
    )
    enemy = at(g, "c4")
    g.apply(PlayEvent(0, g.sides[0].hand[0], None))
    g.apply(Pass(0))
    g.apply(Pass(1))
    assert g.step is Step.COMBAT and g.units[enemy].damage == 2000
    g.apply(Pass(0))
    assert g.units[enemy].damage == 0


def test_hand_of_exactly_seven_keeps_every_card_c_5_9() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(hand=["Fireball"] * 7), step="combat")
    g.apply(Pass(0))
    assert len(g.sides[0].hand) == 7 and g.active == 1 and g.decision is None


def test_discard_down_to_seven_one_chosen_card_at_a_time_c_5_9() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)],
        p0=side(hand=["Fireball"] * 5 + ["Inferno", "Ember Scout", "Dummy", "Ember Archer"]),
        step="combat",
    )
    g.apply(Pass(0))
    assert g.decision is not None and g.decision["count"] == 2 and g.decision["reason"] == "hand_limit"
    for name in ("Dummy", "Ember Archer"):
        g.apply(
            next(a for a in g.legal_actions(0) if isinstance(a, ChooseCard) and g.card_name(a.card) == name)
        )
    assert sorted(in_zone(g, 0, "retired")) == ["Dummy", "Ember Archer"] and len(g.sides[0].hand) == 7


def test_a_unit_left_at_the_end_keeps_the_active_player_alive_c_5_10() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], step="combat")
    g.apply(Pass(0))
    assert g.outcome() is None and g.active == 1


# ---------------------------------------------------------------------------------------------- C-6 results
def test_five_defeated_cards_do_not_lose_c_6_1() -> None:
    g = position(
        board=[unit("c3", "Brute", 0), unit("c4", "Ember Scout", 1), unit("d4", "Dummy", 1)],
        p1=side(defeated=["Ember Scout"] * 4),
        step="combat",
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert g.outcome() is None and len(g.sides[1].defeated) == 5


def test_sixth_defeat_by_an_ability_ends_the_match_mid_ability_c_6_1_c_6_3() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Ember Scout", 1)],
        p0=side(cp=3, hand=["Maelstrom"], energy=["Dummy"], deck=["Dummy"] * 5),
        p1=side(defeated=["Ember Scout"] * 5),
    )
    g.apply(PlayEvent(0, g.sides[0].hand[0], None))
    g.apply(ChooseTarget(0, at(g, "c4")))  # defeat it: the sixth Defeated card
    assert result(g).winner == 0 and result(g).reason is Reason.SIX_DEFEATED
    assert len(g.sides[0].hand) == 0  # the ability's "draw 2" never happened: the match had ended


def test_a_finished_match_accepts_no_action_even_unchecked_c_6_3() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=3))
    g.apply(Concede(0))
    assert g.current_players() == [] and g.legal_actions(1) == []
    for action in (Pass(0), Concede(1)):
        with pytest.raises(IllegalActionError, match="over"):
            g.apply(action)
        with pytest.raises(IllegalActionError, match="over"):
            g.apply_unchecked(action)
    assert result(g).winner == 1


def test_concession_during_set_up_and_the_opponents_choice_c_6_4() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, TIDE, seed=3)
    assert g.step is Step.COMMANDER and Concede(1) in g.legal_actions(1)
    g2 = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)],
        p0=side(hand=["Dummy"] * 8 + ["Fireball"]),
        step="combat",
    )
    g2.apply(Pass(0))  # player 0 must discard; player 1 concedes meanwhile
    assert g2.decision is not None and g2.current_players() == [0]
    g2.apply(Concede(1))
    assert result(g2).winner == 0 and result(g2).reason is Reason.CONCESSION


def test_turn_limit_ends_after_the_last_turn_not_before_c_6_5() -> None:
    board = [unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)]
    g = position(board=board, p1=side(defeated=["Ember Scout"], deck=["Dummy"] * 3), step="combat", turn=59)
    g.apply(Pass(0))
    assert g.outcome() is None and g.turn == 60 and g.active == 1  # the second player's 30th turn
    g.apply(Pass(1))
    g.apply(Pass(0))
    g.apply(Pass(1))
    assert result(g).reason is Reason.TURN_LIMIT and result(g).winner == 0  # fewer Defeated cards wins


# ---------------------------------------------------------------------------------------------- C-7 keywords
def test_range_attack_reaches_past_units_but_only_along_its_arrows_c_7_1() -> None:
    g = position(
        board=[
            unit("a1", "Ember Archer", 0, damage=0),
            unit("a2", "Dummy", 0),
            unit("a6", "Dummy", 1),
            unit("b3", "Dummy", 1),  # not on a line of its only arrow "N"
        ],
        step="combat",
        config={"edge_penalty_per_line": 0},
    )
    assert {a.target for a in g.legal_actions(0) if isinstance(a, Attack)} == {at(g, "a6")}


def test_casting_still_triggers_when_the_unit_was_attacked_two_turns_ago_c_7_3() -> None:
    board = [unit("c3", "Ember Sage", 0, hit_turn=3), unit("c4", "Dummy", 1)]
    g = position(board=board, p0=side(deck=["Dummy"] * 3), step="turn_start", turn=5)
    assert len(g.sides[0].hand) == 1
    blocked = [unit("c3", "Ember Sage", 0, hit_turn=4), unit("c4", "Dummy", 1)]
    g2 = position(board=blocked, p0=side(deck=["Dummy"] * 3), step="turn_start", turn=5)
    assert len(g2.sides[0].hand) == 0


def test_casting_checks_attacks_not_ability_damage_c_7_3() -> None:
    g = position(
        board=[unit("c3", "Dummy", 1), unit("c4", "Ember Sage", 0, damage=1000)],
        p1=side(cp=1, hand=["Fireball"], energy=["Dummy"], deck=["Dummy"] * 3),
        p0=side(deck=["Dummy"] * 3),
        active=1,
        turn=4,
    )
    g.apply(PlayEvent(1, g.sides[1].hand[0], None))  # damage by an event, not an attack
    for p in (1, 0, 1):
        g.apply(Pass(p))
    assert g.active == 0 and len(g.sides[0].hand) == 1  # Ember Sage's Casting drew a card


def test_marking_bonus_lasts_for_the_rest_of_the_turn_only_c_7_4() -> None:
    g = position(
        board=[
            unit("c3", "Ember Marker", 0),
            unit("c4", "Dummy", 1),
            unit("d4", "Dummy", 1),
            unit("c2", "Ember Archer", 0),
        ],
        p0=side(deck=["Dummy"] * 3),
        p1=side(deck=["Dummy"] * 3),
        step="combat",
    )
    target = at(g, "c4")
    g.apply(Attack(0, at(g, "c3"), "N", target))
    assert g.marks == {target: 1}
    g.apply(Pass(0))  # the turn ends: the mark is gone
    assert g.marks == {}
    g.apply(Pass(1))
    g.apply(Pass(0))
    g.apply(Pass(1))  # player 0's next turn
    g.apply(Pass(0))
    g.apply(Pass(1))
    assert g.step is Step.COMBAT and g.active == 0
    g.apply(Attack(0, at(g, "c2"), "N", target))
    assert g.units[target].damage == 2000  # no bonus any more


def test_marking_bonus_only_for_range_attack_units_and_never_on_own_units_c_7_4() -> None:
    g = position(
        board=[unit("c3", "Ember Marker", 0), unit("c4", "Dummy", 0), unit("b3", "Dummy", 1)],
        step="combat",
        config={"only_enemy_targets": False},
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert g.marks == {}  # a Marking attack on an own unit marks nothing (C-7.4 says "an enemy unit")


def test_spoil_triggers_on_a_defeat_by_the_units_ability_c_7_5() -> None:
    g = position(
        board=[unit("c3", "Ember Duelist", 0), unit("c4", "Weakling", 1), unit("d4", "Dummy", 1)],
        p0=side(cp=2),
        extra_cards=EXTRA,
    )
    duelist = at(g, "c3")
    g.apply(Activate(0, duelist, 1))
    g.apply(ChooseTarget(0, at(g, "c4")))
    assert in_zone(g, 1, "defeated") == ["Weakling"] and g.sides[0].cp == 3  # Spoil: +1 CP


def test_spoil_does_not_trigger_on_own_units_or_event_defeats_c_7_5() -> None:
    g = position(
        board=[unit("c3", "Ember Reaver", 0), unit("c4", "Weakling", 0), unit("d4", "Dummy", 1)],
        p0=side(cp=0),
        step="combat",
        config={"only_enemy_targets": False},
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert in_zone(g, 0, "defeated") == ["Weakling"] and g.sides[0].cp == 0


def test_formation_counts_only_orthogonally_connected_own_units_c_7_6() -> None:
    diagonal = position(
        board=[unit("c3", "Ember Phalanx", 0), unit("c2", "Dummy", 0), unit("b1", "Dummy", 0)]
    )
    assert continuous.stats(diagonal, at(diagonal, "c3"))[0] == 2000
    enemy = position(board=[unit("c3", "Ember Phalanx", 0), unit("c2", "Dummy", 0), unit("b2", "Dummy", 1)])
    assert continuous.stats(enemy, at(enemy, "c3"))[0] == 2000
    line = position(
        board=[unit("c3", "Ember Phalanx", 0), unit("c4", "Dummy", 0), unit("c5", "Dummy", 0)], p0=side(cp=1)
    )
    phalanx = at(line, "c3")
    assert continuous.stats(line, phalanx)[0] == 3000  # any shape: a line of 3
    line.apply(Move(0, at(line, "c5"), sq("b4")))  # still connected through c4
    assert continuous.stats(line, phalanx)[0] == 3000


def test_formation_bonus_ends_when_the_group_breaks_c_7_6() -> None:
    g = position(
        board=[
            unit("c3", "Ember Phalanx", 0),
            unit("c2", "Dummy", 0),
            unit("b2", "Dummy", 0),
            unit("e3", "Dummy", 1),
        ],
        p0=side(cp=1),
    )
    phalanx = at(g, "c3")
    assert continuous.stats(g, phalanx)[0] == 3000
    g.apply(Move(0, at(g, "b2"), sq("e4")))  # next to the enemy: the group is now 2
    assert continuous.stats(g, phalanx)[0] == 2000


# ---------------------------------------------------------------------------------------------- C-8 hidden information
def test_views_never_show_rng_seed_deck_order_hands_or_mulligan_bottoms_c_8() -> None:
    g = new_match({**EMBER, "commander": "Ember Queen"}, {**TIDE, "commander": "Tide King"}, seed=12345)
    p, o = g.first, 1 - g.first
    g.apply(Mulligan(p))
    bottom = g.sides[p].deck[0] if g.decision is None else None
    while g.decision is not None:
        a = g.legal_actions(p)[0]
        assert isinstance(a, ChooseCard)
        g.apply(a)
        bottom = a.card
    assert bottom is not None
    internal = g.to_dict()["rng"][1]
    for viewer in (o, None):
        view, log = g.player_view(viewer), g.log_view(viewer)
        keys = keys_of(view) | keys_of(log)
        assert not keys & {"rng", "seed", "deck"}
        text = json.dumps(view) + json.dumps(log)
        assert "12345" not in text and str(internal[:3])[1:-1] not in text
        assert bottom not in ids_in(view) | ids_in(log)
        assert not (ids_in(view) | ids_in(log)) & (set(g.sides[p].hand) | set(g.sides[p].deck))
    mine = g.player_view(p)
    assert "hand" in mine["players"][p] and "deck" not in mine["players"][p]  # own deck order is secret too
    assert mine["players"][p]["deck_count"] == len(g.sides[p].deck)
    assert mine["players"][o]["commander"] == {"face_down": True}


# ---------------------------------------------------------------------------------------------- C-1 … C-3 in the engine
def test_unit_card_fields_are_read_in_thousands_with_arrows_and_keywords_c_1_1() -> None:
    from matches.engine import card_from_dict

    archer = card_from_dict(next(c for c in _pool() if c["name"] == "Ember Archer"))
    assert (archer.command_cost, archer.energy_cost, archer.power, archer.health) == (2, 0, 2000, 4000)
    assert archer.arrows == ("N",) and archer.keywords == frozenset({"range_attack"}) and archer.is_unit
    with pytest.raises(ValueError, match="health"):
        card_from_dict({**_pool()[0], "health": 0})
    with pytest.raises(ValueError, match="arrows"):
        card_from_dict({**_pool()[0], "arrows": ["UP"]})


def test_legendary_units_and_unique_events_allow_one_copy_c_1_4_c_3_3() -> None:
    assert CAT["Ember Queen"].max_copies() == 1 and CAT["Inferno"].max_copies() == 1
    assert CAT["Ember Scout"].max_copies() == 4
    from matches.engine.cards import deck_problems

    deck = [CAT["Ember Scout"]] * 4 + [CAT["Ember Queen"]] * 2 + [CAT["Fireball"]] * 44
    assert any("C-3.3" in p for p in deck_problems(deck))


def test_each_player_has_every_zone_and_a_cp_counter_c_2_4() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2, removed=["Inferno"], energy=["Fireball"]))
    view = g.player_view(0)["players"][0]
    assert {"cp", "hand", "deck_count", "energy", "retired", "defeated", "removed", "commander"} <= set(view)
    assert view["cp"] == 2 and [c["card"] for c in view["removed"]] == ["Inferno"]


def test_deck_rules_are_checked_again_when_the_match_starts_c_3_2_c_3_4() -> None:
    scouts = [c for c in EMBER["cards"] if c["name"] == "Ember Scout"]
    five = {"cards": EMBER["cards"] + scouts[:1], "commander": None}
    with pytest.raises(ValueError, match="C-3.2"):
        new_match(five, TIDE, seed=1)
    mixed = {"cards": EMBER["cards"][:-1] + [TIDE["cards"][0]], "commander": None}
    with pytest.raises(ValueError, match="C-3.4"):
        new_match(mixed, TIDE, seed=1)


def test_a_deck_without_a_legendary_unit_plays_without_a_commander_c_3_5_c_4_1() -> None:
    recruit = _unit("Ember Recruit", "ember", 1, 0, 1000, 3000, ["N"])
    no_legend: dict[str, Any] = {
        "cards": [c for c in EMBER["cards"] if not c["legendary"]] + [recruit],
        "commander": None,
    }
    assert len(no_legend["cards"]) == 50
    g = new_match(no_legend, {**TIDE, "commander": "Tide King"}, seed=2)  # legal (C-3.5 Decision)
    assert g.step is Step.MULLIGAN and g.sides[0].commander is None  # no Commander choice to make
    assert g.player_view(1)["players"][0]["commander"] is None


def _pool() -> list[dict[str, Any]]:
    from matches.engine.tests.pool import pool_cards

    return pool_cards()


def test_positions_with_impossible_counters_are_clear_errors() -> None:
    from matches.engine import GameState

    base = {"format": "commandeer-position", "players": [{}, {}]}
    with pytest.raises(ValueError, match="active must be 0 or 1"):
        GameState.from_dict({**base, "active": 2})
    with pytest.raises(ValueError, match="needs an outcome"):
        GameState.from_dict({**base, "step": "over"})


def test_third_mulligan_from_a_position_bottoms_three_named_cards_c_4_4() -> None:
    names = ["Ember Scout", "Ember Archer", "Fireball", "Inferno", "Ember Sage", "Ember Smith"]
    g = position(
        step="mulligan",
        turn=0,
        setup_player=0,
        p0=side(hand=names, deck=names * 3, mulligans=2),
        p1=side(hand=["Dummy"] * 6, deck=["Dummy"] * 10),
    )
    g.apply(Mulligan(0))
    assert g.decision is not None and g.decision["count"] == 3 and len(g.sides[0].hand) == 6
    hand_names = {g.card_name(c) for c in g.sides[0].hand}
    assert len(hand_names) >= 3  # (seeded shuffle) a real choice
    wanted = sorted(hand_names)[-3:]
    for name in wanted:
        g.apply(
            next(a for a in g.legal_actions(0) if isinstance(a, ChooseCard) and g.card_name(a.card) == name)
        )
    assert len(g.sides[0].hand) == 3 and g.sides[0].mulligans == 3
    bottom = [g.card_name(c) for c in g.sides[0].deck[:3]]
    assert set(wanted) <= set(bottom)
    assert not ids_in(g.player_view(1)) & set(g.sides[0].deck[:3])


def test_mulligans_stop_before_the_hand_would_be_empty_c_4_4() -> None:
    g = position(
        step="mulligan",
        turn=0,
        setup_player=0,
        p0=side(hand=["Dummy"], deck=["Dummy"] * 20, mulligans=5),
        p1=side(hand=["Dummy"] * 6, deck=["Dummy"] * 10),
        config={"max_mulligans": 9},
    )
    assert [type(a).__name__ for a in g.legal_actions(0)] == ["Keep", "Concede"]
