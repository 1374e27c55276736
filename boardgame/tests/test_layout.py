"""The schematic map drawing: every area drawn, in the viewbox, roughly where Westeros puts it."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from django.core.management import call_command

from boardgame.management.commands.build_westeros_layout import area_of, touching
from boardgame.models import Area
from boardgame.selectors import map_svg


def test_every_area_has_a_position_and_an_outline(bundle: dict[str, Any]) -> None:
    drawings = bundle["layout"]["areas"]
    assert set(drawings) == {a["id"] for a in bundle["map"]["areas"]}
    _, _, width, height = bundle["layout"]["viewbox"]
    for area_id, d in drawings.items():
        assert len(d["outline"]) >= 3, area_id
        assert abs(area_of([tuple(p) for p in d["outline"]])) > 100, area_id
        assert all(0 <= x <= width and 0 <= y <= height for x, y in d["outline"]), area_id
        assert 0 <= d["x"] <= width and 0 <= d["y"] <= height, area_id


def test_layout_follows_the_geography_of_westeros(bundle: dict[str, Any]) -> None:
    d = bundle["layout"]["areas"]
    assert d["castle_black"]["y"] < d["winterfell"]["y"] < d["kings_landing"]["y"] < d["sunspear"]["y"]
    assert d["the_shivering_sea"]["y"] < d["the_golden_sound"]["y"] < d["sea_of_dorne"]["y"]
    assert d["pyke"]["x"] < d["riverrun"]["x"] < d["kings_landing"]["x"] < d["dragonstone"]["x"]
    assert d["the_narrow_sea"]["x"] > d["the_eyrie"]["x"]


def test_every_land_and_sea_border_of_the_map_is_drawn_w_10_1(bundle: dict[str, Any]) -> None:
    areas = {a["id"]: a for a in bundle["map"]["areas"]}
    outlines = {k: [tuple(p) for p in v["outline"]] for k, v in bundle["layout"]["areas"].items()}
    missing = [
        (a, b)
        for a, b in bundle["map"]["adjacency"]
        if areas[a]["kind"] != "port"
        and areas[b]["kind"] != "port"
        and touching(outlines[a], outlines[b]) < 4
    ]
    assert missing == []


def test_ports_sit_on_the_coast_of_their_land_area(bundle: dict[str, Any]) -> None:
    d = bundle["layout"]["areas"]
    for a in bundle["map"]["areas"]:
        if a["kind"] == "port":
            land = d[a["land_area"]]["outline"]
            nearest = min(math.dist((d[a["id"]]["x"], d[a["id"]]["y"]), p) for p in land)
            assert nearest < 150, a["id"]


def test_svg_has_one_clickable_shape_per_area(bundle: dict[str, Any]) -> None:
    svg = map_svg(bundle["map"], bundle["layout"], href="/area/{id}")
    assert len(re.findall(r"<polygon id=\"area-", svg)) == 58
    assert svg.count('<a href="/area/') == 58
    assert svg.count('class="area port"') == 8 and svg.count('class="area sea"') == 12
    assert svg.count("<title>stronghold</title>") == 10 and svg.count("<title>castle</title>") == 10
    assert svg.count("<title>supply</title>") == 24 and svg.count("<title>power crown</title>") == 19


@pytest.mark.django_db
def test_layout_is_stored_on_areas_and_the_svg_command_draws_it(
    westeros: dict[str, Any], tmp_path: Any
) -> None:
    assert not Area.objects.filter(outline=[]).exists()
    pyke = Area.objects.get(slug="pyke")
    assert [pyke.x, pyke.y] == [
        westeros["layout"]["areas"]["pyke"]["x"],
        westeros["layout"]["areas"]["pyke"]["y"],
    ]
    out = tmp_path / "map.svg"
    call_command("westeros_map_svg", output=str(out))
    assert out.read_text(encoding="utf-8").count("<polygon") == 58


def test_layout_builder_reproduces_the_stored_layout(bundle: dict[str, Any]) -> None:
    from boardgame.management.commands.build_westeros_layout import build

    layout, report = build(bundle["map"])
    assert report[0].startswith("127 of 127")
    assert layout["areas"].keys() == bundle["layout"]["areas"].keys()
