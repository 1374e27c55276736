"""Decklists naming cards in Thai or Chinese resolve; exports and share codes stay English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from cards.card_files import cards_import
from decks.formats import (
    MappingCatalog,
    decode_share_code,
    encode_share_code,
    export_json,
    export_text,
    parse_any,
    resolve,
)
from decks.selectors import DbCatalog

FIXTURE = Path(__file__).resolve().parents[2] / "cards" / "tests" / "fixtures" / "translated_cards.json"


def translated_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def names(resolved: Any) -> dict[str, int]:
    return {card.name_en if hasattr(card, "name_en") else card["name"]: n for card, n in resolved.entries}


@pytest.mark.django_db
@pytest.mark.parametrize("reader", ["en", "th", "zh-hans"])
def test_a_text_list_with_chinese_thai_and_english_names_resolves_and_sums(reader: str) -> None:
    cards_import(translated_file())
    text = "2 灰足散兵\n1 ทหารพรานเท้าเถ้า\n1 ember warlord\nCommander: 灰足散兵"
    with translation.override(reader):
        resolved = resolve(parse_any(text), DbCatalog())
    assert resolved.ok, [e.message for e in resolved.errors]
    assert names(resolved) == {"Ashfoot Skirmisher": 3, "Ember Warlord": 1}
    assert resolved.commander.name_en == "Ashfoot Skirmisher"


@pytest.mark.django_db
def test_an_unknown_thai_name_suggests_the_close_thai_name() -> None:
    cards_import(translated_file())
    resolved = resolve(parse_any("1 ทหารพรานเท้าเถ้"), DbCatalog())
    assert [e.suggestions for e in resolved.errors] == [["ทหารพรานเท้าเถ้า"]]


@pytest.mark.django_db
def test_exports_and_share_codes_are_english_whatever_the_reader() -> None:
    cards_import(translated_file())
    with translation.override("en"):
        english = resolve(parse_any("3 Ashfoot Skirmisher\n1 Ember Warlord"), DbCatalog())
        expected_text = export_text(english.entries, commander=english.entries[0][0])
        expected_code = encode_share_code(english.entries)
    with translation.override("th"):
        resolved = resolve(parse_any("3 ทหารพรานเท้าเถ้า\n1 Ember Warlord"), DbCatalog())
        text = export_text(resolved.entries, commander=resolved.entries[0][0])
        document = export_json(resolved.entries)
        code = encode_share_code(resolved.entries)
    assert "3 Ashfoot Skirmisher" in text and "ทหาร" not in text and text == expected_text
    assert {c["name"] for c in document["cards"]} == {"Ashfoot Skirmisher", "Ember Warlord"}
    assert code == expected_code
    assert {e.ref for e in decode_share_code(code).entries} == {"ashfoot-skirmisher", "ember-warlord"}


def test_a_plain_data_catalog_finds_translated_names_too() -> None:
    catalog = MappingCatalog(
        [dict(c, slug=c["name"].lower().replace(" ", "-")) for c in translated_file()["cards"]]
    )
    resolved = resolve(parse_any("2 灰足散兵\n2 Ember Warlord"), catalog)
    assert resolved.ok and names(resolved) == {"Ashfoot Skirmisher": 2, "Ember Warlord": 2}
