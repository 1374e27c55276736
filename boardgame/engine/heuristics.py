"""Westeros heuristics shared by the agents: one-step action scores, order plans, a static evaluation and
the rollout policy of the search.

Everything here reads a full `WesterosState`. An agent only ever passes states it may hold: a sample of
what its house cannot tell apart (`Information.determinize` / `observed`) or a state inside its own
simulation, so nothing hidden from the house reaches a decision (W-20).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import TYPE_CHECKING

from .actions import (
    Action,
    Bid,
    Choose,
    DeclareSupport,
    EndMarch,
    FinishOrders,
    MarchMove,
    Muster,
    PlaceOrder,
    PlayHouseCard,
    RemoveOrder,
    ResolveConsolidate,
    ResolveRaid,
)
from .ai_params import DEFAULT_PARAMS, GreedyWeights, WesterosAIParams
from .board import order_type
from .card_choice import blade_and_tie, card_mix, draw
from .structures import Order, PendingKind

if TYPE_CHECKING:
    from .game import WesterosState

CASTLE_VALUE = {"none": 0.0, "castle": 2.0, "stronghold": 3.0}
UNIT_VALUE = {"footman": 1.0, "knight": 2.0, "siege_engine": 1.0, "ship": 0.7}


# ---------------------------------------------------------------------------------------------- one step
def greedy_score(st: WesterosState, p: str, a: Action, g: GreedyWeights = DEFAULT_PARAMS.greedy) -> float:
    """The one-step heuristic of the greedy level: takes castles, supports itself, bids what it can
    (its numbers: `ai_params.GreedyWeights`)."""
    data = st.data
    if isinstance(a, RemoveOrder):
        # W-5.1: rollouts never take a placed order back (placing or finishing is better)
        return g.remove_order
    if isinstance(a, PlaceOrder):
        area = data.areas[a.area]
        near_target = any(
            data.kind(n) == "land" and data.areas[n]["castle"] != "none" and st.control(n) != p
            for n in data.adj[a.area]
        )
        tok = a.token
        if tok.startswith("march"):
            march = g.march_order_near_target if near_target else g.march_order
            return march + (g.march_plus_one if tok == "march_plus_one" else 0)
        if tok.startswith("defense"):
            return g.defense_order_castle if area["castle"] != "none" else g.defense_order
        if tok.startswith("consolidate"):
            return g.consolidate_order + int(area.get("crowns", 0))
        if tok.startswith("support"):
            return g.support_order
        return g.other_order
    if isinstance(a, MarchMove):
        dest = data.areas[a.dest]
        s = len(a.units) * g.march_per_unit
        if dest["kind"] == "land" and st.control(a.dest) != p:
            s += g.march_takes_land + (g.march_takes_castle if dest["castle"] != "none" else 0.0)
        if a.dest in st.neutral:
            s += g.march_into_neutral
        return s + _greedy_combat_term(st, p, a, g)
    if isinstance(a, EndMarch):
        return g.end_march_leaving_power if a.leave_power_token else g.end_march
    if isinstance(a, DeclareSupport):
        return g.support_own_side if a.side == p else 0.0
    if isinstance(a, PlayHouseCard):
        info = data.house_cards[a.card]
        return float(
            info["strength"] + info["swords"] * g.card_swords + info["fortifications"] * g.card_fortifications
        )
    if isinstance(a, Bid):
        power = st.power[p]
        want = (st.threat // max(1, len(st.houses))) + 1 if st.step == "wildling_attack" else power // 2
        return -abs(a.amount - min(power, want))
    if isinstance(a, Muster):
        return g.muster[a.unit]
    if isinstance(a, ResolveConsolidate):
        return g.consolidate_muster if a.muster else g.consolidate
    if isinstance(a, ResolveRaid):
        if a.target is None:
            return 0.0
        o = st.orders.get(a.target)
        return g.raid_consolidate if o and o.token.startswith("consolidate") else g.raid
    if isinstance(a, Choose):
        return g.choose.get(a.decision, {}).get(a.option, 0.0)
    return 0.0


def _greedy_combat_term(
    st: WesterosState, p: str, a: MarchMove, g: GreedyWeights = DEFAULT_PARAMS.greedy
) -> float:
    """greedy_score's read of a march into another house's units or garrison: `combat_won` (+2) when the
    units and modifiers alone reach the defence (ties counted as won), else `combat_lost` (-6); 0 when
    there is no such combat."""
    data = st.data
    dest = data.areas[a.dest]
    enemy = st.units.get(a.dest)
    hostile_garrison = a.dest in st.garrisons and dest.get("home_house") != p
    if not ((enemy is not None and enemy.house != p) or hostile_garrison):
        return 0.0
    castle = dest["castle"] != "none"
    mine = sum(4 if (u == "siege_engine" and castle) else {"knight": 2}.get(u, 1) for u in a.units)
    if st.march is not None:
        mine += int(data.tokens[st.march.token]["strength_modifier"])
    theirs = st.garrisons.get(a.dest, 0) if hostile_garrison else 0
    if enemy is not None and enemy.house != p:
        theirs += sum({"knight": 2, "siege_engine": 0}.get(u, 1) for u in enemy.units)
        o = st.orders.get(a.dest)
        if o and o.token.startswith("defense"):
            theirs += int(data.tokens[o.token]["strength_modifier"])
    return g.combat_won if mine >= theirs else g.combat_lost


# ---------------------------------------------------------------------------------------------- orders
def _area_worth(st: WesterosState, a: str) -> float:
    ar = st.data.areas[a]
    return CASTLE_VALUE[ar["castle"]] + 0.5 * int(ar["supply"]) + 0.5 * int(ar["crowns"]) + 0.5


def _strength(units: Sequence[str], castle: bool) -> float:
    return sum(4.0 if (u == "siege_engine" and castle) else (0.0 if u == "siege_engine" else UNIT_VALUE[u])
               for u in units)  # fmt: skip


def _defence(st: WesterosState, t: str, h: str) -> float:
    """What stands in `t` against a march of `h` (units, garrison, neutral force: W-7.1.2, W-11)."""
    d = 0.0
    u = st.units.get(t)
    if u is not None and u.house != h:
        d += sum({"knight": 2.0, "siege_engine": 0.0}.get(x, 1.0) for x in u.units)
    if t in st.garrisons and st.data.areas[t].get("home_house") != h:
        d += st.garrisons[t]
    d += st.neutral.get(t, 0)
    return d


def land_threats(st: WesterosState, h: str) -> dict[str, float]:
    """The strongest army of another house that can march into each land area (W-7.1.1), by land or
    carried by its ships (W-10.3): a landing from the sea threatens a coast as much as a neighbour."""
    data = st.data
    out: dict[str, float] = {}
    for e, o in st.units.items():
        if o.house == h or data.kind(e) != "land":
            continue
        for t in st.move_targets(o.house, e):
            if data.kind(t) == "land":
                s = _strength(o.units, data.areas[t]["castle"] != "none")
                if s > out.get(t, 0.0):
                    out[t] = s
    return out


def _type_utilities(
    st: WesterosState, h: str, a: str, threats: dict[str, float] | None = None
) -> dict[str, float]:
    """How useful each order type looks in `a` for `h` (W-5.1, W-7): a plain reading of the board.
    `threats` (`land_threats`) adds the armies that can reach `a` by sea to those next to it."""
    data = st.data
    u = st.units[a]
    units = u.units
    kind = data.kind(a)
    adj = data.adj[a]
    enemy_near = 0.0
    for n in adj:
        o = st.units.get(n)
        if o is not None and o.house != h and data.kind(n) != "port":
            enemy_near = max(enemy_near, _strength(o.units, False))
    if threats is not None and kind == "land":
        enemy_near = max(enemy_near, threats.get(a, 0.0))
    util = {"march": -0.5, "defense": 0.0, "support": 0.2, "raid": 0.0, "consolidate_power": 0.0}
    if kind == "land":
        worth = _area_worth(st, a)
        for t in st.move_targets(h, a):
            if data.kind(t) != "land":
                continue
            castle = data.areas[t]["castle"] != "none"
            mine = _strength(units, castle)
            gain = _area_worth(st, t) if st.control(t) != h else 0.0
            d = _defence(st, t, h)
            if threats is not None and castle and t not in st.units and st.control(t) == h:
                v = 0.6 * _area_worth(st, t) if threats.get(t, 0.0) > 0 else gain
            elif d == 0:
                v = gain
            elif mine + 1.0 >= d:
                v = gain + 0.5 + (1.0 if st.owner(t) is not None else 0.0)
            else:
                v = -1.0
            if threats is not None and v > 0 and threats.get(t, 0.0) > mine:
                v = min(v, 0.0)  # another house's army can take it back at once (over land or by sea)
            util["march"] = max(util["march"], v)
        if enemy_near > 0:
            util["defense"] = 0.6 * worth * min(1.5, enemy_near / max(1.0, _strength(units, False))) + 0.3
        util["consolidate_power"] = 0.7 + 1.0 * int(data.areas[a]["crowns"])
        if data.areas[a]["castle"] != "none":
            util["consolidate_power"] += 0.3
    else:
        util["consolidate_power"] = 0.3 if kind == "port" else -1.0
        for n in adj:
            if data.kind(n) == "sea" and kind == "sea":
                o = st.units.get(n)
                if o is not None and o.house != h and len(units) >= len(o.units):
                    util["march"] = max(util["march"], 1.0)
        util["defense"] = 0.5 if enemy_near > 0 else 0.0
    for n in adj:
        o = st.units.get(n)
        if o is not None and o.house != h:
            util["raid"] = max(util["raid"], 0.9)
        if data.kind(n) == "land" and (st.control(n) != h or (o is not None and o.house != h)):
            util["support"] = max(util["support"], 0.4 + 0.4 * _strength(units, False))
        elif o is not None and o.house == h and data.kind(n) == "land":
            util["support"] = max(util["support"], 0.3 + 0.2 * _strength(units, False))
    return util


def _token_bonus(st: WesterosState, a: str, tok: str) -> float:
    info = st.data.tokens[tok]
    mod = info["strength_modifier"]
    if tok == "consolidate_power_special":
        return 1.2 if st.data.areas[a]["castle"] != "none" else 0.3
    if tok == "raid_special":
        return 0.2
    return 0.3 * float(mod) if mod is not None else 0.0


def plan_orders(
    st: WesterosState, h: str, areas: list[str], rng: Random, noise: float
) -> list[tuple[str, str]]:
    """One order token for each of `areas` (sorted ids) for `h`: token counts, bans (W-5.3) and the ★ limit
    (W-5.2) respected given the orders `h` already has elsewhere. `noise` 0 is the plain best guess."""
    data = st.data
    used: dict[str, int] = {}
    stars = 0
    for oa, (oh, t) in st.orders.items():
        if oh == h and oa not in areas:
            used[t] = used.get(t, 0) + 1
            stars += 1 if data.tokens[t]["special"] else 0
    limit = st.star_limit(h)
    threats = land_threats(st, h)
    utils = {a: _type_utilities(st, h, a, threats) for a in areas}
    if noise:
        for a in areas:
            for k in utils[a]:
                utils[a][k] += noise * rng.random()
    order = sorted(areas, key=lambda a: -max(utils[a].values()))
    out: list[tuple[str, str]] = []
    for a in order:
        best: tuple[float, str] | None = None
        for tok, info in data.tokens.items():
            if used.get(tok, 0) >= info["count"] or tok in st.bans:
                continue
            if info["special"] and stars >= limit:
                continue
            v = utils[a][order_type(tok)] + _token_bonus(st, a, tok)
            if best is None or v > best[0]:
                best = (v, tok)
        if best is None:
            continue
        tok = best[1]
        used[tok] = used.get(tok, 0) + 1
        stars += 1 if data.tokens[tok]["special"] else 0
        out.append((a, tok))
    out.sort()
    return out


# ---------------------------------------------------------------------------------------------- value
# The static evaluation: each house's score is a weighted sum of the features below (`house_features`, in
# this order) and `evaluate` is a softmax of the scores, a house's chance to win. The weights and the seat
# constants are parameters (`ai_params.WesterosAIParams.eval_weights`, `seat_prior`), fitted by
# `bench/westeros_eval_fit.py`.
FEATURES: tuple[str, ...] = (
    "castles",
    "castles_over_4",
    "castles_over_5",
    "castles_progress",
    "castles_last_rounds",
    "lands",
    "supply",
    "power",
    "army",
    "iron_throne",
    "fiefdoms",
    "kings_court",
    "cards",
    "castles_at_risk",
    "castles_in_reach",
)


def castle_reach(st: WesterosState) -> dict[str, dict[str, float]]:
    """For each house, the strongest of its armies that can march into each castle or stronghold area next
    (W-7.1.1: over land or carried by its ships, W-10.3), siege engines counted as against a castle."""
    data = st.data
    out: dict[str, dict[str, float]] = {}
    for e, o in st.units.items():
        if data.kind(e) != "land":
            continue
        r = out.setdefault(o.house, {})
        s = _strength(o.units, True)
        for t in st.move_targets(o.house, e):
            if s > r.get(t, 0.0) and data.kind(t) == "land" and data.areas[t]["castle"] != "none":
                r[t] = s
    return out


def house_features(st: WesterosState) -> dict[str, tuple[float, ...]]:
    """Each house's `FEATURES`, in that order."""
    data = st.data
    ctl = st.controls()
    n = len(st.houses)
    progress = st.round / st.config.max_rounds
    last = 1.0 if st.round >= st.config.max_rounds - 1 else 0.0
    castles = Counter(ctl[a] for a in data.castle_areas)
    lands = Counter(ctl[a] for a in data.land_areas)
    army = {h: 0.0 for h in st.houses}
    for u in st.units.values():
        if u.house in army:
            army[u.house] += sum(UNIT_VALUE[x] for x in u.units) + 0.5 * sum(UNIT_VALUE[x] for x in u.routed)
    reach = castle_reach(st)
    at_risk = {h: 0 for h in st.houses}
    in_reach = {h: 0 for h in st.houses}
    for a in data.castle_areas:
        c = ctl[a]
        here = st.units.get(a)
        held = (0.0 if here is None else _strength(here.units, False)) + st.garrisons.get(a, 0)
        threatened = False
        for h, r in reach.items():
            if h != c and r.get(a, 0.0) > held:
                threatened = True
                if h in in_reach:
                    in_reach[h] += 1
        if threatened and c is not None and c in at_risk:
            at_risk[c] += 1
    out: dict[str, tuple[float, ...]] = {}
    for h in st.houses:
        k = castles[h]
        out[h] = (
            k,
            max(0, k - 4),
            max(0, k - 5),
            k * progress,
            k * last,
            lands[h],
            st.supply[h],
            st.power[h],
            army[h],
            *(
                (n - 1 - st.tracks[t].index(h)) / max(1, n - 1)
                for t in ("iron_throne", "fiefdoms", "kings_court")
            ),
            sum(int(data.house_cards[x]["strength"]) for x in st.hands[h]),
            at_risk[h],
            in_reach[h],
        )
    return out


