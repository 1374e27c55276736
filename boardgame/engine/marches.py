"""W-7.1 March orders, W-11.1 attacks on neutral forces and W-10.6 ports after a march.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from . import messages as ref
from .actions import Action, ChooseMarch, EndMarch, MarchMove
from .board import order_type
from .data import UNIT_TYPES
from .messages import gettext_noop, msg
from .structures import Combat, Decision, March, Pending, PendingKind, Phase, Step, Task, need

if TYPE_CHECKING:
    from .game import WesterosState


# Steps without arguments are values (structures.Step): the same ones serve every march.
MARCH_END = Step(Task.MARCH_END)
AFTER_MARCH = (Step(Task.PORT_SYNC), Step(Task.VICTORY_CHECK))  # W-7.1.7
NEUTRAL_COMBAT = (Step(Task.COMBAT_SUPPORT), Step(Task.NEUTRAL_RESOLVE), MARCH_END)  # W-11.1
COMBAT = (  # W-9.1-9.8, in the order of W-9.5
    Step(Task.COMBAT_SUPPORT),
    Step(Task.COMBAT_CARDS),
    Step(Task.COMBAT_CANCEL),
    Step(Task.COMBAT_IMMEDIATE),
    Step(Task.COMBAT_BLADE),
    Step(Task.COMBAT_RESOLVE),
    MARCH_END,
)


def legal_march_select(st: WesterosState, p: str) -> list[Action]:
    return [
        ChooseMarch(p, a) for a, (h, t) in sorted(st.orders.items()) if h == p and order_type(t) == "march"
    ]


def do_march_select(st: WesterosState, a: Action) -> None:
    assert isinstance(a, ChooseMarch)
    token = st.orders[a.area].token
    st.march = March(a.player, a.area, token)
    st.ask(PendingKind.MARCH_MOVE, [a.player])
    if st.config.event_log:
        st.event(
            msg(
                gettext_noop("%(house)s resolves the March order in %(area)s"),
                house=ref.house(a.player),
                area=ref.area(a.area),
            )
        )


def neutral_attack_strength(st: WesterosState, house: str, dest: str, units: list[str]) -> int:
    """W-11.1: marching units + March modifier + Support orders that may back the march.

    The marcher's own Support orders always count; with `neutral_force_other_support` the
    other houses' eligible Support orders count too (they may still decline afterwards).
    """
    assert st.march is not None
    return neutral_strength(st, house, dest, units, st.march.token, None)


def neutral_strength(
    st: WesterosState, house: str, dest: str, units: list[str], token: str, declared: dict[str, str] | None
) -> int:
    castle = st.data.areas[dest]["castle"] != "none"
    s = sum(st.unit_value(u, castle, True) for u in units)
    s += int(st.data.tokens[token]["strength_modifier"])
    for a, h, t in st.support_orders(dest):
        if h == house or (
            st.config.neutral_force_other_support and (declared is None or declared.get(h) == house)
        ):
            s += sum(st.unit_value(u, castle, True) for u in st.units[a].units)
            s += 1 if t == "support_plus_one" else 0
    return s


def legal_march_move(st: WesterosState, p: str) -> list[Action]:
    m = st.march
    assert m is not None
    src = m.source
    out: list[Action] = [EndMarch(p, False)]
    u = st.units.get(src)
    if u is None and st.data.kind(src) == "land":
        if st.data.areas[src].get("home_house") != p and st.tokens.get(src) != p and st.power[p] > 0:
            out.append(EndMarch(p, True))
    if u is None or u.house != p or not u.units:
        return out
    movable = u.units
    types = [t for t in UNIT_TYPES if t in movable]
    counts = [movable.count(t) for t in types]
    subsets = []
    for combo in product(*(range(c + 1) for c in counts)):
        group = tuple(t for t, c in zip(types, combo, strict=True) for _ in range(c))
        if group:
            subsets.append(group)
    sizes = st.army_sizes(p)
    cdest = m.combat_dest
    for dest in st.move_targets(p, src):
        hostile = st.is_hostile(p, dest)
        if hostile and cdest not in (None, dest):
            continue
        dk = st.data.kind(dest)
        own_there = sizes.get(dest, 0)
        for g in subsets:
            n = len(g)
            if dk == "port" and own_there + n > int(st.data.areas[dest]["max_ships"]):
                continue
            if hostile and dest in st.neutral:
                if neutral_attack_strength(st, p, dest, m.combat_units + list(g)) < st.neutral[dest]:
                    continue
            sz = dict(sizes)
            sz[src] = sz.get(src, 0) - n
            sz[dest] = own_there + n
            if not st.fits_supply(sorted((s for s in sz.values() if s >= 2), reverse=True), p):
                continue
            out.append(MarchMove(p, g, dest))
    return out


def do_march_move(st: WesterosState, a: Action) -> None:
    m = st.march
    assert m is not None
    if isinstance(a, EndMarch):
        st.pending = None
        end_march(st, a)
        return
    assert isinstance(a, MarchMove)
    src = m.source
    for unit in a.units:
        st.remove_unit(src, unit, prefer_routed=False)
    if st.is_hostile(a.player, a.dest):
        m.combat_dest = a.dest
        m.combat_units.extend(a.units)
        if st.config.event_log:
            st.event(
                msg(gettext_noop("%(action)s (attack)"), action=ref.nested(a.message(st))),
                text=f"{a.describe(st)} (attack)",
            )
    else:
        t = st.tokens.get(a.dest)
        if t is not None and t != a.player:  # W-7.1.3
            st.drop_token(a.dest)
            if st.config.event_log:
                st.event(
                    msg(
                        gettext_noop("%(house)s removes %(owner)s's power token from %(area)s"),
                        house=ref.house(a.player),
                        owner=ref.house(t),
                        area=ref.area(a.dest),
                    )
                )
        for unit in a.units:
            st.add_unit(a.dest, a.player, unit)
        if st.config.event_log:
            st.event(a.message(st), text=a.describe(st))


def end_march(st: WesterosState, a: EndMarch) -> None:
    m = st.march
    assert m is not None
    p, src = m.house, m.source
    if a.leave_power_token:  # W-7.1.5 / W-8.2
        st.power[p] -= 1
        st.set_token(src, p)
        if st.config.event_log:
            st.event(
                msg(
                    gettext_noop("%(house)s leaves a power token in %(area)s"),
                    house=ref.house(p),
                    area=ref.area(src),
                )
            )
    st.orders.pop(src, None)
    dest = m.combat_dest
    st.march = None
    if dest is None:
        st.push(MARCH_END)
        return
    if dest in st.neutral:  # W-11.1
        others = []
        if st.config.neutral_force_other_support:
            sup = st.support_orders(dest)
            others = [h for h in st.turn_order() if h != p and any(sh == h for _a, sh, _t in sup)]
        st.combat = Combat(
            p, "neutral", dest, src, list(m.combat_units), m.token, support_queue=others, neutral=True
        )
        st.push(*NEUTRAL_COMBAT)
        return
    defender = st.owner(dest) or str(st.data.areas[dest]["home_house"])
    queue = []
    sup = st.support_orders(dest)
    for h in st.turn_order():
        if any(sh == h for _a, sh, _t in sup):
            queue.append(h)
    st.combat = Combat(
        p,
        defender,
        dest,
        src,
        list(m.combat_units),
        m.token,
        support_queue=queue,
        cards={p: None, defender: None},
        excluded={p: [], defender: []},
    )
    st.phase = Phase.ACTION
    if st.config.event_log:
        st.event(
            msg(
                gettext_noop("Combat in %(area)s: %(house)s attacks %(defender)s"),
                area=ref.area(dest),
                house=ref.house(p),
                defender=ref.house(defender),
            )
        )
    st.push(*COMBAT)


def t_march_end(st: WesterosState, task: Step) -> None:
    """W-7.1.7: after each march, orphan orders, ports, victory."""
    st.prune_orders()
    st.push(*AFTER_MARCH)


def t_port_sync(st: WesterosState, task: Step) -> None:
    """W-10.6: port take-over by the new controller, or orphaned ships destroyed."""
    for port in sorted(a for a in st.units if st.data.kind(a) == "port"):
        o = st.owner(port)
        land = st.data.areas[port]["land_area"]
        c = st.control(land)
        if c == o:
            continue
        n = st.unit_count(port)
        if c is None and not st.config.orphan_port_ships_destroyed:
            continue
        del st.units[port]
        st.orders.pop(port, None)
        st.invalidate_control()
        if c is None:
            st.event(
                msg(
                    gettext_noop(
                        "%(house)s loses %(n)s ship(s) in %(port)s: %(area)s is no longer controlled"
                    ),
                    house=ref.house(str(o)),
                    n=n,
                    port=ref.area(port),
                    area=ref.area(land),
                )
            )
            continue
        st.event(
            msg(
                gettext_noop("%(house)s captures the port %(port)s (%(n)s %(owner)s ship(s))"),
                house=ref.house(c),
                port=ref.area(port),
                n=n,
                owner=ref.house(str(o)),
            )
        )
        st.push(Step(Task.PORT_TAKEOVER, house=c, port=port, left=n), Step(Task.PORT_SYNC))
        return


def t_port_takeover(st: WesterosState, task: Step) -> None:
    left = need(task.left)
    if left <= 0:
        return
    h, port = need(task.house), need(task.port)
    opts = ["destroy"]
    if st.available_units(h, "ship") > 0 and st.supply_ok(h, {port: 1}):
        opts.insert(0, "replace")
    st.choose(h, Decision.PORT_TAKEOVER, opts, port=port, left=left)


def on_port_takeover(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option == "replace":
        st.add_unit(need(ctx.port), p, "ship")
    st.push(Step(Task.PORT_TAKEOVER, house=p, port=ctx.port, left=need(ctx.left) - 1))


def t_neutral_resolve(st: WesterosState, task: Step) -> None:
    """W-11.1: enough strength removes the token and the units move in; otherwise they stay home."""
    c = st.combat
    assert c is not None
    st.combat = None
    p, dest, units = c.attacker, c.area, c.att_units
    need = st.neutral[dest]
    got = neutral_strength(st, p, dest, units, c.token, c.support)
    if got >= need:
        st.event(
            msg(
                gettext_noop("%(house)s defeats the neutral force in %(area)s (%(got)s vs %(need)s)"),
                house=ref.house(p),
                area=ref.area(dest),
                got=got,
                need=need,
            ),
            numbers=[got, need],
        )
        del st.neutral[dest]
        for unit in units:
            st.add_unit(dest, p, unit)
        return
    src = c.origin
    st.event(
        msg(
            gettext_noop("%(house)s falls short against the neutral force in %(area)s (%(got)s vs %(need)s)"),
            house=ref.house(p),
            area=ref.area(dest),
            got=got,
            need=need,
        )
    )
    if st.data.kind(src) != "land" or st.control(src) in (None, p):
        for unit in units:
            st.add_unit(src, p, unit)
    else:
        st.event(
            msg(
                gettext_noop("%(house)s cannot return to %(area)s: %(n)s unit(s) lost"),
                house=ref.house(p),
                area=ref.area(src),
                n=len(units),
            )
        )
