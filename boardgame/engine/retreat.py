"""W-9.10 Retreat and routing (Robb Stark's choice of the retreat area, W-17.1).

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import combat
from . import messages as ref
from .actions import unit_term
from .messages import gettext_noop, msg
from .structures import Decision, Pending, Step, Task, need

if TYPE_CHECKING:
    from .game import WesterosState


def retreat_options(
    st: WesterosState, house: str, area: str, units: list[str], banned: str
) -> dict[str, int]:
    """W-9.10.3-4: legal retreat areas -> units that must be destroyed to fit supply."""
    kind = st.data.kind(area)
    if kind == "land":
        cands = {a for a in st.data.adj[area] if st.data.kind(a) == "land"}
        cands |= st.transport_lands(house, area)
    else:
        cands = set()
        for a in st.data.adj[area]:
            k = st.data.kind(a)
            if k == "sea" or (k == "port" and st.control(a) == house):
                cands.add(a)
    out: dict[str, int] = {}
    n = len(units)
    for a in sorted(cands):
        if a == banned or a in st.impassable or a in st.neutral:
            continue
        o = st.owner(a)
        if o is not None and o != house:
            continue
        if st.data.kind(a) == "land":
            ctl = st.control(a)
            if ctl is not None and ctl != house:
                continue
        if st.data.kind(a) == "port" and st.unit_count(a) + n > int(st.data.areas[a]["max_ships"]):
            continue
        for loss in range(n + 1):
            if st.supply_ok(house, {area: -n, a: n - loss}):
                out[a] = loss
                break
        else:
            out[a] = n
    return out


def t_combat_retreat(st: WesterosState, task: Step) -> None:
    """W-9.10: the loser's survivors retreat and are routed (or destroyed)."""
    c = st.combat
    assert c is not None
    winner, lo = combat.decided(c)
    if lo == c.attacker and c.att_units and c.cards.get(winner) == "robb_stark":
        # W-9.10.2 / W-17.1 (FAQ): a defending Robb Stark picks where the attacker retreats.
        opts = attacker_retreat_options(st)
        if opts:
            best = min(opts.values())
            st.choose(winner, Decision.ROBB_RETREAT, sorted(a for a, v in opts.items() if v == best))
            return
    if lo == c.attacker:
        units = c.att_units
        c.att_units = []
        if not units:
            return
        src = c.origin
        ok = st.data.kind(src) != "land" or st.control(src) in (None, lo)
        if not ok:
            st.event(
                msg(
                    gettext_noop("%(house)s cannot retreat to %(area)s: %(n)s unit(s) destroyed"),
                    house=ref.house(lo),
                    area=ref.area(src),
                    n=len(units),
                )
            )
            return
        for x in units:
            st.add_unit(src, lo, x, routed=True)
        st.event(
            msg(
                gettext_noop("%(house)s retreats %(n)s unit(s) to %(area)s"),
                house=ref.house(lo),
                n=len(units),
                area=ref.area(src),
            )
        )
        st.push(Step(Task.RETREAT_SUPPLY, house=lo, area=src))
        return
    units = combat.losing_units(st)
    if not units:
        return
    opts = retreat_options(st, lo, c.area, units, c.origin)
    if not opts:
        for x in units:
            st.remove_unit(c.area, x, prefer_routed=False)
        st.event(
            msg(
                gettext_noop("%(house)s has no retreat from %(area)s: %(n)s unit(s) destroyed"),
                house=ref.house(lo),
                area=ref.area(c.area),
                n=len(units),
            )
        )
        return
    best = min(opts.values())
    choices = sorted(a for a, v in opts.items() if v == best)
    if c.cards.get(winner) == "robb_stark":
        st.choose(winner, Decision.ROBB_RETREAT, choices)
    else:
        st.choose(lo, Decision.RETREAT, choices)


def on_retreat(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    c = st.combat
    assert c is not None
    lo = combat.decided(c)[1]
    units = combat.losing_units(st)
    for x in units:
        st.remove_unit(c.area, x, prefer_routed=False)
        st.add_unit(option, lo, x, routed=True)
    st.event(
        msg(
            gettext_noop("%(house)s retreats %(n)s unit(s) from %(area)s to %(dest)s"),
            house=ref.house(lo),
            n=len(units),
            area=ref.area(c.area),
            dest=ref.area(option),
        )
    )
    st.push(Step(Task.RETREAT_SUPPLY, house=lo, area=option))


def attacker_retreat_options(st: WesterosState) -> dict[str, int]:
    """W-9.10.2: legal retreat areas of the losing attacker next to the embattled area, its origin
    included (when it may return there) -> units that must be destroyed to fit supply."""
    c = st.combat
    assert c is not None
    lo, units, src = c.attacker, list(c.att_units), c.origin
    opts = retreat_options(st, lo, c.area, units, banned="")
    if src not in opts and (st.data.kind(src) != "land" or st.control(src) in (None, lo)):
        n = len(units)
        opts[src] = next((loss for loss in range(n + 1) if st.supply_ok(lo, {c.area: -n, src: n - loss})), n)
    return opts


def on_robb_retreat(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    """The Robb Stark player's pick of the loser's retreat area (W-17.1), attacker or defender."""
    c = st.combat
    assert c is not None
    if c.loser != c.attacker:
        on_retreat(st, p, option, ctx)
        return
    lo, units = c.attacker, c.att_units
    c.att_units = []
    for x in units:
        st.add_unit(option, lo, x, routed=True)
    st.event(
        msg(
            gettext_noop("Robb Stark sends %(house)s's %(n)s attacking unit(s) to %(area)s"),
            house=ref.house(lo),
            n=len(units),
            area=ref.area(option),
        )
    )
    st.push(Step(Task.RETREAT_SUPPLY, house=lo, area=option))


def t_retreat_supply(st: WesterosState, task: Step) -> None:
    """W-9.10.4: destroy retreating units of the loser's choice until supply fits."""
    h, a = need(task.house), need(task.area)
    if st.supply_ok(h) or a not in st.units:
        return
    opts = sorted(set(st.units[a].routed)) or sorted(set(st.units[a].units))
    st.choose(h, Decision.RETREAT_LOSS, opts, area=a)


def on_retreat_loss(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    area = need(ctx.area)
    st.remove_unit(area, option, prefer_routed=True)
    st.event(
        msg(
            gettext_noop("%(house)s destroys a retreating %(unit)s to fit supply"),
            house=ref.house(p),
            unit=unit_term(option.replace("_", " ")),
        )
    )
    st.push(Step(Task.RETREAT_SUPPLY, house=p, area=area))
