"""W-4 Westeros phase cards, W-12.4 supply, W-13 mustering, W-14 bidding, W-15 power.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import messages as ref
from . import rounds
from .actions import (
    CARD_OPTION_WORDS,
    TRACK_NAMES,
    Action,
    Bid,
    Choose,
    Muster,
    house_amount,
    option_words,
    unit_term,
)
from .data import TRACKS, UNIT_TYPES
from .messages import gettext_noop, msg
from .structures import Decision, Pending, PendingKind, RoundStep, Step, Task, need

if TYPE_CHECKING:
    from .game import WesterosState


def t_reveal_westeros(st: WesterosState, task: Step) -> None:
    """W-4.1(2)-(3), W-4.2: reveal decks I-III, Winter is Coming, wildling icons."""
    rounds.enter(st, task)
    st.revealed = []
    icons = 0
    for k in ("1", "2", "3"):
        deck = st.wdecks[k]
        while True:
            card = deck.pop(0)
            deck.append(card)  # resolved cards go under their deck [S&R]
            st.deck_known[k] = min(len(deck), st.deck_known[k] + 1)
            info = st.data.westeros_cards[card]
            if info["effect_type"] == "reshuffle":
                st.event(msg(gettext_noop("Winter is Coming: deck %(deck)s is reshuffled"), deck=k))
                st.rng.shuffle(deck)
                st.deck_known[k] = 0
                continue
            break
        st.revealed.append(card)
        icons += 1 if info["wildling_icon"] else 0
        st.event(
            msg(gettext_noop("Westeros deck %(deck)s: %(card)s"), deck=k, card=ref.card(card)),
            names=True,
            card=card,
        )
    before = st.threat
    st.threat = min(12, st.threat + 2 * icons)
    if st.threat != before:
        st.event(msg(gettext_noop("Wildling threat rises to %(n)s"), n=st.threat))
    tasks: list[Step] = []
    if icons and st.threat >= 12:
        tasks.append(Step(Task.WILDLING_ATTACK, strength=None, exclude=None))
    tasks.extend(Step(Task.WESTEROS_CARD, card=c) for c in st.revealed)
    st.push(*tasks)


def t_westeros_card(st: WesterosState, task: Step) -> None:
    info = st.data.westeros_cards[need(task.card)]
    et, cid = info["effect_type"], info["id"]
    st.event(msg(gettext_noop("Resolving %(card)s"), card=ref.card(need(task.card))), names=True)
    if et == "supply":
        st.push(Step(Task.SUPPLY_ADJUST))
    elif et == "mustering":
        st.push(Step(Task.MUSTER_ALL, houses=tuple(st.turn_order())))
    elif et == "choice":
        token_track = {"iron_throne": "iron_throne", "messenger_raven": "kings_court"}.get(
            info["chooser"], "fiefdoms"
        )
        decision = {
            "a_throne_of_blades": Decision.THRONE_OF_BLADES,
            "dark_wings_dark_words": Decision.DARK_WINGS,
            "put_to_the_sword": Decision.PUT_TO_THE_SWORD,
        }[cid]
        st.choose(st.holder(token_track), decision, list(info["options"]))
    elif et == "bidding":
        st.push(*(Step(Task.BID, purpose="clash", track=t) for t in TRACKS))
    elif et == "power":
        income(st, ports=True)
    elif et == "wildlings_attack":
        st.push(Step(Task.WILDLING_ATTACK, strength=None, exclude=None))
    elif et == "order_restriction":
        st.bans.extend(info.get("restricted_orders", []))


def on_throne_of_blades(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.event(
        msg(
            gettext_noop("A Throne of Blades: %(house)s chooses %(option)s"),
            house=ref.house(p),
            option=ref.term(CARD_OPTION_WORDS[option]),
        ),
        text=f"A Throne of Blades: {p.title()} chooses {option}",
    )
    if option == "supply":
        st.push(Step(Task.SUPPLY_ADJUST))
    elif option == "mustering":
        st.push(Step(Task.MUSTER_ALL, houses=tuple(st.turn_order())))


def on_dark_wings(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.event(
        msg(
            gettext_noop("Dark Wings, Dark Words: %(house)s chooses %(option)s"),
            house=ref.house(p),
            option=ref.term(CARD_OPTION_WORDS[option]),
        ),
        text=f"Dark Wings, Dark Words: {p.title()} chooses {option.replace('_', ' ')}",
    )
    if option == "clash_of_kings":
        st.push(*(Step(Task.BID, purpose="clash", track=t) for t in TRACKS))
    elif option == "collect_power":
        income(st, ports=st.config.dark_wings_port_income)  # W-15.2 / W-22.1


def on_put_to_the_sword(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    st.event(
        msg(
            gettext_noop("Put to the Sword: %(house)s chooses %(option)s"),
            house=ref.house(p),
            option=ref.term(CARD_OPTION_WORDS.get(option) or option_words(option)),
        ),
        text=f"Put to the Sword: {p.title()} chooses {option_words(option)}",
    )
    if option == "no_defense_orders":
        st.bans.extend(["defense_plus_one", "defense_plus_two"])
    elif option == "no_march_plus_one":
        st.bans.append("march_plus_one")


def income(st: WesterosState, ports: bool) -> None:
    """W-15.1: 1 power per crown in controlled land areas (+ qualifying ports)."""
    ctl = st.controls()
    for h in st.turn_order():
        n = sum(int(st.data.areas[a]["crowns"]) for a in st.data.land_areas if ctl[a] == h)
        if ports:
            for a, u in st.units.items():
                ad = st.data.areas[a]
                if u.house == h and ad["kind"] == "port" and ctl[ad["land_area"]] == h:
                    if not st.is_enemy_ship_in(ad["sea_area"], h):
                        n += 1
        got = st.gain_power(h, n)
        st.event(msg(gettext_noop("%(house)s gains %(n)s power"), house=ref.house(h), n=got))


def t_supply_adjust(st: WesterosState, task: Step) -> None:
    for h in st.houses:
        st.supply[h] = min(6, st.supply_icons(h))
    st.event(
        msg(
            gettext_noop("Supply: %(levels)s"),
            levels=ref.listing([house_amount(h, st.supply[h]) for h in st.turn_order()]),
        ),
        text="Supply: " + ", ".join(f"{h} {st.supply[h]}" for h in st.turn_order()),
    )
    st.push(Step(Task.RECONCILE, houses=tuple(st.turn_order())))


def t_reconcile(st: WesterosState, task: Step) -> None:
    """W-12.4: in turn order, houses over the limit destroy units of their choice."""
    for h in need(task.houses):
        if not st.supply_ok(h):
            opts = sorted(
                f"{a}:{x}"
                for a, u in st.units.items()
                if u.house == h and len(u.units) + len(u.routed) >= 2
                for x in set(u.units + u.routed)
            )
            st.push(Step(Task.RECONCILE, houses=task.houses))
            st.choose(h, Decision.RECONCILE, opts)
            return


def on_reconcile(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    a, x = option.split(":")
    st.remove_unit(a, x)
    st.event(
        msg(
            gettext_noop("%(house)s destroys a %(unit)s in %(area)s to fit supply"),
            house=ref.house(p),
            unit=unit_term(x.replace("_", " ")),
            area=ref.area(a),
        )
    )


def t_muster_all(st: WesterosState, task: Step) -> None:
    houses = list(need(task.houses))
    while houses:
        h = houses.pop(0)
        ctl = st.controls()
        areas = [a for a in st.data.castle_areas if ctl[a] == h and a not in st.impassable]
        if areas:
            st.push(Step(Task.MUSTER_ALL, houses=tuple(houses)))
            start_muster(st, h, areas)
            if st.pending is not None:
                return
            st.agenda.pop()


def start_muster(st: WesterosState, house: str, areas: list[str]) -> None:
    pts = {"stronghold": 2, "castle": 1}
    st.ask(PendingKind.MUSTER, [house], points={a: pts.get(st.data.areas[a]["castle"], 0) for a in areas})
    if not can_muster(st, house):
        st.pending = None


def legal_muster(st: WesterosState, p: str) -> list[Action]:
    out: list[Action] = list(_muster_options(st, p))
    out.append(Choose(p, "muster_done", "done"))
    return out


def can_muster(st: WesterosState, p: str) -> bool:
    """Whether `p` has a Muster option left (`legal_muster` offers more than "done"), found lazily."""
    return next(_muster_options(st, p), None) is not None


def _muster_options(st: WesterosState, p: str) -> Iterator[Action]:
    """W-13: the Muster actions of `p` in the pending mustering, in `legal_muster` order."""
    assert st.pending is not None
    avail = {t: st.available_units(p, t) for t in UNIT_TYPES}
    sizes = st.army_sizes(p)  # W-12.3 checked per destination as `supply_ok(p, {dest: 1})` would

    def fits(dest: str) -> bool:
        sz = dict(sizes)
        sz[dest] = sz.get(dest, 0) + 1
        return st.fits_supply(sorted((n for n in sz.values() if n >= 2), reverse=True), p)

    for area, pts in sorted(need(st.pending.points).items()):
        if pts <= 0:
            continue
        if avail["footman"] and fits(area):
            yield Muster(p, area, "footman", area)
        if pts >= 2:
            for t in ("knight", "siege_engine"):
                if avail[t] and fits(area):
                    yield Muster(p, area, t, area)
        if avail["ship"]:
            for dest in ship_muster_targets(st, p, area):
                if fits(dest):
                    yield Muster(p, area, "ship", dest)
        u = st.units.get(area)
        if u and u.house == p and ("footman" in u.units or "footman" in u.routed):
            for t in ("knight", "siege_engine"):
                if avail[t]:
                    yield Muster(p, area, t, area, True)


def ship_muster_targets(st: WesterosState, p: str, area: str) -> list[str]:
    """W-13.4: the area's port (cap 3) or an adjacent sea without enemy ships."""
    out = []
    port = st.data.areas[area].get("port")
    if port and port not in st.impassable and st.owner(port) in (None, p):
        if st.unit_count(port) < int(st.data.areas[port]["max_ships"]):
            out.append(port)
    for s in st.data.adj[area]:
        if st.data.kind(s) == "sea" and st.owner(s) in (None, p):
            out.append(s)
    return out


