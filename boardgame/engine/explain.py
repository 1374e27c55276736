"""Why an action is not legal now, in words a player understands (docs/style.md §4).

Built on the engine's own legality code (`legal_actions`, `Board.unused_tokens`, `combat.card_options`, the pending
decision): the checked `apply` raises with this text, and the play layer shows it for a refused action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import combat
from .actions import (
    Action,
    Bid,
    Choose,
    ChooseMarch,
    DeclareSupport,
    MarchMove,
    PlaceOrder,
    PlayHouseCard,
    RavenSwap,
    RemoveOrder,
    ReopenOrders,
    ResolveConsolidate,
    ResolveRaid,
)

if TYPE_CHECKING:
    from .game import WesterosState


def _detail(st: WesterosState, a: Action) -> str:
    """The specific reason for an action of the right kind whose content is wrong ("" if none found)."""
    p = a.player
    if isinstance(a, PlaceOrder | RavenSwap):
        if a.area not in st.data.areas:
            return f"{a.area!r} is not an area of the map"
        if a.token not in st.data.tokens:
            return f"{a.token!r} is not an order token"
        if st.owner(a.area) != p:
            return f"{p} has no units in {a.area} (W-5.1)"
        if isinstance(a, PlaceOrder) and a.area in st.orders:
            return f"{a.area} already holds an order (W-5.1)"
        if a.token in st.bans:
            return f"{a.token} is banned this round by a Westeros card (W-5.3)"
        ignore = a.area if isinstance(a, RavenSwap) else None
        if a.token not in st.unused_tokens(p, ignore_area=ignore):
            if st.data.tokens[a.token]["special"]:
                return f"{p} has no unused {a.token} token or has used its {st.star_limit(p)} special orders (W-5.2)"
            return f"{p} has no unused {a.token} token (W-5.1)"
    if isinstance(a, Bid):
        if a.amount < 0 or a.amount > st.power[p]:
            return f"{p} may bid 0 to {st.power[p]} power tokens, not {a.amount} (W-14.2)"
    if isinstance(a, PlayHouseCard) and st.combat is not None:
        if a.card not in st.hands[p]:
            return f"{a.card} is not in {p}'s hand (W-9.4)"
        if a.card not in combat.card_options(st, p):
            return f"{a.card} was sent back by Tyrion Lannister and may not be chosen again (W-17.1)"
    if isinstance(a, Choose) and st.pending is not None and st.pending.kind == "choose":
        want = st.pending.decision
        if a.decision != want:
            return f"the decision now is {want!r}, not {a.decision!r}"
        return f"{a.option!r} is not an option; the options are {', '.join(st.pending.options)}"
    if isinstance(a, DeclareSupport) and st.combat is not None:
        return (
            f"{p} may support {st.combat.attacker}"
            + ("" if st.combat.neutral else f", {st.combat.defender}")
            + " or none (W-9.2)"
        )
    if isinstance(a, RemoveOrder):
        o = st.orders.get(a.area)
        if o is None or o.house != p:
            return f"{p} has no order in {a.area} to take back (W-5.1)"
    if isinstance(a, ResolveRaid | ResolveConsolidate | ChooseMarch):
        o = st.orders.get(a.area)
        if o is None or o.house != p:
            return f"{p} has no order in {a.area}"
    if isinstance(a, MarchMove) and st.march is not None:
        src = st.march.source
        u = st.units.get(src)
        have = list(u.units) if u is not None and u.house == p else []
        for t in set(a.units):
            if a.units.count(t) > have.count(t):
                return f"{p} has not {a.units.count(t)} unrouted {t}(s) in {src} (W-7.1.1, W-9.10.5)"
        if a.dest not in st.move_targets(p, src):
            return f"{a.dest} cannot be reached from {src} (W-7.1.1, W-10)"
        return f"the move into {a.dest} breaks supply, a port's limit or a neutral force's strength (W-12, W-11.1)"
    return ""


def explain_illegal(st: WesterosState, a: Action) -> str:
    """Why `a` is not legal now: the step, whose decision it is, what is missing. "" for a legal action."""
    if st.winner is not None:
        return f"{a.describe(st)}: the game is over"
    if a.player not in st.houses:
        return (
            f"{a.to_json()} is not legal: it is not {a.player}'s decision: "
            f"{a.player!r} is not a house in this game ({', '.join(st.houses)})"
        )
    if isinstance(a, ReopenOrders):
        if a in st.legal_actions(a.player):
            return ""
        if st.pending is None or st.pending.kind != "orders":
            return f"{a.to_json()} is not legal: orders can be changed only in the Planning phase, before the reveal (W-5.4)"
        return f"{a.to_json()} is not legal: {a.player} has not declared its orders complete (W-5.1)"
    if st.pending is None or a.player not in st.pending.players:
        who = ", ".join(st.current_players()) or "nobody"
        return (
            f"{a.to_json()} is not legal: it is not {a.player}'s decision "
            f"(step {st.phase}/{st.step}, waiting for {who})"
        )
    legal = st.legal_actions(a.player)
    if a in legal:
        return ""
    kinds = sorted({x.kind for x in legal})
    decision = (st.pending.decision or st.pending.kind).value
    head = (
        f"{a.to_json()} is not legal: {a.player} must now make a '{decision}' decision "
        f"(step {st.phase}/{st.step}; {len(legal)} legal actions of type {', '.join(kinds)})"
    )
    if a.kind not in kinds:
        return head
    why = _detail(st, a)
    return f"{head}: {why}" if why else head
