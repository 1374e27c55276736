"""C-5 turn structure and C-2 board rules, as scenario tests on hand-written positions."""

from __future__ import annotations

import pytest

from matches.engine import IllegalActionError, Reason, continuous
from matches.engine.actions import (
    Attack,
    ChooseCard,
    Deploy,
    Move,
    Pass,
    PlayEvent,
    Reinforce,
    square_index,
)
from matches.engine.steps import Step
from matches.engine.tests.helpers import at, in_zone, position, result, side, unit


def sq(name: str) -> int:
    return square_index(name)


def test_first_unit_goes_on_a_start_position_c_2_2() -> None:
    g = position(p0=side(cp=2, hand=["Ember Scout"]))
    squares = sorted(a.square for a in g.legal_actions(0) if isinstance(a, Deploy))
    assert squares == sorted(sq(s) for s in ("c3", "d3", "c4", "d4"))


def test_later_units_go_adjacent_to_any_unit_c_5_2() -> None:
    g = position(board=[unit("c3", "Dummy", 1)], p0=side(cp=2, hand=["Ember Scout"]))
    squares = sorted(a.square for a in g.legal_actions(0) if isinstance(a, Deploy))
    assert squares == sorted(sq(s) for s in ("c2", "b3", "d3", "c4"))  # 4-neighbour adjacency (C-2.5)


def test_king_adjacency_is_a_config_choice_c_2_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 1)], p0=side(cp=2, hand=["Ember Scout"]), config={"adjacency": "king"}
    )
    assert len([a for a in g.legal_actions(0) if isinstance(a, Deploy)]) == 8


def test_deploy_pays_cp_and_chosen_energy_c_5_3() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)],
        p0=side(cp=3, hand=["Ember Marker"], energy=["Fireball", "Inferno"], deck=["Dummy"] * 3),
    )
    g.apply(Deploy(0, g.sides[0].hand[0], sq("c4")))
    assert g.sides[0].cp == 1
    assert g.decision is not None and g.decision["kind"] == "pay_energy"
    options = g.legal_actions(0)
    assert {g.card_name(a.card) for a in options if isinstance(a, ChooseCard)} == {"Fireball", "Inferno"}
    inferno = next(a for a in options if isinstance(a, ChooseCard) and g.card_name(a.card) == "Inferno")
    assert inferno.describe(g) == "Pay 1 Energy for Ember Marker: Inferno"
    g.apply(inferno)
    assert in_zone(g, 0, "energy") == ["Fireball"] and in_zone(g, 0, "retired") == ["Inferno"]
    assert g.card_name(at(g, "c4")) == "Ember Marker"


def test_cannot_deploy_without_cp_or_energy_c_5_2() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Ember Marker", "Ember Archer"]))
    assert not [a for a in g.legal_actions(0) if isinstance(a, Deploy)]
    with pytest.raises(IllegalActionError, match="CP"):
        g.apply(Deploy(0, g.sides[0].hand[1], sq("c4")))


def test_move_costs_one_cp_and_needs_another_card_adjacent_c_5_2() -> None:
    g = position(board=[unit("c3", "Ember Scout", 0), unit("c4", "Dummy", 1)], p0=side(cp=1))
    me = at(g, "c3")
    moves = sorted(a.square for a in g.legal_actions(0) if isinstance(a, Move))
    assert moves == sorted(sq(s) for s in ("b4", "d4", "c5"))  # next to the Dummy, not to itself
    g.apply(Move(0, me, sq("b4")))
    assert g.sides[0].cp == 0 and at(g, "b4") == me
    assert not [a for a in g.legal_actions(0) if isinstance(a, Move)]


def test_reinforce_draws_two_then_one_card_to_energy_c_5_2() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Fireball"], deck=["Inferno", "Ember Scout"])
    )
    g.apply(Reinforce(0))
    assert len(g.sides[0].hand) == 3 and g.decision is not None and g.decision["kind"] == "reinforce_energy"
    pick = next(
        a for a in g.legal_actions(0) if isinstance(a, ChooseCard) and g.card_name(a.card) == "Inferno"
    )
    g.apply(pick)
    assert in_zone(g, 0, "energy") == ["Inferno"] and sorted(in_zone(g, 0, "hand")) == [
        "Ember Scout",
        "Fireball",
    ]


