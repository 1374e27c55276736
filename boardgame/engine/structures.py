"""The state's internal records as dataclasses: queued agenda steps, the pending decision, the running march
and combat (W-3.3, W-7.1, W-9), with enums for their kinds.

Each record's `to_json` gives exactly the stored JSON (the keys it always had, in the same order) and
`from_json` reads it back, so snapshots in the database and the golden playthrough load and save byte for
byte. The state's own fields that are typed values (`Phase`, `RoundStep`, `Reason`, `Order`, `Units`) are
read and written through `STATE_CODECS`, in the JSON they always had.

Orders and units are immutable NamedTuples: a clone of the state copies the dict that holds them and
shares the values (the AI clones states thousands of times a second), and a rule that changes one
replaces it (`Board.add_unit`, `Board.remove_unit`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from .messages import gettext_noop

T = TypeVar("T")


def need(value: T | None) -> T:
    """The argument a step or decision must carry (a missing one is a bug of the engine)."""
    assert value is not None, "a required argument of the step is missing"
    return value


class Phase(StrEnum):
    """Phases of a round (W-3.1) plus set-up and game over (`state.phase`)."""

    SETUP = "setup"
    WESTEROS = "westeros"
    PLANNING = "planning"
    ACTION = "action"
    GAME_OVER = "game_over"


class RoundStep(StrEnum):
    """The step of the round the game is at (`state.step`, W-3.1): the steps of `ROUND_STRUCTURE`, a
    combat (W-9) and the bids of a Westeros card (W-14 Clash of Kings, W-16 wildling attack)."""

    NONE = ""  # set-up, before round 1
    ADVANCE_ROUND = "advance_round"
    REVEAL_WESTEROS = "reveal_westeros"
    RESOLVE_WESTEROS = "resolve_westeros"
    ASSIGN_ORDERS = "assign_orders"
    REVEAL_ORDERS = "reveal_orders"
    MESSENGER_RAVEN = "messenger_raven"
    RAIDS = "raids"
    MARCHES = "marches"
    CONSOLIDATE = "consolidate"
    CLEANUP = "cleanup"
    COMBAT = "combat"
    CLASH_OF_KINGS = "clash_of_kings"
    WILDLING_ATTACK = "wildling_attack"


class Reason(StrEnum):
    """Why the game ended (W-18.1 immediate win, W-18.2 after round 10)."""

    SEVEN_CASTLES = "seven_castles"
    ROUND_LIMIT = "round_limit"


# The words of each ending, as the log has always said them (W-18.1, W-18.2).
REASON_TERMS: dict[Reason, str] = {
    Reason.SEVEN_CASTLES: gettext_noop("seven castles"),
    Reason.ROUND_LIMIT: gettext_noop("round limit"),
}


class Order(NamedTuple):
    """An order token in an area (W-5.1): whose it is and which token. Stored as `[house, token]`."""

    house: str
    token: str


class Units(NamedTuple):
    """One house's units in an area (W-1.3); routed units (W-9.10.5) are listed apart. Stored as
    `{"house", "routed", "units"}`."""

    house: str
    units: tuple[str, ...] = ()
    routed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"house": self.house, "routed": list(self.routed), "units": list(self.units)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Units:
        return cls(d["house"], tuple(d["units"]), tuple(d["routed"]))

    def size(self) -> int:
        """Units in the area, routed ones included."""
        return len(self.units) + len(self.routed)


def _orders_json(orders: Mapping[str, Order]) -> dict[str, list[str]]:
    return {a: [o.house, o.token] for a, o in orders.items()}


def _orders_load(d: Mapping[str, Any]) -> dict[str, Order]:
    return {a: Order(h, t) for a, (h, t) in d.items()}


def _units_json(units: Mapping[str, Units]) -> dict[str, dict[str, Any]]:
    return {a: u.to_json() for a, u in units.items()}


def _units_load(d: Mapping[str, Any]) -> dict[str, Units]:
    return {a: Units.from_json(u) for a, u in d.items()}


def _reason_json(r: Reason | None) -> str | None:
    return None if r is None else r.value


def _reason_load(v: str | None) -> Reason | None:
    return None if v is None else Reason(v)


# The state's fields held as typed values: each with its JSON writer and reader (the stored JSON of a
# field is what it was when it was a plain str, list or dict).
STATE_CODECS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "phase": (lambda p: p.value, Phase),
    "step": (lambda s: s.value, RoundStep),
    "end_reason": (_reason_json, _reason_load),
    "units": (_units_json, _units_load),
    "orders": (_orders_json, _orders_load),
}


class PendingKind(StrEnum):
    """What a pending decision asks (`Pending.kind`): answered by `legal_actions`."""

    ORDERS = "orders"
    RAVEN = "raven"
    RAID = "raid"
    CONSOLIDATE = "consolidate"
    MARCH_SELECT = "march_select"
    MARCH_MOVE = "march_move"
    SUPPORT = "support"
    HOUSE_CARD = "house_card"
    MUSTER = "muster"
    BID = "bid"
    CHOOSE = "choose"


class Task(StrEnum):
    """A step of the agenda (`Step.t`): run by `WesterosState.run_agenda` until a decision is pending."""

    ROUND = "round"
    ADVANCE_ROUND = "advance_round"
    RESOLVE_WESTEROS = "resolve_westeros"
    RAIDS = "raids"
    MARCHES = "marches"
    CONSOLIDATE = "consolidate"
    CYCLE = "cycle"
    CLEANUP = "cleanup"
    VICTORY_CHECK = "victory_check"
    ASSIGN_ORDERS = "assign_orders"
    REVEAL_ORDERS = "reveal_orders"
    MESSENGER_RAVEN = "messenger_raven"
    MARCH_END = "march_end"
    PORT_SYNC = "port_sync"
    PORT_TAKEOVER = "port_takeover"
    NEUTRAL_RESOLVE = "neutral_resolve"
    COMBAT_SUPPORT = "combat_support"
    COMBAT_CARDS = "combat_cards"
    COMBAT_BLADE = "combat_blade"
    COMBAT_RESOLVE = "combat_resolve"
    COMBAT_CASUALTIES = "combat_casualties"
    CASUALTY_PICK = "casualty_pick"
    COMBAT_CLEANUP = "combat_cleanup"
    COMBAT_RETREAT = "combat_retreat"
    RETREAT_SUPPLY = "retreat_supply"
    COMBAT_CANCEL = "combat_cancel"
    COMBAT_IMMEDIATE = "combat_immediate"
    COMBAT_WIN_EFFECTS = "combat_win_effects"
    COMBAT_AFTER = "combat_after"
    REVEAL_WESTEROS = "reveal_westeros"
    WESTEROS_CARD = "westeros_card"
    SUPPLY_ADJUST = "supply_adjust"
    RECONCILE = "reconcile"
    MUSTER_ALL = "muster_all"
    BID = "bid"
    RANK = "rank"
    WILDLING_ATTACK = "wildling_attack"
    WILDLING_RESOLVE = "wildling_resolve"
    WILDLING_EFFECT = "wildling_effect"
    WL_REWARD = "wl_reward"
    WL_LOWEST = "wl_lowest"
    WL_OTHER = "wl_other"
    CROW_REWARD = "crow_reward"
    CROW_KNIGHTS = "crow_knights"
    DESTROY_N = "destroy_n"


class Decision(StrEnum):
    """A menu decision (`Pending.decision`, `Choose.decision`), answered by one of the pending options."""

    RAVEN_BURY = "raven_bury"
    PORT_TAKEOVER = "port_takeover"
    BLADE = "blade"
    CASUALTY = "casualty"
    RETREAT = "retreat"
    ROBB_RETREAT = "robb_retreat"
    RETREAT_LOSS = "retreat_loss"
    TYRION = "tyrion"
    AERON = "aeron"
    DORAN = "doran"
    QUEEN_OF_THORNS = "queen_of_thorns"
    CERSEI = "cersei"
    RENLY = "renly"
    PATCHFACE = "patchface"
    THRONE_OF_BLADES = "throne_of_blades"
    DARK_WINGS = "dark_wings"
    PUT_TO_THE_SWORD = "put_to_the_sword"
    RECONCILE = "reconcile"
    TIE_ORDER = "tie_order"
    WILDLING_TIE = "wildling_tie"
    KBW_REWARD = "kbw_reward"
    KBW_TRACK = "kbw_track"
    CROW_REWARD = "crow_reward"
    CROW_KNIGHT = "crow_knight"
    DISCARD_CARD = "discard_card"
    MAMMOTH_REWARD = "mammoth_reward"
    PREEMPTIVE = "preemptive"
    PREEMPTIVE_TRACK = "preemptive_track"
    HORDE_AREA = "horde_area"
    HORDE_REWARD = "horde_reward"
    DESTROY = "destroy"


# The stored keys of a step after "t", in the order they are written. A key is written when its value is
# set (`first` when true), and a few are written even when None: the wildling strength and the excluded
# house of a wildling attack and its bid (W-16.1, W-16.8 Preemptive Raid), the area of a destroy step.
_STEP_KEYS = ("phase", "first", "purpose", "track", "groups", "result", "card", "nw", "bids", "task", "who",
              "strength", "exclude", "otype", "idx", "house", "bid", "port", "left", "n", "area", "houses")  # fmt: skip
_WILDLING_NULLS = ("strength", "exclude")


@dataclass(slots=True)
class Step:
    """A queued step of the agenda: `t` names it, the other fields are its arguments (None: not given).

    Steps are values: the rules never change one in place (a test checks it) but replace it with a new
    one (the tie-breaks of a bid, W-14.3), so clones of the state share them. Not `frozen`, which would
    make creating one, about once per decision, five times slower.
    """

    t: Task
    phase: Phase | None = None  # the phase a round step enters (W-3.1)
    first: bool = False  # round 1 skips the Westeros phase (W-3.1)
    purpose: str | None = None  # a bid for a track ("clash", W-14) or against the wildlings (W-16)
    track: str | None = None
    groups: tuple[tuple[str, ...], ...] | None = None  # houses not yet placed, by bid (W-14.3)
    result: tuple[str, ...] | None = None  # houses placed so far
    card: str | None = None
    nw: bool | None = None  # the Night's Watch won (W-16.5)
    bids: Mapping[str, int] | None = None
    task: Step | None = None  # the bid a wildling resolution belongs to
    who: str | None = None
    strength: int | None = None
    exclude: str | None = None
    otype: str | None = None  # the order type a cycle resolves (W-6.2)
    idx: int | None = None
    house: str | None = None
    bid: int | None = None
    port: str | None = None
    left: int | None = None
    n: int | None = None
    area: str | None = None
    houses: tuple[str, ...] | None = None

    def _nulls(self) -> tuple[str, ...]:
        if self.t is Task.WILDLING_ATTACK or (self.t is Task.BID and self.purpose == "wildling"):
            return _WILDLING_NULLS
        return ("area",) if self.t is Task.DESTROY_N else ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t.value}
        nulls = self._nulls()
        for key in _STEP_KEYS:
            v = getattr(self, key)
            if v is None:
                if key in nulls:
                    out[key] = None
            elif key == "first":
                if v:
                    out[key] = True
            elif key == "groups":
                out[key] = [list(g) for g in v]
            elif key in ("result", "houses"):
                out[key] = list(v)
            elif key == "bids":
                out[key] = dict(v)
            elif key == "task":
                out[key] = v.to_json()
            elif key == "phase":
                out[key] = v.value
            else:
                out[key] = v
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Step:
        kw: dict[str, Any] = {}
        for key, v in d.items():
            if key == "t" or v is None:
                continue
            if key == "groups":
                v = tuple(tuple(g) for g in v)
            elif key in ("result", "houses"):
                v = tuple(v)
            elif key == "bids":
                v = dict(v)
            elif key == "task":
                v = Step.from_json(v)
            elif key == "phase":
                v = Phase(v)
            elif key not in _STEP_KEYS:
                raise ValueError(f"unknown key {key!r} in agenda step {dict(d)!r}")
            kw[key] = v
        return cls(Task(d["t"]), **kw)


@dataclass(slots=True)
class Pending:
    """The decision the game waits for: its kind, who owes it, and its context (None: not part of it)."""

    kind: PendingKind
    players: list[str]
    decision: Decision | None = None  # a menu decision and its options
    options: list[str] = field(default_factory=list)  # written with the decision
    points: dict[str, int] | None = None  # mustering points left per area (W-13)
    bids: dict[str, int] | None = None  # secret bids so far (W-14.2, W-16.3)
    chosen: dict[str, str] | None = None  # secret house cards so far (W-9.4)
    task: Step | None = None  # the bid or tie-break step this decision belongs to
    effect: Step | None = None  # the wildling effect a tie-break decides (W-16.6)
    port: str | None = None
    left: int | None = None
    n: int | None = None
    area: str | None = None  # written even when None for a Destroy decision (any area)
    opponent: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "players": list(self.players)}
        if self.decision is not None:
            out["decision"] = self.decision.value
            out["options"] = list(self.options)
        if self.points is not None:
            out["points"] = dict(self.points)
        if self.bids is not None:
            out["bids"] = dict(self.bids)
        if self.chosen is not None:
            out["chosen"] = dict(self.chosen)
        if self.task is not None:
            out["task"] = self.task.to_json()
        if self.effect is not None:
            out["effect"] = self.effect.to_json()
        for key in ("port", "left", "n", "area", "opponent"):
            v = getattr(self, key)
            if v is not None or (key == "area" and self.decision is Decision.DESTROY):
                out[key] = v
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Pending:
        dec = d.get("decision")
        task, effect = d.get("task"), d.get("effect")
        return cls(
            PendingKind(d["kind"]),
            list(d["players"]),
            decision=None if dec is None else Decision(dec),
            options=list(d.get("options") or ()),
            points=None if d.get("points") is None else dict(d["points"]),
            bids=None if d.get("bids") is None else dict(d["bids"]),
            chosen=None if d.get("chosen") is None else dict(d["chosen"]),
            task=None if task is None else Step.from_json(task),
            effect=None if effect is None else Step.from_json(effect),
            port=d.get("port"),
            left=d.get("left"),
            n=d.get("n"),
            area=d.get("area"),
            opponent=d.get("opponent"),
        )

    def copy(self) -> Pending:
        """An independent copy (steps are values and are shared)."""
        return Pending(
            self.kind,
            list(self.players),
            self.decision,
            list(self.options),
            None if self.points is None else dict(self.points),
            None if self.bids is None else dict(self.bids),
            None if self.chosen is None else dict(self.chosen),
            self.task,
            self.effect,
            self.port,
            self.left,
            self.n,
            self.area,
            self.opponent,
        )


@dataclass(slots=True)
class March:
    """The March order being resolved (W-7.1): units sent into a hostile area wait in `combat_units`."""

    house: str
    source: str
    token: str
    combat_dest: str | None = None
    combat_units: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "house": self.house,
            "source": self.source,
            "token": self.token,
            "combat_dest": self.combat_dest,
            "combat_units": list(self.combat_units),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> March:
        return cls(d["house"], d["source"], d["token"], d["combat_dest"], list(d["combat_units"]))

    def copy(self) -> March:
        return March(self.house, self.source, self.token, self.combat_dest, list(self.combat_units))


@dataclass(slots=True)
class Combat:
    """The running combat (W-9). A combat against a neutral force (W-11.1) stores only the keys up to
    `cards`; `casualties` is stored once the victor is known (W-9.8)."""

    attacker: str
    defender: str  # "neutral" against a neutral force
    area: str
    origin: str  # the area the attack came from (stored as "from")
    att_units: list[str]
    token: str  # the March order
    support: dict[str, str] = field(default_factory=dict)  # declared support by house (W-9.2)
    support_queue: list[str] = field(default_factory=list)
    cards: dict[str, str | None] = field(default_factory=dict)  # revealed house cards (W-9.4)
    neutral: bool = False
    excluded: dict[str, list[str]] = field(default_factory=dict)  # cards Tyrion sent back (W-17.1)
    imm_done: list[str] = field(default_factory=list)
    blade: str | None = None  # who used the Valyrian Steel Blade (W-9.6)
    winner: str | None = None  # known after W-9.8
    loser: str | None = None
    loras: bool = False
    arianne: bool = False
    tyrion_done: bool = False
    casualties: int | None = None

    def decided(self) -> tuple[str, str]:
        """The winner and the loser of a combat whose victor is known (W-9.8)."""
        w, lo = self.winner, self.loser
        assert w is not None and lo is not None, "the victor is not known yet (W-9.8)"
        return w, lo

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"attacker": self.attacker, "defender": self.defender}
        if self.neutral:
            out["neutral"] = True
        out["area"] = self.area
        out["from"] = self.origin
        out["att_units"] = list(self.att_units)
        out["token"] = self.token
        out["support"] = dict(self.support)
        out["support_queue"] = list(self.support_queue)
        out["cards"] = dict(self.cards)
        if self.neutral:
            return out
        out["excluded"] = {h: list(v) for h, v in self.excluded.items()}
        out["imm_done"] = list(self.imm_done)
        out["blade"] = self.blade
        out["winner"] = self.winner
        out["loser"] = self.loser
        out["loras"] = self.loras
        out["arianne"] = self.arianne
        out["tyrion_done"] = self.tyrion_done
        if self.casualties is not None:
            out["casualties"] = self.casualties
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Combat:
        return cls(
            d["attacker"],
            d["defender"],
            d["area"],
            d["from"],
            list(d["att_units"]),
            d["token"],
            dict(d["support"]),
            list(d["support_queue"]),
            dict(d["cards"]),
            bool(d.get("neutral", False)),
            {h: list(v) for h, v in d.get("excluded", {}).items()},
            list(d.get("imm_done", [])),
            d.get("blade"),
            d.get("winner"),
            d.get("loser"),
            bool(d.get("loras", False)),
            bool(d.get("arianne", False)),
            bool(d.get("tyrion_done", False)),
            d.get("casualties"),
        )

    def copy(self) -> Combat:
        return Combat(
            self.attacker,
            self.defender,
            self.area,
            self.origin,
            list(self.att_units),
            self.token,
            dict(self.support),
            list(self.support_queue),
            dict(self.cards),
            self.neutral,
            {h: list(v) for h, v in self.excluded.items()},
            list(self.imm_done),
            self.blade,
            self.winner,
            self.loser,
            self.loras,
            self.arianne,
            self.tyrion_done,
            self.casualties,
        )
