"""Reads of the Westeros data: API payloads and the schematic SVG map drawn from map + layout data."""

from __future__ import annotations

from html import escape
from typing import Any

from django.db.models import Prefetch, QuerySet

from boardgame.data_format import (
    AREA_TRANSLATED,
    HOUSE_CARD_TRANSLATED,
    HOUSE_TRANSLATED,
    WESTEROS_CARD_TRANSLATED,
    WILDLING_CARD_TRANSLATED,
)
from boardgame.dataset import layout_export, map_export, setup_export
from boardgame.models import Area, House, HouseCard, Port, Setup, WesterosCard, WildlingCard
from cards.data_translations import column, localise_record, reader_language

HOUSE_COLOURS = {
    "stark": "#9aa4ad",
    "lannister": "#b3312c",
    "baratheon": "#e0b42f",
    "greyjoy": "#3d3d3d",
    "tyrell": "#3f7d3a",
    "martell": "#d9771e",
}
LAND_FILL, SEA_FILL, PORT_FILL = "#e9dfbf", "#7fa9cf", "#2f5f8f"


def westeros_map(map_data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Areas (with icons, port link and drawing), undirected adjacency and ports, for the map API.

    `map_data` is a map section in the export format (a running game's own copy, see
    `frontend.westeros_views`); by default the curated database's. The drawing (layout) is always the
    database's: it places areas on screen and takes no part in the rules.
    """
    data = map_data if map_data is not None else localise_game_data({"map": map_export()})["map"]
    layout = layout_export()
    neighbours: dict[str, list[str]] = {a["id"]: [] for a in data["areas"]}
    for a, b in data["adjacency"]:
        neighbours[a].append(b)
        neighbours[b].append(a)
    areas = []
    for a in data["areas"]:
        drawing = layout["areas"].get(a["id"], {})
        areas.append(
            {
                **a,
                "neighbours": sorted(neighbours[a["id"]]),
                "x": drawing.get("x"),
                "y": drawing.get("y"),
                "outline": drawing.get("outline", []),
            }
        )
    ports = [
        {"id": a["id"], "land_area": a["land_area"], "sea_area": a["sea_area"], "max_ships": a["max_ships"]}
        for a in data["areas"]
        if a["kind"] == "port"
    ]
    return {
        "viewbox": layout.get("viewbox", [0, 0, 1000, 1700]),
        "counts": data["counts"],
        "areas": areas,
        "adjacency": data["adjacency"],
        "ports": ports,
    }


def house_list() -> QuerySet[House]:
    """Houses in track order with their home areas."""
    return House.objects.prefetch_related(
        Prefetch("home_areas", queryset=Area.objects.only("slug", "home_house"))
    )


def house_card_list(*, house: str | None = None) -> QuerySet[HouseCard]:
    """House cards in export order, optionally of one house (by id)."""
    qs = HouseCard.objects.select_related("house").order_by("house__position", "position", "slug")
    return qs.filter(house__slug=house) if house else qs


def setup_get(*, player_count: int) -> dict[str, Any] | None:
    """The start of a game for `player_count` players: the per-count set-up plus the playing houses' values."""
    if not Setup.objects.filter(player_count=player_count).exists():
        return None
    setup = localise_game_data({"setup": setup_export()})["setup"]
    pc = setup["player_counts"][str(player_count)]
    return {
        "player_count": player_count,
        **pc,
        "houses_setup": {h: setup["houses"][h] for h in pc["houses"] if h in setup["houses"]},
        "start": setup.get("start", {}),
    }


def port_list() -> QuerySet[Port]:
    return Port.objects.select_related("area", "land_area", "sea_area")


def _points(outline: list[list[float]]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in outline)


def _icons(area: dict[str, Any], x: float, y: float) -> list[str]:
    """Castle/stronghold, supply barrel and power crown icons in a row centred under the label."""
    icons: list[str] = []
    if area["castle"] == "stronghold":
        icons.append("stronghold")
    elif area["castle"] == "castle":
        icons.append("castle")
    icons += ["supply"] * area["supply"] + ["crown"] * area["crowns"]
    out = []
    step = 18
    left = x - (len(icons) - 1) * step / 2
    for n, icon in enumerate(icons):
        cx = left + n * step
        if icon == "stronghold":
            out.append(
                f'<path class="icon stronghold" d="M{cx - 8:g},{y + 7:g} v-10 h3 v3 h2 v-6 h6 v6 h2 v-3 h3 v10 z">'
                "<title>stronghold</title></path>"
            )
        elif icon == "castle":
            out.append(
                f'<path class="icon castle" d="M{cx - 6:g},{y + 6:g} v-9 h3 v3 h6 v-3 h3 v9 z">'
                "<title>castle</title></path>"
            )
        elif icon == "supply":
            out.append(
                f'<rect class="icon supply" x="{cx - 4.5:g}" y="{y - 6:g}" width="9" height="12" rx="3">'
                "<title>supply</title></rect>"
            )
        else:
            out.append(
                f'<path class="icon crown" d="M{cx - 6:g},{y + 5:g} l-1,-10 l4,4 l3,-6 l3,6 l4,-4 l-1,10 z">'
                "<title>power crown</title></path>"
            )
    return out


def map_svg(map_data: dict[str, Any], layout: dict[str, Any], *, href: str | None = None) -> str:
    """Draw the map as a standalone SVG: every area a clickable polygon with its name and icons.

    `href` may contain `{id}` to link each area (e.g. to its admin page). Seas are blue, land parchment
    (home areas edged in the house colour), ports small dark-blue rectangles on their land's coast.
    """
    vb = layout.get("viewbox", [0, 0, 1000, 1700])
    drawings = layout.get("areas", {})
    order = {"sea": 0, "land": 1, "port": 2}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{" ".join(map(str, vb))}" '
        f'width="{vb[2]}" height="{vb[3]}" class="westeros-map" font-family="Georgia, serif">',
        "<style>"
        ".area{cursor:pointer;stroke:#4a3b22;stroke-width:1.5}"
        f".sea{{fill:{SEA_FILL};stroke:#2e5578}}.land{{fill:{LAND_FILL}}}.port{{fill:{PORT_FILL};stroke:#e9f1f8}}"
        ".area:hover{filter:brightness(1.12)}"
        ".label{font-size:13px;text-anchor:middle;fill:#2b2012;pointer-events:none;font-weight:bold;"
        "paint-order:stroke;stroke:#f6efd9;stroke-width:3px;stroke-linejoin:round}"
        ".label.sea-label{fill:#eef5fb;font-style:italic;font-size:15px;stroke:#3d6d99}"
        ".icon{pointer-events:none}.stronghold{fill:#4a3a2a}.castle{fill:#f3ead2;stroke:#4a3a2a;stroke-width:1.5}.supply{fill:#a0642c;stroke:#5b3a17}"
        ".crown{fill:#e3b826;stroke:#7a5c00}"
        "</style>",
        f'<rect x="{vb[0]}" y="{vb[1]}" width="{vb[2]}" height="{vb[3]}" fill="{SEA_FILL}"/>',
    ]
    areas = sorted(map_data["areas"], key=lambda a: order.get(a["kind"], 3))
    labels: list[str] = []
    for a in areas:
        d = drawings.get(a["id"])
        if not d or not d.get("outline"):
            continue
        style = ""
        if a.get("home_house") in HOUSE_COLOURS:
            style = f' style="stroke:{HOUSE_COLOURS[a["home_house"]]};stroke-width:5"'
        title = escape(a["name"])
        poly = (
            f'<polygon id="area-{escape(a["id"])}" class="area {a["kind"]}" data-area-id="{escape(a["id"])}" '
            f'points="{_points(d["outline"])}"{style}><title>{title}</title></polygon>'
        )
        if href:
            poly = f'<a href="{escape(href.format(id=a["id"]))}">{poly}</a>'
        parts.append(poly)
        if a["kind"] == "port":
            continue
        x, y = d["x"], d["y"]
        cls = "label sea-label" if a["kind"] == "sea" else "label"
        words = a["name"].split()
        lines = [" ".join(words)] if len(a["name"]) <= 12 or len(words) == 1 else _two_lines(words)
        for n, line in enumerate(lines):
            labels.append(
                f'<text class="{cls}" x="{x:g}" y="{y - 6 + n * 14 - (len(lines) - 1) * 7:g}">{escape(line)}</text>'
            )
        if a["kind"] == "land":
            labels += _icons(a, x, y + 8 + (len(lines) - 1) * 7 + 4)
    parts += labels
    parts.append("</svg>")
    return "\n".join(parts)


