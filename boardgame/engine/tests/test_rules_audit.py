"""Independent audit of the rules most often gotten wrong (scenario tests from the position format).

Each test names the W-x.y rule it checks (docs/rules/westeros.md); see
docs/westeros-rules-coverage.md for the full rule-by-rule table.
"""

from __future__ import annotations

import pytest

from boardgame.engine.actions import (
    Bid,
    ChooseMarch,
    DeclareSupport,
    EndMarch,
    MarchMove,
    Muster,
    PlaceOrder,
    PlayHouseCard,
    ResolveConsolidate,
    ResolveRaid,
)
from boardgame.engine.game import WesterosState
from boardgame.engine.structures import Units, need

from .conftest import (
    _DATA,
    choose,
    combat,
    combat_of,
    do,
    last_round,
    march_on_harrenhal,
    outcome_of,
    pending,
    pos,
    raid_actions,
)

STAR = {t for t, v in _DATA.tokens.items() if v["special"]}
KC_TABLE = {3: [3, 2, 1], 4: [3, 2, 1, 0], 5: [3, 3, 2, 1, 0], 6: [3, 3, 2, 1, 0, 0]}


def numbers(st: WesterosState) -> tuple[int, ...]:
    return tuple(next(e["numbers"] for e in reversed(st.log) if "numbers" in e))


def texts(st: WesterosState) -> list[str]:
    return [e["text"] for e in st.log]


# ---------------------------------------------------------------- W-5.2 special orders by King's Court


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_special_order_limit_follows_kings_court_for_every_player_count_w_5_2_w_14_1(n: int) -> None:
    st = pos(player_count=n)
    kc = st.tracks["kings_court"]
    assert [st.star_limit(h) for h in kc] == KC_TABLE[n]
    for h in kc:
        placed = 0
        while True:
            stars = [a for a in st.legal_actions(h) if isinstance(a, PlaceOrder) and a.token in STAR]
            if not stars:
                break
            do(st, stars[0])
            placed += 1
        # ran out of stars only because of the limit (or of areas with units to fill)
        areas = sum(1 for u in st.units.values() if u.house == h)
        assert placed == min(KC_TABLE[n][kc.index(h)], areas), (h, placed)


def test_kings_court_position_not_house_sets_the_limit_w_5_2_w_14_1() -> None:
    st = pos(
        player_count=3,
        tracks={"kings_court": ["baratheon", "stark", "lannister"]},
        units={
            "winterfell": ["stark", "footman"],
            "white_harbor": ["stark", "footman"],
            "castle_black": ["stark", "footman"],
            "dragonstone": ["baratheon", "footman"],
            "lannisport": ["lannister", "footman"],
        },
    )
    assert st.star_limit("baratheon") == 3 and st.star_limit("stark") == 2 and st.star_limit("lannister") == 1
    do(st, PlaceOrder("stark", "winterfell", "march_plus_one"))
    do(st, PlaceOrder("stark", "white_harbor", "defense_plus_two"))
    toks = {a.token for a in st.legal_actions("stark") if isinstance(a, PlaceOrder)}
    assert toks and not toks & STAR


# ---------------------------------------------------------------- W-7.2 raids


def test_sea_raid_reaches_adjacent_land_sea_and_port_orders_w_7_2_2() -> None:
    st = pos(
        units={
            "the_golden_sound": ["greyjoy", "ship"],
            "lannisport": ["lannister", "footman"],
            "lannisport_port": ["lannister", "ship"],
            "sunset_sea": ["lannister", "ship"],
            "riverrun": ["lannister", "footman"],
            "stoney_sept": ["lannister", "footman"],
        },
        orders={
            "the_golden_sound": "raid",
            "lannisport": "support",
            "lannisport_port": "consolidate_power",
            "sunset_sea": "raid",
            "riverrun": "consolidate_power",
            "stoney_sept": "support",  # not adjacent to the golden sound
        },
        start="action",
    )
    do(st, ResolveRaid("lannister", "sunset_sea", None))  # Lannister raids first (Iron Throne)
    targets = {a.target for a in raid_actions(st, "greyjoy")}
    assert targets == {None, "lannisport", "lannisport_port", "riverrun"}
    do(st, ResolveRaid("greyjoy", "the_golden_sound", "lannisport_port"))
    assert "lannisport_port" not in st.orders


def test_raid_never_removes_a_march_even_a_star_raid_w_7_2_1() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "footman"], "the_twins": ["greyjoy", "footman"]},
        orders={"moat_cailin": "raid_special", "the_twins": "march_plus_one"},
        start="action",
    )
    assert {a.target for a in raid_actions(st, "stark")} == {None}


def test_sea_raid_may_remove_a_sea_order_and_land_raid_may_not_reach_sea_w_7_2_2() -> None:
    st = pos(
        units={
            "the_narrow_sea": ["stark", "ship"],
            "the_shivering_sea": ["greyjoy", "ship"],
            "white_harbor": ["stark", "footman"],
        },
        orders={"the_narrow_sea": "raid", "the_shivering_sea": "support", "white_harbor": "raid"},
        start="action",
    )
    acts = st.legal_actions("stark")
    assert ResolveRaid("stark", "the_narrow_sea", "the_shivering_sea") in acts
    assert ResolveRaid("stark", "white_harbor", "the_shivering_sea") not in acts


