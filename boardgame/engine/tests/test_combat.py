"""Combat (W-9): support, strength, house cards, Blade, victor, casualties, retreat, clean-up."""

from __future__ import annotations

import pytest

from boardgame.engine.actions import ChooseMarch, DeclareSupport, EndMarch, MarchMove, PlayHouseCard
from boardgame.engine.game import WesterosState
from boardgame.engine.structures import Units

from .conftest import _DATA, choose, combat, combat_of, do, march_on_harrenhal, pending, pos


def numbers(st: WesterosState) -> tuple[int, ...]:
    """(attacker, defender) final strengths of the last resolved combat, from the public log."""
    return tuple(next(e["numbers"] for e in reversed(st.log) if "numbers" in e))


def winner_text(st: WesterosState) -> str:
    return str(next(e["text"] for e in reversed(st.log) if "numbers" in e))


def test_strength_units_march_defense_and_cards_w_9_3_w_9_7() -> None:
    st = combat(
        ["footman", "knight"],
        ["footman"],
        "ser_jaime_lannister",
        "ser_rodrik_cassel",
        orders={"harrenhal": "defense_plus_one"},
    )
    assert numbers(st) == (3 + 2, 1 + 1 + 1)
    assert "Lannister wins" in winner_text(st)
    # Jaime 1 sword - Rodrik 2 forts: no casualties; the defender must retreat (W-9.10.3)
    assert pending(st).decision == "retreat" and st.current_players() == ["stark"]
    assert sorted(pending(st).options) == ["blackwater", "crackclaw_point", "riverrun"]  # not stoney sept
    choose(st, "stark", "retreat", "riverrun")
    assert st.units["riverrun"] == Units("stark", (), ("footman",))
    assert st.units["harrenhal"].house == "lannister" and "harrenhal" not in st.orders  # W-9.11


@pytest.mark.parametrize("card", [c for c, v in _DATA.house_cards.items() if v["effect"] is None])
def test_cards_without_text_add_printed_strength_swords_and_forts_w_9_4(card: str) -> None:
    info = _DATA.house_cards[card]
    house = info["house"]
    dfn = "stark" if house != "stark" else "lannister"
    st = combat(["footman"], ["footman"], None, None, att=house, dfn=dfn)
    combat_of(st).cards = {house: card, dfn: None}
    n = st.combat_numbers()
    assert n[house] == {
        "strength": 1 + info["strength"],
        "swords": info["swords"],
        "forts": info["fortifications"],
    }


def test_siege_engines_count_four_only_against_castles_w_1_4() -> None:
    st = combat(["siege_engine"], ["footman"], None, None)  # harrenhal has a castle
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["lannister"]["strength"] == 4
    st2 = combat(["siege_engine", "footman"], ["footman"], None, None, src="harrenhal", dest="blackwater")
    combat_of(st2).cards = {"lannister": None, "stark": None}
    assert st2.combat_numbers()["lannister"]["strength"] == 1


def test_tie_goes_to_the_higher_fiefdoms_position_w_9_8() -> None:
    st = combat(["footman"], ["footman"], "ser_jaime_lannister", "greatjon_umber")
    assert numbers(st) == (3, 3)
    assert "Stark wins" in winner_text(st)  # Stark is above Lannister on Fiefdoms (6p set-up)


def test_losing_attacker_retreats_to_origin_routed_w_9_10_2() -> None:
    st = combat(["footman", "footman"], ["knight"], "ser_jaime_lannister", "eddard_stark")
    # 2+2 = 4 vs 2+4 = 6; Eddard 2 swords: both attacking footmen die
    assert "stoney_sept" not in st.units
    st = combat(["footman", "footman"], ["knight"], "the_hound", "greatjon_umber")
    # 2+2 vs 2+2: tie to Stark; 1 sword - 2 forts: no casualties
    assert st.units["stoney_sept"].routed == ("footman", "footman")


