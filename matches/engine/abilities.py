"""Abilities (C-1.5) and events (C-1.3): queued triggers, their order (C-5.1, C-5.5), targets, and the
resolution of each effect in order (the effect implementations are ``effects.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .effects import (
    EFFECT_IMPLS,
)
from .pending import NO_CONTEXT, Decision, DecisionKind, Op, OpKind, Resolution, Trigger, TriggerContext
from .vocabulary import CHOSEN_TARGETS

if TYPE_CHECKING:
    from .state import GameState


TRIGGER_IMPLS: dict[str, str] = {
    "deploying": "board._place (C-7.2)",
    "casting": "phases._step_turn_start (C-7.3)",
    "spoil": "combat._defeat (C-7.5)",
    "marking": "combat._attack (C-7.4)",
    "formation": "continuous._continuous (C-7.6)",
    "start_of_turn": "phases._step_turn_start (C-5.1)",
    "start_of_planning": "phases._step_turn_start (C-5.1)",
    "start_of_defending": "phases._step_defending_start (C-5.5)",
    "on_attack": "combat._attack (C-5.6)",
    "on_defeated": "combat._defeat (C-5.7)",
    "planning_activated": "legality._legal_activations (C-5.2)",
    "defending_activated": "legality._legal_activations (C-5.5)",
    "static": "continuous._continuous",
    "on_play": "abilities._resolve_event (C-1.3)",
    "attached": "continuous._continuous (C-1.3)",
}


def _resolve_event(self: GameState, c: int, target: int | None) -> None:
    d = self.defs[c]
    p = self.owners[c]
    self._ev("event", player=p, card=c)
    ctx = NO_CONTEXT
    if d.event_type == "ongoing":
        if c in self.limbo:
            self.limbo.remove(c)
        if target is not None and target in self.units:
            self.units[target].attached.append(c)
            self._cont_cache = None
            ctx = TriggerContext(attached=target)
            self._settle(None)
        else:
            self.sides[p].retired.append(c)
    else:
        self.ops.append(Op(OpKind.RETIRE, card=c))
    for idx in d.by_trigger.get("on_play", ()):
        self._queue(c, idx, p, ctx)


def _queue(self: GameState, source: int, idx: int, controller: int, ctx: TriggerContext = NO_CONTEXT) -> None:
    """A triggered ability waits to resolve (C-5.1: in an order its controller chooses)."""
    self.triggers.append(Trigger(source, idx, controller, ctx))


def _next_trigger(self: GameState) -> None:
    """C-5.1 / C-5.5: one player's pending triggers first (``active_player_triggers_first``), each
    player choosing the order of their own (a ``choose_trigger`` decision when there are two or more)."""
    first = self.active if self.config.active_player_triggers_first else 1 - self.active
    group = [i for i, t in enumerate(self.triggers) if t.controller == first]
    if not group:
        group = list(range(len(self.triggers)))
    if len(group) == 1:
        self._start_trigger(self.triggers.pop(group[0]))
        return
    p = self.triggers[group[0]].controller
    labels = [self._trigger_label(self.triggers[i]) for i in group]
    self.choice = Decision(DecisionKind.ORDER, p, options=group, labels=labels)


def _trigger_label(self: GameState, t: Trigger) -> str:
    d = self.defs[t.source]
    ab = d.abilities[t.ability]
    return f"{d.name}: {ab.get('text') or ab['trigger']}"


def _start_trigger(self: GameState, t: Trigger) -> None:
    self._ev("trigger", card=t.source, ability=t.ability)
    self.resolution = Resolution(t)


def _cause(self: GameState, r: Resolution) -> int | None:
    """The unit an ability's defeats count as caused by (C-7.5 Spoil): its source, if a unit."""
    src = r.trigger.source
    return src if self.defs[src].is_unit else None


