"""Abilities (C-1.5) and events (C-1.3): queued triggers, their order (C-5.1, C-5.5), targets, and the
resolution of each effect in order (the effect implementations are ``effects.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import combat, pending
from .effects import EFFECT_IMPLS
from .pending import NO_CONTEXT, Decision, DecisionKind, Op, OpKind, Resolution, Trigger, TriggerContext
from .vocabulary import CHOSEN_TARGETS

if TYPE_CHECKING:
    from .state import GameState


TRIGGER_IMPLS: dict[str, str] = {
    "deploying": "phases._place (C-7.2)",
    "casting": "phases._step_turn_start (C-7.3)",
    "spoil": "combat.defeat (C-7.5)",
    "marking": "combat.attack (C-7.4)",
    "formation": "continuous.bonuses (C-7.6)",
    "start_of_turn": "phases._step_turn_start (C-5.1)",
    "start_of_planning": "phases._step_turn_start (C-5.1)",
    "start_of_defending": "phases._step_defending_start (C-5.5)",
    "on_attack": "combat.attack (C-5.6)",
    "on_defeated": "combat.defeat (C-5.7)",
    "planning_activated": "legality._legal_activations (C-5.2)",
    "defending_activated": "legality._legal_activations (C-5.5)",
    "static": "continuous.bonuses",
    "on_play": "abilities.resolve_event (C-1.3)",
    "attached": "continuous.bonuses (C-1.3)",
}


def resolve_event(st: GameState, c: int, target: int | None) -> None:
    """C-1.3: an event resolves: Ongoing attaches to its unit (or retires), others retire after; on_play triggers."""
    d = st.defs[c]
    p = st.owners[c]
    st.event("event", player=p, card=c)
    ctx = NO_CONTEXT
    if d.event_type == "ongoing":
        if c in st.limbo:
            st.limbo.remove(c)
        if target is not None and target in st.units:
            st.units[target].attached.append(c)
            st.cont_cache = None
            ctx = TriggerContext(attached=target)
            combat.settle(st, None)
        else:
            st.sides[p].retired.append(c)
    else:
        st.ops.append(Op(OpKind.RETIRE, card=c))
    for idx in d.by_trigger.get("on_play", ()):
        pending.queue(st, c, idx, p, ctx)


def next_trigger(st: GameState) -> None:
    """C-5.1 / C-5.5: one player's pending triggers first (``active_player_triggers_first``), each
    player choosing the order of their own (a ``choose_trigger`` decision when there are two or more)."""
    first = st.active if st.config.active_player_triggers_first else 1 - st.active
    group = [i for i, t in enumerate(st.triggers) if t.controller == first]
    if not group:
        group = list(range(len(st.triggers)))
    if len(group) == 1:
        start_trigger(st, st.triggers.pop(group[0]))
        return
    p = st.triggers[group[0]].controller
    labels = [_trigger_label(st, st.triggers[i]) for i in group]
    st.choice = Decision(DecisionKind.ORDER, p, options=group, labels=labels)


def _trigger_label(st: GameState, t: Trigger) -> str:
    d = st.defs[t.source]
    ab = d.abilities[t.ability]
    return f"{d.name}: {ab.get('text') or ab['trigger']}"


def start_trigger(st: GameState, t: Trigger) -> None:
    """A triggered or activated ability starts resolving (C-1.5)."""
    st.event("trigger", card=t.source, ability=t.ability)
    st.resolution = Resolution(t)


def resume(st: GameState) -> None:
    """Resolve the current ability's effects in order, pausing for chosen targets (an action)."""
    r = st.resolution
    assert r is not None
    t = r.trigger
    effects = st.defs[t.source].abilities[t.ability]["effects"]
    while r.effect < len(effects):
        if st.outcome_ is not None:
            return
        eff = effects[r.effect]
        tname = eff["target"]
        if tname in CHOSEN_TARGETS:
            if r.chosen is not None:
                targets = [r.chosen] if r.chosen in st.units else []
                r.chosen = None
            else:
                opts = _chosen_options(st, tname, r)
                if not opts:
                    r.effect += 1
                    continue
                if len(opts) > 1:
                    st.choice = Decision(
                        DecisionKind.TARGET, t.controller, options=opts, effect=eff["effect"], source=t.source
                    )
                    return
                targets = opts
        else:
            targets = _fixed_targets(st, tname, r)
        if not _do_effect(st, eff, targets, r):
            return  # waits for a decision; the answer finishes the effect
        r.effect += 1
        combat.settle(st, combat.cause_of(st, r))
    if st.resolution is r:
        st.resolution = None


def _chosen_options(st: GameState, tname: str, r: Resolution) -> list[int]:
    c = r.trigger.controller
    src = r.trigger.source
    units = st.units
    if tname == "chosen_enemy_unit":
        return sorted(t for t, u in units.items() if u.owner != c)
    if tname == "chosen_friendly_unit":
        return sorted(t for t, u in units.items() if u.owner == c)
    if tname == "chosen_other_friendly_unit":
        return sorted(t for t, u in units.items() if u.owner == c and t != src)
    return sorted(units)  # chosen_unit


def _anchor(st: GameState, r: Resolution) -> int | None:
    """The square an ability is measured from: the unit itself, else its last square (on_defeated)."""
    src = r.trigger.source
    if src in st.units:
        return st.units[src].sq
    att = r.trigger.ctx.attached
    if att is not None and att in st.units:
        return st.units[att].sq
    return r.trigger.ctx.square


def _fixed_targets(st: GameState, tname: str, r: Resolution) -> list[int]:
    """Targets that need no choice: unit ids, or player indexes (0/1) for ``controller`` / ``opponent``."""
    c = r.trigger.controller
    src = r.trigger.source
    ctx = r.trigger.ctx
    units = st.units
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
        sq = _anchor(st, r)
        if sq is None:
            return []
        want_enemy = tname == "adjacent_enemy_units"
        out = []
        for s in st.nb[sq]:
            t = st.board[s]
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


def _do_effect(st: GameState, eff: Mapping[str, Any], targets: Sequence[int], r: Resolution) -> bool:
    """Apply one effect (C-1.5). Returns False when it waits for a player's choice."""
    return EFFECT_IMPLS[eff["effect"]](st, eff, list(targets), r, r.trigger.source)