def test_pillage_when_the_victim_has_no_power_w_7_2_3() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "footman"], "the_twins": ["greyjoy", "footman"]},
        orders={"moat_cailin": "raid", "the_twins": "consolidate_power_special"},
        power={"stark": 0, "greyjoy": 0},
        start="action",
    )
    do(st, ResolveRaid("stark", "moat_cailin", "the_twins"))
    assert st.power == {**st.power, "stark": 1, "greyjoy": 0}


# ---------------------------------------------------------------- W-7.3 support


def test_support_only_from_adjacent_areas_and_ports_only_to_their_sea_w_7_3_3_w_9_2() -> None:
    st = pos(
        units={
            "stoney_sept": ["lannister", "footman"],
            "harrenhal": ["stark", "footman"],
            "blackwater": ["baratheon", "knight"],  # adjacent
            "kingswood": ["baratheon", "knight"],  # not adjacent
            "the_golden_sound": ["greyjoy", "ship"],  # sea, not adjacent to harrenhal
            "lannisport_port": ["lannister", "ship"],
        },
        orders={
            "stoney_sept": "march",
            "blackwater": "support",
            "kingswood": "support",
            "the_golden_sound": "support",
            "lannisport_port": "support",
        },
        start="action",
    )
    assert [a for a, _h, _t in st.support_orders("harrenhal")] == ["blackwater"]
    # a port never supports its own land area (W-7.3.3)
    assert "lannisport_port" not in [a for a, _h, _t in st.support_orders("lannisport")]
    assert "the_golden_sound" in [a for a, _h, _t in st.support_orders("lannisport")]


def test_ships_support_a_land_combat_w_7_3_3_w_9_3() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        src="stoney_sept",
        dest="riverrun",
        extra_units={"the_golden_sound": ["lannister", "ship", "ship"]},
        orders={"the_golden_sound": "support_plus_one"},
        supports={"lannister": "lannister"},
        garrisons={},
    )
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["lannister"]["strength"] == 1 + 2 + 1


def test_one_support_order_backs_several_combats_and_stays_w_7_3_1() -> None:
    st = pos(
        units={
            "stoney_sept": ["lannister", "knight", "knight"],
            "harrenhal": ["stark", "footman"],
            "crackclaw_point": ["stark", "footman"],
            "blackwater": ["baratheon", "knight"],
            "sunspear": ["martell", "footman"],
        },
        orders={
            "stoney_sept": "march",
            "crackclaw_point": "march",
            "blackwater": "support",
            "sunspear": "consolidate_power",
        },
        start="action",
    )
    do(st, ChooseMarch("lannister", "stoney_sept"))
    do(st, MarchMove("lannister", ("knight", "knight"), "harrenhal"))
    do(st, EndMarch("lannister", False))
    assert pending(st).kind == "support" and st.current_players() == ["baratheon"]
    do(st, DeclareSupport("baratheon", "lannister"))
    do(st, PlayHouseCard("lannister", "the_hound"))
    do(st, PlayHouseCard("stark", "eddard_stark"))
    assert numbers(st) == (4 + 2 + 2, 1 + 4)
    assert "blackwater" in st.orders  # W-7.3.1: it stays on the board until clean-up
    choose(st, "stark", "retreat", "riverrun")
    # Stark's march from Crackclaw Point into Harrenhal is a second combat next to the same order
    do(st, ChooseMarch("stark", "crackclaw_point"))
    do(st, MarchMove("stark", ("footman",), "harrenhal"))
    do(st, EndMarch("stark", False))
    assert pending(st).kind == "support" and st.current_players() == ["baratheon"]
    do(st, DeclareSupport("baratheon", "lannister"))
    combat_of(st).cards = {"stark": None, "lannister": None}
    assert st.combat_numbers()["lannister"]["strength"] == 4 + 2


def test_supporting_units_take_no_casualties_and_do_not_retreat_w_7_3_2_w_9_10_1() -> None:
    st = combat(
        ["footman"],
        ["knight", "knight"],
        "ser_jaime_lannister",
        "eddard_stark",
        extra_units={"blackwater": ["lannister", "footman", "footman"]},
        orders={"blackwater": "support"},
        supports={"lannister": "lannister"},
        supply={"stark": 3, "lannister": 3},
    )
    assert any("Stark wins" in t for t in texts(st))
    assert st.units["blackwater"] == Units("lannister", ("footman", "footman"), ())
    assert "stoney_sept" not in st.units  # the attacking footman died (2 swords)


