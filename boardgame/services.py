"""Westeros data services: whole-data-set validation, export for the engine, all-or-nothing import, edits.

The data format is the six-section dict of `boardgame/data/westeros/*.json` (`map`, `setup`,
`house_cards`, `westeros_cards`, `wildling_cards`, `tracks`), plus an optional `layout` section (the
schematic map drawing). `game_data_errors` checks such a dict and returns every problem it finds;
the import refuses the whole file if there is one, so the database never holds half a data set.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Q
from simple_history.utils import bulk_create_with_history

from boardgame.models import (
    DOMINANCE_TOKENS,
    INFLUENCE_TRACKS,
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
    outline_problem,
)
from config.errors import ApplicationError

DATA_DIR = Path(__file__).resolve().parent / "data" / "westeros"
GAME_SECTIONS = ("map", "setup", "house_cards", "westeros_cards", "wildling_cards", "tracks")
ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,59}$")  # snake_case, at most 60 characters (slug fields)
KIND_ORDER = {"land": 0, "sea": 1, "port": 2}
UNIT_DOMAINS = {"footman": ("land",), "knight": ("land",), "siege_engine": ("land",), "ship": ("sea", "port")}
HOUSE_CARD_STRENGTHS = [0, 1, 1, 2, 2, 3, 4]  # W-17.1, sorted
TRACK_TO_TOKEN = dict(zip(INFLUENCE_TRACKS, DOMINANCE_TOKENS, strict=True))  # W-1.9
EFFECT_TYPES = {t for t, _ in WesterosCard.EFFECT_TYPES}
UNIT_CHOICES = {u for u, _ in StartingUnit.UNITS}

AREA_KEYS = {"id", "name", "kind", "castle", "supply", "crowns", "home_house", "island"}
HOUSE_KEYS = {
    "name",
    "home_area",
    "starting_units",
    "garrison",
    "power_tokens_available",
    "power_tokens_total",
    "supply_level",
    "victory_track",
    "influence_positions_6p",
}
PLAYER_COUNT_KEYS = {
    "houses",
    "influence_tracks",
    "dominance_token_holders",
    "garrisons",
    "neutral_forces",
    "impassable_areas",
    "kings_court_special_orders",
}
HOUSE_CARD_KEYS = {"id", "house", "name", "strength", "swords", "fortifications", "effect", "effect_timing"}
WILDLING_CARD_KEYS = {"id", "name", "nights_watch_victory", "wildling_victory"}
WESTEROS_CARD_KEYS = {
    "deck",
    "id",
    "name",
    "count",
    "wildling_icon",
    "effect_type",
    "effect",
    "chooser",
    "options",
}


# --------------------------------------------------------------------------------------------------
# Validation of the dict format (pure functions; every problem is reported, none raises)
# --------------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_nat(value: Any) -> bool:
    return _is_int(value) and value >= 0


def _keys_problem(obj: Any, required: set[str], optional: Iterable[str], where: str) -> str | None:
    """Why `obj` is not a dict with exactly these keys, or None."""
    if not isinstance(obj, dict):
        return f"{where}: expected an object"
    missing = sorted(required - set(obj))
    unknown = sorted(set(obj) - required - set(optional))
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if unknown:
        parts.append(f"unknown field(s) {', '.join(unknown)}")
    return f"{where}: {'; '.join(parts)}" if parts else None


def _entry_id(
    entry: Any,
    required: set[str],
    optional: Iterable[str],
    *,
    section: str,
    noun: str,
    n: int,
    errors: list[str],
) -> str | None:
    """The snake_case id of entry #n of a section's list, or None with the reason added to `errors` (wrong
    keys or a malformed id)."""
    problem = _keys_problem(entry, required, optional, f"{section}: {noun} #{n + 1}")
    if problem:
        errors.append(problem)
        return None
    i = entry["id"]
    if not isinstance(i, str) or not ID_RE.match(i):
        errors.append(f"{section}: {noun} id {i!r} is not a snake_case id (at most 60 characters)")
        return None
    return i


def map_errors(m: Any) -> tuple[list[str], dict[str, dict], dict[str, set[str]]]:
    """Check the map section (W-1.2, W-10): areas, icons, symmetric loop-free adjacency, ports, islands.

    Returns (errors, areas by id, neighbours by id) so later sections can check references.
    """
    errors: list[str] = []
    areas: dict[str, dict] = {}
    adj: dict[str, set[str]] = defaultdict(set)
    if (
        not isinstance(m, dict)
        or not isinstance(m.get("areas"), list)
        or not isinstance(m.get("adjacency"), list)
    ):
        return ["map: expected an object with an 'areas' list and an 'adjacency' list"], areas, adj
    for n, a in enumerate(m["areas"]):
        kind = a.get("kind") if isinstance(a, dict) else None
        extra = {"land": ["port"], "port": ["land_area", "sea_area", "max_ships"]}.get(kind or "", [])
        required = AREA_KEYS | ({"land_area", "sea_area", "max_ships"} if kind == "port" else set())
        i = _entry_id(a, required, extra, section="map", noun="area", n=n, errors=errors)
        if i is None:
            continue
        if i in areas:
            errors.append(f"map: area id {i} is listed twice")
            continue
        areas[i] = a
        if kind not in KIND_ORDER:
            errors.append(f"map: {i}: kind must be land, sea or port")
        if a["castle"] not in ("none", "castle", "stronghold"):
            errors.append(f"map: {i}: castle must be none, castle or stronghold")
        if not (_is_nat(a["supply"]) and _is_nat(a["crowns"])):
            errors.append(f"map: {i}: supply and crowns are non-negative integers")
        if not isinstance(a["island"], bool):
            errors.append(f"map: {i}: island is true or false")
        if not isinstance(a["name"], str) or not 0 < len(a["name"]) <= 80:
            errors.append(f"map: {i}: name is a text of 1 to 80 characters")
        if kind != "land" and (
            a["castle"] != "none" or a["supply"] or a["crowns"] or a["home_house"] or a["island"]
        ):
            errors.append(
                f"map: {i}: sea areas and ports carry no castle, icons, home house or island flag (W-1.2)"
            )
        if a["home_house"] is not None and a["castle"] != "stronghold":
            errors.append(f"map: {i}: a home area is a stronghold (W-1.2)")
    names = Counter(a["name"] for a in areas.values() if isinstance(a.get("name"), str))
    errors += [f"map: area name {name!r} is used twice" for name, c in names.items() if c > 1]
    homes = Counter(a["home_house"] for a in areas.values() if a["home_house"] is not None)
    errors += [
        f"map: house {h} has {c} home areas; a house has exactly one (W-1.2)"
        for h, c in homes.items()
        if c > 1
    ]

    seen: set[frozenset[str]] = set()
    for pair in m["adjacency"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            errors.append(f"map: adjacency entry {pair!r} is not a pair of area ids")
            continue
        a_id, b_id = pair
        unknown = [x for x in pair if x not in areas]
        if unknown:
            errors.append(f"map: edge {pair} names unknown area(s) {', '.join(unknown)}")
            continue
        if a_id == b_id:
            errors.append(f"map: edge {pair} is a self loop; an area is never adjacent to itself (W-10.1)")
            continue
        key = frozenset(pair)
        if key in seen:
            errors.append(
                f"map: edge {pair} is listed twice; adjacency is symmetric and each edge is listed once"
            )
            continue
        seen.add(key)
        adj[a_id].add(b_id)
        adj[b_id].add(a_id)
    for i in areas:
        if not adj[i]:
            errors.append(f"map: {i} has no neighbour")
    if areas:
        start = next(iter(areas))
        reached, stack = {start}, [start]
        while stack:
            for nb in adj[stack.pop()]:
                if nb not in reached:
                    reached.add(nb)
                    stack.append(nb)
        if len(reached) != len(areas):
            cut = sorted(set(areas) - reached)
            errors.append(f"map: the map is not connected; cut off: {', '.join(cut[:8])}")

    for i, a in areas.items():
        kind = a["kind"]
        if kind == "land":
            land_nbs = [n for n in adj[i] if areas[n]["kind"] == "land"]
            if a["island"] != (not land_nbs):
                errors.append(
                    f"map: {i}: island must be {not land_nbs} (an island touches no other land area, W-10.2)"
                )
            ports = sorted(n for n in adj[i] if areas[n]["kind"] == "port")
            if len(ports) > 1:
                errors.append(f"map: {i} borders {len(ports)} ports; a land area has at most one")
            if a.get("port") != (ports[0] if ports else None):
                errors.append(
                    f"map: {i}: port field {a.get('port')!r} does not match its adjacent port {ports or None}"
                )
        elif kind == "port":
            land, sea, max_ships = a["land_area"], a["sea_area"], a["max_ships"]
            if land not in areas or areas[land]["kind"] != "land":
                errors.append(f"map: port {i}: land_area {land!r} is not a land area (W-1.2)")
                continue
            if sea not in areas or areas[sea]["kind"] != "sea":
                errors.append(f"map: port {i}: sea_area {sea!r} is not a sea area (W-1.2)")
                continue
            if areas[land]["castle"] not in ("castle", "stronghold"):
                errors.append(f"map: port {i}: its land area {land} has no castle or stronghold (W-1.2)")
            if sea not in adj[land]:
                errors.append(f"map: port {i}: its sea {sea} is not adjacent to its land area {land} (W-1.2)")
            if adj[i] != {land, sea}:
                errors.append(
                    f"map: port {i} must border exactly its land {land} and its sea {sea}, "
                    f"not {', '.join(sorted(adj[i])) or 'nothing'} (W-10.4)"
                )
            if not (_is_int(max_ships) and max_ships >= 1):
                errors.append(f"map: port {i}: max_ships is a positive integer")

    counts = m.get("counts")
    if counts is not None:
        computed = map_counts(list(areas.values()), len(seen))
        if counts != computed:
            diff = sorted(k for k in set(counts) | set(computed) if counts.get(k) != computed.get(k))
            errors.append(
                f"map: counts disagree with the areas and edges for {', '.join(diff)} (expected {computed})"
            )
    return errors, areas, adj


def map_counts(areas: list[dict], edges: int) -> dict[str, int]:
    """The derived totals of a map (the `counts` object of map.json)."""
    kinds = Counter(a["kind"] for a in areas)
    return {
        "areas": len(areas),
        "land": kinds["land"],
        "sea": kinds["sea"],
        "port": kinds["port"],
        "strongholds": sum(a["castle"] == "stronghold" for a in areas),
        "castles": sum(a["castle"] == "castle" for a in areas),
        "islands": sum(bool(a["island"]) for a in areas),
        "adjacency_edges": edges,
        "supply_icons_total": sum(a["supply"] for a in areas),
        "crown_icons_total": sum(a["crowns"] for a in areas),
    }


def track_table_errors(key: str, data: Any) -> list[str]:
    """Check one table of the tracks section (W-1.6, W-1.10, W-12, W-13, W-16, W-18)."""
    errors: list[str] = []
    try:
        if key == "supply_track":
            levels = data["levels"]
            if [lv["level"] for lv in levels] != list(range(len(levels))) or not levels:
                errors.append("supply_track: levels are numbered 0, 1, 2... without gaps (W-12)")
            prev: list[int] | None = None
            for lv in levels:
                arm = lv["armies"]
                if not (isinstance(arm, list) and all(_is_int(x) and x >= 2 for x in arm)):
                    errors.append(f"supply_track: level {lv['level']}: armies are sizes of at least 2")
                    continue
                if arm != sorted(arm, reverse=True):
                    errors.append(f"supply_track: level {lv['level']}: list the largest army first")
                if prev is not None and not (len(arm) >= len(prev) and sum(arm) >= sum(prev)):
                    errors.append(
                        f"supply_track: level {lv['level']} allows less than the level below (W-12)"
                    )
                prev = arm
        elif key == "order_tokens":
            tokens = data["tokens"]
            ids = [t["id"] for t in tokens]
            if len(set(ids)) != len(ids):
                errors.append("order_tokens: token ids must be unique")
            for t in tokens:
                if t["type"] not in ("march", "defense", "support", "raid", "consolidate_power"):
                    errors.append(f"order_tokens: {t['id']}: unknown type {t['type']!r}")
                if not (_is_int(t["count"]) and t["count"] >= 1) or not isinstance(t["special"], bool):
                    errors.append(f"order_tokens: {t['id']}: count is a positive integer, special true/false")
                if not (t["strength_modifier"] is None or _is_int(t["strength_modifier"])):
                    errors.append(f"order_tokens: {t['id']}: strength_modifier is an integer or null")
            if sum(t["count"] for t in tokens) != 15:
                errors.append("order_tokens: a house owns 15 order tokens (W-1.6)")
            special = {t["id"] for t in tokens if t["special"]}
            if set(data.get("special_effects", {})) != special:
                errors.append(
                    "order_tokens: special_effects must describe every special order and nothing else"
                )
        elif key == "special_orders_by_kings_court":
            for n in ("3", "4", "5", "6"):
                row = data[n]
                if not (isinstance(row, list) and len(row) == int(n) and all(_is_nat(x) for x in row)):
                    errors.append(f"special_orders_by_kings_court: {n} players need {n} non-negative numbers")
                elif row != sorted(row, reverse=True):
                    errors.append(
                        f"special_orders_by_kings_court: {n} players: numbers never rise down the track"
                    )
        elif key == "unit_types":
            unit_ids = {u["id"] for u in data}
            if unit_ids != set(UNIT_DOMAINS):
                errors.append(f"unit_types: the unit types are {', '.join(sorted(UNIT_DOMAINS))} (W-1.3)")
            for u in data:
                if not (_is_nat(u["combat_strength"]) and _is_nat(u["muster_cost"])):
                    errors.append(
                        f"unit_types: {u['id']}: strength and muster cost are non-negative integers"
                    )
        elif key == "unit_limits_per_house":
            if set(data) != set(UNIT_DOMAINS) or not all(_is_nat(v) for v in data.values()):
                errors.append("unit_limits_per_house: one non-negative limit per unit type (W-1.3)")
        elif key == "mustering_points":
            if set(data) != {"stronghold", "castle", "none"} or not all(_is_nat(v) for v in data.values()):
                errors.append("mustering_points: points for stronghold, castle and none (W-13)")
        elif key == "power_tokens":
            if not (_is_nat(data["per_house"]) and _is_nat(data["available_at_start"])):
                errors.append("power_tokens: per_house and available_at_start are non-negative integers")
            elif data["available_at_start"] > data["per_house"]:
                errors.append("power_tokens: a house cannot start with more power than it owns (W-1.7)")
        elif key == "influence_tracks":
            if [t["id"] for t in data] != list(INFLUENCE_TRACKS):
                errors.append("influence_tracks: iron_throne, fiefdoms, kings_court in this order (W-1.8)")
            if [t["dominance_token"] for t in data] != list(DOMINANCE_TOKENS):
                errors.append(
                    "influence_tracks: dominance tokens iron_throne, valyrian_steel_blade, messenger_raven"
                )
        elif key == "wildling_track":
            pos = data["positions"]
            if not (isinstance(pos, list) and pos == sorted(pos) and all(_is_nat(p) for p in pos)):
                errors.append("wildling_track: positions are rising non-negative integers")
            elif data["start"] not in pos or data["attack_at"] != pos[-1]:
                errors.append("wildling_track: start is a position and attack_at is the last one (W-16)")
        elif key == "rounds":
            if not (_is_int(data["max"]) and data["max"] >= 1):
                errors.append("rounds: max is a positive integer")
        elif key == "victory":
            if not (_is_int(data["castles_to_win"]) and data["castles_to_win"] >= 1):
                errors.append("victory: castles_to_win is a positive integer (W-18)")
        else:
            errors.append(f"unknown track table {key!r}; known: {', '.join(TrackTable.KEYS)}")
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        errors.append(f"{key}: malformed table ({type(exc).__name__}: {exc})")
    return errors


def tracks_errors(t: Any) -> tuple[list[str], dict[str, Any]]:
    """Check the tracks section; returns (errors, the tables that passed, by key)."""
    if not isinstance(t, dict):
        return ["tracks: expected an object"], {}
    errors: list[str] = []
    good: dict[str, Any] = {}
    for key in TrackTable.KEYS:
        if key not in t:
            errors.append(f"tracks: missing table {key}")
            continue
        table_errors = track_table_errors(key, t[key])
        errors += [f"tracks: {e}" for e in table_errors]
        if not table_errors:
            good[key] = t[key]
    return errors, good


def setup_field_errors(
    *, player_count: Any, data: dict[str, Any], house_ids: set[str], area_ids: set[str]
) -> dict[str, list[str]]:
    """Check the JSON fields of one player-count set-up (W-2.3, W-2.4); {field: [messages]}."""
    errors: dict[str, list[str]] = defaultdict(list)
    houses = data.get("houses")
    n = player_count if _is_int(player_count) else None
    if not (isinstance(houses, list) and all(isinstance(h, str) for h in houses)):
        errors["houses"].append("houses is a list of house ids")
        houses = []
    else:
        unknown = [h for h in houses if h not in house_ids]
        if unknown:
            errors["houses"].append(f"unknown house(s): {', '.join(unknown)}")
        if len(set(houses)) != len(houses):
            errors["houses"].append("a house is listed twice")
        if n is not None and len(houses) != n:
            errors["houses"].append(f"a {n}-player game has {n} houses, not {len(houses)} (W-1.1)")
    tracks = data.get("influence_tracks")
    if not isinstance(tracks, dict) or set(tracks) != set(INFLUENCE_TRACKS):
        errors["influence_tracks"].append(
            "influence_tracks has exactly the iron_throne, fiefdoms and kings_court lists"
        )
    else:
        for track, order in tracks.items():
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(houses):
                errors["influence_tracks"].append(
                    f"{track}: must list each house in play exactly once (W-2.3)"
                )
    holders = data.get("dominance_token_holders")
    if not isinstance(holders, dict) or set(holders) != set(DOMINANCE_TOKENS):
        errors["dominance_token_holders"].append(
            "dominance_token_holders names the iron_throne, valyrian_steel_blade and messenger_raven holders"
        )
    elif isinstance(tracks, dict) and not errors["influence_tracks"]:
        for track, token in TRACK_TO_TOKEN.items():
            top = tracks[track][0] if tracks[track] else None
            if holders[token] != top:
                errors["dominance_token_holders"].append(
                    f"{token} belongs to position 1 of {track} ({top}), not {holders[token]} (W-1.9)"
                )
    impassable = data.get("impassable_areas")
    if not (isinstance(impassable, list) and all(isinstance(a, str) for a in impassable)):
        errors["impassable_areas"].append("impassable_areas is a list of area ids")
    else:
        unknown = [a for a in impassable if a not in area_ids]
        if unknown:
            errors["impassable_areas"].append(f"unknown area(s): {', '.join(unknown)}")
    stars = data.get("kings_court_special_orders")
    if not (isinstance(stars, list) and all(_is_nat(s) for s in stars)):
        errors["kings_court_special_orders"].append(
            "kings_court_special_orders is a list of non-negative integers"
        )
    elif n is not None and len(stars) != n:
        errors["kings_court_special_orders"].append(
            f"one entry per King's Court position: {n} expected (W-5)"
        )
    return {k: v for k, v in errors.items() if v}


def setup_errors(s: Any, areas: dict[str, dict], tracks: dict[str, Any]) -> list[str]:
    """Check the setup section (W-2): houses' start values and units, and each player count's set-up."""
    if (
        not isinstance(s, dict)
        or not isinstance(s.get("houses"), dict)
        or not isinstance(s.get("player_counts"), dict)
    ):
        return ["setup: expected an object with 'houses' and 'player_counts' objects"]
    errors: list[str] = []
    unit_owner: dict[str, str] = {}
    homes = {a["home_house"]: i for i, a in areas.items() if a.get("home_house")}
    for h, a_id in homes.items():
        if h not in s["houses"]:
            errors.append(f"map: {a_id} is the home of unknown house {h}")
    limits = tracks.get("unit_limits_per_house", {})
    for h, d in s["houses"].items():
        if not ID_RE.match(h) or len(h) > 40:
            errors.append(f"setup: house id {h!r} is not a snake_case id (at most 40 characters)")
        problem = _keys_problem(d, HOUSE_KEYS, (), f"setup: house {h}")
        if problem:
            errors.append(problem)
            continue
        if not (isinstance(d["name"], str) and 0 < len(d["name"]) <= 60):
            errors.append(f"setup: {h}: name is a text of 1 to 60 characters")
        home = d["home_area"]
        if homes.get(h) != home:
            errors.append(
                f"setup: {h}: home_area {home!r} is not the area the map marks as its home ({homes.get(h)})"
            )
        g = d["garrison"]
        if not (
            isinstance(g, dict)
            and set(g) == {"area", "strength"}
            and g["area"] == home
            and _is_nat(g["strength"])
        ):
            errors.append(f"setup: {h}: the garrison stands in the home area {home} with a strength (W-2.4)")
        for f in ("power_tokens_available", "power_tokens_total", "supply_level", "victory_track"):
            if not _is_nat(d[f]):
                errors.append(f"setup: {h}: {f} is a non-negative integer")
        if _is_nat(d["power_tokens_available"]) and _is_nat(d["power_tokens_total"]):
            if d["power_tokens_available"] > d["power_tokens_total"]:
                errors.append(f"setup: {h}: more available power than owned (W-1.7)")
        pos = d["influence_positions_6p"]
        if (
            not isinstance(pos, dict)
            or set(pos) != set(INFLUENCE_TRACKS)
            or not all(_is_int(v) and v >= 1 for v in pos.values())
        ):
            errors.append(
                f"setup: {h}: influence_positions_6p gives a position (1 = top) on each of the three tracks"
            )
        per_type: Counter[str] = Counter()
        per_area: Counter[str] = Counter()
        if not isinstance(d["starting_units"], list):
            errors.append(f"setup: {h}: starting_units is a list")
            continue
        for u in d["starting_units"]:
            problem = _keys_problem(u, {"area", "unit", "count"}, (), f"setup: {h}: starting unit")
            if problem:
                errors.append(problem)
                continue
            a = u["area"]
            if a not in areas:
                errors.append(f"setup: {h}: starting unit in unknown area {a!r}")
                continue
            if u["unit"] not in UNIT_DOMAINS:
                errors.append(f"setup: {h}: unknown unit type {u['unit']!r}")
                continue
            if areas[a]["kind"] not in UNIT_DOMAINS[u["unit"]]:
                errors.append(f"setup: {h}: a {u['unit']} cannot stand in {a} ({areas[a]['kind']}) (W-1.3)")
            if not (_is_int(u["count"]) and u["count"] >= 1):
                errors.append(f"setup: {h}: unit count in {a} is a positive integer")
                continue
            if unit_owner.setdefault(a, h) != h:
                errors.append(f"setup: {a}: starting units of {unit_owner[a]} and {h}; one house per area")
            per_type[u["unit"]] += u["count"]
            per_area[a] += u["count"]
        for unit, count in per_type.items():
            if _is_int(limits.get(unit)) and count > limits[unit]:
                errors.append(f"setup: {h}: {count} {unit}s exceed the limit of {limits[unit]} (W-1.3)")
        errors += _start_consistency_errors(h, d, per_area, areas, tracks)
    house_names = Counter(d.get("name") for d in s["houses"].values() if isinstance(d, dict))
    errors += [f"setup: house name {n!r} is used twice" for n, c in house_names.items() if c > 1 and n]
    for track in INFLUENCE_TRACKS:
        positions = sorted(
            d["influence_positions_6p"].get(track, 0)
            for d in s["houses"].values()
            if isinstance(d, dict) and isinstance(d.get("influence_positions_6p"), dict)
        )
        if positions != list(range(1, len(s["houses"]) + 1)):
            errors.append(
                f"setup: {track}: the houses' 6-player positions must be 1..{len(s['houses'])} once each"
            )

    for key, pc in sorted(s["player_counts"].items()):
        where = f"setup: {key} players"
        if not (key.isdigit() and 3 <= int(key) <= 6):
            errors.append(f"{where}: player counts are 3 to 6 (W-1.1)")
            continue
        problem = _keys_problem(pc, PLAYER_COUNT_KEYS, ("variant_notes",), where)
        if problem:
            errors.append(problem)
            continue
        field_errors = setup_field_errors(
            player_count=int(key), data=pc, house_ids=set(s["houses"]), area_ids=set(areas)
        )
        errors += [f"{where}: {msg}" for msgs in field_errors.values() for msg in msgs]
        sk = tracks.get("special_orders_by_kings_court")
        if isinstance(sk, dict) and pc["kings_court_special_orders"] != sk.get(key):
            errors.append(
                f"{where}: kings_court_special_orders disagrees with tracks.special_orders_by_kings_court"
            )
        in_play = pc["houses"] if isinstance(pc["houses"], list) else []
        occupied = {
            u["area"]
            for h in in_play
            if isinstance(s["houses"].get(h), dict)
            for u in s["houses"][h].get("starting_units", [])
            if isinstance(u, dict)
        }
        occupied |= {s["houses"][h]["home_area"] for h in in_play if isinstance(s["houses"].get(h), dict)}
        garrisons = pc["garrisons"]
        if not isinstance(garrisons, list):
            errors.append(f"{where}: garrisons is a list")
            garrisons = []
        for g in garrisons:
            problem = _keys_problem(g, {"area", "strength"}, (), f"{where}: garrison")
            if problem:
                errors.append(problem)
            elif g["area"] not in areas or not areas[g["area"]].get("home_house"):
                errors.append(f"{where}: garrison in {g['area']!r}, which is not a home area (W-1.12)")
            elif areas[g["area"]]["home_house"] not in in_play:
                errors.append(f"{where}: garrison in {g['area']}, the home of a house not in play (W-2.4)")
            elif not (_is_int(g["strength"]) and g["strength"] >= 1):
                errors.append(f"{where}: garrison strength in {g['area']} is a positive integer")
        forces = pc["neutral_forces"]
        if not isinstance(forces, list):
            errors.append(f"{where}: neutral_forces is a list")
            forces = []
        seen: set[str] = set()
        for x in forces:
            problem = _keys_problem(x, {"area", "strength", "impassable"}, (), f"{where}: neutral force")
            if problem:
                errors.append(problem)
                continue
            a = x["area"]
            if a not in areas or areas[a]["kind"] != "land":
                errors.append(f"{where}: neutral force in {a!r}, which is not a land area (W-11.1)")
                continue
            if a in seen:
                errors.append(f"{where}: two neutral forces in {a}")
            seen.add(a)
            if a in occupied:
                errors.append(f"{where}: neutral force in {a}, where a house in play starts (W-2.4)")
            if x["impassable"] is not (x["strength"] is None):
                errors.append(f"{where}: {a}: a token is impassable exactly when it has no strength (W-11.1)")
            elif x["strength"] is not None and not (_is_int(x["strength"]) and 1 <= x["strength"] <= 6):
                errors.append(f"{where}: {a}: neutral force strength is 1 to 6")
        if isinstance(pc["impassable_areas"], list):
            for a in pc["impassable_areas"]:
                if a in occupied:
                    errors.append(f"{where}: a house in play starts in impassable area {a} (W-2.4)")
        if pc.get("variant_notes") is not None and not isinstance(pc["variant_notes"], list):
            errors.append(f"{where}: variant_notes is a list of strings")
    return errors


def _start_consistency_errors(
    h: str, d: dict[str, Any], per_area: Counter[str], areas: dict[str, dict], tracks: dict[str, Any]
) -> list[str]:
    """A house's start values agree with its start areas (W-2.2): supply = barrels, victory = castles held,
    and its starting armies fit its supply level (W-12)."""
    errors: list[str] = []
    home = d["home_area"]
    lands = {a for a in per_area if areas[a]["kind"] == "land"} | ({home} if home in areas else set())
    barrels = sum(areas[a]["supply"] for a in lands)
    castles = sum(areas[a]["castle"] != "none" for a in lands)
    if _is_nat(d["supply_level"]) and d["supply_level"] != min(barrels, 6):
        errors.append(
            f"setup: {h}: supply_level {d['supply_level']} but its start areas show {barrels} barrels (W-2.2)"
        )
    if _is_nat(d["victory_track"]) and d["victory_track"] != castles:
        errors.append(
            f"setup: {h}: victory_track {d['victory_track']} but it starts with {castles} castle/stronghold areas (W-2.2)"
        )
    levels = (tracks.get("supply_track") or {}).get("levels", [])
    allowed = next((lv["armies"] for lv in levels if lv["level"] == d["supply_level"]), None)
    if allowed is not None:
        armies = sorted((n for n in per_area.values() if n >= 2), reverse=True)
        if len(armies) > len(allowed) or any(a > b for a, b in zip(armies, allowed, strict=False)):
            errors.append(
                f"setup: {h}: starting armies {armies} do not fit supply level {d['supply_level']} (W-12)"
            )
    return errors


def house_cards_errors(hc: Any, house_ids: set[str]) -> list[str]:
    """Check the house cards (W-17.1): exactly 7 per house with strengths 4, 3, 2, 2, 1, 1, 0."""
    if not isinstance(hc, dict) or not isinstance(hc.get("cards"), list):
        return ["house_cards: expected an object with a 'cards' list"]
    errors: list[str] = []
    timings = set(hc.get("effect_timing_values") or {}) or {t for t, _ in HouseCard.TIMINGS}
    unknown_timings = timings - {t for t, _ in HouseCard.TIMINGS}
    if unknown_timings:
        errors.append(
            f"house_cards: effect_timing_values has unknown tag(s) {', '.join(sorted(unknown_timings))}"
        )
    rules: dict[str, Any] = hc["rules"] if isinstance(hc.get("rules"), dict) else {}
    per_house = rules.get("cards_per_house", 7)
    ids: set[str] = set()
    by_house: dict[str, list[dict]] = defaultdict(list)
    for n, c in enumerate(hc["cards"]):
        i = _entry_id(c, HOUSE_CARD_KEYS, (), section="house_cards", noun="card", n=n, errors=errors)
        if i is None:
            continue
        if i in ids:
            errors.append(f"house_cards: card id {i} is listed twice")
        ids.add(i)
        if c["house"] not in house_ids:
            errors.append(f"house_cards: {i}: unknown house {c['house']!r}")
            continue
        if not (_is_int(c["strength"]) and 0 <= c["strength"] <= 4):
            errors.append(f"house_cards: {i}: strength is 0 to 4")
            continue
        if not (_is_nat(c["swords"]) and _is_nat(c["fortifications"])):
            errors.append(f"house_cards: {i}: swords and fortifications are non-negative integers")
        if c["effect_timing"] not in timings:
            errors.append(
                f"house_cards: {i}: effect_timing {c['effect_timing']!r} is not one of {', '.join(sorted(timings))}"
            )
        if (c["effect"] is None) != (c["effect_timing"] == "none") or c["effect"] == "":
            errors.append(f"house_cards: {i}: a card has effect text exactly when its timing is not 'none'")
        by_house[c["house"]].append(c)
    for h in sorted(house_ids):
        hand = by_house[h]
        if len(hand) != per_house:
            errors.append(
                f"house_cards: {h} has {len(hand)} house cards; each house keeps exactly {per_house} (W-17.1)"
            )
        elif per_house == 7 and sorted(c["strength"] for c in hand) != HOUSE_CARD_STRENGTHS:
            strengths = ", ".join(str(c["strength"]) for c in sorted(hand, key=lambda c: -c["strength"]))
            errors.append(
                f"house_cards: {h} has strengths {strengths}; a hand is 4, 3, 2, 2, 1, 1, 0 (W-17.1)"
            )
    return errors


def westeros_card_errors(card: dict[str, Any], order_ids: set[str] | None) -> dict[str, list[str]]:
    """Check one Westeros card's effect fields (W-4): choice cards name a chooser and options, etc."""
    errors: dict[str, list[str]] = defaultdict(list)
    i = card.get("id")
    effect_type = card.get("effect_type")
    if effect_type not in EFFECT_TYPES:
        errors["effect_type"].append(f"{i}: unknown effect_type {effect_type!r}")
    if not (isinstance(card.get("effect"), str) and card["effect"]):
        errors["effect"].append(f"{i}: effect text is required")
    chooser, options = card.get("chooser"), card.get("options")
    if not (isinstance(options, list) and all(isinstance(o, str) and o for o in options)):
        errors["options"].append(f"{i}: options is a list of option ids")
        options = []
    if chooser is not None and chooser not in DOMINANCE_TOKENS:
        errors["chooser"].append(f"{i}: chooser is a dominance token ({', '.join(DOMINANCE_TOKENS)})")
    is_choice = effect_type == "choice"
    if is_choice and (chooser is None or len(options) < 2):
        errors["chooser"].append(f"{i}: a choice card names its chooser and at least two options")
    if not is_choice and (chooser is not None or options):
        errors["chooser"].append(f"{i}: only choice cards have a chooser and options")
    restricted = card.get("restricted_orders")
    if effect_type == "order_restriction":
        if not (isinstance(restricted, list) and restricted and all(isinstance(o, str) for o in restricted)):
            errors["restricted_orders"].append(
                f"{i}: an order restriction card lists the restricted order ids"
            )
        elif order_ids is not None:
            unknown = [o for o in restricted if o not in order_ids]
            if unknown:
                errors["restricted_orders"].append(
                    f"{i}: unknown order id(s) {', '.join(unknown)} (see order_tokens)"
                )
    elif restricted is not None:
        errors["restricted_orders"].append(f"{i}: only order restriction cards restrict orders")
    return {k: v for k, v in errors.items() if v}