def house_scores(st: WesterosState, params: WesterosAIParams = DEFAULT_PARAMS) -> dict[str, float]:
    """A static score per house: `params.eval_weights` times `house_features` (castles first, W-18)."""
    weights = tuple(params.eval_weights[f] for f in FEATURES)
    return {h: sum(w * x for w, x in zip(weights, f, strict=True)) for h, f in house_features(st).items()}


def evaluate(st: WesterosState, me: str, params: WesterosAIParams = DEFAULT_PARAMS) -> float:
    """`me`'s chance to win as the search sees it: 1/0 at the end, else the softmax of `house_scores` (plus
    the seat constants `params.seat_prior` when `params.seat_prior_on`)."""
    if st.winner is not None:
        return 1.0 if st.winner == me else 0.0
    s = house_scores(st, params)
    prior = params.seat_prior.get(len(st.houses)) if params.seat_prior_on else None
    if prior:
        s = {h: v + prior.get(h, 0.0) for h, v in s.items()}
    top = max(s.values())
    z = {h: math.exp(v - top) for h, v in s.items()}
    return z[me] / sum(z.values())


# ---------------------------------------------------------------------------------------------- rollouts
def place_planned_orders(st: WesterosState, h: str, rng: Random, noise: float) -> None:
    """Give `h` every order it still owes with `plan_orders` and finish (W-5.1), through `apply_unchecked`."""
    need = sorted(a for a, u in st.units.items() if u.house == h and a not in st.orders)
    for a, tok in plan_orders(st, h, need, rng, noise):
        st.apply_unchecked(PlaceOrder(h, a, tok))
    while st.pending is not None and st.pending.kind is PendingKind.ORDERS and h in st.pending.players:
        acts = st.legal_actions(h)
        fin = [x for x in acts if isinstance(x, FinishOrders)]
        st.apply_unchecked(fin[0] if fin else acts[0])


