"""The card API: reading for everyone, filters and search, errors, staff-only writes, query counts."""

from __future__ import annotations

import pytest

from cards.models import Card
from cards.services import card_upsert_from_dict
from cards.tests.conftest import DEPLOY_DAMAGE, event, unit

# DEPLOY_DAMAGE in plain words (cards.describe)
DEPLOY_DAMAGE_WORDS = (
    "Deploying: when this unit enters the battlefield, deal 1000 damage to an enemy unit you choose."
)

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [c["name"] for c in response.json()["results"]]


def test_anyone_can_list_cards_in_the_card_format(small_set, api_client):
    response = api_client.get("/api/cards/")
    body = response.json()
    assert body["count"] == 6
    scout = next(c for c in body["results"] if c["name"] == "Ember Scout")
    assert scout["faction"] == "ember" and scout["faction_name"] == "Ember Legion"
    assert scout["type"] == "unit" and scout["power"] == 2000 and scout["arrows"] == ["N", "E"]
    assert scout["event_type"] is None and scout["slug"] == "ember-scout"


def test_detail_includes_abilities_in_plain_words(small_set, api_client):
    response = api_client.get("/api/cards/ember-warlord/")
    assert response.status_code == 200
    body = response.json()
    assert body["keywords"] == ["deploying"]
    assert body["abilities"] == [DEPLOY_DAMAGE]
    assert body["ability_descriptions"] == [DEPLOY_DAMAGE_WORDS]