def test_casualties_are_swords_minus_forts_of_losers_choice_w_9_9() -> None:
    st = combat(
        ["footman", "knight"],
        ["footman", "knight", "footman"],
        "ser_kevan_lannister",
        "eddard_stark",
        supply={"stark": 3},
    )
    # attack 1x2(Kevan)+2+1 = 5 ; defence 4+4 = 8 → Lannister loses; Eddard 2 swords - 0 forts
    assert "Stark wins" in winner_text(st)
    assert "stoney_sept" not in st.units  # both attacking units destroyed (2 casualties, 2 units)


def test_casualty_choice_is_offered_one_unit_at_a_time_w_9_9() -> None:
    st = combat(
        ["footman", "knight"],
        ["footman", "footman", "knight"],
        "ser_jaime_lannister",
        "greatjon_umber",
        supply={"stark": 3},
    )
    # 3+2 = 5 vs 4+2 = 6; Greatjon 1 sword → Lannister picks one casualty
    assert pending(st).decision == "casualty" and sorted(pending(st).options) == ["footman", "knight"]
    choose(st, "lannister", "casualty", "footman")
    assert st.units["stoney_sept"].routed == ("knight",)


def test_siege_engines_and_routed_units_of_the_loser_are_destroyed_w_9_9_b() -> None:
    st = combat(
        ["knight", "knight"],
        ["footman", "siege_engine", "routed footman"],
        "ser_jaime_lannister",
        "ser_rodrik_cassel",
        supply={"stark": 3},
    )
    # defence 1 + 0 + 0 + 1 = 2 vs 4 + 2 = 6 → defender loses siege engine and routed footman
    assert pending(st).decision == "retreat"
    choose(st, "stark", "retreat", "blackwater")
    assert st.units["blackwater"].routed == ("footman",)


def test_no_legal_retreat_destroys_the_defender_w_9_10_6() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "ser_jaime_lannister",
        "ser_rodrik_cassel",
        extra_units={
            "blackwater": ["baratheon", "footman"],
            "crackclaw_point": ["baratheon", "footman"],
            "riverrun": ["tyrell", "footman"],
        },
    )
    assert st.units["harrenhal"].house == "lannister"
    assert not [a for a, u in st.units.items() if u.house == "stark"]


def test_retreat_needing_losses_destroys_to_fit_supply_w_9_10_4() -> None:
    st = combat(
        ["knight", "knight", "knight"],
        ["footman", "footman"],
        "ser_jaime_lannister",
        "ser_rodrik_cassel",
        supply={"stark": 0, "lannister": 6},
        extra_units={
            "blackwater": ["stark", "footman", "footman"],
            "winterfell": ["stark", "footman", "footman"],
        },
        neutral={},
    )
    # Stark at supply 0 (2,2): armies in blackwater and winterfell. Retreat anywhere but stoney sept.
    assert pending(st).decision == "retreat"
    opts = pending(st).options
    assert "blackwater" not in opts  # a third army of 2 at supply 0 needs a loss; riverrun does not
    choose(st, "stark", "retreat", opts[0])
    assert pending(st).decision == "retreat_loss" and not st.supply_ok("stark")
    while st.pending and pending(st).decision == "retreat_loss":
        choose(st, "stark", "retreat_loss", pending(st).options[0])
    assert st.supply_ok("stark")


def test_support_is_asked_in_turn_order_and_counts_w_9_2_w_7_3() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        extra_units={
            "blackwater": ["baratheon", "knight"],
            "riverrun": ["stark", "footman"],
            "the_golden_sound": ["greyjoy", "ship"],
        },
        orders={"blackwater": "support_plus_one", "riverrun": "support"},
        supports={"baratheon": "lannister", "stark": "stark"},
    )
    assert combat_of(st).support == {"baratheon": "lannister", "stark": "stark"}
    combat_of(st).cards = {"lannister": None, "stark": None}
    n = st.combat_numbers()
    assert n["lannister"]["strength"] == 1 + 2 + 1 and n["stark"]["strength"] == 1 + 1


