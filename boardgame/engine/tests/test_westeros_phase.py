"""Westeros phase (W-4): every Westeros card, Winter is Coming, wildling icons, Clash of Kings (W-14)."""

from __future__ import annotations

from typing import Any

import pytest

from boardgame.engine.actions import Bid, Muster, PlaceOrder
from boardgame.engine.game import WesterosState

from .conftest import choose, do, pending, pos

UNITS3 = {
    "winterfell": ["stark", "footman", "knight"],
    "white_harbor": ["stark", "footman"],
    "lannisport": ["lannister", "footman", "knight"],
    "lannisport_port": ["lannister", "ship"],
    "dragonstone": ["baratheon", "footman", "knight"],
    "shipbreaker_bay": ["baratheon", "ship"],
}


def westeros(
    top1: str = "last_days_of_summer",
    top2: str = "last_days_of_summer",
    top3: str = "sea_of_storms",
    **kw: Any,
) -> WesterosState:
    kw.setdefault("player_count", 3)
    kw.setdefault("units", UNITS3)
    kw.setdefault("threat", 0)
    return pos(start="westeros", round=2, westeros_top=[top1, top2, top3], **kw)


def bid_all(st: WesterosState, bids: dict[str, int]) -> None:
    for h, n in bids.items():
        do(st, Bid(h, n))


def test_round_marker_and_wildling_icons_w_4_1() -> None:
    st = westeros()  # three icon cards: Last Days of Summer x2 + Sea of Storms
    assert st.round == 2 and st.threat == 6
    assert st.phase == "planning"


def test_threat_reaching_twelve_attacks_before_the_cards_w_4_1_w_16_1() -> None:
    st = westeros(threat=8, top3="put_to_the_sword")
    assert st.threat == 12 and pending(st).kind == "bid"  # the attack comes before Put to the Sword


def test_winter_is_coming_reshuffles_and_replaces_w_4_2() -> None:
    st = westeros(top1="winter_is_coming", top2="winter_is_coming", top3="sea_of_storms", seed=4)
    assert not any(c.endswith("winter_is_coming") for c in st.revealed)
    assert len(st.revealed) == 3 and st.revealed[2] == "3:sea_of_storms"
    assert "Winter is Coming" in " ".join(e["text"] for e in st.log)


def test_supply_card_sets_levels_and_reconciles_w_4_3_w_12_2_w_12_4() -> None:
    units = dict(UNITS3)
    units["moat_cailin"] = ["stark", "footman", "footman", "footman"]
    units["the_twins"] = ["stark", "footman", "footman"]
    st = westeros(top1="supply", units=units, supply={"stark": 6})
    # Stark controls winterfell(1) white harbor(0) moat cailin(0) the twins(0) → supply 1 (3, 2)
    assert st.supply["stark"] == 1 and st.supply["lannister"] == 2 and st.supply["baratheon"] == 1
    assert pending(st).decision == "reconcile" and st.current_players() == ["stark"]
    while st.pending and pending(st).decision == "reconcile":
        choose(st, "stark", "reconcile", pending(st).options[0])
    assert st.supply_ok("stark")


def test_mustering_card_each_house_in_turn_order_w_4_3_w_13_1() -> None:
    st = westeros(top1="mustering")
    assert pending(st).kind == "muster" and st.current_players() == ["baratheon"]
    do(st, Muster("baratheon", "dragonstone", "ship", "dragonstone_port"))
    do(st, Muster("baratheon", "dragonstone", "ship", "shipbreaker_bay"))
    assert st.units["dragonstone_port"].units == ("ship",)
    assert st.current_players() == ["lannister"]
    acts = st.legal_actions("lannister")
    assert Muster("lannister", "lannisport", "knight", "lannisport") in acts
    assert all(a.area == "lannisport" for a in acts if isinstance(a, Muster))
    choose(st, "lannister", "muster_done", "done")
    assert st.current_players() == ["stark"]
    assert {a.area for a in st.legal_actions("stark") if isinstance(a, Muster)} == {
        "winterfell",
        "white_harbor",
    }


def test_mustering_respects_supply_and_unit_limits_w_13_5() -> None:
    st = westeros(
        top1="mustering",
        supply={"baratheon": 0},
        units={**UNITS3, "kingswood": ["baratheon", "footman", "footman"]},
    )
    # supply 0 allows two armies of 2: dragonstone (2) and kingswood (2) already; no room in dragonstone
    acts = [a for a in st.legal_actions("baratheon") if isinstance(a, Muster)]
    assert not [a for a in acts if a.dest == "dragonstone" and not a.upgrade]
    assert Muster("baratheon", "dragonstone", "knight", "dragonstone", True) in acts


@pytest.mark.parametrize("option", ["supply", "mustering", "nothing"])
def test_a_throne_of_blades_iron_throne_holder_chooses_w_4_3(option: str) -> None:
    st = westeros(top1="a_throne_of_blades")
    assert pending(st).decision == "throne_of_blades" and st.current_players() == [st.holder("iron_throne")]
    choose(st, st.holder("iron_throne"), "throne_of_blades", option)
    kind = pending(st).kind if st.pending else None
    assert kind == {"supply": "orders", "mustering": "muster", "nothing": "orders"}[option]


