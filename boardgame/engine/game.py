"""A Game of Thrones: The Board Game (2nd ed.) rules engine — state, turn structure and rules.

Pure Python, deterministic under a seed (docs/style.md §1). The state is values (docs/style.md §5):
plain JSON-able data, enums for the phase, step and end reason, NamedTuples for orders and units, and
records (structures.py) for the agenda, the pending decision, the march and the combat; `to_dict` writes
the JSON every stored game has. The game flow is an *agenda* (a stack of `Step` values) walked by
`run_agenda()` until a decision is needed, which is then described by `pending` and answered by one of
`legal_actions()` (docs/style.md §3, 6).
Rules code walks areas, houses and orders in an order it defines (map order, sorted area ids, Iron
Throne order), never in a dict's key order: a snapshot whose keys a store reordered (PostgreSQL
`jsonb`) plays on exactly as the live state.
The rules live in modules by rule area, plain functions taking the state (see `dispatch.py` for the
tables that reach them); the state's helpers they share are public methods of `Board` (board.py).
Rule numbers (W-x.y) refer to docs/rules/westeros.md.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from . import combat, dispatch, explain, hidden, planning, timeouts, views
from . import messages as ref
from .actions import Action, IllegalActionError
from .board import ROUND_STRUCTURE, Board
from .config import RulesConfig
from .data import HOUSE_ORDER, LAND_UNITS, TRACKS, GameData
from .messages import Msg, gettext_noop, msg
from .structures import (
    STATE_CODECS,
    Combat,
    March,
    Pending,
    PendingKind,
    Phase,
    Reason,
    RoundStep,
    Step,
    Task,
)


@dataclass(frozen=True)
class Outcome:
    """How the game ended (W-18)."""

    winner: str
    reason: Reason
    castles: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value, "castles": dict(self.castles)}

    def message(self) -> Msg:
        """Who won, in words (W-18); the log's last event also says why (`Board.finish`)."""
        return msg(gettext_noop("%(house)s wins"), house=ref.house(self.winner))


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
# Fields held as records (structures.py) and stored as their JSON; the agenda is a list of `Step`.
_RECORDS: dict[str, type[Pending] | type[Combat] | type[March]] = {
    "pending": Pending,
    "combat": Combat,
    "march": March,
}
# Typed values (orders, units, phase, step, end reason) go through `STATE_CODECS`; the rest is plain JSON data.
_PLAIN_FIELDS = tuple(
    f for f in STATE_FIELDS if f != "rng" and f != "agenda" and f not in _RECORDS and f not in STATE_CODECS
)
# Fields added after snapshots were first stored: their value for a snapshot that lacks them.
# Fields a snapshot stored before they existed lacks: `from_dict` fills them in after the others.
_ADDED_FIELDS = frozenset({"seat_houses", "deck_known"})


