"""Action phase: raids (W-7.2), consolidate power (W-7.5), marches (W-7.1), geography (W-10, W-11)."""

from __future__ import annotations

from boardgame.engine.actions import (
    ChooseMarch,
    DeclareSupport,
    EndMarch,
    MarchMove,
    Muster,
    ResolveConsolidate,
    ResolveRaid,
)
from boardgame.engine.data import GameData
from boardgame.engine.game import WesterosState
from boardgame.engine.structures import Units

from .conftest import do, pending, pos, raid_actions


def test_land_raid_reaches_only_adjacent_land_and_star_raid_may_hit_defense_w_7_2_1_w_7_2_2() -> None:
    st = pos(
        units={
            "moat_cailin": ["stark", "footman"],
            "white_harbor": ["stark", "footman"],
            "greywater_watch": ["greyjoy", "footman"],
            "the_twins": ["greyjoy", "footman"],
            "seagard": ["greyjoy", "footman"],
            "the_narrow_sea": ["greyjoy", "ship"],
        },
        orders={
            "moat_cailin": "raid",
            "white_harbor": "raid_special",
            "greywater_watch": "consolidate_power",
            "the_twins": "defense_plus_one",
            "seagard": "march",
            "the_narrow_sea": "support",
        },
        start="action",
    )
    assert st.current_players() == ["stark"]
    targets = {a.target for a in raid_actions(st, "stark") if a.area == "moat_cailin"}
    assert targets == {None, "greywater_watch"}  # no defense (normal raid), no march, no sea
    star = {a.target for a in raid_actions(st, "stark") if a.area == "white_harbor"}
    assert star == {None}  # white harbor touches no greyjoy land order; sea is out of reach for land
    do(st, ResolveRaid("stark", "moat_cailin", "greywater_watch"))
    assert "greywater_watch" not in st.orders and "moat_cailin" not in st.orders


def test_star_raid_may_remove_a_defense_order_w_7_2_1() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "footman"], "the_twins": ["greyjoy", "footman"]},
        orders={"moat_cailin": "raid_special", "the_twins": "defense_plus_two"},
        start="action",
    )
    assert ResolveRaid("stark", "moat_cailin", "the_twins") in st.legal_actions("stark")
    do(st, ResolveRaid("stark", "moat_cailin", "the_twins"))
    assert "the_twins" not in st.orders


def test_pillage_moves_one_power_w_7_2_3() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "footman"], "greywater_watch": ["greyjoy", "footman"]},
        orders={"moat_cailin": "raid", "greywater_watch": "consolidate_power"},
        power={"stark": 3, "greyjoy": 4},
        start="action",
    )
    do(st, ResolveRaid("stark", "moat_cailin", "greywater_watch"))
    assert st.power["stark"] == 4 and st.power["greyjoy"] == 3


def test_sea_raid_reaches_ports_and_port_raid_only_its_sea_w_7_2_2() -> None:
    st = pos(
        units={
            "the_golden_sound": ["greyjoy", "ship"],
            "lannisport_port": ["lannister", "ship"],
            "lannisport": ["lannister", "footman"],
        },
        orders={"the_golden_sound": "raid", "lannisport_port": "raid", "lannisport": "support"},
        start="action",
    )
    first = st.current_players()[0]
    assert first == "lannister"  # Iron Throne: baratheon, lannister, ... (baratheon has no raid)
    assert {a.target for a in raid_actions(st, "lannister") if a.area == "lannisport_port"} == {
        None,
        "the_golden_sound",
    }
    do(st, ResolveRaid("lannister", "lannisport_port", None))
    targets = {a.target for a in raid_actions(st, "greyjoy")}
    assert targets == {None, "lannisport"}  # the port's order is gone; the land support is in reach


def test_raids_cycle_in_turn_order_one_order_at_a_time_w_6_2() -> None:
    st = pos(
        units={
            "moat_cailin": ["stark", "footman"],
            "white_harbor": ["stark", "footman"],
            "kingswood": ["baratheon", "footman"],
            "blackwater": ["baratheon", "footman"],
        },
        orders={"moat_cailin": "raid", "white_harbor": "raid", "kingswood": "raid", "blackwater": "raid"},
        start="action",
    )
    seen = []
    while st.pending and pending(st).kind == "raid":
        p = st.current_players()[0]
        seen.append(p)
        do(st, next(a for a in raid_actions(st, p) if a.target is None))
    assert seen == ["baratheon", "stark", "baratheon", "stark"]