def test_routed_supporting_units_give_nothing_but_the_star_bonus_w_9_3_w_9_10_5() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        extra_units={"blackwater": ["lannister", "routed knight"]},
        orders={"blackwater": "support_plus_one"},
        supports={"lannister": "lannister"},
    )
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["lannister"]["strength"] == 1 + 0 + 1


def test_siege_engine_supports_an_attack_on_a_castle_but_not_a_defence_w_9_3_w_1_4() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        extra_units={"blackwater": ["baratheon", "siege_engine"]},
        orders={"blackwater": "support"},
        supports={"baratheon": "lannister"},
    )
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["lannister"]["strength"] == 1 + 4
    combat_of(st).support = {"baratheon": "stark"}
    assert st.combat_numbers()["stark"]["strength"] == 1 + 0


# ---------------------------------------------------------------- W-7.1 / W-8 march, tokens, control


def test_power_token_only_on_vacated_land_never_on_own_home_w_7_1_5_w_8_2() -> None:
    st = pos(
        units={"the_shivering_sea": ["stark", "ship"], "winterfell": ["stark", "footman"]},
        orders={"the_shivering_sea": "march", "winterfell": "march"},
        start="action",
    )
    do(st, ChooseMarch("stark", "the_shivering_sea"))
    do(st, MarchMove("stark", ("ship",), "the_narrow_sea"))
    assert EndMarch("stark", True) not in st.legal_actions("stark")  # a sea area holds no tokens
    do(st, EndMarch("stark", False))
    do(st, ChooseMarch("stark", "winterfell"))
    do(st, MarchMove("stark", ("footman",), "castle_black"))
    assert EndMarch("stark", True) not in st.legal_actions("stark")  # own home area: the crest
    do(st, EndMarch("stark", False))
    assert st.control("winterfell") == "stark" and "winterfell" not in st.tokens


def test_power_token_may_cover_an_enemy_home_crest_and_stays_when_units_return_w_8_5_w_8_2() -> None:
    st = pos(
        units={"winterfell": ["lannister", "footman"], "castle_black": ["lannister", "footman"]},
        orders={"winterfell": "march", "castle_black": "march"},
        garrisons={},
        start="action",
    )
    do(st, ChooseMarch("lannister", "winterfell"))
    do(st, MarchMove("lannister", ("footman",), "karhold"))
    assert EndMarch("lannister", True) in st.legal_actions("lannister")
    do(st, EndMarch("lannister", True))
    assert st.control("winterfell") == "lannister" and st.power["lannister"] == 4
    do(st, ChooseMarch("lannister", "castle_black"))
    do(st, MarchMove("lannister", ("footman",), "winterfell"))
    do(st, EndMarch("lannister", False))
    assert st.tokens["winterfell"] == "lannister"  # W-8.2: it stays when friendly units come back


def test_enemy_home_area_reverts_to_its_house_when_vacated_without_token_w_8_5() -> None:
    st = pos(
        units={"winterfell": ["lannister", "footman"]},
        orders={"winterfell": "march"},
        garrisons={},
        start="action",
    )
    do(st, ChooseMarch("lannister", "winterfell"))
    do(st, MarchMove("lannister", ("footman",), "karhold"))
    do(st, EndMarch("lannister", False))
    assert st.control("winterfell") == "stark"


def test_winning_a_combat_sends_the_defenders_token_to_the_pool_w_8_3_w_9_11() -> None:
    st = combat(
        ["knight", "knight"],
        ["footman"],
        "ser_gregor_clegane",
        "ser_rodrik_cassel",
        tokens={"harrenhal": "stark"},
        power={"stark": 3},
    )
    assert "harrenhal" not in st.tokens and st.power["stark"] == 3  # to the pool, not back to Stark
    assert st.control("harrenhal") == "lannister"


def test_victory_is_checked_after_each_march_before_the_next_w_7_1_7_w_18_1_w_3_2() -> None:
    six = ("lannisport", "riverrun", "harrenhal", "seagard", "the_reach", "crackclaw_point")
    units = {a: ["lannister", "footman"] for a in six}
    units["blackwater"] = ["lannister", "knight"]
    units["moat_cailin"] = ["stark", "footman"]
    st = pos(
        player_count=3,
        units=units,
        orders={"blackwater": "march", "moat_cailin": "march", "lannisport": "march"},
        start="action",
        neutral={},
        tracks={"iron_throne": ["lannister", "stark", "baratheon"]},
    )
    do(st, ChooseMarch("lannister", "blackwater"))
    do(st, MarchMove("lannister", ("knight",), "kings_landing"))
    do(st, EndMarch("lannister", True))
    assert st.is_terminal() and outcome_of(st).winner == "lannister" and "moat_cailin" in st.orders


# ---------------------------------------------------------------- W-7.4 defense, W-11 garrisons and neutral forces


def test_defense_order_counts_only_in_the_embattled_area_w_7_4_1() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        extra_units={"riverrun": ["stark", "footman"]},
        orders={"harrenhal": "defense_plus_two", "riverrun": "defense_plus_one"},
    )
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["stark"]["strength"] == 1 + 2


