"""W-7.2 Raid orders and W-7.5 Consolidate Power orders.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import messages as ref
from . import westeros_phase
from .actions import Action, ResolveConsolidate, ResolveRaid, order_label, order_term
from .board import order_type
from .messages import gettext_noop, msg

if TYPE_CHECKING:
    from .game import WesterosState


def raid_targets(st: WesterosState, p: str, area: str, token: str) -> list[str]:
    kind = st.data.kind(area)
    out = []
    for t in st.data.adj[area]:
        o = st.orders.get(t)
        if o is None or o.house == p:
            continue
        tk = st.data.kind(t)
        if kind == "land" and tk != "land":
            continue
        if kind == "port" and tk != "sea":
            continue
        ot = order_type(o.token)
        if ot in ("support", "raid", "consolidate_power") or (ot == "defense" and token == "raid_special"):
            out.append(t)
    return out


def legal_raid(st: WesterosState, p: str) -> list[Action]:
    out: list[Action] = []
    for a, (h, t) in sorted(st.orders.items()):
        if h == p and order_type(t) == "raid":
            out.append(ResolveRaid(p, a, None))
            out.extend(ResolveRaid(p, a, tg) for tg in raid_targets(st, p, a, t))
    return out


def do_raid(st: WesterosState, a: Action) -> None:
    assert isinstance(a, ResolveRaid)
    st.pending = None
    del st.orders[a.area]
    if a.target is None:
        if st.config.event_log:
            st.event(a.message(st), text=a.describe(st))
        return
    victim, tok = st.orders.pop(a.target)
    if st.config.event_log:
        st.event(
            msg(
                gettext_noop("%(action)s, removing %(house)s's %(order)s"),
                action=ref.nested(a.message(st)),
                house=ref.house(victim),
                order=order_term(tok),
            ),
            text=f"{a.describe(st)}, removing {victim.title()}'s {order_label(tok)}",
        )
    if order_type(tok) == "consolidate_power":  # W-7.2.3 pillage
        st.gain_power(a.player, 1)
        if st.power[victim] > 0:
            st.power[victim] -= 1


def legal_consolidate(st: WesterosState, p: str) -> list[Action]:
    out: list[Action] = []
    for a, (h, t) in sorted(st.orders.items()):
        if h == p and order_type(t) == "consolidate_power":
            out.append(ResolveConsolidate(p, a, False))
            ad = st.data.areas[a]
            if t == "consolidate_power_special" and ad["kind"] == "land" and ad["castle"] != "none":
                out.append(ResolveConsolidate(p, a, True))
    return out


def do_consolidate(st: WesterosState, a: Action) -> None:
    assert isinstance(a, ResolveConsolidate)
    st.pending = None
    del st.orders[a.area]
    ad = st.data.areas[a.area]
    if a.muster:
        if st.config.event_log:
            st.event(a.message(st), text=a.describe(st))
        westeros_phase.start_muster(st, a.player, [a.area])
        return
    gain = 0
    if ad["kind"] == "land":
        gain = 1 + int(ad["crowns"])
    elif ad["kind"] == "port" and not st.is_enemy_ship_in(ad["sea_area"], a.player):
        gain = 1
    got = st.gain_power(a.player, gain)
    if st.config.event_log:
        st.event(
            msg(gettext_noop("%(action)s and gains %(n)s power"), action=ref.nested(a.message(st)), n=got),
            text=f"{a.describe(st)} and gains {got} power",
        )
