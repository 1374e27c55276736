"""A Game of Thrones: The Board Game (2nd ed.) rules engine — state, turn structure and rules.

Pure Python, deterministic under a seed (STYLE 1). The state is plain JSON-able data; the game
flow is an *agenda* (a stack of small task dicts) walked by `_run()` until a decision is needed,
which is then described by `pending` and answered by one of `legal_actions()` (STYLE 3, 6).
Rule numbers (W-x.y) refer to ../shared/rules/westeros.md (relative to the repository root).
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from enum import StrEnum
from itertools import product
from random import Random
from typing import Any

from . import explain, hidden, timeouts
from .actions import (
    Action,
    Bid,
    Choose,
    ChooseMarch,
    DeclareSupport,
    EndMarch,
    FinishOrders,
    IllegalActionError,
    MarchMove,
    Muster,
    PlaceOrder,
    PlayHouseCard,
    RavenSwap,
    ResolveConsolidate,
    ResolveRaid,
)
from .config import RulesConfig
from .data import HOUSE_ORDER, LAND_UNITS, TRACKS, UNIT_TYPES, GameData

UNIT_STRENGTH = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 0}
TRACK_TOKEN = {
    "iron_throne": "iron_throne",
    "fiefdoms": "valyrian_steel_blade",
    "kings_court": "messenger_raven",
}


class Phase(StrEnum):
    """Phases of a round (W-3.1) plus set-up and game over."""

    SETUP = "setup"
    WESTEROS = "westeros"
    PLANNING = "planning"
    ACTION = "action"
    GAME_OVER = "game_over"


# W-3.1 / W-4.1 / W-5 / W-6.1: the turn structure as data. Each step names who acts.
ROUND_STRUCTURE: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "westeros",
        (
            ("advance_round", "nobody"),
            ("reveal_westeros", "nobody (wildling attack at 12: all houses bid at once)"),
            ("resolve_westeros", "per card: all houses in turn order, bids at once, or a token holder"),
        ),
    ),
    (
        "planning",
        (
            ("assign_orders", "all houses at once"),
            ("reveal_orders", "nobody"),
            ("messenger_raven", "messenger raven holder"),
        ),
    ),
    (
        "action",
        (
            ("raids", "turn order, cycling"),
            ("marches", "turn order, cycling"),
            ("consolidate", "turn order, cycling"),
            ("cleanup", "nobody"),
        ),
    ),
)


class Reason(StrEnum):
    """Why the game ended (W-18.1 immediate win, W-18.2 after round 10)."""

    SEVEN_CASTLES = "seven_castles"
    ROUND_LIMIT = "round_limit"


@dataclass(frozen=True)
class Outcome:
    """How the game ended (W-18)."""

    winner: str
    reason: Reason
    castles: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value, "castles": dict(self.castles)}


STATE_FIELDS = (
    "houses",
    "round",
    "phase",
    "step",
    "threat",
    "tracks",
    "power",
    "supply",
    "hands",
    "discards",
    "units",
    "tokens",
    "garrisons",
    "neutral",
    "impassable",
    "orders",
    "orders_revealed",
    "bans",
    "blade_used",
    "raven_used",
    "wdecks",
    "wildling_deck",
    "raven_knows",
    "revealed",
    "agenda",
    "pending",
    "combat",
    "march",
    "winner",
    "end_reason",
    "log",
    "rng",
    "decisions",
    "seed_hidden",
    "seat_houses",
    "deck_known",
)
# Fields added after snapshots were first stored: their value for a snapshot that lacks them.
_FIELD_DEFAULTS: dict[str, Any] = {"seat_houses": None, "deck_known": None}


# Fields left out of canonicalisation: the log's key order never steers the rules; the RNG is a tuple.
_NOT_CANONICAL = ("log", "rng")
# Fields whose values hold no dict the engine creates out of key order (lists, numbers, or unit dicts made
# in canonical order by `_add_unit`): between decisions only their own keys need sorting (much cheaper).
_FLAT_BETWEEN_DECISIONS = (
    "tracks",
    "power",
    "supply",
    "hands",
    "discards",
    "units",
    "tokens",
    "garrisons",
    "neutral",
    "orders",
    "wdecks",
)


def _canonical(v: Any) -> Any:
    """`v` with every dict rebuilt in sorted key order (lists keep their order; scalars are shared).

    The state's dicts are canonicalised after every decision and on load, so iteration over them (legal
    action order, agent choices, rules that walk areas) never depends on insertion order or on a store
    that reorders keys (PostgreSQL jsonb): equal content means equal behaviour.
    """
    if type(v) is dict:
        out = {}
        for k in sorted(v):
            x = v[k]
            out[k] = _canonical(x) if type(x) is dict or type(x) is list else x
        return out
    if type(v) is list:
        for x in v:
            if type(x) is dict or type(x) is list:
                return [_canonical(y) for y in v]
    return v


def _order_type(token: str) -> str:
    if token.startswith("march"):
        return "march"
    if token.startswith("defense"):
        return "defense"
    if token.startswith("support"):
        return "support"
    if token.startswith("raid"):
        return "raid"
    return "consolidate_power"


class WesterosState:
    """One game of Westeros. Create with `new_game`; drive with `legal_actions`/`apply`."""

    data: GameData
    config: RulesConfig

    # ------------------------------------------------------------------ construction
    def __init__(self, data: GameData, config: RulesConfig) -> None:
        self.data = data
        self.config = config
        self._rng = Random()
        self._ctl_cache: dict[str, str | None] | None = None
        self.log_start = 0  # events before log[0] this state no longer holds (loaded without its log)

    def _setup(self, houses: list[str], seed: int) -> None:
        """W-2: houses, units, power, tracks, garrisons, neutral forces, decks, threat."""
        d = self.data
        setup = d.raw["setup"]
        n = str(len(houses))
        pc = setup["player_counts"][n]
        self._rng = Random(seed)
        self.houses = list(houses)
        self.round = int(setup["start"]["round"])
        self.phase = Phase.SETUP.value
        self.step = ""
        self.threat = int(setup["start"]["wildling_threat"])
        self.tracks = {t: [h for h in pc["influence_tracks"][t] if h in houses] for t in TRACKS}
        self.power = {h: int(setup["houses"][h]["power_tokens_available"]) for h in houses}
        self.supply = {h: int(setup["houses"][h]["supply_level"]) for h in houses}
        self.hands = {h: list(d.cards_by_house[h]) for h in houses}
        self.discards: dict[str, list[str]] = {h: [] for h in houses}
        self.units: dict[str, dict[str, Any]] = {}
        for h in houses:
            for su in setup["houses"][h]["starting_units"]:
                if (
                    len(houses) == 3
                    and not self.config.three_player_lannister_port_ship
                    and su["area"] == "lannisport_port"
                ):
                    continue
                for _ in range(int(su["count"])):
                    self._add_unit(su["area"], h, su["unit"])
        self.tokens: dict[str, str] = {}
        self.garrisons = {g["area"]: int(g["strength"]) for g in pc["garrisons"]}
        self.neutral = {
            nf["area"]: int(nf["strength"])
            for nf in pc["neutral_forces"]
            if not nf.get("impassable") and nf.get("strength") is not None
        }
        self.impassable = sorted(pc.get("impassable_areas", []))
        self.orders: dict[str, list[str]] = {}
        self.orders_revealed = False
        self.bans: list[str] = []
        self.blade_used = False
        self.raven_used = False
        self.wdecks = {}
        for k in ("1", "2", "3"):
            deck = list(d.westeros_decks[int(k)])
            self._rng.shuffle(deck)
            self.wdecks[k] = deck
        wild = sorted(d.wildling_cards)
        self._rng.shuffle(wild)
        self.wildling_deck = wild
        self.raven_knows: dict[str, str] | None = None
        self.revealed: list[str] = []
        self.agenda: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.combat: dict[str, Any] | None = None
        self.march: dict[str, Any] | None = None
        self.winner: str | None = None
        self.end_reason: str | None = None
        self.log: list[dict[str, Any]] = []
        self.decisions = 0
        self.seed_hidden = True
        self.seat_houses = list(houses)
        # Cards at the bottom of each deck that every house has seen (revealed since the deck was last
        # shuffled): `determinize` keeps them in place and shuffles only the rest.
        self.deck_known = {"1": 0, "2": 0, "3": 0, "wildling": 0}
        self._event(f"Game set up for {len(houses)} houses: {', '.join(houses)}")
        self.agenda = [{"t": "round", "first": True}]
        self._run()
        self._canonicalise()

    # ------------------------------------------------------------------ serialisation
    def _fields(self) -> dict[str, Any]:
        out = {}
        for f in STATE_FIELDS:
            if f == "rng":
                st = self._rng.getstate()
                out[f] = [st[0], list(st[1]), st[2]]
            else:
                out[f] = getattr(self, f)
        return out

    def to_dict(self, *, log: bool = True) -> dict[str, Any]:
        """Full state (secrets included) as JSON-able data, with the game data and config.

        ``log=False`` leaves the event log out and keeps only its length (``log_length``): a compact
        snapshot whose size does not grow with the game, for stores that keep the actions elsewhere (the
        online layer). The rules state is identical either way; a state loaded from it keeps numbering
        events from ``log_length`` on and holds only the entries made since (see `log_view`).
        """
        fields = self._fields()
        if not log:
            del fields["log"]
        d = marshal.loads(marshal.dumps(fields))
        if not log:
            d["log_length"] = self.log_length
        elif self.log_start:
            d["log_start"] = self.log_start
        d["game_data"] = self.data.to_dict()
        d["config"] = self.config.to_dict()
        return dict(d)

    @property
    def log_length(self) -> int:
        """Events in the whole log, including those a state loaded without its log no longer holds."""
        return self.log_start + len(self.log)

    @classmethod
    def from_dict(cls, d: dict[str, Any], data: GameData | None = None) -> WesterosState:
        """Inverse of `to_dict` (the game keeps the data it started with unless `data` is given)."""
        st = cls(data or GameData.from_dict(d["game_data"]), RulesConfig.from_dict(d.get("config")))
        for f in STATE_FIELDS:
            if f == "rng":
                r = d["rng"]
                st._rng.setstate((r[0], tuple(r[1]), r[2]))
            elif f == "log" and "log" not in d:  # a log-less snapshot (to_dict(log=False))
                st.log = []
            elif f not in d and f in _FIELD_DEFAULTS:  # a snapshot stored before the field existed
                setattr(st, f, _FIELD_DEFAULTS[f])
            else:
                setattr(st, f, marshal.loads(marshal.dumps(d[f])))
        start = d.get("log_start", 0) if "log" in d else d.get("log_length", 0)
        if type(start) is not int or start < 0:
            raise ValueError(f"log_start/log_length must be a non-negative integer, not {start!r}")
        st.log_start = start
        if st.seat_houses is None:
            st.seat_houses = list(st.houses)
        if st.deck_known is None:
            st.deck_known = {"1": 0, "2": 0, "3": 0, "wildling": 0}
        st._canonicalise()
        return st

    def _canonicalise(self, deep: bool = True) -> None:
        """Rebuild every dict of the rules state in sorted key order (see `_canonical`).

        Loads and set-up go `deep`; after a decision the fields of `_FLAT_BETWEEN_DECISIONS` only get
        their own keys sorted (test_snapshots checks that every dict is canonical after every decision).
        """
        for f in STATE_FIELDS:
            if f in _NOT_CANONICAL:
                continue
            v = getattr(self, f)
            if not deep and f in _FLAT_BETWEEN_DECISIONS:
                if type(v) is dict and list(v) != sorted(v):
                    setattr(self, f, {k: v[k] for k in sorted(v)})
            elif type(v) is dict or type(v) is list:
                setattr(self, f, _canonical(v))

    def clone(self) -> WesterosState:
        """Independent copy (shares only the immutable game data)."""
        st = WesterosState(self.data, self.config)
        vals = marshal.loads(marshal.dumps(tuple(getattr(self, f) for f in STATE_FIELDS if f != "rng")))
        for f, v in zip([f for f in STATE_FIELDS if f != "rng"], vals, strict=True):
            setattr(st, f, v)
        st._rng.setstate(self._rng.getstate())
        st.log_start = self.log_start
        return st

    # ------------------------------------------------------------------ public interface
    def current_players(self) -> list[str]:
        """Every house that still owes a decision now (several at simultaneous steps, W-3.3)."""
        if self.winner is not None or self.pending is None:
            return []
        return list(self.pending["players"])

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(
            self.winner, Reason(str(self.end_reason)), {h: self.castle_count(h) for h in self.houses}
        )

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """All legal actions of `player` (or of every house that must act, if None)."""
        if self.pending is None or self.winner is not None:
            return []
        players = self.pending["players"] if player is None else [player]
        out: list[Action] = []
        for p in players:
            if p in self.pending["players"]:
                out.extend(getattr(self, "_legal_" + self.pending["kind"])(p))
        return out

    def players(self) -> list[str]:
        """The houses in seat order: seat i of a match plays ``players()[i]`` (fixed for the game)."""
        return list(self.seat_houses)

    def apply(self, action: Action) -> None:
        """Checked apply: raises IllegalActionError naming the action and the situation (`explain_illegal`)."""
        if self.winner is not None or self.pending is None or action.player not in self.pending["players"]:
            raise IllegalActionError(explain.explain_illegal(self, action))
        if action not in self.legal_actions(action.player):
            raise IllegalActionError(explain.explain_illegal(self, action))
        self.apply_unchecked(action)

    def explain_illegal(self, action: Action) -> str:
        """Why `action` is not legal now (the step, whose decision it is, what is missing); "" if legal."""
        return explain.explain_illegal(self, action)

    def secret_action(self, action: Action) -> bool:
        """Whether the action's content is hidden from the other houses (W-20): orders, raven swap, bids, cards."""
        return hidden.secret_action(action)

    def timeout_action(self, player: str) -> Action:
        """The documented default for `player` when its clock runs out (`timeouts.TIMEOUT_DEFAULTS`)."""
        return timeouts.timeout_action(self, player)

    def determinize(self, player: str, rng: Random) -> WesterosState:
        """A state `player` cannot tell from this one, its hidden parts resampled (see `hidden.determinize`)."""
        return hidden.determinize(self, player, rng)

    def apply_unchecked(self, action: Action) -> None:
        """Apply without the legality check (for search and replay of known-good actions)."""
        assert self.pending is not None
        self._ctl_cache = None
        self.decisions += 1
        getattr(self, "_do_" + self.pending["kind"])(action)
        self._run()

    # ------------------------------------------------------------------ events
    def _event(self, text: str, to: list[str] | None = None, **extra: Any) -> None:
        if not self.config.event_log:
            return
        ev: dict[str, Any] = {"n": self.log_length, "round": self.round, "text": text}
        if to is not None:
            ev["to"] = list(to)
        if extra:
            ev.update(extra)
        self.log.append(ev)

    # ------------------------------------------------------------------ agenda engine
    def _push(self, *tasks: dict[str, Any]) -> None:
        """Schedule tasks so that the first given runs first."""
        self.agenda.extend(reversed(tasks))

    def _run(self) -> None:
        while self.pending is None and self.winner is None and self.agenda:
            task = self.agenda.pop()
            self._ctl_cache = None
            getattr(self, "_t_" + task["t"])(task)
        if self.pending is not None and not self.pending["players"]:
            raise RuntimeError("pending decision without players")
        self._canonicalise(deep=False)

    def _ask(self, kind: str, players: list[str], **ctx: Any) -> None:
        self.pending = {"kind": kind, "players": list(players), **ctx}

    def _choose(self, player: str, decision: str, options: list[str], **ctx: Any) -> None:
        """Ask `player` a menu decision (answered with Choose)."""
        self.pending = {
            "kind": "choose",
            "players": [player],
            "decision": decision,
            "options": options,
            **ctx,
        }

    def _legal_choose(self, p: str) -> list[Action]:
        assert self.pending is not None
        dec = self.pending["decision"]
        return [Choose(p, dec, o) for o in self.pending["options"]]

    def _do_choose(self, a: Action) -> None:
        assert isinstance(a, Choose) and self.pending is not None
        ctx = self.pending
        self.pending = None
        getattr(self, "_on_" + a.decision)(a.player, a.option, ctx)

    # ------------------------------------------------------------------ board helpers
    def _add_unit(self, area: str, house: str, unit: str, routed: bool = False) -> None:
        u = self.units.get(area)
        if u is None:
            u = self.units[area] = {"house": house, "routed": [], "units": []}  # keys in canonical order
        assert u["house"] == house, f"{house} cannot share {area} with {u['house']}"
        (u["routed"] if routed else u["units"]).append(unit)
        self._ctl_cache = None

    def _remove_unit(self, area: str, unit: str, prefer_routed: bool = True) -> None:
        u = self.units[area]
        first, second = ("routed", "units") if prefer_routed else ("units", "routed")
        if unit in u[first]:
            u[first].remove(unit)
        else:
            u[second].remove(unit)
        if not u["units"] and not u["routed"]:
            del self.units[area]
        self._ctl_cache = None

    def unit_count(self, area: str) -> int:
        u = self.units.get(area)
        return 0 if u is None else len(u["units"]) + len(u["routed"])

    def owner(self, area: str) -> str | None:
        u = self.units.get(area)
        return None if u is None else u["house"]

    def _controls(self) -> dict[str, str | None]:
        if self._ctl_cache is None:
            ctl: dict[str, str | None] = {}
            for a in self.data.land_areas:
                ctl[a] = self._control_uncached(a)
            self._ctl_cache = ctl
        return self._ctl_cache

    def _control_uncached(self, area: str) -> str | None:
        u = self.units.get(area)
        if u is not None:
            return str(u["house"])
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
            return self._controls()[a["land_area"]]
        if a["kind"] == "sea":
            return None
        return self._controls()[area]

    def castle_count(self, house: str) -> int:
        """W-18: castle/stronghold areas controlled."""
        ctl = self._controls()
        return sum(1 for a in self.data.castle_areas if ctl[a] == house)

    def land_count(self, house: str) -> int:
        ctl = self._controls()
        return sum(1 for a in self.data.land_areas if ctl[a] == house)

    def board_tokens(self, house: str) -> int:
        return sum(1 for h in self.tokens.values() if h == house)

    def _gain_power(self, house: str, n: int) -> int:
        """W-1.7: gains capped so a house never holds more than its 20 tokens."""
        cap = 20 - self.board_tokens(house) - self.power[house]
        g = max(0, min(n, cap))
        self.power[house] += g
        return g

    def available_units(self, house: str, unit: str) -> int:
        n = self.data.unit_limits[unit]
        for u in self.units.values():
            if u["house"] == house:
                n -= u["units"].count(unit) + u["routed"].count(unit)
        if self.combat and self.combat["attacker"] == house:
            n -= self.combat["att_units"].count(unit)
        if self.march and self.march["house"] == house:
            n -= self.march["combat_units"].count(unit)
        return n

    def holder(self, track: str) -> str:
        return str(self.tracks[track][0])

    def turn_order(self) -> list[str]:
        return list(self.tracks["iron_throne"])

    def is_enemy_ship_in(self, sea: str, house: str) -> bool:
        u = self.units.get(sea)
        return u is not None and u["house"] != house

    # ------------------------------------------------------------------ supply (W-12)
    def _army_sizes(self, house: str) -> dict[str, int]:
        sizes = {a: len(u["units"]) + len(u["routed"]) for a, u in self.units.items() if u["house"] == house}
        if self.march and self.march["house"] == house and self.march["combat_units"]:
            d = self.march["combat_dest"]
            sizes[d] = sizes.get(d, 0) + len(self.march["combat_units"])
        c = self.combat
        if c and c["attacker"] == house and c["att_units"]:  # W-7.1.4: attackers count where they fight
            sizes[c["area"]] = sizes.get(c["area"], 0) + len(c["att_units"])
        return sizes

    def supply_ok(self, house: str, delta: dict[str, int] | None = None, level: int | None = None) -> bool:
        """W-12.3: armies (2+ units in an area) fit the allowed sizes of the supply position."""
        sizes = self._army_sizes(house)
        if delta:
            for a, n in delta.items():
                sizes[a] = sizes.get(a, 0) + n
        return self._fits(sorted((s for s in sizes.values() if s >= 2), reverse=True), house, level)

    def _fits(self, armies: list[int], house: str, level: int | None = None) -> bool:
        limits = self.data.supply_limits[self.supply[house] if level is None else level]
        if len(armies) > len(limits):
            return False
        return all(s <= lim for s, lim in zip(armies, limits, strict=False))

    def supply_icons(self, house: str) -> int:
        ctl = self._controls()
        return sum(int(self.data.areas[a]["supply"]) for a in self.data.land_areas if ctl[a] == house)

    # ------------------------------------------------------------------ victory (W-18)
    def _check_victory(self) -> None:
        for h in self.turn_order():
            if self.castle_count(h) >= self.config.castles_to_win:
                self._finish(h, "seven_castles")
                return

    def _finish(self, winner: str, reason: str) -> None:
        self.winner = winner
        self.end_reason = reason
        self.phase = Phase.GAME_OVER.value
        self.pending = None
        self.agenda = []
        self._event(f"{winner.title()} wins ({reason.replace('_', ' ')})")

    def _final_ranking(self) -> list[str]:
        """W-18.2: castles, then land areas, then supply, then Iron Throne position."""
        it = self.tracks["iron_throne"]
        return sorted(
            self.houses,
            key=lambda h: (-self.castle_count(h), -self.land_count(h), -self.supply[h], it.index(h)),
        )

    # ------------------------------------------------------------------ token helpers
    def _set_token(self, area: str, house: str) -> None:
        self.tokens[area] = house
        self._ctl_cache = None

    def _drop_token(self, area: str) -> None:
        if area in self.tokens:
            del self.tokens[area]
            self._ctl_cache = None

    def _prune_orders(self) -> None:
        """W-6.4: orders in areas without their owner's units are removed."""
        for a in [a for a, (h, _t) in self.orders.items() if self.owner(a) != h]:
            del self.orders[a]

    # ------------------------------------------------------------------ round structure (W-3)
    def _t_round(self, task: dict[str, Any]) -> None:
        steps = []
        for phase, phase_steps in ROUND_STRUCTURE:
            if phase == "westeros" and task.get("first"):
                continue  # W-3.1: round 1 skips the Westeros phase
            for step, _who in phase_steps:
                steps.append({"t": step, "phase": phase})
        self._push(*steps)

    def _enter(self, task: dict[str, Any]) -> None:
        self.phase = task.get("phase", self.phase)
        self.step = task["t"]

    def _t_advance_round(self, task: dict[str, Any]) -> None:
        self._enter(task)
        self.round += 1  # W-4.1(1)
        self._event(f"Round {self.round} begins")

    def _t_reveal_westeros(self, task: dict[str, Any]) -> None:
        """W-4.1(2)-(3), W-4.2: reveal decks I-III, Winter is Coming, wildling icons."""
        self._enter(task)
        self.revealed = []
        icons = 0
        for k in ("1", "2", "3"):
            deck = self.wdecks[k]
            while True:
                card = deck.pop(0)
                deck.append(card)  # resolved cards go under their deck [S&R]
                self.deck_known[k] = min(len(deck), self.deck_known[k] + 1)
                info = self.data.westeros_cards[card]
                if info["effect_type"] == "reshuffle":
                    self._event(f"Winter is Coming: deck {k} is reshuffled")
                    self._rng.shuffle(deck)
                    self.deck_known[k] = 0
                    continue
                break
            self.revealed.append(card)
            icons += 1 if info["wildling_icon"] else 0
            self._event(f"Westeros deck {k}: {info['name']}", card=card)
        before = self.threat
        self.threat = min(12, self.threat + 2 * icons)
        if self.threat != before:
            self._event(f"Wildling threat rises to {self.threat}")
        tasks: list[dict[str, Any]] = []
        if icons and self.threat >= 12:
            tasks.append({"t": "wildling_attack", "strength": None, "exclude": None})
        tasks.extend({"t": "westeros_card", "card": c} for c in self.revealed)
        self._push(*tasks)

    def _t_resolve_westeros(self, task: dict[str, Any]) -> None:
        self._enter(task)

    # ------------------------------------------------------------------ planning (W-5)
    def _t_assign_orders(self, task: dict[str, Any]) -> None:
        self._enter(task)
        self.orders = {}
        self.orders_revealed = False
        players = [h for h in self.turn_order() if any(u["house"] == h for u in self.units.values())]
        if players:
            self._ask("orders", players)

    def star_limit(self, house: str) -> int:
        """W-5.2: special orders allowed by King's Court position."""
        table = self.data.raw["tracks"]["special_orders_by_kings_court"][str(len(self.houses))]
        return int(table[self.tracks["kings_court"].index(house)])

    def _unused_tokens(self, house: str, ignore_area: str | None = None) -> list[str]:
        """Order tokens not placed; legal under bans (W-5.3) and the ★ limit (W-5.2)."""
        used: dict[str, int] = {}
        stars = 0
        for a, (h, t) in self.orders.items():
            if h == house and a != ignore_area:
                used[t] = used.get(t, 0) + 1
                if self.data.tokens[t]["special"]:
                    stars += 1
        limit = self.star_limit(house)
        out = []
        for tid, tok in self.data.tokens.items():
            if used.get(tid, 0) >= tok["count"] or tid in self.bans:
                continue
            if tok["special"] and stars >= limit:
                continue
            out.append(tid)
        return out

    def _legal_orders(self, p: str) -> list[Action]:
        need = [a for a, u in self.units.items() if u["house"] == p and a not in self.orders]
        toks = self._unused_tokens(p) if need else []
        out: list[Action] = [PlaceOrder(p, a, t) for a in need for t in toks]
        if not need or not toks:
            out.append(FinishOrders(p))
        return out

    def _do_orders(self, a: Action) -> None:
        assert self.pending is not None
        if isinstance(a, PlaceOrder):
            self.orders[a.area] = [a.player, a.token]
            self._event(f"{a.player.title()} places an order in {a.area}")
            self._event(a.describe(self), to=[a.player])
        else:
            self.pending["players"].remove(a.player)
            self._event(f"{a.player.title()} has placed all orders")
            if not self.pending["players"]:
                self.pending = None

    def _t_reveal_orders(self, task: dict[str, Any]) -> None:
        """W-5.4: all orders face up at once."""
        self._enter(task)
        self.orders_revealed = True
        for a, (h, t) in sorted(self.orders.items()):
            self._event(f"{h.title()}: {t.replace('_', ' ')} in {a}", order=[a, h, t])

    def _t_messenger_raven(self, task: dict[str, Any]) -> None:
        """W-5.5: the Raven holder may swap an order or look at the top wildling card."""
        self._enter(task)
        if not self.raven_used:
            self._ask("raven", [self.holder("kings_court")])

    def _legal_raven(self, p: str) -> list[Action]:
        out: list[Action] = [Choose(p, "raven", "pass"), Choose(p, "raven", "look")]
        for a, (h, t) in self.orders.items():
            if h == p:
                out.extend(RavenSwap(p, a, nt) for nt in self._unused_tokens(p, ignore_area=a) if nt != t)
        return out

    def _do_raven(self, a: Action) -> None:
        self.pending = None
        if isinstance(a, RavenSwap):
            old = self.orders[a.area][1]
            self.orders[a.area] = [a.player, a.token]
            self.raven_used = True
            self._event(f"Messenger Raven: {a.player.title()} replaces {old} with {a.token} in {a.area}")
            return
        assert isinstance(a, Choose)
        if a.option == "look":
            self.raven_used = True
            top = self.wildling_deck[0]
            self.raven_knows = {"house": a.player, "card": top, "where": "top"}
            self._event(f"{a.player.title()} looks at the top wildling card")
            self._event(f"The top wildling card is {top}", to=[a.player])
            self._choose(a.player, "raven_bury", ["top", "bottom"])
        else:
            self._event(f"{a.player.title()} does not use the Messenger Raven")

    def _on_raven_bury(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option == "bottom":
            self.wildling_deck.append(self.wildling_deck.pop(0))
            if self.raven_knows:
                self.raven_knows["where"] = "bottom"
        self._event(f"{p.title()} leaves the wildling card on the {option}")

    # ------------------------------------------------------------------ action phase cycling (W-6.2)
    def _t_raids(self, task: dict[str, Any]) -> None:
        self._enter(task)
        self._push({"t": "cycle", "otype": "raid", "idx": 0})

    def _t_marches(self, task: dict[str, Any]) -> None:
        self._enter(task)
        self._push({"t": "cycle", "otype": "march", "idx": 0})

    def _t_consolidate(self, task: dict[str, Any]) -> None:
        self._enter(task)
        self._push({"t": "cycle", "otype": "consolidate_power", "idx": 0})

    def _t_cycle(self, task: dict[str, Any]) -> None:
        order = self.turn_order()
        n = len(order)
        kind = {"raid": "raid", "march": "march_select", "consolidate_power": "consolidate"}[task["otype"]]
        for k in range(n):
            h = order[(task["idx"] + k) % n]
            if any(oh == h and _order_type(t) == task["otype"] for oh, t in self.orders.values()):
                self._push({"t": "cycle", "otype": task["otype"], "idx": (order.index(h) + 1) % n})
                self._ask(kind, [h])
                return

    def _t_cleanup(self, task: dict[str, Any]) -> None:
        """W-6.3: remove orders, rally routed units, refresh Blade and Raven; end after round 10."""
        self._enter(task)
        self.orders = {}
        self.orders_revealed = False
        for u in self.units.values():
            if u["routed"]:
                u["units"].extend(u["routed"])
                u["routed"] = []
        self.blade_used = False
        self.raven_used = False
        self.bans = []
        if self.round >= self.config.max_rounds:
            self._finish(self._final_ranking()[0], "round_limit")
            return
        self._push({"t": "round"})

    # ------------------------------------------------------------------ raid (W-7.2)
    def _raid_targets(self, p: str, area: str, token: str) -> list[str]:
        kind = self.data.kind(area)
        out = []
        for t in self.data.adj[area]:
            o = self.orders.get(t)
            if o is None or o[0] == p:
                continue
            tk = self.data.kind(t)
            if kind == "land" and tk != "land":
                continue
            if kind == "port" and tk != "sea":
                continue
            ot = _order_type(o[1])
            if ot in ("support", "raid", "consolidate_power") or (
                ot == "defense" and token == "raid_special"
            ):
                out.append(t)
        return out

    def _legal_raid(self, p: str) -> list[Action]:
        out: list[Action] = []
        for a, (h, t) in sorted(self.orders.items()):
            if h == p and _order_type(t) == "raid":
                out.append(ResolveRaid(p, a, None))
                out.extend(ResolveRaid(p, a, tg) for tg in self._raid_targets(p, a, t))
        return out

    def _do_raid(self, a: Action) -> None:
        assert isinstance(a, ResolveRaid)
        self.pending = None
        del self.orders[a.area]
        if a.target is None:
            self._event(a.describe(self))
            return
        victim, tok = self.orders.pop(a.target)
        self._event(f"{a.describe(self)}, removing {victim.title()}'s {tok.replace('_', ' ')}")
        if _order_type(tok) == "consolidate_power":  # W-7.2.3 pillage
            self._gain_power(a.player, 1)
            if self.power[victim] > 0:
                self.power[victim] -= 1

    # ------------------------------------------------------------------ consolidate power (W-7.5)
    def _legal_consolidate(self, p: str) -> list[Action]:
        out: list[Action] = []
        for a, (h, t) in sorted(self.orders.items()):
            if h == p and _order_type(t) == "consolidate_power":
                out.append(ResolveConsolidate(p, a, False))
                ad = self.data.areas[a]
                if t == "consolidate_power_special" and ad["kind"] == "land" and ad["castle"] != "none":
                    out.append(ResolveConsolidate(p, a, True))
        return out

    def _do_consolidate(self, a: Action) -> None:
        assert isinstance(a, ResolveConsolidate)
        self.pending = None
        del self.orders[a.area]
        ad = self.data.areas[a.area]
        if a.muster:
            self._event(a.describe(self))
            self._start_muster(a.player, [a.area])
            return
        gain = 0
        if ad["kind"] == "land":
            gain = 1 + int(ad["crowns"])
        elif ad["kind"] == "port" and not self.is_enemy_ship_in(ad["sea_area"], a.player):
            gain = 1
        got = self._gain_power(a.player, gain)
        self._event(f"{a.describe(self)} and gains {got} power")

    # ------------------------------------------------------------------ movement geometry (W-10)
    def _transport_lands(self, house: str, area: str) -> set[str]:
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

    def _move_targets(self, house: str, area: str) -> list[str]:
        """W-7.1.1 / W-10: areas the units in `area` may move to (before occupancy checks)."""
        kind = self.data.kind(area)
        imp = self.impassable
        if kind == "land":
            out = {a for a in self.data.adj[area] if self.data.kind(a) == "land"}
            out |= self._transport_lands(house, area)
        elif kind == "sea":
            out = set()
            for a in self.data.adj[area]:
                k = self.data.kind(a)
                if k == "sea" or (k == "port" and self.control(a) == house):
                    out.add(a)
        else:
            out = {self.data.areas[area]["sea_area"]}
        return sorted(a for a in out if a not in imp)

    def _hostile(self, house: str, area: str) -> bool:
        """Enemy units, an enemy garrison or a neutral force (W-7.1.2)."""
        o = self.owner(area)
        if o is not None and o != house:
            return True
        if area in self.neutral:
            return True
        if area in self.garrisons and self.data.areas[area].get("home_house") != house:
            return True
        return False

    def _unit_value(self, unit: str, castle: bool, attacking: bool) -> int:
        if unit == "siege_engine":
            return 4 if (attacking and castle) else 0
        return UNIT_STRENGTH[unit]

    def _can_support(self, src: str, dest: str) -> bool:
        """W-7.3.3: which areas may support a combat in `dest`."""
        ks, kd = self.data.kind(src), self.data.kind(dest)
        if kd == "sea":
            return ks == "sea" or (ks == "port" and self.data.areas[src]["sea_area"] == dest)
        return ks in ("land", "sea")

    def _support_orders(self, dest: str) -> list[tuple[str, str, str]]:
        """(area, house, token) of Support orders that may support a combat in `dest`."""
        out = []
        for a in self.data.adj[dest]:
            o = self.orders.get(a)
            if o and o[1].startswith("support") and self.owner(a) == o[0] and self._can_support(a, dest):
                out.append((a, o[0], o[1]))
        return out

    # ------------------------------------------------------------------ march (W-7.1)
    def _legal_march_select(self, p: str) -> list[Action]:
        return [
            ChooseMarch(p, a)
            for a, (h, t) in sorted(self.orders.items())
            if h == p and _order_type(t) == "march"
        ]

    def _do_march_select(self, a: Action) -> None:
        assert isinstance(a, ChooseMarch)
        token = self.orders[a.area][1]
        self.march = {
            "house": a.player,
            "source": a.area,
            "token": token,
            "combat_dest": None,
            "combat_units": [],
        }
        self._ask("march_move", [a.player])
        self._event(f"{a.player.title()} resolves the March order in {a.area}")

    def _neutral_attack_strength(self, house: str, dest: str, units: list[str]) -> int:
        """W-11.1: marching units + March modifier + Support orders that may back the march.

        The marcher's own Support orders always count; with `neutral_force_other_support` the
        other houses' eligible Support orders count too (they may still decline afterwards).
        """
        assert self.march is not None
        return self._neutral_strength(house, dest, units, self.march["token"], None)

    def _neutral_strength(
        self, house: str, dest: str, units: list[str], token: str, declared: dict[str, str] | None
    ) -> int:
        castle = self.data.areas[dest]["castle"] != "none"
        s = sum(self._unit_value(u, castle, True) for u in units)
        s += int(self.data.tokens[token]["strength_modifier"])
        for a, h, t in self._support_orders(dest):
            if h == house or (
                self.config.neutral_force_other_support and (declared is None or declared.get(h) == house)
            ):
                s += sum(self._unit_value(u, castle, True) for u in self.units[a]["units"])
                s += 1 if t == "support_plus_one" else 0
        return s

    def _legal_march_move(self, p: str) -> list[Action]:
        m = self.march
        assert m is not None
        src = m["source"]
        out: list[Action] = [EndMarch(p, False)]
        u = self.units.get(src)
        if u is None and self.data.kind(src) == "land":
            if (
                self.data.areas[src].get("home_house") != p
                and self.tokens.get(src) != p
                and self.power[p] > 0
            ):
                out.append(EndMarch(p, True))
        if u is None or u["house"] != p or not u["units"]:
            return out
        movable = u["units"]
        types = [t for t in UNIT_TYPES if t in movable]
        counts = [movable.count(t) for t in types]
        subsets = []
        for combo in product(*(range(c + 1) for c in counts)):
            group = tuple(t for t, c in zip(types, combo, strict=True) for _ in range(c))
            if group:
                subsets.append(group)
        sizes = self._army_sizes(p)
        cdest = m["combat_dest"]
        for dest in self._move_targets(p, src):
            hostile = self._hostile(p, dest)
            if hostile and cdest not in (None, dest):
                continue
            dk = self.data.kind(dest)
            own_there = sizes.get(dest, 0)
            for g in subsets:
                n = len(g)
                if dk == "port" and own_there + n > int(self.data.areas[dest]["max_ships"]):
                    continue
                if hostile and dest in self.neutral:
                    if (
                        self._neutral_attack_strength(p, dest, m["combat_units"] + list(g))
                        < self.neutral[dest]
                    ):
                        continue
                sz = dict(sizes)
                sz[src] = sz.get(src, 0) - n
                sz[dest] = own_there + n
                if not self._fits(sorted((s for s in sz.values() if s >= 2), reverse=True), p):
                    continue
                out.append(MarchMove(p, g, dest))
        return out

    def _do_march_move(self, a: Action) -> None:
        m = self.march
        assert m is not None
        if isinstance(a, EndMarch):
            self.pending = None
            self._end_march(a)
            return
        assert isinstance(a, MarchMove)
        src = m["source"]
        for unit in a.units:
            self._remove_unit(src, unit, prefer_routed=False)
        if self._hostile(a.player, a.dest):
            m["combat_dest"] = a.dest
            m["combat_units"].extend(a.units)
            self._event(f"{a.describe(self)} (attack)")
        else:
            t = self.tokens.get(a.dest)
            if t is not None and t != a.player:  # W-7.1.3
                self._drop_token(a.dest)
                self._event(f"{a.player.title()} removes {t.title()}'s power token from {a.dest}")
            for unit in a.units:
                self._add_unit(a.dest, a.player, unit)
            self._event(a.describe(self))

    def _end_march(self, a: EndMarch) -> None:
        m = self.march
        assert m is not None
        p, src = m["house"], m["source"]
        if a.leave_power_token:  # W-7.1.5 / W-8.2
            self.power[p] -= 1
            self._set_token(src, p)
            self._event(f"{p.title()} leaves a power token in {src}")
        self.orders.pop(src, None)
        dest = m["combat_dest"]
        self.march = None
        if dest is None:
            self._push({"t": "march_end"})
            return
        if dest in self.neutral:  # W-11.1
            others = []
            if self.config.neutral_force_other_support:
                sup = self._support_orders(dest)
                others = [h for h in self.turn_order() if h != p and any(sh == h for _a, sh, _t in sup)]
            self.combat = {
                "attacker": p,
                "defender": "neutral",
                "neutral": True,
                "area": dest,
                "from": src,
                "att_units": list(m["combat_units"]),
                "token": m["token"],
                "support": {},
                "support_queue": others,
                "cards": {},
            }
            self._push({"t": "combat_support"}, {"t": "neutral_resolve"}, {"t": "march_end"})
            return
        defender = self.owner(dest) or str(self.data.areas[dest]["home_house"])
        queue = []
        sup = self._support_orders(dest)
        for h in self.turn_order():
            if any(sh == h for _a, sh, _t in sup):
                queue.append(h)
        self.combat = {
            "attacker": p,
            "defender": defender,
            "area": dest,
            "from": src,
            "att_units": list(m["combat_units"]),
            "token": m["token"],
            "support": {},
            "support_queue": queue,
            "cards": {p: None, defender: None},
            "excluded": {p: [], defender: []},
            "imm_done": [],
            "blade": None,
            "winner": None,
            "loser": None,
            "loras": False,
            "arianne": False,
            "tyrion_done": False,
        }
        self.phase = Phase.ACTION.value
        self._event(f"Combat in {dest}: {p.title()} attacks {defender.title()}")
        self._push(
            {"t": "combat_support"},
            {"t": "combat_cards"},
            {"t": "combat_cancel"},
            {"t": "combat_immediate"},
            {"t": "combat_blade"},
            {"t": "combat_resolve"},
            {"t": "march_end"},
        )

    def _t_march_end(self, task: dict[str, Any]) -> None:
        """W-7.1.7: after each march, orphan orders, ports, victory."""
        self._prune_orders()
        self._push({"t": "port_sync"}, {"t": "victory_check"})

    def _t_victory_check(self, task: dict[str, Any]) -> None:
        self._check_victory()

    def _t_port_sync(self, task: dict[str, Any]) -> None:
        """W-10.6: port take-over by the new controller, or orphaned ships destroyed."""
        for port in sorted(a for a in self.units if self.data.kind(a) == "port"):
            o = self.owner(port)
            land = self.data.areas[port]["land_area"]
            c = self.control(land)
            if c == o:
                continue
            n = self.unit_count(port)
            if c is None and not self.config.orphan_port_ships_destroyed:
                continue
            del self.units[port]
            self.orders.pop(port, None)
            self._ctl_cache = None
            if c is None:
                self._event(f"{str(o).title()} loses {n} ship(s) in {port}: {land} is no longer controlled")
                continue
            self._event(f"{c.title()} captures the port {port} ({n} {str(o).title()} ship(s))")
            self._push({"t": "port_takeover", "house": c, "port": port, "left": n}, {"t": "port_sync"})
            return

    def _t_port_takeover(self, task: dict[str, Any]) -> None:
        if task["left"] <= 0:
            return
        h, port = task["house"], task["port"]
        opts = ["destroy"]
        if self.available_units(h, "ship") > 0 and self.supply_ok(h, {port: 1}):
            opts.insert(0, "replace")
        self._choose(h, "port_takeover", opts, port=port, left=task["left"])

    def _on_port_takeover(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option == "replace":
            self._add_unit(ctx["port"], p, "ship")
        self._push({"t": "port_takeover", "house": p, "port": ctx["port"], "left": ctx["left"] - 1})

    # ------------------------------------------------------------------ combat (W-9)
    def _t_combat_support(self, task: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        self.step = "combat"
        while c["support_queue"]:
            h = c["support_queue"][0]
            if any(sh == h for _a, sh, _t in self._support_orders(c["area"])):
                self._push({"t": "combat_support"})
                self._ask("support", [h])
                return
            c["support_queue"].pop(0)

    def _legal_support(self, p: str) -> list[Action]:
        c = self.combat
        assert c is not None
        if c.get("neutral"):  # W-11.1: the neutral force gets no support
            return [DeclareSupport(p, c["attacker"]), DeclareSupport(p, "none")]
        return [DeclareSupport(p, c["attacker"]), DeclareSupport(p, c["defender"]), DeclareSupport(p, "none")]

    def _do_support(self, a: Action) -> None:
        assert isinstance(a, DeclareSupport) and self.combat is not None
        self.pending = None
        self.combat["support"][a.player] = a.side
        self.combat["support_queue"].remove(a.player)
        self._event(a.describe(self))

    def _t_neutral_resolve(self, task: dict[str, Any]) -> None:
        """W-11.1: enough strength removes the token and the units move in; otherwise they stay home."""
        c = self.combat
        assert c is not None
        self.combat = None
        p, dest, units = c["attacker"], c["area"], c["att_units"]
        need = self.neutral[dest]
        got = self._neutral_strength(p, dest, units, c["token"], c["support"])
        if got >= need:
            self._event(
                f"{p.title()} defeats the neutral force in {dest} ({got} vs {need})", numbers=[got, need]
            )
            del self.neutral[dest]
            for unit in units:
                self._add_unit(dest, p, unit)
            return
        src = c["from"]
        self._event(f"{p.title()} falls short against the neutral force in {dest} ({got} vs {need})")
        if self.data.kind(src) != "land" or self.control(src) in (None, p):
            for unit in units:
                self._add_unit(src, p, unit)
        else:
            self._event(f"{p.title()} cannot return to {src}: {len(units)} unit(s) lost")

    def _t_combat_cards(self, task: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        players = [h for h in (c["attacker"], c["defender"]) if self._card_options(h)]
        if players:
            self._ask("house_card", players, chosen={})

    def _card_options(self, h: str) -> list[str]:
        assert self.combat is not None
        return [x for x in self.hands[h] if x not in self.combat["excluded"][h]]

    def _legal_house_card(self, p: str) -> list[Action]:
        return [PlayHouseCard(p, x) for x in self._card_options(p)]

    def _do_house_card(self, a: Action) -> None:
        assert isinstance(a, PlayHouseCard) and self.pending is not None and self.combat is not None
        self.pending["chosen"][a.player] = a.card
        self.pending["players"].remove(a.player)
        self._event(f"{a.player.title()} has chosen a house card")
        if self.pending["players"]:
            return
        chosen = self.pending["chosen"]
        self.pending = None
        for h, card in chosen.items():  # W-9.4 / W-20.6: revealed together
            self.hands[h].remove(card)
            self.combat["cards"][h] = card
            self._event(f"{h.title()} reveals {self.data.house_cards[card]['name']}", card=card)

    def _opponent(self, h: str) -> str:
        c = self.combat
        assert c is not None
        return str(c["defender"] if h == c["attacker"] else c["attacker"])

    def _t_combat_cancel(self, task: dict[str, Any]) -> None:
        """W-9.5: "cancel" texts first (Tyrion)."""
        c = self.combat
        assert c is not None
        for h in self.turn_order():
            if h in c["cards"] and c["cards"][h] == "tyrion_lannister" and not c["tyrion_done"]:
                if c["cards"][self._opponent(h)] is not None:
                    c["tyrion_done"] = True
                    self._choose(h, "tyrion", ["cancel", "keep"])
                    return

    def _on_tyrion(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        if option == "keep":
            return
        opp = self._opponent(p)
        card = c["cards"][opp]
        self.hands[opp].append(card)
        c["excluded"][opp].append(card)
        c["cards"][opp] = None
        self._event(
            f"Tyrion Lannister sends {self.data.house_cards[card]['name']} back to {opp.title()}'s hand"
        )
        if self._card_options(opp):
            self._ask("house_card", [opp], chosen={})

    def _t_combat_immediate(self, task: dict[str, Any]) -> None:
        """W-9.5: "immediately" texts (Aeron, Doran, Mace, Queen of Thorns) in turn order."""
        c = self.combat
        assert c is not None
        for h in self.turn_order():
            card = c["cards"].get(h) if h in c["cards"] else None
            if card is None or card in c["imm_done"]:
                continue
            if self.data.house_cards[card]["effect_timing"] != "immediately":
                continue
            c["imm_done"].append(card)
            self._push({"t": "combat_immediate"})
            opp = self._opponent(h)
            if card == "aeron_damphair":
                if self.power[h] >= 2 and [x for x in self.hands[h] if x not in c["excluded"][h]]:
                    self._choose(h, "aeron", ["swap", "keep"])
                return
            if card == "doran_martell":
                self._choose(h, "doran", list(TRACKS))
                return
            if card == "mace_tyrell":
                self._mace(h, opp)
                return
            if card == "queen_of_thorns":
                opts = [a for a in self.data.adj[c["area"]] if a in self.orders and self.orders[a][0] == opp]
                if opts:
                    self._choose(h, "queen_of_thorns", sorted(opts))
                return
            return

    def _on_aeron(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        if option == "keep":
            return
        self.power[p] -= 2
        self.discards[p].append("aeron_damphair")
        c["cards"][p] = None
        c["excluded"][p].append("aeron_damphair")
        self._event(f"{p.title()} pays 2 power to replace Aeron Damphair")
        self._ask("house_card", [p], chosen={})

    def _on_doran(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        opp = self._opponent(p)
        tr = self.tracks[option]
        tr.remove(opp)
        tr.append(opp)
        self._event(f"Doran Martell moves {opp.title()} to the bottom of {option.replace('_', ' ')}")

    def _mace(self, h: str, opp: str) -> None:
        """Mace Tyrell kills one opposing footman (blocked by The Blackfish, W-17.3)."""
        c = self.combat
        assert c is not None
        if c["cards"].get(opp) == "the_blackfish":
            self._event("The Blackfish prevents Mace Tyrell's kill")
            return
        if opp == c["attacker"]:
            if "footman" in c["att_units"]:
                c["att_units"].remove("footman")
                self._event(f"Mace Tyrell destroys an attacking {opp.title()} footman")
        else:
            u = self.units.get(c["area"])
            if u and u["house"] == opp and ("footman" in u["units"] or "footman" in u["routed"]):
                self._remove_unit(c["area"], "footman", prefer_routed=False)
                self._event(f"Mace Tyrell destroys a defending {opp.title()} footman")

    def _on_queen_of_thorns(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        h, tok = self.orders.pop(option)
        self._event(f"Queen of Thorns removes {h.title()}'s {tok.replace('_', ' ')} in {option}")

    def _t_combat_blade(self, task: dict[str, Any]) -> None:
        """W-9.6: the Valyrian Steel Blade, once per round."""
        c = self.combat
        assert c is not None
        h = self.holder("fiefdoms")
        if not self.blade_used and h in c["cards"]:
            self._choose(h, "blade", ["use", "pass"])

    def _on_blade(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option == "use":
            assert self.combat is not None
            self.blade_used = True
            self.combat["blade"] = p
            self._event(f"{p.title()} uses the Valyrian Steel Blade (+1)")

    def _supported(self, h: str) -> bool:
        c = self.combat
        assert c is not None
        return any(c["support"].get(sh) == h for _a, sh, _t in self._support_orders(c["area"]))

    def combat_numbers(self) -> dict[str, dict[str, int]]:
        """W-9.3 / W-9.7: strength, swords and fortifications of both sides right now."""
        c = self.combat
        assert c is not None
        if c.get("neutral"):  # W-11.1: the marcher's strength so far against the neutral force's token
            got = self._neutral_strength(c["attacker"], c["area"], c["att_units"], c["token"], c["support"])
            return {
                c["attacker"]: {"strength": got, "swords": 0, "forts": 0},
                "neutral": {"strength": self.neutral[c["area"]], "swords": 0, "forts": 0},
            }
        att, dfn, area = c["attacker"], c["defender"], c["area"]
        castle = self.data.areas[area]["castle"] != "none"
        cards = c["cards"]
        kevan = cards.get(att) == "ser_kevan_lannister"
        victarion = cards.get(att) == "victarion_greyjoy"
        salladhor = any(
            cards.get(h) == "salladhor_saan" and self._supported(h) for h in (att, dfn) if h == "baratheon"
        )

        it = self.tracks["iron_throne"]

        def val(unit: str, house: str, attacking: bool) -> int:
            v = self._unit_value(unit, castle, attacking)
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

        s = {att: sum(val(u, att, True) for u in c["att_units"]), dfn: 0}
        s[att] += int(self.data.tokens[c["token"]]["strength_modifier"])
        du = self.units.get(area)
        if du is not None and du["house"] == dfn:
            s[dfn] += sum(val(u, dfn, False) for u in du["units"])
        o = self.orders.get(area)
        if o and o[0] == dfn and o[1].startswith("defense"):
            bonus = int(self.data.tokens[o[1]]["strength_modifier"])
            s[dfn] += bonus * (2 if cards.get(dfn) == "catelyn_stark" else 1)
        if area in self.garrisons and self.data.areas[area].get("home_house") == dfn:
            s[dfn] += self.garrisons[area]
        for a, sh, tok in self._support_orders(area):
            side = c["support"].get(sh)
            if side not in (att, dfn):
                continue
            # Kevan / Victarion count supporting own-house units when supporting their own attack.
            s[side] += sum(val(u, sh, side == att) for u in self.units[a]["units"])
            s[side] += 1 if tok == "support_plus_one" else 0
        sw = {att: 0, dfn: 0}
        fo = {att: 0, dfn: 0}
        for h in (att, dfn):
            card = cards.get(h)
            if card is None:
                continue
            opp = dfn if h == att else att
            info = self.data.house_cards[card]
            st = 0 if cards.get(opp) == "balon_greyjoy" else int(info["strength"])
            sw[h] += int(info["swords"])
            fo[h] += int(info["fortifications"])
            if card == "stannis_baratheon" and self.tracks["iron_throne"].index(opp) < self.tracks[
                "iron_throne"
            ].index(h):
                st += 1
            elif card == "ser_davos_seaworth" and "stannis_baratheon" in self.discards[h]:
                st += 1
                sw[h] += 1
            elif card == "theon_greyjoy" and h == dfn and castle:
                st += 1
                sw[h] += 1
            elif card == "asha_greyjoy" and not self._supported(h):
                sw[h] += 2
                fo[h] += 1
            elif card == "nymeria_sand":
                if h == att:
                    sw[h] += 1
                else:
                    fo[h] += 1
            s[h] += st
        if c["blade"] in s:
            s[c["blade"]] += 1
        return {h: {"strength": max(0, s[h]), "swords": sw[h], "forts": fo[h]} for h in (att, dfn)}

    def _t_combat_resolve(self, task: dict[str, Any]) -> None:
        """W-9.8: the victor; ties go to the higher Fiefdoms position."""
        c = self.combat
        assert c is not None
        nums = self.combat_numbers()
        att, dfn = c["attacker"], c["defender"]
        sa, sd = nums[att]["strength"], nums[dfn]["strength"]
        if sa != sd:
            w = att if sa > sd else dfn
        else:
            fief = self.tracks["fiefdoms"]
            w = att if fief.index(att) < fief.index(dfn) else dfn
        lo = dfn if w == att else att
        c["winner"], c["loser"] = w, lo
        c["casualties"] = (
            0 if c["cards"].get(lo) == "the_blackfish" else max(0, nums[w]["swords"] - nums[lo]["forts"])
        )
        self._event(f"{w.title()} wins the combat in {c['area']} ({sa} to {sd})", numbers=[sa, sd])
        self._push(
            {"t": "combat_win_effects"},
            {"t": "combat_casualties"},
            {"t": "combat_retreat"},
            {"t": "combat_cleanup"},
            {"t": "combat_after"},
        )

    def _t_combat_win_effects(self, task: dict[str, Any]) -> None:
        """W-9.12: "if you win / lose" texts."""
        c = self.combat
        assert c is not None
        w, lo = c["winner"], c["loser"]
        wc, lc = c["cards"].get(w), c["cards"].get(lo)
        if lc == "arianne_martell" and lo == c["defender"]:
            c["arianne"] = True
        if wc == "ser_loras_tyrell" and w == c["attacker"]:
            c["loras"] = True
        if wc == "tywin_lannister":
            got = self._gain_power(w, 2)
            self._event(f"Tywin Lannister: {w.title()} gains {got} power")
        elif wc == "cersei_lannister":
            opts = sorted(a for a, (h, _t) in self.orders.items() if h == lo)
            if opts:
                self._choose(w, "cersei", [*opts, "none"])
        elif wc == "renly_baratheon" and self.available_units(w, "knight") > 0:
            opts = []
            if w == c["attacker"] and "footman" in c["att_units"]:
                opts.append("attacking_units")
            u = self.units.get(c["area"])
            if w == c["defender"] and u and u["house"] == w and "footman" in u["units"]:
                opts.append(c["area"])
            for a, sh, _t in self._support_orders(c["area"]):
                if sh == w and c["support"].get(w) == w and "footman" in self.units[a]["units"]:
                    opts.append(a)
            if opts:
                self._choose(w, "renly", [*opts, "none"])

    def _on_cersei(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option != "none":
            h, tok = self.orders.pop(option)
            self._event(f"Cersei Lannister removes {h.title()}'s {tok.replace('_', ' ')} in {option}")

    def _on_renly(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        if option == "none":
            return
        if option == "attacking_units":
            c["att_units"].remove("footman")
            c["att_units"].append("knight")
        else:
            u = self.units[option]
            u["units"].remove("footman")
            u["units"].append("knight")
        self._event(f"Renly Baratheon upgrades a footman to a knight ({option})")

    def _losing_units(self) -> list[str]:
        c = self.combat
        assert c is not None
        if c["loser"] == c["attacker"]:
            return list(c["att_units"])
        u = self.units.get(c["area"])
        return list(u["units"]) if u and u["house"] == c["loser"] else []

    def _destroy_losing(self, unit: str) -> None:
        c = self.combat
        assert c is not None
        if c["loser"] == c["attacker"]:
            c["att_units"].remove(unit)
        else:
            self._remove_unit(c["area"], unit, prefer_routed=False)

    def _t_combat_casualties(self, task: dict[str, Any]) -> None:
        """W-9.9: garrison removed, siege engines and routed units destroyed, sword casualties."""
        c = self.combat
        assert c is not None
        area, lo = c["area"], c["loser"]
        if lo == c["defender"] and area in self.garrisons:
            del self.garrisons[area]
            self._event(f"The garrison of {area} is removed")
        if lo == c["defender"]:
            u = self.units.get(area)
            if u and u["house"] == lo:
                n = len(u["routed"]) + u["units"].count("siege_engine")
                u["routed"] = []
                u["units"] = [x for x in u["units"] if x != "siege_engine"]
                if not u["units"]:
                    del self.units[area]
                    self._ctl_cache = None
                if n:
                    self._event(f"{lo.title()} loses {n} siege engine(s)/routed unit(s) in {area}")
        else:
            n = c["att_units"].count("siege_engine")
            c["att_units"] = [x for x in c["att_units"] if x != "siege_engine"]
            if n:
                self._event(f"{lo.title()} loses {n} attacking siege engine(s)")
        left = self._losing_units()
        k = c["casualties"]
        if k >= len(left):
            for x in left:
                self._destroy_losing(x)
            if left:
                self._event(f"{lo.title()} loses all {len(left)} unit(s) as casualties")
            return
        if k > 0:
            self._push({"t": "casualty_pick", "left": k})

    def _t_casualty_pick(self, task: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        if task["left"] <= 0:
            return
        opts = sorted(set(self._losing_units()))
        if not opts:
            return
        self._choose(c["loser"], "casualty", opts, left=task["left"])

    def _on_casualty(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._destroy_losing(option)
        self._event(f"{p.title()} loses a {option.replace('_', ' ')} as a casualty")
        self._push({"t": "casualty_pick", "left": ctx["left"] - 1})

    def _retreat_options(self, house: str, area: str, units: list[str], banned: str) -> dict[str, int]:
        """W-9.10.3-4: legal retreat areas -> units that must be destroyed to fit supply."""
        kind = self.data.kind(area)
        if kind == "land":
            cands = {a for a in self.data.adj[area] if self.data.kind(a) == "land"}
            cands |= self._transport_lands(house, area)
        else:
            cands = set()
            for a in self.data.adj[area]:
                k = self.data.kind(a)
                if k == "sea" or (k == "port" and self.control(a) == house):
                    cands.add(a)
        out: dict[str, int] = {}
        n = len(units)
        for a in sorted(cands):
            if a == banned or a in self.impassable or a in self.neutral:
                continue
            o = self.owner(a)
            if o is not None and o != house:
                continue
            if self.data.kind(a) == "land":
                ctl = self.control(a)
                if ctl is not None and ctl != house:
                    continue
            if self.data.kind(a) == "port" and self.unit_count(a) + n > int(self.data.areas[a]["max_ships"]):
                continue
            for loss in range(n + 1):
                if self.supply_ok(house, {area: -n, a: n - loss}):
                    out[a] = loss
                    break
            else:
                out[a] = n
        return out

    def _t_combat_retreat(self, task: dict[str, Any]) -> None:
        """W-9.10: the loser's survivors retreat and are routed (or destroyed)."""
        c = self.combat
        assert c is not None
        lo = c["loser"]
        if lo == c["attacker"] and c["att_units"] and c["cards"].get(c["winner"]) == "robb_stark":
            # W-9.10.2 / W-17.1 (FAQ): a defending Robb Stark picks where the attacker retreats.
            opts = self._attacker_retreat_options()
            if opts:
                best = min(opts.values())
                self._choose(c["winner"], "robb_retreat", sorted(a for a, v in opts.items() if v == best))
                return
        if lo == c["attacker"]:
            units = c["att_units"]
            c["att_units"] = []
            if not units:
                return
            src = c["from"]
            ok = self.data.kind(src) != "land" or self.control(src) in (None, lo)
            if not ok:
                self._event(f"{lo.title()} cannot retreat to {src}: {len(units)} unit(s) destroyed")
                return
            for x in units:
                self._add_unit(src, lo, x, routed=True)
            self._event(f"{lo.title()} retreats {len(units)} unit(s) to {src}")
            self._push({"t": "retreat_supply", "house": lo, "area": src})
            return
        units = self._losing_units()
        if not units:
            return
        opts = self._retreat_options(lo, c["area"], units, c["from"])
        if not opts:
            for x in units:
                self._remove_unit(c["area"], x, prefer_routed=False)
            self._event(f"{lo.title()} has no retreat from {c['area']}: {len(units)} unit(s) destroyed")
            return
        best = min(opts.values())
        choices = sorted(a for a, v in opts.items() if v == best)
        if c["cards"].get(c["winner"]) == "robb_stark":
            self._choose(c["winner"], "robb_retreat", choices)
        else:
            self._choose(lo, "retreat", choices)

    def _on_retreat(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        c = self.combat
        assert c is not None
        lo = c["loser"]
        units = self._losing_units()
        for x in units:
            self._remove_unit(c["area"], x, prefer_routed=False)
            self._add_unit(option, lo, x, routed=True)
        self._event(f"{lo.title()} retreats {len(units)} unit(s) from {c['area']} to {option}")
        self._push({"t": "retreat_supply", "house": lo, "area": option})

    def _attacker_retreat_options(self) -> dict[str, int]:
        """W-9.10.2: legal retreat areas of the losing attacker next to the embattled area, its origin
        included (when it may return there) -> units that must be destroyed to fit supply."""
        c = self.combat
        assert c is not None
        lo, units, src = c["attacker"], list(c["att_units"]), c["from"]
        opts = self._retreat_options(lo, c["area"], units, banned="")
        if src not in opts and (self.data.kind(src) != "land" or self.control(src) in (None, lo)):
            n = len(units)
            opts[src] = next(
                (loss for loss in range(n + 1) if self.supply_ok(lo, {c["area"]: -n, src: n - loss})), n
            )
        return opts

    def _on_robb_retreat(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        """The Robb Stark player's pick of the loser's retreat area (W-17.1), attacker or defender."""
        c = self.combat
        assert c is not None
        if c["loser"] != c["attacker"]:
            self._on_retreat(p, option, ctx)
            return
        lo, units = c["attacker"], c["att_units"]
        c["att_units"] = []
        for x in units:
            self._add_unit(option, lo, x, routed=True)
        self._event(f"Robb Stark sends {lo.title()}'s {len(units)} attacking unit(s) to {option}")
        self._push({"t": "retreat_supply", "house": lo, "area": option})

    def _t_retreat_supply(self, task: dict[str, Any]) -> None:
        """W-9.10.4: destroy retreating units of the loser's choice until supply fits."""
        h, a = task["house"], task["area"]
        if self.supply_ok(h) or a not in self.units:
            return
        opts = sorted(set(self.units[a]["routed"])) or sorted(set(self.units[a]["units"]))
        self._choose(h, "retreat_loss", opts, area=a)

    def _on_retreat_loss(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._remove_unit(ctx["area"], option, prefer_routed=True)
        self._event(f"{p.title()} destroys a retreating {option.replace('_', ' ')} to fit supply")
        self._push({"t": "retreat_supply", "house": p, "area": ctx["area"]})

    def _discard_played(self, h: str, card: str) -> None:
        """W-17.2: discard; after the last card of a hand, the rest of the pile returns."""
        self.discards[h].append(card)
        if not self.hands[h]:
            self.hands[h] = [x for x in self.discards[h] if x != card]
            self.discards[h] = [card]
            self._event(f"{h.title()} takes back its house cards")

    def _t_combat_cleanup(self, task: dict[str, Any]) -> None:
        """W-9.11: discard cards, the winner moves in, orders and tokens removed."""
        c = self.combat
        assert c is not None
        att, area = c["attacker"], c["area"]
        for h in (att, c["defender"]):
            card = c["cards"].get(h)
            if card is None:
                continue
            self._discard_played(h, card)
            if card == "roose_bolton" and h == c["loser"]:
                self.hands[h].extend(self.discards[h])
                self.discards[h] = []
                self._event("Roose Bolton: Stark takes back its whole discard pile")
        if c["winner"] == att:
            units = c["att_units"]
            c["att_units"] = []
            if c["arianne"]:
                src = c["from"]
                if self.data.kind(src) != "land" or self.control(src) in (None, att):
                    for x in units:
                        self._add_unit(src, att, x)
                self._event("Arianne Martell: the attackers stay where they came from")
                t = self.tokens.get(area)
                if t is not None and t != att and not self.config.arianne_keeps_power_token:  # W-22.11
                    self._drop_token(area)
                    self._event(f"{t.title()}'s power token in {area} is removed")
            else:
                o = self.orders.get(area)
                if o and o[0] != att:
                    del self.orders[area]
                if units and self.tokens.get(area) not in (None, att):
                    self._drop_token(area)  # W-8.3: only when the attacker takes control
                u = self.units.get(area)
                if u is not None and u["house"] != att:  # only if retreat left units (should not)
                    del self.units[area]
                for x in units:
                    self._add_unit(area, att, x)
                if c["loras"] and units:
                    self.orders[area] = [att, c["token"]]
                    self._event("Ser Loras Tyrell: the March order moves into the conquered area")
                if units:
                    self._event(f"{att.title()} takes {area}")
        self._prune_orders()

    def _t_combat_after(self, task: dict[str, Any]) -> None:
        """W-9.5: "after combat" texts (Patchface), then the combat is over."""
        c = self.combat
        assert c is not None
        self.combat = None
        for h in self.turn_order():
            if h in c["cards"] and c["cards"][h] == "patchface":
                opp = c["defender"] if h == c["attacker"] else c["attacker"]
                if self.hands[opp]:
                    self._choose(h, "patchface", [*sorted(self.hands[opp]), "none"], opponent=opp)
                    return

    def _on_patchface(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option == "none":
            return
        opp = ctx["opponent"]
        self.hands[opp].remove(option)
        self._discard_played(opp, option)
        self._event(f"Patchface discards {option} from {opp.title()}'s hand")

    # ------------------------------------------------------------------ Westeros cards (W-4)
    def _t_westeros_card(self, task: dict[str, Any]) -> None:
        info = self.data.westeros_cards[task["card"]]
        et, cid = info["effect_type"], info["id"]
        self._event(f"Resolving {info['name']}")
        if et == "supply":
            self._push({"t": "supply_adjust"})
        elif et == "mustering":
            self._push({"t": "muster_all", "houses": self.turn_order()})
        elif et == "choice":
            token_track = {"iron_throne": "iron_throne", "messenger_raven": "kings_court"}.get(
                info["chooser"], "fiefdoms"
            )
            decision = {
                "a_throne_of_blades": "throne_of_blades",
                "dark_wings_dark_words": "dark_wings",
                "put_to_the_sword": "put_to_the_sword",
            }[cid]
            self._choose(self.holder(token_track), decision, list(info["options"]))
        elif et == "bidding":
            self._push(*({"t": "bid", "purpose": "clash", "track": t} for t in TRACKS))
        elif et == "power":
            self._income(ports=True)
        elif et == "wildlings_attack":
            self._push({"t": "wildling_attack", "strength": None, "exclude": None})
        elif et == "order_restriction":
            self.bans.extend(info.get("restricted_orders", []))

    def _on_throne_of_blades(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._event(f"A Throne of Blades: {p.title()} chooses {option}")
        if option == "supply":
            self._push({"t": "supply_adjust"})
        elif option == "mustering":
            self._push({"t": "muster_all", "houses": self.turn_order()})

    def _on_dark_wings(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._event(f"Dark Wings, Dark Words: {p.title()} chooses {option.replace('_', ' ')}")
        if option == "clash_of_kings":
            self._push(*({"t": "bid", "purpose": "clash", "track": t} for t in TRACKS))
        elif option == "collect_power":
            self._income(ports=self.config.dark_wings_port_income)  # W-15.2 / W-22.1

    def _on_put_to_the_sword(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._event(f"Put to the Sword: {p.title()} chooses {option.replace('_', ' ')}")
        if option == "no_defense_orders":
            self.bans.extend(["defense_plus_one", "defense_plus_two"])
        elif option == "no_march_plus_one":
            self.bans.append("march_plus_one")

    def _income(self, ports: bool) -> None:
        """W-15.1: 1 power per crown in controlled land areas (+ qualifying ports)."""
        ctl = self._controls()
        for h in self.turn_order():
            n = sum(int(self.data.areas[a]["crowns"]) for a in self.data.land_areas if ctl[a] == h)
            if ports:
                for a, u in self.units.items():
                    ad = self.data.areas[a]
                    if u["house"] == h and ad["kind"] == "port" and ctl[ad["land_area"]] == h:
                        if not self.is_enemy_ship_in(ad["sea_area"], h):
                            n += 1
            got = self._gain_power(h, n)
            self._event(f"{h.title()} gains {got} power")

    # ------------------------------------------------------------------ supply (W-12)
    def _t_supply_adjust(self, task: dict[str, Any]) -> None:
        for h in self.houses:
            self.supply[h] = min(6, self.supply_icons(h))
        self._event("Supply: " + ", ".join(f"{h} {self.supply[h]}" for h in self.turn_order()))
        self._push({"t": "reconcile", "houses": self.turn_order()})

    def _t_reconcile(self, task: dict[str, Any]) -> None:
        """W-12.4: in turn order, houses over the limit destroy units of their choice."""
        for h in task["houses"]:
            if not self.supply_ok(h):
                opts = sorted(
                    f"{a}:{x}"
                    for a, u in self.units.items()
                    if u["house"] == h and len(u["units"]) + len(u["routed"]) >= 2
                    for x in set(u["units"] + u["routed"])
                )
                self._push({"t": "reconcile", "houses": task["houses"]})
                self._choose(h, "reconcile", opts)
                return

    def _on_reconcile(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        a, x = option.split(":")
        self._remove_unit(a, x)
        self._event(f"{p.title()} destroys a {x.replace('_', ' ')} in {a} to fit supply")

    # ------------------------------------------------------------------ mustering (W-13)
    def _t_muster_all(self, task: dict[str, Any]) -> None:
        houses = list(task["houses"])
        while houses:
            h = houses.pop(0)
            ctl = self._controls()
            areas = [a for a in self.data.castle_areas if ctl[a] == h and a not in self.impassable]
            if areas:
                self._push({"t": "muster_all", "houses": houses})
                self._start_muster(h, areas)
                if self.pending is not None:
                    return
                self.agenda.pop()

    def _start_muster(self, house: str, areas: list[str]) -> None:
        pts = {"stronghold": 2, "castle": 1}
        self._ask("muster", [house], points={a: pts.get(self.data.areas[a]["castle"], 0) for a in areas})
        if len(self._legal_muster(house)) <= 1:
            self.pending = None

    def _legal_muster(self, p: str) -> list[Action]:
        assert self.pending is not None
        out: list[Action] = []
        avail = {t: self.available_units(p, t) for t in UNIT_TYPES}
        for area, pts in self.pending["points"].items():
            if pts <= 0:
                continue
            if avail["footman"] and self.supply_ok(p, {area: 1}):
                out.append(Muster(p, area, "footman", area))
            if pts >= 2:
                for t in ("knight", "siege_engine"):
                    if avail[t] and self.supply_ok(p, {area: 1}):
                        out.append(Muster(p, area, t, area))
            if avail["ship"]:
                for dest in self._ship_muster_targets(p, area):
                    if self.supply_ok(p, {dest: 1}):
                        out.append(Muster(p, area, "ship", dest))
            u = self.units.get(area)
            if u and u["house"] == p and ("footman" in u["units"] or "footman" in u["routed"]):
                for t in ("knight", "siege_engine"):
                    if avail[t]:
                        out.append(Muster(p, area, t, area, True))
        out.append(Choose(p, "muster_done", "done"))
        return out

    def _ship_muster_targets(self, p: str, area: str) -> list[str]:
        """W-13.4: the area's port (cap 3) or an adjacent sea without enemy ships."""
        out = []
        port = self.data.areas[area].get("port")
        if port and port not in self.impassable and self.owner(port) in (None, p):
            if self.unit_count(port) < int(self.data.areas[port]["max_ships"]):
                out.append(port)
        for s in self.data.adj[area]:
            if self.data.kind(s) == "sea" and self.owner(s) in (None, p):
                out.append(s)
        return out

    def _do_muster(self, a: Action) -> None:
        assert self.pending is not None
        if isinstance(a, Choose):
            self.pending = None
            self._event(f"{a.player.title()} finishes mustering")
            return
        assert isinstance(a, Muster)
        if a.upgrade:
            self._swap_unit(a.area, "footman", a.unit, prefer_routed=False)
            self.pending["points"][a.area] -= 1
        else:
            self._add_unit(a.dest, a.player, a.unit)
            self.pending["points"][a.area] -= 2 if a.unit in ("knight", "siege_engine") else 1
        self._event(a.describe(self))
        if len(self._legal_muster(a.player)) <= 1:
            self.pending = None

    # ------------------------------------------------------------------ bidding (W-14, W-16.3)
    def _t_bid(self, task: dict[str, Any]) -> None:
        players = [h for h in self.turn_order() if h != task.get("exclude")]
        self.step = "clash_of_kings" if task["purpose"] == "clash" else "wildling_attack"
        self._ask("bid", players, bids={}, task=task)

    def _legal_bid(self, p: str) -> list[Action]:
        return [Bid(p, n) for n in range(self.power[p] + 1)]

    def _do_bid(self, a: Action) -> None:
        assert isinstance(a, Bid) and self.pending is not None
        self.pending["bids"][a.player] = a.amount
        self.pending["players"].remove(a.player)
        self._event(f"{a.player.title()} has bid")
        if self.pending["players"]:
            return
        bids, task = self.pending["bids"], self.pending["task"]
        self.pending = None
        for h, n in bids.items():  # W-14.2 / W-16.5: bid tokens go to the pool
            self.power[h] -= n
        self._event(  # in turn order: neither key order nor who bid first shows
            "Bids: " + ", ".join(f"{h} {bids[h]}" for h in self.turn_order() if h in bids), bids=dict(bids)
        )
        if task["purpose"] == "clash":
            groups: list[list[str]] = []
            for amount in sorted(set(bids.values()), reverse=True):
                groups.append(sorted(h for h in bids if bids[h] == amount))
            self._push({"t": "rank", "track": task["track"], "groups": groups, "result": []})
        else:
            self._push({"t": "wildling_resolve", "bids": bids, "task": task})

    def _t_rank(self, task: dict[str, Any]) -> None:
        """W-14.2-3: place houses by bid; the Iron Throne holder orders every tie."""
        groups, result = task["groups"], task["result"]
        while groups:
            g = groups[0]
            if len(g) == 1:
                result.append(g.pop())
                groups.pop(0)
            elif not g:
                groups.pop(0)
            else:
                self._push(task)
                self._choose(self.holder("iron_throne"), "tie_order", list(g), task=task)
                return
        self.tracks[task["track"]] = result
        self._event(f"{task['track'].replace('_', ' ').title()} track: {', '.join(result)}")

    def _on_tie_order(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        task = self.agenda[-1]
        task["groups"][0].remove(option)
        task["result"].append(option)

    # ------------------------------------------------------------------ wildlings (W-16)
    def _t_wildling_attack(self, task: dict[str, Any]) -> None:
        strength = self.threat if task.get("strength") is None else int(task["strength"])
        self._event(f"The wildlings attack with strength {strength}")
        self._push({"t": "bid", "purpose": "wildling", "strength": strength, "exclude": task.get("exclude")})

    def _t_wildling_resolve(self, task: dict[str, Any]) -> None:
        bids, bt = task["bids"], task["task"]
        strength = int(bt["strength"])
        total = sum(bids.values())
        nw = total >= strength if self.config.nights_watch_wins_ties else total > strength
        self.threat = 0 if nw else max(0, self.threat - 4)  # W-16.5
        card = self.wildling_deck.pop(0)
        self.wildling_deck.append(card)  # W-16.7: under the deck
        # The card now at the bottom is public; above it the publicly known run continues unless a card
        # buried by the Messenger Raven (known to its holder only) sits between.
        buried = self.raven_knows is not None and self.raven_knows["where"] == "bottom"
        known = 1 if buried else self.deck_known["wildling"] + 1
        self.deck_known["wildling"] = min(len(self.wildling_deck), known)
        self.raven_knows = None
        name = self.data.wildling_cards[card]["name"]
        self._event(
            f"{'The Night' + chr(39) + 's Watch' if nw else 'The wildlings'} win ({total} vs {strength}); card: {name}",
            wildling_card=card,
        )
        target = max(bids.values()) if nw else min(bids.values())
        cands = [h for h in self.turn_order() if h in bids and bids[h] == target]
        eff = {"t": "wildling_effect", "card": card, "nw": nw, "bids": bids, "who": cands[0]}
        if len(cands) > 1:
            self._choose(self.holder("iron_throne"), "wildling_tie", cands, effect=eff)
        else:
            self._push(eff)

    def _on_wildling_tie(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        eff = dict(ctx["effect"])
        eff["who"] = option
        self._push(eff)

    def _t_wildling_effect(self, task: dict[str, Any]) -> None:
        """W-16.8: the card's reward, or the lowest bidder's then everyone else's penalty."""
        card, who, bids = task["card"], task["who"], task["bids"]
        tail: list[dict[str, Any]] = [
            {"t": "reconcile", "houses": self.turn_order()},
            {"t": "port_sync"},
            {"t": "victory_check"},
        ]
        if task["nw"]:
            self._push({"t": "wl_reward", "card": card, "house": who, "bid": bids[who]}, *tail)
            return
        others = [h for h in self.turn_order() if h in bids and h != who]
        self._push(
            {"t": "wl_lowest", "card": card, "house": who},
            *({"t": "wl_other", "card": card, "house": h} for h in others),
            *tail,
        )

    def _t_wl_reward(self, task: dict[str, Any]) -> None:
        card, h = task["card"], task["house"]
        if card == "a_king_beyond_the_wall":
            self._choose(h, "kbw_reward", list(TRACKS))
        elif card == "crow_killers":
            self._push({"t": "crow_reward", "house": h, "n": 2})
        elif card == "massing_on_the_milkwater":
            self.hands[h].extend(self.discards[h])
            self.discards[h] = []
            self._event(f"{h.title()} takes back its discarded house cards")
        elif card == "mammoth_riders":
            if self.discards[h]:
                self._choose(h, "mammoth_reward", [*sorted(self.discards[h]), "none"])
        elif card == "preemptive_raid":
            self._push({"t": "wildling_attack", "strength": 6, "exclude": h})
        elif card == "rattleshirts_raiders":
            self.supply[h] = min(6, self.supply[h] + 1)
            self._event(f"{h.title()} moves up to supply {self.supply[h]}")
        elif card == "skinchanger_scout":
            got = self._gain_power(h, int(task["bid"]))
            self._event(f"{h.title()} takes back {got} bid power")
        elif card == "the_horde_descends":
            ctl = self._controls()
            opts = [a for a in self.data.castle_areas if ctl[a] == h and a not in self.impassable]
            if opts:
                self._choose(h, "horde_reward", opts)

    def _t_wl_lowest(self, task: dict[str, Any]) -> None:
        card, h = task["card"], task["house"]
        if card == "a_king_beyond_the_wall":
            for t in TRACKS:
                self.tracks[t].remove(h)
                self.tracks[t].append(h)
            self._event(f"{h.title()} drops to the bottom of every influence track")
        elif card == "crow_killers":
            self._push({"t": "crow_knights", "house": h, "n": 99})
        elif card == "massing_on_the_milkwater":
            hand = self.hands[h]
            if len(hand) >= 2:
                top = max(int(self.data.house_cards[x]["strength"]) for x in hand)
                drop = [x for x in hand if int(self.data.house_cards[x]["strength"]) == top]
                if len(drop) < len(hand) or not self.config.milkwater_keeps_one_card:  # W-22.12
                    for x in drop:
                        hand.remove(x)
                        self.discards[h].append(x)
                    self._event(f"{h.title()} discards {', '.join(drop)}")
                    if not hand:  # W-17.2 by analogy: the rest of the pile comes back
                        self.hands[h] = [x for x in self.discards[h] if x not in drop]
                        self.discards[h] = list(drop)
        elif card == "mammoth_riders":
            self._push({"t": "destroy_n", "house": h, "n": 3, "area": None})
        elif card == "preemptive_raid":
            opts = ["drop_tracks"]
            if any(u["house"] == h for u in self.units.values()):
                opts.insert(0, "destroy_units")
            self._choose(h, "preemptive", opts)
        elif card == "rattleshirts_raiders":
            self.supply[h] = max(0, self.supply[h] - 2)
            self._event(f"{h.title()} drops to supply {self.supply[h]}")
        elif card == "skinchanger_scout":
            self.power[h] = 0
            self._event(f"{h.title()} loses all available power")
        elif card == "the_horde_descends":
            # W-16.8: 2 units in ONE castle/stronghold area; a house that cannot (no such area
            # with 2 of its units) destroys 2 units anywhere instead.
            ctl = self._controls()
            opts = [
                a
                for a in self.data.castle_areas
                if ctl[a] == h and self.owner(a) == h and self.unit_count(a) >= 2
            ]
            if opts:
                self._choose(h, "horde_area", opts)
            else:
                self._push({"t": "destroy_n", "house": h, "n": 2, "area": None})

    def _t_wl_other(self, task: dict[str, Any]) -> None:
        card, h = task["card"], task["house"]
        if card == "a_king_beyond_the_wall":
            self._choose(h, "kbw_track", ["fiefdoms", "kings_court"])
        elif card == "crow_killers":
            self._push({"t": "crow_knights", "house": h, "n": 2})
        elif card == "massing_on_the_milkwater":
            if len(self.hands[h]) >= 2:
                self._choose(h, "discard_card", sorted(self.hands[h]))
        elif card == "mammoth_riders":
            self._push({"t": "destroy_n", "house": h, "n": 2, "area": None})
        elif card == "rattleshirts_raiders":
            self.supply[h] = max(0, self.supply[h] - 1)
            self._event(f"{h.title()} drops to supply {self.supply[h]}")
        elif card == "skinchanger_scout":
            lost = min(2, self.power[h])
            self.power[h] -= lost
            self._event(f"{h.title()} loses {lost} available power")
        elif card == "the_horde_descends":
            self._push({"t": "destroy_n", "house": h, "n": 1, "area": None})

    def _on_kbw_reward(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self.tracks[option].remove(p)
        self.tracks[option].insert(0, p)
        self._event(f"{p.title()} takes position 1 on {option.replace('_', ' ')}")

    def _on_kbw_track(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self.tracks[option].remove(p)
        self.tracks[option].append(p)
        self._event(f"{p.title()} drops to the bottom of {option.replace('_', ' ')}")

    def _t_crow_reward(self, task: dict[str, Any]) -> None:
        h = task["house"]
        if task["n"] <= 0 or self.available_units(h, "knight") <= 0:
            return
        opts = sorted(
            a for a, u in self.units.items() if u["house"] == h and "footman" in u["units"] + u["routed"]
        )
        if opts:
            self._choose(h, "crow_reward", [*opts, "done"], n=task["n"])

    def _swap_unit(self, area: str, old: str, new: str | None, prefer_routed: bool) -> None:
        """Replace one `old` unit in `area` by `new` (None: just destroy), keeping its routed state."""
        u = self.units[area]
        routed = old in u["routed"] and (prefer_routed or old not in u["units"])
        self._remove_unit(area, old, prefer_routed=routed)
        if new is not None:
            self._add_unit(area, u["house"], new, routed=routed)

    def _on_crow_reward(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option == "done":
            return
        self._swap_unit(option, "footman", "knight", prefer_routed=False)
        self._event(f"{p.title()} replaces a footman in {option} with a knight")
        self._push({"t": "crow_reward", "house": p, "n": ctx["n"] - 1})

    def _t_crow_knights(self, task: dict[str, Any]) -> None:
        h = task["house"]
        if task["n"] <= 0:
            return
        opts = sorted(
            a for a, u in self.units.items() if u["house"] == h and "knight" in u["units"] + u["routed"]
        )
        if opts:
            self._choose(h, "crow_knight", opts, n=task["n"])

    def _on_crow_knight(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if self.available_units(p, "footman") > 0:
            self._swap_unit(option, "knight", "footman", prefer_routed=True)
            self._event(f"{p.title()} replaces a knight in {option} with a footman")
        else:
            self._remove_unit(option, "knight")
            self._event(f"{p.title()} loses a knight in {option} (no footman available)")
        self._push({"t": "crow_knights", "house": p, "n": ctx["n"] - 1})

    def _on_discard_card(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self.hands[p].remove(option)
        self.discards[p].append(option)
        self._event(f"{p.title()} discards {option}")

    def _on_mammoth_reward(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option != "none":
            self.discards[p].remove(option)
            self.hands[p].append(option)
            self._event(f"{p.title()} takes back {option}")

    def _on_preemptive(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        if option == "destroy_units":
            self._push({"t": "destroy_n", "house": p, "n": 2, "area": None})
            return
        best = min(self.tracks[t].index(p) for t in TRACKS)
        opts = [t for t in TRACKS if self.tracks[t].index(p) == best]
        if len(opts) == 1:
            self._on_preemptive_track(p, opts[0], ctx)
        else:
            self._choose(p, "preemptive_track", opts)

    def _on_preemptive_track(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        tr = self.tracks[option]
        i = tr.index(p)
        tr.remove(p)
        tr.insert(min(len(tr), i + 2), p)
        self._event(f"{p.title()} drops two places on {option.replace('_', ' ')}")

    def _on_horde_area(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._push({"t": "destroy_n", "house": p, "n": 2, "area": option})

    def _on_horde_reward(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        self._start_muster(p, [option])

    def _t_destroy_n(self, task: dict[str, Any]) -> None:
        h, area = task["house"], task["area"]
        if task["n"] <= 0:
            return
        opts = sorted(
            f"{a}:{x}"
            for a, u in self.units.items()
            if u["house"] == h and (area is None or a == area)
            for x in set(u["units"] + u["routed"])
        )
        if opts:
            self._choose(h, "destroy", opts, n=task["n"], area=area)

    def _on_destroy(self, p: str, option: str, ctx: dict[str, Any]) -> None:
        a, x = option.split(":")
        self._remove_unit(a, x)
        self._event(f"{p.title()} destroys its {x.replace('_', ' ')} in {a}")
        self._push({"t": "destroy_n", "house": p, "n": ctx["n"] - 1, "area": ctx["area"]})

    # ------------------------------------------------------------------ views (W-20)
    def log_view(self, player: str | None, start: int = 0) -> list[dict[str, Any]]:
        """Events from number `start` that `player` may see (private ones only to their addressees).

        A state loaded from a log-less snapshot (``to_dict(log=False)``) holds only the events made since.
        """
        return [
            dict(e)
            for e in self.log[max(0, start - self.log_start) :]
            if "to" not in e or (player is not None and player in e["to"])
        ]

    def player_view(self, player: str | None = None) -> dict[str, Any]:
        """What `player` may see (None = spectator): no hidden orders, bids, cards, deck order, seed."""
        d = marshal.loads(
            marshal.dumps({f: getattr(self, f) for f in STATE_FIELDS if f not in ("rng", "agenda", "log")})
        )
        del d["seed_hidden"]
        if not self.orders_revealed:
            d["orders"] = {a: [h, t if h == player else None] for a, (h, t) in self.orders.items()}
        d["wdecks"] = {k: len(v) for k, v in self.wdecks.items()}
        d["wildling_deck"] = len(self.wildling_deck)
        rk = self.raven_knows
        d["raven_knows"] = (
            rk
            if rk and rk["house"] == player
            else ({"house": rk["house"], "card": None, "where": rk["where"]} if rk else None)
        )
        p = d["pending"]
        if p is not None:
            for key in ("bids", "chosen"):
                if key in p:
                    p[key] = {h: (v if h == player else None) for h, v in p[key].items()}
        d["log"] = self.log_view(player)
        d["log_length"] = self.log_length
        # Public facts derived from the board, so clients need not re-implement the rules (W-8.1, W-18,
        # W-9.3: combat numbers use only what is on the table: the house cards are revealed by then).
        d["castles"] = {h: self.castle_count(h) for h in self.houses}
        d["control"] = {a: h for a in self.data.land_areas if (h := self.control(a)) is not None}
        d["combat_strength"] = self.combat_numbers() if self.combat is not None else None
        d["player"] = player
        d["current_players"] = self.current_players()
        return dict(d)


def new_game(
    game_data: GameData,
    *,
    houses: list[str] | None = None,
    player_count: int | None = None,
    seed: int = 0,
    config: RulesConfig | None = None,
    seat_houses: list[str] | None = None,
) -> WesterosState:
    """W-2: a new game for the houses of `player_count` (3-6, W-1.1) or an explicit house list.

    `seat_houses` says which house each seat plays (``players()``); default: the engine's house order.
    """
    if houses is None:
        n = player_count if player_count is not None else 6
        if str(n) not in game_data.raw["setup"]["player_counts"]:
            raise ValueError(f"player_count must be 3-6, not {n}")
        houses = list(game_data.raw["setup"]["player_counts"][str(n)]["houses"])
    else:
        expect = game_data.raw["setup"]["player_counts"].get(str(len(houses)), {}).get("houses")
        if expect is None or sorted(expect) != sorted(houses):
            raise ValueError(f"houses {houses} do not form a legal {len(houses)}-player game (W-1.1)")
        houses = [h for h in HOUSE_ORDER if h in houses]
    if seat_houses is not None and sorted(seat_houses) != sorted(houses):
        raise ValueError(f"seat_houses {seat_houses} must list each of the houses {houses} once")
    st = WesterosState(game_data, config or RulesConfig())
    st._setup(houses, seed)
    if seat_houses is not None:
        st.seat_houses = list(seat_houses)
    return st


def replay(
    game_data: GameData,
    seed: int,
    actions: list[Action],
    *,
    houses: list[str] | None = None,
    player_count: int | None = None,
    config: RulesConfig | None = None,
) -> WesterosState:
    """Rebuild a game from its seed and action list (checked)."""
    st = new_game(game_data, houses=houses, player_count=player_count, seed=seed, config=config)
    for a in actions:
        st.apply(a)
    return st


__all__ = [
    "LAND_UNITS",
    "ROUND_STRUCTURE",
    "IllegalActionError",
    "Outcome",
    "Phase",
    "Reason",
    "WesterosState",
    "new_game",
    "replay",
]
