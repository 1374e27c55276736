"""The board and the state's shared helpers: control (W-8.1), power (W-1.7), supply (W-12), victory
(W-18), order tokens (W-5.1-5.3), movement geometry (W-10) and the agenda primitives every rule uses.

`Board` declares every field of the state; `WesterosState` (game.py) adds set-up, storage and the
public interface, and the rule-area modules (planning, marches, combat, ...) act on it.
"""

from __future__ import annotations

from random import Random
from typing import Any

from .config import RulesConfig
from .data import GameData
from .messages import Msg, gettext_noop, house, msg, term
from .structures import (
    REASON_TERMS,
    Combat,
    Decision,
    March,
    Order,
    Pending,
    PendingKind,
    Phase,
    Reason,
    RoundStep,
    Step,
    Units,
)

UNIT_STRENGTH = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 0}
TRACK_TOKEN = {
    "iron_throne": "iron_throne",
    "fiefdoms": "valyrian_steel_blade",
    "kings_court": "messenger_raven",
}


# W-3.1 / W-4.1 / W-5 / W-6.1: the turn structure as data. Each step names who acts.
ROUND_STRUCTURE: tuple[tuple[Phase, tuple[tuple[RoundStep, str], ...]], ...] = (
    (
        Phase.WESTEROS,
        (
            (RoundStep.ADVANCE_ROUND, "nobody"),
            (RoundStep.REVEAL_WESTEROS, "nobody (wildling attack at 12: all houses bid at once)"),
            (
                RoundStep.RESOLVE_WESTEROS,
                "per card: all houses in turn order, bids at once, or a token holder",
            ),
        ),
    ),
    (
        Phase.PLANNING,
        (
            (RoundStep.ASSIGN_ORDERS, "all houses at once"),
            (RoundStep.REVEAL_ORDERS, "nobody"),
            (RoundStep.MESSENGER_RAVEN, "messenger raven holder"),
        ),
    ),
    (
        Phase.ACTION,
        (
            (RoundStep.RAIDS, "turn order, cycling"),
            (RoundStep.MARCHES, "turn order, cycling"),
            (RoundStep.CONSOLIDATE, "turn order, cycling"),
            (RoundStep.CLEANUP, "nobody"),
        ),
    ),
)


_ORDER_TYPES: dict[str, str] = {}  # token id -> order type, filled as tokens are met (a few ids)


def order_type(token: str) -> str:
    """W-5.1: the type of an order token: its id starts with it (a hot path: remembered per id)."""
    t = _ORDER_TYPES.get(token)
    if t is None:
        t = next(
            (p for p in ("march", "defense", "support", "raid") if token.startswith(p)), "consolidate_power"
        )
        _ORDER_TYPES[token] = t
    return t


def _without(units: tuple[str, ...], unit: str) -> tuple[str, ...]:
    """`units` less one `unit` (the first; it must be there)."""
    i = units.index(unit)
    return units[:i] + units[i + 1 :]