def test_consolidate_power_land_crowns_and_port_w_7_5_1_w_7_5_2() -> None:
    st = pos(
        units={
            "kings_landing": ["baratheon", "footman"],
            "lannisport_port": ["lannister", "ship"],
            "the_golden_sound": ["greyjoy", "ship"],
            "harrenhal": ["lannister", "footman"],
        },
        orders={
            "kings_landing": "consolidate_power",
            "lannisport_port": "consolidate_power",
            "harrenhal": "consolidate_power",
        },
        neutral={},
        power={"baratheon": 0, "lannister": 0},
        start="action",
    )
    do(st, ResolveConsolidate("baratheon", "kings_landing", False))
    assert st.power["baratheon"] == 3  # 1 + 2 crowns
    do(st, ResolveConsolidate("lannister", "lannisport_port", False))
    assert st.power["lannister"] == 0  # enemy ship in the golden sound
    do(st, ResolveConsolidate("lannister", "harrenhal", False))
    assert st.power["lannister"] == 2


def test_power_never_exceeds_twenty_w_1_7() -> None:
    st = pos(
        units={"kings_landing": ["baratheon", "footman"]},
        orders={"kings_landing": "consolidate_power"},
        neutral={},
        power={"baratheon": 18},
        tokens={"kingswood": "baratheon"},
        start="action",
    )
    do(st, ResolveConsolidate("baratheon", "kings_landing", False))
    assert st.power["baratheon"] == 19


def test_star_consolidate_musters_in_a_castle_area_w_7_5_3_w_13() -> None:
    st = pos(
        units={"winterfell": ["stark", "footman"], "white_harbor": ["stark", "footman"]},
        orders={"winterfell": "consolidate_power_special", "white_harbor": "consolidate_power"},
        start="action",
    )
    acts = st.legal_actions("stark")
    assert ResolveConsolidate("stark", "white_harbor", True) not in acts  # normal token: no muster
    do(st, ResolveConsolidate("stark", "winterfell", True))
    acts = st.legal_actions("stark")
    assert Muster("stark", "winterfell", "knight", "winterfell") in acts
    assert Muster("stark", "winterfell", "ship", "winterfell_port") in acts
    assert Muster("stark", "winterfell", "ship", "bay_of_ice") in acts
    assert Muster("stark", "winterfell", "knight", "winterfell", True) in acts  # upgrade
    do(st, Muster("stark", "winterfell", "knight", "winterfell"))
    assert sorted(st.units["winterfell"].units) == ["footman", "knight"]


def test_march_splits_into_several_areas_and_leaves_a_power_token_w_7_1_1_w_7_1_5() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "footman", "knight"]},
        orders={"moat_cailin": "march"},
        tokens={"the_twins": "greyjoy"},
        start="action",
    )
    do(st, ChooseMarch("stark", "moat_cailin"))
    do(st, MarchMove("stark", ("footman",), "the_twins"))
    assert "the_twins" not in st.tokens  # W-7.1.3: enemy token removed, no combat
    do(st, MarchMove("stark", ("knight",), "seagard"))
    assert EndMarch("stark", True) in st.legal_actions("stark")
    do(st, EndMarch("stark", True))
    assert st.tokens["moat_cailin"] == "stark" and st.power["stark"] == 4
    assert st.control("moat_cailin") == "stark" and st.control("seagard") == "stark"


def test_vacating_without_token_loses_control_w_7_1_5_w_8_1() -> None:
    st = pos(units={"moat_cailin": ["stark", "footman"]}, orders={"moat_cailin": "march"}, start="action")
    do(st, ChooseMarch("stark", "moat_cailin"))
    do(st, MarchMove("stark", ("footman",), "the_twins"))
    do(st, EndMarch("stark", False))
    assert st.control("moat_cailin") is None


def test_only_one_combat_per_march_w_7_1_2() -> None:
    st = pos(
        units={
            "moat_cailin": ["stark", "footman", "footman"],
            "the_twins": ["greyjoy", "footman"],
            "seagard": ["greyjoy", "footman"],
        },
        orders={"moat_cailin": "march"},
        supply={"stark": 3},
        start="action",
    )
    do(st, ChooseMarch("stark", "moat_cailin"))
    do(st, MarchMove("stark", ("footman",), "the_twins"))
    dests = {a.dest for a in st.legal_actions("stark") if isinstance(a, MarchMove)}
    assert "seagard" not in dests and "the_twins" in dests