def westeros_errors(w: Any, order_ids: set[str] | None) -> list[str]:
    """Check the Westeros decks (W-4): unique (deck, id), each deck's card counts add up to its size (10)."""
    if (
        not isinstance(w, dict)
        or not isinstance(w.get("cards"), list)
        or not isinstance(w.get("decks"), dict)
    ):
        return ["westeros_cards: expected an object with 'decks' and 'cards'"]
    errors: list[str] = []
    sizes: dict[int, int] = {}
    for key, deck in w["decks"].items():
        if not (
            key in ("1", "2", "3")
            and isinstance(deck, dict)
            and set(deck) == {"size"}
            and _is_nat(deck["size"])
        ):
            errors.append(f"westeros_cards: deck {key!r}: decks are 1, 2, 3, each {{'size': n}}")
        else:
            sizes[int(key)] = deck["size"]
    totals: Counter[int] = Counter()
    keys: set[tuple[int, str]] = set()
    for n, c in enumerate(w["cards"]):
        i = _entry_id(
            c,
            WESTEROS_CARD_KEYS,
            ("restricted_orders",),
            section="westeros_cards",
            noun="card",
            n=n,
            errors=errors,
        )
        if i is None:
            continue
        if c["deck"] not in sizes:
            errors.append(f"westeros_cards: {i}: deck {c['deck']!r} is not one of the decks")
            continue
        if (c["deck"], i) in keys:
            errors.append(f"westeros_cards: {i} is listed twice in deck {c['deck']}")
        keys.add((c["deck"], i))
        if not (_is_int(c["count"]) and c["count"] >= 1):
            errors.append(f"westeros_cards: {i}: count is a positive integer")
            continue
        if not isinstance(c["wildling_icon"], bool):
            errors.append(f"westeros_cards: {i}: wildling_icon is true or false")
        if not (isinstance(c["name"], str) and c["name"]):
            errors.append(f"westeros_cards: {i}: name is required")
        errors += [
            f"westeros_cards: {m}" for msgs in westeros_card_errors(c, order_ids).values() for m in msgs
        ]
        totals[c["deck"]] += c["count"]
    for d, size in sorted(sizes.items()):
        if totals[d] != size:
            errors.append(f"westeros_cards: deck {d} holds {totals[d]} cards but must hold {size} (W-1.11)")
    return errors


