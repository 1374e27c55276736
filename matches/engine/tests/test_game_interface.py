"""The ``matches.interface.Game`` hooks of the Commandeer engine in particular positions: secret actions,
the timeout default, explanations of illegal actions, and determinization (C-8). The conformance of the
interface on random playouts is ``tests/test_game_conformance.py``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

from matches.engine import GameState, build_deck, load_card_file, new_match
from matches.engine.actions import (
    Action,
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    Concede,
    Deploy,
    Keep,
    Move,
    Mulligan,
    Pass,
    PlayEvent,
    Reinforce,
    square_index,
)
from matches.engine.agents import RandomAgent
from matches.engine.tests.helpers import at, position, side, unit
from matches.engine.tests.pool import pool_file

CAT = load_card_file(pool_file())
DECKS = [build_deck(CAT, "ember"), build_deck(CAT, "tide")]


def _with_commander(deck: dict[str, Any]) -> dict[str, Any]:
    """A deck that holds a Legendary unit, so the Commander step asks for a (secret) choice."""
    legend = next(c for c in CAT.values() if c.legendary and c.type == "unit" and c.faction == "ember")
    cards = [c for c in deck["cards"] if c["name"] != legend.name][:49] + [dict(legend.raw)]
    return {"cards": cards, "commander": None}


def _playout(seed: int, limit: int = 400) -> Iterator[GameState]:
    """Every state of a seeded random match (mulligans and Commanders included)."""
    g = new_match(_with_commander(DECKS[0]), DECKS[1], seed=seed)
    bots = [RandomAgent(Random(seed * 2)), RandomAgent(Random(seed * 2 + 1))]
    for _ in range(limit):
        yield g
        if g.is_terminal():
            return
        p = g.current_players()[0]
        g.apply(bots[p].choose(g, p))


def _to_mulligan(g: GameState) -> GameState:
    """Answer every Commander choice with "no Commander" (C-4.1)."""
    while g.step.value == "commander":
        g.apply(ChooseCommander(g.current_players()[0], None))
    return g


def test_the_players_are_seats_0_and_1_in_order() -> None:
    g = new_match(DECKS[0], DECKS[1], seed=1)
    assert list(g.players()) == [0, 1] and g.current_players()[0] in g.players()


# ---------------------------------------------------------------------------------------------- secret actions
def test_a_commander_choice_and_a_mulligan_bottom_are_secret_c_4_4_c_8() -> None:
    g = new_match(_with_commander(DECKS[0]), DECKS[1], seed=3)
    assert g.step.value == "commander"
    choice = g.legal_actions(0)[-2]  # the last Commander name (Concede comes last)
    assert isinstance(choice, ChooseCommander) and g.secret_action(choice)
    _to_mulligan(g)
    p = g.current_players()[0]
    g.apply(Mulligan(p))
    assert g.decision is not None and g.decision["kind"] == "bottom"
    bottom = g.legal_actions(p)[0]
    assert isinstance(bottom, ChooseCard) and g.secret_action(bottom)
    assert not g.secret_action(Concede(p))
    g.apply(bottom)
    entry = g.log_view(1 - p)[-1]
    assert "card" not in entry["action"] and "bottom" in entry["text"]


def test_public_actions_are_not_secret_c_8() -> None:
    g = position(board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)], p0=side(cp=2, hand=["Dummy"]))
    assert not any(g.secret_action(a) for a in g.legal_actions(0))


# ---------------------------------------------------------------------------------------------- timeout
def test_timeout_keeps_the_hand_chooses_no_commander_and_passes() -> None:
    g = new_match(_with_commander(DECKS[0]), DECKS[1], seed=3)
    assert g.timeout_action(0) == ChooseCommander(0, None)
    while g.step.value == "commander":
        g.apply(g.timeout_action(g.current_players()[0]))
    p = g.current_players()[0]
    assert g.timeout_action(p) == Keep(p)
    planning = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2, hand=["Dummy"]))
    assert planning.timeout_action(0) == Pass(0)


def test_timeout_answers_a_pending_choice_with_the_first_legal_choice() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Dummy", "Weakling"], deck=["Dummy"] * 3)
    )
    g.apply(Reinforce(0))
    assert g.decision is not None and g.decision["kind"] == "reinforce_energy"
    a = g.timeout_action(0)
    assert isinstance(a, ChooseCard) and a == g.legal_actions(0)[0]
    assert a in g.legal_actions(0)


def test_timeout_for_a_player_who_is_not_to_act_is_refused() -> None:
    g = position(board=[unit("c3", "Dummy", 0)])
    with pytest.raises(ValueError, match="nothing to do now"):
        g.timeout_action(1)


# ---------------------------------------------------------------------------------------------- explain_illegal
def test_explain_names_the_player_to_act_and_the_phase() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], step="planning")
    text = g.explain_illegal(Pass(1))
    assert "player 1 is not to act now" in text and "Planning phase" in text


def test_explain_names_the_missing_cp_and_energy_c_5_2_c_5_3() -> None:
    g = position(
        board=[unit("c3", "Ember Scout", 0)], p0=side(cp=0, hand=["Ember Archer"], deck=["Dummy"] * 3)
    )
    card = g.sides[0].hand[0]
    assert "needs 2 CP and you have 0" in g.explain_illegal(Deploy(0, card, square_index("d3")))
    assert "Reinforce costs 1 CP and you have 0" in g.explain_illegal(Reinforce(0))
    rich = position(board=[unit("c3", "Ember Scout", 0)], p0=side(cp=3, hand=["Ember Queen"]))
    queen = rich.sides[0].hand[0]
    cost = rich.defs[queen].energy_cost
    assert cost > 0
    assert f"needs {cost} Energy and you have 0" in rich.explain_illegal(Deploy(0, queen, square_index("d3")))


def test_explain_names_the_legal_squares_c_5_2() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2, hand=["Dummy"]))
    card = g.sides[0].hand[0]
    text = g.explain_illegal(Deploy(0, card, square_index("f6")))
    assert "f6 is not adjacent to a unit" in text and "c2" in text and "d3" in text
    occupied = g.explain_illegal(Deploy(0, card, square_index("c3")))
    assert "c3 is occupied" in occupied
    lonely = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2))
    assert "no legal square to move to" in lonely.explain_illegal(
        Move(0, at(lonely, "c3"), square_index("c4"))
    )


def test_explain_names_the_phase_an_action_belongs_to_c_5_6() -> None:
    g = position(board=[unit("c3", "Brute", 0), unit("c4", "Dummy", 1)], p0=side(cp=2))
    text = g.explain_illegal(Attack(0, at(g, "c3"), "N", at(g, "c4")))
    assert "only possible in your own Combat phase" in text and "Planning phase" in text
    combat = position(board=[unit("c3", "Brute", 0), unit("c4", "Dummy", 1)], step="combat")
    brute, dummy = at(combat, "c3"), at(combat, "c4")
    assert "is legal now" in combat.explain_illegal(Attack(0, brute, "N", dummy))
    combat.apply(Attack(0, brute, "N", dummy))
    assert "already attacked" in combat.explain_illegal(Attack(0, brute, "N", dummy))


def test_explain_a_pending_choice_and_an_event_out_of_phase_c_1_3() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)], p0=side(cp=1, hand=["Dummy", "Weakling"], deck=["Dummy"] * 3)
    )
    g.apply(Reinforce(0))
    assert "must first answer the pending 'reinforce_energy' choice" in g.explain_illegal(Pass(0))
    d = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Dummy", 1)],
        p1=side(cp=3, hand=["Riptide"]),
        step="defending",
    )
    riptide = d.sides[1].hand[0]
    assert "planning event, not playable in the Defending phase" in d.explain_illegal(PlayEvent(1, riptide))
    assert "is not on the battlefield" in d.explain_illegal(Activate(1, riptide, 0))


def test_explain_an_action_off_the_board_c_2_1() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=2, hand=["Dummy"]))
    assert "not on the board" in g.explain_illegal(Deploy(0, g.sides[0].hand[0], 99))
    g.apply(Deploy(0, g.sides[0].hand[0], square_index("c4")))
    assert "not on the board" in g.explain_illegal(Move(0, at(g, "c3"), -1))


def test_checked_apply_raises_the_explanation() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=0, deck=["Dummy"]))
    with pytest.raises(ValueError, match="Reinforce costs 1 CP"):
        g.apply(Reinforce(0))


# ---------------------------------------------------------------------------------------------- determinize
def _hidden(g: GameState, player: int) -> tuple[Any, ...]:
    opp = g.sides[1 - player]
    return (tuple(opp.hand), tuple(opp.deck), opp.commander, tuple(g.sides[player].deck))


def _hidden_cards(g: GameState, player: int) -> Counter[int]:
    """The player's hidden cards: hand, deck and a face-down Commander."""
    side = g.sides[player]
    out = Counter([*side.hand, *side.deck])
    if side.commander is not None and not side.revealed:
        out[side.commander] += 1
    return out


