"""W-5.1: until a house declares its orders complete it may take any placed order back and place another
(as at the table, where face-down tokens are rearranged freely before the reveal, W-5.4); a house that is
Ready may take its Ready back while another house still places orders (engine Decision). The others only
ever learn that a face-down token left an area (W-20.1); agents never take orders back."""

from __future__ import annotations

import json
from random import Random

import pytest

from boardgame.engine.actions import FinishOrders, PlaceOrder, RemoveOrder, ReopenOrders, action_from_json
from boardgame.engine.agents import AGENTS
from boardgame.engine.data import GameData
from boardgame.engine.game import IllegalActionError, WesterosState, new_game
from boardgame.engine.information import Information
from boardgame.engine.structures import Order

from .conftest import do


def test_a_placed_order_can_be_taken_back_and_replaced_before_done_w_5_1(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    do(st, PlaceOrder("stark", "winterfell", "march_plus_one"))
    assert RemoveOrder("stark", "winterfell") in st.legal_actions("stark")
    assert not any(isinstance(a, PlaceOrder) and a.area == "winterfell" for a in st.legal_actions("stark"))
    do(st, RemoveOrder("stark", "winterfell"))
    assert "winterfell" not in st.orders
    # the token is free again, and the area takes a different one
    tokens = {
        a.token for a in st.legal_actions("stark") if isinstance(a, PlaceOrder) and a.area == "winterfell"
    }
    assert {"march_plus_one", "defense_plus_two"} <= tokens
    do(st, PlaceOrder("stark", "winterfell", "defense_plus_two"))
    assert st.orders["winterfell"] == Order("stark", "defense_plus_two")


def test_the_last_order_can_be_taken_back_while_finish_is_offered_w_5_1(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    while any(isinstance(a, PlaceOrder) for a in st.legal_actions("stark")):
        do(st, next(a for a in st.legal_actions("stark") if isinstance(a, PlaceOrder)))
    own = sorted(a for a, (h, _t) in st.orders.items() if h == "stark")
    legal = st.legal_actions("stark")
    assert legal[0] == FinishOrders("stark")  # the first legal action is never a take-back
    assert [a for a in legal if isinstance(a, RemoveOrder)] == [RemoveOrder("stark", a) for a in own]
    do(st, RemoveOrder("stark", own[0]))
    assert FinishOrders("stark") not in st.legal_actions("stark")  # an area is empty again


def test_after_done_orders_are_fixed_and_foreign_or_empty_areas_cannot_be_taken_back_w_5_1(
    gd: GameData,
) -> None:
    st = new_game(gd, player_count=3, seed=0)
    with pytest.raises(IllegalActionError, match="remove_order"):
        st.apply(RemoveOrder("stark", "winterfell"))  # nothing placed yet
    do(st, PlaceOrder("lannister", "lannisport", "march"))
    do(st, PlaceOrder("stark", "winterfell", "march"))
    with pytest.raises(IllegalActionError, match="no order in lannisport to take back"):
        st.apply(RemoveOrder("stark", "lannisport"))
    while "stark" in st.current_players():
        do(st, st.legal_actions("stark")[0])
    placed = next(a for a, (h, _t) in st.orders.items() if h == "stark")
    with pytest.raises(IllegalActionError, match="not stark's decision"):
        st.apply(RemoveOrder("stark", placed))


def test_a_take_back_shows_the_others_only_that_a_token_left_w_20_1(gd: GameData) -> None:
    a, b = new_game(gd, player_count=3, seed=0), new_game(gd, player_count=3, seed=0)
    do(a, PlaceOrder("stark", "winterfell", "march_plus_one"))
    do(b, PlaceOrder("stark", "winterfell", "defense_plus_two"))
    start = len(a.log)
    do(a, RemoveOrder("stark", "winterfell"))
    do(b, RemoveOrder("stark", "winterfell"))
    for viewer in ("lannister", "baratheon", None):
        assert a.player_view(viewer) == b.player_view(viewer)
        assert a.log_view(viewer) == b.log_view(viewer)
    assert any("takes back the order in winterfell" in e["text"] for e in a.log_view(None, start))
    mine = [e["text"] for e in a.log_view("stark", start)]
    assert any("March +1" in t for t in mine)
    assert not any("March +1" in json.dumps(e) for e in a.log_view("lannister", start))
    assert RemoveOrder("stark", "winterfell").to_json() == {
        "type": "remove_order",
        "player": "stark",
        "area": "winterfell",
    }
    assert action_from_json({"type": "remove_order", "player": "stark", "area": "winterfell"}) == RemoveOrder(
        "stark", "winterfell"
    )
    assert not a.secret_action(RemoveOrder("stark", "winterfell"))  # names no token


def _ready(st: WesterosState, h: str) -> None:
    while h in st.current_players():
        do(st, st.legal_actions(h)[0])


def test_a_ready_house_can_take_its_ready_back_while_another_still_places_w_5_1_w_5_4(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    assert ReopenOrders("stark") not in st.legal_actions("stark")  # not Ready yet: nothing to take back
    _ready(st, "stark")
    own = {a: t for a, (h, t) in st.orders.items() if h == "stark"}
    assert "stark" not in st.current_players()  # nobody waits for a Ready house
    assert st.legal_actions("stark") == [ReopenOrders("stark")]
    assert (
        ReopenOrders("stark") not in st.legal_actions()
    )  # out of turn: not among the deciding houses' actions
    start = len(st.log)
    do(st, ReopenOrders("stark"))
    assert st.current_players() == [h for h in st.turn_order() if h in ("lannister", "stark", "baratheon")]
    assert {a: t for a, (h, t) in st.orders.items() if h == "stark"} == own  # the orders stay where they lie
    area = sorted(own)[0]
    assert RemoveOrder("stark", area) in st.legal_actions("stark")
    do(st, RemoveOrder("stark", area))
    do(st, next(a for a in st.legal_actions("stark") if isinstance(a, PlaceOrder) and a.token != own[area]))
    assert st.orders[area][1] != own[area]
    assert any("stark is changing its orders" in e["text"].lower() for e in st.log_view("lannister", start))
    # The last house to be Ready reveals at once (W-5.4): nothing is left to take back.
    for h in list(st.current_players()):
        _ready(st, h)
    assert st.orders_revealed
    for h in ("stark", "lannister", "baratheon"):
        assert ReopenOrders(h) not in st.legal_actions(h)
    with pytest.raises(IllegalActionError, match="before the reveal"):
        st.apply(ReopenOrders("stark"))


def test_taking_ready_back_is_public_and_replays_w_20(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    with pytest.raises(IllegalActionError, match="has not declared its orders complete"):
        st.apply(ReopenOrders("stark"))
    _ready(st, "stark")
    do(st, ReopenOrders("stark"))
    assert not st.secret_action(ReopenOrders("stark"))
    assert ReopenOrders("stark").to_json() == {"type": "reopen_orders", "player": "stark"}
    assert action_from_json({"type": "reopen_orders", "player": "stark"}) == ReopenOrders("stark")
    assert st.explain_illegal(ReopenOrders("lannister")).endswith("(W-5.1)")
    copy = WesterosState.from_dict(st.to_dict())
    assert copy.current_players() == st.current_players() and copy.legal_actions("stark") == st.legal_actions(
        "stark"
    )


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "normal"])
def test_agents_never_take_orders_back_and_still_finish_planning_w_5_1(gd: GameData, level: str) -> None:
    st = new_game(gd, player_count=3, seed=4)
    do(st, PlaceOrder("stark", "winterfell", "march_plus_one"))
    assert RemoveOrder("stark", "winterfell") not in Information(st, "stark").legal_actions()
    agents = {h: AGENTS[level](Random(i), 0.05, iterations=4) for i, h in enumerate(st.houses)}
    steps = 0
    while st.pending is not None and st.pending.kind.value == "orders":
        h = st.current_players()[0]
        act = agents[h].choose(st, h)
        assert not isinstance(act, RemoveOrder | ReopenOrders)
        do(st, act)
        if h not in st.current_players() and not st.orders_revealed:
            assert st.legal_actions(h) == [ReopenOrders(h)] and Information(st, h).legal_actions() == []
        steps += 1
        assert steps < 200
    assert st.orders_revealed


def test_the_combat_result_names_both_revealed_cards_and_every_contribution_w_9_3_w_9_8() -> None:
    from .conftest import combat

    st = combat(["footman"], ["knight"], "the_hound", "greatjon_umber")
    ev = next(e for e in reversed(st.log) if "combat" in e)
    summary = ev["combat"]
    assert summary["cards"] == {"lannister": "the_hound", "stark": "greatjon_umber"}
    for side in ("lannister", "stark"):
        rows = summary["parts"][side]
        assert sum(n for _label, n in rows) == summary["numbers"][side]["strength"]
        assert any(label.startswith("House card: ") for label, _n in rows)
    assert summary["winner"] in ("lannister", "stark") and "to" not in ev  # public: the cards are face up


def test_every_order_token_has_its_printed_name_w_1_6(gd: GameData) -> None:
    from boardgame.engine.actions import ORDER_LABELS, Choose, option_words, order_label

    assert set(ORDER_LABELS) == set(gd.tokens)
    assert order_label("march_plus_one") == "March +1 ★" and order_label("support") == "Support +0"
    for token, spec in gd.tokens.items():
        assert order_label(token).endswith("★") == bool(spec["special"])
    # W-4.5 Put to the Sword's options name the tokens the same way
    assert option_words("no_march_plus_one") == "no March +1 ★ orders"
    assert "march plus one" not in Choose("stark", "put_to_the_sword", "no_march_plus_one").describe()