def wildling_errors(wl: Any) -> list[str]:
    """Check the wildling deck (W-16.7): unique ids, three written effects each, deck_size = cards."""
    if not isinstance(wl, dict) or not isinstance(wl.get("cards"), list):
        return ["wildling_cards: expected an object with a 'cards' list"]
    errors: list[str] = []
    ids: set[str] = set()
    for n, c in enumerate(wl["cards"]):
        i = _entry_id(c, WILDLING_CARD_KEYS, (), section="wildling_cards", noun="card", n=n, errors=errors)
        if i is None:
            continue
        if i in ids:
            errors.append(f"wildling_cards: {i} is listed twice")
        ids.add(i)
        nw, wv = c["nights_watch_victory"], c["wildling_victory"]
        ok = (
            isinstance(nw, dict)
            and set(nw) == {"highest_bidder"}
            and isinstance(wv, dict)
            and set(wv) == {"lowest_bidder", "everyone_else"}
            and all(isinstance(x, str) and x for x in (*nw.values(), *wv.values()))
        )
        if not ok:
            errors.append(
                f"wildling_cards: {i}: write highest_bidder, lowest_bidder and everyone_else (W-16.7)"
            )
    if wl.get("deck_size") is not None and wl["deck_size"] != len(wl["cards"]):
        errors.append(
            f"wildling_cards: deck_size says {wl['deck_size']} but there are {len(wl['cards'])} cards"
        )
    return errors


