"""C-6 results and C-7 keywords on scenario positions."""

from __future__ import annotations

import pytest

from matches.engine import IllegalActionError, Reason, continuous
from matches.engine.actions import Attack, ChooseTarget, Concede, Deploy, Pass, square_index
from matches.engine.steps import Step
from matches.engine.tests.helpers import at, in_zone, position, result, side, unit


def test_sixth_defeated_card_loses_at_once_c_6_1() -> None:
    g = position(
        board=[unit("c3", "Brute", 0), unit("c4", "Ember Scout", 1)],
        p1=side(defeated=["Ember Scout"] * 5, deck=["Dummy"]),
        step="combat",
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert g.outcome() is not None and result(g).winner == 0 and result(g).reason is Reason.SIX_DEFEATED
    assert g.legal_actions(0) == [] and g.current_players() == []
    with pytest.raises(IllegalActionError, match="over"):  # C-6.3 no action after a result
        g.apply(Pass(0))


def test_concession_any_time_c_6_4() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], step="combat")
    assert Concede(1) in g.legal_actions(1)  # even when it is not that player's step
    g.apply(Concede(1))
    assert result(g).winner == 0 and result(g).reason is Reason.CONCESSION


def test_turn_limit_fewer_defeated_wins_c_6_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)],
        p0=side(defeated=["Ember Scout"]),
        p1=side(defeated=["Ember Scout", "Ember Scout"]),
        step="combat",
        turn=60,
        active=1,
    )
    g.apply(Pass(1))
    assert result(g).winner == 0 and result(g).reason is Reason.TURN_LIMIT


def test_turn_limit_equal_is_a_draw_and_configurable_c_6_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)],
        step="combat",
        turn=10,
        active=1,
        config={"turn_limit": 5},
    )
    g.apply(Pass(1))
    assert result(g).winner is None and result(g).reason is Reason.TURN_LIMIT


def test_range_attack_hits_along_the_line_unblocked_c_7_1() -> None:
    g = position(
        board=[
            unit("c2", "Ember Archer", 0),
            unit("c3", "Dummy", 1),
            unit("c5", "Dummy", 1),
            unit("c4", "Dummy", 0),
        ],
        step="combat",
    )
    targets = {a.target for a in g.legal_actions(0) if isinstance(a, Attack)}
    assert targets == {at(g, "c3"), at(g, "c5")}
    g2 = position(
        board=[unit("c2", "Ember Archer", 0), unit("c3", "Dummy", 1), unit("c5", "Dummy", 1)],
        step="combat",
        config={"range_attack_blocked": True},
    )
    assert {a.target for a in g2.legal_actions(0) if isinstance(a, Attack)} == {at(g2, "c3")}


def test_deploying_triggers_on_entering_c_7_2() -> None:
    g = position(board=[unit("c3", "Dummy", 1), unit("d4", "Dummy", 1)], p0=side(cp=1, hand=["Ember Zealot"]))
    g.apply(Deploy(0, g.sides[0].hand[0], square_index("c2")))
    assert g.decision is not None and g.decision["kind"] == "target"  # two enemies: a choice
    g.apply(ChooseTarget(0, at(g, "d4")))
    assert g.units[at(g, "d4")].damage == 1000 and g.units[at(g, "c3")].damage == 0


def test_casting_triggers_only_if_not_attacked_last_turn_c_7_3() -> None:
    board = [unit("c3", "Ember Sage", 0), unit("c4", "Dummy", 1)]
    g = position(board=board, p0=side(deck=["Dummy"] * 3), step="turn_start", turn=5)
    assert len(g.sides[0].hand) == 1  # drew 1
    hit = [unit("c3", "Ember Sage", 0, hit_turn=4), unit("c4", "Dummy", 1)]
    g2 = position(board=hit, p0=side(deck=["Dummy"] * 3), step="turn_start", turn=5)
    assert len(g2.sides[0].hand) == 0
    assert g.step is Step.PLANNING and g.sides[0].cp == 3


def test_marking_gives_range_attack_units_a_bonus_c_7_4() -> None:
    g = position(
        board=[
            unit("c3", "Ember Marker", 0),
            unit("c4", "Dummy", 1),
            unit("c2", "Ember Archer", 0),
            unit("d3", "Ember Scout", 0),
        ],
        step="combat",
    )
    target = at(g, "c4")
    g.apply(Attack(0, at(g, "c3"), "N", target))
    assert g.units[target].damage == 1000 + 500  # Marker's power + its marking ability
    g.apply(Attack(0, at(g, "c2"), "N", target))
    assert g.units[target].damage == 1500 + 2000 + 1000  # Range Attack unit: +1000 (C-7.4)
    g.apply(Attack(0, at(g, "d3"), "NW", target))  # a melee unit gets no bonus
    assert g.units[target].damage == 4500 + 2000


def test_spoil_triggers_when_this_unit_defeats_an_enemy_c_7_5() -> None:
    g = position(
        board=[unit("c3", "Ember Reaver", 0), unit("c4", "Weakling", 1), unit("d3", "Dummy", 1)],
        p0=side(cp=0),
        step="combat",
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert g.sides[0].cp == 1  # spoil: gain 1 CP


def test_formation_is_active_with_x_connected_units_c_7_6() -> None:
    g = position(board=[unit("c3", "Ember Phalanx", 0), unit("c2", "Dummy", 0), unit("e5", "Dummy", 0)])
    assert continuous.stats(g, at(g, "c3"))[0] == 2000
    g2 = position(board=[unit("c3", "Ember Phalanx", 0), unit("c2", "Dummy", 0), unit("b2", "Dummy", 0)])
    assert continuous.stats(g2, at(g2, "c3"))[0] == 3000  # group of 3 (c3-c2-b2)
    assert in_zone(g2, 0, "defeated") == []
