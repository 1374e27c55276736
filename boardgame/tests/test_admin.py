"""Staff curation through the Django admin: pages work, bad edits are refused with the reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from boardgame.models import Area, HouseCard, WesterosCard, WesterosDeck

pytestmark = pytest.mark.django_db

MODELS = [
    "sectionmeta",
    "house",
    "housecard",
    "area",
    "adjacency",
    "port",
    "setup",
    "startingunit",
    "westerosdeck",
    "westeroscard",
    "wildlingcard",
    "tracktable",
]


def test_every_changelist_and_a_change_page_open_for_staff(staff_client: Any, westeros: Any) -> None:
    for model in MODELS:
        response = staff_client.get(reverse(f"admin:boardgame_{model}_changelist"))
        assert response.status_code == 200, model
    area = Area.objects.get(slug="winterfell")
    assert staff_client.get(reverse("admin:boardgame_area_change", args=[area.pk])).status_code == 200
    assert staff_client.get(reverse("admin:boardgame_area_history", args=[area.pk])).status_code == 200
    assert (
        staff_client.get(
            reverse("admin:boardgame_area_changelist") + "?q=winter&kind__exact=land"
        ).status_code
        == 200
    )


def test_admin_is_for_staff_only(client: Any, westeros: Any) -> None:
    response = client.get(reverse("admin:boardgame_area_changelist"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def _put(data: dict[str, Any], key: str, value: Any) -> None:
    """`value` as the browser would post it back for the field `key` (an unticked box is left out)."""
    if hasattr(value, "pk"):
        value = value.pk
    if value is None:
        data[key] = ""
    elif isinstance(value, bool):
        if value:
            data[key] = "on"
    elif isinstance(value, (dict, list)):
        data[key] = json.dumps(value)
    else:
        data[key] = value


def _form_data(response: Any) -> dict[str, Any]:
    """The POST data the admin change form would send back unchanged."""
    form = response.context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, list) and name == "neighbours":
            data[name] = [v.pk if hasattr(v, "pk") else v for v in value]
        else:
            _put(data, name, value)
    for formset in response.context["inline_admin_formsets"]:
        fs = formset.formset
        data.update(
            {
                f"{fs.prefix}-TOTAL_FORMS": fs.total_form_count(),
                f"{fs.prefix}-INITIAL_FORMS": fs.initial_form_count(),
                f"{fs.prefix}-MIN_NUM_FORMS": 0,
                f"{fs.prefix}-MAX_NUM_FORMS": 1000,
            }
        )
        for f in fs.forms:
            for name in f.fields:
                _put(data, f"{f.prefix}-{name}", f.initial.get(name, f.fields[name].initial))
    return data


def test_admin_refuses_a_card_strength_that_breaks_the_hand_w_17_1(staff_client: Any, westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    url = reverse("admin:boardgame_housecard_change", args=[card.pk])
    data = _form_data(staff_client.get(url))
    data["strength"] = 3
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "strengths 4, 3, 2, 2, 1, 1, 0" in response.content.decode()
    card.refresh_from_db()
    assert card.strength == 4


def test_admin_accepts_a_harmless_card_edit(staff_client: Any, westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    url = reverse("admin:boardgame_housecard_change", args=[card.pk])
    data = _form_data(staff_client.get(url))
    data["name_en"] = "Lord Eddard Stark"  # the translated fields come per language (modeltranslation)
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    card.refresh_from_db()
    assert card.name == "Lord Eddard Stark" and card.history.count() == 2


def test_admin_edits_a_translation_and_history_records_it(staff_client: Any, westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    url = reverse("admin:boardgame_housecard_change", args=[card.pk])
    data = _form_data(staff_client.get(url))
    data |= {"name_th": "เอ็ดดาร์ด สตาร์ค", "name_zh_hans": "艾德·史塔克"}
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    card.refresh_from_db()
    assert (card.name_en, card.name_th, card.name_zh_hans) == ("Eddard Stark", "เอ็ดดาร์ด สตาร์ค", "艾德·史塔克")
    latest = card.history.first()
    assert (latest.name, latest.name_th, latest.name_zh_hans) == (
        "Eddard Stark",
        "เอ็ดดาร์ด สตาร์ค",
        "艾德·史塔克",
    )
    house = reverse("admin:boardgame_house_change", args=[card.house_id])
    assert 'name="house_cards-0-name_th"' in staff_client.get(house).content.decode(), "the hand inline too"


def test_admin_refuses_to_delete_a_house_card_w_17_1(staff_client: Any, westeros: Any) -> None:
    card = HouseCard.objects.get(slug="eddard_stark")
    response = staff_client.post(
        reverse("admin:boardgame_housecard_delete", args=[card.pk]), {"post": "yes"}, follow=True
    )
    assert "must keep exactly 7 house cards" in response.content.decode()
    assert HouseCard.objects.filter(pk=card.pk).exists()


def test_admin_refuses_a_westeros_count_that_breaks_the_deck_w_1_11(staff_client: Any, westeros: Any) -> None:
    card = WesterosCard.objects.get(slug="supply")
    url = reverse("admin:boardgame_westeroscard_change", args=[card.pk])
    data = _form_data(staff_client.get(url))
    data["count"] = 4
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "must hold 10 cards" in response.content.decode()


def test_admin_deck_page_swaps_counts_together_w_1_11(staff_client: Any, westeros: Any) -> None:
    deck = WesterosDeck.objects.get(number=1)
    url = reverse("admin:boardgame_westerosdeck_change", args=[deck.pk])
    data = _form_data(staff_client.get(url))
    prefix = "cards"
    slugs = {data[f"{prefix}-{i}-slug"]: i for i in range(int(data[f"{prefix}-TOTAL_FORMS"]))}
    data[f"{prefix}-{slugs['supply']}-count"] = 2
    data[f"{prefix}-{slugs['mustering']}-count"] = 4
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert WesterosCard.objects.get(slug="mustering").count == 4
    data[f"{prefix}-{slugs['mustering']}-count"] = 5
    response = staff_client.post(url, data)
    assert "must hold 10 cards" in response.content.decode()


def test_admin_refuses_a_self_border_and_keeps_borders_symmetric_w_10_1(
    staff_client: Any, westeros: Any
) -> None:
    kw = Area.objects.get(slug="kingswood")
    url = reverse("admin:boardgame_area_change", args=[kw.pk])
    data = _form_data(staff_client.get(url))
    harrenhal = Area.objects.get(slug="harrenhal")
    data["neighbours"] = [*data["neighbours"], harrenhal.pk]
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert kw.pk in harrenhal.neighbour_ids()
    data["neighbours"] = [*data["neighbours"], Area.objects.get(slug="winterfell_port").pk]
    response = staff_client.post(url, data)
    assert (
        response.status_code == 200
        and "is a port; it may border only its own land area and sea" in response.content.decode()
    )


def test_map_preview_and_data_check_pages(staff_client: Any, westeros: Any) -> None:
    preview = staff_client.get(reverse("admin:boardgame_area_map_preview")).content.decode()
    assert preview.count("<polygon") == 58
    check = staff_client.get(reverse("admin:boardgame_area_check")).content.decode()
    assert "consistent" in check
    WesterosCard.objects.filter(slug="supply").update(count=1)
    assert "deck 1 holds 8 cards" in staff_client.get(reverse("admin:boardgame_area_check")).content.decode()


def test_house_page_swaps_card_strengths_together_w_17_1(staff_client: Any, westeros: Any) -> None:
    from boardgame.models import House

    house = House.objects.get(slug="stark")
    url = reverse("admin:boardgame_house_change", args=[house.pk])
    data = _form_data(staff_client.get(url))
    prefix = "house_cards"
    rows = {data[f"{prefix}-{i}-slug"]: i for i in range(int(data[f"{prefix}-TOTAL_FORMS"]))}
    data[f"{prefix}-{rows['eddard_stark']}-strength"] = 3
    data[f"{prefix}-{rows['robb_stark']}-strength"] = 4
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert HouseCard.objects.get(slug="robb_stark").strength == 4
    data[f"{prefix}-{rows['robb_stark']}-strength"] = 3
    response = staff_client.post(url, data)
    assert response.status_code == 200 and "strengths 4, 3, 2, 2, 1, 1, 0" in response.content.decode()


def test_setup_page_refuses_an_unknown_house_w_2(staff_client: Any, westeros: Any) -> None:
    from boardgame.models import Setup

    setup = Setup.objects.get(player_count=3)
    url = reverse("admin:boardgame_setup_change", args=[setup.pk])
    data = _form_data(staff_client.get(url))
    data["houses"] = '["stark", "lannister", "targaryen"]'
    response = staff_client.post(url, data)
    assert response.status_code == 200 and "unknown house(s): targaryen" in response.content.decode()
    setup.refresh_from_db()
    assert setup.houses == ["stark", "lannister", "baratheon"]


def test_port_page_refuses_a_port_on_a_land_without_castle_w_1_2(staff_client: Any, westeros: Any) -> None:
    from boardgame.models import Port

    port = Port.objects.get(area__slug="storms_end_port")
    url = reverse("admin:boardgame_port_change", args=[port.pk])
    data = _form_data(staff_client.get(url))
    data["land_area"] = Area.objects.get(slug="kingswood").pk
    response = staff_client.post(url, data)
    assert (
        response.status_code == 200 and "Kingswood has no castle or stronghold" in response.content.decode()
    )


def test_port_page_moves_a_port_to_another_sea_and_rewires_its_borders(
    staff_client: Any, westeros: Any
) -> None:
    from boardgame.dataset import dataset_errors
    from boardgame.models import Port

    port = Port.objects.get(area__slug="storms_end_port")
    url = reverse("admin:boardgame_port_change", args=[port.pk])
    data = _form_data(staff_client.get(url))
    sea = Area.objects.get(slug="sea_of_dorne")
    data["sea_area"] = sea.pk
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert port.area.neighbour_ids() == {sea.pk, Area.objects.get(slug="storms_end").pk}
    assert dataset_errors() == []


def test_renaming_an_area_id_keeps_the_setups_pointing_at_it(staff_client: Any, westeros: Any) -> None:
    from boardgame.dataset import dataset_errors
    from boardgame.models import Setup

    pyke = Area.objects.get(slug="pyke")
    url = reverse("admin:boardgame_area_change", args=[pyke.pk])
    data = _form_data(staff_client.get(url))
    data["slug"] = "pyke_island"
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert "pyke_island" in Setup.objects.get(player_count=3).impassable_areas
    assert dataset_errors() == []


def test_deleting_an_area_named_by_a_setup_is_refused_w_2_4(staff_client: Any, westeros: Any) -> None:
    area = Area.objects.get(slug="pyke_port")
    response = staff_client.post(
        reverse("admin:boardgame_area_delete", args=[area.pk]), {"post": "yes"}, follow=True
    )
    assert "named in 3-player set-up: impassable_areas" in response.content.decode()
    assert Area.objects.filter(pk=area.pk).exists()


def test_bulk_delete_is_not_offered_for_cards_areas_and_houses(staff_client: Any, westeros: Any) -> None:
    for model in ("housecard", "area", "house"):
        page = staff_client.get(reverse(f"admin:boardgame_{model}_changelist")).content.decode()
        assert "delete_selected" not in page, model


def test_the_area_list_and_form_name_the_fields_in_thai(staff_client: Any, westeros: Any) -> None:
    """The models' verbose names in the staff member's language: the sidebar, the change list's columns and
    filters, the change form's labels (the per-language name fields and the port inline's too)."""
    import re

    from django.utils import translation

    from cards.tests.test_admin import _column_heads

    staff_client.cookies["django_language"] = "th"
    port = Area.objects.get(slug="winterfell_port")
    with translation.override(None):
        listing = staff_client.get(reverse("admin:boardgame_area_changelist")).content.decode()
        form = staff_client.get(reverse("admin:boardgame_area_change", args=[port.pk])).content.decode()
    heads = _column_heads(listing)
    assert heads["kind"] == "ประเภท" and heads["crowns"] == "รูปมงกุฎ" and heads["island"] == "เกาะ"
    assert heads["home_house"] == "บ้านที่มีพื้นที่นี้เป็นบ้านเกิด"
    assert "โดย ปราสาท" in listing  # Django's "By %(filter_title)s"
    assert re.search(r'<a href="/admin/boardgame/" class="section"[^>]*>บอร์ดเกม Westeros</a>', listing)
    for model in ("การ์ดประจำเมือง", "สำรับ Westeros", "การ์ด Wildling", "ตาราง Track", "ยูนิตเริ่มต้น"):
        assert f">{model}</a>" in listing, model  # the sidebar's entries
    for label in ("ชื่อ [th]:", "ชื่อ [zh-hans]:", "รหัส (slug):", "เสบียง:", "พื้นที่บนแผ่นดิน:", "จำนวนเรือสูงสุด:"):
        assert label in form, label
    for english in (
        "Home house",
        "Crowns",
        "Max ships",
        "Land area",
        "Name [th]",
        "By castle",
        ">Boardgame<",
    ):
        assert english not in listing + form, english


@pytest.mark.parametrize(
    ("language", "problem"),
    [
        ("en", "westeros_cards: deck 1 holds 9 cards but must hold 10 (W-1.11)"),
        ("th", "westeros_cards: สำรับ 1 มีการ์ด 9 ใบ แต่ต้องมี 10 ใบ (W-1.11)"),
        ("zh-hans", "westeros_cards: 牌堆 1 有 9 张卡，但必须有 10 张（W-1.11）"),
    ],
)
def test_the_data_check_page_words_its_problems_in_the_staff_members_language(
    staff_client: Any, westeros: Any, language: str, problem: str
) -> None:
    from django.utils import translation

    WesterosCard.objects.filter(slug="supply").update(count=2)
    staff_client.cookies["django_language"] = language
    with translation.override(None):
        html = staff_client.get(reverse("admin:boardgame_area_check")).content.decode()
    assert f"<li>{problem}</li>" in html