def test_last_days_of_summer_does_nothing_w_4_3() -> None:
    st = westeros(top1="last_days_of_summer", power={"stark": 2})
    assert st.power["stark"] == 2 and pending(st).kind == "orders"


def test_clash_of_kings_bids_each_track_ties_by_the_iron_throne_w_14_2_w_14_3() -> None:
    st = westeros(top2="clash_of_kings", power={"stark": 5, "lannister": 5, "baratheon": 5})
    assert pending(st).kind == "bid" and sorted(st.current_players()) == [
        "baratheon",
        "lannister",
        "stark",
    ]
    bid_all(st, {"stark": 3, "lannister": 1, "baratheon": 1})
    assert pending(st).decision == "tie_order" and st.current_players() == ["baratheon"]
    choose(st, "baratheon", "tie_order", "lannister")
    assert st.tracks["iron_throne"] == ["stark", "lannister", "baratheon"]
    assert st.power == {"stark": 2, "lannister": 4, "baratheon": 4}
    bid_all(st, {"stark": 0, "lannister": 0, "baratheon": 2})  # fiefdoms: new holder stark breaks ties
    assert st.current_players() == ["stark"]
    choose(st, "stark", "tie_order", "stark")
    assert st.tracks["fiefdoms"] == ["baratheon", "stark", "lannister"]
    bid_all(st, {"stark": 0, "lannister": 4, "baratheon": 0})
    choose(st, "stark", "tie_order", "baratheon")
    assert st.tracks["kings_court"] == ["lannister", "baratheon", "stark"]
    assert st.holder("kings_court") == "lannister"


def test_bids_are_secret_until_all_have_bid_w_20_5() -> None:
    st = westeros(top2="clash_of_kings")
    do(st, Bid("stark", 2))
    assert st.player_view("lannister")["pending"]["bids"] == {"stark": None}
    assert st.player_view("stark")["pending"]["bids"] == {"stark": 2}


def test_game_of_thrones_power_from_crowns_and_ports_w_15_1() -> None:
    st = westeros(top2="game_of_thrones", power={"stark": 0, "lannister": 0, "baratheon": 0})
    # Winterfell 1 crown; Lannisport 0 + port ship (golden sound free) 1; Dragonstone 1 crown
    assert st.power == {"stark": 1, "lannister": 1, "baratheon": 1}


@pytest.mark.parametrize("option", ["clash_of_kings", "collect_power", "nothing"])
def test_dark_wings_dark_words_raven_holder_chooses_w_4_4_w_15_2(option: str) -> None:
    st = westeros(top2="dark_wings_dark_words", power={"stark": 0, "lannister": 0, "baratheon": 0})
    holder = st.holder("kings_court")
    assert pending(st).decision == "dark_wings" and st.current_players() == [holder]
    choose(st, holder, "dark_wings", option)
    if option == "collect_power":
        assert st.power["lannister"] == 0  # no port income (W-22.1) and no crowns at Lannisport
        assert st.power["stark"] == 1
    elif option == "clash_of_kings":
        assert pending(st).kind == "bid"
    else:
        assert pending(st).kind == "orders"


def test_wildlings_attack_card_starts_an_attack_w_4_5() -> None:
    st = westeros(top3="wildlings_attack", threat=2)
    assert st.threat == 2 + 4 and pending(st).kind == "bid"


@pytest.mark.parametrize(
    "card,banned",
    [
        ("sea_of_storms", {"raid", "raid_special"}),
        ("rains_of_autumn", {"march_plus_one"}),
        ("feast_for_crows", {"consolidate_power", "consolidate_power_special"}),
        ("web_of_lies", {"support", "support_plus_one"}),
        ("storm_of_swords", {"defense_plus_one", "defense_plus_two"}),
    ],
)
def test_order_restriction_cards_ban_tokens_this_planning_w_4_5_w_5_3(card: str, banned: set[str]) -> None:
    st = westeros(top3=card)
    toks = {a.token for a in st.legal_actions("lannister") if isinstance(a, PlaceOrder)}
    assert not toks & banned and toks


@pytest.mark.parametrize(
    "option,banned",
    [
        ("no_defense_orders", {"defense_plus_one", "defense_plus_two"}),
        ("no_march_plus_one", {"march_plus_one"}),
        ("no_restriction", set()),
    ],
)
def test_put_to_the_sword_blade_holder_chooses_w_4_5(option: str, banned: set[str]) -> None:
    st = westeros(top3="put_to_the_sword")
    holder = st.holder("fiefdoms")
    assert pending(st).decision == "put_to_the_sword" and st.current_players() == [holder]
    choose(st, holder, "put_to_the_sword", option)
    assert set(st.bans) == banned