def _march_threats(st: WesterosState, p: str) -> dict[str, float] | None:
    """`land_threats` against `p` while `p` moves the units of a March order (W-7.1), else None."""
    m = st.march
    if m is None or m.house != p or st.pending is None or st.pending.kind is PendingKind.ORDERS:
        return None
    return land_threats(st, p)


def _guard_value(st: WesterosState, p: str, a: MarchMove, threats: dict[str, float]) -> float:
    """What a move does to `p`'s castles that another house's army can reach (over land or by sea):
    emptying the source costs the castle's worth, garrisoning an empty one of `p`'s gains it."""
    assert st.march is not None
    data = st.data
    v = 0.0
    src = st.march.source
    castle = data.areas[src]["castle"]
    if castle != "none" and data.kind(src) == "land" and threats.get(src, 0.0) > 0:
        left = st.units.get(src)
        if left is not None and len(a.units) >= len(left.units):
            v -= 1.5 * CASTLE_VALUE[castle]
    dest = data.areas[a.dest]
    if (dest["castle"] != "none" and a.dest not in st.units and st.control(a.dest) == p
            and threats.get(a.dest, 0.0) > 0):  # fmt: skip
        v += 1.5 * CASTLE_VALUE[dest["castle"]]
    return v


def _card_edge(st: WesterosState, h: str) -> float:
    """What `h`'s house cards are likely to add to a combat: the mean printed strength of its two best."""
    best = sorted((int(st.data.house_cards[c]["strength"]) for c in st.hands[h]), reverse=True)[:2]
    return sum(best) / len(best) if best else 0.0


