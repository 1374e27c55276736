"""Combat (C-5.6, C-5.7, C-7.1, C-7.4, C-7.5): arrows, attack options, attacks, defeats and the state
check after every action and damage event (C-6.3), including the check that closes each effect of an
ability (``effect_done``; defeats it causes count for Spoil through ``cause_of``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board, continuous, pending, results
from .actions import (
    square_name,
)
from .board import (
    LINES,
    ROTATE,
)
from .pending import Resolution, TriggerContext
from .results import Reason

if TYPE_CHECKING:
    from .state import GameState


def arrows_of(st: GameState, uid: int) -> tuple[str, ...]:
    """C-1.2: the unit's arrows as absolute board directions (rotated for the second player)."""
    d = st.defs[uid]
    if st.config.rotate_second_player_arrows and st.owners[uid] != st.first:
        return tuple(ROTATE[a] for a in d.arrows)
    return d.arrows


def attack_options(st: GameState, uid: int) -> list[tuple[str, int]]:
    """C-5.6 / C-7.1: (direction, target) pairs the unit may attack now."""
    u = st.units[uid]
    board = st.board
    units = st.units
    ranged = continuous.has_range(st, uid)
    enemy_only = st.config.only_enemy_targets
    blocked = st.config.range_attack_blocked
    out = []
    for a in arrows_of(st, uid):
        line = LINES[u.sq][a]
        if not line:
            continue
        if ranged:
            for s in line:
                t = board[s]
                if t is None:
                    continue
                if not enemy_only or units[t].owner != u.owner:
                    out.append((a, t))
                if blocked:
                    break
        else:
            t = board[line[0]]
            if t is not None and (not enemy_only or units[t].owner != u.owner):
                out.append((a, t))
    return out


def attack(st: GameState, uid: int, target: int) -> None:
    """C-5.6: ``uid`` attacks ``target``: damage (C-7.4 Marking bonus), the state check, strike-back, triggers."""
    u = st.units[uid]
    t = st.units[target]
    u.attacked = True
    t.hit_turn = st.turn
    power, _, ranged = continuous.stats(st, uid)
    damage = power
    if ranged and target in st.marks:
        damage += st.config.marking_bonus * st.marks[target]
    t.damage += damage
    st.event("attack", card=uid, target=target, damage=damage)
    if "marking" in st.defs[uid].keywords and t.owner != u.owner:  # C-7.4: an ENEMY unit
        st.marks[target] = st.marks.get(target, 0) + 1 if st.config.marking_stacks else 1
    settle(st, uid)
    if st.outcome_ is not None:
        return
    if st.config.strike_back and target in st.units and uid in st.units:
        back = continuous.stats(st, target)[0]
        st.units[uid].damage += back
        st.event("strike_back", card=target, target=uid, damage=back)
        settle(st, target)
    d = st.defs[uid]
    for trig in ("marking", "on_attack"):
        for idx in d.by_trigger.get(trig, ()):
            pending.queue(st, uid, idx, u.owner, TriggerContext(attack_target=target))


def defeat(st: GameState, uid: int, cause: int | None) -> None:
    """C-5.7: to the Defeated zone face up; queue on_defeated and the causer's Spoil (C-7.5)."""
    u = board.leave(st, uid)
    owner = u.owner
    st.sides[owner].defeated.append(uid)
    st.event("defeated", card=uid, player=owner, square=square_name(u.sq))
    for idx in st.defs[uid].by_trigger.get("on_defeated", ()):
        pending.queue(st, uid, idx, owner, TriggerContext(square=u.sq))
    if (
        cause is not None
        and cause != uid
        and st.owners[cause] != owner
        and st.defs[cause].is_unit
        and (st.config.spoil_from_departed_source or cause in st.units)
    ):
        for idx in st.defs[cause].by_trigger.get("spoil", ()):
            pending.queue(st, cause, idx, st.owners[cause], TriggerContext(defeated=uid))


def settle(st: GameState, cause: int | None) -> None:
    """C-6.3 / C-5.7: defeat every unit whose damage reaches its Health, then check C-6.1."""
    while st.units:
        cont = continuous.bonuses(st)
        defs, edge = st.defs, st.edge
        if cont:  # the Health of ``stats`` (C-2.3), inlined: this check runs after every action
            dead = []
            for uid, u in st.units.items():
                b = cont.get(uid)
                bonus = b[1] if b else 0
                if u.damage >= max(0, defs[uid].health + u.hmod + u.thmod + bonus) - edge[u.sq]:
                    dead.append(uid)
        else:
            dead = [
                uid
                for uid, u in st.units.items()
                if u.damage >= max(0, defs[uid].health + u.hmod + u.thmod) - edge[u.sq]
            ]
        if not dead:
            break
        for uid in sorted(dead):
            if uid in st.units:
                defeat(st, uid, cause)
    lose = [len(s.defeated) >= st.config.defeated_to_lose for s in st.sides]
    if lose[0] or lose[1]:  # C-6.1
        results.finish(st, None if lose[0] and lose[1] else (1 if lose[0] else 0), Reason.SIX_DEFEATED)


def cause_of(st: GameState, r: Resolution) -> int | None:
    """The unit an ability's defeats count as caused by (C-7.5 Spoil): its source, if a unit."""
    src = r.trigger.source
    return src if st.defs[src].is_unit else None


def effect_done(st: GameState, r: Resolution) -> None:
    """An ability's effect is over: the next one, after the state check (C-6.3)."""
    r.effect += 1
    settle(st, cause_of(st, r))