def test_garrison_adds_to_defending_units_w_11_2_w_9_3() -> None:
    st = combat(["knight", "knight"], ["footman"], None, None, src="moat_cailin", dest="winterfell")
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["stark"]["strength"] == 1 + 2


def test_neutral_force_must_be_matched_not_only_approached_w_11_1() -> None:
    st = pos(
        units={"blackwater": ["lannister", "knight", "knight"]},
        orders={"blackwater": "march_minus_one"},
        start="action",
    )
    do(st, ChooseMarch("lannister", "blackwater"))
    dests = {a.dest for a in st.legal_actions("lannister") if isinstance(a, MarchMove)}
    assert "kings_landing" not in dests  # 2 + 2 - 1 = 3 < 5
    st2 = pos(
        units={"blackwater": ["lannister", "knight", "knight", "footman"]},
        orders={"blackwater": "march"},
        supply={"lannister": 4},
        start="action",
    )
    do(st2, ChooseMarch("lannister", "blackwater"))
    acts = st2.legal_actions("lannister")
    assert MarchMove("lannister", ("footman", "knight", "knight"), "kings_landing") in acts  # 5 >= 5
    assert MarchMove("lannister", ("knight", "knight"), "kings_landing") not in acts  # 4 < 5


# ---------------------------------------------------------------- W-9 combat special cases


def test_losing_attackers_siege_engines_are_destroyed_w_9_9_b() -> None:
    st = combat(
        ["footman", "siege_engine"],
        ["knight", "knight", "footman"],
        "ser_jaime_lannister",
        "ser_rodrik_cassel",
        supply={"stark": 3},
        orders={"harrenhal": "defense_plus_two"},
    )
    # 1 + 4 + 2 = 7 vs 5 + 2 + 1 = 8: Lannister loses; Jaime... Rodrik 0 swords: no casualties,
    # but the siege engine cannot retreat and is destroyed
    assert numbers(st) == (7, 8)
    assert st.units["stoney_sept"] == Units("lannister", (), ("footman",))


def test_routed_defenders_count_zero_w_9_10_5_w_9_3() -> None:
    st = combat(["footman"], ["routed knight", "footman"], None, None, supply={"stark": 3})
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["stark"]["strength"] == 1


def test_tie_is_won_by_fiefdoms_position_even_when_the_blade_is_used_w_14_5_w_9_8() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        "ser_jaime_lannister",
        "greatjon_umber",
        tracks={"fiefdoms": ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]},
        blade_used=True,
    )
    assert numbers(st) == (3, 3) and any("Lannister wins" in t for t in texts(st))


def test_blade_is_offered_once_per_round_w_9_6_w_14_5() -> None:
    st = pos(
        units={
            "seagard": ["greyjoy", "knight"],
            "greywater_watch": ["greyjoy", "knight"],
            "the_twins": ["stark", "footman"],
            "moat_cailin": ["stark", "footman"],
            "sunspear": ["martell", "footman"],
        },
        orders={"seagard": "march", "greywater_watch": "march", "sunspear": "consolidate_power"},
        start="action",
    )
    assert st.holder("fiefdoms") == "greyjoy"
    do(st, ChooseMarch("greyjoy", "seagard"))
    do(st, MarchMove("greyjoy", ("knight",), "the_twins"))
    do(st, EndMarch("greyjoy", False))
    do(st, PlayHouseCard("greyjoy", "euron_crows_eye"))
    do(st, PlayHouseCard("stark", "catelyn_stark"))
    assert pending(st).decision == "blade"
    choose(st, "greyjoy", "blade", "use")
    assert numbers(st) == (2 + 4 + 1, 1) and st.blade_used
    do(st, ChooseMarch("greyjoy", "greywater_watch"))
    do(st, MarchMove("greyjoy", ("knight",), "moat_cailin"))
    do(st, EndMarch("greyjoy", False))
    do(st, PlayHouseCard("greyjoy", "victarion_greyjoy"))
    do(st, PlayHouseCard("stark", "eddard_stark"))
    assert numbers(st) == (2 + 3, 1 + 4)  # no second Blade: the tie goes to Greyjoy on Fiefdoms
    assert not any(e["text"].count("Valyrian") for e in st.log[-8:])


def test_blade_used_state_belongs_to_the_token_w_14_7_w_9_6() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        "ser_jaime_lannister",
        "greatjon_umber",
        blade_used=True,
        tracks={"fiefdoms": ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]},
    )
    assert st.pending is None or pending(st).decision != "blade"


def test_retreat_into_a_port_respects_the_three_ship_cap_w_10_4_w_9_10_3() -> None:
    st = combat(
        ["ship", "ship", "ship"],
        ["ship", "ship"],
        "ser_gregor_clegane",
        "the_blackfish",
        att="lannister",
        dfn="stark",
        src="the_shivering_sea",
        dest="the_narrow_sea",
        extra_units={"white_harbor_port": ["stark", "ship", "ship"], "white_harbor": ["stark", "footman"]},
        supply={"stark": 6, "lannister": 6},
    )
    assert pending(st).decision == "retreat"
    assert "white_harbor_port" not in pending(st).options  # 2 + 2 > 3
    assert "the_shivering_sea" not in pending(st).options  # where the attacker came from


