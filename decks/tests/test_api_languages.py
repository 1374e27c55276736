"""The API's error messages in the request's language: same `code`, the message in Thai or Chinese (rule
numbers kept), card names in the reader's language, English unchanged without a header."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import translation

from decks.tests.factories import client_for, legal_payload

pytestmark = pytest.mark.django_db

THAI = {"HTTP_ACCEPT_LANGUAGE": "th"}
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture(autouse=True)
def _english_between_requests() -> Any:
    """The test client's requests leave their language active in this thread; fixtures write English."""
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture
def translated_scout(cards: dict[str, Any]) -> None:
    from cards.models import Card

    Card.objects.filter(slug="ember-scout").update(name_th="หน่วยสอดแนมเพลิง", name_zh_hans="余烬斥候")


def _five_scouts(alice: Any, **headers: str) -> dict[str, Any]:
    body = legal_payload(cards=[{"card": "ember-scout", "count": 5}])
    response = client_for(alice).post("/api/decks/", body, format="json", **headers)
    assert response.status_code == 201, response.content
    errors = response.json()["legality"]["errors"]
    return {e["rule"]: e for e in errors}


def test_a_fifth_copy_is_reported_under_rule_c_3_2_in_thai_naming_the_card_in_thai(translated_scout, alice):
    issue = _five_scouts(alice, **THAI)["C-3.2"]
    assert issue["code"] == "too_many_copies" and issue["cards"] == ["Ember Scout"]
    assert issue["message"] == "หน่วยสอดแนมเพลิง 5 ใบ: การ์ดชื่อเดียวกันใส่ได้ไม่เกิน 4 ใบ (C-3.2)"


def test_a_fifth_copy_in_chinese_and_the_commander_rule_c_4_1(translated_scout, alice):
    issues = _five_scouts(alice, **CHINESE)
    assert issues["C-3.2"]["message"] == "余烬斥候 有 5 张：同名卡最多 4 张（C-3.2）"
    assert issues["C-4.1"]["code"] == "commander_not_in_deck"
    assert issues["C-4.1"]["message"] == "Blaze Queen 不能作为指挥官：它不在卡组中（C-4.1）"  # no translation


def test_without_a_header_the_legality_messages_stay_english(translated_scout, alice):
    issues = _five_scouts(alice)
    assert issues["C-3.2"]["message"] == "5 copies of Ember Scout: at most 4 (C-3.2)"
    assert issues["C-4.1"]["message"] == "Blaze Queen cannot be the Commander: it is not in the deck (C-4.1)"


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "unclosed quote at position 0"),
        (THAI, "เครื่องหมายคำพูดไม่ได้ปิด ที่ตำแหน่ง 0"),
        (CHINESE, "第 0 个字符处：引号未闭合"),
    ],
)
def test_a_bad_search_query_is_explained_in_the_readers_language(cards, headers, message):
    response = client_for().get("/api/cards/", {"q": '"ember'}, **headers)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_query" and response.json()["message"] == message


def test_an_unknown_search_key_lists_the_known_keys_in_thai(cards):
    body = client_for().get("/api/cards/", {"q": "colour:red"}, **THAI).json()
    assert body["code"] == "invalid_query"
    assert body["message"].startswith("ไม่รู้จักคีย์ค้นหา 'colour' ที่ตำแหน่ง 0 (ที่ใช้ได้: ")


@pytest.mark.parametrize(
    ("headers", "missing", "damaged"),
    [
        ({}, "No such deck.", "the share code is damaged (it does not decode)"),
        (THAI, "ไม่พบเด็คนี้", "รหัสแชร์เสียหาย (ถอดรหัสไม่ได้)"),
        (CHINESE, "没有这个卡组。", "分享码已损坏（无法解码）"),
    ],
)
def test_an_unknown_share_id_and_a_damaged_share_code(cards, headers, missing, damaged):
    from decks.formats import SHARE_CODE_PREFIX

    response = client_for().get("/api/decks/shared/not-a-real-id/", **headers)
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": missing, "extra": {}}
    body = {"data": SHARE_CODE_PREFIX + "AAAA", "format": "code"}
    response = client_for().post("/api/decks/import/", body, format="json", **headers)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_share_code" and response.json()["message"] == damaged


