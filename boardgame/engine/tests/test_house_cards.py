"""Every house card with text (W-17.1, timing W-9.5); cards without text: test_combat.py."""

from __future__ import annotations

from typing import Any

from boardgame.engine.actions import ChooseMarch, EndMarch, MarchMove, PlayHouseCard
from boardgame.engine.game import WesterosState
from boardgame.engine.structures import Order, Units

from .conftest import STARK_CARDS_BUT_EDDARD, choose, combat, combat_of, do, pending


def numbers(st: WesterosState) -> tuple[int, ...]:
    return tuple(next(e["numbers"] for e in reversed(st.log) if "numbers" in e))


def won(st: WesterosState, house: str) -> bool:
    return f"{house.title()} wins" in next(e["text"] for e in reversed(st.log) if "numbers" in e)


# ---------------------------------------------------------------- Stark
def test_robb_stark_picks_the_losers_retreat_area_w_17_1() -> None:
    st = combat(["knight"], ["footman"], "robb_stark", "tywin_lannister", att="stark", dfn="lannister")
    assert won(st, "stark")
    assert pending(st).decision == "robb_retreat" and st.current_players() == ["stark"]
    choose(st, "stark", "robb_retreat", "blackwater")
    assert st.units["blackwater"] == Units("lannister", (), ("footman",))


def test_roose_bolton_on_loss_takes_back_the_whole_discard_pile_w_17_1() -> None:
    st = combat(
        ["knight", "knight"],
        ["footman"],
        "ser_gregor_clegane",
        "roose_bolton",
        discards={"stark": ["eddard_stark"]},
        hands={"stark": list(STARK_CARDS_BUT_EDDARD)},
    )
    assert won(st, "lannister")
    assert st.discards["stark"] == [] and len(st.hands["stark"]) == 7


def test_the_blackfish_prevents_sword_casualties_w_17_3() -> None:
    st = combat(
        ["knight", "knight"],
        ["footman", "footman"],
        "ser_gregor_clegane",
        "the_blackfish",
        supply={"stark": 3},
    )
    assert won(st, "lannister")
    assert pending(st).decision == "retreat"  # no casualty step despite 3 swords
    choose(st, "stark", "retreat", "riverrun")
    assert st.units["riverrun"].routed == ("footman", "footman")


def test_catelyn_doubles_the_defense_order_w_17_1() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "ser_jaime_lannister",
        "catelyn_stark",
        orders={"harrenhal": "defense_plus_two"},
    )
    assert numbers(st) == (2 + 2, 1 + 4)


# ---------------------------------------------------------------- Lannister
def test_tywin_gains_two_power_on_win_w_17_1() -> None:
    st = combat(["knight"], ["footman"], "tywin_lannister", "catelyn_stark", power={"lannister": 3})
    assert won(st, "lannister") and st.power["lannister"] == 5


def test_ser_kevan_doubles_attacking_and_supporting_lannister_footmen_w_17_1() -> None:
    st = combat(
        ["footman", "footman"],
        ["knight"],
        "ser_kevan_lannister",
        "catelyn_stark",
        extra_units={"blackwater": ["lannister", "footman"]},
        orders={"blackwater": "support"},
        supports={"lannister": "lannister"},
    )
    assert numbers(st)[0] == 2 * 2 + 2 + 1


def test_tyrion_cancels_the_opponents_card_w_17_1_w_9_5() -> None:
    st = combat(["knight"], ["footman"], "tyrion_lannister", "eddard_stark")
    assert pending(st).decision == "tyrion"
    choose(st, "lannister", "tyrion", "cancel")
    assert st.current_players() == ["stark"]
    assert PlayHouseCard("stark", "eddard_stark") not in st.legal_actions("stark")
    do(st, PlayHouseCard("stark", "catelyn_stark"))
    assert numbers(st) == (2 + 1, 1)
    choose(st, "stark", "retreat", "riverrun")
    assert "eddard_stark" in st.hands["stark"] and "catelyn_stark" in st.discards["stark"]


def test_cersei_removes_one_order_of_the_loser_on_win_w_17_1() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "cersei_lannister",
        "catelyn_stark",
        extra_units={"winterfell": ["stark", "footman"]},
        orders={"winterfell": "consolidate_power"},
    )
    assert pending(st).decision == "cersei" and "winterfell" in pending(st).options
    choose(st, "lannister", "cersei", "winterfell")
    assert "winterfell" not in st.orders


