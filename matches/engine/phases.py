"""The declared turn structure (C-4 set-up steps, C-5 phases): the steps ``_advance`` walks (STYLE.md 6).

Automatic steps run in ``_run_step``; input steps wait for an action; queued steps (``ops``) run first.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .results import Reason

if TYPE_CHECKING:
    from .state import GameState


class Step(StrEnum):
    """Where the match is in C-4 set-up and the C-5 turn (declared turn structure)."""

    COMMANDER = "commander"
    MULLIGAN = "mulligan"
    TURN_START = "turn_start"
    START_CP = "start_cp"
    PLANNING = "planning"
    PLANNING_END = "planning_end"
    DEFENDING_START = "defending_start"
    DEFENDING = "defending"
    COMBAT = "combat"
    COMBAT_END = "combat_end"
    END = "end"
    END_CHECK = "end_check"
    OVER = "over"


INPUT_STEPS = frozenset({Step.COMMANDER, Step.MULLIGAN, Step.PLANNING, Step.DEFENDING, Step.COMBAT})


PHASE_OF = {
    Step.COMMANDER: "setup",
    Step.MULLIGAN: "setup",
    Step.TURN_START: "planning",
    Step.START_CP: "planning",
    Step.PLANNING: "planning",
    Step.PLANNING_END: "planning",
    Step.DEFENDING_START: "defending",
    Step.DEFENDING: "defending",
    Step.COMBAT: "combat",
    Step.COMBAT_END: "combat",
    Step.END: "end",
    Step.END_CHECK: "end",
    Step.OVER: "over",
}


def _advance(self: GameState) -> None:
    """Run automatic rules until a player must act or the match ends (C-5 declared steps)."""
    while self.outcome_ is None:
        if self.decision is not None:
            return
        if self.resolution is not None:
            self._resume()
            continue
        if self.triggers:
            self._next_trigger()
            continue
        if self.ops:
            self._run_op(self.ops.pop())
            continue
        if self.step in INPUT_STEPS:
            return
        self._run_step()


def _run_step(self: GameState) -> None:
    step = self.step
    ap = self.active
    if step is Step.TURN_START:
        # C-5.1 / C-7.3: start-of-turn, Casting and start-of-Planning abilities of the active player.
        for uid in self._units_of(ap):
            d = self.defs[uid]
            u = self.units[uid]
            for idx in d.by_trigger.get("start_of_turn", ()):
                self._queue(uid, idx, ap, {})
            if u.hit_turn != self.turn - 1:
                for idx in d.by_trigger.get("casting", ()):
                    self._queue(uid, idx, ap, {})
            for idx in d.by_trigger.get("start_of_planning", ()):
                self._queue(uid, idx, ap, {})
        self.step = Step.START_CP
    elif step is Step.START_CP:
        gain = self.config.first_turn_cp if self.turn == 1 else self.config.cp_per_turn  # C-4.6, C-5.1
        self.sides[ap].cp += gain
        self._ev("cp", player=ap, amount=gain)
        self.step = Step.PLANNING
    elif step is Step.PLANNING_END:
        if self._no_unit_loss():  # C-5.4
            return
        self.sides[ap].cp = 0  # C-5.4 unspent CP is lost
        self.step = Step.DEFENDING_START
    elif step is Step.DEFENDING_START:
        dp = 1 - ap
        for uid in self._units_of(dp):  # C-5.5
            for idx in self.defs[uid].by_trigger.get("start_of_defending", ()):
                self._queue(uid, idx, dp, {})
        self.step = Step.DEFENDING
    elif step is Step.COMBAT_END:
        for u in self.units.values():  # C-5.8
            u.damage = 0
        self.step = Step.END
        self._settle(None)
    elif step is Step.END:
        players = [ap] if self.config.hand_limit_active_only else [ap, 1 - ap]
        for p in reversed(players):
            self.ops.append({"op": "hand_limit", "player": p})
        self.step = Step.END_CHECK
    elif step is Step.END_CHECK:
        self._end_turn()
    else:  # pragma: no cover - input steps never reach here
        raise AssertionError(step)


def _end_turn(self: GameState) -> None:
    ap = self.active
    if self._no_unit_loss():  # C-5.10
        return
    for u in self.units.values():
        u.tpmod = u.thmod = 0
        u.range_turn = False
        u.attacked = False
    self.marks.clear()
    self.used.clear()
    self.sides[ap].cp = 0  # C-5.11: remaining CP of both players (RulesConfig.cp_reset_active_only)
    if not self.config.cp_reset_active_only:
        self.sides[1 - ap].cp = 0
    self._settle(None)
    if self.outcome_ is not None:
        return
    if self.turn >= 2 * self.config.turn_limit:  # C-6.5 Decision
        d0, d1 = len(self.sides[0].defeated), len(self.sides[1].defeated)
        self._finish(None if d0 == d1 else (0 if d0 < d1 else 1), Reason.TURN_LIMIT)
        return
    self.turn += 1
    self.active = 1 - ap
    self.step = Step.TURN_START
    self._ev("turn", turn=self.turn, player=self.active)


def _run_op(self: GameState, op: dict[str, Any]) -> None:
    kind = op["op"]
    if kind == "deploy":
        self._place(op["card"], op["square"])
    elif kind == "event":
        self._resolve_event(op["card"], op.get("target"))
    elif kind == "retire":
        c = op["card"]
        if c in self.limbo:
            self.limbo.remove(c)
            self.sides[self.owners[c]].retired.append(c)
    elif kind == "activate":
        self._start_trigger(
            {"source": op["card"], "ability": op["ability"], "controller": op["player"], "ctx": {}}
        )
    elif kind == "hand_limit":
        p = op["player"]
        extra = len(self.sides[p].hand) - self.config.hand_limit
        if extra > 0:  # C-5.9
            self._card_choice("discard", p, "hand", extra, reason="hand_limit")
    else:  # pragma: no cover
        raise AssertionError(kind)
