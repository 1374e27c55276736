"""Every curated edit that would break the rules is refused with its reason (W-1.2, W-10, W-11, W-17)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from boardgame import dataset, services, validation
from boardgame.models import (
    Adjacency,
    Area,
    House,
    HouseCard,
    NeutralForce,
    Port,
    Setup,
    StartingUnit,
    TrackTable,
    WesterosCard,
)
from config.errors import ApplicationError

pytestmark = pytest.mark.django_db


def area(slug: str) -> Area:
    return Area.objects.get(slug=slug)


def six(data: dict[str, Any]) -> dict[str, Any]:
    return {k: data[k] for k in validation.GAME_SECTIONS}


# --- adjacency (W-10.1)


def test_self_adjacency_is_refused_w_10_1(westeros: Any) -> None:
    with pytest.raises(ValidationError, match="never adjacent to itself"):
        Adjacency(area_a=area("kingswood"), area_b=area("kingswood")).full_clean()


def test_reverse_duplicate_edge_is_refused_adjacency_is_symmetric_w_10_1(westeros: Any) -> None:
    a, b = sorted([area("kingswood"), area("storms_end")], key=lambda x: x.pk)
    with pytest.raises(ValidationError, match="already adjacent; adjacency is symmetric"):
        Adjacency(area_a=b, area_b=a).full_clean()


def test_database_stores_each_edge_once_and_never_a_loop_w_10_1(westeros: Any) -> None:
    kw, se = area("kingswood"), area("storms_end")
    with pytest.raises(IntegrityError), transaction.atomic():
        Adjacency.objects.create(area_a=se, area_b=kw)  # save() orders the pair, so it is a duplicate
    with pytest.raises(IntegrityError), transaction.atomic():
        Adjacency.objects.bulk_create([Adjacency(area_a=kw, area_b=kw)])


def test_neighbours_are_symmetric(westeros: Any) -> None:
    services.area_set_neighbours(
        area=area("karhold"), neighbours=[area("castle_black"), area("winterfell"), area("white_harbor")]
    )
    assert area("karhold").pk in area("white_harbor").neighbour_ids()
    assert area("white_harbor").pk in area("karhold").neighbour_ids()


def test_set_neighbours_refuses_a_self_loop_w_10_1(westeros: Any) -> None:
    with pytest.raises(ApplicationError, match="adjacent to itself"):
        services.area_set_neighbours(area=area("karhold"), neighbours=[area("karhold")])


def test_asymmetric_or_duplicate_edges_in_an_import_are_refused_w_10_1(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    data["map"]["adjacency"].append(["storms_end", "kingswood"])
    data["map"]["adjacency"].append(["kingswood", "nowhere"])
    errors = validation.game_data_errors(data)
    assert any("listed twice; adjacency is symmetric" in e for e in errors)
    assert any("unknown area(s) nowhere" in e for e in errors)


def test_disconnected_map_is_refused(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    data["map"]["adjacency"] = [e for e in data["map"]["adjacency"] if "the_eyrie" not in e]
    errors = validation.game_data_errors(data)
    assert any("not connected" in e for e in errors)
    assert any("the_eyrie has no neighbour" in e for e in errors)


def test_wrong_island_flag_is_refused_w_10_2(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    next(a for a in data["map"]["areas"] if a["id"] == "pyke")["island"] = False
    assert any("pyke: island must be True" in e for e in validation.game_data_errors(data))


# --- ports (W-1.2, W-10.4)


def test_port_on_a_land_area_without_castle_is_refused_w_1_2(westeros: Any) -> None:
    port = Port.objects.get(area__slug="storms_end_port")
    port.land_area = area("kingswood")
    with pytest.raises(ValidationError, match="Kingswood has no castle or stronghold"):
        port.full_clean()


def test_port_onto_a_sea_not_adjacent_to_its_land_is_refused_w_1_2(westeros: Any) -> None:
    port = Port.objects.get(area__slug="winterfell_port")
    port.sea_area = area("the_narrow_sea")
    with pytest.raises(ValidationError, match="The Narrow Sea is not adjacent to Winterfell"):
        port.full_clean()


def test_port_onto_a_land_area_is_refused(westeros: Any) -> None:
    port = Port.objects.get(area__slug="winterfell_port")
    port.sea_area = area("karhold")
    with pytest.raises(ValidationError, match="not a sea area"):
        port.full_clean()


def test_port_bordering_a_third_area_is_refused_w_10_4(westeros: Any) -> None:
    with pytest.raises(ValidationError, match="may only border its land area"):
        Adjacency(area_a=area("winterfell_port"), area_b=area("the_stony_shore")).full_clean()
    with pytest.raises(ValidationError, match="may only border"):
        Adjacency(area_a=area("the_shivering_sea"), area_b=area("winterfell_port")).full_clean()


def test_port_with_extra_border_in_an_import_is_refused_w_10_4(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    data["map"]["adjacency"].append(["the_stony_shore", "winterfell_port"])
    errors = validation.game_data_errors(data)
    assert any(
        "port winterfell_port must border exactly its land winterfell and its sea bay_of_ice" in e
        for e in errors
    )


def test_removing_the_castle_of_a_port_area_is_refused(westeros: Any) -> None:
    wf = area("white_harbor")
    wf.castle = "none"
    with pytest.raises(ValidationError, match="has a port"):
        wf.full_clean()


def test_port_sync_gives_a_port_exactly_its_two_borders(westeros: Any) -> None:
    port = Port.objects.get(area__slug="storms_end_port")
    port.sea_area = area("east_summer_sea")
    port.full_clean()
    port.save()
    services.port_sync_edges(port=port)
    assert port.area.neighbour_ids() == {area("storms_end").pk, area("east_summer_sea").pk}
    assert dataset.dataset_errors() == []


def test_a_land_area_cannot_lose_the_sea_its_port_opens_onto(westeros: Any) -> None:
    wf = area("winterfell")
    keep = [Area.objects.get(pk=pk) for pk in wf.neighbour_ids() if pk != area("bay_of_ice").pk]
    problems = services.neighbour_problems(area=wf, neighbours=keep)
    assert any("must stay adjacent" in p for p in problems)


# --- areas


def test_sea_with_icons_is_refused_w_1_2(westeros: Any) -> None:
    sea = area("sea_of_dorne")
    sea.crowns = 1
    with pytest.raises(ValidationError, match="carry no castle, supply or crown"):
        sea.full_clean()


def test_home_area_must_be_a_stronghold_w_1_2(westeros: Any) -> None:
    kw = area("kingswood")
    kw.home_house = House.objects.get(slug="tyrell")
    with pytest.raises(ValidationError, match="home area is a stronghold"):
        kw.full_clean()


def test_bad_outline_is_refused(westeros: Any) -> None:
    kw = area("kingswood")
    kw.outline = [[1, 2], [3]]
    with pytest.raises(ValidationError, match="outline"):
        kw.full_clean()


# --- house cards (W-17.1)


def test_eighth_house_card_is_refused_w_17_1(westeros: Any) -> None:
    card = HouseCard(slug="jon_snow", house=House.objects.get(slug="stark"), name="Jon Snow", strength=2)
    with pytest.raises(ValidationError, match="already has 7 house cards"):
        card.full_clean()


def test_moving_a_card_to_another_house_is_refused_w_17_1(westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    card.house = House.objects.get(slug="lannister")
    with pytest.raises(ValidationError, match="exactly 7 house cards"):
        card.full_clean()


def test_deleting_a_house_card_is_refused_w_17_1(westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    with pytest.raises(ApplicationError, match="must keep exactly 7"):
        services.house_card_delete(card=card)
    assert HouseCard.objects.filter(slug="eddard_stark").exists()


def test_hand_strengths_must_be_4_3_2_2_1_1_0_w_17_1() -> None:
    assert services.hand_strength_problem([4, 3, 2, 2, 1, 1, 0]) is None
    assert "4, 4, 2, 2, 1, 1, 0" in services.hand_strength_problem([4, 4, 2, 2, 1, 1, 0])


def test_wrong_strengths_in_an_import_are_refused_w_17_1(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    next(c for c in data["house_cards"]["cards"] if c["id"] == "eddard_stark")["strength"] = 3
    errors = validation.game_data_errors(data)
    assert any("stark has strengths 3, 3, 2, 2, 1, 1, 0" in e for e in errors)


def test_effect_text_and_timing_go_together_w_17_1(westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    card.effect_timing = "on_win"
    with pytest.raises(ValidationError, match="timing tag exactly when it has text"):
        card.full_clean()


# --- Westeros cards (W-4, W-1.11)


def test_westeros_deck_must_hold_10_cards_w_1_11(westeros: Any) -> None:
    assert services.deck_size_problem(
        deck=WesterosCard.objects.get(slug="supply").deck, counts=[3, 3, 2, 1]
    ) == ("Westeros deck 1 must hold 10 cards (W-1.11); these counts add up to 9.")


def test_choice_card_without_chooser_is_refused_w_4(westeros: Any) -> None:
    card = WesterosCard.objects.get(slug="put_to_the_sword")
    card.chooser = None
    with pytest.raises(ValidationError, match="names its chooser"):
        card.full_clean()


def test_restriction_of_an_unknown_order_is_refused_w_4(westeros: Any) -> None:
    card = WesterosCard.objects.get(slug="sea_of_storms")
    card.restricted_orders = ["raid", "pillage"]
    with pytest.raises(ValidationError, match="unknown order id"):
        card.full_clean()


# --- set-ups (W-2, W-11)


def test_setup_naming_an_unknown_house_or_area_is_refused_w_2(westeros: Any) -> None:
    setup = Setup.objects.get(player_count=3)
    setup.houses = ["stark", "lannister", "targaryen"]
    setup.impassable_areas = ["valyria"]
    with pytest.raises(ValidationError) as exc:
        setup.full_clean()
    text = str(exc.value)
    assert "unknown house(s): targaryen" in text and "unknown area(s): valyria" in text


def test_dominance_token_goes_to_the_top_of_its_track_w_1_9(westeros: Any) -> None:
    setup = Setup.objects.get(player_count=4)
    setup.dominance_token_holders = {**setup.dominance_token_holders, "iron_throne": "stark"}
    with pytest.raises(ValidationError, match="iron_throne belongs to position 1 of iron_throne"):
        setup.full_clean()


def test_setup_with_wrong_number_of_houses_is_refused_w_1_1(westeros: Any) -> None:
    setup = Setup.objects.get(player_count=5)
    setup.houses = setup.houses[:4]
    with pytest.raises(ValidationError, match="5-player game has 5 houses"):
        setup.full_clean()


def test_impassable_token_has_no_strength_w_11_1(westeros: Any) -> None:
    force = NeutralForce.objects.filter(impassable=True).first()
    force.strength = 3
    with pytest.raises(ValidationError, match="impassable token has no strength"):
        force.full_clean()


def test_neutral_force_on_a_starting_house_area_is_refused_w_2_4(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    data["setup"]["player_counts"]["6"]["neutral_forces"].append(
        {"area": "winterfell", "strength": 3, "impassable": False}
    )
    assert any(
        "neutral force in winterfell, where a house in play starts" in e
        for e in validation.game_data_errors(data)
    )


def test_ship_on_land_is_refused_w_1_3(westeros: Any) -> None:
    unit = StartingUnit(house=House.objects.get(slug="stark"), area=area("winterfell"), unit="ship", count=1)
    with pytest.raises(ValidationError, match="Ships stand only in sea areas and ports"):
        unit.full_clean()


# --- track tables


def test_track_table_with_wrong_order_token_total_is_refused_w_1_6(westeros: Any) -> None:
    table = TrackTable.objects.get(key="order_tokens")
    table.data["tokens"][0]["count"] = 2
    with pytest.raises(ValidationError, match="15 order tokens"):
        table.full_clean()


def test_malformed_track_table_is_refused_not_crashing(westeros: Any) -> None:
    table = TrackTable.objects.get(key="supply_track")
    table.data = {"levels": "many"}
    with pytest.raises(ValidationError, match="supply_track"):
        table.full_clean()


def test_garbage_import_is_reported_not_crashing() -> None:
    assert validation.game_data_errors([]) == [
        "expected an object with the sections " + ", ".join(validation.GAME_SECTIONS)
    ]
    errors = validation.game_data_errors({k: {} for k in validation.GAME_SECTIONS})
    assert len(errors) >= 6


def test_overlong_ids_and_duplicate_house_names_are_refused(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    data["map"]["areas"][0]["id"] = "b" * 61
    data["setup"]["houses"]["lannister"]["name"] = "Stark"
    errors = validation.game_data_errors(data)
    assert any("at most 60 characters" in e for e in errors)
    assert "setup: house name 'Stark' is used twice" in errors


def test_start_values_must_match_the_start_areas_w_2_2(westeros: dict[str, Any]) -> None:
    data = copy.deepcopy(six(westeros))
    next(a for a in data["map"]["areas"] if a["id"] == "white_harbor")["supply"] = 1
    data["setup"]["houses"]["baratheon"]["victory_track"] = 2
    data["setup"]["houses"]["greyjoy"]["starting_units"].append(
        {"area": "greywater_watch", "unit": "knight", "count": 3}
    )
    errors = validation.game_data_errors(data)
    assert "setup: stark: supply_level 1 but its start areas show 2 barrels (W-2.2)" in errors
    assert any(e.startswith("setup: baratheon: victory_track 2 but it starts with 1") for e in errors)
    assert any(
        e.startswith("setup: greyjoy: starting armies [4, 2] do not fit supply level 2") for e in errors
    )


# --- the checks' words in the staff member's language


def test_the_forms_checks_read_in_thai(westeros: Any) -> None:
    """The set-up, Westeros-card and track-table forms and an area's outline show the data checker's
    messages in the active language; ids and JSON keys stay as written."""
    from django.utils import translation

    setup = Setup.objects.get(player_count=3)
    setup.houses = ["stark", "lannister", "targaryen"]
    card = WesterosCard.objects.get(slug="supply")
    card.chooser = "iron_throne"  # only a choice card names who chooses
    table = TrackTable.objects.get(key="rounds")
    table.data = {"max": 0}
    winterfell = area("winterfell")
    winterfell.outline = [[0, 0], [1, 1]]
    with translation.override("th"):
        with pytest.raises(ValidationError) as setup_error:
            setup.full_clean()
        with pytest.raises(ValidationError) as card_error:
            card.full_clean()
        with pytest.raises(ValidationError) as table_error:
            table.full_clean()
        with pytest.raises(ValidationError) as area_error:
            winterfell.full_clean()
    assert "ไม่รู้จักบ้าน: targaryen" in setup_error.value.message_dict["houses"]
    assert card_error.value.message_dict["chooser"] == ["supply: เฉพาะการ์ดแบบเลือกเท่านั้นที่มีผู้เลือกและตัวเลือก"]
    assert table_error.value.message_dict["data"] == ["rounds: max ต้องเป็นจำนวนเต็มบวก"]
    assert area_error.value.message_dict["outline"] == ["เส้นขอบต้องเป็นลิสต์ของจุด [x, y] อย่างน้อย 3 จุด"]


@pytest.mark.parametrize(
    ("language", "summary", "problem"),
    [
        (
            "en",
            "The Westeros data has 2 error(s); nothing was imported.",
            "setup: stark: unknown unit type 'dragon'",
        ),
        (
            "th",
            "ข้อมูล Westeros มีข้อผิดพลาด 2 รายการ ไม่ได้นำเข้าข้อมูลใดเลย",
            "setup: stark: ไม่รู้จักประเภทยูนิต 'dragon'",
        ),
        ("zh-hans", "维斯特洛数据有 2 处错误；未导入任何内容。", "setup: stark: 未知单位类型 'dragon'"),
    ],
)
def test_the_import_words_its_errors_in_the_callers_language(
    westeros: dict[str, Any], language: str, summary: str, problem: str
) -> None:
    from django.utils import translation

    data = copy.deepcopy(westeros)
    data["setup"]["houses"]["stark"]["starting_units"][0]["unit"] = "dragon"
    data["dragons"] = {}
    with translation.override(language), pytest.raises(ApplicationError) as exc:
        dataset.game_data_import(data=data)
    assert exc.value.message == summary
    assert exc.value.extra["errors"][0] == problem
    assert exc.value.extra["errors"][-1] in (
        "unknown section 'dragons'",
        "ไม่รู้จักหมวด 'dragons'",
        "未知的数据节 'dragons'",
    )


def test_an_import_in_thai_still_writes_the_english_names(westeros: dict[str, Any]) -> None:
    """The check speaks the caller's language; the rows are written with English active (the source column)."""
    from django.utils import translation

    with translation.override("th"):
        dataset.game_data_import(data=westeros)
        assert translation.get_language() == "th"
    stark = House.objects.get(slug="stark")
    assert stark.name_en == "Stark" and Area.objects.get(slug="winterfell").name_en == "Winterfell"
    assert dataset.dataset_errors() == []
