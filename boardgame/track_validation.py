"""Checks of the Westeros track tables (`tracks.json`): each table's shape and values (W-1, W-11, W-12, W-18).

Pure functions, no database, like `boardgame.validation` (which checks the whole data set with them) —
the track-table model's `clean()` calls `track_table_errors` too. Messages are worded in the active language;
table keys, JSON keys and ids stay as written.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from boardgame.data_format import (
    DOMINANCE_TOKENS,
    INFLUENCE_TRACKS,
    TRACK_TABLE_KEYS,
    UNIT_DOMAINS,
    is_int,
    is_nat,
)


def track_table_errors(key: str, data: Any) -> list[str]:
    """Check one table of the tracks section (W-1.6, W-1.10, W-12, W-13, W-16, W-18)."""
    errors: list[str] = []
    try:
        if key == "supply_track":
            levels = data["levels"]
            if [lv["level"] for lv in levels] != list(range(len(levels))) or not levels:
                errors.append("supply_track: " + _("levels are numbered 0, 1, 2... without gaps (W-12)"))
            prev: list[int] | None = None
            for lv in levels:
                arm = lv["armies"]
                if not (isinstance(arm, list) and all(is_int(x) and x >= 2 for x in arm)):
                    errors.append(
                        "supply_track: "
                        + _("level %(level)s: armies are sizes of at least 2") % {"level": lv["level"]}
                    )
                    continue
                if arm != sorted(arm, reverse=True):
                    errors.append(
                        "supply_track: "
                        + _("level %(level)s: list the largest army first") % {"level": lv["level"]}
                    )
                if prev is not None and not (len(arm) >= len(prev) and sum(arm) >= sum(prev)):
                    errors.append(
                        "supply_track: "
                        + _("level %(level)s allows less than the level below (W-12)")
                        % {"level": lv["level"]}
                    )
                prev = arm
        elif key == "order_tokens":
            tokens = data["tokens"]
            ids = [t["id"] for t in tokens]
            if len(set(ids)) != len(ids):
                errors.append("order_tokens: " + _("token ids must be unique"))
            for t in tokens:
                if t["type"] not in ("march", "defense", "support", "raid", "consolidate_power"):
                    errors.append(
                        f"order_tokens: {t['id']}: " + _("unknown type %(type)s") % {"type": repr(t["type"])}
                    )
                if not (is_int(t["count"]) and t["count"] >= 1) or not isinstance(t["special"], bool):
                    errors.append(
                        f"order_tokens: {t['id']}: " + _("count is a positive integer, special true/false")
                    )
                if not (t["strength_modifier"] is None or is_int(t["strength_modifier"])):
                    errors.append(f"order_tokens: {t['id']}: " + _("strength_modifier is an integer or null"))
            if sum(t["count"] for t in tokens) != 15:
                errors.append(
                    "order_tokens: " + _("a house owns %(count)s order tokens (W-1.6)") % {"count": 15}
                )
            special = {t["id"] for t in tokens if t["special"]}
            if set(data.get("special_effects", {})) != special:
                errors.append(
                    "order_tokens: " + _("special_effects must describe every special order and nothing else")
                )
        elif key == "special_orders_by_kings_court":
            for n in ("3", "4", "5", "6"):
                row = data[n]
                if not (isinstance(row, list) and len(row) == int(n) and all(is_nat(x) for x in row)):
                    errors.append(
                        "special_orders_by_kings_court: "
                        + _("%(players)s players need %(players)s non-negative numbers") % {"players": n}
                    )
                elif row != sorted(row, reverse=True):
                    errors.append(
                        "special_orders_by_kings_court: "
                        + _("%(players)s players: numbers never rise down the track") % {"players": n}
                    )
        elif key == "unit_types":
            unit_ids = {u["id"] for u in data}
            if unit_ids != set(UNIT_DOMAINS):
                errors.append(
                    "unit_types: "
                    + _("the unit types are %(units)s (W-1.3)") % {"units": ", ".join(sorted(UNIT_DOMAINS))}
                )
            for u in data:
                if not (is_nat(u["combat_strength"]) and is_nat(u["muster_cost"])):
                    errors.append(
                        f"unit_types: {u['id']}: " + _("strength and muster cost are non-negative integers")
                    )
        elif key == "unit_limits_per_house":
            if set(data) != set(UNIT_DOMAINS) or not all(is_nat(v) for v in data.values()):
                errors.append("unit_limits_per_house: " + _("one non-negative limit per unit type (W-1.3)"))
        elif key == "mustering_points":
            if set(data) != {"stronghold", "castle", "none"} or not all(is_nat(v) for v in data.values()):
                errors.append("mustering_points: " + _("points for stronghold, castle and none (W-13)"))
        elif key == "power_tokens":
            if not (is_nat(data["per_house"]) and is_nat(data["available_at_start"])):
                errors.append(
                    "power_tokens: " + _("per_house and available_at_start are non-negative integers")
                )
            elif data["available_at_start"] > data["per_house"]:
                errors.append(
                    "power_tokens: " + _("a house cannot start with more power than it owns (W-1.7)")
                )
        elif key == "influence_tracks":
            if [t["id"] for t in data] != list(INFLUENCE_TRACKS):
                errors.append(
                    "influence_tracks: " + _("iron_throne, fiefdoms, kings_court in this order (W-1.8)")
                )
            if [t["dominance_token"] for t in data] != list(DOMINANCE_TOKENS):
                errors.append(
                    "influence_tracks: "
                    + _("dominance tokens iron_throne, valyrian_steel_blade, messenger_raven")
                )
        elif key == "wildling_track":
            pos = data["positions"]
            if not (isinstance(pos, list) and pos == sorted(pos) and all(is_nat(p) for p in pos)):
                errors.append("wildling_track: " + _("positions are rising non-negative integers"))
            elif data["start"] not in pos or data["attack_at"] != pos[-1]:
                errors.append(
                    "wildling_track: " + _("start is a position and attack_at is the last one (W-16)")
                )
        elif key == "rounds":
            if not (is_int(data["max"]) and data["max"] >= 1):
                errors.append("rounds: " + _("max is a positive integer"))
        elif key == "victory":
            if not (is_int(data["castles_to_win"]) and data["castles_to_win"] >= 1):
                errors.append("victory: " + _("castles_to_win is a positive integer (W-18)"))
        else:
            errors.append(
                _("unknown track table %(key)s; known: %(keys)s")
                % {"key": repr(key), "keys": ", ".join(TRACK_TABLE_KEYS)}
            )
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        errors.append(
            f"{key}: " + _("malformed table (%(error)s)") % {"error": f"{type(exc).__name__}: {exc}"}
        )
    return errors


def tracks_errors(t: Any) -> tuple[list[str], dict[str, Any]]:
    """Check the tracks section; returns (errors, the tables that passed, by key)."""
    if not isinstance(t, dict):
        return ["tracks: " + _("expected an object")], {}
    errors: list[str] = []
    good: dict[str, Any] = {}
    for key in TRACK_TABLE_KEYS:
        if key not in t:
            errors.append("tracks: " + _("missing table %(key)s") % {"key": key})
            continue
        table_errors = track_table_errors(key, t[key])
        errors += [f"tracks: {e}" for e in table_errors]
        if not table_errors:
            good[key] = t[key]
    return errors, good
