"""The declared turn structure (C-4 set-up steps, C-5 phases): the steps ``_advance`` walks (STYLE.md 6).

Automatic steps run by ``STEP_HANDLERS`` (a table keyed by ``Step``); input steps wait for an action;
a pending decision, the resolving ability, queued triggers and queued steps (``ops``, by ``OP_HANDLERS``)
come first.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from .pending import NO_CONTEXT, DecisionKind, Op, OpKind, Trigger
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
        if self.choice is not None:
            return
        if self.resolution is not None:
            self._resume()
            continue
        if self.triggers:
            self._next_trigger()
            continue
        if self.ops:
            op = self.ops.pop()
            OP_HANDLERS[op.kind](self, op)
            continue
        if self.step in INPUT_STEPS:
            return
        STEP_HANDLERS[self.step](self)


def _step_turn_start(self: GameState) -> None:
    """C-5.1 / C-7.3: start-of-turn, Casting and start-of-Planning abilities of the active player."""
    ap = self.active
    for uid in self._units_of(ap):
        d = self.defs[uid]
        u = self.units[uid]
        for idx in d.by_trigger.get("start_of_turn", ()):
            self._queue(uid, idx, ap)
        if u.hit_turn != self.turn - 1:
            for idx in d.by_trigger.get("casting", ()):
                self._queue(uid, idx, ap)
        for idx in d.by_trigger.get("start_of_planning", ()):
            self._queue(uid, idx, ap)
    self.step = Step.START_CP


def _step_start_cp(self: GameState) -> None:
    """C-4.6 / C-5.1: the active player gains CP."""
    ap = self.active
    gain = self.config.first_turn_cp if self.turn == 1 else self.config.cp_per_turn
    self.sides[ap].cp += gain
    self._ev("cp", player=ap, amount=gain)
    self.step = Step.PLANNING


def _step_planning_end(self: GameState) -> None:
    """C-5.4: no unit on the battlefield loses; unspent CP is lost."""
    if self._no_unit_loss():
        return
    self.sides[self.active].cp = 0
    self.step = Step.DEFENDING_START


def _step_defending_start(self: GameState) -> None:
    """C-5.5: start-of-Defending abilities of the defending player."""
    dp = 1 - self.active
    for uid in self._units_of(dp):
        for idx in self.defs[uid].by_trigger.get("start_of_defending", ()):
            self._queue(uid, idx, dp)
    self.step = Step.DEFENDING


def _step_combat_end(self: GameState) -> None:
    """C-5.8: damage is removed from every unit."""
    for u in self.units.values():
        u.damage = 0
    self.step = Step.END
    self._settle(None)


def _step_end(self: GameState) -> None:
    """C-5.9: queue the hand-limit checks (``RulesConfig.hand_limit_active_only``)."""
    ap = self.active
    players = [ap] if self.config.hand_limit_active_only else [ap, 1 - ap]
    for p in reversed(players):
        self.ops.append(Op(OpKind.HAND_LIMIT, player=p))
    self.step = Step.END_CHECK


def _end_turn(self: GameState) -> None:
    """C-5.10 / C-5.11 / C-6.5: end the turn: checks, turn-long effects end, CP reset, next player."""
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


# The automatic steps of the turn, in the order they are walked (input steps wait for an action).
STEP_HANDLERS: dict[Step, Callable[[GameState], None]] = {
    Step.TURN_START: _step_turn_start,
    Step.START_CP: _step_start_cp,
    Step.PLANNING_END: _step_planning_end,
    Step.DEFENDING_START: _step_defending_start,
    Step.COMBAT_END: _step_combat_end,
    Step.END: _step_end,
    Step.END_CHECK: _end_turn,
}


def _op_deploy(self: GameState, op: Op) -> None:
    assert op.card is not None and op.square is not None
    self._place(op.card, op.square)


def _op_event(self: GameState, op: Op) -> None:
    assert op.card is not None
    self._resolve_event(op.card, op.target)


def _op_retire(self: GameState, op: Op) -> None:
    c = op.card
    if c is not None and c in self.limbo:
        self.limbo.remove(c)
        self.sides[self.owners[c]].retired.append(c)


def _op_activate(self: GameState, op: Op) -> None:
    assert op.card is not None and op.ability is not None and op.player is not None
    self._start_trigger(Trigger(op.card, op.ability, op.player, NO_CONTEXT))


def _op_hand_limit(self: GameState, op: Op) -> None:
    p = op.player
    assert p is not None
    extra = len(self.sides[p].hand) - self.config.hand_limit
    if extra > 0:  # C-5.9
        self._card_choice(DecisionKind.DISCARD, p, "hand", extra, reason="hand_limit")


# What each queued step does.
OP_HANDLERS: dict[OpKind, Callable[[GameState, Op], None]] = {
    OpKind.DEPLOY: _op_deploy,
    OpKind.EVENT: _op_event,
    OpKind.RETIRE: _op_retire,
    OpKind.ACTIVATE: _op_activate,
    OpKind.HAND_LIMIT: _op_hand_limit,
}
