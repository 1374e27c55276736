"""The ability interpreter (C-1.5): vocabulary coverage, trigger order (C-5.1), chosen targets as actions."""

from __future__ import annotations

from matches.engine import continuous
from matches.engine.abilities import TRIGGER_IMPLS
from matches.engine.actions import Activate, ChooseSquare, ChooseTarget, ChooseTrigger, Pass, PlayEvent
from matches.engine.effects import EFFECT_IMPLS
from matches.engine.tests.helpers import at, in_zone, position, side, unit
from matches.engine.tests.pool import pool_cards
from matches.engine.vocabulary import EFFECTS, TRIGGERS


def test_every_vocabulary_trigger_and_effect_has_an_implementation_c_1_5() -> None:
    assert set(EFFECT_IMPLS) == set(EFFECTS)
    assert set(TRIGGER_IMPLS) == set(TRIGGERS)
    assert all(callable(fn) for fn in EFFECT_IMPLS.values())


def test_test_pool_exercises_every_trigger_and_effect_c_1_5() -> None:
    used_t = {ab["trigger"] for c in pool_cards() for ab in c["abilities"]}
    used_e = {e["effect"] for c in pool_cards() for ab in c["abilities"] for e in ab["effects"]}
    assert used_t == set(TRIGGERS) and used_e == set(EFFECTS)


def test_simultaneous_triggers_are_ordered_by_their_controller_c_5_1() -> None:
    g = position(
        board=[unit("c3", "Tide Caller", 0), unit("c2", "Tide Mystic", 0), unit("c4", "Dummy", 1)],
        p0=side(deck=["Inferno"] * 3),
        p1=side(cp=0, deck=["Dummy"] * 3),
        step="combat",
        active=1,
        turn=4,
    )
    g.apply(Pass(1))
    assert g.decision is not None and g.decision["kind"] == "order" and g.current_players() == [0]
    choices = [a for a in g.legal_actions(0) if isinstance(a, ChooseTrigger)]
    assert len(choices) == 2
    labels = g.decision["labels"]
    mystic = next(a for a in choices if "Tide Mystic" in labels[g.decision["options"].index(a.index)])
    assert "Tide Mystic" in mystic.describe(g)
    g.apply(mystic)
    order = [g.card_name(ev["card"]) for e in g.log for ev in e["events"] if ev["type"] == "trigger"]
    assert order == ["Tide Mystic", "Tide Caller"]
    assert in_zone(g, 0, "energy") == ["Inferno"] and g.sides[0].cp == 3


def test_chosen_target_is_an_action_of_the_controller_c_1_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1), unit("d3", "Ember Scout", 1)],
        p0=side(cp=1, hand=["Fireball"], energy=["Dummy"]),
    )
    g.apply(PlayEvent(0, g.sides[0].hand[0], None))
    acts = g.legal_actions(0)
    assert {a.target for a in acts if isinstance(a, ChooseTarget)} == {at(g, "c4"), at(g, "d3")}
    g.apply(ChooseTarget(0, at(g, "d3")))
    assert g.units[at(g, "d3")].damage == 2000 and in_zone(g, 0, "retired") == ["Dummy", "Fireball"]


def test_move_effect_asks_for_the_square_c_1_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Ember Scout", 1)], p0=side(cp=1, hand=["Riptide"])
    )
    g.apply(PlayEvent(0, g.sides[0].hand[0], None))
    assert g.decision is not None and g.decision["kind"] == "move_square"
    squares = [a for a in g.legal_actions(0) if isinstance(a, ChooseSquare)]
    scout = at(g, "c4")
    g.apply(squares[0])
    assert g.units[scout].sq == squares[0].square


def test_activated_ability_costs_cp_and_is_once_per_turn_c_5_2() -> None:
    g = position(board=[unit("c3", "Ember Smith", 0), unit("c4", "Dummy", 1)], p0=side(cp=3))
    smith = at(g, "c3")
    g.apply(Activate(0, smith, 0))
    assert g.sides[0].cp == 2 and continuous.stats(g, smith)[0] == 2000
    assert Activate(0, smith, 0) not in g.legal_actions(0)


def test_repeatable_activation_is_capped_per_turn_c_6_5() -> None:
    g = position(board=[unit("c3", "Tide Sniper", 0), unit("c4", "Dummy", 1)], p0=side(cp=20))
    sniper = at(g, "c3")
    for _ in range(g.config.activation_limit_per_turn):
        g.apply(Activate(0, sniper, 0))
    assert Activate(0, sniper, 0) not in g.legal_actions(0)
    assert continuous.has_range(g, sniper)


def test_ongoing_event_attaches_and_leaves_with_its_unit_c_1_3() -> None:
    g = position(
        board=[unit("c3", "Ember Scout", 0), unit("c4", "Dummy", 1)], p0=side(cp=1, hand=["Burning Brand"])
    )
    scout = at(g, "c3")
    g.apply(PlayEvent(0, g.sides[0].hand[0], scout))
    assert continuous.stats(g, scout)[0] == 3000 and [g.card_name(e) for e in g.units[scout].attached] == [
        "Burning Brand"
    ]


def test_on_defeated_and_spoil_remove_from_game_c_7_5() -> None:
    g = position(
        board=[
            unit("c3", "Tide Exile", 1),
            unit("c2", "Ember Bomb", 0, damage=3000),
            unit("b2", "Dummy", 0),
            unit("d3", "Dummy", 1),
        ],
        step="combat",
        active=1,
        first=0,
    )
    exile = at(g, "c3")
    bomb = at(g, "c2")
    g.apply(next(a for a in g.legal_actions(1) if getattr(a, "target", None) == bomb))
    assert in_zone(g, 0, "removed") == ["Ember Bomb"] and in_zone(g, 0, "defeated") == []  # spoil removed it
    assert g.units[exile].damage == 1000  # Ember Bomb's on_defeated hit the adjacent enemy
