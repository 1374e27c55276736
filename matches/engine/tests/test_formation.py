"""C-7.6 Formation X: active (or usable) while the owner has X or more own units connected to one another,
whether or not the unit with the ability is one of them."""

from __future__ import annotations

from typing import Any

import pytest

from matches.engine import card_from_dict, continuous
from matches.engine.actions import Activate, Move, square_index
from matches.engine.tests.helpers import DUMMIES, at, position, side, unit

DRILL_MASTER: dict[str, Any] = {
    **DUMMIES[0],
    "name": "Drill Master",
    "keywords": ["formation"],
    "abilities": [
        {
            "trigger": "planning_activated",
            "x": 3,
            "cost": {"cp": 1},
            "effects": [{"effect": "draw", "target": "controller", "count": 1}],
        }
    ],
}


def test_formation_is_active_with_x_connected_units_that_do_not_include_the_unit_c_7_6() -> None:
    g = position(
        board=[
            unit("c3", "Ember Phalanx", 0),  # Formation 3, alone
            unit("e5", "Dummy", 0),
            unit("e4", "Dummy", 0),
            unit("d5", "Dummy", 0),
        ]
    )
    assert continuous.stats(g, at(g, "c3"))[0] == 2000 + 1000


def test_formation_is_inactive_while_every_group_is_smaller_than_x_c_7_6() -> None:
    g = position(
        board=[
            unit("c3", "Ember Phalanx", 0),
            unit("c2", "Dummy", 0),  # a group of 2 with the Phalanx
            unit("e5", "Dummy", 0),
            unit("e4", "Dummy", 0),  # another group of 2
        ]
    )
    assert continuous.stats(g, at(g, "c3"))[0] == 2000


def test_enemy_units_do_not_make_a_formation_c_7_6() -> None:
    g = position(
        board=[
            unit("c3", "Ember Phalanx", 0),
            unit("e5", "Dummy", 1),
            unit("e4", "Dummy", 1),
            unit("d5", "Dummy", 1),
        ]
    )
    assert continuous.stats(g, at(g, "c3"))[0] == 2000


def test_formation_starts_when_a_group_elsewhere_reaches_x_c_7_6() -> None:
    g = position(
        board=[
            unit("a3", "Ember Phalanx", 0),
            unit("e5", "Dummy", 0),
            unit("e4", "Dummy", 0),
            unit("c5", "Dummy", 0),
        ],
        p0=side(cp=1),
    )
    phalanx = at(g, "a3")
    assert continuous.stats(g, phalanx)[0] == 2000
    g.apply(Move(0, at(g, "c5"), square_index("d5")))  # d5 joins e5 and e4: a group of 3
    assert continuous.stats(g, phalanx)[0] == 3000


def _drill(board: list[dict[str, Any]]) -> Any:
    return position(board=board, p0=side(cp=2, deck=["Dummy"] * 3), extra_cards=[DRILL_MASTER])


def test_an_activated_ability_is_usable_only_while_formation_holds_c_7_6() -> None:
    apart = _drill([unit("a3", "Drill Master", 0), unit("e5", "Dummy", 0), unit("e4", "Dummy", 0)])
    master = at(apart, "a3")
    assert Activate(0, master, 0) not in apart.legal_actions(0)
    assert "Formation 3" in apart.explain_illegal(Activate(0, master, 0))
    held = _drill(
        [
            unit("a3", "Drill Master", 0),
            unit("e5", "Dummy", 0),
            unit("e4", "Dummy", 0),
            unit("d5", "Dummy", 0),
        ]
    )
    master = at(held, "a3")
    assert Activate(0, master, 0) in held.legal_actions(0)
    hand = len(held.sides[0].hand)
    held.apply(Activate(0, master, 0))
    assert len(held.sides[0].hand) == hand + 1 and held.sides[0].cp == 1


def test_x_is_accepted_on_activated_abilities_and_refused_on_other_triggers_c_7_6() -> None:
    assert card_from_dict(DRILL_MASTER).abilities[0]["x"] == 3
    bad = {**DRILL_MASTER, "abilities": [{**DRILL_MASTER["abilities"][0], "trigger": "on_defeated"}]}
    del bad["abilities"][0]["cost"]
    with pytest.raises(ValueError, match="x is only for Formation abilities"):
        card_from_dict(bad)
    zero = {**DRILL_MASTER, "abilities": [{**DRILL_MASTER["abilities"][0], "x": 1}]}
    with pytest.raises(ValueError, match="needs x, a whole number from 2 to 36"):
        card_from_dict(zero)