# ---------------------------------------------------------------- W-13 mustering


def test_mustering_points_castle_one_stronghold_two_w_13_2_w_13_3() -> None:
    st = pos(
        player_count=3,
        units={"winterfell": ["stark", "footman"], "white_harbor": ["stark", "footman"]},
        start="westeros",
        round=2,
        westeros_top=["mustering", "last_days_of_summer", "sea_of_storms"],
        tracks={"iron_throne": ["stark", "lannister", "baratheon"]},
        supply={"stark": 6},
    )
    acts = [a for a in st.legal_actions("stark") if isinstance(a, Muster)]
    wh = {(a.unit, a.dest, a.upgrade) for a in acts if a.area == "white_harbor"}
    assert ("knight", "white_harbor", False) not in wh and ("siege_engine", "white_harbor", False) not in wh
    assert {("footman", "white_harbor", False), ("knight", "white_harbor", True)} <= wh  # 1 point each
    do(st, Muster("stark", "winterfell", "footman", "winterfell"))
    do(st, Muster("stark", "winterfell", "knight", "winterfell", True))  # upgrade: 1 point
    assert not [a for a in st.legal_actions("stark") if isinstance(a, Muster) and a.area == "winterfell"]
    assert sorted(st.units["winterfell"].units) == ["footman", "knight"]


def test_stronghold_knight_costs_both_points_w_13_3() -> None:
    st = pos(
        player_count=3,
        units={"winterfell": ["stark", "footman"]},
        start="westeros",
        round=2,
        westeros_top=["mustering", "last_days_of_summer", "sea_of_storms"],
        tracks={"iron_throne": ["stark", "lannister", "baratheon"]},
    )
    do(st, Muster("stark", "winterfell", "knight", "winterfell"))
    assert not [a for a in st.legal_actions("stark") if isinstance(a, Muster) and a.area == "winterfell"]


def test_three_muster_triggers_w_13_6() -> None:
    st = pos(
        player_count=3,
        units={"winterfell": ["stark", "footman"], "lannisport": ["lannister", "footman"]},
        start="westeros",
        round=2,
        westeros_top=["a_throne_of_blades", "last_days_of_summer", "sea_of_storms"],
    )
    choose(st, st.holder("iron_throne"), "throne_of_blades", "mustering")
    assert pending(st).kind == "muster"


# ---------------------------------------------------------------- W-12 supply


def test_supply_table_matches_the_digest_w_12_1() -> None:
    table = {
        0: (2, 2),
        1: (3, 2),
        2: (3, 2, 2),
        3: (3, 2, 2, 2),
        4: (3, 3, 2, 2),
        5: (4, 3, 2, 2),
        6: (4, 3, 2, 2, 2),
    }
    assert {i: lim for i, lim in enumerate(_DATA.supply_limits)} == table


# ---------------------------------------------------------------- W-14 tracks and dominance tokens


def test_dominance_tokens_follow_position_one_after_clash_of_kings_w_1_9_w_14_2() -> None:
    st = pos(
        player_count=3,
        units={
            "winterfell": ["stark", "footman"],
            "lannisport": ["lannister", "footman"],
            "dragonstone": ["baratheon", "footman"],
        },
        start="clash_of_kings",
        power={"stark": 5, "lannister": 5, "baratheon": 5},
        blade_used=True,
    )
    for h, n in {"stark": 1, "lannister": 0, "baratheon": 0}.items():
        do(st, Bid(h, n))
    choose(st, st.current_players()[0], "tie_order", "lannister")
    assert st.holder("iron_throne") == "stark"
    for h, n in {"stark": 0, "lannister": 4, "baratheon": 0}.items():
        do(st, Bid(h, n))
    assert st.current_players() == ["stark"]  # the NEW Iron Throne holder breaks the tie (W-14.3)
    choose(st, "stark", "tie_order", "baratheon")
    assert st.holder("fiefdoms") == "lannister" and st.blade_used  # W-14.7 the used side stays


def test_iron_throne_sets_the_turn_order_of_every_step_w_14_1_w_6_2() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "footman"], "kingswood": ["baratheon", "footman"]},
        orders={"moat_cailin": "raid", "kingswood": "raid"},
        tracks={"iron_throne": ["stark", "greyjoy", "tyrell", "martell", "lannister", "baratheon"]},
        start="action",
    )
    assert st.current_players() == ["stark"]


def test_iron_throne_holder_decides_wildling_ties_w_14_4_w_16_6() -> None:
    st = pos(
        player_count=3,
        units={
            "winterfell": ["stark", "footman"],
            "lannisport": ["lannister", "footman"],
            "dragonstone": ["baratheon", "footman"],
        },
        start="wildling_attack",
        threat=12,
        wildling_top=["silence_at_the_wall"],
        tracks={"iron_throne": ["stark", "lannister", "baratheon"]},
    )
    for h in ("stark", "lannister", "baratheon"):
        do(st, Bid(h, 0))
    assert pending(st).decision == "wildling_tie" and st.current_players() == ["stark"]


