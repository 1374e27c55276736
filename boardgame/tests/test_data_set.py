"""Load, export and import of the Westeros data set; the export is the engine's input (contract)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from boardgame import dataset, validation
from boardgame.models import Area, House, HouseCard, WesterosCard
from config.errors import ApplicationError


def six(bundle: dict[str, Any]) -> dict[str, Any]:
    return {k: bundle[k] for k in validation.GAME_SECTIONS}


def test_bundled_files_pass_the_whole_data_set_check(bundle: dict[str, Any]) -> None:
    assert validation.game_data_errors(six(bundle), layout=bundle["layout"]) == []


def test_bundled_map_has_the_base_game_totals_w_1_2(bundle: dict[str, Any]) -> None:
    counts = validation.map_counts(bundle["map"]["areas"], len(bundle["map"]["adjacency"]))
    assert counts == {
        "areas": 58,
        "land": 38,
        "sea": 12,
        "port": 8,
        "strongholds": 10,
        "castles": 10,
        "islands": 3,
        "adjacency_edges": 143,
        "supply_icons_total": 24,
        "crown_icons_total": 19,
    }


@pytest.mark.django_db
def test_export_after_load_equals_the_bundled_files_engine_contract(bundle: dict[str, Any]) -> None:
    call_command("load_westeros")
    exported = dataset.game_data_export(translations=True)
    assert list(exported) == list(validation.GAME_SECTIONS)
    assert exported == six(bundle)
    assert dataset.layout_export() == bundle["layout"]


@pytest.mark.django_db
def test_export_is_deterministic_json(westeros: dict[str, Any]) -> None:
    first = json.dumps(dataset.westeros_export_all())
    second = json.dumps(dataset.westeros_export_all())
    assert first == second
    assert [a["id"] for a in dataset.game_data_export()["map"]["areas"]] == [
        a["id"] for a in westeros["map"]["areas"]
    ]


@pytest.mark.django_db
def test_export_import_round_trip_through_the_commands(westeros: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "westeros.json"
    call_command("export_westeros", output=str(out))
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written == westeros
    Area.objects.filter(slug="kingswood").update(crowns=3)  # an edit that the import must undo
    call_command("import_westeros", str(out))
    assert dataset.westeros_export_all() == westeros


@pytest.mark.django_db
def test_load_is_idempotent_and_keeps_admin_edits_unless_forced() -> None:
    call_command("load_westeros")
    history_rows = Area.history.count()
    call_command("load_westeros")
    assert Area.history.count() == history_rows  # second run: nothing rewritten
    HouseCard.objects.filter(slug="eddard_stark").update(name="Ned")
    call_command("load_westeros")
    assert HouseCard.objects.get(slug="eddard_stark").name == "Ned"
    call_command("load_westeros", force=True)
    assert HouseCard.objects.get(slug="eddard_stark").name == "Eddard Stark"


@pytest.mark.django_db
def test_load_fills_the_translations_an_install_lacks_and_keeps_a_curators() -> None:
    """An install loaded before the files had translations (or whose curator edited the data) gets the
    files' new translations by a plain `load_westeros`; its English edits and its own translations stay."""
    call_command("load_westeros")
    HouseCard.objects.filter(slug="eddard_stark").update(
        name_en="Ned", name="Ned", name_th=None, name_zh_hans=None
    )
    Area.objects.filter(slug="winterfell").update(name_zh_hans=None, name_th="วินเทอร์เฟลล์ (ของเรา)")
    House.objects.filter(slug="stark").update(name_zh_hans=None)
    call_command("load_westeros")
    ned = HouseCard.objects.get(slug="eddard_stark")
    assert ned.name_en == "Ned"  # the curator's English edit is kept
    assert ned.name_th == "Eddard Stark" and ned.name_zh_hans == "艾德·史塔克"  # the files' translations
    winterfell = Area.objects.get(slug="winterfell")
    assert winterfell.name_zh_hans == "临冬城" and winterfell.name_th == "วินเทอร์เฟลล์ (ของเรา)"
    assert House.objects.get(slug="stark").name_zh_hans == "史塔克"
    history_rows = Area.history.count()
    call_command("load_westeros")  # nothing left to fill: nothing rewritten
    assert Area.history.count() == history_rows


