"""Wildling attacks (W-16): outcome, threat, bidders and every wildling card."""

from __future__ import annotations

from typing import Any

from boardgame.engine.actions import Bid, Muster
from boardgame.engine.game import WesterosState
from boardgame.engine.structures import Units

from .conftest import STARK_CARDS_BUT_EDDARD, choose, do, pending, pos

UNITS = {
    "winterfell": ["stark", "footman", "knight"],
    "white_harbor": ["stark", "knight"],
    "lannisport": ["lannister", "footman", "knight"],
    "stoney_sept": ["lannister", "footman"],
    "dragonstone": ["baratheon", "footman", "knight"],
    "kingswood": ["baratheon", "footman"],
}


def attack(card: str, threat: int = 6, **kw: Any) -> WesterosState:
    kw.setdefault("player_count", 3)
    kw.setdefault("units", UNITS)
    kw.setdefault("power", {"stark": 5, "lannister": 5, "baratheon": 5})
    kw.setdefault("wildling_top", [card])
    return pos(start="wildling_attack", threat=threat, **kw)


def bids(st: WesterosState, b: dict[str, int]) -> WesterosState:
    for h, n in b.items():
        do(st, Bid(h, n))
    return st


def stark_outbids_with_eddard_discarded(card: str) -> WesterosState:
    """The Night's Watch beats `card` (threat 2), Stark the highest bidder with Eddard Stark in its discard
    pile (W-16.8)."""
    st = attack(
        card, threat=2, discards={"stark": ["eddard_stark"]}, hands={"stark": list(STARK_CARDS_BUT_EDDARD)}
    )
    return bids(st, {"stark": 3, "lannister": 0, "baratheon": 0})


def test_nights_watch_wins_on_equal_strength_and_threat_resets_w_16_4_w_16_5() -> None:
    st = bids(attack("silence_at_the_wall", threat=6), {"stark": 2, "lannister": 2, "baratheon": 2})
    assert st.threat == 0 and st.power == {"stark": 3, "lannister": 3, "baratheon": 3}
    assert "Night's Watch win" in " ".join(e["text"] for e in st.log)
    assert st.wildling_deck[-1] == "silence_at_the_wall"  # W-16.7 under the deck


def test_wildlings_win_below_threat_and_it_drops_two_spaces_w_16_5() -> None:
    st = bids(attack("silence_at_the_wall", threat=8), {"stark": 2, "lannister": 2, "baratheon": 3})
    assert st.threat == 4


def test_bidder_ties_are_broken_by_the_iron_throne_holder_w_16_6() -> None:
    st = bids(attack("mammoth_riders", threat=12), {"stark": 0, "lannister": 0, "baratheon": 3})
    assert pending(st).decision == "wildling_tie" and st.current_players() == ["baratheon"]
    assert sorted(pending(st).options) == ["lannister", "stark"]
    choose(st, "baratheon", "wildling_tie", "stark")
    assert pending(st).decision == "destroy" and st.current_players() == ["stark"]