def test_used_raven_is_not_offered_again_w_14_6_w_5_5() -> None:
    st = pos(player_count=3, raven_used=True, units={"winterfell": ["stark", "footman"]})
    do(st, PlaceOrder("stark", "winterfell", "consolidate_power"))
    do(st, st.legal_actions("stark")[-1])
    assert st.pending is None or pending(st).kind != "raven"


# ---------------------------------------------------------------- W-15 income, W-16 wildlings


def test_game_of_thrones_income_is_capped_at_twenty_w_15_3_w_1_7() -> None:
    st = pos(
        player_count=3,
        units={"kings_landing": ["baratheon", "footman"], "kingswood": ["baratheon", "footman"]},
        neutral={},
        start="westeros",
        round=2,
        power={"baratheon": 17},
        tokens={"blackwater": "baratheon", "crackclaw_point": "baratheon"},
        westeros_top=["last_days_of_summer", "game_of_thrones", "sea_of_storms"],
    )
    assert st.power["baratheon"] == 18  # 17 + 4 crowns, capped: 20 - 2 tokens on the board


@pytest.mark.parametrize("total,nw", [(8, True), (7, False)])
def test_wildling_strength_is_the_current_threat_w_16_2_w_16_4(total: int, nw: bool) -> None:
    st = pos(
        player_count=3,
        units={"winterfell": ["stark", "footman"]},
        start="wildling_attack",
        threat=8,
        power={"stark": 10, "lannister": 0, "baratheon": 0},
        wildling_top=["silence_at_the_wall"],
    )
    for h, n in {"stark": total, "lannister": 0, "baratheon": 0}.items():
        do(st, Bid(h, n))
    assert st.threat == (0 if nw else 4)


def test_every_house_bids_zero_to_its_available_power_at_once_w_16_3() -> None:
    st = pos(player_count=4, start="wildling_attack", threat=6, power={"stark": 2, "greyjoy": 0})
    assert sorted(st.current_players()) == sorted(st.houses)
    assert st.legal_actions("stark") == [Bid("stark", n) for n in range(3)]
    assert st.legal_actions("greyjoy") == [Bid("greyjoy", 0)]


# ---------------------------------------------------------------- W-4.6 / W-6.1 / W-9.12 structure


def test_eleven_westeros_cards_carry_a_wildling_icon_w_4_6() -> None:
    decks = _DATA.westeros_decks
    assert sum(1 for k in decks for c in decks[k] if _DATA.westeros_cards[c]["wildling_icon"]) == 11
    assert [len(decks[k]) for k in (1, 2, 3)] == [10, 10, 10]


def test_action_phase_resolves_raids_then_marches_then_consolidation_w_6_1() -> None:
    st = pos(
        units={
            "moat_cailin": ["stark", "footman"],
            "white_harbor": ["stark", "footman"],
            "winterfell": ["stark", "footman"],
        },
        orders={"moat_cailin": "march", "white_harbor": "consolidate_power", "winterfell": "raid"},
        start="action",
    )
    seen = []
    while st.pending and st.round == 1:
        seen.append(pending(st).kind)
        p = st.current_players()[0]
        acts = st.legal_actions(p)
        if pending(st).kind == "march_move":
            do(st, EndMarch(p, False))
        else:
            do(st, acts[0])
        if st.phase != "action":
            break
    assert seen[:4] == ["raid", "march_select", "march_move", "consolidate"]


def test_combat_sub_steps_win_texts_then_casualties_then_retreat_w_9_12_w_22_6() -> None:
    st = combat(
        ["knight", "knight"],
        ["footman", "footman"],
        "tywin_lannister",
        "the_blackfish",
        supply={"stark": 3},
    )
    log = texts(st)
    i_win = next(i for i, t in enumerate(log) if "Lannister wins" in t)
    i_tywin = next(i for i, t in enumerate(log) if t.startswith("Tywin Lannister:"))
    assert i_win < i_tywin
    assert pending(st).decision == "retreat"  # retreat comes after the on-win text


def test_consolidate_port_and_star_port_give_only_the_normal_effect_w_7_5_2_w_7_5_3() -> None:
    st = pos(
        units={"lannisport_port": ["lannister", "ship"]},
        orders={"lannisport_port": "consolidate_power_special"},
        power={"lannister": 0},
        start="action",
    )
    assert st.legal_actions("lannister") == [ResolveConsolidate("lannister", "lannisport_port", False)]