def test_reinforce_with_short_or_empty_deck_decision_c_5_2() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2, hand=[], deck=["Inferno"]))
    g.apply(Reinforce(0))  # draws the one card there is, and it must go to Energy
    assert in_zone(g, 0, "energy") == ["Inferno"] and g.decision is None
    assert Reinforce(0) not in g.legal_actions(0)  # empty deck: not legal


def test_no_unit_when_planning_ends_loses_c_5_4_c_6_2() -> None:
    g = position(board=[unit("c3", "Dummy", 1)], p0=side(cp=2, hand=["Ember Scout"]))
    g.apply(Pass(0))
    assert g.outcome() is not None and result(g).winner == 1 and result(g).reason is Reason.NO_UNITS


def test_unspent_cp_is_lost_when_planning_ends_c_5_4() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=3))
    g.apply(Pass(0))
    assert g.sides[0].cp == 0 and g.step is Step.DEFENDING and g.current_players() == [1]


def test_defender_plays_defensive_events_then_passes_c_5_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Ember Scout", 1, damage=3000)],
        p1=side(hand=["Ember Shield", "Fireball"]),
        step="defending",
    )
    acts = g.legal_actions(1)
    assert [g.card_name(a.card) for a in acts if isinstance(a, PlayEvent)] == ["Ember Shield"]  # not Planning
    g.apply(next(a for a in acts if isinstance(a, PlayEvent)))
    assert g.units[at(g, "c4")].damage == 1000  # healed 2000 (only one friendly unit: forced target)
    assert in_zone(g, 1, "retired") == ["Ember Shield"]
    g.apply(Pass(1))
    assert g.step is Step.COMBAT and g.current_players() == [0]


def test_attack_picks_an_arrow_and_an_adjacent_enemy_c_5_6() -> None:
    g = position(
        board=[
            unit("c3", "Ember Scout", 0),
            unit("c4", "Dummy", 1),
            unit("d4", "Dummy", 1),
            unit("d3", "Dummy", 0),
        ],
        step="combat",
    )
    me = at(g, "c3")
    attacks = {(a.direction, a.target) for a in g.legal_actions(0) if isinstance(a, Attack) and a.unit == me}
    assert attacks == {("N", at(g, "c4")), ("NE", at(g, "d4"))}  # not its own unit, only its arrows


def test_attacked_unit_does_not_strike_back_and_damage_adds_up_c_5_7() -> None:
    g = position(
        board=[unit("c3", "Ember Scout", 0), unit("b3", "Ember Scout", 0), unit("c4", "Ember Scout", 1)],
        step="combat",
    )
    a, b, t = at(g, "c3"), at(g, "b3"), at(g, "c4")
    g.apply(Attack(0, a, "N", t))
    assert g.units[t].damage == 2000 and g.units[a].damage == 0
    g.apply(Attack(0, b, "NE", t))  # 4000 >= 4000: defeated at once
    assert t not in g.units and in_zone(g, 1, "defeated") == ["Ember Scout"]
    assert Attack(0, a, "N", t) not in g.legal_actions(0)  # each unit attacks once


def test_defeated_unit_sends_its_ongoing_events_to_retired_c_5_7() -> None:
    g = position(
        board=[
            unit("c3", "Brute", 0),
            unit("c4", "Ember Scout", 1, attached=[{"card": "Tidal Mark", "owner": 0}]),
        ],
        step="combat",
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert in_zone(g, 0, "retired") == ["Tidal Mark"] and in_zone(g, 1, "defeated") == ["Ember Scout"]


def test_damage_is_removed_at_the_end_of_combat_c_5_8() -> None:
    g = position(board=[unit("c3", "Ember Scout", 0), unit("c4", "Dummy", 1, damage=1000)], step="combat")
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert g.units[at(g, "c4")].damage == 3000
    g.apply(Pass(0))
    assert g.units[at(g, "c4")].damage == 0


def test_hand_limit_discard_is_a_choice_c_5_9() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)],
        p0=side(hand=["Fireball"] * 6 + ["Inferno", "Ember Scout"], deck=["Dummy"] * 3),
        step="combat",
    )
    g.apply(Pass(0))
    assert g.decision is not None and g.decision["kind"] == "discard" and g.current_players() == [0]
    names = {g.card_name(a.card) for a in g.legal_actions(0) if isinstance(a, ChooseCard)}
    assert names == {"Fireball", "Inferno", "Ember Scout"}
    g.apply(
        next(a for a in g.legal_actions(0) if isinstance(a, ChooseCard) and g.card_name(a.card) == "Inferno")
    )
    assert len(g.sides[0].hand) == 7 and in_zone(g, 0, "retired") == ["Inferno"]
    assert g.active == 1 and g.step is Step.PLANNING


