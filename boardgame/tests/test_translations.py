"""Westeros data in three languages: "translations" per record, validation, round trip, English engine copy."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.utils import translation

from boardgame import dataset, validation
from boardgame.models import Area, House, HouseCard, WesterosCard, WildlingCard
from config.errors import ApplicationError


def translated(bundle: dict[str, Any]) -> dict[str, Any]:
    """The bundled data with only a translated example of each kind of record (the files' own translations
    dropped, so that every other record shows the English fallback)."""
    data = strip_translations(copy.deepcopy(bundle))
    area = next(a for a in data["map"]["areas"] if a["id"] == "winterfell")
    area["translations"] = {"zh-hans": {"name": "临冬城"}, "th": {"name": "Winterfell"}}
    data["setup"]["houses"]["stark"]["translations"] = {"zh-hans": {"name": "史塔克家族"}}
    card = next(c for c in data["house_cards"]["cards"] if c["id"] == "eddard_stark")
    card["translations"] = {"zh-hans": {"name": "艾德·史塔克"}, "th": {"name": "Eddard Stark"}}
    westeros = data["westeros_cards"]["cards"][0]
    westeros["translations"] = {"th": {"effect": "ปรับ Supply ตามจำนวนถังเสบียง"}}
    wildling = data["wildling_cards"]["cards"][0]
    wildling["translations"] = {"zh-hans": {"highest_bidder": "出价最高者获得奖励。"}}
    return data


def strip_translations(data: Any) -> Any:
    """The data without any "translations" key (what the engine and a stored game receive)."""
    if isinstance(data, dict):
        return {k: strip_translations(v) for k, v in data.items() if k != "translations"}
    if isinstance(data, list):
        return [strip_translations(v) for v in data]
    return data


@pytest.mark.django_db
def test_import_export_round_trip_keeps_every_translation(bundle: dict[str, Any]) -> None:
    data = translated(bundle)
    dataset.game_data_import(data=data)
    assert Area.objects.get(slug="winterfell").name_zh_hans == "临冬城"
    assert House.objects.get(slug="stark").name_zh_hans == "史塔克家族"
    assert HouseCard.objects.get(slug="eddard_stark").name_zh_hans == "艾德·史塔克"
    assert WesterosCard.objects.filter(effect_th="ปรับ Supply ตามจำนวนถังเสบียง").count() == 1
    assert WildlingCard.objects.filter(highest_bidder_zh_hans="出价最高者获得奖励。").count() == 1
    exported = dataset.westeros_export_all()
    assert exported == data
    dataset.game_data_import(data=exported)
    assert json.dumps(dataset.westeros_export_all(), ensure_ascii=False) == json.dumps(
        exported, ensure_ascii=False
    )


@pytest.mark.django_db
def test_the_engine_copy_is_english_without_translations_whatever_the_reader(bundle: dict[str, Any]) -> None:
    dataset.game_data_import(data=translated(bundle))
    with translation.override("zh-hans"):
        engine_copy = dataset.game_data_export()
        assert Area.objects.get(slug="winterfell").name == "临冬城", "the reader's language on the row"
    assert engine_copy == strip_translations(six(bundle))
    assert next(a for a in engine_copy["map"]["areas"] if a["id"] == "winterfell")["name"] == "Winterfell"


def six(bundle: dict[str, Any]) -> dict[str, Any]:
    return {k: bundle[k] for k in validation.GAME_SECTIONS}


@pytest.mark.parametrize(
    ("where", "translations", "message"),
    [
        ("area", {"th": {"kind": "ทะเล"}}, "map: winterfell: translations.th.kind: not a translatable field"),
        (
            "area",
            {"ja": {"name": "ウィンターフェル"}},
            "map: winterfell: translations: unknown language 'ja'",
        ),
        (
            "house",
            {"zh-hans": {"name": "史" * 61}},
            "setup: stark: translations.zh-hans.name: at most 60 characters",
        ),
        (
            "house_card",
            {"th": {"effect": " "}},
            "house_cards: eddard_stark: translations.th.effect: must be a non-empty",
        ),
        (
            "westeros",
            {"th": {"name": 3}},
            "westeros_cards: supply: translations.th.name: must be a non-empty text",
        ),
        ("wildling", {"zh-hans": {"options": "x"}}, "wildling_cards: "),
    ],
)
def test_a_bad_translation_is_refused_naming_record_language_and_field(
    bundle: dict[str, Any], where: str, translations: Any, message: str
) -> None:
    data = copy.deepcopy(bundle)
    record = {
        "area": lambda: next(a for a in data["map"]["areas"] if a["id"] == "winterfell"),
        "house": lambda: data["setup"]["houses"]["stark"],
        "house_card": lambda: next(c for c in data["house_cards"]["cards"] if c["id"] == "eddard_stark"),
        "westeros": lambda: next(c for c in data["westeros_cards"]["cards"] if c["id"] == "supply"),
        "wildling": lambda: data["wildling_cards"]["cards"][0],
    }[where]()
    record["translations"] = translations
    errors = validation.game_data_errors(six(data), layout=data.get("layout"))
    assert any(e.startswith(message) for e in errors), errors
    assert all("translations" in e for e in errors), "only the bad translation is reported"


@pytest.mark.django_db
def test_a_bad_translation_imports_nothing(bundle: dict[str, Any]) -> None:
    data = translated(bundle)
    data["setup"]["houses"]["stark"]["translations"] = {"klingon": {"name": "Stark"}}
    with pytest.raises(ApplicationError) as exc:
        dataset.game_data_import(data=data)
    assert any(
        "setup: stark: translations: unknown language 'klingon'" in e for e in exc.value.extra["errors"]
    )
    assert not House.objects.exists()


@pytest.mark.django_db
def test_game_data_reads_the_viewer_language_by_id_with_english_kept_and_fallbacks_marked(
    bundle: dict[str, Any],
) -> None:
    from boardgame.selectors import localise_game_data

    dataset.game_data_import(data=translated(bundle))
    english_copy = strip_translations(six(bundle))  # what a stored game holds
    local = localise_game_data(english_copy, language="zh-hans")
    winterfell = next(a for a in local["map"]["areas"] if a["id"] == "winterfell")
    assert (winterfell["name"], winterfell["name_en"], winterfell["untranslated"]) == (
        "临冬城",
        "Winterfell",
        [],
    )
    kingswood = next(a for a in local["map"]["areas"] if a["id"] == "kingswood")
    assert kingswood["name"] == "Kingswood" and kingswood["untranslated"] == ["name"], "English, marked"
    assert local["setup"]["houses"]["stark"]["name"] == "史塔克家族"
    eddard = next(c for c in local["house_cards"]["cards"] if c["id"] == "eddard_stark")
    assert (
        eddard["name"] == "艾德·史塔克" and "effect" not in eddard["untranslated"] or not eddard.get("effect")
    )
    wildling = local["wildling_cards"]["cards"][0]
    assert wildling["nights_watch_victory"]["highest_bidder"] == "出价最高者获得奖励。"
    assert "highest_bidder" not in wildling["untranslated"] and "name" in wildling["untranslated"]
    assert english_copy == strip_translations(six(bundle)), "the game's own copy is left as it is"
    plain = localise_game_data(english_copy, language="en")
    assert all(a["untranslated"] == [] and a["name"] == a["name_en"] for a in plain["map"]["areas"])


@pytest.mark.django_db
def test_the_map_and_house_apis_read_the_reader_language(bundle: dict[str, Any], client: Any) -> None:
    dataset.game_data_import(data=translated(bundle))
    with translation.override("zh-hans"):
        areas = client.get("/api/westeros/map/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["areas"]
        houses = client.get("/api/westeros/houses/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    winterfell = next(a for a in areas if a["id"] == "winterfell")
    assert (winterfell["name"], winterfell["name_en"]) == ("临冬城", "Winterfell")
    stark = next(h for h in (houses["results"] if isinstance(houses, dict) else houses) if h["id"] == "stark")
    assert (stark["name"], stark["untranslated"]) == ("史塔克家族", [])
    lannister = next(
        h for h in (houses["results"] if isinstance(houses, dict) else houses) if h["id"] == "lannister"
    )
    assert (lannister["name"], lannister["untranslated"]) == ("Lannister", ["name"])


@pytest.mark.django_db
def test_the_map_page_reads_the_viewer_language_and_marks_english_names(
    bundle: dict[str, Any], client: Any
) -> None:
    dataset.game_data_import(data=translated(bundle))
    with translation.override("zh-hans"):
        html = client.get("/westeros/map/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'data-area-id="winterfell" data-kind="land">临冬城</button>' in html
    assert 'data-area-id="kingswood" data-kind="land">Kingswood<span class="untranslated" lang="en"' in html