def test_a_winner_without_surviving_units_does_not_take_the_losers_token_w_8_3_w_17_3() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        "ser_gregor_clegane",
        "mace_tyrell",
        dfn="tyrell",
        extra_units={"blackwater": ["baratheon", "knight", "knight"]},
        orders={"blackwater": "support"},
        supports={"baratheon": "lannister"},
        tokens={"harrenhal": "tyrell"},
    )
    # Mace kills the only attacking footman; 0 + 4 + 3 = 7 beats 1 + 4 = 5 anyway
    assert numbers(st) == (7, 5) and "harrenhal" not in st.units
    assert st.tokens["harrenhal"] == "tyrell" and st.control("harrenhal") == "tyrell"


# ---------------------------------------------------------------- W-1 components, W-19, W-20, W-22


def test_map_and_card_components_w_1_2_w_1_11() -> None:
    kinds = [a["kind"] for a in _DATA.areas.values()]
    assert (len(kinds), kinds.count("land"), kinds.count("sea"), kinds.count("port")) == (58, 38, 12, 8)
    castles = [a["castle"] for a in _DATA.areas.values()]
    assert castles.count("stronghold") == 10 and castles.count("castle") == 10
    homes = {a["home_house"]: i for i, a in _DATA.areas.items() if a.get("home_house")}
    assert homes == {
        "stark": "winterfell",
        "lannister": "lannisport",
        "baratheon": "dragonstone",
        "greyjoy": "pyke",
        "tyrell": "highgarden",
        "martell": "sunspear",
    }
    assert all(len(v) == 7 for v in _DATA.cards_by_house.values()) and len(_DATA.cards_by_house) == 6
    assert len(_DATA.wildling_cards) == 9


def test_unit_limits_stop_mustering_w_1_3_w_13_5() -> None:
    singles = ("white_harbor", "castle_black", "karhold", "the_stony_shore", "widows_watch")
    st = pos(
        units={"winterfell": ["stark", "footman"], **{a: ["stark", "knight"] for a in singles}},
        orders={"winterfell": "consolidate_power_special"},
        start="action",
    )
    do(st, ResolveConsolidate("stark", "winterfell", True))
    assert st.available_units("stark", "knight") == 0
    units = {a.unit for a in st.legal_actions("stark") if isinstance(a, Muster)}
    assert "knight" not in units and {"footman", "siege_engine", "ship"} <= units


def test_a_single_unit_is_not_an_army_w_1_5_w_12_3() -> None:
    st = pos(
        units={a: ["stark", "footman"] for a in ("winterfell", "white_harbor", "karhold", "castle_black")}
    )
    st.supply["stark"] = 0
    assert st.supply_ok("stark")
    st.add_unit("winterfell", "stark", "footman")
    st.add_unit("karhold", "stark", "footman")
    assert st.supply_ok("stark")
    st.add_unit("castle_black", "stark", "footman")
    assert not st.supply_ok("stark")  # three armies at supply 0 (2, 2)


def test_fifteen_order_tokens_five_special_w_1_6() -> None:
    assert sum(t["count"] for t in _DATA.tokens.values()) == 15
    assert sum(t["count"] for t in _DATA.tokens.values() if t["special"]) == 5


def test_tracks_turn_order_victory_track_and_garrisons_at_setup_w_1_8_w_1_10_w_1_12() -> None:
    st = pos(player_count=6)
    assert st.turn_order() == ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]
    assert {h: st.castle_count(h) for h in st.houses} == {h: 2 if h == "stark" else 1 for h in st.houses}
    assert set(st.garrisons.values()) == {2} and len(st.garrisons) == 6


def test_combat_names_attacker_defender_and_embattled_area_w_1_14() -> None:
    st = combat(["footman"], ["footman"], None, None)
    assert (combat_of(st).attacker, combat_of(st).defender, combat_of(st).area) == (
        "lannister",
        "stark",
        "harrenhal",
    )


def test_retreated_units_are_routed_w_1_13() -> None:
    st = combat(["footman"], ["knight"], "the_hound", "greatjon_umber")
    assert st.units["stoney_sept"].routed == ("footman",)


def test_no_action_transfers_anything_between_houses_w_19_2() -> None:
    from boardgame.engine.actions import ACTION_TYPES

    assert set(ACTION_TYPES) == {
        "place_order",
        "remove_order",
        "finish_orders",
        "reopen_orders",
        "raven_swap",
        "resolve_raid",
        "choose_march",
        "march_move",
        "end_march",
        "declare_support",
        "play_house_card",
        "resolve_consolidate",
        "muster",
        "bid",
        "choose",
    }


def test_support_is_asked_house_by_house_in_turn_order_w_19_4_w_9_2() -> None:
    st = march_on_harrenhal(
        {
            "blackwater": ["baratheon", "knight"],
            "riverrun": ["tyrell", "footman"],
            "crackclaw_point": ["martell", "footman"],
        }
    )
    asked = []
    while pending(st).kind == "support":
        asked.append(st.current_players()[0])
        do(st, DeclareSupport(asked[-1], "none"))
    assert asked == ["baratheon", "martell", "tyrell"]  # Iron Throne order of the 6-player set-up


