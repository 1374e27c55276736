"""The vocabulary of the Westeros data format: section names, ids, keys and the small checks every section
shares. No database; `boardgame.validation` checks whole sections with it and `boardgame.models` takes its
choices from it. The checks' messages are worded in the active language (gettext), like the validation's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

DOMINANCE_TOKENS = ("iron_throne", "valyrian_steel_blade", "messenger_raven")
INFLUENCE_TRACKS = ("iron_throne", "fiefdoms", "kings_court")
# The Westeros card effect types the engine knows (WesterosCard.effect_type's choices).
WESTEROS_EFFECT_TYPES = (
    "supply",
    "mustering",
    "bidding",
    "power",
    "choice",
    "reshuffle",
    "nothing",
    "order_restriction",
    "wildlings_attack",
)
UNIT_TYPES = ("footman", "knight", "ship", "siege_engine")
HOUSE_CARD_TIMINGS = (
    "none",
    "cancel",
    "immediately",
    "strength",
    "casualties",
    "on_win",
    "on_loss",
    "after_combat",
)
TRACK_TABLE_KEYS = (
    "supply_track",
    "order_tokens",
    "special_orders_by_kings_court",
    "unit_types",
    "unit_limits_per_house",
    "mustering_points",
    "power_tokens",
    "influence_tracks",
    "wildling_track",
    "rounds",
    "victory",
)
KIND_ORDER = {"land": 0, "sea": 1, "port": 2}

GAME_SECTIONS = ("map", "setup", "house_cards", "westeros_cards", "wildling_cards", "tracks")
ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,59}$")  # snake_case, at most 60 characters (slug fields)
UNIT_DOMAINS = {"footman": ("land",), "knight": ("land",), "siege_engine": ("land",), "ship": ("sea", "port")}
HOUSE_CARD_STRENGTHS = [0, 1, 1, 2, 2, 3, 4]  # W-17.1, sorted
TRACK_TO_TOKEN = dict(zip(INFLUENCE_TRACKS, DOMINANCE_TOKENS, strict=True))  # W-1.9
EFFECT_TYPES = set(WESTEROS_EFFECT_TYPES)
UNIT_CHOICES = set(UNIT_TYPES)

# The translatable fields of each record with the English field's length bound (None: any length); a
# record may carry them as "translations": {"th": {...}, "zh-hans": {...}} (docs/westeros-data.md).
AREA_TRANSLATED: dict[str, int | None] = {"name": 80}
HOUSE_TRANSLATED: dict[str, int | None] = {"name": 60}
HOUSE_CARD_TRANSLATED: dict[str, int | None] = {"name": 80, "effect": None}
WESTEROS_CARD_TRANSLATED: dict[str, int | None] = {"name": 80, "effect": None}
WILDLING_CARD_TRANSLATED: dict[str, int | None] = {
    "name": 80,
    "highest_bidder": None,
    "lowest_bidder": None,
    "everyone_else": None,
}

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


def outline_problem(outline: Any) -> str | None:
    """Why an outline is not a polygon of at least 3 [x, y] number pairs, or None if it is fine (empty is fine)."""
    if outline in (None, []):
        return None
    if not isinstance(outline, list) or len(outline) < 3:
        return _("An outline is a list of at least 3 [x, y] points.")
    for point in outline:
        if (
            not isinstance(point, list)
            or len(point) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in point)
        ):
            return _("Outline point %(point)s is not an [x, y] pair of numbers.") % {"point": repr(point)}
    return None


# --------------------------------------------------------------------------------------------------
# Validation of the dict format (pure functions; every problem is reported, none raises)
# --------------------------------------------------------------------------------------------------


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_nat(value: Any) -> bool:
    return is_int(value) and value >= 0


def keys_problem(obj: Any, required: set[str], optional: Iterable[str], where: str) -> str | None:
    """Why `obj` is not a dict with exactly these keys, or None."""
    if not isinstance(obj, dict):
        return f"{where}: " + _("expected an object")
    missing = sorted(required - set(obj))
    unknown = sorted(set(obj) - required - set(optional))
    parts = []
    if missing:
        parts.append(_("missing %(fields)s") % {"fields": ", ".join(missing)})
    if unknown:
        parts.append(_("unknown field(s) %(fields)s") % {"fields": ", ".join(unknown)})
    return f"{where}: {'; '.join(parts)}" if parts else None


# How `entry_id` names an entry of a section's list: by its number, and when its id is malformed.
ENTRY_WORDS = {
    "area": (
        gettext_noop("area #%(number)s"),
        gettext_noop("area id %(id)s is not a snake_case id (at most %(limit)s characters)"),
    ),
    "card": (
        gettext_noop("card #%(number)s"),
        gettext_noop("card id %(id)s is not a snake_case id (at most %(limit)s characters)"),
    ),
}


def entry_id(
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
    keys or a malformed id). `noun` is "area" or "card"."""
    number, bad_id = ENTRY_WORDS[noun]
    problem = keys_problem(entry, required, optional, f"{section}: " + _(number) % {"number": n + 1})
    if problem:
        errors.append(problem)
        return None
    i = entry["id"]
    if not isinstance(i, str) or not ID_RE.match(i):
        errors.append(f"{section}: " + _(bad_id) % {"id": repr(i), "limit": 60})
        return None
    return i
