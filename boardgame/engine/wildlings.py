"""W-16 Wildling attacks: bids, outcome and the effects of every wildling card.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import messages as ref
from . import westeros_phase
from .actions import track_term, unit_term
from .data import TRACKS
from .messages import gettext_noop, msg
from .structures import Decision, Pending, Step, Task, need

if TYPE_CHECKING:
    from .game import WesterosState


def t_wildling_attack(st: WesterosState, task: Step) -> None:
    given = task.strength
    strength = st.threat if given is None else given
    st.event(msg(gettext_noop("The wildlings attack with strength %(n)s"), n=strength))
    st.push(Step(Task.BID, purpose="wildling", strength=strength, exclude=task.exclude))


def t_wildling_resolve(st: WesterosState, task: Step) -> None:
    bids, bt = need(task.bids), need(task.task)
    strength = bt.strength
    assert strength is not None
    total = sum(bids.values())
    nw = total >= strength if st.config.nights_watch_wins_ties else total > strength
    st.threat = 0 if nw else max(0, st.threat - 4)  # W-16.5
    card = st.wildling_deck.pop(0)
    st.wildling_deck.append(card)  # W-16.7: under the deck
    # The card now at the bottom is public; above it the publicly known run continues unless a card
    # buried by the Messenger Raven (known to its holder only) sits between.
    buried = st.raven_knows is not None and st.raven_knows["where"] == "bottom"
    known = 1 if buried else st.deck_known["wildling"] + 1
    st.deck_known["wildling"] = min(len(st.wildling_deck), known)
    st.raven_knows = None
    won = (
        gettext_noop("The Night's Watch win (%(total)s vs %(strength)s); card: %(card)s")
        if nw
        else gettext_noop("The wildlings win (%(total)s vs %(strength)s); card: %(card)s")
    )
    st.event(msg(won, total=total, strength=strength, card=ref.card(card)), names=True, wildling_card=card)
    target = max(bids.values()) if nw else min(bids.values())
    cands = [h for h in st.turn_order() if h in bids and bids[h] == target]
    eff: Step = Step(Task.WILDLING_EFFECT, card=card, nw=nw, bids=bids, who=cands[0])
    if len(cands) > 1:
        st.choose(st.holder("iron_throne"), Decision.WILDLING_TIE, cands, effect=eff)
    else:
        st.push(eff)


def on_wildling_tie(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    e = need(ctx.effect)
    eff = Step(Task.WILDLING_EFFECT, card=e.card, nw=e.nw, bids=e.bids, who=option)
    st.push(eff)


def t_wildling_effect(st: WesterosState, task: Step) -> None:
    """W-16.8: the card's reward, or the lowest bidder's then everyone else's penalty."""
    card, who, bids = need(task.card), need(task.who), need(task.bids)
    tail: list[Step] = [
        Step(Task.RECONCILE, houses=tuple(st.turn_order())),
        Step(Task.PORT_SYNC),
        Step(Task.VICTORY_CHECK),
    ]
    if task.nw:
        st.push(Step(Task.WL_REWARD, card=card, house=who, bid=bids[who]), *tail)
        return
    others = [h for h in st.turn_order() if h in bids and h != who]
    st.push(
        Step(Task.WL_LOWEST, card=card, house=who),
        *(Step(Task.WL_OTHER, card=card, house=h) for h in others),
        *tail,
    )


def t_wl_reward(st: WesterosState, task: Step) -> None:
    card, h = need(task.card), need(task.house)
    if card == "a_king_beyond_the_wall":
        st.choose(h, Decision.KBW_REWARD, list(TRACKS))
    elif card == "crow_killers":
        st.push(Step(Task.CROW_REWARD, house=h, n=2))
    elif card == "massing_on_the_milkwater":
        st.hands[h].extend(st.discards[h])
        st.discards[h] = []
        st.event(msg(gettext_noop("%(house)s takes back its discarded house cards"), house=ref.house(h)))
    elif card == "mammoth_riders":
        if st.discards[h]:
            st.choose(h, Decision.MAMMOTH_REWARD, [*sorted(st.discards[h]), "none"])
    elif card == "preemptive_raid":
        st.push(Step(Task.WILDLING_ATTACK, strength=6, exclude=h))
    elif card == "rattleshirts_raiders":
        st.supply[h] = min(6, st.supply[h] + 1)
        st.event(msg(gettext_noop("%(house)s moves up to supply %(n)s"), house=ref.house(h), n=st.supply[h]))
    elif card == "skinchanger_scout":
        got = st.gain_power(h, need(task.bid))
        st.event(msg(gettext_noop("%(house)s takes back %(n)s bid power"), house=ref.house(h), n=got))
    elif card == "the_horde_descends":
        ctl = st.controls()
        opts = [a for a in st.data.castle_areas if ctl[a] == h and a not in st.impassable]
        if opts:
            st.choose(h, Decision.HORDE_REWARD, opts)