@pytest.mark.django_db
def test_import_reports_every_error_and_writes_nothing(westeros: dict[str, Any], tmp_path: Path) -> None:
    bad = copy.deepcopy(westeros)
    bad["map"]["adjacency"].append(["kingswood", "kingswood"])
    bad["house_cards"]["cards"].append({**bad["house_cards"]["cards"][0], "id": "eddard_again"})
    bad["westeros_cards"]["cards"][0]["count"] = 4
    bad["setup"]["player_counts"]["3"]["houses"][0] = "targaryen"
    with pytest.raises(ApplicationError) as exc:
        dataset.game_data_import(data=bad)
    errors = exc.value.extra["errors"]
    assert any("self loop" in e for e in errors)
    assert any("stark has 8 house cards" in e for e in errors)
    assert any("deck 1 holds 11 cards but must hold 10" in e for e in errors)
    assert any("unknown house(s): targaryen" in e for e in errors)
    assert dataset.westeros_export_all() == westeros  # all or nothing
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(CommandError, match="self loop"):
        call_command("import_westeros", str(path))


@pytest.mark.django_db
def test_import_refuses_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_westeros", str(path))


@pytest.mark.django_db
def test_an_admin_edit_changes_the_next_export_not_an_earlier_copy(westeros: dict[str, Any]) -> None:
    running_game_copy = dataset.game_data_export()
    WesterosCard.objects.filter(slug="last_days_of_summer", deck__number=1).update(name="Summer's End")
    names = {c["name"] for c in dataset.game_data_export()["westeros_cards"]["cards"]}
    assert "Summer's End" in names
    assert "Summer's End" not in {c["name"] for c in running_game_copy["westeros_cards"]["cards"]}


@pytest.mark.django_db
def test_whole_data_set_check_is_clean_after_load(westeros: dict[str, Any]) -> None:
    assert dataset.dataset_errors() == []


@pytest.mark.django_db
def test_whole_data_set_check_finds_a_broken_deck(westeros: dict[str, Any]) -> None:
    WesterosCard.objects.filter(slug="supply").update(count=2)
    assert dataset.dataset_errors() == ["westeros_cards: deck 1 holds 9 cards but must hold 10 (W-1.11)"]


@pytest.mark.django_db
def test_engine_builds_its_game_data_from_the_export_engine_contract(westeros: dict[str, Any]) -> None:
    from boardgame.engine.data import GameData, load_default_game_data

    from_db = GameData.from_dict(dataset.game_data_export())
    from_files = load_default_game_data()
    assert from_db.to_dict() == from_files.to_dict()
    assert from_db.adj == from_files.adj and from_db.westeros_decks == from_files.westeros_decks


@pytest.mark.django_db
def test_import_without_a_drawing_for_every_area_is_refused(westeros: dict[str, Any]) -> None:
    bad = copy.deepcopy(westeros)
    del bad["layout"]["areas"]["kingswood"]
    bad["layout"]["areas"]["pyke"]["outline"] = [[0, 0]]
    with pytest.raises(ApplicationError) as exc:
        dataset.game_data_import(data=bad)
    assert "layout: area kingswood has no drawing" in exc.value.extra["errors"]
    assert any(e.startswith("layout: pyke:") for e in exc.value.extra["errors"])


@pytest.mark.django_db
def test_import_refuses_an_unknown_section(westeros: dict[str, Any]) -> None:
    with pytest.raises(ApplicationError) as exc:
        dataset.game_data_import(data={**westeros, "dragons": {}})
    assert exc.value.extra["errors"] == ["unknown section 'dragons'"]