def test_unknown_card_is_404(api_client, db):
    response = api_client.get("/api/cards/nobody/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_structured_filters(small_set, api_client):
    assert names(api_client.get("/api/cards/?faction=tide&type=unit")) == ["Tide Archer", "Tide Phalanx"]
    assert names(api_client.get("/api/cards/?event_type=defensive")) == ["Tide Shield"]
    assert names(api_client.get("/api/cards/?command_cost_min=2&command_cost_max=3")) == [
        "Tide Archer",
        "Tide Phalanx",
    ]
    assert names(api_client.get("/api/cards/?keyword=marking")) == ["Tide Archer"]
    assert names(api_client.get("/api/cards/?keyword=Range Attack")) == ["Tide Archer"]
    assert names(api_client.get("/api/cards/?legendary=true")) == ["Ember Warlord"]


def test_ordering_by_cost_and_power(small_set, api_client):
    by_cost = names(api_client.get("/api/cards/?ordering=-command_cost"))
    assert by_cost[:2] == ["Ember Warlord", "Tide Phalanx"]
    by_power = names(api_client.get("/api/cards/?ordering=power&type=unit"))
    assert by_power == ["Ember Scout", "Tide Archer", "Tide Phalanx", "Ember Warlord"]


def test_q_uses_the_search_language(small_set, api_client):
    assert names(api_client.get("/api/cards/", {"q": "f:tide (t:event or pow>=3.5)"})) == [
        "Tide Phalanx",
        "Tide Shield",
    ]


def test_malformed_q_is_a_400_with_the_position(small_set, api_client):
    response = api_client.get("/api/cards/", {"q": "ember xyz:1"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_query"
    assert "unknown search key 'xyz' at position 6" in body["message"]
    assert body["extra"] == {"position": 6}


@pytest.mark.parametrize(
    ("query", "message", "known"),
    [
        ("f:nonexistent", "unknown faction 'nonexistent' at position 0", "ember, tide"),
        ("ember kw:flying", "unknown keyword 'flying' at position 6", "spoil"),
    ],
)
def test_an_unknown_faction_or_keyword_is_named_with_the_valid_values(
    small_set, api_client, query, message, known
):
    response = api_client.get("/api/cards/", {"q": query})
    assert response.status_code == 400 and response.json()["code"] == "invalid_query"
    assert message in response.json()["message"] and known in response.json()["message"]


def test_a_faction_prefix_or_name_in_any_language_is_known(small_set, api_client):
    assert api_client.get("/api/cards/", {"q": "f:emb"}).status_code == 200
    assert api_client.get("/api/cards/", {"q": "-f:tide kw:marking"}).status_code == 200


def test_bad_filter_value_is_a_400_naming_the_filter(small_set, api_client):
    response = api_client.get("/api/cards/?type=wizard")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "type" in response.json()["extra"]["fields"]


def test_factions_and_keywords(small_set, api_client):
    factions = api_client.get("/api/factions/").json()
    assert [f["slug"] for f in factions] == ["ember", "tide"]
    assert factions[0] == {
        "slug": "ember",
        "name": "Ember Legion",
        "description": "Fire.",
        "color": "#c0392b",
        "untranslated": [],
    }
    keywords = api_client.get("/api/keywords/").json()
    assert {k["code"] for k in keywords} == {
        "range_attack",
        "deploying",
        "casting",
        "marking",
        "spoil",
        "formation",
    }
    assert api_client.get("/api/keywords/spoil/").json()["name"] == "Spoil"


def test_list_is_constant_queries_in_page_size(small_set, api_client, django_assert_max_num_queries):
    for i in range(60):
        card_upsert_from_dict(
            unit(name=f"Soldier {i:02}", keywords=["deploying", "range_attack"], abilities=[DEPLOY_DAMAGE])
        )
    with django_assert_max_num_queries(3):  # count, page, prefetch keywords
        response = api_client.get("/api/cards/?page_size=5")
    assert len(response.json()["results"]) == 5
    with django_assert_max_num_queries(4):  # and one to check that the keyword exists
        response = api_client.get("/api/cards/?page_size=60&q=kw:deploying")
    assert len(response.json()["results"]) == 60


# ---------------------------------------------------------------- writes


def test_anonymous_cannot_write(small_set, api_client):
    assert api_client.post("/api/cards/", unit(name="New"), format="json").status_code in (401, 403)
    assert api_client.patch("/api/cards/ember-scout/", {"power": 1000}, format="json").status_code in (
        401,
        403,
    )
    assert api_client.delete("/api/cards/ember-scout/").status_code in (401, 403)
    assert Card.objects.get(name="Ember Scout").power == 2000


def test_normal_user_cannot_write(small_set, api_client, django_user_model):
    user = django_user_model.objects.create_user(username="player", password="pw")
    api_client.force_authenticate(user)
    response = api_client.post("/api/cards/", unit(name="New"), format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert api_client.put("/api/cards/ember-scout/", unit(power=1000), format="json").status_code == 403
    assert api_client.delete("/api/cards/ember-scout/").status_code == 403
    assert Card.objects.count() == 6


def test_staff_can_create_update_and_delete(small_set, staff_client):
    response = staff_client.post(
        "/api/cards/",
        unit(name="Ember Captain", keywords=["deploying"], abilities=[DEPLOY_DAMAGE]),
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "ember-captain"
    assert response.json()["ability_descriptions"] == [DEPLOY_DAMAGE_WORDS]

    response = staff_client.patch(
        "/api/cards/ember-captain/", {"power": 4000, "arrows": ["S", "N"]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["power"] == 4000 and response.json()["arrows"] == ["N", "S"]

    response = staff_client.put("/api/cards/fire-rain/", event(command_cost=2), format="json")
    assert response.status_code == 200, response.content
    assert Card.objects.get(name="Fire Rain").command_cost == 2

    assert staff_client.delete("/api/cards/ember-captain/").status_code == 204
    assert not Card.objects.filter(name="Ember Captain").exists()


def test_staff_patch_is_validated_as_a_whole_card(small_set, staff_client):
    response = staff_client.patch("/api/cards/fire-rain/", {"power": 1000}, format="json")
    assert response.status_code == 400
    assert response.json()["extra"]["fields"] == {"power": ["an event has no Power (C-1.3)"]}
    response = staff_client.patch("/api/cards/ember-scout/", {"keywords": ["spoil"]}, format="json")
    assert response.status_code == 400
    assert "keywords" in response.json()["extra"]["fields"]
    assert Card.objects.get(name="Ember Scout").keywords.count() == 0


def test_staff_cannot_create_a_duplicate_name_or_reference_unknowns(small_set, staff_client):
    response = staff_client.post("/api/cards/", unit(), format="json")
    assert response.status_code == 400
    assert response.json()["extra"]["fields"]["name"] == ["a card named 'Ember Scout' already exists"]
    response = staff_client.post(
        "/api/cards/", unit(name="X", faction="nowhere", keywords=["flying"]), format="json"
    )
    fields = response.json()["extra"]["fields"]
    assert "unknown faction 'nowhere'" in fields["faction"][0]
    assert "unknown keyword 'flying'" in fields["keywords"][0]


def test_rename_through_the_api_moves_the_slug(small_set, staff_client):
    response = staff_client.patch("/api/cards/ember-scout/", {"name": "Ember Runner"}, format="json")
    assert response.status_code == 200
    assert response.json()["slug"] == "ember-runner"
    assert staff_client.get("/api/cards/ember-runner/").status_code == 200


def test_schema_documents_the_q_parameter(api_client, db):
    response = api_client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    params = {p["name"]: p for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert "search query language" in params["q"]["description"].lower()
    assert {
        "faction",
        "type",
        "event_type",
        "command_cost_min",
        "command_cost_max",
        "keyword",
        "legendary",
    } <= set(params)
    assert "post" in schema["paths"]["/api/cards/"]


def test_deleting_a_card_in_use_is_a_409(small_set, staff_client, monkeypatch):
    from django.db.models import ProtectedError

    def protected(self, *args, **kwargs):
        raise ProtectedError("in use", {object()})

    monkeypatch.setattr(Card, "delete", protected)
    response = staff_client.delete("/api/cards/ember-scout/")
    assert response.status_code == 409
    assert response.json()["code"] == "card_in_use"
    assert Card.objects.filter(name="Ember Scout").exists()
