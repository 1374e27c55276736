"""RulesConfig (matches/engine/config.py): every Decision's default is pinned and every alternative is used."""

from __future__ import annotations

from dataclasses import asdict, fields

from matches.engine import Reason, RulesConfig, build_deck, load_card_file, new_match
from matches.engine.actions import Attack, Deploy, Keep, Mulligan, Pass, PlayEvent, Reinforce, square_name
from matches.engine.tests.helpers import at, in_zone, position, result, side, unit
from matches.engine.tests.pool import _unit, ab, eff, pool_file

CAT = load_card_file(pool_file())
DECKS = [build_deck(CAT, "ember"), build_deck(CAT, "tide")]

GRUDGE = _unit(  # its on_defeated ability defeats an enemy after it has itself left the battlefield (C-7.5)
    "Grudge Bomb",
    "tide",
    1,
    0,
    1000,
    1000,
    ["N"],
    keywords=["spoil"],
    abilities=[
        ab("on_defeated", eff("deal_damage", "adjacent_enemy_units", amount=5000)),
        ab("spoil", eff("gain_cp", "controller", amount=1)),
    ],
)

DEFAULTS = {
    "rotate_second_player_arrows": True,  # C-1.2
    "adjacency": "orthogonal",  # C-2.5
    "edge_penalty_per_line": 3000,  # C-2.3
    "board_layout": None,
    "reinforce_draw": 2,  # C-5.2
    "reinforce_needs_card_in_deck": True,
    "only_enemy_targets": True,  # C-5.6
    "strike_back": False,
    "range_attack_blocked": False,  # C-7.1
    "turn_limit": 30,  # C-6.5
    "opening_hand": 6,  # C-4.3
    "max_mulligans": 5,  # C-4.4
    "cp_per_turn": 3,  # C-5.1
    "first_turn_cp": 2,  # C-4.6
    "hand_limit": 7,  # C-5.9
    "defeated_to_lose": 6,  # C-6.1
    "marking_bonus": 1000,  # C-7.4
    "marking_stacks": True,
    "ongoing_attach_any_unit": True,  # C-1.3
    "hand_limit_active_only": True,  # C-5.9
    "activation_limit_per_turn": 5,  # C-5.2 / C-6.5
    "no_unit_loss_active_only": True,  # C-5.4 / C-5.10 / C-6.2
    "active_player_triggers_first": True,  # C-5.1 / C-5.5
    "spoil_from_departed_source": True,  # C-7.5
    "start_squares_when_battlefield_empty": True,  # C-2.2 / C-5.2
    "cp_reset_active_only": False,  # C-5.11: both players' CP is reset
}


def test_every_default_is_pinned_and_documented_c_1_2_c_2_5_c_5_6_c_6_5_c_7_1() -> None:
    assert asdict(RulesConfig()) == DEFAULTS
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "commandeer-position.md").read_text()
    source = (Path(__file__).resolve().parents[1] / "config.py").read_text()
    for f in fields(RulesConfig):
        assert f"`{f.name}`" in doc or f"`{f.name}`," in doc, (
            f"{f.name} is not documented in the position doc"
        )
        lines = source.split(f"    {f.name}:")[0].rstrip().splitlines()
        assert lines[-1].strip().startswith("#") and "C-" in "\n".join(lines[-5:]), (
            f"{f.name}: no rule comment"
        )


def test_no_unit_loss_checks_the_active_player_only_by_default_c_5_4_c_6_2() -> None:
    board = [unit("c3", "Dummy", 0)]
    g = position(board=board, p0=side(cp=1))
    g.apply(Pass(0))  # player 1 has no unit, but it is not their Planning phase
    assert g.outcome() is None


def test_no_unit_loss_may_check_both_players_c_5_4_c_5_10_c_6_2() -> None:
    cfg = {"no_unit_loss_active_only": False}
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1), config=cfg)
    g.apply(Pass(0))
    assert result(g).winner == 0 and result(g).reason is Reason.NO_UNITS
    first_turn = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1), turn=1, config=cfg)
    first_turn.apply(Pass(0))  # the second player has not had a turn yet
    assert first_turn.outcome() is None
    both = position(board=[], p0=side(cp=1), config=cfg)
    both.apply(Pass(0))
    assert result(both).winner is None and result(both).reason is Reason.NO_UNITS  # neither has a unit: draw
    alone = position(board=[unit("c3", "Dummy", 1)], step="combat", config=cfg)
    alone.apply(Pass(0))  # C-5.10 with both checked: only the active player lacks a unit
    assert result(alone).winner == 1