# ---------------------------------------------------------------- Baratheon
def test_stannis_gets_plus_one_if_the_opponent_is_higher_on_the_iron_throne_w_17_1() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        att="baratheon",
        dfn="stark",
        tracks={"iron_throne": ["stark", "lannister", "baratheon", "martell", "greyjoy", "tyrell"]},
    )
    combat_of(st).cards = {"baratheon": "stannis_baratheon", "stark": None}
    assert st.combat_numbers()["baratheon"]["strength"] == 1 + 5
    st.tracks["iron_throne"] = ["baratheon", "stark", "lannister", "martell", "greyjoy", "tyrell"]
    assert st.combat_numbers()["baratheon"]["strength"] == 1 + 4


def test_renly_upgrades_a_footman_on_win_w_17_1() -> None:
    st = combat(["footman", "knight"], ["footman"], "renly_baratheon", "catelyn_stark", att="baratheon")
    assert pending(st).decision == "renly"
    choose(st, "baratheon", "renly", "attacking_units")
    if st.pending and pending(st).decision == "retreat":
        choose(st, "stark", "retreat", "riverrun")
    assert sorted(st.units["harrenhal"].units) == ["knight", "knight"]


def test_ser_davos_with_stannis_discarded_w_17_1() -> None:
    st = combat(
        ["footman"], ["footman"], None, None, att="baratheon", discards={"baratheon": ["stannis_baratheon"]}
    )
    combat_of(st).cards = {"baratheon": "ser_davos_seaworth", "stark": None}
    assert st.combat_numbers()["baratheon"] == {"strength": 1 + 3, "swords": 1, "forts": 0}


def test_salladhor_saan_zeroes_other_ships_when_supported_w_17_1() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        att="baratheon",
        dfn="stark",
        src="kingswood",
        dest="kings_landing",
        neutral={},
        extra_units={"crackclaw_point": ["baratheon", "footman"], "blackwater_bay": ["greyjoy", "ship"]},
        orders={"crackclaw_point": "support", "blackwater_bay": "support"},
        supports={"baratheon": "baratheon", "greyjoy": "stark"},
    )
    combat_of(st).cards = {"baratheon": "salladhor_saan", "stark": None}
    n = st.combat_numbers()
    assert n["stark"]["strength"] == 1 + 0 and n["baratheon"]["strength"] == 1 + 1 + 1
    combat_of(st).cards = {"baratheon": None, "stark": None}
    assert st.combat_numbers()["stark"]["strength"] == 1 + 1


def test_patchface_discards_a_card_from_the_opponents_hand_after_combat_w_17_1() -> None:
    st = combat(["knight"], ["footman"], "patchface", "catelyn_stark", att="baratheon")
    if st.pending and pending(st).decision == "retreat":
        choose(st, "stark", "retreat", "riverrun")
    assert pending(st).decision == "patchface" and "eddard_stark" in pending(st).options
    choose(st, "baratheon", "patchface", "eddard_stark")
    assert "eddard_stark" in st.discards["stark"] and "eddard_stark" not in st.hands["stark"]


# ---------------------------------------------------------------- Greyjoy
def victarion_attacks(ships: list[str], **kw: Any) -> WesterosState:
    """Greyjoy ships sail from Ironman's Bay on a Lannister ship in the Golden Sound, Victarion against no
    card (W-17.1)."""
    st = combat(
        ships,
        ["ship"],
        None,
        None,
        att="greyjoy",
        dfn="lannister",
        src="ironmans_bay",
        dest="the_golden_sound",
        **kw,
    )
    combat_of(st).cards = {"greyjoy": "victarion_greyjoy", "lannister": None}
    return st


def test_victarion_doubles_attacking_greyjoy_ships_w_17_1() -> None:
    st = victarion_attacks(["ship", "ship"])
    assert st.combat_numbers()["greyjoy"]["strength"] == 2 * 2 + 3


def test_theon_defending_a_castle_gets_plus_one_and_a_sword_w_17_1() -> None:
    st = combat(["footman"], ["footman"], None, None, dfn="greyjoy")  # harrenhal has a castle
    combat_of(st).cards = {"lannister": None, "greyjoy": "theon_greyjoy"}
    assert st.combat_numbers()["greyjoy"] == {"strength": 1 + 3, "swords": 1, "forts": 0}


def test_balon_sets_the_opponents_printed_strength_to_zero_w_17_1() -> None:
    st = combat(["footman"], ["footman"], None, None, dfn="greyjoy")
    combat_of(st).cards = {"lannister": "ser_gregor_clegane", "greyjoy": "balon_greyjoy"}
    n = st.combat_numbers()
    assert n["lannister"] == {"strength": 1, "swords": 3, "forts": 0} and n["greyjoy"]["strength"] == 3


def test_asha_unsupported_gets_two_swords_and_a_fort_w_17_1() -> None:
    st = combat(["footman"], ["footman"], None, None, att="greyjoy")
    combat_of(st).cards = {"greyjoy": "asha_greyjoy", "stark": None}
    assert st.combat_numbers()["greyjoy"] == {"strength": 2, "swords": 2, "forts": 1}