def test_determinized_views_equal_the_original_for_both_players_c_8() -> None:
    checked = 0
    for seed in range(4):
        rng = Random(seed)
        for g in _playout(seed):
            for p in (0, 1):
                d = g.determinize(p, rng)
                assert d.player_view(p) == g.player_view(p)
                assert Counter(d.sides[p].deck) == Counter(g.sides[p].deck)  # own deck contents known
                assert d.sides[p].hand == g.sides[p].hand
                opp_hidden = _hidden_cards(g, 1 - p)
                d_hidden = _hidden_cards(d, 1 - p)
                face_down = d.sides[1 - p].commander
                if face_down is not None and not d.sides[1 - p].revealed:
                    assert d.is_legendary_unit(face_down)
                assert d_hidden == opp_hidden  # the opponent's hidden cards, re-dealt
                checked += 1
    assert checked > 400


def test_determinized_hidden_parts_vary_c_8() -> None:
    varied = same_rng_state = states = 0
    for g in _playout(7):
        if g.is_terminal():
            break
        p = g.current_players()[0]
        samples = [g.determinize(p, Random(k)) for k in range(4)]
        states += 1
        if len({_hidden(s, p) for s in samples}) > 1:
            varied += 1
        if len({repr(s.rng.getstate()) for s in samples}) == 1:
            same_rng_state += 1
    assert states > 50 and varied >= states * 0.9 and same_rng_state == 0


