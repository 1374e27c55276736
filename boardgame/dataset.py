"""The Westeros data set in and out of the database: export (the engine's input), all-or-nothing import.

The format is the six-section dict of `boardgame/data/westeros/*.json` plus the optional `layout`
(`boardgame.validation` checks it). The import refuses the whole file if it has one problem, so the
database never holds half a data set; the export is what a new game copies.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db import models, transaction
from django.utils import translation
from django.utils.translation import gettext
from simple_history.utils import bulk_create_with_history

from boardgame.data_format import (
    AREA_TRANSLATED,
    GAME_SECTIONS,
    HOUSE_CARD_TRANSLATED,
    HOUSE_TRANSLATED,
    KIND_ORDER,
    WESTEROS_CARD_TRANSLATED,
    WILDLING_CARD_TRANSLATED,
)
from boardgame.models import (
    Adjacency,
    Area,
    House,
    HouseCard,
    NeutralForce,
    Port,
    SectionMeta,
    Setup,
    SetupGarrison,
    StartingUnit,
    TrackTable,
    WesterosCard,
    WesterosDeck,
    WildlingCard,
)
from boardgame.validation import game_data_errors, map_counts
from cards.data_translations import TRANSLATION_LANGUAGES, column, translations_apply, with_translations
from config.errors import ApplicationError

DATA_DIR = Path(__file__).resolve().parent / "data" / "westeros"
# The data set is English whatever language the request reads: the engine, stored games and the export
# files use the English names; the other languages travel in each record's "translations".
SOURCE_LANGUAGE = "en"


def _translated(
    record: dict[str, Any], row: models.Model, fields: dict[str, int | None], on: bool
) -> dict[str, Any]:
    """``record`` with the row's "translations" when ``on`` (the export file), unchanged for the engine."""
    return with_translations(record, row, tuple(fields)) if on else record


def _translate(row: models.Model, record: dict[str, Any], fields: dict[str, int | None]) -> models.Model:
    """The row with the record's translations set (none when the record has no "translations")."""
    translations_apply(row, record.get("translations") or {}, tuple(fields))
    return row


# --------------------------------------------------------------------------------------------------
# Export: database -> dict (the engine's input)
# --------------------------------------------------------------------------------------------------


def _meta(section: str) -> dict[str, Any]:
    row = SectionMeta.objects.filter(section=section).first()
    return dict(row.data) if row and isinstance(row.data, dict) else {}


def _areas_in_order() -> list[Area]:
    return sorted(
        Area.objects.select_related("home_house"), key=lambda a: (KIND_ORDER.get(a.kind, 9), a.slug)
    )


@translation.override(SOURCE_LANGUAGE)
def map_export(*, translations: bool = False) -> dict[str, Any]:
    ports = {p.area_id: p for p in Port.objects.select_related("area", "land_area", "sea_area")}
    port_of_land = {p.land_area_id: p.area.slug for p in ports.values()}
    areas = []
    for a in _areas_in_order():
        d: dict[str, Any] = {
            "id": a.slug,
            "name": a.name,
            "kind": a.kind,
            "castle": a.castle,
            "supply": a.supply,
            "crowns": a.crowns,
            "home_house": a.home_house.slug if a.home_house else None,
            "island": a.island,
        }
        if a.kind == Area.LAND:
            d["port"] = port_of_land.get(a.pk)
        elif a.kind == Area.PORT:
            p = ports.get(a.pk)
            d["land_area"] = p.land_area.slug if p else None
            d["sea_area"] = p.sea_area.slug if p else None
            d["max_ships"] = p.max_ships if p else None
        areas.append(_translated(d, a, AREA_TRANSLATED, translations))
    edges = sorted(sorted(pair) for pair in Adjacency.objects.values_list("area_a__slug", "area_b__slug"))
    return {**_meta("map"), "counts": map_counts(areas, len(edges)), "areas": areas, "adjacency": edges}