def test_march_must_respect_supply_w_7_1_4_w_12_3() -> None:
    st = pos(
        units={
            "moat_cailin": ["stark", "footman", "footman"],
            "the_twins": ["stark", "footman", "footman"],
            "winterfell": ["stark", "footman", "footman"],
        },
        orders={"moat_cailin": "march"},
        supply={"stark": 1},  # armies 3, 2
        start="action",
    )
    # already 3 armies of 2 > limit is not our concern here; check a move that makes a 4-army illegal
    st.units.pop("winterfell")
    do(st, ChooseMarch("stark", "moat_cailin"))
    acts = [a for a in st.legal_actions("stark") if isinstance(a, MarchMove) and a.dest == "the_twins"]
    assert MarchMove("stark", ("footman",), "the_twins") in acts
    assert MarchMove("stark", ("footman", "footman"), "the_twins") not in acts  # would make an army of 4


def test_ship_transport_links_land_areas_w_10_3_and_islands_w_10_2() -> None:
    st = pos(
        units={"dragonstone": ["baratheon", "knight"], "shipbreaker_bay": ["baratheon", "ship"]},
        orders={"dragonstone": "march"},
        start="action",
    )
    do(st, ChooseMarch("baratheon", "dragonstone"))
    dests = {a.dest for a in st.legal_actions("baratheon") if isinstance(a, MarchMove)}
    assert {"kingswood", "crackclaw_point", "storms_end"} <= dests
    st2 = pos(units={"dragonstone": ["baratheon", "knight"]}, orders={"dragonstone": "march"}, start="action")
    do(st2, ChooseMarch("baratheon", "dragonstone"))
    assert not [a for a in st2.legal_actions("baratheon") if isinstance(a, MarchMove)]  # island, no ship


def test_ports_hold_three_ships_and_need_control_of_their_land_w_10_4() -> None:
    st = pos(
        units={"ironmans_bay": ["greyjoy", "ship", "ship"], "pyke_port": ["greyjoy", "ship", "ship"]},
        orders={"ironmans_bay": "march"},
        supply={"greyjoy": 6},
        start="action",
    )
    do(st, ChooseMarch("greyjoy", "ironmans_bay"))
    acts = [a for a in st.legal_actions("greyjoy") if isinstance(a, MarchMove) and a.dest == "pyke_port"]
    assert acts == [MarchMove("greyjoy", ("ship",), "pyke_port")]
    st2 = pos(
        units={"the_golden_sound": ["greyjoy", "ship"]}, orders={"the_golden_sound": "march"}, start="action"
    )
    do(st2, ChooseMarch("greyjoy", "the_golden_sound"))
    assert "lannisport_port" not in {a.dest for a in st2.legal_actions("greyjoy") if isinstance(a, MarchMove)}


def test_neutral_force_needs_enough_strength_w_11_1() -> None:
    st = pos(
        units={
            "blackwater": ["lannister", "footman", "knight"],
            "the_reach": ["lannister", "knight"],
        },
        orders={"blackwater": "march_plus_one", "the_reach": "support"},
        start="action",
    )
    do(st, ChooseMarch("lannister", "blackwater"))
    acts = [
        a for a in st.legal_actions("lannister") if isinstance(a, MarchMove) and a.dest == "kings_landing"
    ]
    # knight 2 + march +1 + own support 2 = 5 >= 5; the footman alone (4) falls short
    assert MarchMove("lannister", ("footman",), "kings_landing") not in acts
    assert MarchMove("lannister", ("knight",), "kings_landing") in acts
    do(st, MarchMove("lannister", ("footman", "knight"), "kings_landing"))
    do(st, EndMarch("lannister", False))
    assert "kings_landing" not in st.neutral and st.control("kings_landing") == "lannister"


def test_impassable_areas_are_never_legal_w_2_4() -> None:
    st = pos(
        player_count=3,
        units={"searoad_marches": ["lannister", "footman"]},
        orders={"searoad_marches": "march"},
        start="action",
    )
    do(st, ChooseMarch("lannister", "searoad_marches"))
    dests = {a.dest for a in st.legal_actions("lannister") if isinstance(a, MarchMove)}
    assert "highgarden" not in dests and "the_reach" in dests


def test_routed_units_cannot_march_w_9_10_5() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "routed footman"]}, orders={"moat_cailin": "march"}, start="action"
    )
    do(st, ChooseMarch("stark", "moat_cailin"))
    assert st.legal_actions("stark") == [EndMarch("stark", False)]


