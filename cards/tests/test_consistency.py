"""Every card consistency rule (C-1) is enforced the same way by the model, the admin form and the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cards.admin import CardAdminForm
from cards.models import Card, Faction, Keyword
from cards.services import card_model_fields
from cards.tests.conftest import DEPLOY_DAMAGE, event, unit

# C-7.6: an activated ability usable only while Formation 3 holds.
FORMATION_ACTIVATED: dict[str, Any] = {
    "trigger": "planning_activated",
    "x": 3,
    "cost": {"cp": 1},
    "effects": [{"effect": "draw", "target": "controller", "count": 1}],
}

# (id, record, field that must be named, fragment of the message, checked without keywords too)
BAD_CARDS: list[tuple[str, dict[str, Any], str, str, bool]] = [
    ("event_with_power_c_1_3", event(power=1000), "power", "an event has no Power", True),
    ("event_with_health_c_1_3", event(health=1000), "health", "an event has no Health", True),
    ("event_with_arrows_c_1_3", event(arrows=["N"]), "arrows", "no attack directions", True),
    ("event_without_event_type_c_1_3", event(event_type=None), "event_type", "needs an event type", True),
    ("unit_without_health_c_1_1", unit(health=None), "health", "a unit needs Health", True),
    ("unit_without_power_c_1_1", unit(power=None), "power", "a unit needs Power", True),
    ("unit_with_zero_health", unit(health=0), "health", "above 0", True),
    ("power_not_in_thousands", unit(power=2100), "power", "multiple of 500", True),
    ("unit_with_event_type", unit(event_type="planning"), "event_type", "no event type", True),
    ("bad_arrow_direction_c_1_2", unit(arrows=["N", "UP"]), "arrows", "drawn from N NE E", True),
    ("legendary_event_c_1_4", event(legendary=True), "legendary", "only units can be Legendary", True),
    ("unique_unit_c_1_4", unit(unique=True), "unique", "only events can be Unique", True),
    (
        "unknown_effect_c_1_5",
        unit(
            keywords=["deploying"],
            abilities=[{"trigger": "deploying", "effects": [{"effect": "explode", "target": "self"}]}],
        ),
        "abilities",
        "unknown effect 'explode'",
        True,
    ),
    (
        "unknown_trigger_c_1_5",
        unit(abilities=[{"trigger": "sneeze", "effects": [{"effect": "defeat", "target": "self"}]}]),
        "abilities",
        "unknown trigger 'sneeze'",
        True,
    ),
    (
        "formation_without_x_c_7_6",
        unit(
            keywords=["formation"],
            abilities=[
                {
                    "trigger": "formation",
                    "effects": [{"effect": "modify_power", "target": "self", "amount": 1000}],
                }
            ],
        ),
        "abilities",
        "needs x",
        True,
    ),
    (
        "formation_activated_ability_without_its_keyword_c_7_6",
        unit(abilities=[{**FORMATION_ACTIVATED}]),
        "keywords",
        "needs the keyword 'formation'",
        False,
    ),
    (
        "trigger_without_its_keyword",
        unit(abilities=[DEPLOY_DAMAGE]),
        "keywords",
        "needs the keyword 'deploying'",
        False,
    ),
    (
        "keyword_without_its_trigger",
        unit(keywords=["spoil"]),
        "keywords",
        "keyword 'spoil' needs an ability with trigger 'spoil'",
        False,
    ),
]
IDS = [case[0] for case in BAD_CARDS]
WITHOUT_KEYWORDS = [case for case in BAD_CARDS if case[4]]


def _card(record: dict[str, Any], faction: Faction) -> Card:
    return Card(slug="x", faction=faction, **card_model_fields(record))


def _form_data(record: dict[str, Any], faction: Faction, keywords: dict[str, Keyword]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": record["name"],
        "slug": "test-card",
        "faction": faction.pk,
        "card_type": record["type"],
        "command_cost": record["command_cost"],
        "energy_cost": record["energy_cost"],
        "power": "" if record["power"] is None else record["power"],
        "health": "" if record["health"] is None else record["health"],
        "arrows": record["arrows"],
        "event_type": record["event_type"] or "",
        "keywords": [keywords[c].pk for c in record["keywords"]],
        "rules_text": record["rules_text"],
        "abilities": json.dumps(record["abilities"]),
        "flavor_text": "",
    }
    if record["legendary"]:
        data["legendary"] = "on"
    if record["unique"]:
        data["unique"] = "on"
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("case", "record", "field", "fragment", "without_keywords"),
    WITHOUT_KEYWORDS,
    ids=[c[0] for c in WITHOUT_KEYWORDS],
)
def test_model_clean_refuses_inconsistent_card(case, record, field, fragment, without_keywords, ember):
    """Model.clean() has no M2M yet, so the keyword/trigger cases are checked by the other three paths."""
    with pytest.raises(ValidationError) as excinfo:
        _card(record, ember).clean()
    assert any(fragment in m for m in excinfo.value.message_dict[field])


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "record", "field", "fragment", "without_keywords"), BAD_CARDS, ids=IDS)
def test_admin_form_names_the_wrong_field(case, record, field, fragment, without_keywords, ember, keywords):
    form = CardAdminForm(data=_form_data(record, ember, keywords))
    if field == "arrows" and "UP" in record["arrows"]:
        # The checkbox widget cannot submit an unknown direction; the choice field refuses it.
        assert not form.is_valid()
        assert "arrows" in form.errors
        return
    assert not form.is_valid()
    messages = form.errors[field]
    assert any(fragment in m for m in messages), messages
    assert len(messages) == len(set(messages)), "each problem is shown once"
    assert not Card.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "record", "field", "fragment", "without_keywords"), BAD_CARDS, ids=IDS)
def test_api_answers_400_naming_the_field(
    case, record, field, fragment, without_keywords, ember, keywords, staff_client
):
    response = staff_client.post("/api/cards/", record, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["extra"]["fields"]
    assert f"{field}:" in body["message"]
    if field != "arrows":
        assert any(fragment in m for m in body["extra"]["fields"][field])
    assert not Card.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "record", "field", "fragment", "without_keywords"), BAD_CARDS, ids=IDS)
def test_import_reports_the_card_position_and_field(
    case, record, field, fragment, without_keywords, ember, keywords
):
    from cards.card_files import cards_import

    data = {"format": "commandeer-cards", "version": 1, "cards": [unit(name="Fine Card"), record]}
    report = cards_import(data)
    assert not report.ok
    if field == "arrows" and "UP" in record["arrows"]:
        fragment = "drawn from"
    assert any(
        e.startswith(f"cards[1] ({record['name']}): {field}: ") and fragment in e for e in report.errors
    ), report.errors
    assert not Card.objects.exists(), "all or nothing: the valid card was not written either"


@pytest.mark.django_db
def test_admin_form_accepts_a_consistent_card_and_saves_keywords(ember, keywords):
    record = unit(name="Ember Warlord", legendary=True, keywords=["deploying"], abilities=[DEPLOY_DAMAGE])
    form = CardAdminForm(data=_form_data(record, ember, keywords) | {"arrows": ["S", "N"]})
    assert form.is_valid(), form.errors
    card = form.save()
    assert card.arrows == ["N", "S"], "arrows are stored in compass order"
    assert [k.code for k in card.keywords.all()] == ["deploying"]


def test_a_formation_keyword_with_only_an_activated_formation_ability_is_consistent_c_7_6():
    from cards.models import card_field_errors

    errors = card_field_errors(
        card_type="unit",
        power=1000,
        health=3000,
        arrows=["N"],
        legendary=False,
        unique=False,
        event_type="",
        abilities=[FORMATION_ACTIVATED],
        keyword_codes=["formation"],
    )
    assert errors == {}
