"""Validation of the Westeros data set in its dict format: pure functions, no database.

The format is the six-section dict of `boardgame/data/westeros/*.json` (`map`, `setup`, `house_cards`,
`westeros_cards`, `wildling_cards`, `tracks`), plus an optional `layout` section (the schematic map
drawing). `game_data_errors` checks such a dict and returns every problem it finds (none raises), so the
import can refuse a whole file and the admin forms (`boardgame.models`' `clean()` methods) can show the
same messages: this module imports no model, so the models may import it.

Messages are worded in the active language (gettext at check time, as `cards.models.card_field_errors`
does): the admin's data check page and forms show them in the staff member's language, the import in its
caller's. Each starts with where the problem is — the section and record id as the JSON spells them
("setup: stark: …"); the data's own words (ids, JSON keys, values) stay as written in every language.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from boardgame.card_validation import (
    house_cards_errors,
    translations_problems,
    westeros_errors,
    wildling_errors,
)
from boardgame.data_format import (
    AREA_KEYS,
    AREA_TRANSLATED,
    DOMINANCE_TOKENS,
    GAME_SECTIONS,
    HOUSE_KEYS,
    HOUSE_TRANSLATED,
    ID_RE,
    INFLUENCE_TRACKS,
    KIND_ORDER,
    PLAYER_COUNT_KEYS,
    TRACK_TO_TOKEN,
    UNIT_DOMAINS,
    entry_id,
    is_int,
    is_nat,
    keys_problem,
    outline_problem,
)
from boardgame.track_validation import tracks_errors


def map_errors(m: Any) -> tuple[list[str], dict[str, dict[str, Any]], dict[str, set[str]]]:
    """Check the map section (W-1.2, W-10): areas, icons, symmetric loop-free adjacency, ports, islands.

    Returns (errors, areas by id, neighbours by id) so later sections can check references.
    """
    errors: list[str] = []
    areas: dict[str, dict[str, Any]] = {}
    adj: dict[str, set[str]] = defaultdict(set)
    if (
        not isinstance(m, dict)
        or not isinstance(m.get("areas"), list)
        or not isinstance(m.get("adjacency"), list)
    ):
        return ["map: " + _("expected an object with an 'areas' list and an 'adjacency' list")], areas, adj
    for n, a in enumerate(m["areas"]):
        kind = a.get("kind") if isinstance(a, dict) else None
        extra = {"land": ["port"], "port": ["land_area", "sea_area", "max_ships"]}.get(kind or "", [])
        extra = [*extra, "translations"]
        required = AREA_KEYS | ({"land_area", "sea_area", "max_ships"} if kind == "port" else set())
        i = entry_id(a, required, extra, section="map", noun="area", n=n, errors=errors)
        if i is None:
            continue
        if i in areas:
            errors.append("map: " + _("area id %(id)s is listed twice") % {"id": i})
            continue
        areas[i] = a
        errors += translations_problems(a, AREA_TRANSLATED, f"map: {i}")
        if kind not in KIND_ORDER:
            errors.append(f"map: {i}: " + _("kind must be land, sea or port"))
        if a["castle"] not in ("none", "castle", "stronghold"):
            errors.append(f"map: {i}: " + _("castle must be none, castle or stronghold"))
        if not (is_nat(a["supply"]) and is_nat(a["crowns"])):
            errors.append(f"map: {i}: " + _("supply and crowns are non-negative integers"))
        if not isinstance(a["island"], bool):
            errors.append(f"map: {i}: " + _("island is true or false"))
        if not isinstance(a["name"], str) or not 0 < len(a["name"]) <= 80:
            errors.append(f"map: {i}: " + _("name is a text of 1 to %(limit)s characters") % {"limit": 80})
        if kind != "land" and (
            a["castle"] != "none" or a["supply"] or a["crowns"] or a["home_house"] or a["island"]
        ):
            errors.append(
                f"map: {i}: "
                + _("sea areas and ports carry no castle, icons, home house or island flag (W-1.2)")
            )
        if a["home_house"] is not None and a["castle"] != "stronghold":
            errors.append(f"map: {i}: " + _("a home area is a stronghold (W-1.2)"))
    names = Counter(a["name"] for a in areas.values() if isinstance(a.get("name"), str))
    errors += [
        "map: " + _("area name %(name)s is used twice") % {"name": repr(name)}
        for name, c in names.items()
        if c > 1
    ]
    homes = Counter(a["home_house"] for a in areas.values() if a["home_house"] is not None)
    errors += [
        "map: "
        + _("house %(house)s has %(count)s home areas; a house has exactly one (W-1.2)")
        % {"house": h, "count": c}
        for h, c in homes.items()
        if c > 1
    ]

    seen: set[frozenset[str]] = set()
    for pair in m["adjacency"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            errors.append(
                "map: " + _("adjacency entry %(entry)s is not a pair of area ids") % {"entry": repr(pair)}
            )
            continue
        a_id, b_id = pair
        unknown = [x for x in pair if x not in areas]
        if unknown:
            errors.append(
                "map: "
                + _("edge %(edge)s names unknown area(s) %(areas)s")
                % {"edge": pair, "areas": ", ".join(unknown)}
            )
            continue
        if a_id == b_id:
            errors.append(
                "map: "
                + _("edge %(edge)s is a self loop; an area is never adjacent to itself (W-10.1)")
                % {"edge": pair}
            )
            continue
        key = frozenset(pair)
        if key in seen:
            errors.append(
                "map: "
                + _("edge %(edge)s is listed twice; adjacency is symmetric and each edge is listed once")
                % {"edge": pair}
            )
            continue
        seen.add(key)
        adj[a_id].add(b_id)
        adj[b_id].add(a_id)
    for i in areas:
        if not adj[i]:
            errors.append("map: " + _("%(area)s has no neighbour") % {"area": i})
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
            errors.append(
                "map: " + _("the map is not connected; cut off: %(areas)s") % {"areas": ", ".join(cut[:8])}
            )

    for i, a in areas.items():
        kind = a["kind"]
        if kind == "land":
            land_nbs = [n for n in adj[i] if areas[n]["kind"] == "land"]
            if a["island"] != (not land_nbs):
                errors.append(
                    f"map: {i}: "
                    + _("island must be %(value)s (an island touches no other land area, W-10.2)")
                    % {"value": not land_nbs}
                )
            ports = sorted(n for n in adj[i] if areas[n]["kind"] == "port")
            if len(ports) > 1:
                errors.append(
                    "map: "
                    + _("%(area)s borders %(count)s ports; a land area has at most one")
                    % {"area": i, "count": len(ports)}
                )
            if a.get("port") != (ports[0] if ports else None):
                errors.append(
                    f"map: {i}: "
                    + _("port field %(value)s does not match its adjacent port %(ports)s")
                    % {"value": repr(a.get("port")), "ports": ports or None}
                )
        elif kind == "port":
            land, sea, max_ships = a["land_area"], a["sea_area"], a["max_ships"]
            if land not in areas or areas[land]["kind"] != "land":
                errors.append(
                    "map: "
                    + _("port %(port)s: land_area %(land)s is not a land area (W-1.2)")
                    % {"port": i, "land": repr(land)}
                )
                continue
            if sea not in areas or areas[sea]["kind"] != "sea":
                errors.append(
                    "map: "
                    + _("port %(port)s: sea_area %(sea)s is not a sea area (W-1.2)")
                    % {"port": i, "sea": repr(sea)}
                )
                continue
            if areas[land]["castle"] not in ("castle", "stronghold"):
                errors.append(
                    "map: "
                    + _("port %(port)s: its land area %(land)s has no castle or stronghold (W-1.2)")
                    % {"port": i, "land": land}
                )
            if sea not in adj[land]:
                errors.append(
                    "map: "
                    + _("port %(port)s: its sea %(sea)s is not adjacent to its land area %(land)s (W-1.2)")
                    % {"port": i, "sea": sea, "land": land}
                )
            if adj[i] != {land, sea}:
                errors.append(
                    "map: "
                    + (
                        _(
                            "port %(port)s must border exactly its land %(land)s and its sea %(sea)s, not %(areas)s (W-10.4)"
                        )
                        if adj[i]
                        else _(
                            "port %(port)s must border exactly its land %(land)s and its sea %(sea)s, not nothing (W-10.4)"
                        )
                    )
                    % {"port": i, "land": land, "sea": sea, "areas": ", ".join(sorted(adj[i]))}
                )
            if not (is_int(max_ships) and max_ships >= 1):
                errors.append("map: " + _("port %(port)s: max_ships is a positive integer") % {"port": i})

    counts = m.get("counts")
    if counts is not None:
        computed = map_counts(list(areas.values()), len(seen))
        if counts != computed:
            diff = sorted(k for k in set(counts) | set(computed) if counts.get(k) != computed.get(k))
            errors.append(
                "map: "
                + _("counts disagree with the areas and edges for %(keys)s (expected %(expected)s)")
                % {"keys": ", ".join(diff), "expected": computed}
            )
    return errors, areas, adj


def map_counts(areas: list[dict[str, Any]], edges: int) -> dict[str, int]:
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


def setup_field_errors(
    *, player_count: Any, data: dict[str, Any], house_ids: set[str], area_ids: set[str]
) -> dict[str, list[str]]:
    """Check the JSON fields of one player-count set-up (W-2.3, W-2.4); {field: [messages]}."""
    errors: dict[str, list[str]] = defaultdict(list)
    houses = data.get("houses")
    n = player_count if is_int(player_count) else None
    if not (isinstance(houses, list) and all(isinstance(h, str) for h in houses)):
        errors["houses"].append(_("houses is a list of house ids"))
        houses = []
    else:
        unknown = [h for h in houses if h not in house_ids]
        if unknown:
            errors["houses"].append(_("unknown house(s): %(houses)s") % {"houses": ", ".join(unknown)})
        if len(set(houses)) != len(houses):
            errors["houses"].append(_("a house is listed twice"))
        if n is not None and len(houses) != n:
            errors["houses"].append(
                _("a %(players)s-player game has %(players)s houses, not %(count)s (W-1.1)")
                % {"players": n, "count": len(houses)}
            )
    tracks = data.get("influence_tracks")
    if not isinstance(tracks, dict) or set(tracks) != set(INFLUENCE_TRACKS):
        errors["influence_tracks"].append(
            _("influence_tracks has exactly the iron_throne, fiefdoms and kings_court lists")
        )
    else:
        for track, order in tracks.items():
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(houses):
                errors["influence_tracks"].append(
                    f"{track}: " + _("must list each house in play exactly once (W-2.3)")
                )
    holders = data.get("dominance_token_holders")
    if not isinstance(holders, dict) or set(holders) != set(DOMINANCE_TOKENS):
        errors["dominance_token_holders"].append(
            _(
                "dominance_token_holders names the iron_throne, valyrian_steel_blade and messenger_raven holders"
            )
        )
    elif isinstance(tracks, dict) and not errors["influence_tracks"]:
        for track, token in TRACK_TO_TOKEN.items():
            top = tracks[track][0] if tracks[track] else None
            if holders[token] != top:
                errors["dominance_token_holders"].append(
                    _("%(token)s belongs to position 1 of %(track)s (%(top)s), not %(holder)s (W-1.9)")
                    % {"token": token, "track": track, "top": top, "holder": holders[token]}
                )
    impassable = data.get("impassable_areas")
    if not (isinstance(impassable, list) and all(isinstance(a, str) for a in impassable)):
        errors["impassable_areas"].append(_("impassable_areas is a list of area ids"))
    else:
        unknown = [a for a in impassable if a not in area_ids]
        if unknown:
            errors["impassable_areas"].append(_("unknown area(s): %(areas)s") % {"areas": ", ".join(unknown)})
    stars = data.get("kings_court_special_orders")
    if not (isinstance(stars, list) and all(is_nat(s) for s in stars)):
        errors["kings_court_special_orders"].append(
            _("kings_court_special_orders is a list of non-negative integers")
        )
    elif n is not None and len(stars) != n:
        errors["kings_court_special_orders"].append(
            _("one entry per King's Court position: %(count)s expected (W-5)") % {"count": n}
        )
    return {k: v for k, v in errors.items() if v}


def setup_errors(s: Any, areas: dict[str, dict[str, Any]], tracks: dict[str, Any]) -> list[str]:
    """Check the setup section (W-2): houses' start values and units, and each player count's set-up."""
    if (
        not isinstance(s, dict)
        or not isinstance(s.get("houses"), dict)
        or not isinstance(s.get("player_counts"), dict)
    ):
        return ["setup: " + _("expected an object with 'houses' and 'player_counts' objects")]
    errors: list[str] = []
    unit_owner: dict[str, str] = {}
    homes = {a["home_house"]: i for i, a in areas.items() if a.get("home_house")}
    for h, a_id in homes.items():
        if h not in s["houses"]:
            errors.append(
                "map: " + _("%(area)s is the home of unknown house %(house)s") % {"area": a_id, "house": h}
            )
    limits = tracks.get("unit_limits_per_house", {})
    for h, d in s["houses"].items():
        if not ID_RE.match(h) or len(h) > 40:
            errors.append(
                "setup: "
                + _("house id %(id)s is not a snake_case id (at most %(limit)s characters)")
                % {"id": repr(h), "limit": 40}
            )
        problem = keys_problem(
            d, HOUSE_KEYS, ("translations",), "setup: " + _("house %(house)s") % {"house": h}
        )
        if problem:
            errors.append(problem)
            continue
        errors += translations_problems(d, HOUSE_TRANSLATED, f"setup: {h}")
        if not (isinstance(d["name"], str) and 0 < len(d["name"]) <= 60):
            errors.append(f"setup: {h}: " + _("name is a text of 1 to %(limit)s characters") % {"limit": 60})
        home = d["home_area"]
        if homes.get(h) != home:
            errors.append(
                f"setup: {h}: "
                + _("home_area %(area)s is not the area the map marks as its home (%(home)s)")
                % {"area": repr(home), "home": homes.get(h)}
            )
        g = d["garrison"]
        if not (
            isinstance(g, dict)
            and set(g) == {"area", "strength"}
            and g["area"] == home
            and is_nat(g["strength"])
        ):
            errors.append(
                f"setup: {h}: "
                + _("the garrison stands in the home area %(area)s with a strength (W-2.4)") % {"area": home}
            )
        for f in ("power_tokens_available", "power_tokens_total", "supply_level", "victory_track"):
            if not is_nat(d[f]):
                errors.append(f"setup: {h}: " + _("%(field)s is a non-negative integer") % {"field": f})
        if is_nat(d["power_tokens_available"]) and is_nat(d["power_tokens_total"]):
            if d["power_tokens_available"] > d["power_tokens_total"]:
                errors.append(f"setup: {h}: " + _("more available power than owned (W-1.7)"))
        pos = d["influence_positions_6p"]
        if (
            not isinstance(pos, dict)
            or set(pos) != set(INFLUENCE_TRACKS)
            or not all(is_int(v) and v >= 1 for v in pos.values())
        ):
            errors.append(
                f"setup: {h}: "
                + _("influence_positions_6p gives a position (1 = top) on each of the three tracks")
            )
        per_type: Counter[str] = Counter()
        per_area: Counter[str] = Counter()
        if not isinstance(d["starting_units"], list):
            errors.append(f"setup: {h}: " + _("starting_units is a list"))
            continue
        for u in d["starting_units"]:
            problem = keys_problem(u, {"area", "unit", "count"}, (), f"setup: {h}: " + _("starting unit"))
            if problem:
                errors.append(problem)
                continue
            a = u["area"]
            if a not in areas:
                errors.append(
                    f"setup: {h}: " + _("starting unit in unknown area %(area)s") % {"area": repr(a)}
                )
                continue
            if u["unit"] not in UNIT_DOMAINS:
                errors.append(f"setup: {h}: " + _("unknown unit type %(unit)s") % {"unit": repr(u["unit"])})
                continue
            if areas[a]["kind"] not in UNIT_DOMAINS[u["unit"]]:
                errors.append(
                    f"setup: {h}: "
                    + _("a %(unit)s cannot stand in %(area)s (%(kind)s) (W-1.3)")
                    % {"unit": u["unit"], "area": a, "kind": areas[a]["kind"]}
                )
            if not (is_int(u["count"]) and u["count"] >= 1):
                errors.append(
                    f"setup: {h}: " + _("unit count in %(area)s is a positive integer") % {"area": a}
                )
                continue
            if unit_owner.setdefault(a, h) != h:
                errors.append(
                    f"setup: {a}: "
                    + _("starting units of %(first)s and %(second)s; one house per area")
                    % {"first": unit_owner[a], "second": h}
                )
            per_type[u["unit"]] += u["count"]
            per_area[a] += u["count"]
        for unit, count in per_type.items():
            if is_int(limits.get(unit)) and count > limits[unit]:
                errors.append(
                    f"setup: {h}: "
                    + _("%(count)s %(unit)ss exceed the limit of %(limit)s (W-1.3)")
                    % {"count": count, "unit": unit, "limit": limits[unit]}
                )
        errors += _start_consistency_errors(h, d, per_area, areas, tracks)
    house_names = Counter(d.get("name") for d in s["houses"].values() if isinstance(d, dict))
    errors += [
        "setup: " + _("house name %(name)s is used twice") % {"name": repr(n)}
        for n, c in house_names.items()
        if c > 1 and n
    ]
    for track in INFLUENCE_TRACKS:
        positions = sorted(
            d["influence_positions_6p"].get(track, 0)
            for d in s["houses"].values()
            if isinstance(d, dict) and isinstance(d.get("influence_positions_6p"), dict)
        )
        if positions != list(range(1, len(s["houses"]) + 1)):
            errors.append(
                f"setup: {track}: "
                + _("the houses' 6-player positions must be 1..%(last)s once each")
                % {"last": len(s["houses"])}
            )

    for key, pc in sorted(s["player_counts"].items()):
        where = "setup: " + _("%(count)s players") % {"count": key}
        if not (key.isdigit() and 3 <= int(key) <= 6):
            errors.append(f"{where}: " + _("player counts are 3 to 6 (W-1.1)"))
            continue
        problem = keys_problem(pc, PLAYER_COUNT_KEYS, ("variant_notes",), where)
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
                f"{where}: "
                + _("kings_court_special_orders disagrees with tracks.special_orders_by_kings_court")
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
            errors.append(f"{where}: " + _("garrisons is a list"))
            garrisons = []
        for g in garrisons:
            problem = keys_problem(g, {"area", "strength"}, (), f"{where}: " + _("garrison"))
            if problem:
                errors.append(problem)
            elif g["area"] not in areas or not areas[g["area"]].get("home_house"):
                errors.append(
                    f"{where}: "
                    + _("garrison in %(area)s, which is not a home area (W-1.12)") % {"area": repr(g["area"])}
                )
            elif areas[g["area"]]["home_house"] not in in_play:
                errors.append(
                    f"{where}: "
                    + _("garrison in %(area)s, the home of a house not in play (W-2.4)") % {"area": g["area"]}
                )
            elif not (is_int(g["strength"]) and g["strength"] >= 1):
                errors.append(
                    f"{where}: "
                    + _("garrison strength in %(area)s is a positive integer") % {"area": g["area"]}
                )
        forces = pc["neutral_forces"]
        if not isinstance(forces, list):
            errors.append(f"{where}: " + _("neutral_forces is a list"))
            forces = []
        seen: set[str] = set()
        for x in forces:
            problem = keys_problem(
                x, {"area", "strength", "impassable"}, (), f"{where}: " + _("neutral force")
            )
            if problem:
                errors.append(problem)
                continue
            a = x["area"]
            if a not in areas or areas[a]["kind"] != "land":
                errors.append(
                    f"{where}: "
                    + _("neutral force in %(area)s, which is not a land area (W-11.1)") % {"area": repr(a)}
                )
                continue
            if a in seen:
                errors.append(f"{where}: " + _("two neutral forces in %(area)s") % {"area": a})
            seen.add(a)
            if a in occupied:
                errors.append(
                    f"{where}: "
                    + _("neutral force in %(area)s, where a house in play starts (W-2.4)") % {"area": a}
                )
            if x["impassable"] is not (x["strength"] is None):
                errors.append(
                    f"{where}: {a}: " + _("a token is impassable exactly when it has no strength (W-11.1)")
                )
            elif x["strength"] is not None and not (is_int(x["strength"]) and 1 <= x["strength"] <= 6):
                errors.append(f"{where}: {a}: " + _("neutral force strength is 1 to 6"))
        if isinstance(pc["impassable_areas"], list):
            for a in pc["impassable_areas"]:
                if a in occupied:
                    errors.append(
                        f"{where}: "
                        + _("a house in play starts in impassable area %(area)s (W-2.4)") % {"area": a}
                    )
        if pc.get("variant_notes") is not None and not isinstance(pc["variant_notes"], list):
            errors.append(f"{where}: " + _("variant_notes is a list of strings"))
    return errors


def _start_consistency_errors(
    h: str,
    d: dict[str, Any],
    per_area: Counter[str],
    areas: dict[str, dict[str, Any]],
    tracks: dict[str, Any],
) -> list[str]:
    """A house's start values agree with its start areas (W-2.2): supply = barrels, victory = castles held,
    and its starting armies fit its supply level (W-12)."""
    errors: list[str] = []
    home = d["home_area"]
    lands = {a for a in per_area if areas[a]["kind"] == "land"} | ({home} if home in areas else set())
    barrels = sum(areas[a]["supply"] for a in lands)
    castles = sum(areas[a]["castle"] != "none" for a in lands)
    if is_nat(d["supply_level"]) and d["supply_level"] != min(barrels, 6):
        errors.append(
            f"setup: {h}: "
            + _("supply_level %(level)s but its start areas show %(barrels)s barrels (W-2.2)")
            % {"level": d["supply_level"], "barrels": barrels}
        )
    if is_nat(d["victory_track"]) and d["victory_track"] != castles:
        errors.append(
            f"setup: {h}: "
            + _("victory_track %(value)s but it starts with %(castles)s castle/stronghold areas (W-2.2)")
            % {"value": d["victory_track"], "castles": castles}
        )
    levels = (tracks.get("supply_track") or {}).get("levels", [])
    allowed = next((lv["armies"] for lv in levels if lv["level"] == d["supply_level"]), None)
    if allowed is not None:
        armies = sorted((n for n in per_area.values() if n >= 2), reverse=True)
        if len(armies) > len(allowed) or any(a > b for a, b in zip(armies, allowed, strict=False)):
            errors.append(
                f"setup: {h}: "
                + _("starting armies %(armies)s do not fit supply level %(level)s (W-12)")
                % {"armies": armies, "level": d["supply_level"]}
            )
    return errors


def layout_errors(layout: Any, area_ids: Iterable[str]) -> list[str]:
    """Check the map drawing: every area has a position and a polygon outline."""
    if not isinstance(layout, dict) or not isinstance(layout.get("areas"), dict):
        return ["layout: " + _("expected an object with an 'areas' object")]
    errors: list[str] = []
    ids = set(area_ids)
    for i in sorted(ids - set(layout["areas"])):
        errors.append("layout: " + _("area %(area)s has no drawing") % {"area": i})
    for i in sorted(set(layout["areas"]) - ids):
        errors.append("layout: " + _("drawing for unknown area %(area)s") % {"area": i})
    for i, d in layout["areas"].items():
        if not isinstance(d, dict) or set(d) != {"x", "y", "outline"}:
            errors.append(f"layout: {i}: " + _("expected x, y and outline"))
            continue
        if not all(isinstance(d[k], int | float) and not isinstance(d[k], bool) for k in ("x", "y")):
            errors.append(f"layout: {i}: " + _("x and y are numbers"))
        problem = outline_problem(d["outline"]) or (None if d["outline"] else _("an outline is required"))
        if problem:
            errors.append(f"layout: {i}: {problem}")
    return errors


def game_data_errors(data: Any, *, layout: Any = None) -> list[str]:
    """Every problem of a six-section data set (and of its layout when given); [] means it is valid."""
    if not isinstance(data, dict):
        return [
            _("expected an object with the sections %(sections)s") % {"sections": ", ".join(GAME_SECTIONS)}
        ]
    missing = [s for s in GAME_SECTIONS if s not in data]
    if missing:
        return [_("missing section(s): %(sections)s") % {"sections": ", ".join(missing)}]
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