def test_a_determinized_state_keeps_no_log_but_its_length() -> None:
    """A sample carries no event log (the hidden cards in it are invented), only how long it was."""
    g = list(_playout(11, limit=60))[-1]
    d = g.determinize(0, Random(5))
    assert d.log == [] and d.log_length == g.log_length


def test_a_card_seen_returned_to_the_opponents_hand_stays_there_c_8() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0), unit("c4", "Weakling", 1)],
        p0=side(cp=3, hand=["Tide Bouncer"], deck=["Dummy"] * 5),
        p1=side(hand=["Dummy", "Dummy"], deck=["Brute"] * 6),
    )
    weakling = at(g, "c4")
    bouncer = g.sides[0].hand[0]
    g.apply(Deploy(0, bouncer, square_index("c2")))
    while g.decision is not None:
        g.apply(next(a for a in g.legal_actions(0) if getattr(a, "target", None) == weakling))
    assert weakling in g.sides[1].hand
    for k in range(10):
        d = g.determinize(0, Random(k))
        assert weakling in d.sides[1].hand and d.player_view(0) == g.player_view(0)
    moved = [g.determinize(0, Random(k)).sides[1].hand for k in range(10)]
    assert any(set(h) != set(g.sides[1].hand) for h in moved)  # the unseen Dummies are resampled


def test_own_mulligan_bottom_stays_at_the_bottom_c_4_4() -> None:
    g = _to_mulligan(new_match(DECKS[0], DECKS[1], seed=3))
    p = g.current_players()[0]
    g.apply(Mulligan(p))
    g.apply(g.legal_actions(p)[0])
    bottom = g.sides[p].deck[0]
    for k in range(5):
        d = g.determinize(p, Random(k))
        assert d.sides[p].deck[0] == bottom and d.player_view(p) == g.player_view(p)


def test_an_unknown_opponent_deck_list_is_invented_and_a_bad_player_refused() -> None:
    """opponent_deck_known=False: the opponent's hidden cards are drawn from a catalog (matches/engine/tests
    /test_ai.py checks the faction and copy limits); the view stays the same."""
    g = new_match(DECKS[0], DECKS[1], seed=3)
    d = g.determinize(0, Random(1), opponent_deck_known=False)
    assert d.player_view(0) == g.player_view(0)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        g.determinize(2, Random(1))


def _near_misses(g: GameState, p: int) -> list[Action]:
    """Actions close to legal ones: other squares, targets, cards, the other player, other phases."""
    out: list[Action] = [Pass(p), Pass(1 - p), Reinforce(p), Keep(p), Mulligan(p)]
    units = sorted(g.units)
    hand = g.sides[p].hand
    for a in g.legal_actions(p)[:20]:
        if isinstance(a, Deploy):
            out += [Deploy(p, a.card, (a.square + 7) % 36), Deploy(1 - p, a.card, a.square)]
        elif isinstance(a, Move):
            out += [Move(p, a.unit, (a.square + 1) % 36)]
        elif isinstance(a, Attack):
            out += [Attack(p, a.unit, "S" if a.direction != "S" else "N", a.target)]
        elif isinstance(a, ChooseCard):
            out += [ChooseCard(p, units[0] if units else 0)]
    out += [Activate(p, u, 0) for u in units[:3]] + [PlayEvent(p, c) for c in hand[:3]]
    out += [Attack(p, u, "N", t) for u in units[:2] for t in units[:2]]
    return out


def test_every_illegal_action_is_explained_over_random_playouts() -> None:
    explained = 0
    for seed in range(3):
        for g in _playout(seed, limit=250):
            if g.is_terminal():
                break
            p = g.current_players()[0]
            legal = set(g.legal_actions(p)) | set(g.legal_actions(1 - p))
            for a in _near_misses(g, p):
                text = g.explain_illegal(a)
                assert text.startswith(str(a.to_json()))
                if a in legal:
                    assert text.endswith("is legal now")
                else:
                    assert "is illegal: " in text and "not among the legal actions" not in text, text
                    explained += 1
    assert explained > 1000