def test_aeron_may_pay_two_power_to_switch_cards_w_17_1() -> None:
    st = combat(
        ["knight"], ["footman"], "aeron_damphair", "catelyn_stark", att="greyjoy", power={"greyjoy": 3}
    )
    assert pending(st).decision == "aeron"
    choose(st, "greyjoy", "aeron", "swap")
    assert st.power["greyjoy"] == 1 and PlayHouseCard("greyjoy", "aeron_damphair") not in st.legal_actions(
        "greyjoy"
    )
    do(st, PlayHouseCard("greyjoy", "euron_crows_eye"))
    choose(st, "greyjoy", "blade", "pass")
    assert numbers(st) == (2 + 4, 1)
    assert "aeron_damphair" in st.discards["greyjoy"]


# ---------------------------------------------------------------- Tyrell
def test_mace_tyrell_kills_an_opposing_footman_at_once_w_17_1() -> None:
    st = combat(["knight"], ["footman", "knight"], "mace_tyrell", "catelyn_stark", att="tyrell")
    assert numbers(st) == (2 + 4, 2)
    assert "Mace Tyrell destroys" in " ".join(e["text"] for e in st.log)


def test_mace_is_stopped_by_the_blackfish_w_17_3() -> None:
    st = combat(["knight"], ["footman"], "mace_tyrell", "the_blackfish", att="tyrell")
    assert numbers(st) == (2 + 4, 1 + 1)


def test_ser_loras_moves_the_march_order_into_the_conquered_area_w_17_1() -> None:
    st = combat(
        ["knight"], ["footman"], "ser_loras_tyrell", "catelyn_stark", att="tyrell", token="march_plus_one"
    )
    if st.pending and pending(st).decision == "retreat":
        choose(st, "stark", "retreat", "riverrun")
    assert st.orders["harrenhal"] == Order("tyrell", "march_plus_one")
    assert st.current_players() == ["tyrell"] and ChooseMarch("tyrell", "harrenhal") in st.legal_actions(
        "tyrell"
    )


def test_queen_of_thorns_removes_an_adjacent_opponent_order_w_17_1() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "queen_of_thorns",
        "catelyn_stark",
        att="tyrell",
        extra_units={"riverrun": ["stark", "footman"]},
        orders={"riverrun": "support"},
        supports={"stark": "stark"},
    )
    assert pending(st).decision == "queen_of_thorns" and pending(st).options == ["riverrun"]
    choose(st, "tyrell", "queen_of_thorns", "riverrun")
    assert numbers(st) == (2, 1)  # the removed support no longer counts


# ---------------------------------------------------------------- Martell
def test_nymeria_sword_when_attacking_fort_when_defending_w_17_1() -> None:
    st = combat(["footman"], ["footman"], None, None, att="martell")
    combat_of(st).cards = {"martell": "nymeria_sand", "stark": None}
    assert st.combat_numbers()["martell"] == {"strength": 2, "swords": 1, "forts": 0}
    st = combat(["footman"], ["footman"], None, None, dfn="martell")
    combat_of(st).cards = {"lannister": None, "martell": "nymeria_sand"}
    assert st.combat_numbers()["martell"] == {"strength": 2, "swords": 0, "forts": 1}


def test_arianne_keeps_the_winning_attackers_out_w_17_1() -> None:
    st = combat(["knight", "knight"], ["footman"], "ser_gregor_clegane", "arianne_martell", dfn="martell")
    if st.pending and pending(st).decision == "casualty":
        choose(st, "martell", "casualty", "footman")
    assert "harrenhal" not in st.units or st.units["harrenhal"].house == "martell"
    assert st.units["stoney_sept"] == Units("lannister", ("knight", "knight"), ())


def test_doran_sends_the_opponent_to_the_bottom_of_a_track_w_17_1() -> None:
    st = combat(["knight"], ["footman"], "doran_martell", "catelyn_stark", att="martell")
    assert pending(st).decision == "doran"
    choose(st, "martell", "doran", "fiefdoms")
    assert st.tracks["fiefdoms"][-1] == "stark"


def test_combat_is_fully_resolved_before_anything_else_w_9_1() -> None:
    st = combat(["knight"], ["footman"], None, None, blocker_order=False)
    assert pending(st).kind == "house_card"
    assert not [a for a in st.legal_actions("lannister") if isinstance(a, (MarchMove, EndMarch))]


def test_tyrion_against_a_last_card_leaves_the_opponent_without_a_card_w_17_1() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "tyrion_lannister",
        "eddard_stark",
        hands={"stark": ["eddard_stark"]},
        discards={"stark": list(STARK_CARDS_BUT_EDDARD)},
    )
    choose(st, "lannister", "tyrion", "cancel")
    assert numbers(st) == (2 + 1, 1)  # Stark fights without a card
    assert st.hands["stark"] == ["eddard_stark"]


