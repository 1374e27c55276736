"""The game interface's hooks in the Westeros engine (matches/interface.py, docs/style.md 2): seat order, secret
actions, timeout defaults, explanations of illegal actions and determinization, on positions and on seeded
random/greedy games. The conformance of the interface on random playouts is tests/test_game_conformance.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

from boardgame.engine.actions import (
    Bid,
    Choose,
    DeclareSupport,
    FinishOrders,
    PlaceOrder,
    PlayHouseCard,
    RavenSwap,
)
from boardgame.engine.agents import GreedyAgent, RandomAgent
from boardgame.engine.data import GameData
from boardgame.engine.game import IllegalActionError, WesterosState, new_game
from boardgame.engine.structures import need
from boardgame.engine.timeouts import TIMEOUT_DEFAULTS

from .conftest import _DATA, choose, combat, do, pending

GAMES = 2  # seeded games walked for states of a kind (the conformance suite has the size knob)


def game_states(games: int = GAMES, every: int = 1) -> Iterator[WesterosState]:
    """Every `every`-th state of seeded games (even seeds: greedy agents, odd: random agents)."""
    for g in range(games):
        st = new_game(_DATA, player_count=3 + g % 4, seed=500 + g)
        rng = Random(g)
        agents = {
            h: (GreedyAgent if g % 2 == 0 else RandomAgent)(Random(g * 7 + i))
            for i, h in enumerate(st.houses)
        }
        n = 0
        while not st.is_terminal() and st.round <= 3:
            if n % every == 0:
                yield st
            n += 1
            p = rng.choice(st.current_players())
            st.apply(agents[p].choose(st, p))


# ---------------------------------------------------------------- players() and seat_houses
def test_players_are_the_houses_in_engine_order_by_default(gd: GameData) -> None:
    st = new_game(gd, player_count=4, seed=1)
    assert st.players() == st.houses == ["stark", "lannister", "baratheon", "greyjoy"]


def test_seat_houses_are_kept_by_snapshot_and_clone(gd: GameData) -> None:
    seats = ["greyjoy", "stark", "baratheon", "lannister"]
    st = new_game(gd, player_count=4, seed=1, seat_houses=seats)
    assert st.players() == seats and st.to_dict()["seat_houses"] == seats
    assert WesterosState.from_dict(st.to_dict()).players() == seats
    assert st.clone().players() == seats


def test_a_snapshot_stored_before_seat_houses_loads_with_the_engine_order(gd: GameData) -> None:
    d = new_game(gd, player_count=3, seed=1, seat_houses=["baratheon", "stark", "lannister"]).to_dict()
    del d["seat_houses"], d["deck_known"]
    assert WesterosState.from_dict(d).players() == ["stark", "lannister", "baratheon"]


def test_seat_houses_must_be_the_houses_of_the_game(gd: GameData) -> None:
    with pytest.raises(ValueError, match="seat_houses"):
        new_game(gd, player_count=3, seed=1, seat_houses=["stark", "lannister", "tyrell"])


# ---------------------------------------------------------------- secret_action (W-20)
def test_face_down_choices_are_secret_and_public_ones_are_not_w_20() -> None:
    st = new_game(_DATA, player_count=3, seed=0)
    for a in (PlaceOrder("stark", "winterfell", "march"), RavenSwap("stark", "winterfell", "raid"),
              Bid("stark", 2), PlayHouseCard("stark", "robb_stark")):  # fmt: skip
        assert st.secret_action(a), a
    for b in (FinishOrders("stark"), DeclareSupport("stark", "none"), Choose("stark", "raven", "look")):
        assert not st.secret_action(b), b


# ---------------------------------------------------------------- timeout_action (W-3.3)
def test_every_pending_step_has_a_documented_default_that_is_legal() -> None:
    seen: set[str] = set()
    for st in game_states():
        assert st.pending is not None
        seen.add(st.pending.kind)
        assert st.pending.kind in TIMEOUT_DEFAULTS
        for h in st.current_players():
            assert st.timeout_action(h) in st.legal_actions(h)
    assert {"orders", "raven", "bid"} <= seen or {"orders", "march_select"} <= seen


def test_timeout_defaults_are_the_passive_choices_w_5_1_w_9_2_w_14_2(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    a = st.timeout_action("stark")  # orders: the most passive token in the first area
    assert isinstance(a, PlaceOrder) and a.token.startswith("defense")
    sup = combat(["footman"], ["footman"], None, None)
    assert pending(sup).kind == "house_card"
    card = sup.timeout_action("lannister")
    assert isinstance(card, PlayHouseCard) and card == sup.legal_actions("lannister")[0]
    with pytest.raises(ValueError, match="no decision"):
        new_game(gd, player_count=3, seed=0).timeout_action("tyrell")


def test_timeout_bid_is_zero_and_support_is_nobody_w_14_2_w_9_2() -> None:
    bids = next(s for s in game_states(games=4) if s.pending and s.pending.kind == "bid")
    h = bids.current_players()[0]
    assert bids.timeout_action(h) == Bid(h, 0)
    from .conftest import march_on_harrenhal

    st = march_on_harrenhal({"blackwater": ["baratheon", "footman"]})
    assert pending(st).kind == "support"
    assert st.timeout_action("baratheon") == DeclareSupport("baratheon", "none")


# ---------------------------------------------------------------- explain_illegal
def test_explain_illegal_is_empty_for_a_legal_action(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    a = st.legal_actions("stark")[0]
    assert st.explain_illegal(a) == ""


def test_explain_illegal_names_whose_decision_it_is_and_the_step(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    for h in ("stark", "lannister", "baratheon"):
        while h in st.current_players():
            do(st, st.timeout_action(h))
    why = st.explain_illegal(Choose("stark", "raven", "pass"))
    holder = st.current_players()[0]
    if holder != "stark":
        assert "not stark's decision" in why and holder in why and "planning/messenger_raven" in why


def test_explain_illegal_names_the_missing_token_w_5_1_w_5_2(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    areas = sorted(a for a, u in st.units.items() if u.house == "stark")
    do(st, PlaceOrder("stark", areas[0], "march"))
    why = st.explain_illegal(PlaceOrder("stark", areas[1], "march"))
    assert "no unused march token" in why and "W-5.1" in why
    assert "already holds an order" in st.explain_illegal(PlaceOrder("stark", areas[0], "raid"))
    assert "no units in kings_landing" in st.explain_illegal(PlaceOrder("stark", "kings_landing", "raid"))
    with pytest.raises(IllegalActionError, match="no units in kings_landing"):
        st.apply(PlaceOrder("stark", "kings_landing", "raid"))


def test_explain_illegal_names_a_bid_over_the_available_power_w_14_2() -> None:
    st = next(s for s in game_states(games=4) if s.pending and s.pending.kind == "bid")
    h = st.current_players()[0]
    assert f"0 to {st.power[h]}" in st.explain_illegal(Bid(h, st.power[h] + 1))


def test_explain_illegal_lists_the_options_of_a_menu_decision(gd: GameData) -> None:
    st = combat(["footman"], ["footman"], "tyrion_lannister", "eddard_stark")
    assert pending(st).decision == "tyrion"
    assert "the options are cancel, keep" in st.explain_illegal(Choose("lannister", "tyrion", "maybe"))
    choose(st, "lannister", "tyrion", "keep")


# ---------------------------------------------------------------- determinize
def test_determinized_views_equal_the_original_for_every_house() -> None:
    rng = Random(3)
    for st in game_states(every=3):
        for h in st.houses:
            assert st.determinize(h, rng).player_view(h) == st.player_view(h)


def test_determinize_resamples_others_face_down_orders_and_keeps_own_w_5_1(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    for h in ("stark", "lannister", "baratheon"):
        while h in st.current_players() and not isinstance(st.timeout_action(h), FinishOrders):
            do(
                st,
                Random(len(st.orders)).choice([a for a in st.legal_actions(h) if isinstance(a, PlaceOrder)]),
            )
    assert st.orders and not st.orders_revealed
    seen: set[tuple[tuple[str, str], ...]] = set()
    for i in range(20):
        d = st.determinize("stark", Random(i))
        assert {a: o for a, o in d.orders.items() if o[0] == "stark"} == {
            a: o for a, o in st.orders.items() if o[0] == "stark"
        }
        assert sorted(d.orders) == sorted(st.orders)
        for h in ("lannister", "baratheon"):
            assert len(d.legal_actions(h)) >= 1
        seen.add(tuple((a, o[1]) for a, o in sorted(d.orders.items()) if o[0] != "stark"))
    assert len(seen) > 1


def test_determinize_resamples_others_bids_and_decks_and_the_rng_w_20_5_w_20_7() -> None:
    st = next(s for s in game_states(games=4) if s.pending and s.pending.kind == "bid")
    h, other = st.current_players()[0], st.current_players()[-1]
    do(st, Bid(h, st.power[h]))
    if other == h:
        return
    bids, decks, wild, draws = set(), set(), set(), set()
    for i in range(20):
        d = st.determinize(other, Random(i))
        assert d.player_view(other) == st.player_view(other)
        bids.add(need(d.pending.bids)[h] if d.pending else None)
        decks.add(tuple(d.wdecks["1"]))
        wild.add(tuple(d.wildling_deck))
        draws.add(d.rng.random())
    assert len(bids) > 1 or st.power[h] == 0
    assert len(decks) > 1 and len(wild) > 1 and len(draws) > 1
    own = st.determinize(h, Random(0))
    assert own.pending is not None and need(own.pending.bids)[h] == st.power[h]


def test_determinize_keeps_the_wildling_card_seen_with_the_raven_w_5_5(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    for h in ("stark", "lannister", "baratheon"):
        while h in st.current_players():
            do(st, st.timeout_action(h))
    holder = st.current_players()[0]
    do(st, Choose(holder, "raven", "look"))
    top = st.wildling_deck[0]
    choose(st, holder, "raven_bury", "top")
    other = next(h for h in st.houses if h != holder)
    assert all(st.determinize(holder, Random(i)).wildling_deck[0] == top for i in range(10))
    assert len({st.determinize(other, Random(i)).wildling_deck[0] for i in range(20)}) > 1


def test_determinize_hides_the_others_private_log_entries_w_20_1(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    do(st, PlaceOrder("lannister", "lannisport", "march_plus_one"))
    assert any("March +1" in str(e.get("text")) for e in st.log if e.get("to") == ["lannister"])
    d = st.determinize("stark", Random(0))
    assert not any("March +1" in str(e.get("text")) for e in d.log if e.get("to") == ["lannister"])
    assert d.log_view("stark") == st.log_view("stark")