def _side_support(st: WesterosState, dest: str, h: str) -> float:
    """Strength `h`'s own Support orders next to `dest` may add (W-9.2; others' support is not counted)."""
    castle = st.data.areas[dest]["castle"] != "none"
    v = 0.0
    for area, sh, tok in st.support_orders(dest):
        if sh == h:
            v += _strength(st.units[area].units, castle) + int(st.data.tokens[tok]["strength_modifier"] or 0)
    return v


def _wins_the_game(st: WesterosState, p: str, dest: str) -> bool:
    """Taking `dest` gives `p` the castles that win at once (W-18.1)."""
    d = st.data.areas[dest]
    if d["kind"] != "land" or d["castle"] == "none" or st.control(dest) == p:
        return False
    return st.castle_count(p) + 1 >= st.config.castles_to_win


def combat_outlook(st: WesterosState, p: str, a: MarchMove) -> float | None:
    """The rollout policy's read of the combat a march would start (W-9): units, March and Defense modifiers,
    garrison, own Support orders, the likely house cards, the Valyrian Steel Blade and the Fiefdoms tie-break
    (W-9.8). Positive: the attacker should win by that margin; 0 < x means a tie the attacker wins. None when
    the march starts no combat with a house (a neutral force or an empty area)."""
    assert st.march is not None
    data = st.data
    dest = data.areas[a.dest]
    enemy = st.units.get(a.dest)
    foe = enemy.house if enemy is not None and enemy.house != p else dest.get("home_house")
    hostile_garrison = a.dest in st.garrisons and dest.get("home_house") != p
    if (enemy is None or enemy.house == p) and not hostile_garrison:
        return None
    if foe not in st.hands:
        return None
    castle = dest["castle"] != "none"
    mine = _strength(list(a.units), castle) + int(data.tokens[st.march.token]["strength_modifier"] or 0)
    mine += _side_support(st, a.dest, p) + _card_edge(st, p)
    theirs = float(st.garrisons.get(a.dest, 0)) if hostile_garrison else 0.0
    if enemy is not None and enemy.house != p:
        theirs += _strength(enemy.units, False)
        o = st.orders.get(a.dest)
        if o and o.token.startswith("defense"):
            theirs += int(data.tokens[o.token]["strength_modifier"] or 0)
    theirs += _side_support(st, a.dest, foe) + _card_edge(st, foe)
    my_blade, their_blade, wins_ties = blade_and_tie(st, p, foe)
    mine += my_blade
    theirs += their_blade
    return mine - theirs + (0.25 if wins_ties else -0.25)