@translation.override(SOURCE_LANGUAGE)
def setup_export(*, translations: bool = False) -> dict[str, Any]:
    houses: dict[str, Any] = {}
    homes = {a.home_house_id: a.slug for a in Area.objects.filter(home_house__isnull=False)}
    units: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for u in StartingUnit.objects.select_related("area").order_by("position", "id"):
        units[u.house_id].append({"area": u.area.slug, "unit": u.unit, "count": u.count})
    for h in House.objects.all():
        home = homes.get(h.pk)
        houses[h.slug] = _translated(
            {
                "name": h.name,
                "home_area": home,
                "starting_units": units[h.pk],
                "garrison": {"area": home, "strength": h.garrison_strength},
                "power_tokens_available": h.power_tokens_available,
                "power_tokens_total": h.power_tokens_total,
                "supply_level": h.supply_level,
                "victory_track": h.victory_track,
                "influence_positions_6p": {
                    "iron_throne": h.influence_iron_throne,
                    "fiefdoms": h.influence_fiefdoms,
                    "kings_court": h.influence_kings_court,
                },
            },
            h,
            HOUSE_TRANSLATED,
            translations,
        )
    garrisons: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in SetupGarrison.objects.select_related("area").order_by("position", "id"):
        garrisons[g.setup_id].append({"area": g.area.slug, "strength": g.strength})
    forces: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for x in NeutralForce.objects.select_related("area").order_by("position", "id"):
        forces[x.setup_id].append({"area": x.area.slug, "strength": x.strength, "impassable": x.impassable})
    counts: dict[str, Any] = {}
    for s in Setup.objects.all():
        counts[str(s.player_count)] = {
            "houses": s.houses,
            "influence_tracks": s.influence_tracks,
            "dominance_token_holders": s.dominance_token_holders,
            "garrisons": garrisons[s.pk],
            "neutral_forces": forces[s.pk],
            "impassable_areas": s.impassable_areas,
            "kings_court_special_orders": s.kings_court_special_orders,
            **({"variant_notes": s.variant_notes} if s.variant_notes is not None else {}),
        }
    return {**_meta("setup"), "houses": houses, "player_counts": counts}


@translation.override(SOURCE_LANGUAGE)
def house_cards_export(*, translations: bool = False) -> dict[str, Any]:
    cards = [
        _translated(
            {
                "id": c.slug,
                "house": c.house.slug,
                "name": c.name,
                "strength": c.strength,
                "swords": c.swords,
                "fortifications": c.fortifications,
                "effect": c.effect or None,
                "effect_timing": c.effect_timing,
            },
            c,
            HOUSE_CARD_TRANSLATED,
            translations,
        )
        for c in HouseCard.objects.select_related("house").order_by("position", "slug")
    ]
    return {**_meta("house_cards"), "cards": cards}


@translation.override(SOURCE_LANGUAGE)
def westeros_export(*, translations: bool = False) -> dict[str, Any]:
    decks = {str(d.number): {"size": d.size} for d in WesterosDeck.objects.all()}
    cards = []
    for c in WesterosCard.objects.select_related("deck").order_by("deck__number", "position", "slug"):
        d: dict[str, Any] = {
            "deck": c.deck.number,
            "id": c.slug,
            "name": c.name,
            "count": c.count,
            "wildling_icon": c.wildling_icon,
            "effect_type": c.effect_type,
            "effect": c.effect,
            "chooser": c.chooser or None,
            "options": c.options,
        }
        if c.restricted_orders is not None:
            d["restricted_orders"] = c.restricted_orders
        cards.append(_translated(d, c, WESTEROS_CARD_TRANSLATED, translations))
    return {**_meta("westeros_cards"), "decks": decks, "cards": cards}


@translation.override(SOURCE_LANGUAGE)
def wildling_export(*, translations: bool = False) -> dict[str, Any]:
    cards = [
        _translated(
            {
                "id": c.slug,
                "name": c.name,
                "nights_watch_victory": {"highest_bidder": c.highest_bidder},
                "wildling_victory": {"lowest_bidder": c.lowest_bidder, "everyone_else": c.everyone_else},
            },
            c,
            WILDLING_CARD_TRANSLATED,
            translations,
        )
        for c in WildlingCard.objects.all()
    ]
    return {**_meta("wildling_cards"), "cards": cards}


def tracks_export() -> dict[str, Any]:
    return {**_meta("tracks"), **{t.key: t.data for t in TrackTable.objects.all()}}