def layout_errors(layout: Any, area_ids: Iterable[str]) -> list[str]:
    """Check the map drawing: every area has a position and a polygon outline."""
    if not isinstance(layout, dict) or not isinstance(layout.get("areas"), dict):
        return ["layout: expected an object with an 'areas' object"]
    errors: list[str] = []
    ids = set(area_ids)
    for i in sorted(ids - set(layout["areas"])):
        errors.append(f"layout: area {i} has no drawing")
    for i in sorted(set(layout["areas"]) - ids):
        errors.append(f"layout: drawing for unknown area {i}")
    for i, d in layout["areas"].items():
        if not isinstance(d, dict) or set(d) != {"x", "y", "outline"}:
            errors.append(f"layout: {i}: expected x, y and outline")
            continue
        if not all(isinstance(d[k], int | float) and not isinstance(d[k], bool) for k in ("x", "y")):
            errors.append(f"layout: {i}: x and y are numbers")
        problem = outline_problem(d["outline"]) or (None if d["outline"] else "an outline is required")
        if problem:
            errors.append(f"layout: {i}: {problem}")
    return errors


def game_data_errors(data: Any, *, layout: Any = None) -> list[str]:
    """Every problem of a six-section data set (and of its layout when given); [] means it is valid."""
    if not isinstance(data, dict):
        return ["expected an object with the sections " + ", ".join(GAME_SECTIONS)]
    missing = [s for s in GAME_SECTIONS if s not in data]
    if missing:
        return [f"missing section(s): {', '.join(missing)}"]
    errors, areas, _adj = map_errors(data["map"])
    t_errors, tables = tracks_errors(data["tracks"])
    errors += t_errors
    setup = data["setup"]
    house_ids = (
        set(setup["houses"]) if isinstance(setup, dict) and isinstance(setup.get("houses"), dict) else set()
    )
    errors += setup_errors(setup, areas, tables)
    errors += house_cards_errors(data["house_cards"], house_ids)
    order_tokens = tables.get("order_tokens")
    order_ids = {t["id"] for t in order_tokens["tokens"]} if order_tokens else None
    errors += westeros_errors(data["westeros_cards"], order_ids)
    errors += wildling_errors(data["wildling_cards"])
    if layout is not None:
        errors += layout_errors(layout, areas)
    return errors


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


