"""W-9 Combat: support, house cards, the Valyrian Steel Blade, strength, victor, casualties, clean-up.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import marches
from . import messages as ref
from .actions import Action, DeclareSupport, PlayHouseCard, order_label, unit_term
from .messages import gettext_noop, msg
from .structures import Combat, Decision, Order, Pending, PendingKind, RoundStep, Step, Task, Units, need

if TYPE_CHECKING:
    from .game import WesterosState


# Steps without arguments are values (structures.Step): the same ones serve every combat.
COMBAT_SUPPORT = Step(Task.COMBAT_SUPPORT)
AFTER_VICTORY = (  # W-9.9-9.12 and the "after combat" texts (W-9.5)
    Step(Task.COMBAT_WIN_EFFECTS),
    Step(Task.COMBAT_CASUALTIES),
    Step(Task.COMBAT_RETREAT),
    Step(Task.COMBAT_CLEANUP),
    Step(Task.COMBAT_AFTER),
)


def t_combat_support(st: WesterosState, task: Step) -> None:
    c = st.combat
    assert c is not None
    st.step = RoundStep.COMBAT
    while c.support_queue:
        h = c.support_queue[0]
        if any(sh == h for _a, sh, _t in st.support_orders(c.area)):
            st.push(COMBAT_SUPPORT)
            st.ask(PendingKind.SUPPORT, [h])
            return
        c.support_queue.pop(0)


def legal_support(st: WesterosState, p: str) -> list[Action]:
    c = st.combat
    assert c is not None
    if c.neutral:  # W-11.1: the neutral force gets no support
        return [DeclareSupport(p, c.attacker), DeclareSupport(p, "none")]
    return [DeclareSupport(p, c.attacker), DeclareSupport(p, c.defender), DeclareSupport(p, "none")]


def do_support(st: WesterosState, a: Action) -> None:
    assert isinstance(a, DeclareSupport) and st.combat is not None
    st.pending = None
    st.combat.support[a.player] = a.side
    st.combat.support_queue.remove(a.player)
    if st.config.event_log:
        st.event(a.message(st), text=a.describe(st))


def t_combat_cards(st: WesterosState, task: Step) -> None:
    c = st.combat
    assert c is not None
    players = [h for h in (c.attacker, c.defender) if card_options(st, h)]
    if players:
        st.ask(PendingKind.HOUSE_CARD, players, chosen={})


def card_options(st: WesterosState, h: str) -> list[str]:
    assert st.combat is not None
    return [x for x in st.hands[h] if x not in st.combat.excluded[h]]


def legal_house_card(st: WesterosState, p: str) -> list[Action]:
    return [PlayHouseCard(p, x) for x in card_options(st, p)]


def do_house_card(st: WesterosState, a: Action) -> None:
    assert isinstance(a, PlayHouseCard) and st.pending is not None and st.combat is not None
    need(st.pending.chosen)[a.player] = a.card
    st.pending.players.remove(a.player)
    st.event(msg(gettext_noop("%(house)s has chosen a house card"), house=ref.house(a.player)))
    if st.pending.players:
        return
    chosen = need(st.pending.chosen)
    st.pending = None
    # W-9.4 / W-20.6: revealed together, in the order chosen (`chosen` is stored with one key at most)
    for h, card in chosen.items():
        st.hands[h].remove(card)
        st.combat.cards[h] = card
        st.event(
            msg(gettext_noop("%(house)s reveals %(card)s"), house=ref.house(h), card=ref.card(card)),
            names=True,
            card=card,
        )


def decided(c: Combat) -> tuple[str, str]:
    """The winner and the loser of a combat whose victor is known (W-9.8)."""
    return c.decided()


def opponent(st: WesterosState, h: str) -> str:
    c = st.combat
    assert c is not None
    return str(c.defender if h == c.attacker else c.attacker)


def t_combat_blade(st: WesterosState, task: Step) -> None:
    """W-9.6: the Valyrian Steel Blade, once per round."""
    c = st.combat
    assert c is not None
    h = st.holder("fiefdoms")
    if not st.blade_used and h in c.cards:
        st.choose(h, Decision.BLADE, ["use", "pass"])


def on_blade(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    if option == "use":
        assert st.combat is not None
        st.blade_used = True
        st.combat.blade = p
        st.event(msg(gettext_noop("%(house)s uses the Valyrian Steel Blade (+1)"), house=ref.house(p)))


def supported(st: WesterosState, h: str) -> bool:
    c = st.combat
    assert c is not None
    return any(c.support.get(sh) == h for _a, sh, _t in st.support_orders(c.area))


def combat_numbers(
    st: WesterosState, parts: dict[str, list[list[Any]]] | None = None
) -> dict[str, dict[str, int]]:
    """W-9.3 / W-9.7: strength, swords and fortifications of both sides right now. With `parts`, each
    side's contributions are added to it as ``[label, strength]`` rows (units, order, garrison, support,
    house card, Valyrian Steel Blade) so a player sees where the final strengths come from."""
    rows: dict[str, list[list[Any]]] = {} if parts is None else parts
    c = st.combat
    assert c is not None
    if c.neutral:  # W-11.1: the marcher's strength so far against the neutral force's token
        got = marches.neutral_strength(st, c.attacker, c.area, c.att_units, c.token, c.support)
        return {
            c.attacker: {"strength": got, "swords": 0, "forts": 0},
            "neutral": {"strength": st.neutral[c.area], "swords": 0, "forts": 0},
        }
    att, dfn, area = c.attacker, c.defender, c.area
    castle = st.data.areas[area]["castle"] != "none"
    cards = c.cards
    kevan = cards.get(att) == "ser_kevan_lannister"
    victarion = cards.get(att) == "victarion_greyjoy"
    salladhor = any(
        cards.get(h) == "salladhor_saan" and supported(st, h) for h in (att, dfn) if h == "baratheon"
    )

    it = st.tracks["iron_throne"]

    def val(unit: str, house: str, attacking: bool) -> int:
        v = st.unit_value(unit, castle, attacking)
        if unit == "footman" and kevan and house == att and attacking:
            v = 2
        if unit == "ship":
            # W-9.5: texts changing the same units' strength apply in Iron Throne order, the later
            # house's last (Victarion sets 2, Salladhor Saan sets 0).
            mods: list[tuple[int, int]] = []
            if victarion and house == att and attacking:
                mods.append((it.index(att), 2))
            if salladhor and house != "baratheon":
                mods.append((it.index("baratheon"), 0))
            for _pos, m in sorted(mods):
                v = m
        return v

    rows[att], rows[dfn] = [], []

    def add(h: str, label: str, n: int) -> None:
        s[h] += n
        rows[h].append([label, n])

    s = {att: 0, dfn: 0}
    add(att, "Attacking units", sum(val(u, att, True) for u in c.att_units))
    add(att, order_label(c.token), int(st.data.tokens[c.token]["strength_modifier"]))
    du = st.units.get(area)
    if du is not None and du.house == dfn:
        add(dfn, "Defending units", sum(val(u, dfn, False) for u in du.units))
    o = st.orders.get(area)
    if o and o.house == dfn and o.token.startswith("defense"):
        bonus = int(st.data.tokens[o.token]["strength_modifier"])
        add(dfn, order_label(o.token), bonus * (2 if cards.get(dfn) == "catelyn_stark" else 1))
    if area in st.garrisons and st.data.areas[area].get("home_house") == dfn:
        add(dfn, "Garrison", st.garrisons[area])
    for a, sh, tok in st.support_orders(area):
        side = c.support.get(sh)
        if side not in (att, dfn):
            continue
        # Kevan / Victarion count supporting own-house units when supporting their own attack.
        n = sum(val(u, sh, side == att) for u in st.units[a].units) + (1 if tok == "support_plus_one" else 0)
        add(side, f"Support: {sh.title()} from {st.data.areas[a]['name']}", n)
    sw = {att: 0, dfn: 0}
    fo = {att: 0, dfn: 0}
    for h in (att, dfn):
        card = cards.get(h)
        if card is None:
            continue
        opp = dfn if h == att else att
        info = st.data.house_cards[card]
        printed = 0 if cards.get(opp) == "balon_greyjoy" else int(info["strength"])
        sw[h] += int(info["swords"])
        fo[h] += int(info["fortifications"])
        if card == "stannis_baratheon" and st.tracks["iron_throne"].index(opp) < st.tracks[
            "iron_throne"
        ].index(h):
            printed += 1
        elif card == "ser_davos_seaworth" and "stannis_baratheon" in st.discards[h]:
            printed += 1
            sw[h] += 1
        elif card == "theon_greyjoy" and h == dfn and castle:
            printed += 1
            sw[h] += 1
        elif card == "asha_greyjoy" and not supported(st, h):
            sw[h] += 2
            fo[h] += 1
        elif card == "nymeria_sand":
            if h == att:
                sw[h] += 1
            else:
                fo[h] += 1
        add(h, f"House card: {info['name']}", printed)
    if c.blade in s:
        add(c.blade, "Valyrian Steel Blade", 1)
    return {h: {"strength": max(0, s[h]), "swords": sw[h], "forts": fo[h]} for h in (att, dfn)}


def wins_ties(st: WesterosState, h: str, other: str) -> bool:
    """W-9.8: a tie goes to the house higher on the Fiefdoms track."""
    fief = st.tracks["fiefdoms"]
    return fief.index(h) < fief.index(other)


def victor(st: WesterosState, att: str, dfn: str, sa: int, sd: int) -> str:
    """W-9.8: the house with the higher final strength, a tie broken by `wins_ties`."""
    if sa != sd:
        return att if sa > sd else dfn
    return att if wins_ties(st, att, dfn) else dfn


def t_combat_resolve(st: WesterosState, task: Step) -> None:
    """W-9.8: the victor; ties go to the higher Fiefdoms position."""
    c = st.combat
    assert c is not None
    parts: dict[str, list[list[Any]]] = {}
    nums = combat_numbers(st, parts)
    att, dfn = c.attacker, c.defender
    sa, sd = nums[att]["strength"], nums[dfn]["strength"]
    w = victor(st, att, dfn, sa, sd)
    lo = dfn if w == att else att
    c.winner, c.loser = w, lo
    c.casualties = 0 if c.cards.get(lo) == "the_blackfish" else max(0, nums[w]["swords"] - nums[lo]["forts"])
    # W-9.3 / W-9.8: the revealed cards and every contribution, public once the cards are face up (W-9.4)
    summary = {"area": c.area, "attacker": att, "defender": dfn, "cards": dict(c.cards), "parts": parts,
               "numbers": nums, "winner": w}  # fmt: skip
    st.event(
        msg(
            gettext_noop("%(house)s wins the combat in %(area)s (%(attack)s to %(defense)s)"),
            house=ref.house(w),
            area=ref.area(c.area),
            attack=sa,
            defense=sd,
        ),
        numbers=[sa, sd],
        combat=summary,
    )
    st.push(*AFTER_VICTORY)


def losing_units(st: WesterosState) -> list[str]:
    c = st.combat
    assert c is not None
    if c.loser == c.attacker:
        return list(c.att_units)
    u = st.units.get(c.area)
    return list(u.units) if u and u.house == c.loser else []


def destroy_losing(st: WesterosState, unit: str) -> None:
    c = st.combat
    assert c is not None
    if c.loser == c.attacker:
        c.att_units.remove(unit)
    else:
        st.remove_unit(c.area, unit, prefer_routed=False)


def t_combat_casualties(st: WesterosState, task: Step) -> None:
    """W-9.9: garrison removed, siege engines and routed units destroyed, sword casualties."""
    c = st.combat
    assert c is not None
    area, lo = c.area, decided(c)[1]
    if lo == c.defender and area in st.garrisons:
        del st.garrisons[area]
        st.event(msg(gettext_noop("The garrison of %(area)s is removed"), area=ref.area(area)))
    if lo == c.defender:
        u = st.units.get(area)
        if u and u.house == lo:
            n = len(u.routed) + u.units.count("siege_engine")
            st.set_units(area, Units(lo, tuple(x for x in u.units if x != "siege_engine"), ()))
            if n:
                st.event(
                    msg(
                        gettext_noop("%(house)s loses %(n)s siege engine(s)/routed unit(s) in %(area)s"),
                        house=ref.house(lo),
                        n=n,
                        area=ref.area(area),
                    )
                )
    else:
        n = c.att_units.count("siege_engine")
        c.att_units = [x for x in c.att_units if x != "siege_engine"]
        if n:
            st.event(
                msg(gettext_noop("%(house)s loses %(n)s attacking siege engine(s)"), house=ref.house(lo), n=n)
            )
    left = losing_units(st)
    k = need(c.casualties)
    if k >= len(left):
        for x in left:
            destroy_losing(st, x)
        if left:
            st.event(
                msg(
                    gettext_noop("%(house)s loses all %(n)s unit(s) as casualties"),
                    house=ref.house(lo),
                    n=len(left),
                )
            )
        return
    if k > 0:
        st.push(Step(Task.CASUALTY_PICK, left=k))


def t_casualty_pick(st: WesterosState, task: Step) -> None:
    c = st.combat
    assert c is not None
    left = need(task.left)
    if left <= 0:
        return
    opts = sorted(set(losing_units(st)))
    if not opts:
        return
    st.choose(decided(c)[1], Decision.CASUALTY, opts, left=left)


def on_casualty(st: WesterosState, p: str, option: str, ctx: Pending) -> None:
    destroy_losing(st, option)
    st.event(
        msg(
            gettext_noop("%(house)s loses a %(unit)s as a casualty"),
            house=ref.house(p),
            unit=unit_term(option.replace("_", " ")),
        )
    )
    st.push(Step(Task.CASUALTY_PICK, left=need(ctx.left) - 1))


def discard_played(st: WesterosState, h: str, card: str) -> None:
    """W-17.2: discard; after the last card of a hand, the rest of the pile returns."""
    st.discards[h].append(card)
    if not st.hands[h]:
        st.hands[h] = [x for x in st.discards[h] if x != card]
        st.discards[h] = [card]
        st.event(msg(gettext_noop("%(house)s takes back its house cards"), house=ref.house(h)))


def t_combat_cleanup(st: WesterosState, task: Step) -> None:
    """W-9.11: discard cards, the winner moves in, orders and tokens removed."""
    c = st.combat
    assert c is not None
    att, area = c.attacker, c.area
    for h in (att, c.defender):
        card = c.cards.get(h)
        if card is None:
            continue
        discard_played(st, h, card)
        if card == "roose_bolton" and h == c.loser:
            st.hands[h].extend(st.discards[h])
            st.discards[h] = []
            st.event(msg(gettext_noop("Roose Bolton: Stark takes back its whole discard pile")))
    if c.winner == att:
        units = c.att_units
        c.att_units = []
        if c.arianne:
            src = c.origin
            if st.data.kind(src) != "land" or st.control(src) in (None, att):
                for x in units:
                    st.add_unit(src, att, x)
            st.event(msg(gettext_noop("Arianne Martell: the attackers stay where they came from")))
            t = st.tokens.get(area)
            if t is not None and t != att and not st.config.arianne_keeps_power_token:  # W-22.11
                st.drop_token(area)
                st.event(
                    msg(
                        gettext_noop("%(house)s's power token in %(area)s is removed"),
                        house=ref.house(t),
                        area=ref.area(area),
                    )
                )
        else:
            o = st.orders.get(area)
            if o and o.house != att:
                del st.orders[area]
            if units and st.tokens.get(area) not in (None, att):
                st.drop_token(area)  # W-8.3: only when the attacker takes control
            u = st.units.get(area)
            if u is not None and u.house != att:  # only if retreat left units (should not)
                st.set_units(area, None)
            for x in units:
                st.add_unit(area, att, x)
            if c.loras and units:
                st.orders[area] = Order(att, c.token)
                st.event(msg(gettext_noop("Ser Loras Tyrell: the March order moves into the conquered area")))
            if units:
                st.event(
                    msg(gettext_noop("%(house)s takes %(area)s"), house=ref.house(att), area=ref.area(area))
                )
    st.prune_orders()