def _resume(self: GameState) -> None:
    """Resolve the current ability's effects in order, pausing for chosen targets (an action)."""
    r = self.resolution
    assert r is not None
    t = r.trigger
    effects = self.defs[t.source].abilities[t.ability]["effects"]
    while r.effect < len(effects):
        if self.outcome_ is not None:
            return
        eff = effects[r.effect]
        tname = eff["target"]
        if tname in CHOSEN_TARGETS:
            if r.chosen is not None:
                targets = [r.chosen] if r.chosen in self.units else []
                r.chosen = None
            else:
                opts = self._chosen_options(tname, r)
                if not opts:
                    r.effect += 1
                    continue
                if len(opts) > 1:
                    self.choice = Decision(
                        DecisionKind.TARGET, t.controller, options=opts, effect=eff["effect"], source=t.source
                    )
                    return
                targets = opts
        else:
            targets = self._fixed_targets(tname, r)
        if not self._do_effect(eff, targets, r):
            return  # waits for a decision; the answer finishes the effect
        r.effect += 1
        self._settle(self._cause(r))
    if self.resolution is r:
        self.resolution = None


def _effect_done(self: GameState, r: Resolution) -> None:
    r.effect += 1
    self._settle(self._cause(r))


def _chosen_options(self: GameState, tname: str, r: Resolution) -> list[int]:
    c = r.trigger.controller
    src = r.trigger.source
    units = self.units
    if tname == "chosen_enemy_unit":
        return sorted(t for t, u in units.items() if u.owner != c)
    if tname == "chosen_friendly_unit":
        return sorted(t for t, u in units.items() if u.owner == c)
    if tname == "chosen_other_friendly_unit":
        return sorted(t for t, u in units.items() if u.owner == c and t != src)
    return sorted(units)  # chosen_unit


def _anchor(self: GameState, r: Resolution) -> int | None:
    """The square an ability is measured from: the unit itself, else its last square (on_defeated)."""
    src = r.trigger.source
    if src in self.units:
        return self.units[src].sq
    att = r.trigger.ctx.attached
    if att is not None and att in self.units:
        return self.units[att].sq
    return r.trigger.ctx.square


def _fixed_targets(self: GameState, tname: str, r: Resolution) -> list[int]:
    """Targets that need no choice: unit ids, or player indexes (0/1) for ``controller`` / ``opponent``."""
    c = r.trigger.controller
    src = r.trigger.source
    ctx = r.trigger.ctx
    units = self.units
    if tname == "self":
        if src in units:
            return [src]
        att = ctx.attached
        return [att] if att is not None and att in units else []
    if tname == "attached_unit":
        att = ctx.attached
        if att is None:
            for uid, u in units.items():
                if src in u.attached:
                    att = uid
        return [att] if att is not None and att in units else []
    if tname == "attack_target":
        t = ctx.attack_target
        return [t] if t is not None and t in units else []
    if tname == "defeated_unit":
        t = ctx.defeated
        return [t] if t is not None else []
    if tname in ("adjacent_enemy_units", "adjacent_friendly_units"):
        sq = self._anchor(r)
        if sq is None:
            return []
        want_enemy = tname == "adjacent_enemy_units"
        out = []
        for s in self._nb[sq]:
            t = self.board[s]
            if t is not None and t != src and (units[t].owner != c) == want_enemy:
                out.append(t)
        return sorted(out)
    if tname == "all_enemy_units":
        return sorted(t for t, u in units.items() if u.owner != c)
    if tname == "all_friendly_units":
        return sorted(t for t, u in units.items() if u.owner == c)
    if tname == "all_other_friendly_units":
        return sorted(t for t, u in units.items() if u.owner == c and t != src)
    if tname == "controller":
        return [c]
    if tname == "opponent":
        return [1 - c]
    raise AssertionError(f"unknown target {tname}")


def _do_effect(self: GameState, eff: Mapping[str, Any], targets: Sequence[int], r: Resolution) -> bool:
    """Apply one effect (C-1.5). Returns False when it waits for a player's choice."""
    return EFFECT_IMPLS[eff["effect"]](self, eff, list(targets), r, r.trigger.source)


def _continue_moves(self: GameState, r: Resolution) -> bool:
    """Move effect: ask for each target's destination in turn; True when all are done."""
    moving = r.moving
    assert moving is not None
    while moving:
        uid = moving[0]
        if uid not in self.units:
            moving.pop(0)
            continue
        opts = self.move_squares(uid)
        if not opts:
            moving.pop(0)
            continue
        if len(opts) == 1:
            moving.pop(0)
            self._move_unit(uid, opts[0])
            self._settle(self._cause(r))
            continue
        self.choice = Decision(DecisionKind.MOVE_SQUARE, r.trigger.controller, options=opts, unit=uid)
        return False
    r.moving = None
    return True