def test_no_unit_at_end_phase_loses_c_5_10_c_6_2() -> None:
    g = position(board=[unit("c4", "Dummy", 1)], step="combat")
    g.apply(Pass(0))
    assert g.outcome() is not None and result(g).winner == 1 and result(g).reason is Reason.NO_UNITS


def test_cp_resets_and_turn_passes_c_5_11() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2, deck=["Dummy"]), step="combat")
    g.apply(Pass(0))
    assert g.sides[0].cp == 0 and g.active == 1 and g.turn == 4 and g.sides[1].cp == 3


def test_edge_square_reduces_health_and_defeats_at_once_c_2_3() -> None:
    g = position(
        board=[unit("b3", "Dummy", 0), unit("c3", "Ember Scout", 0, damage=1000)],
        p0=side(cp=3, hand=["Weakling"]),
    )
    weak = g.sides[0].hand[0]
    g.apply(Deploy(0, weak, sq("a3")))  # 1000 Health - 3000 on an edge: defeated at once
    assert weak not in g.units and in_zone(g, 0, "defeated") == ["Weakling"]
    scout = at(g, "c3")
    g.apply(Move(0, scout, sq("b2")))  # not an edge: survives with 1000 damage
    assert scout in g.units
    g.apply(Move(0, scout, sq("a3")))  # 4000 - 3000 = 1000 <= 1000 damage
    assert scout not in g.units and in_zone(g, 0, "defeated") == ["Weakling", "Ember Scout"]


def test_corner_takes_6000_and_edge_3000_c_2_3() -> None:
    g = position(board=[unit("c3", "Dummy", 0), unit("a1", "Dummy", 1), unit("a3", "Dummy", 1, damage=5000)])
    assert continuous.stats(g, at(g, "a1"))[1] == 3000 and continuous.stats(g, at(g, "c3"))[1] == 9000
    assert in_zone(g, 1, "defeated") == []
    assert continuous.stats(g, at(g, "a3"))[1] == 6000


def test_second_players_arrows_are_rotated_c_1_2() -> None:
    g = position(
        board=[unit("c3", "Ember Archer", 1), unit("c2", "Dummy", 0), unit("c4", "Dummy", 0)],
        step="combat",
        active=1,
    )
    targets = {a.target for a in g.legal_actions(1) if isinstance(a, Attack)}
    assert targets == {at(g, "c2")}  # its "N" points toward player 0's side (rank 1)
    g2 = position(
        board=[unit("c3", "Ember Archer", 1), unit("c2", "Dummy", 0), unit("c4", "Dummy", 0)],
        step="combat",
        active=1,
        config={"rotate_second_player_arrows": False},
    )
    assert {a.target for a in g2.legal_actions(1) if isinstance(a, Attack)} == {at(g2, "c4")}


def test_perft_counts_every_planning_action_c_5_2() -> None:
    """A hand-counted position: 6 deploy squares, 1 event, 3 moves, Reinforce, Pass, Concede."""
    g = position(
        board=[unit("c3", "Ember Scout", 0), unit("c4", "Dummy", 1)],
        p0=side(cp=2, hand=["Ember Scout", "Fireball"], energy=["Dummy"], deck=["Dummy"]),
    )
    acts = g.legal_actions(0)
    kinds = [type(a).__name__ for a in acts]
    assert kinds.count("Deploy") == 6 and kinds.count("PlayEvent") == 1 and kinds.count("Move") == 3
    assert kinds.count("Reinforce") == 1 and kinds.count("Pass") == 1 and kinds.count("Concede") == 1
    assert len(acts) == 13 and g.legal_actions(1) == [acts[-1].__class__(1)]


def test_malformed_position_is_a_clear_error() -> None:
    from matches.engine import GameState

    with pytest.raises(ValueError, match="malformed position"):
        GameState.from_dict(
            {"format": "commandeer-position", "board": [{"square": "c3", "card": "Dummy"}]},
            catalog={"Dummy": {"name": "Dummy", "type": "unit", "health": 1000}},
        )