@translation.override(SOURCE_LANGUAGE)
def game_data_export(*, translations: bool = False) -> dict[str, Any]:
    """The six-section data dict built from the database; the engine's `GameData.from_dict` reads it.

    A new game takes a copy of this dict, so an admin's edit changes the next game, never a running one.
    English always; `translations` adds each record's "translations" (the export file, not a game's copy).
    """
    return {
        "map": map_export(translations=translations),
        "setup": setup_export(translations=translations),
        "house_cards": house_cards_export(translations=translations),
        "westeros_cards": westeros_export(translations=translations),
        "wildling_cards": wildling_export(translations=translations),
        "tracks": tracks_export(),
    }


def layout_export() -> dict[str, Any]:
    """The map drawing section: viewbox and notes, then {area id: {x, y, outline}} in map order."""
    areas = {a.slug: {"x": a.x, "y": a.y, "outline": a.outline} for a in _areas_in_order()}
    return {**_meta("layout"), "areas": areas}


def westeros_export_all() -> dict[str, Any]:
    """The export file of `export_westeros`: the six sections with their translations, plus `layout`."""
    return {**game_data_export(translations=True), "layout": layout_export()}


def dataset_errors() -> list[str]:
    """Whole-data-set check of what the database holds now (the admin's "check data" page)."""
    return game_data_errors(game_data_export(translations=True), layout=layout_export())


# --------------------------------------------------------------------------------------------------
# Import: dict -> database, all or nothing
# --------------------------------------------------------------------------------------------------


def bundled_data(directory: Path = DATA_DIR) -> dict[str, Any]:
    """The six bundled JSON files, plus layout.json when present, as one export-format dict."""
    data: dict[str, Any] = {}
    for section in (*GAME_SECTIONS, "layout"):
        path = directory / f"{section}.json"
        if path.exists():
            data[section] = json.loads(path.read_text(encoding="utf-8"))
    return data


@transaction.atomic
def game_data_import(*, data: dict[str, Any]) -> dict[str, int]:
    """Replace the whole Westeros data set with `data` (six sections, optional `layout`); returns row counts.

    Nothing is written unless the data has no error at all; the ApplicationError lists every error. The
    errors and the summary are worded in the caller's language (the staff member's, or English for the
    management commands); the rows are written with English active (`_import_rows`).
    """
    layout = data.get("layout") if isinstance(data, dict) else None
    errors = game_data_errors(data, layout=layout)
    if isinstance(data, dict):
        unknown = sorted(set(data) - set(GAME_SECTIONS) - {"layout"})
        errors += [gettext("unknown section %(section)s") % {"section": repr(s)} for s in unknown]
    if errors:
        raise ApplicationError(
            "invalid_westeros_data",
            gettext("The Westeros data has %(count)s error(s); nothing was imported.")
            % {"count": len(errors)},
            extra={"errors": errors},
        )
    return _import_rows(data, layout)