def do_muster(st: WesterosState, a: Action) -> None:
    assert st.pending is not None
    if isinstance(a, Choose):
        st.pending = None
        if st.config.event_log:
            st.event(msg(gettext_noop("%(house)s finishes mustering"), house=ref.house(a.player)))
        return
    assert isinstance(a, Muster)
    if a.upgrade:
        st.swap_unit(a.area, "footman", a.unit, prefer_routed=False)
        need(st.pending.points)[a.area] -= 1
    else:
        st.add_unit(a.dest, a.player, a.unit)
        need(st.pending.points)[a.area] -= 2 if a.unit in ("knight", "siege_engine") else 1
    if st.config.event_log:
        st.event(a.message(st), text=a.describe(st))
    if not can_muster(st, a.player):
        st.pending = None


def t_bid(st: WesterosState, task: Step) -> None:
    players = [h for h in st.turn_order() if h != task.exclude]
    st.step = RoundStep.CLASH_OF_KINGS if task.purpose == "clash" else RoundStep.WILDLING_ATTACK
    st.ask(PendingKind.BID, players, bids={}, task=task)


def legal_bid(st: WesterosState, p: str) -> list[Action]:
    return [Bid(p, n) for n in range(st.power[p] + 1)]


def do_bid(st: WesterosState, a: Action) -> None:
    assert isinstance(a, Bid) and st.pending is not None
    need(st.pending.bids)[a.player] = a.amount
    st.pending.players.remove(a.player)
    if st.config.event_log:
        st.event(msg(gettext_noop("%(house)s has bid"), house=ref.house(a.player)))
    if st.pending.players:
        return
    bids, task = need(st.pending.bids), need(st.pending.task)
    st.pending = None
    for h, n in bids.items():  # W-14.2 / W-16.5: bid tokens go to the pool
        st.power[h] -= n
    order = [
        h for h in st.turn_order() if h in bids
    ]  # in turn order: neither key order nor who bid first shows
    if st.config.event_log:
        st.event(
            msg(gettext_noop("Bids: %(bids)s"), bids=ref.listing([house_amount(h, bids[h]) for h in order])),
            text="Bids: " + ", ".join(f"{h} {bids[h]}" for h in order),
            bids=dict(bids),
        )
    if task.purpose == "clash":
        groups = tuple(
            tuple(sorted(h for h in bids if bids[h] == amount))
            for amount in sorted(set(bids.values()), reverse=True)
        )
        st.push(Step(Task.RANK, track=task.track, groups=groups, result=()))
    else:
        st.push(Step(Task.WILDLING_RESOLVE, bids=bids, task=task))