class WesterosState(Board):
    """One game of Westeros. Create with `new_game`; drive with `legal_actions`/`apply`."""

    def __init__(self, data: GameData, config: RulesConfig, rng: Random | None = None) -> None:
        self.data = data
        self.config = config
        self.rng = Random() if rng is None else rng
        self._ctl_cache: dict[str, str | None] | None = None
        self.log_start = 0  # events before log[0] this state no longer holds (loaded without its log)

    def _setup(self, houses: list[str], seed: int) -> None:
        """W-2: houses, units, power, tracks, garrisons, neutral forces, decks, threat."""
        d = self.data
        setup = d.raw["setup"]
        n = str(len(houses))
        pc = setup["player_counts"][n]
        self.rng = Random(seed)
        self.houses = list(houses)
        self.round = int(setup["start"]["round"])
        self.phase = Phase.SETUP
        self.step = RoundStep.NONE
        self.threat = int(setup["start"]["wildling_threat"])
        self.tracks = {t: [h for h in pc["influence_tracks"][t] if h in houses] for t in TRACKS}
        self.power = {h: int(setup["houses"][h]["power_tokens_available"]) for h in houses}
        self.supply = {h: int(setup["houses"][h]["supply_level"]) for h in houses}
        self.hands = {h: list(d.cards_by_house[h]) for h in houses}
        self.discards = {h: [] for h in houses}
        self.units = {}
        for h in houses:
            for su in setup["houses"][h]["starting_units"]:
                if (
                    len(houses) == 3
                    and not self.config.three_player_lannister_port_ship
                    and su["area"] == "lannisport_port"
                ):
                    continue
                for _ in range(int(su["count"])):
                    self.add_unit(su["area"], h, su["unit"])
        self.tokens = {}
        self.garrisons = {g["area"]: int(g["strength"]) for g in pc["garrisons"]}
        self.neutral = {
            nf["area"]: int(nf["strength"])
            for nf in pc["neutral_forces"]
            if not nf.get("impassable") and nf.get("strength") is not None
        }
        self.impassable = sorted(pc.get("impassable_areas", []))
        self.orders = {}
        self.orders_revealed = False
        self.bans: list[str] = []
        self.blade_used = False
        self.raven_used = False
        self.wdecks = {}
        for k in ("1", "2", "3"):
            deck = list(d.westeros_decks[int(k)])
            self.rng.shuffle(deck)
            self.wdecks[k] = deck
        wild = sorted(d.wildling_cards)
        self.rng.shuffle(wild)
        self.wildling_deck = wild
        self.raven_knows = None
        self.revealed: list[str] = []
        self.agenda = []
        self.pending = None
        self.combat = None
        self.march = None
        self.winner: str | None = None
        self.end_reason = None
        self.log = []
        self.decisions = 0
        self.seed_hidden = True
        self.seat_houses = list(houses)
        # Cards at the bottom of each deck that every house has seen (revealed since the deck was last
        # shuffled): `determinize` keeps them in place and shuffles only the rest.
        self.deck_known = {"1": 0, "2": 0, "3": 0, "wildling": 0}
        self.event(
            msg(
                gettext_noop("Game set up for %(n)s houses: %(houses)s"),
                n=len(houses),
                houses=ref.listing([ref.house(h) for h in houses]),
            ),
            text=f"Game set up for {len(houses)} houses: {', '.join(houses)}",
        )
        self.agenda = [Step(Task.ROUND, first=True)]
        self.run_agenda()

    def _fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in STATE_FIELDS:
            if f == "rng":
                st = self.rng.getstate()
                out[f] = [st[0], list(st[1]), st[2]]
            elif f == "agenda":
                out[f] = [s.to_json() for s in self.agenda]
            elif f in _RECORDS:
                rec = getattr(self, f)
                out[f] = None if rec is None else rec.to_json()
            elif f in STATE_CODECS:
                out[f] = STATE_CODECS[f][0](getattr(self, f))
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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game_data: GameData | None = None) -> WesterosState:
        """Inverse of `to_dict` (the game keeps the data it started with unless `game_data` is given)."""
        d = data
        st = cls(game_data or GameData.from_dict(d["game_data"]), RulesConfig.from_dict(d.get("config")))
        for f in STATE_FIELDS:
            if f == "rng":
                r = d["rng"]
                st.rng.setstate((r[0], tuple(r[1]), r[2]))
            elif f == "log" and "log" not in d:  # a log-less snapshot (to_dict(log=False))
                st.log = []
            elif f not in d and f in _ADDED_FIELDS:  # a snapshot stored before the field existed: below
                continue
            elif f == "agenda":
                st.agenda = [Step.from_json(s) for s in d[f]]
            elif f in _RECORDS:
                setattr(st, f, None if d[f] is None else _RECORDS[f].from_json(d[f]))
            elif f in STATE_CODECS:
                setattr(st, f, STATE_CODECS[f][1](d[f]))
            else:
                setattr(st, f, marshal.loads(marshal.dumps(d[f])))
        start = d.get("log_start", 0) if "log" in d else d.get("log_length", 0)
        if type(start) is not int or start < 0:
            raise ValueError(f"log_start/log_length must be a non-negative integer, not {start!r}")
        st.log_start = start
        # Never set to None first: the attributes are typed (a build by mypyc checks them, docs/speed.md).
        if "seat_houses" not in d:
            st.seat_houses = list(st.houses)
        if "deck_known" not in d:
            st.deck_known = {"1": 0, "2": 0, "3": 0, "wildling": 0}
        return st

    def clone(self) -> WesterosState:
        """Independent copy: shares only immutable values (the game data, agenda steps, orders and units)."""
        rng = hidden.blank_random()
        rng.setstate(self.rng.getstate())
        return self.clone_without_rng(rng)

    def clone_without_rng(self, rng: Random) -> WesterosState:
        """`clone`, but with `rng` as the copy's RNG instead of a copy of this state's (`hidden.determinize`
        draws a new one: copying the 625 words of the old one first would be wasted)."""
        st = WesterosState(self.data, self.config, rng)
        vals = marshal.loads(marshal.dumps(tuple(getattr(self, f) for f in _PLAIN_FIELDS)))
        for f, v in zip(_PLAIN_FIELDS, vals, strict=True):
            setattr(st, f, v)
        st.agenda = list(self.agenda)  # steps are values: shared
        st.orders = dict(self.orders)  # orders and units are values too (NamedTuples): shared
        st.units = dict(self.units)
        st.phase, st.step, st.end_reason = self.phase, self.step, self.end_reason
        st.pending = None if self.pending is None else self.pending.copy()
        st.combat = None if self.combat is None else self.combat.copy()
        st.march = None if self.march is None else self.march.copy()
        st.log_start = self.log_start
        return st

    def current_players(self) -> list[str]:
        """Every house that still owes a decision now (several at simultaneous steps, W-3.3)."""
        if self.winner is not None or self.pending is None:
            return []
        return list(self.pending.players)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        assert self.end_reason is not None, "a finished game has an end reason"
        return Outcome(self.winner, self.end_reason, {h: self.castle_count(h) for h in self.houses})

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """All legal actions of `player` (or of every house that must act, if None)."""
        if self.pending is None or self.winner is not None:
            return []
        if player is None:  # the houses that owe the decision; nothing they may only do out of turn
            return [a for p in self.pending.players for a in dispatch.LEGAL[self.pending.kind](self, p)]
        if player in self.pending.players:
            return dispatch.LEGAL[self.pending.kind](self, player)
        return self._out_of_turn(player)

    def _out_of_turn(self, player: str) -> list[Action]:
        """What a house that owes no decision may still do: take back its Ready while others place orders
        (`planning.legal_reopen`, W-5.1). Not in `current_players`: nobody waits for it."""
        if self.pending is None or self.winner is not None or self.pending.kind is not PendingKind.ORDERS:
            return []
        return planning.legal_reopen(self, player)

    def players(self) -> list[str]:
        """The houses in seat order: seat i of a match plays ``players()[i]`` (fixed for the game)."""
        return list(self.seat_houses)

    def apply(self, action: Action) -> None:
        """Checked apply: raises IllegalActionError naming the action and the situation (`explain_illegal`)."""
        if self.winner is not None or self.pending is None:
            raise IllegalActionError(explain.explain_illegal(self, action))
        if action.player not in self.pending.players and action not in self._out_of_turn(action.player):
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

    def decision_step(self) -> tuple[int, str | None]:
        """The open decision step, `(round, pending kind)`: a timeout takes `timeout_action` defaults for a
        house until it changes (W-5.1: Planning wants an order in every area, W-3.3)."""
        return (self.round, None if self.pending is None else self.pending.kind.value)

    def determinize(self, player: str, rng: Random) -> WesterosState:
        """A state `player` cannot tell from this one, its hidden parts resampled (see `hidden.determinize`)."""
        return hidden.determinize(self, player, rng)

    def apply_unchecked(self, action: Action) -> None:
        """Apply without the legality check (for search and replay of known-good actions).

        The control cache (W-8.1) is not dropped here: every change of who holds an area (units added or
        removed, power tokens set or dropped) drops it where it happens (`Board.add_unit` and friends).
        """
        assert self.pending is not None
        self.decisions += 1
        dispatch.DO[self.pending.kind](self, action)
        self.run_agenda()

    def run_agenda(self) -> None:
        while self.pending is None and self.winner is None and self.agenda:
            task = self.agenda.pop()
            dispatch.TASKS[task.t](self, task)
        if self.pending is not None and not self.pending.players:
            raise RuntimeError("pending decision without players")

    # ------------------------------------------------------------------ rule-area entry points kept as methods
    def combat_numbers(self) -> dict[str, dict[str, int]]:
        """W-9.3 / W-9.7: strength, swords and fortifications of both sides of the running combat."""
        return combat.combat_numbers(self)

    def log_view(self, player: str | None, start: int = 0) -> list[dict[str, Any]]:
        """Events from number `start` that `player` may see (see `views.log_view`)."""
        return views.log_view(self, player, start)

    def player_view(self, player: str | None = None) -> dict[str, Any]:
        """What `player` may see (None = spectator), from an allow-list (see `views.player_view`)."""
        return views.player_view(self, player)


def houses_in_play(game_data: GameData, player_count: int) -> list[str]:
    """W-1.1: the houses of a `player_count`-player game (3-6), in set-up order."""
    counts = game_data.raw["setup"]["player_counts"]
    if str(player_count) not in counts:
        raise ValueError(f"player_count must be 3-6, not {player_count}")
    return list(counts[str(player_count)]["houses"])


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
        houses = houses_in_play(game_data, player_count if player_count is not None else 6)
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
    "houses_in_play",
    "new_game",
    "replay",
]