def map_export() -> dict[str, Any]:
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
        areas.append(d)
    edges = sorted(sorted(pair) for pair in Adjacency.objects.values_list("area_a__slug", "area_b__slug"))
    return {**_meta("map"), "counts": map_counts(areas, len(edges)), "areas": areas, "adjacency": edges}


def setup_export() -> dict[str, Any]:
    houses: dict[str, Any] = {}
    homes = {a.home_house_id: a.slug for a in Area.objects.filter(home_house__isnull=False)}
    units: dict[int, list[dict]] = defaultdict(list)
    for u in StartingUnit.objects.select_related("area").order_by("position", "id"):
        units[u.house_id].append({"area": u.area.slug, "unit": u.unit, "count": u.count})
    for h in House.objects.all():
        home = homes.get(h.pk)
        houses[h.slug] = {
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
        }
    garrisons: dict[int, list[dict]] = defaultdict(list)
    for g in SetupGarrison.objects.select_related("area").order_by("position", "id"):
        garrisons[g.setup_id].append({"area": g.area.slug, "strength": g.strength})
    forces: dict[int, list[dict]] = defaultdict(list)
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


def house_cards_export() -> dict[str, Any]:
    cards = [
        {
            "id": c.slug,
            "house": c.house.slug,
            "name": c.name,
            "strength": c.strength,
            "swords": c.swords,
            "fortifications": c.fortifications,
            "effect": c.effect or None,
            "effect_timing": c.effect_timing,
        }
        for c in HouseCard.objects.select_related("house").order_by("position", "slug")
    ]
    return {**_meta("house_cards"), "cards": cards}