def test_cleanup_rallies_routed_units_and_refreshes_tokens_w_6_3() -> None:
    st = pos(
        units={"moat_cailin": ["stark", "routed footman"]},
        blade_used=True,
        raven_used=True,
        start="action",
        westeros_top=["last_days_of_summer", "last_days_of_summer", "put_to_the_sword"],
    )
    assert st.units["moat_cailin"] == Units("stark", ("footman",), ())
    assert not st.blade_used and not st.raven_used and st.round == 2


def test_land_marches_follow_the_adjacency_data_rivers_and_bridges_w_10_1() -> None:
    st = pos(units={"riverrun": ["lannister", "footman"]}, orders={"riverrun": "march"}, start="action")
    do(st, ChooseMarch("lannister", "riverrun"))
    dests = {a.dest for a in st.legal_actions("lannister") if isinstance(a, MarchMove)}
    expected = {a for a in st.data.adj["riverrun"] if st.data.kind(a) == "land"}
    assert dests == expected and "the_twins" not in dests


def test_orphan_port_rule_can_be_switched_off_w_22_5(gd: GameData) -> None:
    from boardgame.engine.config import RulesConfig
    from boardgame.engine.position import from_position

    st = from_position(
        gd,
        {
            "player_count": 6,
            "start": "action",
            "units": {"white_harbor": ["stark", "footman"], "white_harbor_port": ["stark", "ship"]},
            "orders": {"white_harbor": "march"},
        },
        RulesConfig(orphan_port_ships_destroyed=False),
    )
    do(st, ChooseMarch("stark", "white_harbor"))
    do(st, MarchMove("stark", ("footman",), "widows_watch"))
    do(st, EndMarch("stark", False))
    assert st.units["white_harbor_port"].units == ("ship",)


def test_port_consolidate_gains_one_when_its_sea_is_free_w_7_5_2() -> None:
    st = pos(
        units={"lannisport_port": ["lannister", "ship"]},
        orders={"lannisport_port": "consolidate_power"},
        power={"lannister": 0},
        start="action",
    )
    do(st, ResolveConsolidate("lannister", "lannisport_port", False))
    assert st.power["lannister"] == 1


def test_ship_mustering_uses_the_port_even_past_enemy_ships_but_not_enemy_seas_w_13_4() -> None:
    st = pos(
        units={"lannisport": ["lannister", "footman"], "the_golden_sound": ["greyjoy", "ship"]},
        orders={"lannisport": "consolidate_power_special"},
        start="action",
    )
    do(st, ResolveConsolidate("lannister", "lannisport", True))
    ships = {a.dest for a in st.legal_actions("lannister") if isinstance(a, Muster) and a.unit == "ship"}
    assert ships == {"lannisport_port"}


def test_transport_never_uses_another_houses_ships_w_10_3() -> None:
    st = pos(
        units={"dragonstone": ["baratheon", "knight"], "shipbreaker_bay": ["stark", "ship"]},
        orders={"dragonstone": "march"},
        start="action",
    )
    do(st, ChooseMarch("baratheon", "dragonstone"))
    assert not [a for a in st.legal_actions("baratheon") if isinstance(a, MarchMove)]


def _neutral_with_baratheon_support() -> WesterosState:
    st = pos(
        units={"blackwater": ["lannister", "knight"], "kingswood": ["baratheon", "knight"]},
        orders={"blackwater": "march_plus_one", "kingswood": "support"},
        start="action",
    )
    do(st, ChooseMarch("lannister", "blackwater"))
    # 2 + 1 = 3 alone; Baratheon's support (2) could make 5 = King's Landing's neutral force
    assert MarchMove("lannister", ("knight",), "kings_landing") in st.legal_actions("lannister")
    do(st, MarchMove("lannister", ("knight",), "kings_landing"))
    do(st, EndMarch("lannister", False))
    assert st.current_players() == ["baratheon"]
    assert set(st.legal_actions("baratheon")) == {
        DeclareSupport("baratheon", "lannister"),
        DeclareSupport("baratheon", "none"),
    }
    return st


def test_other_houses_may_support_an_attack_on_a_neutral_force_w_11_1() -> None:
    st = do(_neutral_with_baratheon_support(), DeclareSupport("baratheon", "lannister"))
    assert "kings_landing" not in st.neutral and st.units["kings_landing"].house == "lannister"


def test_a_neutral_attack_that_falls_short_stays_home_w_11_1() -> None:
    st = do(_neutral_with_baratheon_support(), DeclareSupport("baratheon", "none"))
    assert st.neutral["kings_landing"] == 5
    assert st.units["blackwater"] == Units("lannister", ("knight",), ())