def test_one_declaration_covers_all_of_a_houses_support_orders_w_22_4() -> None:
    st = combat(
        ["footman"],
        ["footman"],
        None,
        None,
        extra_units={"blackwater": ["baratheon", "knight"], "crackclaw_point": ["baratheon", "footman"]},
        orders={"blackwater": "support", "crackclaw_point": "support"},
        supports={"baratheon": "lannister"},
    )
    assert combat_of(st).support == {"baratheon": "lannister"}
    combat_of(st).cards = {"lannister": None, "stark": None}
    assert st.combat_numbers()["lannister"]["strength"] == 1 + 2 + 1


def test_raven_swap_is_public_once_done_w_20_3() -> None:
    st = pos(
        player_count=3,
        units={"winterfell": ["stark", "footman"], "lannisport": ["lannister", "footman"]},
        tracks={"kings_court": ["stark", "lannister", "baratheon"]},
    )
    do(st, PlaceOrder("stark", "winterfell", "march"))
    do(st, PlaceOrder("lannister", "lannisport", "march"))
    from boardgame.engine.actions import FinishOrders, RavenSwap

    do(st, FinishOrders("stark"))
    do(st, FinishOrders("lannister"))
    do(st, RavenSwap("stark", "winterfell", "defense_plus_one"))
    text = " ".join(e["text"] for e in st.log_view("lannister"))
    assert "replaces March +0 with Defense +1 in winterfell" in text


def test_winter_is_coming_reshuffles_the_used_cards_too_w_22_2_w_4_2() -> None:
    st = pos(
        player_count=3,
        start="westeros",
        round=2,
        westeros_top=["winter_is_coming", "last_days_of_summer", "sea_of_storms"],
    )
    # the whole deck (Winter is Coming and every used card) was shuffled, none set aside
    assert sorted(st.wdecks["1"]) == sorted(_DATA.westeros_decks[1])
    assert st.revealed[0] != "1:winter_is_coming" and "reshuffled" in " ".join(texts(st))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_smaller_games_close_up_the_six_player_tracks_w_22_8_w_2_3(n: int) -> None:
    six = pos(player_count=6).tracks
    st = pos(player_count=n)
    for t, order in st.tracks.items():
        assert order == [h for h in six[t] if h in st.houses]


def test_raven_swap_keeps_the_special_order_limit_w_5_5_w_5_2() -> None:
    from boardgame.engine.actions import FinishOrders, RavenSwap

    areas = ("winterfell", "white_harbor", "castle_black", "karhold")
    st = pos(
        player_count=3,
        units={**{a: ["stark", "footman"] for a in areas}, "lannisport": ["lannister", "footman"]},
        tracks={"kings_court": ["stark", "lannister", "baratheon"]},
    )
    for a, t in zip(areas, ("march_plus_one", "defense_plus_two", "support_plus_one", "raid"), strict=True):
        do(st, PlaceOrder("stark", a, t))
    do(st, PlaceOrder("lannister", "lannisport", "march"))
    do(st, FinishOrders("stark"))
    do(st, FinishOrders("lannister"))
    swaps = [a for a in st.legal_actions("stark") if isinstance(a, RavenSwap)]
    assert not [a for a in swaps if a.area == "karhold" and a.token in STAR]  # a 4th star: no
    assert RavenSwap("stark", "winterfell", "raid_special") in swaps  # star for star: yes


def test_two_wildling_attacks_in_one_westeros_phase_w_16_1_w_4_1() -> None:
    st = pos(
        player_count=3,
        units={"winterfell": ["stark", "footman"], "lannisport": ["lannister", "footman"]},
        start="westeros",
        round=2,
        threat=10,
        power={"stark": 12, "lannister": 0, "baratheon": 0},
        westeros_top=["last_days_of_summer", "game_of_thrones", "wildlings_attack"],
        wildling_top=["silence_at_the_wall", "skinchanger_scout"],
    )
    assert st.threat == 12 and pending(st).kind == "bid"  # the icon brought the threat to 12
    for h, n in {"stark": 12, "lannister": 0, "baratheon": 0}.items():
        do(st, Bid(h, n))
    assert st.threat == 0
    # Game of Thrones resolved, then the Wildlings Attack card attacks again at strength 0
    assert pending(st).kind == "bid" and need(pending(st).task).strength == 0
    for h in ("stark", "lannister", "baratheon"):
        do(st, Bid(h, 0))
    attacks = [t for t in texts(st) if t.startswith("The wildlings attack")]
    assert attacks == ["The wildlings attack with strength 12", "The wildlings attack with strength 0"]


def test_round_ten_most_land_areas_beats_a_higher_supply_w_18_2() -> None:
    st = last_round(
        units={
            "winterfell": ["stark", "footman"],
            "castle_black": ["stark", "footman"],
            "karhold": ["stark", "footman"],
            "lannisport": ["lannister", "footman"],
            "dragonstone": ["baratheon", "footman"],
        },
        supply={"stark": 0, "lannister": 6, "baratheon": 6},
    )
    assert outcome_of(st).winner == "stark" and outcome_of(st).reason == "round_limit"