def westeros_export() -> dict[str, Any]:
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
        cards.append(d)
    return {**_meta("westeros_cards"), "decks": decks, "cards": cards}


def wildling_export() -> dict[str, Any]:
    cards = [
        {
            "id": c.slug,
            "name": c.name,
            "nights_watch_victory": {"highest_bidder": c.highest_bidder},
            "wildling_victory": {"lowest_bidder": c.lowest_bidder, "everyone_else": c.everyone_else},
        }
        for c in WildlingCard.objects.all()
    ]
    return {**_meta("wildling_cards"), "cards": cards}


def tracks_export() -> dict[str, Any]:
    return {**_meta("tracks"), **{t.key: t.data for t in TrackTable.objects.all()}}


def game_data_export() -> dict[str, Any]:
    """The six-section data dict built from the database; the engine's `GameData.from_dict` reads it.

    A new game takes a copy of this dict, so an admin's edit changes the next game, never a running one.
    """
    return {
        "map": map_export(),
        "setup": setup_export(),
        "house_cards": house_cards_export(),
        "westeros_cards": westeros_export(),
        "wildling_cards": wildling_export(),
        "tracks": tracks_export(),
    }


def layout_export() -> dict[str, Any]:
    """The map drawing section: viewbox and notes, then {area id: {x, y, outline}} in map order."""
    areas = {a.slug: {"x": a.x, "y": a.y, "outline": a.outline} for a in _areas_in_order()}
    return {**_meta("layout"), "areas": areas}


