"""Effect implementations (C-1.5): one function per effect of the vocabulary, in ``EFFECT_IMPLS`` (keyed by
the vocabulary's effect names, the strings of the card data), and ``continue_moves`` for the move effect."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import board, choices, combat
from .pending import Decision, DecisionKind, Resolution

if TYPE_CHECKING:
    from .state import GameState


EffectFn = Callable[["GameState", Mapping[str, Any], list[int], Resolution, int], bool]


def _eff_deal_damage(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int
) -> bool:
    for t in targets:
        if t in g.units:
            g.units[t].damage += eff["amount"]
            g.event("damage", card=t, amount=eff["amount"], source=src)
    return True


def _eff_heal(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    for t in targets:
        if t in g.units:
            u = g.units[t]
            healed = min(u.damage, eff["amount"])
            u.damage -= healed
            g.event("heal", card=t, amount=healed, source=src)
    return True


def _eff_modify(stat: str) -> EffectFn:
    def fn(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
        permanent = eff.get("duration", "turn") == "permanent"
        for t in targets:
            if t in g.units:
                u = g.units[t]
                if stat == "power":
                    if permanent:
                        u.pmod += eff["amount"]
                    else:
                        u.tpmod += eff["amount"]
                else:
                    if permanent:
                        u.hmod += eff["amount"]
                    else:
                        u.thmod += eff["amount"]
                g.event(
                    "modify",
                    card=t,
                    stat=stat,
                    amount=eff["amount"],
                    duration="permanent" if permanent else "turn",
                )
        return True

    return fn


def _eff_defeat(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    for t in targets:
        if t in g.units:
            combat.defeat(g, t, combat.cause_of(g, r))
    return True


def _off_board_move(g: GameState, t: int, to: str) -> bool:
    """A defeated unit (spoil's defeated_unit) may be returned or removed from the Defeated zone."""
    side = g.sides[g.owners[t]]
    if t in side.defeated:
        side.defeated.remove(t)
        side.zone(to).append(t)
        return True
    return False


def _send_targets(g: GameState, targets: list[int], zone: str, event: str) -> bool:
    """Move each target (on the battlefield, or a just-defeated card) to its owner's ``zone``."""
    for t in targets:
        if t in g.units:
            board.leave(g, t)
            g.sides[g.owners[t]].zone(zone).append(t)
            g.event(event, card=t)
        elif _off_board_move(g, t, zone):
            g.event(event, card=t)
    return True


def _eff_return_to_hand(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int
) -> bool:
    return _send_targets(g, targets, "hand", "return_to_hand")


def _eff_remove(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    return _send_targets(g, targets, "removed", "removed")


def _eff_move(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    r.moving = [t for t in targets if t in g.units]
    return continue_moves(g, r)


def _eff_draw(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    for p in targets:
        board.draw(g, p, eff["count"])
    return True


def _eff_gain_cp(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    for p in targets:
        g.sides[p].cp += eff["amount"]
        g.event("cp", player=p, amount=eff["amount"])
    return True


def _eff_lose_cp(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
    for p in targets:
        lost = min(g.sides[p].cp, eff["amount"])
        g.sides[p].cp -= lost
        g.event("cp", player=p, amount=-lost)
    return True


def _eff_gain_energy(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int
) -> bool:
    for p in targets:
        side = g.sides[p]
        for _ in range(eff["count"]):
            if not side.deck:
                break
            c = side.deck.pop()
            side.energy.append(c)
            g.event("energy", player=p, card=c)
    return True


def _eff_choice(kind: DecisionKind, zone: str) -> EffectFn:
    def fn(g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int) -> bool:
        p = targets[0]
        choices.card_choice(g, kind, p, zone, eff["count"], reason="effect")
        # card_choice finishes the effect itself (via choice_done) once the cards are chosen
        return False

    return fn


def _eff_grant_range(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: Resolution, src: int
) -> bool:
    permanent = eff.get("duration", "turn") == "permanent"
    for t in targets:
        if t in g.units:
            if permanent:
                g.units[t].range_perm = True
            else:
                g.units[t].range_turn = True
            g.event("grant_range_attack", card=t)
    return True


def continue_moves(st: GameState, r: Resolution) -> bool:
    """Move effect: ask for each target's destination in turn; True when all are done."""
    moving = r.moving
    assert moving is not None
    while moving:
        uid = moving[0]
        if uid not in st.units:
            moving.pop(0)
            continue
        opts = board.move_squares(st, uid)
        if not opts:
            moving.pop(0)
            continue
        if len(opts) == 1:
            moving.pop(0)
            board.move_unit(st, uid, opts[0])
            combat.settle(st, combat.cause_of(st, r))
            continue
        st.choice = Decision(DecisionKind.MOVE_SQUARE, r.trigger.controller, options=opts, unit=uid)
        return False
    r.moving = None
    return True


EFFECT_IMPLS: dict[str, EffectFn] = {
    "deal_damage": _eff_deal_damage,
    "heal": _eff_heal,
    "modify_power": _eff_modify("power"),
    "modify_health": _eff_modify("health"),
    "defeat": _eff_defeat,
    "return_to_hand": _eff_return_to_hand,
    "move": _eff_move,
    "remove_from_game": _eff_remove,
    "draw": _eff_draw,
    "gain_cp": _eff_gain_cp,
    "lose_cp": _eff_lose_cp,
    "gain_energy": _eff_gain_energy,
    "discard": _eff_choice(DecisionKind.DISCARD, "hand"),
    "retire_energy": _eff_choice(DecisionKind.RETIRE_ENERGY, "energy"),
    "grant_range_attack": _eff_grant_range,
}