def _both_players_trigger(config: dict[str, object] | None) -> list[str]:
    g = position(
        board=[
            unit("c3", "Ember Reaver", 0),
            unit("c4", "Ember Bomb", 1, damage=1000),
            unit("f6", "Dummy", 1),
        ],
        step="combat",
        config=config,
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    return [g.card_name(ev["card"]) for e in g.log for ev in e["events"] if ev["type"] == "trigger"]


def test_active_players_triggers_resolve_first_by_default_c_5_1() -> None:
    assert _both_players_trigger(None) == ["Ember Reaver", "Ember Bomb"]


def test_trigger_priority_may_go_to_the_other_player_c_5_1() -> None:
    assert _both_players_trigger({"active_player_triggers_first": False}) == ["Ember Bomb", "Ember Reaver"]


def _grudge(config: dict[str, object] | None) -> int:
    g = position(
        board=[
            unit("c3", "Brute", 0),
            unit("c4", "Grudge Bomb", 1),
            unit("d4", "Weakling", 0),
            unit("f6", "Dummy", 1),
        ],
        p1=side(cp=0),
        step="combat",
        config=config,
        extra_cards=[GRUDGE],
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert in_zone(g, 0, "defeated") == ["Weakling"]  # killed by the Grudge Bomb's on_defeated ability
    return g.sides[1].cp


def test_spoil_of_a_unit_already_defeated_triggers_by_default_c_7_5() -> None:
    assert _grudge(None) == 1


def test_spoil_may_require_the_unit_on_the_battlefield_c_7_5() -> None:
    assert _grudge({"spoil_from_departed_source": False}) == 0


def _marked_damage(config: dict[str, object] | None) -> int:
    g = position(
        board=[
            unit("c3", "Ember Marker", 0),
            unit("d4", "Ember Marker", 0),
            unit("c4", "Dummy", 1),
            unit("c2", "Ember Archer", 0),
        ],
        step="combat",
        config=config,
    )
    target = at(g, "c4")
    g.apply(Attack(0, at(g, "c3"), "N", target))
    g.apply(Attack(0, at(g, "d4"), "W", target))
    before = g.units[target].damage
    g.apply(Attack(0, at(g, "c2"), "N", target))
    return g.units[target].damage - before


def test_marking_bonuses_stack_by_default_c_7_4() -> None:
    assert _marked_damage(None) == 2000 + 2 * 1000


def test_marking_bonus_may_not_stack_c_7_4() -> None:
    assert _marked_damage({"marking_stacks": False}) == 2000 + 1000


def test_hand_limit_may_apply_to_both_players_c_5_9() -> None:
    hands = side(hand=["Dummy"] * 8 + ["Fireball"], deck=["Dummy"] * 3)
    board = [unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)]
    g = position(board=board, p1=hands, step="combat")
    g.apply(Pass(0))
    assert len(g.sides[1].hand) == 9 + 0 and g.decision is None  # default: only the active player
    g2 = position(board=board, p1=hands, step="combat", config={"hand_limit_active_only": False})
    g2.apply(Pass(0))
    assert g2.decision is not None and g2.decision["kind"] == "discard" and g2.current_players() == [1]


def test_ongoing_events_may_be_limited_to_own_units_c_1_3() -> None:
    board = [unit("c3", "Ember Scout", 0), unit("c4", "Dummy", 1)]
    g = position(board=board, p0=side(cp=1, hand=["Burning Brand"]))
    assert {a.target for a in g.legal_actions(0) if isinstance(a, PlayEvent)} == {at(g, "c3"), at(g, "c4")}
    g2 = position(
        board=board, p0=side(cp=1, hand=["Burning Brand"]), config={"ongoing_attach_any_unit": False}
    )
    assert {a.target for a in g2.legal_actions(0) if isinstance(a, PlayEvent)} == {at(g2, "c3")}


def test_reinforce_numbers_and_empty_deck_are_config_c_5_2() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Fireball"], deck=[]))
    assert Reinforce(0) not in g.legal_actions(0)
    cfg = {"reinforce_needs_card_in_deck": False}
    g2 = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Fireball"], deck=[]), config=cfg)
    g2.apply(Reinforce(0))  # draws nothing, the Fireball goes to Energy
    assert in_zone(g2, 0, "energy") == ["Fireball"]
    g3 = position(
        board=[unit("c3", "Dummy", 0)], p0=side(cp=1, deck=["Dummy"] * 5), config={"reinforce_draw": 3}
    )
    g3.apply(Reinforce(0))
    assert len(g3.sides[0].hand) == 2 and len(g3.sides[0].energy) == 1


def test_set_up_numbers_are_config_c_4_3_c_4_4_c_4_6() -> None:
    cfg = RulesConfig(opening_hand=5, max_mulligans=1, first_turn_cp=1)
    g = new_match(
        {**DECKS[0], "commander": "Ember Queen"}, {**DECKS[1], "commander": "Tide King"}, seed=5, config=cfg
    )
    assert [len(s.hand) for s in g.sides] == [5, 5]
    p = g.first
    g.apply(Mulligan(p))
    while g.decision is not None:
        g.apply(g.legal_actions(p)[0])
    assert Mulligan(p) not in g.legal_actions(p)
    g.apply(Keep(p))
    g.apply(Keep(1 - p))
    assert g.sides[p].cp == 1


def test_defeated_count_to_lose_is_config_c_6_1() -> None:
    g = position(
        board=[unit("c3", "Brute", 0), unit("c4", "Ember Scout", 1), unit("d4", "Dummy", 1)],
        p1=side(defeated=["Ember Scout"] * 2),
        step="combat",
        config={"defeated_to_lose": 3},
    )
    g.apply(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert result(g).winner == 0 and result(g).reason is Reason.SIX_DEFEATED


def test_an_empty_battlefield_offers_the_start_squares_again_by_default_c_2_2_c_5_2() -> None:
    g = position(p0=side(cp=1, hand=["Ember Scout"]), units_deployed=4)
    squares = sorted(a.square for a in g.legal_actions(0) if isinstance(a, Deploy))
    assert [square_name(s) for s in squares] == ["c3", "d3", "c4", "d4"]


def test_start_squares_may_be_for_the_first_unit_of_the_game_only_c_2_2_c_5_2() -> None:
    cfg = {"start_squares_when_battlefield_empty": False}
    later = position(p0=side(cp=1, hand=["Ember Scout"]), units_deployed=4, config=cfg)
    assert not [a for a in later.legal_actions(0) if isinstance(a, Deploy)]
    first = position(p0=side(cp=1, hand=["Ember Scout"]), config=cfg)
    assert len([a for a in first.legal_actions(0) if isinstance(a, Deploy)]) == 4
    first.apply(next(a for a in first.legal_actions(0) if isinstance(a, Deploy)))
    assert first.units_deployed == 1 and first.to_dict()["units_deployed"] == 1


def test_cp_per_turn_and_hand_limit_are_config_c_5_1_c_5_9() -> None:
    cfg = {"cp_per_turn": 4, "hand_limit": 2}
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)],
        p0=side(hand=["Dummy", "Fireball", "Inferno"]),
        step="combat",
        config=cfg,
    )
    g.apply(Pass(0))  # End phase: 3 cards, limit 2
    assert g.decision is not None and g.decision["kind"] == "discard" and g.decision["count"] == 1
    g.apply(g.legal_actions(0)[0])
    assert len(g.sides[0].hand) == 2 and g.sides[1].cp == 4


def test_marking_bonus_amount_is_config_c_7_4() -> None:
    assert _marked_damage({"marking_bonus": 500, "marking_stacks": False}) == 2000 + 500


def test_cp_of_both_players_is_reset_at_the_end_of_a_turn_by_default_c_5_11() -> None:
    """C-5.11: the other player's remaining CP (gained in the turn) does not carry into their turn."""
    board = [unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)]
    g = position(
        board=board, p0=side(cp=1, deck=["Dummy"] * 3), p1=side(cp=2, deck=["Dummy"] * 3), step="combat"
    )
    g.apply(Pass(0))
    assert g.active == 1 and g.sides[1].cp == 3 and g.sides[0].cp == 0


def test_cp_gained_by_the_other_player_may_carry_over_c_5_11() -> None:
    board = [unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)]
    cfg = {"cp_reset_active_only": True}
    g = position(board=board, p1=side(cp=2, deck=["Dummy"] * 3), step="combat", config=cfg)
    g.apply(Pass(0))
    assert g.active == 1 and g.sides[1].cp == 2 + 3