def t_wl_lowest(st: WesterosState, task: Step) -> None:
    card, h = need(task.card), need(task.house)
    if card == "a_king_beyond_the_wall":
        for t in TRACKS:
            st.tracks[t].remove(h)
            st.tracks[t].append(h)
        st.event(
            msg(gettext_noop("%(house)s drops to the bottom of every influence track"), house=ref.house(h))
        )
    elif card == "crow_killers":
        st.push(Step(Task.CROW_KNIGHTS, house=h, n=99))
    elif card == "massing_on_the_milkwater":
        hand = st.hands[h]
        if len(hand) >= 2:
            top = max(int(st.data.house_cards[x]["strength"]) for x in hand)
            drop = [x for x in hand if int(st.data.house_cards[x]["strength"]) == top]
            if len(drop) < len(hand) or not st.config.milkwater_keeps_one_card:  # W-22.12
                for x in drop:
                    hand.remove(x)
                    st.discards[h].append(x)
                st.event(
                    msg(
                        gettext_noop("%(house)s discards %(cards)s"),
                        house=ref.house(h),
                        cards=ref.listing([ref.card(x) for x in drop]),
                    )
                )
                if not hand:  # W-17.2 by analogy: the rest of the pile comes back
                    st.hands[h] = [x for x in st.discards[h] if x not in drop]
                    st.discards[h] = list(drop)
    elif card == "mammoth_riders":
        st.push(Step(Task.DESTROY_N, house=h, n=3, area=None))
    elif card == "preemptive_raid":
        opts = ["drop_tracks"]
        if any(u.house == h for u in st.units.values()):
            opts.insert(0, "destroy_units")
        st.choose(h, Decision.PREEMPTIVE, opts)
    elif card == "rattleshirts_raiders":
        st.supply[h] = max(0, st.supply[h] - 2)
        st.event(msg(gettext_noop("%(house)s drops to supply %(n)s"), house=ref.house(h), n=st.supply[h]))
    elif card == "skinchanger_scout":
        st.power[h] = 0
        st.event(msg(gettext_noop("%(house)s loses all available power"), house=ref.house(h)))
    elif card == "the_horde_descends":
        # W-16.8: 2 units in ONE castle/stronghold area; a house that cannot (no such area
        # with 2 of its units) destroys 2 units anywhere instead.
        ctl = st.controls()
        opts = [a for a in st.data.castle_areas if ctl[a] == h and st.owner(a) == h and st.unit_count(a) >= 2]
        if opts:
            st.choose(h, Decision.HORDE_AREA, opts)
        else:
            st.push(Step(Task.DESTROY_N, house=h, n=2, area=None))


def t_wl_other(st: WesterosState, task: Step) -> None:
    card, h = need(task.card), need(task.house)
    if card == "a_king_beyond_the_wall":
        st.choose(h, Decision.KBW_TRACK, ["fiefdoms", "kings_court"])
    elif card == "crow_killers":
        st.push(Step(Task.CROW_KNIGHTS, house=h, n=2))
    elif card == "massing_on_the_milkwater":
        if len(st.hands[h]) >= 2:
            st.choose(h, Decision.DISCARD_CARD, sorted(st.hands[h]))
    elif card == "mammoth_riders":
        st.push(Step(Task.DESTROY_N, house=h, n=2, area=None))
    elif card == "rattleshirts_raiders":
        st.supply[h] = max(0, st.supply[h] - 1)
        st.event(msg(gettext_noop("%(house)s drops to supply %(n)s"), house=ref.house(h), n=st.supply[h]))
    elif card == "skinchanger_scout":
        lost = min(2, st.power[h])
        st.power[h] -= lost
        st.event(msg(gettext_noop("%(house)s loses %(n)s available power"), house=ref.house(h), n=lost))
    elif card == "the_horde_descends":
        st.push(Step(Task.DESTROY_N, house=h, n=1, area=None))