def test_land_units_cannot_support_a_sea_combat_w_7_3_3() -> None:
    st = pos(
        units={
            "the_golden_sound": ["greyjoy", "ship", "ship"],
            "sunset_sea": ["lannister", "ship"],
            "searoad_marches": ["lannister", "footman"],
            "lannisport_port": ["lannister", "ship"],
        },
        orders={"the_golden_sound": "march", "searoad_marches": "support", "lannisport_port": "support"},
        start="action",
    )
    assert [a for a, _h, _t in st.support_orders("sunset_sea")] == []
    assert [a for a, _h, _t in st.support_orders("the_golden_sound")] == ["lannisport_port"]
    assert [a for a, _h, _t in st.support_orders("searoad_marches")] == []


def test_garrison_defends_alone_and_is_removed_on_loss_w_11_2_w_9_9_a() -> None:
    st = combat(
        ["knight", "knight"],
        [],
        "ser_gregor_clegane",
        "ser_rodrik_cassel",
        src="moat_cailin",
        dest="winterfell",
    )
    assert numbers(st) == (4 + 3, 2 + 1)
    assert "winterfell" not in st.garrisons and st.control("winterfell") == "lannister"


def test_valyrian_steel_blade_adds_one_once_per_round_w_9_6() -> None:
    st = combat(["footman"], ["footman"], "dagmar_cleftjaw", "ser_rodrik_cassel", att="greyjoy")
    assert pending(st).decision == "blade" and st.current_players() == ["greyjoy"]
    choose(st, "greyjoy", "blade", "use")
    assert numbers(st) == (1 + 1 + 1, 2) and st.blade_used


def test_played_cards_are_discarded_and_the_last_card_brings_the_rest_back_w_17_2() -> None:
    st = combat(
        ["knight"],
        ["footman"],
        "ser_gregor_clegane",
        "eddard_stark",
        hands={"lannister": ["ser_gregor_clegane"]},
        discards={
            "lannister": [
                "tywin_lannister",
                "ser_jaime_lannister",
                "the_hound",
                "ser_kevan_lannister",
                "tyrion_lannister",
                "cersei_lannister",
            ]
        },
    )
    assert st.discards["lannister"] == ["ser_gregor_clegane"] and len(st.hands["lannister"]) == 6
    assert "eddard_stark" in st.discards["stark"]


def test_house_card_choices_are_secret_until_both_chose_w_20_6() -> None:
    st = combat(["footman"], ["footman"], None, None)
    do(st, PlayHouseCard("lannister", "tywin_lannister"))
    assert st.current_players() == ["stark"]
    assert st.player_view("stark")["pending"]["chosen"] == {"lannister": None}
    assert st.player_view("lannister")["pending"]["chosen"] == {"lannister": "tywin_lannister"}


def test_attacker_who_left_an_enemy_home_area_cannot_retreat_there_w_8_5() -> None:
    st = combat(
        ["footman"],
        ["knight"],
        "ser_jaime_lannister",
        "eddard_stark",
        src="winterfell",
        dest="moat_cailin",
        garrisons={},
        att="lannister",
    )
    assert "winterfell" not in st.units and st.control("winterfell") == "stark"


def conquer_white_harbor(*, supply: int, **extra_units: list[str]) -> WesterosState:
    """Lannister knights from Moat Cailin take White Harbor, whose port holds two Stark ships; the defeated
    footman retreats if it can (W-10.6)."""
    st = combat(
        ["knight", "knight"],
        ["footman"],
        "ser_gregor_clegane",
        "ser_rodrik_cassel",
        src="moat_cailin",
        dest="white_harbor",
        supply={"lannister": supply},
        extra_units={"white_harbor_port": ["stark", "ship", "ship"], **extra_units},
    )
    if st.pending and pending(st).decision == "retreat":
        choose(st, "stark", "retreat", pending(st).options[0])
    return st