def house_card_choice(st: WesterosState, p: str, rng: Random) -> PlayHouseCard:
    """The rollout policy's house card (W-9.4): a draw from `p`'s equilibrium mix of the combat's card game
    (`card_choice.card_mix`), so the side that chooses first cannot read the reply and neither side plays
    one card every time."""
    return PlayHouseCard(p, draw(card_mix(st, p), rng))


def policy_action(
    st: WesterosState, p: str, rng: Random, noise: float = 0.6, params: WesterosAIParams = DEFAULT_PARAMS
) -> Action:
    """The rollout policy's choice for `p` (not for orders: `place_planned_orders`): greedy scores with
    noise, so simulated houses vary their play a little (house cards: `house_card_choice`)."""
    acts = st.legal_actions(p)
    if len(acts) == 1:
        return acts[0]
    if isinstance(acts[0], PlayHouseCard) and st.combat is not None and not st.combat.neutral:
        return house_card_choice(st, p, rng)
    threats = _march_threats(st, p)
    g = params.greedy
    best = acts[0]
    top = -math.inf
    for a in acts:
        v = greedy_score(st, p, a, g) + noise * rng.random()
        if threats is not None and isinstance(a, MarchMove) and st.march is not None:
            v += _guard_value(st, p, a, threats)
            edge = combat_outlook(st, p, a)
            if edge is not None:  # replaces greedy_score's count of units alone (+2 / -6)
                v += (g.combat_won if edge > 0 else g.combat_lost) - _greedy_combat_term(st, p, a, g)
            if (edge is None or edge > 0) and _wins_the_game(st, p, a.dest):
                v += g.wins_the_game  # W-18.1: the castle that ends the game
        if v > top:
            top, best = v, a
    return best


