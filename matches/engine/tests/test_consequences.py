"""What an action caused, per viewer (``consequences``): built from the engine's events as each player
may see them (C-8: drawn cards only to their owner)."""

from __future__ import annotations

from typing import Any

from matches.engine.actions import Attack, Deploy, Pass, Reinforce, square_index
from matches.engine.consequences import consequences, square_of, squares_before
from matches.engine.tests.helpers import DUMMIES, position, side, unit

RAM: dict[str, Any] = {
    **DUMMIES[0],
    "name": "Ram",
    "keywords": ["deploying"],
    "abilities": [
        {
            "trigger": "deploying",
            "effects": [{"effect": "deal_damage", "target": "adjacent_enemy_units", "amount": 1000}],
            "text": "Deploying: deal 1000 damage to each adjacent enemy unit.",
        }
    ],
}


def test_square_of_names_rank_and_file() -> None:
    assert square_of("a1") == [0, 0]
    assert square_of("c4") == [3, 2]
    assert square_of("f6") == [5, 5]
    assert square_of(None) is None


def test_deploying_damage_and_defeat_reach_both_players_and_spectators_c_7_2() -> None:
    g = position(
        board=[unit("c3", "Dummy", 1), unit("c5", "Weakling", 1)],
        p0=side(cp=3, hand=["Ram"], deck=["Dummy"] * 5),
        extra_cards=[RAM],
    )
    before = squares_before(g)
    g.apply(Deploy(0, g.sides[0].hand[0], square_index("c4")))
    for viewer in (0, 1, None):
        caused = consequences(g, viewer, before)
        kinds = [c["kind"] for c in caused]
        assert kinds == ["ability", "damage", "damage", "defeat"], caused
        assert caused[0]["text"] == "Ram's Deploying ability: deal 1000 damage to each adjacent enemy unit."
        assert caused[1] == {
            "text": "Dummy takes 1000 damage from Ram.",
            "message": {
                "key": "%(card)s takes %(amount)s damage from %(source)s.",
                "params": {"card": {"card": "Dummy"}, "amount": 1000, "source": {"card": "Ram"}},
            },
            "kind": "damage",
            "square": [2, 2],
            "amount": 1000,
        }
        assert caused[3]["text"] == "Weakling is defeated (to Player 2's Defeated zone)."
        assert caused[3]["square"] == [4, 2]  # where it stood, though it has left the battlefield


def test_a_draw_names_the_cards_only_to_their_owner_c_8() -> None:
    g = position(
        p0=side(cp=3, hand=["Dummy"], deck=["Brute", "Weakling", "Dummy"]), board=[unit("c3", "Dummy", 0)]
    )
    g.apply(Reinforce(0))
    own = consequences(g, 0)
    other = consequences(g, 1)
    spectator = consequences(g, None)
    draw_own = next(c for c in own if c["kind"] == "draw")
    assert "Brute" in draw_own["text"] and draw_own["amount"] == 2
    for seen in (other, spectator):
        draw = next(c for c in seen if c["kind"] == "draw")
        assert draw["text"] == "Player 1 draws 2 cards." and draw["amount"] == 2
        drawn_names = {g.defs[c].name for c in g.sides[0].hand} - {"Dummy"}
        assert not any(name in c["text"] for c in seen for name in drawn_names if c["kind"] == "draw")


def test_attack_damage_and_turn_start_cp_are_consequences_c_5_7_c_5_1() -> None:
    g = position(
        board=[unit("c3", "Brute", 0), unit("c4", "Weakling", 1)],
        p0=side(cp=0, deck=["Dummy"] * 5),
        p1=side(cp=0, deck=["Dummy"] * 5),
        step="combat",
    )
    uid = g.board[square_index("c3")]
    target = g.board[square_index("c4")]
    assert uid is not None and target is not None
    before = squares_before(g)
    g.apply(Attack(0, uid, "N", target))
    caused = consequences(g, 1, before)
    assert caused[0] == {
        "text": "Weakling takes 50000 damage.",
        "message": {
            "key": "%(card)s takes %(amount)s damage.",
            "params": {"card": {"card": "Weakling"}, "amount": 50000},
        },
        "kind": "damage",
        "square": [3, 2],
        "amount": 50000,
    }
    assert caused[1]["kind"] == "defeat"
    for _ in range(5):  # end the Combat and End phases: player 2's turn starts
        g.apply(Pass(0))
        if g.active == 1:
            break
    turn = consequences(g, 0)
    assert any(c["kind"] == "turn" for c in turn)
    assert any(c["kind"] == "cp" and c["amount"] == 3 and c["text"] == "Player 2 gains 3 CP." for c in turn)
