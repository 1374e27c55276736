"""Combat (C-5.6, C-5.7, C-7.1, C-7.4, C-7.5): arrows, attack options, attacks, defeats and the state
check after every action and damage event (C-6.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    square_name,
)
from .board import (
    LINES,
    ROTATE,
)
from .pending import TriggerContext
from .results import Reason

if TYPE_CHECKING:
    from .state import GameState


def arrows_of(self: GameState, uid: int) -> tuple[str, ...]:
    """C-1.2: the unit's arrows as absolute board directions (rotated for the second player)."""
    d = self.defs[uid]
    if self.config.rotate_second_player_arrows and self.owners[uid] != self.first:
        return tuple(ROTATE[a] for a in d.arrows)
    return d.arrows


def attack_options(self: GameState, uid: int) -> list[tuple[str, int]]:
    """C-5.6 / C-7.1: (direction, target) pairs the unit may attack now."""
    u = self.units[uid]
    board = self.board
    units = self.units
    ranged = self.has_range(uid)
    enemy_only = self.config.only_enemy_targets
    blocked = self.config.range_attack_blocked
    out = []
    for a in self.arrows_of(uid):
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


def _attack(self: GameState, uid: int, target: int) -> None:
    u = self.units[uid]
    t = self.units[target]
    u.attacked = True
    t.hit_turn = self.turn
    power, _, ranged = self.stats(uid)
    damage = power
    if ranged and target in self.marks:
        damage += self.config.marking_bonus * self.marks[target]
    t.damage += damage
    self._ev("attack", card=uid, target=target, damage=damage)
    if "marking" in self.defs[uid].keywords and t.owner != u.owner:  # C-7.4: an ENEMY unit
        self.marks[target] = self.marks.get(target, 0) + 1 if self.config.marking_stacks else 1
    self._settle(uid)
    if self.outcome_ is not None:
        return
    if self.config.strike_back and target in self.units and uid in self.units:
        back = self.stats(target)[0]
        self.units[uid].damage += back
        self._ev("strike_back", card=target, target=uid, damage=back)
        self._settle(target)
    d = self.defs[uid]
    for trig in ("marking", "on_attack"):
        for idx in d.by_trigger.get(trig, ()):
            self._queue(uid, idx, u.owner, TriggerContext(attack_target=target))


def _defeat(self: GameState, uid: int, cause: int | None) -> None:
    """C-5.7: to the Defeated zone face up; queue on_defeated and the causer's Spoil (C-7.5)."""
    u = self._leave(uid)
    owner = u.owner
    self.sides[owner].defeated.append(uid)
    self._ev("defeated", card=uid, player=owner, square=square_name(u.sq))
    for idx in self.defs[uid].by_trigger.get("on_defeated", ()):
        self._queue(uid, idx, owner, TriggerContext(square=u.sq))
    if (
        cause is not None
        and cause != uid
        and self.owners[cause] != owner
        and self.defs[cause].is_unit
        and (self.config.spoil_from_departed_source or cause in self.units)
    ):
        for idx in self.defs[cause].by_trigger.get("spoil", ()):
            self._queue(cause, idx, self.owners[cause], TriggerContext(defeated=uid))


def _settle(self: GameState, cause: int | None) -> None:
    """C-6.3 / C-5.7: defeat every unit whose damage reaches its Health, then check C-6.1."""
    while self.units:
        cont = self._continuous()
        defs, edge = self.defs, self._edge
        if cont:  # the Health of ``stats`` (C-2.3), inlined: this check runs after every action
            dead = []
            for uid, u in self.units.items():
                b = cont.get(uid)
                bonus = b[1] if b else 0
                if u.damage >= max(0, defs[uid].health + u.hmod + u.thmod + bonus) - edge[u.sq]:
                    dead.append(uid)
        else:
            dead = [
                uid
                for uid, u in self.units.items()
                if u.damage >= max(0, defs[uid].health + u.hmod + u.thmod) - edge[u.sq]
            ]
        if not dead:
            break
        for uid in sorted(dead):
            if uid in self.units:
                self._defeat(uid, cause)
    lose = [len(s.defeated) >= self.config.defeated_to_lose for s in self.sides]
    if lose[0] or lose[1]:  # C-6.1
        self._finish(None if lose[0] and lose[1] else (1 if lose[0] else 0), Reason.SIX_DEFEATED)
