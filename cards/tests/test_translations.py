"""Card data in three languages: the file's "translations", import/export round trip, fallback reading."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from cards.card_files import cards_export, cards_import, cards_validate
from cards.models import Card, Faction, Keyword
from cards.services import card_upsert_from_dict

FIXTURE = Path(__file__).parent / "fixtures" / "translated_cards.json"

pytestmark = pytest.mark.django_db


def translated_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_import_fills_each_language_and_export_gives_the_same_file() -> None:
    data = translated_file()
    report = cards_import(data)
    assert report.ok, report.errors
    card = Card.objects.get(name_en="Ashfoot Skirmisher")
    assert (card.name_th, card.name_zh_hans) == ("ทหารพรานเท้าเถ้า", "灰足散兵")
    assert card.flavor_text_th == "เท้าเบา เถ้าหนัก" and card.flavor_text_zh_hans is None
    assert Faction.objects.get(slug="cinder").name_zh_hans == "余烬军团"
    assert Keyword.objects.get(code="deploying").reminder_text_th == "เกิดขึ้นเมื่อยูนิตนี้ลงสู่สนามรบ"
    exported = cards_export()
    assert exported == data, "export -> import -> export is the identity, translations included"
    assert "translations" not in exported["cards"][1], "an untranslated card exports as before"
    again = cards_import(exported)
    assert again.cards == {"created": 0, "updated": 0, "unchanged": 2}
    assert cards_export() == data


def test_export_is_english_whatever_the_reader_language() -> None:
    cards_import(translated_file())
    with translation.override("th"):
        exported = cards_export()
    assert exported == translated_file()


def test_a_changed_translation_updates_the_card_and_a_record_without_translations_keeps_them() -> None:
    data = translated_file()
    cards_import(data)
    changed = copy.deepcopy(data)
    changed["cards"][0]["translations"]["zh-hans"]["name"] = "灰足游击兵"
    assert cards_import(changed).cards["updated"] == 1
    assert Card.objects.get(name_en="Ashfoot Skirmisher").name_zh_hans == "灰足游击兵"
    bare = copy.deepcopy(changed)
    del bare["cards"][0]["translations"]
    assert cards_import(bare).cards["unchanged"] == 2
    assert Card.objects.get(name_en="Ashfoot Skirmisher").name_th == "ทหารพรานเท้าเถ้า"
    dropped = copy.deepcopy(changed)
    dropped["cards"][0]["translations"] = {"th": {"name": "ทหารพรานเท้าเถ้า"}}
    cards_import(dropped)
    card = Card.objects.get(name_en="Ashfoot Skirmisher")
    assert (card.name_zh_hans, card.flavor_text_th) == (None, None), "a field left out is untranslated again"


@pytest.mark.parametrize(
    ("translations", "message"),
    [
        ({"fr": {"name": "Tirailleur"}}, "translations: unknown language 'fr' (allowed: th, zh-hans)"),
        ({"th": {"abilities": "x"}}, "translations.th.abilities: not a translatable field"),
        ({"zh-hans": {"name": ""}}, "translations.zh-hans.name: must be a non-empty text"),
        ({"th": {"name": "ก" * 81}}, "translations.th.name: at most 80 characters"),
        ({"th": ["name"]}, "translations.th: must be an object of translated fields"),
        ("ทหาร", "translations: must be an object keyed by language"),
    ],
)
def test_a_bad_translation_is_refused_naming_record_language_and_field(
    translations: Any, message: str
) -> None:
    data = translated_file()
    data["cards"][0]["translations"] = translations
    report = cards_import(data)
    assert not report.ok and not Card.objects.exists(), "nothing is imported"
    assert any(
        e.startswith("cards[0] (Ashfoot Skirmisher): translations: ") and message in e for e in report.errors
    ), report.errors


def test_bad_faction_and_keyword_translations_are_refused() -> None:
    data = translated_file()
    data["factions"][0]["translations"] = {"th": {"name": "ก" * 61}}
    data["keywords"][0]["translations"] = {"zh-hans": {"color": "红"}}
    errors, _ = cards_validate(data)
    assert "factions[0] (cinder): translations.th.name: at most 60 characters" in errors
    assert any(
        e.startswith("keywords[0] (deploying): translations.zh-hans.color: not a translatable field")
        for e in errors
    )


def test_a_thai_reader_reads_thai_and_an_untranslated_field_falls_back_to_english() -> None:
    cards_import(translated_file())
    card = Card.objects.get(name_en="Ashfoot Skirmisher")
    warlord = Card.objects.get(name_en="Ember Warlord")
    with translation.override("th"):
        assert card.name == "ทหารพรานเท้าเถ้า"
        assert warlord.name == "Ember Warlord", "no Thai name: the English one, never an empty name"
        assert warlord.rules_text == "A veteran of the ash wars."
    with translation.override("zh-hans"):
        assert card.name == "灰足散兵" and card.flavor_text == "Light feet, heavy ash."


def test_the_api_write_path_accepts_translations_and_stays_english_under_thai() -> None:
    cards_import(translated_file())
    record = translated_file()["cards"][1] | {"translations": {"zh-hans": {"name": "余烬军阀"}}}
    with translation.override("th"):
        card, outcome = card_upsert_from_dict(record)
    assert outcome == "updated"
    card.refresh_from_db()
    assert (card.name_en, card.name_zh_hans, card.name_th) == ("Ember Warlord", "余烬军阀", None)


def test_the_card_api_reads_the_reader_language_and_marks_english_fallbacks(api_client: Any) -> None:
    cards_import(translated_file())
    with translation.override("th"):
        cards = api_client.get("/api/cards/", HTTP_ACCEPT_LANGUAGE="th").json()["results"]
        factions = api_client.get("/api/factions/", HTTP_ACCEPT_LANGUAGE="th").json()
    skirmisher, warlord = sorted(cards, key=lambda c: c["name_en"])
    assert (skirmisher["name"], skirmisher["name_en"]) == ("ทหารพรานเท้าเถ้า", "Ashfoot Skirmisher")
    assert skirmisher["flavor_text"] == "เท้าเบา เถ้าหนัก" and skirmisher["untranslated"] == []
    assert skirmisher["faction_name"] == "กองทัพเถ้าถ่าน"
    assert warlord["name"] == "Ember Warlord", "never an empty name"
    assert warlord["untranslated"] == ["name", "rules_text"]
    assert factions[0]["untranslated"] == []
    english = api_client.get("/api/cards/", HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    assert {c["name"] for c in english} == {"Ashfoot Skirmisher", "Ember Warlord"}
    assert all(c["untranslated"] == [] for c in english)


def test_the_match_catalog_keeps_english_keys_and_adds_the_viewer_language() -> None:
    from cards.selectors import card_texts
    from matches.engine.cards import card_from_dict
    from matches.games.commandeer import card_facts

    cards_import(translated_file())
    records = {r["name"]: r for r in translated_file()["cards"]}
    defs = {
        n: card_from_dict({k: v for k, v in r.items() if k != "translations"}) for n, r in records.items()
    }
    with translation.override("zh-hans"):
        local = card_texts(defs)
        facts = {n: card_facts(d, local.get(n)) for n, d in defs.items()}
    assert facts["Ashfoot Skirmisher"]["display_name"] == "灰足散兵"
    assert facts["Ashfoot Skirmisher"]["untranslated"] == []
    assert facts["Ember Warlord"]["display_name"] == "Ember Warlord"
    assert facts["Ember Warlord"]["untranslated"] == ["name", "rules_text"]
    assert facts["Ember Warlord"]["display_rules_text"] == "A veteran of the ash wars."
    assert card_texts(defs, language="en") == {}, "an English viewer needs no query"
    english = card_facts(defs["Ember Warlord"])
    assert (english["display_name"], english["untranslated"]) == ("Ember Warlord", [])


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("พรานเท้า", ["Ashfoot Skirmisher"]),  # a Thai substring in the middle of the Thai name
        ("name:足散", ["Ashfoot Skirmisher"]),  # Chinese, inside the name
        ('"Ashfoot"', ["Ashfoot Skirmisher"]),  # English still works
        ("-name:พรานเท้า", ["Ember Warlord"]),  # negation keeps the cards without a Thai name
        ("f:余烬", ["Ashfoot Skirmisher", "Ember Warlord"]),  # faction by its Chinese name
        ("f:กองทัพ t:unit cp<=1", ["Ashfoot Skirmisher"]),
        ("kw:登场", []),  # a keyword by its Chinese name (no card here has it)
    ],
)
def test_search_finds_cards_by_name_or_text_in_any_language(query: str, found: list[str]) -> None:
    from cards.selectors import card_search

    cards_import(translated_file())
    for reader in ("en", "th", "zh-hans"):
        with translation.override(reader):
            assert sorted(c.name_en for c in card_search(query)) == found, (query, reader)


def test_keyword_search_by_a_translated_name() -> None:
    from cards.selectors import card_search

    data = translated_file()
    data["cards"][1] |= {
        "keywords": ["deploying"],
        "abilities": [
            {
                "trigger": "deploying",
                "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}],
            }
        ],
    }
    assert cards_import(data).ok
    assert [c.name_en for c in card_search("kw:登场")] == ["Ember Warlord"]


def test_pages_mark_a_name_shown_in_english_for_want_of_a_translation(client: Any) -> None:
    cards_import(translated_file())
    with translation.override("th"):
        warlord = client.get("/cards/ember-warlord/", HTTP_ACCEPT_LANGUAGE="th").content.decode()
        skirmisher = client.get("/cards/ashfoot-skirmisher/", HTTP_ACCEPT_LANGUAGE="th").content.decode()
    assert 'class="untranslated" lang="en"' in warlord and "Ember Warlord" in warlord
    assert "ทหารพรานเท้าเถ้า" in skirmisher and 'class="untranslated"' not in skirmisher
    english = client.get("/cards/ember-warlord/").content.decode()
    assert 'class="untranslated"' not in english


def test_the_card_format_of_a_row_is_english_for_a_thai_reader() -> None:
    from cards.services import card_to_dict

    cards_import(translated_file())
    card = Card.objects.get(name_en="Ashfoot Skirmisher")
    with translation.override("th"):
        record = card_to_dict(card)
    assert (record["name"], record["flavor_text"]) == ("Ashfoot Skirmisher", "Light feet, heavy ash.")


def test_the_keyword_filter_takes_a_translated_keyword_name(api_client: Any) -> None:
    data = translated_file()
    data["cards"][1] |= {
        "keywords": ["deploying"],
        "abilities": [
            {
                "trigger": "deploying",
                "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}],
            }
        ],
    }
    assert cards_import(data).ok
    results = api_client.get("/api/cards/", {"keyword": "登场"}).json()["results"]
    assert [c["name_en"] for c in results] == ["Ember Warlord"]


def test_two_cards_with_the_same_translated_name_are_refused() -> None:
    data = translated_file()
    data["cards"][1]["translations"] = {"zh-hans": {"name": "灰足散兵"}}
    report = cards_import(data)
    assert report.errors == [
        "cards[1] (Ember Warlord): translations: translations.zh-hans.name: '灰足散兵' is also the name of cards[0]"
    ]