def t_rank(st: WesterosState, task: Step) -> None:
    """W-14.2-3: place houses by bid; the Iron Throne holder orders every tie."""
    groups, result, track = list(need(task.groups)), list(need(task.result)), need(task.track)
    while groups:
        g = groups[0]
        if len(g) == 1:
            result.append(g[0])
            groups.pop(0)
        elif not g:
            groups.pop(0)
        else:
            waiting = Step(Task.RANK, track=track, groups=tuple(groups), result=tuple(result))
            st.push(waiting)
            st.choose(st.holder("iron_throne"), Decision.TIE_ORDER, list(g), task=waiting)
            return
    st.tracks[track] = result
    st.event(
        msg(
            gettext_noop("%(track)s track: %(houses)s"),
            track=ref.term(TRACK_NAMES[track]),
            houses=ref.listing([ref.house(h) for h in result]),
        ),
        text=f"{track.replace('_', ' ').title()} track: {', '.join(result)}",
    )


def on_tie_order(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    task = st.agenda[-1]  # the rank step waiting for this tie-break (W-14.3): replaced, never changed
    first, *rest = need(task.groups)
    groups = (tuple(h for h in first if h != option), *rest)
    st.agenda[-1] = Step(Task.RANK, track=task.track, groups=groups, result=(*need(task.result), option))
