"""Set-up (W-2), data loading, planning phase (W-5) and the Messenger Raven (W-5.5)."""

from __future__ import annotations

import json

import pytest

from boardgame.engine.actions import Choose, FinishOrders, PlaceOrder, RavenSwap, RemoveOrder
from boardgame.engine.data import DEFAULT_DATA_DIR, FILE_STEMS, GameData, GameDataError
from boardgame.engine.game import ROUND_STRUCTURE, IllegalActionError, WesterosState, houses_in_play, new_game
from boardgame.engine.structures import Units

from .conftest import choose, do, pending, pos


def finish_planning(st: WesterosState, skip: tuple[str, ...] = ()) -> WesterosState:
    """Every house places its first legal token everywhere, then finishes."""
    for h in list(st.current_players()):
        if h in skip:
            continue
        while True:
            acts = st.legal_actions(h)
            place = [a for a in acts if isinstance(a, PlaceOrder)]
            if not place:
                do(st, FinishOrders(h))
                break
            do(st, place[0])
    return st


def test_game_data_comes_from_one_dict_keyed_by_file_stem(gd: GameData) -> None:
    d = {stem: json.loads((DEFAULT_DATA_DIR / f"{stem}.json").read_text()) for stem in FILE_STEMS}
    data = GameData.from_dict(d)
    assert len(data.areas) == 58 and len(data.castle_areas) == 20
    assert sum(len(v) for v in data.westeros_decks.values()) == 30
    with pytest.raises(GameDataError, match="wildling_cards"):
        GameData.from_dict({k: v for k, v in d.items() if k != "wildling_cards"})


def test_a_running_game_keeps_the_data_it_started_with(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=1)
    d = st.to_dict()
    assert d["game_data"]["map"]["counts"] == gd.raw["map"]["counts"]


@pytest.mark.parametrize("n,houses", [(3, 3), (4, 4), (5, 5), (6, 6)])
def test_setup_by_player_count_w_1_1_w_2(gd: GameData, n: int, houses: int) -> None:
    st = new_game(gd, player_count=n, seed=5)
    assert len(st.houses) == houses
    assert st.round == 1 and st.threat == 2  # W-2.5
    assert st.phase == "planning"  # W-3.1: round 1 skips the Westeros phase
    assert all(st.power[h] == 5 for h in st.houses)  # W-2.2
    assert st.supply["stark"] == 1 and all(st.supply[h] == 2 for h in st.houses if h != "stark")
    assert all(len(st.hands[h]) == 7 for h in st.houses)
    assert st.castle_count("stark") == 2 and all(st.castle_count(h) == 1 for h in st.houses if h != "stark")
    assert set(st.garrisons) == {st.data.raw["setup"]["houses"][h]["home_area"] for h in st.houses}  # W-2.4
    assert st.neutral["kings_landing"] == 5 and st.neutral["the_eyrie"] == 6
    assert sorted(st.current_players()) == sorted(st.houses)  # W-3.3 simultaneous orders
    for t in ("iron_throne", "fiefdoms", "kings_court"):
        assert sorted(st.tracks[t]) == sorted(st.houses)