def westeros_export_all() -> dict[str, Any]:
    """The export file of `export_westeros`: the six sections plus `layout`."""
    return {**game_data_export(), "layout": layout_export()}


def dataset_errors() -> list[str]:
    """Whole-data-set check of what the database holds now (the admin's "check data" page)."""
    return game_data_errors(game_data_export(), layout=layout_export())


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

    Nothing is written unless the data has no error at all; the ApplicationError lists every error.
    """
    layout = data.get("layout") if isinstance(data, dict) else None
    errors = game_data_errors(data, layout=layout)
    if isinstance(data, dict):
        unknown = sorted(set(data) - set(GAME_SECTIONS) - {"layout"})
        errors += [f"unknown section {s!r}" for s in unknown]
    if errors:
        raise ApplicationError(
            "invalid_westeros_data",
            f"The Westeros data has {len(errors)} error(s); nothing was imported.",
            extra={"errors": errors},
        )
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
        houses[slug] = House(
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
        )
    bulk_create_with_history(list(houses.values()), House)
    houses = {h.slug: h for h in House.objects.all()}

    drawings = (layout or {}).get("areas", {})
    bulk_create_with_history(
        [
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
            )
            for n, c in enumerate(w["cards"])
        ],
        WesterosCard,
    )
    bulk_create_with_history(
        [
            WildlingCard(
                slug=c["id"],
                name=c["name"],
                highest_bidder=c["nights_watch_victory"]["highest_bidder"],
                lowest_bidder=c["wildling_victory"]["lowest_bidder"],
                everyone_else=c["wildling_victory"]["everyone_else"],
                position=n,
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


def westeros_load_bundled(*, force: bool = False, directory: Path = DATA_DIR) -> str:
    """Load the bundled files unless data is already there (then only with force); says what it did."""
    data = bundled_data(directory)
    if westeros_data_loaded():
        current = westeros_export_all()
        if current == data:
            return "unchanged"
        if not force:
            return "kept"
    game_data_import(data=data)
    return "loaded"


# --------------------------------------------------------------------------------------------------
# Edits used by the admin
# --------------------------------------------------------------------------------------------------


@transaction.atomic
def area_set_neighbours(*, area: Area, neighbours: Iterable[Area]) -> None:
    """Make `neighbours` exactly the areas adjacent to `area` (each border stored once, W-10.1)."""
    wanted = {n.pk for n in neighbours}
    if area.pk in wanted:
        raise ApplicationError("invalid_adjacency", f"{area} cannot be adjacent to itself (W-10.1).")
    current = area.neighbour_ids()
    Adjacency.objects.filter(
        Q(area_a_id=area.pk, area_b_id__in=current - wanted)
        | Q(area_b_id=area.pk, area_a_id__in=current - wanted)
    ).delete()
    for other in wanted - current:
        a, b = sorted((area.pk, other))
        Adjacency.objects.create(area_a_id=a, area_b_id=b)


@transaction.atomic
def port_sync_edges(*, port: Port) -> None:
    """Give a port exactly two borders: its land area and its sea (W-10.4)."""
    area_set_neighbours(area=port.area, neighbours=[port.land_area, port.sea_area])


def neighbour_problems(*, area: Area, neighbours: Iterable[Area]) -> list[str]:
    """Why `area` cannot have exactly these neighbours (self loop, port rules), for the admin form."""
    nbs = list(neighbours)
    problems = []
    if any(n.pk == area.pk for n in nbs):
        problems.append(f"{area} cannot be adjacent to itself (W-10.1).")
    if area.kind == Area.PORT:
        port = Port.objects.filter(area=area).select_related("land_area", "sea_area").first()
        if port and {n.pk for n in nbs} != {port.land_area_id, port.sea_area_id}:
            problems.append(
                f"A port borders exactly its land area ({port.land_area}) and its sea ({port.sea_area}) (W-10.4)."
            )
    else:
        for n in nbs:
            if n.kind == Area.PORT:
                port = Port.objects.filter(area=n).first()
                if port is None or area.pk not in (port.land_area_id, port.sea_area_id):
                    problems.append(f"{n} is a port; it may border only its own land area and sea (W-10.4).")
    if area.pk and area.kind == Area.LAND:
        port = Port.objects.filter(land_area=area).select_related("sea_area").first()
        if port and port.sea_area_id not in {n.pk for n in nbs}:
            problems.append(
                f"{area}'s port opens onto {port.sea_area}, so {area} must stay adjacent to it (W-1.2)."
            )
    return problems


@transaction.atomic
def house_card_delete(*, card: HouseCard) -> None:
    """Refuse: deleting a house card would leave its house short of its 7 cards (W-17.1)."""
    raise ApplicationError(
        "house_cards_fixed",
        f"{card.house} must keep exactly 7 house cards (W-17.1); edit {card.name} instead of deleting it.",
    )


def hand_strength_problem(strengths: list[int]) -> str | None:
    """Why a house's 7 card strengths are not 4, 3, 2, 2, 1, 1, 0 (W-17.1), or None."""
    if sorted(strengths) != HOUSE_CARD_STRENGTHS:
        shown = ", ".join(str(s) for s in sorted(strengths, reverse=True))
        return f"A house's cards have strengths 4, 3, 2, 2, 1, 1, 0 (W-17.1); these would be {shown}."
    return None


