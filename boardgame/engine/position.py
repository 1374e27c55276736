"""Westeros position format (docs/westeros-position.md): build a state for scenario tests.

A position is a JSON object; every field but `houses`/`player_count` is optional and overrides
the fresh set-up of that game. `start` says which step of the round the game resumes at.
"""

from __future__ import annotations

from typing import Any

from .config import RulesConfig
from .data import TRACKS, GameData
from .game import ROUND_STRUCTURE, WesterosState, new_game
from .structures import Order, Phase, Step, Task, Units

STARTS = ("westeros", "planning", "action", "wildling_attack", "clash_of_kings")


def _steps(phases: tuple[Phase, ...]) -> list[Step]:
    return [Step(Task(s.value), phase=ph) for ph, steps in ROUND_STRUCTURE if ph in phases for s, _w in steps]


def parse_units(spec: dict[str, Any]) -> dict[str, Units]:
    """`{"area": ["house", "footman", "routed knight", ...]}` → the engine's unit map."""
    out: dict[str, Units] = {}
    for area, items in spec.items():
        if isinstance(items, dict):
            out[area] = Units(items["house"], tuple(items["units"]), tuple(items.get("routed", [])))
            continue
        house, *rest = items
        routed = tuple(r.split(" ", 1)[1] for r in rest if r.startswith("routed "))
        out[area] = Units(house, tuple(r for r in rest if not r.startswith("routed ")), routed)
    return out


def from_position(
    game_data: GameData, position: dict[str, Any], config: RulesConfig | None = None
) -> WesterosState:
    """Build a game from a position object (see docs/westeros-position.md)."""
    p = position
    st = new_game(
        game_data,
        houses=p.get("houses"),
        player_count=p.get("player_count"),
        seed=int(p.get("seed", 0)),
        config=config if config is not None or "config" not in p else RulesConfig.from_dict(p["config"]),
    )
    areas = game_data.areas
    if "units" in p:
        st.units = parse_units(p["units"])
        for a, u in st.units.items():
            if a not in areas:
                raise ValueError(f"unknown area {a!r}")
            if u.house not in st.houses:
                raise ValueError(f"house {u.house!r} is not in this game")
    for key in ("power", "supply", "hands", "discards"):
        for h, v in p.get(key, {}).items():
            getattr(st, key)[h] = v if not isinstance(v, list) else list(v)
    if "tracks" in p:
        for t in TRACKS:
            if t in p["tracks"]:
                if sorted(p["tracks"][t]) != sorted(st.houses):
                    raise ValueError(f"track {t} must list every house once")
                st.tracks[t] = list(p["tracks"][t])
    for key in ("tokens", "garrisons", "neutral"):
        if key in p:
            setattr(st, key, dict(p[key]))
    for key in ("round", "threat", "blade_used", "raven_used"):
        if key in p:
            setattr(st, key, p[key])
    st.bans = list(p.get("bans", []))
    st.orders = {}
    for area, tok in p.get("orders", {}).items():
        owner = st.owner(area)
        if owner is None or tok not in game_data.tokens:
            raise ValueError(f"order {tok!r} in {area!r} needs a known token and units there")
        st.orders[area] = Order(owner, tok)
    for k, top in enumerate(p.get("westeros_top", [])):
        if top is None:
            continue
        deck = st.wdecks[str(k + 1)]
        key = top if ":" in top else f"{k + 1}:{top}"
        deck.remove(key)
        deck.insert(0, key)
    wild_top = list(p.get("wildling_top", []))
    if len(set(wild_top)) != len(wild_top) or not set(wild_top) <= set(st.wildling_deck):
        raise ValueError(f"wildling_top must name distinct wildling cards, not {wild_top}")
    for i, card in enumerate(wild_top):
        st.wildling_deck.remove(card)
        st.wildling_deck.insert(i, card)
    start = p.get("start", "planning")
    if start not in STARTS:
        raise ValueError(f"start must be one of {STARTS}")
    st.pending = None
    st.combat = None
    st.march = None
    st.invalidate_control()
    agenda: list[Step]
    if start == "westeros":
        st.round = int(p.get("round", 2)) - 1
        agenda = _steps((Phase.WESTEROS, Phase.PLANNING, Phase.ACTION))
    elif start == "planning":
        agenda = _steps((Phase.PLANNING, Phase.ACTION))
    elif start == "action":
        st.orders_revealed = True
        agenda = _steps((Phase.ACTION,))
    elif start == "wildling_attack":
        agenda = [Step(Task.WILDLING_ATTACK, strength=p.get("wildling_strength"), exclude=None)]
        agenda += [
            Step(Task.RECONCILE, houses=tuple(st.turn_order())),
            *_steps((Phase.PLANNING, Phase.ACTION)),
        ]
    else:
        agenda = [Step(Task.BID, purpose="clash", track=t) for t in TRACKS] + _steps(
            (Phase.PLANNING, Phase.ACTION)
        )
    st.phase = (
        Phase.ACTION if start == "action" else (Phase.WESTEROS if start != "planning" else Phase.PLANNING)
    )
    st.agenda = list(reversed(agenda))
    st.winner = None
    st.run_agenda()
    return st