def test_port_is_taken_over_when_its_land_area_is_conquered_w_10_6() -> None:
    st = conquer_white_harbor(supply=6)
    assert pending(st).decision == "port_takeover" and st.current_players() == ["lannister"]
    choose(st, "lannister", "port_takeover", "replace")
    choose(st, "lannister", "port_takeover", "destroy")
    assert st.units["white_harbor_port"] == Units("lannister", ("ship",), ())


def test_orphaned_port_ships_are_destroyed_w_10_6_w_22_5() -> None:
    st = pos(
        units={"white_harbor": ["stark", "footman"], "white_harbor_port": ["stark", "ship"]},
        orders={"white_harbor": "march"},
        start="action",
    )
    do(st, ChooseMarch("stark", "white_harbor"))
    do(st, MarchMove("stark", ("footman",), "widows_watch"))
    do(st, EndMarch("stark", False))
    assert "white_harbor_port" not in st.units


def test_sea_combat_and_ship_retreat_w_10_5() -> None:
    st = combat(
        ["ship", "ship"],
        ["ship"],
        "ser_jaime_lannister",
        "dagmar_cleftjaw",
        src="the_golden_sound",
        dest="sunset_sea",
        dfn="greyjoy",
    )
    assert pending(st).decision == "blade"  # greyjoy holds the Blade and fights
    choose(st, "greyjoy", "blade", "pass")
    assert numbers(st) == (2 + 2, 1 + 1)
    assert pending(st).decision == "retreat"
    assert set(pending(st).options) == {"bay_of_ice", "ironmans_bay", "west_summer_sea"}
    opt = pending(st).options[0]
    choose(st, "greyjoy", "retreat", opt)
    assert st.units[opt].routed == ("ship",) and st.units["sunset_sea"].house == "lannister"


def test_declining_support_is_allowed_w_9_2() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        extra_units={"blackwater": ["baratheon", "knight"]},
        orders={"blackwater": "support"},
        supports={"baratheon": "none"},
    )
    assert combat_of(st).support == {"baratheon": "none"}


def test_support_options_name_both_sides_and_none_w_9_2() -> None:
    st = march_on_harrenhal({"blackwater": ["baratheon", "knight"]})
    assert set(st.legal_actions("baratheon")) == {
        DeclareSupport("baratheon", "lannister"),
        DeclareSupport("baratheon", "stark"),
        DeclareSupport("baratheon", "none"),
    }


def test_march_modifier_counts_for_the_attacker_only_w_7_1_6() -> None:
    st = combat(["footman"], ["footman"], "ser_jaime_lannister", "greatjon_umber", token="march_minus_one")
    assert numbers(st) == (1 - 1 + 2, 1 + 2)
    st = combat(["footman"], ["footman"], "ser_jaime_lannister", "greatjon_umber", token="march_plus_one")
    assert numbers(st) == (1 + 1 + 2, 1 + 2)


def test_final_strength_below_zero_counts_as_zero_w_9_7() -> None:
    st = combat(
        ["siege_engine"],
        ["footman"],
        "tyrion_lannister",
        "eddard_stark",
        token="march_minus_one",
        src="harrenhal",
        dest="blackwater",
    )
    choose(st, "lannister", "tyrion", "keep")
    assert numbers(st)[0] == 0


def test_orders_of_destroyed_units_are_removed_after_combat_w_6_4() -> None:
    st = combat(
        ["knight", "knight"],
        ["footman"],
        "ser_gregor_clegane",
        "catelyn_stark",
        orders={"harrenhal": "support"},
    )
    assert "harrenhal" not in st.orders and st.units["harrenhal"].house == "lannister"


def test_port_take_over_replacement_respects_supply_w_10_6_w_12_5() -> None:
    st = conquer_white_harbor(supply=0, lannisport=["lannister", "footman", "footman"])
    assert pending(st).decision == "port_takeover"
    choose(st, "lannister", "port_takeover", "replace")
    # a second ship would make a third army (supply 0 allows two armies of 2)
    assert pending(st).options == ["destroy"]