def resample_hidden_orders(st: WesterosState, me: str, rng: Random, noise: float) -> None:
    """Replace the other houses' face-down orders of a sample (drawn uniformly by `determinize`) by orders
    the rollout policy would give (W-5.1: same areas, same tokens budget): a better opponent model."""
    if st.orders_revealed or not st.orders:
        return
    for h in st.turn_order():
        if h == me:
            continue
        areas = sorted(a for a, (oh, _t) in st.orders.items() if oh == h)
        if not areas:
            continue
        for a in areas:
            del st.orders[a]
        for a, tok in plan_orders(st, h, areas, rng, noise):
            st.orders[a] = Order(h, tok)
    st.orders = {a: st.orders[a] for a in sorted(st.orders)}


def policy_step(
    st: WesterosState, rng: Random, noise: float, params: WesterosAIParams = DEFAULT_PARAMS
) -> None:
    """One decision of the rollout policy for the first house the game waits for: all its orders at once
    (`place_planned_orders`), else `policy_action`. The game must not be over."""
    assert st.pending is not None
    p = st.pending.players[0]
    if st.pending.kind is PendingKind.ORDERS:
        place_planned_orders(st, p, rng, noise)
    else:
        st.apply_unchecked(policy_action(st, p, rng, noise, params))


def planning_phases(st: WesterosState, step: Callable[[WesterosState], None]) -> Iterator[WesterosState]:
    """Play `st` to the end, one `step` (a decision) at a time, yielding it at the start of each round's
    Planning phase: the positions the search's rollouts stop at and `evaluate` reads."""
    seen = 0
    while not st.is_terminal():
        assert st.pending is not None
        if st.phase == "planning" and st.round != seen:
            seen = st.round
            yield st
        step(st)


def rollout(
    st: WesterosState,
    me: str,
    rng: Random,
    *,
    horizon_rounds: int,
    max_decisions: int,
    noise: float,
    params: WesterosAIParams = DEFAULT_PARAMS,
) -> float:
    """Play `st` on with the rollout policy for every house until `horizon_rounds` rounds later reach their
    Planning phase (or the end, or `max_decisions`), then `evaluate` for `me`."""
    stop_round = st.round + horizon_rounds
    n = 0
    while n < max_decisions:
        if st.winner is not None or st.pending is None:
            break
        if st.round >= stop_round and st.phase == "planning":
            break
        policy_step(st, rng, noise, params)
        n += 1
    return evaluate(st, me, params)