class Board:
    """The state's fields and the board helpers shared by every rule area."""

    data: GameData
    config: RulesConfig
    houses: list[str]
    round: int
    phase: Phase
    step: RoundStep
    threat: int
    tracks: dict[str, list[str]]
    power: dict[str, int]
    supply: dict[str, int]
    hands: dict[str, list[str]]
    discards: dict[str, list[str]]
    units: dict[str, Units]
    tokens: dict[str, str]
    garrisons: dict[str, int]
    neutral: dict[str, int]
    impassable: list[str]
    orders: dict[str, Order]
    orders_revealed: bool
    bans: list[str]
    blade_used: bool
    raven_used: bool
    wdecks: dict[str, list[str]]
    wildling_deck: list[str]
    raven_knows: dict[str, str] | None
    revealed: list[str]
    agenda: list[Step]
    pending: Pending | None
    combat: Combat | None
    march: March | None
    winner: str | None
    end_reason: Reason | None
    log: list[dict[str, Any]]
    decisions: int
    seed_hidden: bool
    seat_houses: list[str]
    deck_known: dict[str, int]
    log_start: int
    rng: Random
    _ctl_cache: dict[str, str | None] | None

    def event(
        self,
        message: Msg,
        to: list[str] | None = None,
        *,
        text: str | None = None,
        names: bool = False,
        **extra: Any,
    ) -> None:
        """Log `message`. The stored event keeps its English words under "text" (the storage format of
        every stored game; `messages.event_message` reads the message back): `message.english()`, with
        cards by their printed names if `names`, or the given `text` where the log's words always were
        another form of the same message (action descriptions name areas as printed).

        Nothing is kept with the log off (the AI's search, `RulesConfig.event_log`); the hot rule functions
        (orders, marches, raids, musters, bids) test `st.config.event_log` before they build the words."""
        if not self.config.event_log:
            return
        if text is None:
            text = message.english(card=self.card_name) if names else message.english()
        ev: dict[str, Any] = {"n": self.log_length, "round": self.round, "text": text}
        if to is not None:
            ev["to"] = list(to)
        if extra:
            ev.update(extra)
        self.log.append(ev)

    def card_name(self, card: str) -> str:
        """The printed name of a house, Westeros or wildling card id (the id itself if none)."""
        for deck in (self.data.house_cards, self.data.westeros_cards, self.data.wildling_cards):
            if card in deck:
                return str(deck[card]["name"])
        return card

    def push(self, *tasks: Step) -> None:
        """Schedule tasks so that the first given runs first."""
        self.agenda.extend(reversed(tasks))

    def ask(self, kind: PendingKind, players: list[str], **ctx: Any) -> None:
        """Wait for a decision of `kind` from `players` (`ctx`: the fields of `Pending` it carries)."""
        self.pending = Pending(kind, list(players), **ctx)

    def choose(self, player: str, decision: Decision, options: list[str], **ctx: Any) -> None:
        """Ask `player` a menu decision (answered with Choose)."""
        self.pending = Pending(PendingKind.CHOOSE, [player], decision, options, **ctx)

    @property
    def log_length(self) -> int:
        """Events in the whole log, including those a state loaded without its log no longer holds."""
        return self.log_start + len(self.log)

    def add_unit(self, area: str, house: str, unit: str, routed: bool = False) -> None:
        """Put a unit of `house` in `area` (routed: W-9.10.5), which holds no other house's units."""
        u = self.units.get(area)
        if u is None:
            self.units[area] = Units(house, (), (unit,)) if routed else Units(house, (unit,), ())
        else:
            assert u.house == house, f"{house} cannot share {area} with {u.house}"
            self.units[area] = (
                Units(house, u.units, (*u.routed, unit))
                if routed
                else Units(house, (*u.units, unit), u.routed)
            )
        self._ctl_cache = None

    def remove_unit(self, area: str, unit: str, prefer_routed: bool = True) -> None:
        """Take one `unit` out of `area`, a routed one first if `prefer_routed` (else a standing one)."""
        u = self.units[area]
        take_routed = unit in u.routed if prefer_routed else unit not in u.units
        units, routed = (
            (u.units, _without(u.routed, unit)) if take_routed else (_without(u.units, unit), u.routed)
        )
        if units or routed:
            self.units[area] = Units(u.house, units, routed)
        else:
            del self.units[area]
        self._ctl_cache = None

    def set_units(self, area: str, units: Units | None) -> None:
        """Replace what stands in `area` (None or no units: empty it)."""
        if units is None or not units.size():
            self.units.pop(area, None)
        else:
            self.units[area] = units
        self._ctl_cache = None

    def unit_count(self, area: str) -> int:
        u = self.units.get(area)
        return 0 if u is None else len(u.units) + len(u.routed)

    def owner(self, area: str) -> str | None:
        u = self.units.get(area)
        return None if u is None else u.house

    def invalidate_control(self) -> None:
        """Forget the remembered controllers (W-8.1): call after changing who holds an area other than
        through `add_unit`, `remove_unit`, `set_token` or `drop_token`, which do it themselves."""
        self._ctl_cache = None

    def controls(self) -> dict[str, str | None]:
        """W-8.1: the controller of every land area (remembered until a holder changes)."""
        if self._ctl_cache is None:
            ctl: dict[str, str | None] = {}
            for a in self.data.land_areas:
                ctl[a] = self.control_uncached(a)
            self._ctl_cache = ctl
        return self._ctl_cache

    def control_uncached(self, area: str) -> str | None:
        u = self.units.get(area)
        if u is not None:
            return u.house
        t = self.tokens.get(area)
        if t is not None:
            return t
        hh = self.data.areas[area].get("home_house")
        if hh in self.houses:
            return str(hh)
        return None

    def control(self, area: str) -> str | None:
        """W-8.1: controller of a land area (ports: of their land area; seas: never)."""
        a = self.data.areas[area]
        if a["kind"] == "port":
            return self.controls()[a["land_area"]]
        if a["kind"] == "sea":
            return None
        return self.controls()[area]

    def castle_count(self, house: str) -> int:
        """W-18: castle/stronghold areas controlled."""
        ctl = self.controls()
        return sum(1 for a in self.data.castle_areas if ctl[a] == house)

    def land_count(self, house: str) -> int:
        ctl = self.controls()
        return sum(1 for a in self.data.land_areas if ctl[a] == house)

    def board_tokens(self, house: str) -> int:
        return sum(1 for h in self.tokens.values() if h == house)

    def gain_power(self, house: str, n: int) -> int:
        """W-1.7: gains capped so a house never holds more than its 20 tokens."""
        cap = 20 - self.board_tokens(house) - self.power[house]
        g = max(0, min(n, cap))
        self.power[house] += g
        return g

    def available_units(self, house: str, unit: str) -> int:
        n = self.data.unit_limits[unit]
        for u in self.units.values():
            if u.house == house:
                n -= u.units.count(unit) + u.routed.count(unit)
        if self.combat and self.combat.attacker == house:
            n -= self.combat.att_units.count(unit)
        if self.march and self.march.house == house:
            n -= self.march.combat_units.count(unit)
        return n

    def holder(self, track: str) -> str:
        return str(self.tracks[track][0])

    def turn_order(self) -> list[str]:
        return list(self.tracks["iron_throne"])

    def is_enemy_ship_in(self, sea: str, house: str) -> bool:
        u = self.units.get(sea)
        return u is not None and u.house != house

    def army_sizes(self, house: str) -> dict[str, int]:
        sizes = {a: len(u.units) + len(u.routed) for a, u in self.units.items() if u.house == house}
        d = self.march.combat_dest if self.march else None
        if self.march and self.march.house == house and self.march.combat_units and d is not None:
            sizes[d] = sizes.get(d, 0) + len(self.march.combat_units)
        c = self.combat
        if c and c.attacker == house and c.att_units:  # W-7.1.4: attackers count where they fight
            sizes[c.area] = sizes.get(c.area, 0) + len(c.att_units)
        return sizes

    def supply_ok(self, house: str, delta: dict[str, int] | None = None, level: int | None = None) -> bool:
        """W-12.3: armies (2+ units in an area) fit the allowed sizes of the supply position."""
        sizes = self.army_sizes(house)
        if delta:
            for a, n in delta.items():
                sizes[a] = sizes.get(a, 0) + n
        return self.fits_supply(sorted((s for s in sizes.values() if s >= 2), reverse=True), house, level)

    def fits_supply(self, armies: list[int], house: str, level: int | None = None) -> bool:
        limits = self.data.supply_limits[self.supply[house] if level is None else level]
        if len(armies) > len(limits):
            return False
        return all(s <= lim for s, lim in zip(armies, limits, strict=False))

    def supply_icons(self, house: str) -> int:
        ctl = self.controls()
        return sum(int(self.data.areas[a]["supply"]) for a in self.data.land_areas if ctl[a] == house)

    def check_victory(self) -> None:
        for h in self.turn_order():
            if self.castle_count(h) >= self.config.castles_to_win:
                self.finish(h, Reason.SEVEN_CASTLES)
                return

    def finish(self, winner: str, reason: Reason) -> None:
        self.winner = winner
        self.end_reason = reason
        self.phase = Phase.GAME_OVER
        self.pending = None
        self.agenda = []
        self.event(
            msg(
                gettext_noop("%(house)s wins (%(reason)s)"),
                house=house(winner),
                reason=term(REASON_TERMS[reason]),
            )
        )

    def final_standing(self) -> list[str]:
        """Every house, best first: the winner (W-18.1 or W-18.2), then the others by W-18.2's order and
        tie-breaks (castles, land areas, supply, Iron Throne). A strict order: the Iron Throne track
        separates every tie. Before the end it is the standing as the game stands."""
        order = self.final_ranking()
        if self.winner in order:
            order.remove(self.winner)
            order.insert(0, self.winner)
        return order

    def final_ranking(self) -> list[str]:
        """W-18.2: castles, then land areas, then supply, then Iron Throne position."""
        it = self.tracks["iron_throne"]
        return sorted(
            self.houses,
            key=lambda h: (-self.castle_count(h), -self.land_count(h), -self.supply[h], it.index(h)),
        )

    def set_token(self, area: str, house: str) -> None:
        self.tokens[area] = house
        self._ctl_cache = None

    def drop_token(self, area: str) -> None:
        if area in self.tokens:
            del self.tokens[area]
            self._ctl_cache = None

    def prune_orders(self) -> None:
        """W-6.4: orders in areas without their owner's units are removed."""
        for a in [a for a, (h, _t) in self.orders.items() if self.owner(a) != h]:
            del self.orders[a]

    def star_limit(self, house: str) -> int:
        """W-5.2: special orders allowed by King's Court position."""
        return self.data.star_limits[len(self.houses)][self.tracks["kings_court"].index(house)]

    def unused_tokens(self, house: str, ignore_area: str | None = None) -> list[str]:
        """Order tokens not placed; legal under bans (W-5.3) and the ★ limit (W-5.2)."""
        used: dict[str, int] = {}
        for a, (h, t) in self.orders.items():
            if h == house and a != ignore_area:
                used[t] = used.get(t, 0) + 1
        stars = 0
        if used:
            for tid, _count, special in self.data.token_specs:
                if special and tid in used:
                    stars += used[tid]
        limit = self.star_limit(house)
        bans = self.bans
        return [
            tid
            for tid, count, special in self.data.token_specs
            if used.get(tid, 0) < count and tid not in bans and not (special and stars >= limit)
        ]

    def transport_lands(self, house: str, area: str) -> set[str]:
        """W-10.3: land areas linked to `area` through chains of seas holding own ships."""
        seen: set[str] = set()
        stack = [s for s in self.data.adj[area] if self.data.kind(s) == "sea" and self.owner(s) == house]
        seen.update(stack)
        lands: set[str] = set()
        while stack:
            s = stack.pop()
            for n in self.data.adj[s]:
                k = self.data.kind(n)
                if k == "land":
                    lands.add(n)
                elif k == "sea" and n not in seen and self.owner(n) == house:
                    seen.add(n)
                    stack.append(n)
        lands.discard(area)
        return lands

    def move_targets(self, house: str, area: str) -> list[str]:
        """W-7.1.1 / W-10: areas the units in `area` may move to (before occupancy checks)."""
        kind = self.data.kind(area)
        imp = self.impassable
        if kind == "land":
            out = {a for a in self.data.adj[area] if self.data.kind(a) == "land"}
            out |= self.transport_lands(house, area)
        elif kind == "sea":
            out = set()
            for a in self.data.adj[area]:
                k = self.data.kind(a)
                if k == "sea" or (k == "port" and self.control(a) == house):
                    out.add(a)
        else:
            out = {self.data.areas[area]["sea_area"]}
        return sorted(a for a in out if a not in imp)

    def is_hostile(self, house: str, area: str) -> bool:
        """Enemy units, an enemy garrison or a neutral force (W-7.1.2)."""
        o = self.owner(area)
        if o is not None and o != house:
            return True
        if area in self.neutral:
            return True
        if area in self.garrisons and self.data.areas[area].get("home_house") != house:
            return True
        return False

    def unit_value(self, unit: str, castle: bool, attacking: bool) -> int:
        if unit == "siege_engine":
            return 4 if (attacking and castle) else 0
        return UNIT_STRENGTH[unit]

    def _can_support(self, src: str, dest: str) -> bool:
        """W-7.3.3: which areas may support a combat in `dest`."""
        ks, kd = self.data.kind(src), self.data.kind(dest)
        if kd == "sea":
            return ks == "sea" or (ks == "port" and self.data.areas[src]["sea_area"] == dest)
        return ks in ("land", "sea")

    def support_orders(self, dest: str) -> list[tuple[str, str, str]]:
        """(area, house, token) of Support orders that may support a combat in `dest`."""
        out = []
        for a in self.data.adj[dest]:
            o = self.orders.get(a)
            if (
                o
                and o.token.startswith("support")
                and self.owner(a) == o.house
                and self._can_support(a, dest)
            ):
                out.append((a, o.house, o.token))
        return out

    def swap_unit(self, area: str, old: str, new: str | None, prefer_routed: bool) -> None:
        """Replace one `old` unit in `area` by `new` (None: just destroy), keeping its routed state."""
        u = self.units[area]
        routed = old in u.routed and (prefer_routed or old not in u.units)
        self.remove_unit(area, old, prefer_routed=routed)
        if new is not None:
            self.add_unit(area, u.house, new, routed=routed)
