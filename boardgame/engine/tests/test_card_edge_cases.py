"""Card edge cases: Robb Stark as defender (W-9.10.2, W-17.1), the Iron Throne order of card texts on the
same units (W-9.5), and the W-22 Decisions 9-13 (Doran, Mace, Arianne, Massing on the Milkwater, support)
as behaviour or switches."""

from __future__ import annotations

from boardgame.engine.actions import Bid, DeclareSupport
from boardgame.engine.config import RulesConfig
from boardgame.engine.game import WesterosState
from boardgame.engine.structures import Units, need

from .conftest import choose, combat, combat_of, march_on_harrenhal, pending
from .test_wildlings import attack


# ---------------------------------------------------------------- W-9.10.2 / W-17.1 Robb Stark defending
def robb_defends() -> WesterosState:
    """A Lannister footman from Stoney Sept loses to Robb Stark defending Harrenhal (3+3 vs 1+2)."""
    st = combat(["footman"], ["footman", "knight"], "ser_jaime_lannister", "robb_stark")
    assert combat_of(st).winner == "stark" and combat_of(st).loser == "lannister"
    return st


def test_defending_robb_stark_picks_where_the_attacker_retreats_w_9_10_2() -> None:
    st = robb_defends()
    assert pending(st).decision == "robb_retreat" and st.current_players() == ["stark"]
    # every legal area next to Harrenhal, the attacker's origin included
    assert pending(st).options == ["blackwater", "crackclaw_point", "riverrun", "stoney_sept"]
    choose(st, "stark", "robb_retreat", "riverrun")
    assert st.units["riverrun"] == Units("lannister", (), ("footman",))
    assert "stoney_sept" not in st.units and st.units["harrenhal"].house == "stark"


def test_defending_robb_stark_may_send_the_attacker_home_w_9_10_2() -> None:
    st = robb_defends()
    choose(st, "stark", "robb_retreat", "stoney_sept")
    assert st.units["stoney_sept"].routed == ("footman",)


def test_defending_robb_stark_cannot_pick_an_enemy_area_w_9_10_3() -> None:
    st = combat(
        ["footman"],
        ["footman", "knight"],
        "ser_jaime_lannister",
        "robb_stark",
        extra_units={"riverrun": ["baratheon", "footman"]},
    )
    assert "riverrun" not in pending(st).options and "stoney_sept" in pending(st).options


# ---------------------------------------------------------------- W-9.5 Salladhor Saan and Victarion
def victarion_against_salladhor(iron_throne: list[str]) -> WesterosState:
    """Two Greyjoy ships with Victarion attack a Baratheon ship in Shipbreaker Bay; Baratheon plays
    Salladhor Saan, supported by its own ship in the Narrow Sea."""
    st = combat(
        ["ship", "ship"],
        ["ship"],
        None,
        None,
        att="greyjoy",
        dfn="baratheon",
        src="blackwater_bay",
        dest="shipbreaker_bay",
        extra_units={"the_narrow_sea": ["baratheon", "ship"]},
        orders={"the_narrow_sea": "support"},
        supports={"baratheon": "baratheon"},
        tracks={"iron_throne": iron_throne},
    )
    combat_of(st).cards = {"greyjoy": "victarion_greyjoy", "baratheon": "salladhor_saan"}
    return st


def test_salladhor_after_victarion_on_the_iron_throne_zeroes_the_ships_w_9_5() -> None:
    st = victarion_against_salladhor(["greyjoy", "baratheon", "lannister", "stark", "martell", "tyrell"])
    assert st.combat_numbers()["greyjoy"]["strength"] == 0 + 0 + 3  # Salladhor applies last: ships 0


def test_victarion_after_salladhor_on_the_iron_throne_doubles_the_ships_w_9_5() -> None:
    st = victarion_against_salladhor(["baratheon", "greyjoy", "lannister", "stark", "martell", "tyrell"])
    assert st.combat_numbers()["greyjoy"]["strength"] == 2 + 2 + 3  # Victarion applies last: ships 2