def deck_size_problem(*, deck: WesterosDeck, counts: list[int]) -> str | None:
    """Why these card counts do not fill the deck exactly (10 cards per deck, W-1.11), or None."""
    if sum(counts) != deck.size:
        return f"{deck} must hold {deck.size} cards (W-1.11); these counts add up to {sum(counts)}."
    return None


def setup_references(*, slug: str, what: str) -> list[str]:
    """Where the set-ups' JSON lists name this area or house id (they hold ids, not foreign keys)."""
    found = []
    for setup in Setup.objects.all():
        where = f"{setup.player_count}-player set-up"
        if what == "area" and slug in (setup.impassable_areas or []):
            found.append(f"{where}: impassable_areas")
        if what == "house":
            if slug in (setup.houses or []):
                found.append(f"{where}: houses")
            if any(slug in (order or []) for order in (setup.influence_tracks or {}).values()):
                found.append(f"{where}: influence_tracks")
            if slug in (setup.dominance_token_holders or {}).values():
                found.append(f"{where}: dominance_token_holders")
    return found


@transaction.atomic
def setup_references_rename(*, old: str, new: str, what: str) -> None:
    """After an area or house id changes, rewrite the set-ups' JSON lists so they keep pointing at it."""
    for setup in Setup.objects.select_for_update():
        if what == "area":
            setup.impassable_areas = [new if a == old else a for a in setup.impassable_areas]
        else:
            setup.houses = [new if h == old else h for h in setup.houses]
            setup.influence_tracks = {
                t: [new if h == old else h for h in order] for t, order in setup.influence_tracks.items()
            }
            setup.dominance_token_holders = {
                k: new if h == old else h for k, h in setup.dominance_token_holders.items()
            }
        setup.save()
