"""Unit statistics (C-2.3 edge squares) and continuous abilities: static, attached (C-1.3) and
Formation X (C-7.6), cached until the battlefield changes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import GameState


def bonuses(st: GameState) -> dict[int, list[int]]:
    """uid -> [power bonus, health bonus, range 0/1] from static, formation and attached abilities.

    Cached until a unit enters, moves or leaves or an event attaches (the only things it depends on).
    """
    cached = st.cont_cache
    if cached is not None:
        return cached
    out: dict[int, list[int]] = {}
    st.cont_cache = out
    if not _has_cont_sources(st):
        return out
    defs = st.defs
    largest: dict[int, int] = {}
    for u in list(st.units.values()):
        d = defs[u.id]
        sources: list[tuple[int, Mapping[str, Any], int]] = []  # (source id, ability, anchor unit)
        if d.has_continuous:
            for trig in ("static", "formation"):
                for idx in d.by_trigger.get(trig, ()):
                    ab = d.abilities[idx]
                    if trig == "formation":  # C-7.6: any X connected own units, this one or not
                        if u.owner not in largest:
                            largest[u.owner] = largest_group(st, u.owner)
                        if largest[u.owner] < ab["x"]:
                            continue
                    sources.append((u.id, ab, u.id))
        for ev in u.attached:
            ed = defs[ev]
            for idx in ed.by_trigger.get("attached", ()):
                sources.append((ev, ed.abilities[idx], u.id))
        for src, ab, anchor in sources:
            controller = st.owners[src]
            for eff in ab["effects"]:
                for t in _cont_targets(st, eff["target"], anchor, controller):
                    bonus = out.setdefault(t, [0, 0, 0])
                    name = eff["effect"]
                    if name == "modify_power":
                        bonus[0] += eff["amount"]
                    elif name == "modify_health":
                        bonus[1] += eff["amount"]
                    elif name == "grant_range_attack":
                        bonus[2] = 1
    return out


def largest_group(st: GameState, owner: int) -> int:
    """C-7.6: the size of ``owner``'s largest group of own units connected by adjacency (C-2.5)."""
    groups: dict[int, int] = {}
    _group_sizes(st, owner, groups)
    return max(groups.values(), default=0)


def formation_holds(st: GameState, owner: int, x: int) -> bool:
    """C-7.6 Formation X: ``owner`` has X or more own units connected to one another (any of them)."""
    return largest_group(st, owner) >= x


def ability_condition_holds(st: GameState, uid: int, ability: Mapping[str, Any]) -> bool:
    """C-7.6: an activated ability with ``x`` is usable only while its owner's Formation X holds."""
    x = ability.get("x")
    return x is None or formation_holds(st, st.owners[uid], x)


def _group_sizes(st: GameState, owner: int, groups: dict[int, int]) -> None:
    """C-7.6: size of each connected group (C-2.5 adjacency) of ``owner``'s units."""
    board, units, nb = st.board, st.units, st.nb
    for u in units.values():
        if u.owner != owner or u.id in groups:
            continue
        comp = [u.id]
        seen = {u.id}
        stack = [u.sq]
        while stack:
            sq = stack.pop()
            for s in nb[sq]:
                t = board[s]
                if t is not None and t not in seen and units[t].owner == owner:
                    seen.add(t)
                    comp.append(t)
                    stack.append(s)
        for t in comp:
            groups[t] = len(comp)


def _cont_targets(st: GameState, target: str, anchor: int, controller: int) -> list[int]:
    units = st.units
    if target in ("self", "attached_unit"):
        return [anchor] if anchor in units else []
    if target in ("adjacent_enemy_units", "adjacent_friendly_units"):
        if anchor not in units:
            return []
        want_enemy = target == "adjacent_enemy_units"
        out = []
        for s in st.nb[units[anchor].sq]:
            t = st.board[s]
            if t is not None and t != anchor and (units[t].owner != controller) == want_enemy:
                out.append(t)
        return out
    if target == "all_enemy_units":
        return [t for t, u in units.items() if u.owner != controller]
    if target == "all_friendly_units":
        return [t for t, u in units.items() if u.owner == controller]
    if target == "all_other_friendly_units":
        return [t for t, u in units.items() if u.owner == controller and t != anchor]
    return []


def _has_cont_sources(st: GameState) -> bool:
    defs = st.defs
    for u in st.units.values():
        if u.attached or defs[u.id].has_continuous:
            return True
    return False


def stats(st: GameState, uid: int, cont: dict[int, list[int]] | None = None) -> tuple[int, int, bool]:
    """(Power, Health after edge reduction C-2.3, has Range Attack) of a unit on the battlefield."""
    if cont is None:
        cont = bonuses(st)
    u = st.units[uid]
    d = st.defs[uid]
    b = cont.get(uid)
    bp, bh, br = (b[0], b[1], b[2]) if b else (0, 0, 0)
    power = max(0, d.power + u.pmod + u.tpmod + bp)
    health = max(0, d.health + u.hmod + u.thmod + bh) - st.edge[u.sq]
    ranged = "range_attack" in d.keywords or u.range_perm or u.range_turn or bool(br)
    return power, health, ranged


def has_range(st: GameState, uid: int) -> bool:
    """C-7.1: keyword, granted (grant_range_attack) or continuous."""
    u = st.units[uid]
    if "range_attack" in st.defs[uid].keywords or u.range_perm or u.range_turn:
        return True
    b = bonuses(st).get(uid)
    return bool(b and b[2])