@pytest.mark.parametrize(
    ("headers", "message"),
    [({}, "Not found."), (THAI, "ไม่พบสิ่งที่ต้องการ"), (CHINESE, "未找到。")],
)
def test_a_404_of_drf_is_in_the_readers_language(cards, headers, message):
    response = client_for().get("/api/cards/no-such-card/", **headers)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found" and response.json()["message"] == message


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "Request was throttled. Expected available in 60 seconds."),
        (THAI, "ส่งคำขอถี่เกินไป ลองใหม่ได้ในอีก 60 วินาที"),
        (CHINESE, "请求过于频繁。 请在 60 秒后再试。"),
    ],
)
def test_a_throttled_request_says_how_long_to_wait_in_the_readers_language(alice, headers, message):
    cache.clear()
    with override_settings(MATCHES_CREATE_RATE="1/min"):
        client = client_for(alice)
        answers = [
            client.post(
                "/api/matches/",
                {"kind": "counting", "rules_config": {"target": 10}},
                format="json",
                **headers,
            )
            for _ in range(2)
        ]
    assert answers[0].status_code != 429 and answers[1].status_code == 429  # the throttle counts every call
    assert answers[1].json()["code"] == "throttled" and answers[1].json()["message"] == message


def test_a_request_too_large_is_explained_in_chinese():
    from config.errors import RequestTooLarge

    with translation.override("zh-hans"):
        assert str(RequestTooLarge(1000).detail) == "请求内容超过了 1000 字节的上限。"
    assert str(RequestTooLarge(1000).detail) == "The request body is larger than the limit of 1000 bytes."


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "unknown card name 'Embr Scout'; did you mean Ember Scout?"),
        (THAI, "ไม่รู้จักการ์ดชื่อ 'Embr Scout' หมายถึง Ember Scout หรือเปล่า?"),
        (CHINESE, "未知的卡名“Embr Scout”；你是不是想找 Ember Scout？"),
    ],
)
def test_an_import_typo_suggests_the_card_in_the_readers_language(cards, headers, message):
    body = {"data": "4 Ember Scout\n2 Embr Scout\n"}
    response = client_for().post("/api/decks/import/", body, format="json", **headers)
    error = response.json()["errors"][0]
    assert response.status_code == 200 and error["code"] == "unknown_card" and error["message"] == message


@pytest.mark.parametrize(
    ("headers", "nul", "json"),
    [
        ({}, "The query parameter 'q' contains a NUL character (U+0000).", "JSON parse error: "),
        (THAI, "พารามิเตอร์ 'q' มีอักขระ NUL (U+0000)", "อ่าน JSON ไม่ได้: "),
        (CHINESE, "查询参数 'q' 含有NUL 字符（U+0000）。", "JSON 解析错误："),
    ],
)
def test_input_guard_and_json_parser_refusals_in_the_readers_language(cards, alice, headers, nul, json):
    response = client_for().get("/api/cards/?q=%00", **headers)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_character" and response.json()["message"] == nul
    response = client_for(alice).post("/api/decks/", "{oops", content_type="application/json", **headers)
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json" and response.json()["message"].startswith(json)


def test_an_off_faction_card_given_as_data_names_its_faction_in_the_readers_language(
    cards: dict[str, Any],
) -> None:
    """C-3.4: a card given by its data (a snapshot, an import) names its faction by slug; the message shows
    the faction's translated name, never the slug."""
    from cards.models import Faction
    from decks.tests.factories import POOL
    from decks.validation import validate_deck

    Faction.objects.filter(slug="water").update(name_th="วารี", name_zh_hans="水")
    Faction.objects.filter(slug="fire").update(name_th="อัคนี", name_zh_hans="火")
    entries = [(c, 4) for c in POOL[:12]] + [(next(c for c in POOL if c["faction"] == "water"), 1)]
    for language, faction, other in (("th", "อัคนี", "วารี"), ("zh-hans", "火", "水"), ("en", "Fire", "Water")):
        with translation.override(language):
            issue = next(e for e in validate_deck(entries).errors if e.rule == "C-3.4")
        assert faction in issue.message and re.search(f"[(（]{other}[)）]", issue.message), issue.message
        assert "water" not in issue.message and "fire" not in issue.message
