"""W-5 Planning phase: face-down orders, their reveal and the Messenger Raven (W-5.5).

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import messages as ref
from . import rounds
from .actions import (
    WHERE_WORDS,
    Action,
    Choose,
    FinishOrders,
    PlaceOrder,
    RavenSwap,
    RemoveOrder,
    ReopenOrders,
    order_term,
)
from .messages import gettext_noop, msg
from .structures import Decision, Order, Pending, PendingKind, Step

if TYPE_CHECKING:
    from .game import WesterosState


def t_assign_orders(st: WesterosState, task: Step) -> None:
    rounds.enter(st, task)
    st.orders = {}
    st.orders_revealed = False
    players = ordering_houses(st)
    if players:
        st.ask(PendingKind.ORDERS, players)


# Actions are immutable values, and a house placing its orders is offered the same placements again after
# every token it places or takes back: each row of placements (one house, one area, the tokens it may still
# use there) is made once per process and shared. Bounded: the cache starts afresh past `_ROWS_LIMIT` keys.
_PLACE_ROWS: dict[tuple[str, tuple[str, ...]], dict[str, tuple[PlaceOrder, ...]]] = {}
_REMOVES: dict[str, dict[str, RemoveOrder]] = {}
_ROWS_LIMIT = 5_000


def legal_orders(st: WesterosState, p: str) -> list[Action]:
    """W-5.1: an order for every area with own units; until the house declares its orders complete it may
    take any of them back (like rearranging face-down tokens at the table before the reveal, W-5.4).
    Take-backs come last, so "the first legal action" stays a placement or the finish."""
    orders = st.orders
    need = [a for a, u in st.units.items() if u.house == p and a not in orders]
    need.sort()
    toks = tuple(st.unused_tokens(p)) if need else ()
    out: list[Action] = []
    if toks:
        rows = _PLACE_ROWS.get((p, toks))
        if rows is None:
            if len(_PLACE_ROWS) >= _ROWS_LIMIT:
                _PLACE_ROWS.clear()
            rows = _PLACE_ROWS[(p, toks)] = {}
        for a in need:
            row = rows.get(a)
            if row is None:
                row = rows[a] = tuple(PlaceOrder(p, a, t) for t in toks)
            out.extend(row)
    if not need or not toks:
        out.append(FinishOrders(p))
    if orders:
        removes = _REMOVES.get(p)
        if removes is None:
            removes = _REMOVES[p] = {}
        for a in sorted(orders):
            if orders[a].house == p:
                r = removes.get(a)
                if r is None:
                    r = removes[a] = RemoveOrder(p, a)
                out.append(r)
    return out


def ordering_houses(st: WesterosState) -> list[str]:
    """The houses that place orders this round (W-5.1: those with units), in turn order."""
    return [h for h in st.turn_order() if any(u.house == h for u in st.units.values())]


def ready_houses(st: WesterosState) -> list[str]:
    """W-5.1: the houses that have declared their orders complete while others still place theirs."""
    p = st.pending
    if p is None or p.kind is not PendingKind.ORDERS:
        return []
    return [h for h in ordering_houses(st) if h not in p.players]


def legal_reopen(st: WesterosState, p: str) -> list[Action]:
    """What a house that is not deciding may still do (W-5.1 / W-5.4, engine Decision): while any house is
    still placing orders (nothing revealed yet), a Ready house may take its Ready back to change its own."""
    return [ReopenOrders(p)] if p in ready_houses(st) else []


def do_orders(st: WesterosState, a: Action) -> None:
    assert st.pending is not None
    logged = (
        st.config.event_log
    )  # the words are built only for a log that keeps them (not in the AI's search)
    if isinstance(a, ReopenOrders):
        # Back among the deciding houses, in turn order (the list `t_assign_orders` started with).
        back = set(st.pending.players) | {a.player}
        st.pending.players = [h for h in ordering_houses(st) if h in back]
        if logged:
            st.event(msg(gettext_noop("%(house)s is changing its orders"), house=ref.house(a.player)))
    elif isinstance(a, PlaceOrder):
        st.orders[a.area] = Order(a.player, a.token)
        if logged:
            st.event(
                msg(
                    gettext_noop("%(house)s places an order in %(area)s"),
                    house=ref.house(a.player),
                    area=ref.area(a.area),
                )
            )
            st.event(a.message(st), to=[a.player], text=a.describe(st))
    elif isinstance(a, RemoveOrder):
        # W-5.1 / W-20: the others learn only that the face-down token left the area, never what it was.
        token = st.orders.pop(a.area).token
        if logged:
            st.event(
                msg(
                    gettext_noop("%(house)s takes back the order in %(area)s"),
                    house=ref.house(a.player),
                    area=ref.area(a.area),
                )
            )
            st.event(
                msg(
                    gettext_noop("%(house)s takes back %(order)s from %(area)s"),
                    house=ref.house(a.player),
                    order=order_term(token),
                    area=ref.area(a.area),
                ),
                to=[a.player],
            )
    else:
        st.pending.players.remove(a.player)
        if logged:
            st.event(msg(gettext_noop("%(house)s has placed all orders"), house=ref.house(a.player)))
        if not st.pending.players:
            st.pending = None


def t_reveal_orders(st: WesterosState, task: Step) -> None:
    """W-5.4: all orders face up at once."""
    rounds.enter(st, task)
    st.orders_revealed = True
    for a, (h, t) in sorted(st.orders.items()):
        st.event(
            msg(
                gettext_noop("%(house)s: %(order)s in %(area)s"),
                house=ref.house(h),
                order=order_term(t),
                area=ref.area(a),
            ),
            order=[a, h, t],
        )


def t_messenger_raven(st: WesterosState, task: Step) -> None:
    """W-5.5: the Raven holder may swap an order or look at the top wildling card."""
    rounds.enter(st, task)
    if not st.raven_used:
        st.ask(PendingKind.RAVEN, [st.holder("kings_court")])


def legal_raven(st: WesterosState, p: str) -> list[Action]:
    out: list[Action] = [Choose(p, "raven", "pass"), Choose(p, "raven", "look")]
    for a, (h, t) in sorted(st.orders.items()):
        if h == p:
            out.extend(RavenSwap(p, a, nt) for nt in st.unused_tokens(p, ignore_area=a) if nt != t)
    return out


def do_raven(st: WesterosState, a: Action) -> None:
    st.pending = None
    if isinstance(a, RavenSwap):
        old = st.orders[a.area].token
        st.orders[a.area] = Order(a.player, a.token)
        st.raven_used = True
        st.event(
            msg(
                gettext_noop("Messenger Raven: %(house)s replaces %(old)s with %(order)s in %(area)s"),
                house=ref.house(a.player),
                old=order_term(old),
                order=order_term(a.token),
                area=ref.area(a.area),
            )
        )
        return
    assert isinstance(a, Choose)
    if a.option == "look":
        st.raven_used = True
        top = st.wildling_deck[0]
        st.raven_knows = {"house": a.player, "card": top, "where": "top"}
        st.event(msg(gettext_noop("%(house)s looks at the top wildling card"), house=ref.house(a.player)))
        st.event(msg(gettext_noop("The top wildling card is %(card)s"), card=ref.card(top)), to=[a.player])
        st.choose(a.player, Decision.RAVEN_BURY, ["top", "bottom"])
    else:
        st.event(msg(gettext_noop("%(house)s does not use the Messenger Raven"), house=ref.house(a.player)))


def on_raven_bury(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option == "bottom":
        st.wildling_deck.append(st.wildling_deck.pop(0))
        if st.raven_knows:
            st.raven_knows["where"] = "bottom"
    st.event(
        msg(
            gettext_noop("%(house)s leaves the wildling card on the %(where)s"),
            house=ref.house(p),
            where=ref.term(WHERE_WORDS[option]),
        )
    )