def on_kbw_reward(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.tracks[option].remove(p)
    st.tracks[option].insert(0, p)
    st.event(
        msg(
            gettext_noop("%(house)s takes position 1 on %(track)s"),
            house=ref.house(p),
            track=track_term(option),
        )
    )


def on_kbw_track(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.tracks[option].remove(p)
    st.tracks[option].append(p)
    st.event(
        msg(
            gettext_noop("%(house)s drops to the bottom of %(track)s"),
            house=ref.house(p),
            track=track_term(option),
        )
    )


def t_crow_reward(st: WesterosState, task: Step) -> None:
    h, n = need(task.house), need(task.n)
    if n <= 0 or st.available_units(h, "knight") <= 0:
        return
    opts = sorted(a for a, u in st.units.items() if u.house == h and "footman" in u.units + u.routed)
    if opts:
        st.choose(h, Decision.CROW_REWARD, [*opts, "done"], n=n)


def on_crow_reward(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option == "done":
        return
    st.swap_unit(option, "footman", "knight", prefer_routed=False)
    st.event(
        msg(
            gettext_noop("%(house)s replaces a footman in %(area)s with a knight"),
            house=ref.house(p),
            area=ref.area(option),
        )
    )
    st.push(Step(Task.CROW_REWARD, house=p, n=need(ctx.n) - 1))


def t_crow_knights(st: WesterosState, task: Step) -> None:
    h, n = need(task.house), need(task.n)
    if n <= 0:
        return
    opts = sorted(a for a, u in st.units.items() if u.house == h and "knight" in u.units + u.routed)
    if opts:
        st.choose(h, Decision.CROW_KNIGHT, opts, n=n)


def on_crow_knight(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if st.available_units(p, "footman") > 0:
        st.swap_unit(option, "knight", "footman", prefer_routed=True)
        st.event(
            msg(
                gettext_noop("%(house)s replaces a knight in %(area)s with a footman"),
                house=ref.house(p),
                area=ref.area(option),
            )
        )
    else:
        st.remove_unit(option, "knight")
        st.event(
            msg(
                gettext_noop("%(house)s loses a knight in %(area)s (no footman available)"),
                house=ref.house(p),
                area=ref.area(option),
            )
        )
    st.push(Step(Task.CROW_KNIGHTS, house=p, n=need(ctx.n) - 1))


def on_discard_card(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.hands[p].remove(option)
    st.discards[p].append(option)
    st.event(
        msg(
            gettext_noop("%(house)s discards %(cards)s"),
            house=ref.house(p),
            cards=ref.listing([ref.card(option)]),
        )
    )


def on_mammoth_reward(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option != "none":
        st.discards[p].remove(option)
        st.hands[p].append(option)
        st.event(
            msg(gettext_noop("%(house)s takes back %(card)s"), house=ref.house(p), card=ref.card(option))
        )


def on_preemptive(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option == "destroy_units":
        st.push(Step(Task.DESTROY_N, house=p, n=2, area=None))
        return
    best = min(st.tracks[t].index(p) for t in TRACKS)
    opts = [t for t in TRACKS if st.tracks[t].index(p) == best]
    if len(opts) == 1:
        on_preemptive_track(st, p, opts[0], ctx)
    else:
        st.choose(p, Decision.PREEMPTIVE_TRACK, opts)


def on_preemptive_track(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    tr = st.tracks[option]
    i = tr.index(p)
    tr.remove(p)
    tr.insert(min(len(tr), i + 2), p)
    st.event(
        msg(
            gettext_noop("%(house)s drops two places on %(track)s"),
            house=ref.house(p),
            track=track_term(option),
        )
    )


def on_horde_area(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.push(Step(Task.DESTROY_N, house=p, n=2, area=option))


def on_horde_reward(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    westeros_phase.start_muster(st, p, [option])


def t_destroy_n(st: WesterosState, task: Step) -> None:
    h, area, n = need(task.house), task.area, need(task.n)
    if n <= 0:
        return
    opts = sorted(
        f"{a}:{x}"
        for a, u in st.units.items()
        if u.house == h and (area is None or a == area)
        for x in set(u.units + u.routed)
    )
    if opts:
        st.choose(h, Decision.DESTROY, opts, n=n, area=area)


def on_destroy(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    a, x = option.split(":")
    st.remove_unit(a, x)
    st.event(
        msg(
            gettext_noop("%(house)s destroys its %(unit)s in %(area)s"),
            house=ref.house(p),
            unit=unit_term(x.replace("_", " ")),
            area=ref.area(a),
        )
    )
    st.push(Step(Task.DESTROY_N, house=p, n=need(ctx.n) - 1, area=ctx.area))