def test_three_players_have_impassable_south_and_keep_lannister_port_ship_w_2_4_w_22_7(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    assert "highgarden" in st.impassable and "sunspear_port" in st.impassable
    assert st.units["lannisport_port"] == Units("lannister", ("ship",), ())
    assert st.tracks["iron_throne"] == ["baratheon", "lannister", "stark"]  # W-2.3 closing up


def test_four_players_have_numbered_neutral_forces_w_2_4(gd: GameData) -> None:
    st = new_game(gd, player_count=4, seed=0)
    assert st.neutral["storms_end"] == 4 and st.neutral["sunspear"] == 5 and not st.impassable


def test_six_player_start_units_w_2_1(gd: GameData) -> None:
    st = new_game(gd, player_count=6, seed=0)
    assert sorted(st.units["winterfell"].units) == ["footman", "knight"]
    assert st.units["shipbreaker_bay"].units == ("ship", "ship")
    assert st.units["pyke_port"].house == "greyjoy"


def test_seed_makes_setup_deterministic_w_2_5(gd: GameData) -> None:
    a, b, c = (new_game(gd, player_count=6, seed=s) for s in (1, 1, 2))
    assert a.to_dict() == b.to_dict()
    assert a.wdecks != c.wdecks or a.wildling_deck != c.wildling_deck


def test_turn_structure_is_declared_as_data_style_6() -> None:
    assert [p for p, _ in ROUND_STRUCTURE] == ["westeros", "planning", "action"]
    steps = [str(s) for _, st in ROUND_STRUCTURE for s, _w in st]
    assert steps.index("raids") < steps.index("marches") < steps.index("consolidate") < steps.index("cleanup")


def test_orders_go_on_every_area_with_units_including_ports_w_5_1(gd: GameData) -> None:
    st = new_game(gd, player_count=6, seed=0)
    areas = {a.area for a in st.legal_actions("lannister") if isinstance(a, PlaceOrder)}
    assert areas == {"lannisport", "stoney_sept", "the_golden_sound", "lannisport_port"}
    assert FinishOrders("lannister") not in st.legal_actions("lannister")
    with pytest.raises(IllegalActionError, match="finish_orders"):
        st.apply(FinishOrders("lannister"))


def test_special_orders_limited_by_kings_court_w_5_2(gd: GameData) -> None:
    st = new_game(gd, player_count=6, seed=0)
    assert st.tracks["kings_court"][-1] == "greyjoy"
    toks = {a.token for a in st.legal_actions("greyjoy") if isinstance(a, PlaceOrder)}
    assert "march_plus_one" not in toks and "raid" in toks  # position 6: no star orders
    bar = st.tracks["kings_court"].index("baratheon")
    assert st.star_limit("baratheon") == [3, 3, 2, 1, 0, 0][bar] == 1
    do(st, PlaceOrder("baratheon", "dragonstone", "defense_plus_two"))
    toks = {a.token for a in st.legal_actions("baratheon") if isinstance(a, PlaceOrder)}
    assert not toks & {"march_plus_one", "support_plus_one", "raid_special", "consolidate_power_special"}


def test_banned_orders_cannot_be_placed_and_short_houses_leave_areas_empty_w_5_3_w_22_3() -> None:
    bans = [
        t
        for t in (
            "march_minus_one",
            "march_plus_one",
            "defense_plus_one",
            "defense_plus_two",
            "support",
            "support_plus_one",
            "raid",
            "raid_special",
            "consolidate_power",
            "consolidate_power_special",
        )
    ]
    st = pos(units={"winterfell": ["stark", "footman"], "white_harbor": ["stark", "footman"]}, bans=bans)
    acts = st.legal_actions("stark")
    assert {a.token for a in acts if isinstance(a, PlaceOrder)} == {"march"}
    do(st, PlaceOrder("stark", "winterfell", "march"))
    # W-5.3 Decision: the rest stay empty (the placed order may still be taken back, W-5.1)
    assert st.legal_actions("stark") == [FinishOrders("stark"), RemoveOrder("stark", "winterfell")]


def test_orders_are_hidden_until_revealed_w_20_1_w_5_4(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    do(st, PlaceOrder("stark", "winterfell", "march_plus_one"))
    view = st.player_view("lannister")
    assert view["orders"]["winterfell"] == ["stark", None]
    assert st.player_view("stark")["orders"]["winterfell"] == ["stark", "march_plus_one"]
    assert "march_plus_one" not in json.dumps(st.player_view(None)["log"])
    finish_planning(st)
    assert st.orders_revealed
    assert st.player_view("lannister")["orders"]["winterfell"] == ["stark", "march_plus_one"]


def test_raven_swaps_an_order_for_an_unused_legal_one_w_5_5(gd: GameData) -> None:
    st = finish_planning(new_game(gd, player_count=3, seed=0))
    holder = st.holder("kings_court")
    assert st.current_players() == [holder] and pending(st).kind == "raven"
    area, (_h, old) = next((a, o) for a, o in st.orders.items() if o[0] == holder)
    new = next(a for a in st.legal_actions(holder) if isinstance(a, RavenSwap) and a.area == area)
    do(st, new)
    assert st.orders.get(area, [None, None])[1] in (new.token, None) and st.raven_used


def test_raven_look_is_private_and_bury_moves_card_to_bottom_w_5_5_w_20_4(gd: GameData) -> None:
    st = finish_planning(new_game(gd, player_count=3, seed=0))
    holder = st.holder("kings_court")
    top = st.wildling_deck[0]
    do(st, Choose(holder, "raven", "look"))
    assert st.player_view(holder)["raven_knows"]["card"] == top
    other = next(h for h in st.houses if h != holder)
    assert st.player_view(other)["raven_knows"]["card"] is None
    assert top not in json.dumps(st.player_view(other)["log"])
    choose(st, holder, "raven_bury", "bottom")
    assert st.wildling_deck[-1] == top


def test_all_houses_owe_orders_at_once_w_3_3(gd: GameData) -> None:
    st = new_game(gd, player_count=4, seed=0)
    finish_planning(st, skip=("stark",))
    assert st.current_players() == ["stark"]


def test_perft_style_legal_action_counts_at_the_six_player_start_style_14(gd: GameData) -> None:
    st = new_game(gd, player_count=6, seed=0)
    counts = {h: len(st.legal_actions(h)) for h in st.houses}
    # areas with units x distinct legal token ids (11 with a star allowed, 6 without)
    assert counts == {
        "stark": 3 * 11,
        "lannister": 4 * 11,
        "baratheon": 3 * 11,
        "greyjoy": 4 * 6,
        "tyrell": 3 * 6,
        "martell": 3 * 11,
    }


def test_houses_in_play_are_those_a_new_game_seats_w_1_1(gd: GameData) -> None:
    assert houses_in_play(gd, 3) == ["stark", "lannister", "baratheon"]
    for n in range(3, 7):
        assert new_game(gd, player_count=n).houses == houses_in_play(gd, n)
    with pytest.raises(ValueError, match="player_count must be 3-6"):
        houses_in_play(gd, 7)