# ---------------------------------------------------------------- edge cases of card texts
def test_kevan_has_no_effect_when_defending_w_17_1() -> None:
    st = combat(["footman"], ["footman", "footman"], None, None, dfn="lannister", att="stark")
    combat_of(st).cards = {"stark": None, "lannister": "ser_kevan_lannister"}
    assert st.combat_numbers()["lannister"]["strength"] == 2 + 1


def test_victarion_counts_supporting_greyjoy_ships_double_w_17_1() -> None:
    st = victarion_attacks(
        ["ship"],
        extra_units={"sunset_sea": ["greyjoy", "ship"]},
        orders={"sunset_sea": "support"},
        supports={"greyjoy": "greyjoy"},
    )
    assert st.combat_numbers()["greyjoy"]["strength"] == 2 + 2 + 3


def test_davos_without_stannis_discarded_is_plain_w_17_1() -> None:
    st = combat(["footman"], ["footman"], None, None, att="baratheon")
    combat_of(st).cards = {"baratheon": "ser_davos_seaworth", "stark": None}
    assert st.combat_numbers()["baratheon"] == {"strength": 1 + 2, "swords": 0, "forts": 0}


def test_theon_attacking_gets_nothing_extra_w_17_1() -> None:
    st = combat(["footman"], ["footman"], None, None, att="greyjoy")
    combat_of(st).cards = {"greyjoy": "theon_greyjoy", "stark": None}
    assert st.combat_numbers()["greyjoy"] == {"strength": 1 + 2, "swords": 0, "forts": 0}


def test_asha_supported_gets_no_icons_w_17_1() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        att="greyjoy",
        extra_units={"blackwater": ["baratheon", "footman"]},
        orders={"blackwater": "support"},
        supports={"baratheon": "greyjoy"},
    )
    combat_of(st).cards = {"greyjoy": "asha_greyjoy", "stark": None}
    assert st.combat_numbers()["greyjoy"] == {"strength": 1 + 1 + 1, "swords": 0, "forts": 0}


def test_salladhor_unsupported_changes_nothing_w_17_1() -> None:
    st = combat(
        ["ship"],
        ["ship"],
        None,
        None,
        att="baratheon",
        dfn="greyjoy",
        src="shipbreaker_bay",
        dest="blackwater_bay",
    )
    combat_of(st).cards = {"baratheon": "salladhor_saan", "greyjoy": None}
    assert st.combat_numbers()["greyjoy"]["strength"] == 1


def test_mace_killing_the_last_defender_still_resolves_the_combat_w_17_3() -> None:
    st = combat(["footman"], ["footman"], "mace_tyrell", "eddard_stark", att="tyrell")
    assert numbers(st) == (1 + 4, 4)
    assert st.units["harrenhal"].house == "tyrell"


def test_loras_march_order_can_be_resolved_again_w_17_1() -> None:
    st = combat(["knight"], ["footman"], "ser_loras_tyrell", "catelyn_stark", att="tyrell")
    choose(st, "stark", "retreat", "riverrun")
    do(st, ChooseMarch("tyrell", "harrenhal"))
    do(st, MarchMove("tyrell", ("knight",), "blackwater"))
    do(st, EndMarch("tyrell", False))
    assert st.units["blackwater"].house == "tyrell" and "harrenhal" not in st.orders


def test_renly_may_upgrade_a_supporting_baratheon_footman_w_17_1() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "renly_baratheon",
        "catelyn_stark",
        att="baratheon",
        extra_units={"blackwater": ["baratheon", "footman"]},
        orders={"blackwater": "support"},
        supports={"baratheon": "baratheon"},
    )
    assert set(pending(st).options) == {"blackwater", "none"}
    choose(st, "baratheon", "renly", "blackwater")
    assert st.units["blackwater"].units == ("knight",)


def test_robb_winning_as_defender_sends_the_attacker_home_w_17_1() -> None:
    st = combat(["footman"], ["footman", "knight"], "ser_jaime_lannister", "robb_stark", supply={"stark": 3})
    choose(st, "stark", "robb_retreat", "stoney_sept")  # W-9.10.2: the Robb player picks (home included)
    assert won(st, "stark") and st.units["stoney_sept"].routed == ("footman",)


def test_blackfish_loser_without_retreat_is_still_destroyed_w_17_1() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "ser_jaime_lannister",
        "the_blackfish",
        extra_units={
            "blackwater": ["baratheon", "footman"],
            "crackclaw_point": ["baratheon", "footman"],
            "riverrun": ["tyrell", "footman"],
        },
    )
    assert won(st, "lannister") and not [a for a, u in st.units.items() if u.house == "stark"]
