"""Read-only Westeros data API under /api/westeros/ (documented in the OpenAPI schema)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_map_lists_areas_with_layout_symmetric_neighbours_and_ports_w_10(
    client: Any, westeros: dict[str, Any]
) -> None:
    response = client.get("/api/westeros/map/")
    assert response.status_code == 200
    body = response.json()
    assert body["counts"]["areas"] == 58 and len(body["areas"]) == 58
    assert len(body["adjacency"]) == 143 and len(body["ports"]) == 8
    areas = {a["id"]: a for a in body["areas"]}
    for a in areas.values():
        assert a["outline"] and a["x"] is not None
        for n in a["neighbours"]:
            assert a["id"] in areas[n]["neighbours"]
    assert areas["winterfell"]["port"] == "winterfell_port"
    assert areas["winterfell_port"]["neighbours"] == ["bay_of_ice", "winterfell"]
    assert {"id": "pyke_port", "land_area": "pyke", "sea_area": "ironmans_bay", "max_ships": 3} in body[
        "ports"
    ]


def test_houses_list_start_values_w_2_2(client: Any, westeros: dict[str, Any]) -> None:
    body = client.get("/api/westeros/houses/").json()
    assert [h["id"] for h in body] == ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
    stark = body[0]
    assert stark["home_area"] == "winterfell" and stark["supply_level"] == 1 and stark["victory_track"] == 2
    assert stark["influence_positions_6p"] == {"iron_throne": 3, "fiefdoms": 4, "kings_court": 2}


def test_house_cards_filter_by_house_w_17_1(client: Any, westeros: dict[str, Any]) -> None:
    assert len(client.get("/api/westeros/house-cards/").json()) == 42
    body = client.get("/api/westeros/house-cards/?house=martell").json()
    assert sorted(c["strength"] for c in body) == [0, 1, 1, 2, 2, 3, 4]
    response = client.get("/api/westeros/house-cards/?house=targaryen")
    assert response.status_code == 404 and response.json()["code"] == "unknown_house"


def test_setup_per_player_count_w_2(client: Any, westeros: dict[str, Any]) -> None:
    body = client.get("/api/westeros/setups/3/").json()
    assert body["houses"] == ["stark", "lannister", "baratheon"]
    assert body["dominance_token_holders"]["iron_throne"] == "baratheon"
    assert "pyke" in body["impassable_areas"] and set(body["houses_setup"]) == {
        "stark",
        "lannister",
        "baratheon",
    }
    assert body["start"]["wildling_threat"] == 2
    assert client.get("/api/westeros/setups/6/").json()["kings_court_special_orders"] == [3, 3, 2, 1, 0, 0]
    missing = client.get("/api/westeros/setups/7/")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_player_count"


def test_api_is_read_only_even_for_staff(client: Any, westeros: dict[str, Any]) -> None:
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw")
    client.force_login(user)
    for url in (
        "/api/westeros/map/",
        "/api/westeros/houses/",
        "/api/westeros/house-cards/",
        "/api/westeros/setups/3/",
    ):
        assert client.post(url, {}, content_type="application/json").status_code in (403, 405)
        assert client.delete(url).status_code in (403, 405)


def test_openapi_schema_documents_the_westeros_endpoints(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in (
        "/api/westeros/map/",
        "/api/westeros/houses/",
        "/api/westeros/house-cards/",
        "/api/westeros/setups/{player_count}/",
    ):
        assert path in schema