@translation.override(SOURCE_LANGUAGE)
def _import_rows(data: dict[str, Any], layout: Any) -> dict[str, int]:
    """Write a checked data set. English is active: the translated models' own columns (`name`) take the
    file's English text, and every other language comes from the records' "translations"."""
    _wipe()
    m, s, hc, w, wl, t = (data[k] for k in GAME_SECTIONS)
    _set_meta("map", m, ("counts", "areas", "adjacency"))
    _set_meta("setup", s, ("houses", "player_counts"))
    _set_meta("house_cards", hc, ("cards",))
    _set_meta("westeros_cards", w, ("decks", "cards"))
    _set_meta("wildling_cards", wl, ("cards",))
    _set_meta("tracks", t, TrackTable.KEYS)
    if layout is not None:
        _set_meta("layout", layout, ("areas",))

    houses = {}
    for n, (slug, h) in enumerate(s["houses"].items()):
        pos = h["influence_positions_6p"]
        houses[slug] = _translate(
            House(
                slug=slug,
                name=h["name"],
                position=n,
                power_tokens_available=h["power_tokens_available"],
                power_tokens_total=h["power_tokens_total"],
                supply_level=h["supply_level"],
                victory_track=h["victory_track"],
                garrison_strength=h["garrison"]["strength"],
                influence_iron_throne=pos["iron_throne"],
                influence_fiefdoms=pos["fiefdoms"],
                influence_kings_court=pos["kings_court"],
            ),
            h,
            HOUSE_TRANSLATED,
        )
    bulk_create_with_history(list(houses.values()), House)
    houses = {h.slug: h for h in House.objects.all()}

    drawings = (layout or {}).get("areas", {})
    bulk_create_with_history(
        [
            _translate(
                Area(
                    slug=a["id"],
                    name=a["name"],
                    kind=a["kind"],
                    castle=a["castle"],
                    supply=a["supply"],
                    crowns=a["crowns"],
                    home_house=houses.get(a["home_house"]) if a["home_house"] else None,
                    island=a["island"],
                    x=drawings.get(a["id"], {}).get("x", 0),
                    y=drawings.get(a["id"], {}).get("y", 0),
                    outline=drawings.get(a["id"], {}).get("outline", []),
                ),
                a,
                AREA_TRANSLATED,
            )
            for a in m["areas"]
        ],
        Area,
    )
    areas = {a.slug: a for a in Area.objects.all()}
    edges = []
    for x, y in m["adjacency"]:
        a, b = sorted((areas[x], areas[y]), key=lambda area: area.pk)
        edges.append(Adjacency(area_a=a, area_b=b))
    bulk_create_with_history(edges, Adjacency)
    bulk_create_with_history(
        [
            Port(
                area=areas[a["id"]],
                land_area=areas[a["land_area"]],
                sea_area=areas[a["sea_area"]],
                max_ships=a["max_ships"],
            )
            for a in m["areas"]
            if a["kind"] == "port"
        ],
        Port,
    )
    bulk_create_with_history(
        [
            StartingUnit(
                house=houses[slug], area=areas[u["area"]], unit=u["unit"], count=u["count"], position=n
            )
            for slug, h in s["houses"].items()
            for n, u in enumerate(h["starting_units"])
        ],
        StartingUnit,
    )
    for key, pc in s["player_counts"].items():
        setup = Setup.objects.create(
            player_count=int(key),
            houses=pc["houses"],
            influence_tracks=pc["influence_tracks"],
            dominance_token_holders=pc["dominance_token_holders"],
            impassable_areas=pc["impassable_areas"],
            kings_court_special_orders=pc["kings_court_special_orders"],
            variant_notes=pc.get("variant_notes"),
        )
        bulk_create_with_history(
            [
                SetupGarrison(setup=setup, area=areas[g["area"]], strength=g["strength"], position=n)
                for n, g in enumerate(pc["garrisons"])
            ],
            SetupGarrison,
        )
        bulk_create_with_history(
            [
                NeutralForce(
                    setup=setup,
                    area=areas[x["area"]],
                    strength=x["strength"],
                    impassable=x["impassable"],
                    position=n,
                )
                for n, x in enumerate(pc["neutral_forces"])
            ],
            NeutralForce,
        )
    bulk_create_with_history(
        [
            _translate(
                HouseCard(
                    slug=c["id"],
                    house=houses[c["house"]],
                    name=c["name"],
                    strength=c["strength"],
                    swords=c["swords"],
                    fortifications=c["fortifications"],
                    effect=c["effect"] or "",
                    effect_timing=c["effect_timing"],
                    position=n,
                ),
                c,
                HOUSE_CARD_TRANSLATED,
            )
            for n, c in enumerate(hc["cards"])
        ],
        HouseCard,
    )
    decks = {
        int(k): WesterosDeck.objects.create(number=int(k), size=d["size"]) for k, d in w["decks"].items()
    }
    bulk_create_with_history(
        [
            _translate(
                WesterosCard(
                    deck=decks[c["deck"]],
                    slug=c["id"],
                    name=c["name"],
                    count=c["count"],
                    wildling_icon=c["wildling_icon"],
                    effect_type=c["effect_type"],
                    effect=c["effect"],
                    chooser=c["chooser"] or "",
                    options=c["options"],
                    restricted_orders=c.get("restricted_orders"),
                    position=n,
                ),
                c,
                WESTEROS_CARD_TRANSLATED,
            )
            for n, c in enumerate(w["cards"])
        ],
        WesterosCard,
    )
    bulk_create_with_history(
        [
            _translate(
                WildlingCard(
                    slug=c["id"],
                    name=c["name"],
                    highest_bidder=c["nights_watch_victory"]["highest_bidder"],
                    lowest_bidder=c["wildling_victory"]["lowest_bidder"],
                    everyone_else=c["wildling_victory"]["everyone_else"],
                    position=n,
                ),
                c,
                WILDLING_CARD_TRANSLATED,
            )
            for n, c in enumerate(wl["cards"])
        ],
        WildlingCard,
    )
    bulk_create_with_history(
        [
            TrackTable(key=k, data=t[k], position=n)
            for n, k in enumerate(k for k in t if k in TrackTable.KEYS)
        ],
        TrackTable,
    )
    return {
        "areas": len(areas),
        "adjacency": len(edges),
        "houses": len(houses),
        "house_cards": len(hc["cards"]),
        "westeros_cards": len(w["cards"]),
        "wildling_cards": len(wl["cards"]),
        "setups": len(s["player_counts"]),
    }


