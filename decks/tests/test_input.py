"""Hostile input to the deck API and the decklist formats: a clear 400, never a 500 or a silent change."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from decks.formats import (
    MAX_CODE_BYTES,
    SHARE_CODE_PREFIX,
    DeckFormatError,
    decode_share_code,
    parse_any,
    parse_text,
)
from decks.models import Deck
from decks.tests.factories import client_for, legal_payload

IMPORT = "/api/decks/import/"


@pytest.mark.django_db
def test_a_form_encoded_put_cannot_empty_a_deck(cards, alice):
    client = client_for(alice)
    deck = client.post("/api/decks/", legal_payload(), format="json").json()
    response = client.generic(
        "PUT", f"/api/decks/{deck['id']}/", "cards=1", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    assert client.get(f"/api/decks/{deck['id']}/").json()["card_count"] == 50


@pytest.mark.django_db
def test_nul_in_a_deck_import_text_is_a_400_naming_the_field(cards):
    response = client_for().post(IMPORT, {"data": "4 Ember\x00Scout\n"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_character" and response.json()["extra"] == {"field": "data"}


@pytest.mark.django_db
def test_nul_in_a_deck_import_json_name_is_a_400(cards, alice):
    document = {"data": {"name": "x\x00y", "cards": [{"card": "ember-scout", "count": 4}]}, "save": True}
    response = client_for(alice).post(IMPORT, document, format="json")
    assert response.status_code == 400 and response.json()["extra"] == {"field": "data.name"}
    assert not Deck.objects.exists()


@pytest.mark.django_db
def test_nul_escaped_inside_a_json_decklist_string_is_a_400(cards, alice):
    """The decklist may be JSON text in a string: its own escapes are decoded by the format reader."""
    inner = json.dumps({"name": "x\x00y", "cards": [{"card": "ember-scout", "count": 4}]})
    response = client_for(alice).post(IMPORT, {"data": inner, "format": "json", "save": True}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_character"
    assert "'name'" in response.json()["message"] and not Deck.objects.exists()


@pytest.mark.django_db
def test_a_deeply_nested_json_decklist_string_is_a_400(cards):
    inner = '{"cards": ' + "[" * 5000 + "]" * 5000 + "}"
    response = client_for().post(IMPORT, {"data": inner, "format": "json"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_json"


def test_format_reader_refuses_unstorable_characters_and_non_finite_numbers():
    for data in ("4 Ember Scout\n1 A\x00B", '{"cards": [{"card": "a\\u0000", "count": 1}]}'):
        with pytest.raises(DeckFormatError) as info:
            parse_any(data)
        assert info.value.code == "bad_character"
    for data in (
        '{"cards": [], "x": NaN}',
        '{"cards": [], "x": 1e400}',
        '{"x": ' + "[" * 40 + "]" * 40 + "}",
    ):
        with pytest.raises(DeckFormatError) as info:
            parse_any(data)
        assert info.value.code == "bad_json"


def test_a_count_of_thousands_of_digits_is_a_line_error_not_a_crash():
    parsed = parse_text("9" * 5000 + " Ember Scout\n2 Ember Scout\n")
    assert [e.code for e in parsed.errors] == ["bad_count"] and parsed.entries[0].count == 2


def test_a_share_code_that_inflates_past_the_bound_is_refused():
    bomb = (
        SHARE_CODE_PREFIX
        + base64.urlsafe_b64encode(zlib.compress(b"\x00" * (MAX_CODE_BYTES * 4), 9)).decode()
    )
    with pytest.raises(DeckFormatError) as info:
        decode_share_code(bomb)
    assert "too much data" in info.value.message


def test_a_share_code_carrying_a_nul_slug_is_damaged():
    body = b"\x00\x00\x01\x01\x03a\x00b"  # no faction, no commander, one entry "a\0b" x1
    code = SHARE_CODE_PREFIX + base64.urlsafe_b64encode(zlib.compress(body)).decode().rstrip("=")
    with pytest.raises(DeckFormatError) as info:
        decode_share_code(code)
    assert info.value.code == "bad_share_code"


@pytest.mark.django_db
def test_sample_hand_numbers_out_of_range_are_400(cards, alice):
    deck = client_for(alice).post("/api/decks/", legal_payload(), format="json").json()
    for query in ("seed=-1", f"seed={2**64}", "mulligans=11", "mulligans=x", "seed=1e400"):
        response = client_for(alice).get(f"/api/decks/{deck['id']}/sample-hand/?{query}")
        assert response.status_code == 400 and response.json()["code"] == "invalid_parameter", query
