"""The OpenAPI schema states what the server does: errors, limits and who may call."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from cards.search import MAX_QUERY_LENGTH

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def spec(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return Client().get("/api/schema/?format=json").json()


def operations(spec: dict[str, Any]):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def _param(operation: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in operation["parameters"] if p["name"] == name)


def test_every_operation_documents_400_in_the_error_shape(spec):
    components = spec["components"]["schemas"]
    for path, method, operation in operations(spec):
        responses = operation["responses"]
        assert "400" in responses, (method, path)
        for code, response in responses.items():
            if code.startswith(("4", "5")) and "content" in response:
                ref = response["content"]["application/json"]["schema"]["$ref"]
                error = components[ref.rsplit("/", 1)[1]]
                assert set(error["required"]) == {"code", "message", "extra"}, (method, path, code)


def test_operations_with_path_parameters_document_404_and_bodies_413_and_415(spec):
    for path, method, operation in operations(spec):
        if "{" in path:
            assert "404" in operation["responses"], (method, path)
        if method in {"post", "put", "patch"}:
            assert {"413", "415"} <= set(operation["responses"]), (method, path)


def test_card_reads_are_open_to_anonymous_users_and_writes_are_not(spec):
    assert {} in spec["paths"]["/api/cards/"]["get"]["security"]
    assert {} in spec["paths"]["/api/cards/{slug}/"]["get"]["security"]
    assert {} not in spec["paths"]["/api/cards/"]["post"]["security"]
    assert {"401", "403"} <= set(spec["paths"]["/api/cards/"]["post"]["responses"])
    assert "409" in spec["paths"]["/api/cards/{slug}/"]["delete"]["responses"]


def test_limits_the_server_enforces_are_in_the_schema(spec):
    hand = spec["paths"]["/api/decks/{id}/sample-hand/"]["get"]
    assert _param(hand, "seed")["schema"] == {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
    # C-4.4: as many mulligans as a match allows (5: the 6-card hand is never emptied)
    assert _param(hand, "mulligans")["schema"] == {"type": "integer", "minimum": 0, "maximum": 5}
    assert _param(spec["paths"]["/api/cards/"]["get"], "q")["schema"]["maxLength"] == MAX_QUERY_LENGTH
    assert _param(spec["paths"]["/api/decks/"]["get"], "search")["schema"]["maxLength"] == 100
    deck_in = spec["components"]["schemas"]["DeckInputRequest"]["properties"]
    assert deck_in["cards"]["maxItems"] == 200 and "existing faction" in deck_in["faction"]["description"]
    entry = spec["components"]["schemas"]["CardCountRequest"]["properties"]["count"]
    assert (entry["minimum"], entry["maximum"]) == (1, 99)


def test_the_token_endpoint_documents_its_refusals(spec):
    responses = spec["paths"]["/api/auth/token/"]["post"]["responses"]
    assert {"200", "400", "413", "415"} <= set(responses)
    assert {} in spec["paths"]["/api/auth/token/"]["post"]["security"]


def test_the_westeros_reads_document_their_404(spec):
    assert "404" in spec["paths"]["/api/westeros/house-cards/"]["get"]["responses"]
    assert "404" in spec["paths"]["/api/westeros/setups/{player_count}/"]["get"]["responses"]


def test_public_decks_likes_copies_and_draw_odds_state_their_limits_and_callers_issue_14(spec):
    paths = spec["paths"]
    browse = paths["/api/decks/public/"]["get"]
    assert {} in browse["security"]  # no sign-in needed to browse
    assert _param(browse, "q")["schema"]["maxLength"] == 100
    assert _param(browse, "page_size")["schema"]["maximum"] == 60
    assert set(_param(browse, "sort")["schema"]["enum"]) >= {"newest", "liked", "faction"}
    for path in ("/api/decks/{id}/like/", "/api/decks/{id}/copy/", "/api/decks/shared/{share_id}/copy/"):
        for method in ("post", "delete") if "like" in path else ("post",):
            operation = paths[path][method]
            assert {} not in operation["security"], (method, path)  # signed-in players only
            assert {"401", "403", "404", "429"} <= set(operation["responses"]), (method, path)
    odds = paths["/api/decks/{id}/draw-odds/"]["get"]
    assert _param(odds, "turns")["schema"] == {"type": "integer", "minimum": 1, "maximum": 15}
    assert _param(odds, "reinforces")["schema"] == {"type": "integer", "minimum": 0, "maximum": 3}
    assert _param(odds, "mulligans")["schema"] == {"type": "integer", "minimum": 0, "maximum": 5}


def test_my_settings_are_documented_for_signed_in_users_only(spec):
    item = spec["paths"]["/api/me/settings/"]
    for method in ("get", "patch"):
        assert {} not in item[method]["security"]
        assert {"200", "400", "401", "403"} <= set(item[method]["responses"])
    assert {"413", "415"} <= set(item["patch"]["responses"])
    props = spec["components"]["schemas"]["PatchedUserSettingsRequest"]["properties"]
    assert props["email_your_turn"]["type"] == "boolean"
    assert {"type": "string", "format": "email", "maxLength": 254} in props["email"]["oneOf"]


def test_cards_document_their_art_urls(spec):
    """Every card has `art`: its thumbnail and tile pictures, the upload (null without one), and whether
    the pictures are the generated placeholder (docs/operations.md, "Card art")."""
    card = spec["components"]["schemas"]["CardOutput"]["properties"]
    ref = card["art"].get("$ref") or card["art"]["allOf"][0]["$ref"]
    art = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(art["required"]) == {"thumb", "card", "full", "placeholder"}
    assert art["properties"]["full"]["nullable"] is True
    assert art["properties"]["placeholder"]["type"] == "boolean"