def test_a_king_beyond_the_wall_all_outcomes_w_16_8() -> None:
    st = bids(attack("a_king_beyond_the_wall", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    assert st.tracks["iron_throne"][-1] == "stark" and st.tracks["fiefdoms"][-1] == "stark"
    assert st.tracks["kings_court"][-1] == "stark"
    # everyone else, in turn order, drops to the bottom of Fiefdoms or King's Court
    assert st.current_players() == ["baratheon"]
    choose(st, "baratheon", "kbw_track", "fiefdoms")
    choose(st, "lannister", "kbw_track", "kings_court")
    assert st.tracks["fiefdoms"][-1] == "baratheon" and st.tracks["kings_court"][-1] == "lannister"
    st = bids(attack("a_king_beyond_the_wall", threat=2), {"stark": 3, "lannister": 0, "baratheon": 0})
    choose(st, "stark", "kbw_reward", "iron_throne")
    assert st.holder("iron_throne") == "stark"


def test_crow_killers_all_outcomes_w_16_8() -> None:
    st = bids(attack("crow_killers", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    while pending(st).decision == "crow_knight" and st.current_players() == ["stark"]:
        choose(st, "stark", "crow_knight", pending(st).options[0])
    assert not any("knight" in u.units for u in st.units.values() if u.house == "stark")
    choose(st, "baratheon", "crow_knight", "dragonstone")
    assert st.units["dragonstone"].units.count("footman") == 2
    choose(st, "lannister", "crow_knight", "lannisport")
    st = bids(attack("crow_killers", threat=2), {"stark": 3, "lannister": 0, "baratheon": 0})
    choose(st, "stark", "crow_reward", "winterfell")
    assert sorted(st.units["winterfell"].units) == ["knight", "knight"]


def test_massing_on_the_milkwater_all_outcomes_w_16_8() -> None:
    st = bids(attack("massing_on_the_milkwater", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    assert "eddard_stark" in st.discards["stark"] and len(st.hands["stark"]) == 6
    choose(st, "baratheon", "discard_card", "patchface")
    choose(st, "lannister", "discard_card", "cersei_lannister")
    assert st.discards["baratheon"] == ["patchface"]
    st = stark_outbids_with_eddard_discarded("massing_on_the_milkwater")
    assert len(st.hands["stark"]) == 7 and st.discards["stark"] == []


def test_mammoth_riders_all_outcomes_w_16_8() -> None:
    st = bids(attack("mammoth_riders", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    for _ in range(3):
        choose(st, "stark", "destroy", pending(st).options[0])
    assert not any(u.house == "stark" for u in st.units.values())
    for h in ("baratheon", "lannister"):
        for _ in range(2):
            choose(st, h, "destroy", pending(st).options[0])
    st = stark_outbids_with_eddard_discarded("mammoth_riders")
    choose(st, "stark", "mammoth_reward", "eddard_stark")
    assert "eddard_stark" in st.hands["stark"]


def test_preemptive_raid_all_outcomes_w_16_8() -> None:
    st = bids(attack("preemptive_raid", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    assert pending(st).decision == "preemptive" and st.current_players() == ["stark"]
    choose(st, "stark", "preemptive", "drop_tracks")
    # Stark stands highest on Fiefdoms (position 1 of 3): two places down is the bottom
    assert st.tracks["fiefdoms"] == ["baratheon", "lannister", "stark"]
    st = bids(
        attack("preemptive_raid", threat=2, wildling_top=["preemptive_raid", "silence_at_the_wall"]),
        {"stark": 3, "lannister": 0, "baratheon": 0},
    )
    # a new attack of strength 6 without the highest bidder
    assert pending(st).kind == "bid" and sorted(st.current_players()) == ["baratheon", "lannister"]
    bids(st, {"lannister": 3, "baratheon": 3})
    assert st.threat == 0 and st.power["lannister"] == 2


def test_rattleshirts_raiders_all_outcomes_w_16_8() -> None:
    st = bids(
        attack("rattleshirts_raiders", threat=12, supply={"stark": 3, "lannister": 3, "baratheon": 0}),
        {"stark": 0, "lannister": 1, "baratheon": 2},
    )
    assert st.supply == {"stark": 1, "lannister": 2, "baratheon": 0}
    st = bids(
        attack("rattleshirts_raiders", threat=2, supply={"stark": 6}),
        {"stark": 3, "lannister": 0, "baratheon": 0},
    )
    assert st.supply["stark"] == 6


def test_silence_at_the_wall_does_nothing_w_16_8() -> None:
    st = bids(attack("silence_at_the_wall", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    assert pending(st).kind == "orders" and st.power == {"stark": 5, "lannister": 4, "baratheon": 3}


def test_skinchanger_scout_all_outcomes_w_16_8() -> None:
    st = bids(attack("skinchanger_scout", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    assert st.power == {"stark": 0, "lannister": 2, "baratheon": 1}
    st = bids(attack("skinchanger_scout", threat=2), {"stark": 3, "lannister": 0, "baratheon": 0})
    assert st.power["stark"] == 5


def test_the_horde_descends_all_outcomes_w_16_8() -> None:
    st = bids(attack("the_horde_descends", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    # W-16.8: only a castle area holding 2 of its units qualifies (White Harbor has one knight)
    assert pending(st).decision == "horde_area" and pending(st).options == ["winterfell"]
    choose(st, "stark", "horde_area", "winterfell")
    choose(st, "stark", "destroy", "winterfell:knight")
    choose(st, "stark", "destroy", "winterfell:footman")
    assert "winterfell" not in st.units
    choose(st, "baratheon", "destroy", "kingswood:footman")
    choose(st, "lannister", "destroy", "stoney_sept:footman")
    st = bids(attack("the_horde_descends", threat=2), {"stark": 3, "lannister": 0, "baratheon": 0})
    choose(st, "stark", "horde_reward", "winterfell")
    do(st, Muster("stark", "winterfell", "knight", "winterfell"))
    assert st.units["winterfell"].units.count("knight") == 2


def test_units_destroyed_by_wildlings_leave_the_area_uncontrolled_w_16_9_w_8_4() -> None:
    st = bids(attack("mammoth_riders", threat=12), {"stark": 0, "lannister": 1, "baratheon": 2})
    choose(st, "stark", "destroy", "white_harbor:knight")
    assert st.control("white_harbor") is None and st.castle_count("stark") == 1


def test_the_horde_descends_without_a_castle_area_of_two_destroys_anywhere_w_16_8() -> None:
    units = {**UNITS, "winterfell": ["stark", "knight"], "castle_black": ["stark", "footman", "footman"]}
    st = bids(
        attack("the_horde_descends", threat=12, units=units), {"stark": 0, "lannister": 1, "baratheon": 2}
    )
    assert pending(st).decision == "destroy" and pending(st).area is None
    choose(st, "stark", "destroy", "castle_black:footman")
    choose(st, "stark", "destroy", "winterfell:knight")
    assert st.current_players() == ["baratheon"]


def test_crow_killers_swaps_keep_the_routed_state_w_16_8_w_9_10_5() -> None:
    units = {**UNITS, "white_harbor": ["stark", "routed knight"]}
    st = bids(attack("crow_killers", threat=12, units=units), {"stark": 0, "lannister": 1, "baratheon": 2})
    choose(st, "stark", "crow_knight", "white_harbor")
    assert st.units["white_harbor"] == Units("stark", (), ("footman",))