def _two_lines(words: list[str]) -> list[str]:
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


# --------------------------------------------------------------------------------------------------
# The reader's language: names and texts of a data set (a game's English copy) from the curated rows
# --------------------------------------------------------------------------------------------------

WILDLING_SIDES = {"highest_bidder": "nights_watch_victory", "lowest_bidder": "wildling_victory",
                  "everyone_else": "wildling_victory"}  # fmt: skip


def _texts(model: Any, key: tuple[str, ...], fields: dict[str, int | None], language: str) -> dict[Any, Any]:
    """{row key: {field: text in `language` or None}} of one table, read in one query."""
    columns = [column(f, language) for f in fields]
    rows = model.objects.rewrite(False).values_list(*key, *columns)
    return {
        row[: len(key)] if len(key) > 1 else row[0]: dict(zip(fields, row[len(key) :], strict=True))
        for row in rows
    }


def localise_game_data(data: dict[str, Any], *, language: str | None = None) -> dict[str, Any]:
    """A copy of (any sections of) a six-section data set with area, house and card names and texts in the
    reader's language, from the curated translations by id; each record keeps its English `name_en` and
    lists in `untranslated` the fields still shown in English. The English copy a game plays on (and
    stores) is left as it is: translations are for reading only, and a card renamed in the database
    later still reads by id. An English reader gets the same records with nothing marked."""
    language = language or reader_language()
    mark = language != "en"
    out = dict(data)

    def texts(model: Any, key: tuple[str, ...], fields: dict[str, int | None]) -> dict[Any, Any]:
        return {} if language == "en" else _texts(model, key, fields, language)

    if "map" in data:
        names = texts(Area, ("slug",), AREA_TRANSLATED)
        out["map"] = {
            **data["map"],
            "areas": [
                localise_record(a, names.get(a["id"]), tuple(AREA_TRANSLATED), mark=mark)
                for a in data["map"]["areas"]
            ],
        }
    if "setup" in data:
        names = texts(House, ("slug",), HOUSE_TRANSLATED)
        houses = {
            h: localise_record(d, names.get(h), tuple(HOUSE_TRANSLATED), mark=mark)
            for h, d in data["setup"]["houses"].items()
        }
        out["setup"] = {**data["setup"], "houses": houses}
    if "house_cards" in data:
        names = texts(HouseCard, ("slug",), HOUSE_CARD_TRANSLATED)
        cards = [
            localise_record(c, names.get(c["id"]), tuple(HOUSE_CARD_TRANSLATED), mark=mark)
            for c in data["house_cards"]["cards"]
        ]
        out["house_cards"] = {**data["house_cards"], "cards": cards}
    if "westeros_cards" in data:
        names = texts(WesterosCard, ("deck__number", "slug"), WESTEROS_CARD_TRANSLATED)
        cards = [
            localise_record(c, names.get((c["deck"], c["id"])), tuple(WESTEROS_CARD_TRANSLATED), mark=mark)
            for c in data["westeros_cards"]["cards"]
        ]
        out["westeros_cards"] = {**data["westeros_cards"], "cards": cards}
    if "wildling_cards" in data:
        names = texts(WildlingCard, ("slug",), WILDLING_CARD_TRANSLATED)
        out["wildling_cards"] = {
            **data["wildling_cards"],
            "cards": [
                _localise_wildling(c, names.get(c["id"]), mark=mark) for c in data["wildling_cards"]["cards"]
            ],
        }
    return out


def _localise_wildling(
    card: dict[str, Any], texts: dict[str, str | None] | None, *, mark: bool
) -> dict[str, Any]:
    """A wildling card, whose three texts sit in the two victory objects, in the reader's language."""
    flat = {
        "name": card["name"],
        **{who: (card.get(side) or {}).get(who) for who, side in WILDLING_SIDES.items()},
    }
    local = localise_record(flat, texts, tuple(WILDLING_CARD_TRANSLATED), mark=mark)
    out = {**card, "name": local["name"], "name_en": local["name_en"], "untranslated": local["untranslated"]}
    for who, side in WILDLING_SIDES.items():
        if who in (card.get(side) or {}):
            out[side] = {**out[side], who: local[who]}
    return out
