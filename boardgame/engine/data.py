"""Static Westeros data (map, setup, cards, tracks) as one immutable, indexed object.

The engine never reads a database: it takes the six shared JSON files as one dict keyed by file
stem (`GameData.from_dict`) or reads them from `boardgame/data/westeros/`
(`load_default_game_data`). A game copies this dict into its serialised state (W-2.1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

FILE_STEMS = ("map", "setup", "house_cards", "westeros_cards", "wildling_cards", "tracks")
# From the imported ``boardgame`` package: a module compiled by mypyc (docs/speed.md) has no ``__file__``
# while its top level runs.
DEFAULT_DATA_DIR = Path(str(files("boardgame"))).resolve() / "data" / "westeros"
HOUSE_ORDER = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
LAND_UNITS = ("footman", "knight", "siege_engine")
UNIT_TYPES = ("footman", "knight", "siege_engine", "ship")


class GameDataError(ValueError):
    """The data dict is missing a file or a field the engine needs."""


@dataclass(frozen=True)
class GameData:
    """Indexed, read-only view of the six Westeros data files."""

    raw: dict[str, Any]
    areas: dict[str, dict[str, Any]] = field(default_factory=dict)
    adj: dict[str, tuple[str, ...]] = field(default_factory=dict)
    house_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    cards_by_house: dict[str, tuple[str, ...]] = field(default_factory=dict)
    westeros_decks: dict[int, list[str]] = field(default_factory=dict)
    westeros_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    wildling_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    tokens: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The order tokens as (id, count, special) in the data's order: what `Board.unused_tokens` walks on
    # every order placement (W-1.6, W-5.2), without a dictionary lookup per token.
    token_specs: tuple[tuple[str, int, bool], ...] = ()
    # W-5.2: how many special orders each King's Court position allows, by player count.
    star_limits: dict[int, tuple[int, ...]] = field(default_factory=dict)
    supply_limits: tuple[tuple[int, ...], ...] = ()
    unit_limits: dict[str, int] = field(default_factory=dict)
    castle_areas: tuple[str, ...] = ()
    land_areas: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameData:
        """Build from `{"map": ..., "setup": ..., ...}` (the six files keyed by stem)."""
        missing = [s for s in FILE_STEMS if s not in d]
        if missing:
            raise GameDataError(f"game data lacks {', '.join(missing)}")
        try:
            areas = {a["id"]: a for a in d["map"]["areas"]}
            adj: dict[str, list[str]] = {a: [] for a in areas}
            for a, b in d["map"]["adjacency"]:
                adj[a].append(b)
                adj[b].append(a)
            house_cards = {c["id"]: c for c in d["house_cards"]["cards"]}
            by_house: dict[str, list[str]] = {}
            for c in d["house_cards"]["cards"]:
                by_house.setdefault(c["house"], []).append(c["id"])
            decks: dict[int, list[str]] = {1: [], 2: [], 3: []}
            wcards: dict[str, dict[str, Any]] = {}
            for c in d["westeros_cards"]["cards"]:
                key = f"{c['deck']}:{c['id']}"
                wcards[key] = c
                decks[int(c["deck"])].extend([key] * int(c["count"]))
            wild = {c["id"]: c for c in d["wildling_cards"]["cards"]}
            tokens: dict[str, dict[str, Any]] = {t["id"]: t for t in d["tracks"]["order_tokens"]["tokens"]}
            levels = sorted(d["tracks"]["supply_track"]["levels"], key=lambda lv: lv["level"])
            limits = tuple(tuple(lv["armies"]) for lv in levels)
            unit_limits = dict(d["tracks"]["unit_limits_per_house"])
            token_specs = tuple((t, int(v["count"]), bool(v["special"])) for t, v in tokens.items())
            star_limits = {
                int(n): tuple(int(x) for x in row)
                for n, row in d["tracks"]["special_orders_by_kings_court"].items()
                if n.isdigit()
            }
        except (KeyError, TypeError, ValueError) as exc:
            raise GameDataError(f"malformed game data: {exc!r}") from exc
        castles = tuple(sorted(a for a, v in areas.items() if v["kind"] == "land" and v["castle"] != "none"))
        lands = tuple(sorted(a for a, v in areas.items() if v["kind"] == "land"))
        return cls(
            raw=d,
            areas=areas,
            adj={a: tuple(sorted(v)) for a, v in adj.items()},
            house_cards=house_cards,
            cards_by_house={h: tuple(v) for h, v in by_house.items()},
            westeros_decks=decks,
            westeros_cards=wcards,
            wildling_cards=wild,
            tokens=tokens,
            token_specs=token_specs,
            star_limits=star_limits,
            supply_limits=limits,
            unit_limits=unit_limits,
            castle_areas=castles,
            land_areas=lands,
        )

    def to_dict(self) -> dict[str, Any]:
        """The six files, as given."""
        return self.raw

    def kind(self, area: str) -> str:
        return str(self.areas[area]["kind"])


def load_default_game_data(directory: str | Path | None = None) -> GameData:
    """Read the six JSON files from `boardgame/data/westeros/` (or `directory`)."""
    base = Path(directory) if directory else DEFAULT_DATA_DIR
    d = {stem: json.loads((base / f"{stem}.json").read_text(encoding="utf-8")) for stem in FILE_STEMS}
    return GameData.from_dict(_without_translations(d))


def _without_translations(data: Any) -> Any:
    """The files' records carry Thai and Chinese names (for the site, `boardgame.dataset`); a game plays the
    English data only, exactly as the curated database exports it to a new game."""
    if isinstance(data, dict):
        return {k: _without_translations(v) for k, v in data.items() if k != "translations"}
    if isinstance(data, list):
        return [_without_translations(v) for v in data]
    return data
