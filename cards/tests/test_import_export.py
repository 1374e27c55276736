"""Card file import (all or nothing, positions, idempotent) and export (deterministic round trip)."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from cards.card_files import cards_export, cards_import
from cards.models import Card, Faction, Keyword
from cards.services import card_upsert_from_dict
from cards.tests.conftest import card_file, event, unit


@pytest.mark.django_db
def test_import_creates_everything_and_reports_counts():
    report = cards_import(card_file())
    assert report.ok, report.errors
    assert report.factions == {"created": 2, "updated": 0, "unchanged": 0}
    assert report.cards["created"] == 6
    warlord = Card.objects.get(name="Ember Warlord")
    assert warlord.slug == "ember-warlord"
    assert warlord.faction.slug == "ember"
    assert [k.code for k in warlord.keywords.all()] == ["deploying"]
    assert Card.objects.get(name="Fire Rain").event_type == "planning"
    assert "6 created" in report.summary()


@pytest.mark.django_db
def test_importing_the_same_file_twice_leaves_the_same_database(small_set):
    before = cards_export()
    history_before = Card.history.count()
    report = cards_import(small_set)
    assert report.ok
    assert report.cards == {"created": 0, "updated": 0, "unchanged": 6}
    assert cards_export() == before
    assert Card.history.count() == history_before, "unchanged cards are not saved again"


@pytest.mark.django_db
def test_import_updates_a_card_matched_by_name(small_set):
    data = copy.deepcopy(small_set)
    data["cards"][0]["power"] = 2500
    data["cards"][0]["keywords"] = ["range_attack"]
    report = cards_import(data)
    assert report.cards == {"created": 0, "updated": 1, "unchanged": 5}
    scout = Card.objects.get(name="Ember Scout")
    assert scout.power == 2500
    assert [k.code for k in scout.keywords.all()] == ["range_attack"]
    assert scout.history.first().history_change_reason == "Imported from a card file"


@pytest.mark.django_db
def test_import_is_all_or_nothing_and_reports_every_bad_record_with_its_position():
    cards = [
        unit(name="Good One"),
        unit(name="Ember Scout", power=None),
        event(name="Bad Event", power=1000, legendary=True),
        unit(name="Lost Soldier", faction="nowhere"),
        unit(name="Odd Words", keywords=["flying"]),
        unit(name="Good One"),
        "not a card",
        unit(name="Extra", colour="red"),
    ]
    report = cards_import(card_file(cards))
    assert not report.ok
    errors = report.errors
    assert "cards[1] (Ember Scout): power: a unit needs Power (C-1.1)" in errors
    assert any(e.startswith("cards[2] (Bad Event): power: an event has no Power") for e in errors)
    assert any(e.startswith("cards[2] (Bad Event): legendary: only units can be Legendary") for e in errors)
    assert any(e.startswith("cards[3] (Lost Soldier): faction: unknown faction 'nowhere'") for e in errors)
    assert any(e.startswith("cards[4] (Odd Words): keywords: unknown keyword 'flying'") for e in errors)
    assert "cards[5] (Good One): name: the same name appears at cards[0]" in errors
    assert "cards[6]: card: a card must be a JSON object" in errors
    assert any(e.startswith("cards[7] (Extra): colour: unknown field") for e in errors)
    assert not Card.objects.exists()
    assert not Faction.objects.exists(), "factions of a refused file are not written either"
    assert not Keyword.objects.exists()


@pytest.mark.django_db
def test_import_reports_bad_header_factions_and_keywords():
    data = card_file([])
    data["format"] = "something"
    data["version"] = 7
    data["factions"].append({"slug": "bad slug!", "name": "", "color": "red"})
    data["keywords"].append({"code": "flying", "name": "Flying", "reminder_text": "Flies."})
    report = cards_import(data)
    assert "format: must be 'commandeer-cards'" in report.errors
    assert "version: must be 1" in report.errors
    assert any(e.startswith("factions[2] (bad slug!): slug:") for e in report.errors)
    assert any(e.startswith("factions[2] (bad slug!): color:") for e in report.errors)
    assert any(
        e.startswith("keywords[6] (flying): code: unknown keyword code 'flying'") for e in report.errors
    )


@pytest.mark.django_db
def test_import_knows_factions_and_keywords_already_in_the_database(small_set):
    data = {
        "format": "commandeer-cards",
        "version": 1,
        "cards": [unit(name="New Scout", keywords=["range_attack"])],
    }
    report = cards_import(data)
    assert report.ok, report.errors
    assert Card.objects.filter(name="New Scout").exists()


@pytest.mark.django_db
def test_dry_run_validates_and_counts_but_writes_nothing():
    report = cards_import(card_file(), dry_run=True)
    assert report.ok
    assert report.cards["created"] == 6
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_slug_clash_between_different_names_is_reported():
    report = cards_import(card_file([unit(name="Ember Scout"), unit(name="Ember  Scout!")]))
    assert any(
        "cards[1] (Ember  Scout!): name: its URL slug 'ember-scout' is already used" in e
        for e in report.errors
    )


@pytest.mark.django_db
def test_export_import_export_round_trips_exactly(small_set):
    first = cards_export()
    text = json.dumps(first, indent=2, ensure_ascii=False)
    Card.objects.all().delete()
    Faction.objects.all().delete()
    Keyword.objects.all().delete()
    assert cards_import(json.loads(text)).ok
    assert json.dumps(cards_export(), indent=2, ensure_ascii=False) == text


@pytest.mark.django_db
def test_export_is_the_card_format_in_a_deterministic_order(small_set):
    data = cards_export()
    assert data["format"] == "commandeer-cards" and data["version"] == 1
    assert [f["slug"] for f in data["factions"]] == ["ember", "tide"]
    assert [k["code"] for k in data["keywords"]] == sorted(k["code"] for k in data["keywords"])
    assert [(c["faction"], c["name"]) for c in data["cards"]] == sorted(
        (c["faction"], c["name"]) for c in data["cards"]
    )
    fire_rain = next(c for c in data["cards"] if c["name"] == "Fire Rain")
    assert fire_rain == event(), "an exported card is exactly the record it was imported from"
    assert list(fire_rain) == list(event()), "fields in the documented order"


@pytest.mark.django_db
def test_ability_keys_and_arrows_are_exported_in_canonical_order(small_set):
    ability = {
        "effects": [{"amount": 1000, "target": "self", "effect": "modify_power"}],
        "x": 2,
        "trigger": "formation",
    }
    card, outcome = card_upsert_from_dict(
        unit(name="Shuffled", arrows=["S", "N", "E"], keywords=["formation"], abilities=[ability])
    )
    assert outcome == "created"
    exported = next(c for c in cards_export()["cards"] if c["name"] == "Shuffled")
    assert exported["arrows"] == ["N", "E", "S"]
    assert list(exported["abilities"][0]) == ["trigger", "x", "effects"]
    assert list(exported["abilities"][0]["effects"][0]) == ["effect", "target", "amount"]


# ---------------------------------------------------------------- management commands


@pytest.mark.django_db
def test_import_cards_command_prints_a_summary_and_is_idempotent(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(card_file()))
    out = io.StringIO()
    call_command("import_cards", str(path), stdout=out)
    assert "cards: 6 created" in out.getvalue()
    out = io.StringIO()
    call_command("import_cards", str(path), stdout=out)
    assert "cards: 0 created, 0 updated, 6 unchanged" in out.getvalue()
    assert Card.objects.count() == 6


@pytest.mark.django_db
def test_import_cards_command_fails_with_every_error(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(card_file([unit(power=None), event(name="Bad", health=5000)])))
    with pytest.raises(CommandError) as excinfo:
        call_command("import_cards", str(path))
    message = str(excinfo.value)
    assert "cards[0] (Ember Scout): power: a unit needs Power" in message
    assert "cards[1] (Bad): health: an event has no Health" in message
    assert "nothing was imported" in message
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_import_cards_command_reports_invalid_json_and_missing_files(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": ')
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_cards", str(path))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_cards", str(tmp_path / "missing.json"))


@pytest.mark.django_db
def test_import_cards_exits_non_zero_with_errors_on_stderr(tmp_path, capsys, monkeypatch):
    """Through the command line entry point: the exit status and stderr are what scripts and make see."""
    from django.core.management import execute_from_command_line

    # run_from_argv closes the connections when it finishes; keep the test's transaction open.
    monkeypatch.setattr("django.core.management.base.connections.close_all", lambda: None)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(card_file([unit(power=None), event(name="Bad", health=5000)])))
    with pytest.raises(SystemExit) as excinfo:
        execute_from_command_line(["manage.py", "import_cards", str(path)])
    assert excinfo.value.code != 0
    err = capsys.readouterr().err
    assert "cards[0] (Ember Scout): power: a unit needs Power" in err
    assert "cards[1] (Bad): health: an event has no Health" in err


@pytest.mark.django_db
def test_export_cards_command_writes_stdout_or_a_file(small_set, tmp_path):
    out = io.StringIO()
    call_command("export_cards", stdout=out)
    assert json.loads(out.getvalue()) == cards_export()
    target = tmp_path / "export.json"
    call_command("export_cards", "--output", str(target), stderr=io.StringIO())
    assert target.read_text() == out.getvalue()


@pytest.mark.django_db
def test_thai_card_names_get_readable_unique_slugs(small_set):
    report = cards_import(card_file([unit(name="นักรบเพลิง"), unit(name="Ember Scout")]))
    assert report.ok, report.errors
    card = Card.objects.get(name="นักรบเพลิง")
    assert card.slug and card.slug != "ember-scout"
    assert cards_import(card_file([unit(name="นักรบเพลิง")])).cards["unchanged"] == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("where", "text", "expected"),
    [
        ("name", "Ember\x00Scout", "cards[0].name: contains a NUL"),
        ("rules_text", "x\ud800", "lone surrogate"),
    ],
)
def test_import_refuses_text_the_database_cannot_store_naming_where(where, text, expected):
    data = card_file()
    data["cards"][0][where] = text
    report = cards_import(data)
    assert not report.ok and expected in report.errors[0]
    assert not Card.objects.exists()