# ---------------------------------------------------------------- W-22 Decisions
def test_doran_moving_the_acting_house_keeps_the_old_turn_position_w_22_9() -> None:
    it = ["lannister", "stark", "baratheon", "greyjoy", "tyrell", "martell"]
    st = combat(
        ["footman"],
        ["footman"],
        "ser_jaime_lannister",
        "doran_martell",
        dfn="martell",
        extra_units={"winterfell": ["stark", "footman"], "dragonstone": ["baratheon", "footman"]},
        orders={"winterfell": "march", "dragonstone": "march"},
        tracks={"iron_throne": it},
    )
    choose(st, "martell", "doran", "iron_throne")
    assert st.tracks["iron_throne"] == ["stark", "baratheon", "greyjoy", "tyrell", "martell", "lannister"]
    while st.pending is not None and st.pending.kind == "choose":  # retreat, casualties ...
        choose(st, st.current_players()[0], need(pending(st).decision), pending(st).options[0])
    # Lannister acted from position 1: play goes on with position 2, now Baratheon (Stark waits a lap)
    assert pending(st).kind == "march_select" and st.current_players() == ["baratheon"]


def test_mace_killing_the_last_defender_still_resolves_the_combat_w_22_10() -> None:
    # Tyrell 1 + Mace 4 = 5 against Winterfell's garrison 2 + Eddard 4 = 6: the emptied area still wins.
    st = combat(
        ["footman"],
        ["footman"],
        "mace_tyrell",
        "eddard_stark",
        att="tyrell",
        src="castle_black",
        dest="winterfell",
        garrisons={"winterfell": 2},
    )
    text = " ".join(e["text"] for e in st.log)
    assert "Mace Tyrell destroys a defending Stark footman" in text and "Stark wins the combat" in text
    # Eddard's two swords destroy the attacker; the empty Winterfell stays Stark's
    assert "castle_black" not in st.units and "winterfell" not in st.units
    assert st.control("winterfell") == "stark"


def arianne_defends_with_a_token(config: RulesConfig | None = None) -> WesterosState:
    st = combat(
        ["knight", "knight"],
        ["footman"],
        "ser_gregor_clegane",
        "arianne_martell",
        dfn="martell",
        tokens={"harrenhal": "martell"},
        config=(config or RulesConfig()).to_dict(),
    )
    if st.pending and pending(st).decision == "casualty":
        choose(st, "martell", "casualty", "footman")
    return st


def test_arianne_defending_with_a_power_token_keeps_it_w_22_11() -> None:
    st = arianne_defends_with_a_token()
    assert st.tokens.get("harrenhal") == "martell" and st.control("harrenhal") == "martell"
    assert st.units["stoney_sept"].units == ("knight", "knight")


def test_arianne_power_token_switch_removes_it_w_22_11() -> None:
    st = arianne_defends_with_a_token(RulesConfig(arianne_keeps_power_token=False))
    assert "harrenhal" not in st.tokens and st.control("harrenhal") is None


def milkwater_with_equal_cards(config: RulesConfig | None = None) -> WesterosState:
    st = attack(
        "massing_on_the_milkwater",
        threat=12,
        hands={"stark": ["ser_rodrik_cassel", "the_blackfish"]},
        discards={"stark": ["eddard_stark"]},
        config=(config or RulesConfig()).to_dict(),
    )
    for h, n in {"stark": 0, "lannister": 1, "baratheon": 2}.items():
        st.apply(Bid(h, n))
    return st


def test_massing_on_the_milkwater_never_empties_the_hand_w_22_12() -> None:
    st = milkwater_with_equal_cards()
    assert st.hands["stark"] == ["ser_rodrik_cassel", "the_blackfish"] and st.discards["stark"] == [
        "eddard_stark"
    ]


def test_massing_on_the_milkwater_printed_text_switch_w_22_12_w_17_2() -> None:
    st = milkwater_with_equal_cards(RulesConfig(milkwater_keeps_one_card=False))
    assert st.discards["stark"] == ["ser_rodrik_cassel", "the_blackfish"]
    assert st.hands["stark"] == ["eddard_stark"]  # the emptied hand takes back the rest of the pile


def test_a_supporter_may_back_either_side_w_22_13() -> None:
    st = march_on_harrenhal({"riverrun": ["stark", "footman"]})
    assert set(st.legal_actions("stark")) == {
        DeclareSupport("stark", "lannister"),
        DeclareSupport("stark", "stark"),
        DeclareSupport("stark", "none"),
    }