def _set_meta(section: str, data: dict[str, Any], drop: Iterable[str]) -> None:
    skip = set(drop)
    SectionMeta.objects.update_or_create(
        section=section, defaults={"data": {k: v for k, v in data.items() if k not in skip}}
    )


def _wipe() -> None:
    """Delete every Westeros row (children first, so PROTECT never blocks)."""
    for model in (
        StartingUnit,
        SetupGarrison,
        NeutralForce,
        Setup,
        HouseCard,
        WesterosCard,
        WesterosDeck,
        WildlingCard,
        TrackTable,
        Port,
        Adjacency,
    ):
        model.objects.all().delete()
    Area.objects.all().delete()
    House.objects.all().delete()
    SectionMeta.objects.all().delete()


def westeros_data_loaded() -> bool:
    """Whether the database holds a Westeros data set."""
    return Area.objects.exists()


def _translated_rows(data: dict[str, Any]) -> Iterable[tuple[Any, dict[str, Any], dict[str, int | None]]]:
    """(row, its record in `data`, the translated fields) for every record of `data` the database holds."""
    sections: list[tuple[Any, list[dict[str, Any]], dict[str, int | None]]] = [
        (Area.objects.all(), (data.get("map") or {}).get("areas") or [], AREA_TRANSLATED),
        (HouseCard.objects.all(), (data.get("house_cards") or {}).get("cards") or [], HOUSE_CARD_TRANSLATED),
        (
            WildlingCard.objects.all(),
            (data.get("wildling_cards") or {}).get("cards") or [],
            WILDLING_CARD_TRANSLATED,
        ),
    ]
    for rows, records, fields in sections:
        by_id = {str(r.get("id")): r for r in records if isinstance(r, dict)}
        for row in rows:
            if row.slug in by_id:
                yield row, by_id[row.slug], fields
    houses = (data.get("setup") or {}).get("houses") or {}
    for house in House.objects.all():
        if isinstance(houses.get(house.slug), dict):
            yield house, houses[house.slug], HOUSE_TRANSLATED
    cards = {
        (str(r.get("deck")), str(r.get("id"))): r
        for r in (data.get("westeros_cards") or {}).get("cards") or []
        if isinstance(r, dict)
    }
    for card in WesterosCard.objects.select_related("deck"):
        record = cards.get((str(card.deck.number), card.slug))
        if record is not None:
            yield card, record, WESTEROS_CARD_TRANSLATED


@transaction.atomic
@translation.override(SOURCE_LANGUAGE)
def westeros_translations_fill(data: dict[str, Any]) -> int:
    """Give the database the translations it lacks from `data` (the bundled files): a translated column that
    is empty takes the file's text for the same record (by id); a translation already there (a curator's)
    and every English field and number stay as they are. Answers the number of columns filled."""
    filled = 0
    for row, record, fields in _translated_rows(data):
        texts = record.get("translations") or {}
        changed = []
        for language in TRANSLATION_LANGUAGES:
            for field in fields:
                name = column(field, language)
                text = (texts.get(language) or {}).get(field)
                if isinstance(text, str) and text.strip() and not getattr(row, name, None):
                    setattr(row, name, text)
                    changed.append(name)
        if changed:
            row.save()  # through the model (its checks, the history, the name caches' signals)
            filled += len(changed)
    return filled


def westeros_load_bundled(*, force: bool = False, directory: Path = DATA_DIR) -> str:
    """Load the bundled files unless data is already there (then only with force); says what it did.

    Data already there and different (a curator's edits, or files newer than the database) is kept, but the
    translations it lacks are filled in from the files (`westeros_translations_fill`): "translated"."""
    data = bundled_data(directory)
    if westeros_data_loaded():
        current = westeros_export_all()
        if current == data:
            return "unchanged"
        if not force:
            return "translated" if westeros_translations_fill(data) else "kept"
    game_data_import(data=data)
    return "loaded"
