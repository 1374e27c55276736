"""W-17 house-card texts in their W-9.5 timing: cancel, immediately, win/lose, after combat.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import combat
from . import messages as ref
from .actions import order_term, track_term
from .data import TRACKS
from .messages import gettext_noop, msg
from .structures import Decision, Pending, PendingKind, Step, Task, need

if TYPE_CHECKING:
    from .game import WesterosState


def t_combat_cancel(st: WesterosState, task: Step) -> None:
    """W-9.5: "cancel" texts first (Tyrion)."""
    c = st.combat
    assert c is not None
    for h in st.turn_order():
        if h in c.cards and c.cards[h] == "tyrion_lannister" and not c.tyrion_done:
            if c.cards[combat.opponent(st, h)] is not None:
                c.tyrion_done = True
                st.choose(h, Decision.TYRION, ["cancel", "keep"])
                return


def on_tyrion(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    c = st.combat
    assert c is not None
    if option == "keep":
        return
    opp = combat.opponent(st, p)
    card = c.cards[opp]
    assert card is not None  # Tyrion only cancels a card that was played
    st.hands[opp].append(card)
    c.excluded[opp].append(card)
    c.cards[opp] = None
    st.event(
        msg(
            gettext_noop("Tyrion Lannister sends %(card)s back to %(house)s's hand"),
            card=ref.card(card),
            house=ref.house(opp),
        ),
        names=True,
    )
    if combat.card_options(st, opp):
        st.ask(PendingKind.HOUSE_CARD, [opp], chosen={})


def t_combat_immediate(st: WesterosState, task: Step) -> None:
    """W-9.5: "immediately" texts (Aeron, Doran, Mace, Queen of Thorns) in turn order."""
    c = st.combat
    assert c is not None
    for h in st.turn_order():
        card = c.cards.get(h) if h in c.cards else None
        if card is None or card in c.imm_done:
            continue
        if st.data.house_cards[card]["effect_timing"] != "immediately":
            continue
        c.imm_done.append(card)
        st.push(Step(Task.COMBAT_IMMEDIATE))
        opp = combat.opponent(st, h)
        if card == "aeron_damphair":
            if st.power[h] >= 2 and [x for x in st.hands[h] if x not in c.excluded[h]]:
                st.choose(h, Decision.AERON, ["swap", "keep"])
            return
        if card == "doran_martell":
            st.choose(h, Decision.DORAN, list(TRACKS))
            return
        if card == "mace_tyrell":
            mace(st, h, opp)
            return
        if card == "queen_of_thorns":
            opts = [a for a in st.data.adj[c.area] if a in st.orders and st.orders[a].house == opp]
            if opts:
                st.choose(h, Decision.QUEEN_OF_THORNS, sorted(opts))
            return
        return


def on_aeron(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    c = st.combat
    assert c is not None
    if option == "keep":
        return
    st.power[p] -= 2
    st.discards[p].append("aeron_damphair")
    c.cards[p] = None
    c.excluded[p].append("aeron_damphair")
    st.event(msg(gettext_noop("%(house)s pays 2 power to replace Aeron Damphair"), house=ref.house(p)))
    st.ask(PendingKind.HOUSE_CARD, [p], chosen={})


def on_doran(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    opp = combat.opponent(st, p)
    tr = st.tracks[option]
    tr.remove(opp)
    tr.append(opp)
    st.event(
        msg(
            gettext_noop("Doran Martell moves %(house)s to the bottom of %(track)s"),
            house=ref.house(opp),
            track=track_term(option),
        )
    )


def mace(st: WesterosState, h: str, opp: str) -> None:
    """Mace Tyrell kills one opposing footman (blocked by The Blackfish, W-17.3)."""
    c = st.combat
    assert c is not None
    if c.cards.get(opp) == "the_blackfish":
        st.event(msg(gettext_noop("The Blackfish prevents Mace Tyrell's kill")))
        return
    if opp == c.attacker:
        if "footman" in c.att_units:
            c.att_units.remove("footman")
            st.event(
                msg(gettext_noop("Mace Tyrell destroys an attacking %(house)s footman"), house=ref.house(opp))
            )
    else:
        u = st.units.get(c.area)
        if u and u.house == opp and ("footman" in u.units or "footman" in u.routed):
            st.remove_unit(c.area, "footman", prefer_routed=False)
            st.event(
                msg(gettext_noop("Mace Tyrell destroys a defending %(house)s footman"), house=ref.house(opp))
            )


def on_queen_of_thorns(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    h, tok = st.orders.pop(option)
    st.event(
        msg(
            gettext_noop("Queen of Thorns removes %(house)s's %(order)s in %(area)s"),
            house=ref.house(h),
            order=order_term(tok),
            area=ref.area(option),
        )
    )


def t_combat_win_effects(st: WesterosState, task: Step) -> None:
    """W-9.12: "if you win / lose" texts."""
    c = st.combat
    assert c is not None
    w, lo = combat.decided(c)
    wc, lc = c.cards.get(w), c.cards.get(lo)
    if lc == "arianne_martell" and lo == c.defender:
        c.arianne = True
    if wc == "ser_loras_tyrell" and w == c.attacker:
        c.loras = True
    if wc == "tywin_lannister":
        got = st.gain_power(w, 2)
        st.event(msg(gettext_noop("Tywin Lannister: %(house)s gains %(n)s power"), house=ref.house(w), n=got))
    elif wc == "cersei_lannister":
        opts = sorted(a for a, (h, _t) in st.orders.items() if h == lo)
        if opts:
            st.choose(w, Decision.CERSEI, [*opts, "none"])
    elif wc == "renly_baratheon" and st.available_units(w, "knight") > 0:
        opts = []
        if w == c.attacker and "footman" in c.att_units:
            opts.append("attacking_units")
        u = st.units.get(c.area)
        if w == c.defender and u and u.house == w and "footman" in u.units:
            opts.append(c.area)
        for a, sh, _t in st.support_orders(c.area):
            if sh == w and c.support.get(w) == w and "footman" in st.units[a].units:
                opts.append(a)
        if opts:
            st.choose(w, Decision.RENLY, [*opts, "none"])


def on_cersei(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option != "none":
        h, tok = st.orders.pop(option)
        st.event(
            msg(
                gettext_noop("Cersei Lannister removes %(house)s's %(order)s in %(area)s"),
                house=ref.house(h),
                order=order_term(tok),
                area=ref.area(option),
            )
        )


def on_renly(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    c = st.combat
    assert c is not None
    if option == "none":
        return
    if option == "attacking_units":
        c.att_units.remove("footman")
        c.att_units.append("knight")
    else:
        st.swap_unit(option, "footman", "knight", prefer_routed=False)
    st.event(
        msg(gettext_noop("Renly Baratheon upgrades a footman to a knight (%(area)s)"), area=ref.area(option))
    )


def t_combat_after(st: WesterosState, task: Step) -> None:
    """W-9.5: "after combat" texts (Patchface), then the combat is over."""
    c = st.combat
    assert c is not None
    st.combat = None
    for h in st.turn_order():
        if h in c.cards and c.cards[h] == "patchface":
            opp = c.defender if h == c.attacker else c.attacker
            if st.hands[opp]:
                st.choose(h, Decision.PATCHFACE, [*sorted(st.hands[opp]), "none"], opponent=opp)
                return


def on_patchface(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option == "none":
        return
    opp = need(ctx.opponent)
    st.hands[opp].remove(option)
    combat.discard_played(st, opp, option)
    st.event(
        msg(
            gettext_noop("Patchface discards %(card)s from %(house)s's hand"),
            card=ref.card(option),
            house=ref.house(opp),
        )
    )
