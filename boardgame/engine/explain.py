"""Why an action is not legal now, in words a player understands (docs/style.md §4).

Built on the engine's own legality code (`legal_actions`, `Board.unused_tokens`, `combat.card_options`, the pending
decision): the checked `apply` raises with this text, and the play layer shows it for a refused action.
The reason is a message (`explain_message`); its English words name houses, areas and tokens by their ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import combat
from . import messages as ref
from .actions import (
    ORDER_LABELS,
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
    option_param,
    order_term,
    unit_term,
)
from .messages import Msg, gettext_noop, msg

if TYPE_CHECKING:
    from .game import WesterosState


def _detail(st: WesterosState, a: Action) -> Msg | None:
    """The specific reason for an action of the right kind whose content is wrong (None if none found)."""
    p, h = a.player, ref.house(a.player)
    if isinstance(a, PlaceOrder | RavenSwap):
        if a.area not in st.data.areas:
            return msg(gettext_noop("%(name)s is not an area of the map"), name=repr(a.area))
        if a.token not in st.data.tokens:
            return msg(gettext_noop("%(name)s is not an order token"), name=repr(a.token))
        if st.owner(a.area) != p:
            return msg(
                gettext_noop("%(house)s has no units in %(area)s (W-5.1)"), house=h, area=ref.area(a.area)
            )
        if isinstance(a, PlaceOrder) and a.area in st.orders:
            return msg(gettext_noop("%(area)s already holds an order (W-5.1)"), area=ref.area(a.area))
        if a.token in st.bans:
            return msg(
                gettext_noop("%(token)s is banned this round by a Westeros card (W-5.3)"),
                token=_token(a.token),
            )
        ignore = a.area if isinstance(a, RavenSwap) else None
        if a.token not in st.unused_tokens(p, ignore_area=ignore):
            if st.data.tokens[a.token]["special"]:
                return msg(
                    gettext_noop(
                        "%(house)s has no unused %(token)s token or has used its %(n)s special orders (W-5.2)"
                    ),
                    house=h,
                    token=_token(a.token),
                    n=st.star_limit(p),
                )
            return msg(
                gettext_noop("%(house)s has no unused %(token)s token (W-5.1)"),
                house=h,
                token=_token(a.token),
            )
    if isinstance(a, Bid):
        if a.amount < 0 or a.amount > st.power[p]:
            return msg(
                gettext_noop("%(house)s may bid 0 to %(most)s power tokens, not %(amount)s (W-14.2)"),
                house=h,
                most=st.power[p],
                amount=a.amount,
            )
    if isinstance(a, PlayHouseCard) and st.combat is not None:
        if a.card not in st.hands[p]:
            return msg(
                gettext_noop("%(card)s is not in %(house)s's hand (W-9.4)"), card=ref.card(a.card), house=h
            )
        if a.card not in combat.card_options(st, p):
            return msg(
                gettext_noop(
                    "%(card)s was sent back by Tyrion Lannister and may not be chosen again (W-17.1)"
                ),
                card=ref.card(a.card),
            )
    if isinstance(a, Choose) and st.pending is not None and st.pending.kind == "choose":
        want = st.pending.decision
        if a.decision != want:
            return msg(
                gettext_noop("the decision now is %(want)s, not %(decision)s"),
                want=repr(str(want)),  # decision ids, as the API names them
                decision=repr(a.decision),
            )
        return msg(
            gettext_noop("%(option)s is not an option; the options are %(options)s"),
            option=repr(a.option),
            options=ref.listing([_option(st, o) for o in st.pending.options]),
        )
    if isinstance(a, DeclareSupport) and st.combat is not None:
        if st.combat.neutral:
            return msg(
                gettext_noop("%(house)s may support %(attacker)s or none (W-9.2)"),
                house=h,
                attacker=ref.house(st.combat.attacker),
            )
        return msg(
            gettext_noop("%(house)s may support %(attacker)s, %(defender)s or none (W-9.2)"),
            house=h,
            attacker=ref.house(st.combat.attacker),
            defender=ref.house(st.combat.defender),
        )
    if isinstance(a, RemoveOrder):
        o = st.orders.get(a.area)
        if o is None or o.house != p:
            return msg(
                gettext_noop("%(house)s has no order in %(area)s to take back (W-5.1)"),
                house=h,
                area=ref.area(a.area),
            )
    if isinstance(a, ResolveRaid | ResolveConsolidate | ChooseMarch):
        o = st.orders.get(a.area)
        if o is None or o.house != p:
            return msg(gettext_noop("%(house)s has no order in %(area)s"), house=h, area=ref.area(a.area))
    if isinstance(a, MarchMove) and st.march is not None:
        src = st.march.source
        u = st.units.get(src)
        have = list(u.units) if u is not None and u.house == p else []
        for t in set(a.units):
            if a.units.count(t) > have.count(t):
                return msg(
                    gettext_noop(
                        "%(house)s has not %(n)s unrouted %(unit)s(s) in %(area)s (W-7.1.1, W-9.10.5)"
                    ),
                    house=h,
                    n=a.units.count(t),
                    unit=unit_term(t),
                    area=ref.area(src),
                )
        if a.dest not in st.move_targets(p, src):
            return msg(
                gettext_noop("%(dest)s cannot be reached from %(area)s (W-7.1.1, W-10)"),
                dest=ref.area(a.dest),
                area=ref.area(src),
            )
        return msg(
            gettext_noop(
                "the move into %(dest)s breaks supply, a port's limit or a neutral force's strength (W-12, W-11.1)"
            ),
            dest=ref.area(a.dest),
        )
    return None


def _option(st: WesterosState, option: str) -> object:
    """An option that names an area, a house or a card as that; any other by its id."""
    param = option_param(st, option)
    return option if "term" in param else param


def _token(token: str) -> dict[str, str]:
    return order_term(token) if token in ORDER_LABELS else ref.term(token)


def explain_message(st: WesterosState, a: Action) -> Msg | None:
    """Why `a` is not legal now: the step, whose decision it is, what is missing. None for a legal action."""
    if st.winner is not None:
        return msg(gettext_noop("%(action)s: the game is over"), action=ref.nested(a.message(st)))
    h = ref.house(a.player)
    action = str(a.to_json())  # the action as sent, a plain value in every language
    if a.player not in st.houses:
        return msg(
            gettext_noop(
                "%(action)s is not legal: it is not %(house)s's decision: %(name)s is not a house in this game (%(houses)s)"
            ),
            action=action,
            house=a.player,
            name=repr(a.player),
            houses=ref.listing([ref.house(x) for x in st.houses]),
        )
    if isinstance(a, ReopenOrders):
        if a in st.legal_actions(a.player):
            return None
        if st.pending is None or st.pending.kind != "orders":
            return msg(
                gettext_noop(
                    "%(action)s is not legal: orders can be changed only in the Planning phase, before the reveal (W-5.4)"
                ),
                action=action,
            )
        return msg(
            gettext_noop("%(action)s is not legal: %(house)s has not declared its orders complete (W-5.1)"),
            action=action,
            house=h,
        )
    step = f"{st.phase}/{st.step}"  # the engine's step names, as the API and the view show them
    if st.pending is None or a.player not in st.pending.players:
        who = st.current_players()
        waiting = ref.listing([ref.house(x) for x in who]) if who else ref.term(gettext_noop("nobody"))
        return msg(
            gettext_noop(
                "%(action)s is not legal: it is not %(house)s's decision (step %(step)s, waiting for %(who)s)"
            ),
            action=action,
            house=h,
            step=step,
            who=waiting,
        )
    legal = st.legal_actions(a.player)
    if a in legal:
        return None
    kinds = sorted({x.kind for x in legal})
    decision = (st.pending.decision or st.pending.kind).value
    head = msg(
        gettext_noop(
            "%(action)s is not legal: %(house)s must now make a '%(decision)s' decision "
            "(step %(step)s; %(n)s legal actions of type %(kinds)s)"
        ),
        action=action,
        house=h,
        decision=decision,
        step=step,
        n=len(legal),
        kinds=", ".join(kinds),
    )
    if a.kind not in kinds:
        return head
    why = _detail(st, a)
    return (
        head
        if why is None
        else msg(gettext_noop("%(head)s: %(why)s"), head=ref.nested(head), why=ref.nested(why))
    )


def explain_illegal(st: WesterosState, a: Action) -> str:
    """`explain_message` in English ("" for a legal action): houses, areas and cards by their ids."""
    m = explain_message(st, a)
    if m is None:
        return ""
    if st.winner is not None:
        return m.key % {"action": a.describe(st)}
    return m.english(house=str, area=str, card=str, term=lambda t: _TOKEN_OF_LABEL.get(t, t))


_TOKEN_OF_LABEL = {label: token for token, label in ORDER_LABELS.items()}
