"""The position format (docs/commandeer-position.md): ``to_dict`` and loading, byte-compatible with
stored matches."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from random import Random
from typing import TYPE_CHECKING, Any

from . import phases, views
from .actions import (
    action_from_json,
    square_index,
)
from .board import (
    ZONES,
    Unit,
)
from .cards import CardDef, card_from_dict_cached
from .config import RulesConfig
from .pending import Decision, Op, Resolution, Trigger
from .results import Outcome, Reason
from .steps import Step

if TYPE_CHECKING:
    from .state import GameState


def _deep(x: Any) -> Any:
    """Copy of JSON-like data (dicts/lists of scalars)."""
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep(v) for v in x]
    return x


_SNAPSHOT_CATALOGS: dict[str, dict[str, CardDef]] = {}


_SNAPSHOT_CATALOGS_SIZE = 64


def _snapshot_catalog(cards: Mapping[str, Any]) -> dict[str, CardDef]:
    """A position's ``cards`` parsed once per distinct content (every snapshot of a match repeats them).

    Keyed by the canonical JSON of the definitions, so equal content means equal (immutable) CardDefs.
    """
    key = json.dumps(cards, sort_keys=True, separators=(",", ":"))
    hit = _SNAPSHOT_CATALOGS.get(key)
    if hit is None:
        hit = catalog_from(cards.values())
        if len(_SNAPSHOT_CATALOGS) >= _SNAPSHOT_CATALOGS_SIZE:
            try:  # oldest first; another thread may be trimming too
                _SNAPSHOT_CATALOGS.pop(next(iter(_SNAPSHOT_CATALOGS)), None)
            except (StopIteration, RuntimeError):
                pass
        _SNAPSHOT_CATALOGS[key] = hit
    return dict(hit)


def catalog_from(cards: Iterable[Mapping[str, Any] | CardDef]) -> dict[str, CardDef]:
    """Card definitions by name; two different cards with one name are a ValueError."""
    out: dict[str, CardDef] = {}
    for raw in cards:
        d = raw if isinstance(raw, CardDef) else card_from_dict_cached(raw)
        prev = out.get(d.name)
        if prev is not None and prev != d:
            raise ValueError(f"two different cards share the name {d.name!r}")
        out[d.name] = d
    return out


def load(
    cls: type[GameState],
    data: Mapping[str, Any],
    catalog: Mapping[str, Mapping[str, Any] | CardDef] | None,
    seed: int,
) -> GameState:
    """A ``cls`` state from a position (``GameState.from_dict`` checks the input and names errors)."""
    if data.get("format") != "commandeer-position":
        raise ValueError("not a commandeer-position (format field)")
    cat: dict[str, CardDef] = {}
    if catalog:
        cat.update(catalog_from(catalog.values()))
    if data.get("cards"):
        cat.update(_snapshot_catalog(data["cards"]))
    config = RulesConfig.from_dict(data.get("config"))
    rng = Random(seed)
    if data.get("rng") is not None:
        ver, internal, gauss = data["rng"]
        rng.setstate((ver, tuple(internal), gauss))
    defs: dict[int, CardDef] = {}
    owners: dict[int, int] = {}
    g = cls(config, defs, owners, rng)
    if isinstance(data.get("cards"), dict):
        g.cards_source = data["cards"]
    pending: list[tuple[dict[str, Any], str, int]] = []  # shorthand refs without id

    def ref(x: Any, owner: int) -> int:
        if isinstance(x, str):
            x = {"card": x}
        if not isinstance(x, Mapping) or "card" not in x:
            raise ValueError(f"bad card reference {x!r}")
        name = x["card"]
        if name not in cat:
            raise ValueError(f"unknown card {name!r} (give it in 'cards' or the catalog)")
        cid = x.get("id")
        if cid is None:
            holder: dict[str, Any] = {}
            pending.append((holder, name, owner))
            return -1 - (len(pending) - 1)  # placeholder, fixed below
        if cid in defs:
            raise ValueError(f"card id {cid} used twice")
        defs[cid] = cat[name]
        owners[cid] = owner
        return int(cid)

    players = data.get("players") or [{}, {}]
    for p in (0, 1):
        pd = players[p]
        side = g.sides[p]
        for zone in ZONES:
            items = [ref(x, p) for x in pd.get(zone, [])]
            if zone == "deck":
                items.reverse()  # stored top first
            side.zone(zone)[:] = items
        if pd.get("commander") is not None:
            side.commander = ref(pd["commander"], p)
        side.revealed = bool(pd.get("commander_revealed", False))
        side.cp = int(pd.get("cp", 0))
        side.mulligans = int(pd.get("mulligans", 0))
    for ud in data.get("board", []):
        owner = int(ud["owner"])
        uid = ref(ud, owner)
        sq = square_index(ud["square"])
        u = Unit(uid, owner, sq, int(ud.get("entered", 0)))
        u.damage = int(ud.get("damage", 0))
        u.pmod = int(ud.get("power_mod", 0))
        u.hmod = int(ud.get("health_mod", 0))
        u.tpmod = int(ud.get("turn_power_mod", 0))
        u.thmod = int(ud.get("turn_health_mod", 0))
        u.range_perm = bool(ud.get("range_perm", False))
        u.range_turn = bool(ud.get("range_turn", False))
        u.attacked = bool(ud.get("attacked", False))
        u.hit_turn = int(ud.get("hit_turn", -1))
        u.attached = [
            ref(e, int(e.get("owner", owner)) if isinstance(e, Mapping) else owner)
            for e in ud.get("attached", [])
        ]
        if g.board[sq] is not None:
            raise ValueError(f"two units on {ud['square']}")
        g.board[sq] = uid
        g.units[uid] = u
    g.limbo = [ref(x, int(x["owner"])) for x in data.get("limbo", [])]
    # give shorthand cards fresh ids after the explicit ones
    if pending:
        nxt = max(defs, default=-1) + 1
        remap: dict[int, int] = {}
        for i, (_, name, owner) in enumerate(pending):
            defs[nxt] = cat[name]
            owners[nxt] = owner
            remap[-1 - i] = nxt
            nxt += 1

        def fix(lst: list[int]) -> list[int]:
            return [remap.get(c, c) for c in lst]

        for side in g.sides:
            for zone in ZONES:
                side.zone(zone)[:] = fix(side.zone(zone))
            if side.commander is not None:
                side.commander = remap.get(side.commander, side.commander)
        new_units: dict[int, Unit] = {}
        for uid, u in g.units.items():
            u.id = remap.get(uid, uid)
            u.attached = fix(u.attached)
            new_units[u.id] = u
            g.board[u.sq] = u.id
        g.units = new_units
        g.limbo = fix(g.limbo)
    g.turn = int(data.get("turn", 1))
    g.active = int(data.get("active", 0))
    g.first = int(data.get("first_player", 0))
    g.step = Step(data.get("step", "planning"))
    g.setup_player = int(data.get("setup_player", 0))
    for key, value in (("active", g.active), ("first_player", g.first), ("setup_player", g.setup_player)):
        if value not in (0, 1):
            raise ValueError(f"{key} must be 0 or 1, not {value}")
    if g.step is Step.OVER and data.get("outcome") is None:
        raise ValueError("step 'over' needs an outcome")
    dec, res = data.get("decision"), data.get("resolution")
    g.choice = None if dec is None else Decision.from_json(dec)
    g.resolution = None if res is None else Resolution.from_json(res)
    g.triggers = [Trigger.from_json(t) for t in data.get("triggers", [])]
    g.ops = [Op.from_json(o) for o in data.get("ops", [])]
    g.used = {(int(a), int(b)): int(c) for a, b, c in data.get("used", [])}
    g.marks = {int(a): int(b) for a, b in data.get("marks", [])}
    g.units_deployed = int(data.get("units_deployed", len(g.units)))
    out = data.get("outcome")
    if out is not None:
        g.outcome_ = Outcome(out["winner"], Reason(out["reason"]))
    g.log = []
    g.log_start = int(data.get("log_start", 0) if "log" in data else data.get("log_length", 0))
    if g.log_start < 0:
        raise ValueError("log_start/log_length must not be negative")
    for e in data.get("log", []):
        entry = dict(e)
        entry["action"] = None if e["action"] is None else action_from_json(e["action"])
        entry["events"] = _deep(e["events"])
        g.log.append(entry)
    if g.outcome_ is None:
        phases.advance(g)  # a hand-written position may stop at an automatic step (e.g. turn_start)
    return g


def to_dict(st: GameState, *, log: bool = True) -> dict[str, Any]:
    """The full state in the position format (docs/commandeer-position.md), RNG state included.

    ``log=False`` leaves the event log out and keeps only its length (``log_length``): a compact
    snapshot whose size does not grow with the match, for stores that keep the actions elsewhere
    (the online layer's action log). Rules state is identical either way.

    The card catalog (``cards``) never changes during a match: it is built once and the same
    mapping is returned by every later call, on this state and its clones. Treat the result as
    read-only (the JSON encoders do).
    """
    ver, internal, gauss = st.rng.getstate()
    sides = []
    for side in st.sides:
        sides.append(
            {
                "cp": side.cp,
                "mulligans": side.mulligans,
                "hand": [views.ref(st, c) for c in side.hand],
                "deck": [views.ref(st, c) for c in reversed(side.deck)],  # top first
                "energy": [views.ref(st, c) for c in side.energy],
                "retired": [views.ref(st, c) for c in side.retired],
                "defeated": [views.ref(st, c) for c in side.defeated],
                "removed": [views.ref(st, c) for c in side.removed],
                "commander": views.ref(st, side.commander) if side.commander is not None else None,
                "commander_revealed": side.revealed,
            }
        )
    return {
        "format": "commandeer-position",
        "version": 1,
        "config": st.config.to_dict(),
        "cards": _catalog_json(st),
        "turn": st.turn,
        "active": st.active,
        "first_player": st.first,
        "step": st.step.value,
        "setup_player": st.setup_player,
        "players": sides,
        "board": [views.unit_json(st, st.units[c], {}, False) for c in views.board_order(st)],
        "limbo": [{**views.ref(st, c), "owner": st.owners[c]} for c in st.limbo],
        "decision": None if st.choice is None else st.choice.to_json(),
        "resolution": None if st.resolution is None else st.resolution.to_json(),
        "triggers": [t.to_json() for t in st.triggers],
        "ops": [o.to_json() for o in st.ops],
        "used": [[k[0], k[1], v] for k, v in sorted(st.used.items())],
        "marks": [[k, v] for k, v in sorted(st.marks.items())],
        "units_deployed": st.units_deployed,
        "outcome": st.outcome_.to_json() if st.outcome_ else None,
        **_log_dict(st, log),
        "rng": [ver, list(internal), gauss],
    }


def _catalog_json(st: GameState) -> dict[str, Any]:
    cards = st.cards_json
    if cards is None:
        by_name = {d.name: d for d in st.defs.values()}
        cards = {n: dict(by_name[n].raw) for n in sorted(by_name)}
        if st.cards_source is not None and st.cards_source == cards:
            cards = st.cards_source  # type: ignore[assignment]
        st.cards_json = cards
    return cards


def _log_dict(st: GameState, log: bool) -> dict[str, Any]:
    """The snapshot's log part: the entries (and where they start), or only the log's length."""
    if not log:
        return {"log_length": st.log_length}
    out: dict[str, Any] = {
        "log": [
            {
                **{k: v for k, v in e.items() if k != "action"},
                "action": e["action"] and e["action"].to_json(),
            }
            for e in st.log
        ]
    }
    if st.log_start:
        out["log_start"] = st.log_start
    return out
