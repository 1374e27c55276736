"""The Commandeer match state and rules (C-2 … C-7): set-up, turns, combat, keywords, abilities, results.

Pure Python and deterministic: all randomness comes from the seeded ``Random`` held in the state.
The turn structure is declared as ``Step`` values that ``_advance`` walks (STYLE.md §6); every rules
choice a person makes waits in ``decision`` or an input step and is answered by an ``Action``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from random import Random
from typing import Any

from .actions import (
    Action,
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    ChooseSquare,
    ChooseTarget,
    ChooseTrigger,
    Concede,
    Deploy,
    IllegalActionError,
    Keep,
    Move,
    Mulligan,
    Pass,
    PlayEvent,
    Reinforce,
    action_from_json,
    describe_action,
    square_index,
    square_name,
)
from .cards import CardDef, card_from_dict_cached, deck_problems
from .config import BOARD_SIZE, RulesConfig
from .information import action_is_secret, decision_view, determinize
from .vocabulary import CHOSEN_TARGETS

NSQ = BOARD_SIZE * BOARD_SIZE
START_SQUARES = (14, 15, 20, 21)  # c3, d3, c4, d4 (C-2.2)
DELTAS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
ROTATE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


def _line(sq: int, d: str) -> tuple[int, ...]:
    x, y = sq % BOARD_SIZE, sq // BOARD_SIZE
    dx, dy = DELTAS[d]
    out = []
    x, y = x + dx, y + dy
    while 0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE:
        out.append(y * BOARD_SIZE + x)
        x, y = x + dx, y + dy
    return tuple(out)


LINES: tuple[dict[str, tuple[int, ...]], ...] = tuple({d: _line(sq, d) for d in DELTAS} for sq in range(NSQ))


def _neighbours(king: bool) -> tuple[tuple[int, ...], ...]:
    dirs = list(DELTAS) if king else ["N", "E", "S", "W"]
    return tuple(tuple(LINES[sq][d][0] for d in dirs if LINES[sq][d]) for sq in range(NSQ))


NEIGHBOURS_ORTHO = _neighbours(False)
NEIGHBOURS_KING = _neighbours(True)


class Step(StrEnum):
    """Where the match is in C-4 set-up and the C-5 turn (declared turn structure)."""

    COMMANDER = "commander"
    MULLIGAN = "mulligan"
    TURN_START = "turn_start"
    START_CP = "start_cp"
    PLANNING = "planning"
    PLANNING_END = "planning_end"
    DEFENDING_START = "defending_start"
    DEFENDING = "defending"
    COMBAT = "combat"
    COMBAT_END = "combat_end"
    END = "end"
    END_CHECK = "end_check"
    OVER = "over"


INPUT_STEPS = frozenset({Step.COMMANDER, Step.MULLIGAN, Step.PLANNING, Step.DEFENDING, Step.COMBAT})
PHASE_OF = {
    Step.COMMANDER: "setup",
    Step.MULLIGAN: "setup",
    Step.TURN_START: "planning",
    Step.START_CP: "planning",
    Step.PLANNING: "planning",
    Step.PLANNING_END: "planning",
    Step.DEFENDING_START: "defending",
    Step.DEFENDING: "defending",
    Step.COMBAT: "combat",
    Step.COMBAT_END: "combat",
    Step.END: "end",
    Step.END_CHECK: "end",
    Step.OVER: "over",
}


class Reason(StrEnum):
    """Why a match ended (C-6)."""

    SIX_DEFEATED = "six_defeated"  # C-6.1
    NO_UNITS = "no_units"  # C-6.2 (C-5.4, C-5.10)
    TURN_LIMIT = "turn_limit"  # C-6.5
    CONCESSION = "concession"  # C-6.4


@dataclass(frozen=True)
class Outcome:
    """The result: ``winner`` 0/1, or None for a draw."""

    winner: int | None
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value}


CARD_CHOICES = frozenset({"bottom", "pay_energy", "reinforce_energy", "discard", "retire_energy"})


class Unit:
    """A unit on the battlefield: its square and the counters that vanish when it leaves (C-5.7)."""

    __slots__ = (
        "id",
        "owner",
        "sq",
        "damage",
        "pmod",
        "hmod",
        "tpmod",
        "thmod",
        "range_perm",
        "range_turn",
        "attacked",
        "hit_turn",
        "attached",
        "entered",
    )

    def __init__(self, uid: int, owner: int, sq: int, entered: int) -> None:
        self.id = uid
        self.owner = owner
        self.sq = sq
        self.damage = 0
        self.pmod = 0  # permanent Power modifier
        self.hmod = 0  # permanent Health modifier
        self.tpmod = 0  # until end of turn
        self.thmod = 0
        self.range_perm = False
        self.range_turn = False
        self.attacked = False  # has attacked this turn (C-5.6)
        self.hit_turn = -1  # last turn it was attacked (C-7.3)
        self.attached: list[int] = []  # Ongoing events (C-1.3)
        self.entered = entered

    def copy(self) -> Unit:
        u = Unit.__new__(Unit)
        u.id, u.owner, u.sq, u.damage = self.id, self.owner, self.sq, self.damage
        u.pmod, u.hmod, u.tpmod, u.thmod = self.pmod, self.hmod, self.tpmod, self.thmod
        u.range_perm, u.range_turn, u.attacked, u.hit_turn = (
            self.range_perm,
            self.range_turn,
            self.attacked,
            self.hit_turn,
        )
        u.attached = list(self.attached)
        u.entered = self.entered
        return u


class Side:
    """One player's zones and counters (C-2.4). ``deck`` holds the top card LAST."""

    __slots__ = (
        "hand",
        "deck",
        "energy",
        "retired",
        "defeated",
        "removed",
        "commander",
        "revealed",
        "cp",
        "mulligans",
    )

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.deck: list[int] = []
        self.energy: list[int] = []
        self.retired: list[int] = []
        self.defeated: list[int] = []
        self.removed: list[int] = []
        self.commander: int | None = None
        self.revealed = False
        self.cp = 0
        self.mulligans = 0

    def copy(self) -> Side:
        s = Side.__new__(Side)
        s.hand, s.deck, s.energy = list(self.hand), list(self.deck), list(self.energy)
        s.retired, s.defeated, s.removed = list(self.retired), list(self.defeated), list(self.removed)
        s.commander, s.revealed, s.cp, s.mulligans = self.commander, self.revealed, self.cp, self.mulligans
        return s

    def zone(self, name: str) -> list[int]:
        return getattr(self, name)  # type: ignore[no-any-return]


ZONES = ("hand", "deck", "energy", "retired", "defeated", "removed")


_ACTION_CACHE: dict[tuple[Any, ...], Action] = {}


def _move_action(p: int, uid: int, sq: int) -> Action:
    """Interned Move (actions are values; the planning phase lists hundreds of them)."""
    key = ("m", p, uid, sq)
    a = _ACTION_CACHE.get(key)
    if a is None:
        if len(_ACTION_CACHE) > 200_000:
            _ACTION_CACHE.clear()
        a = _ACTION_CACHE[key] = Move(p, uid, sq)
    return a


def _deploy_action(p: int, card: int, sq: int) -> Action:
    """Interned Deploy."""
    key = ("d", p, card, sq)
    a = _ACTION_CACHE.get(key)
    if a is None:
        if len(_ACTION_CACHE) > 200_000:
            _ACTION_CACHE.clear()
        a = _ACTION_CACHE[key] = Deploy(p, card, sq)
    return a


def _distinct(ids: Iterable[int], defs: Mapping[int, CardDef]) -> list[int]:
    """One id per distinct card name (same-name cards are interchangeable), first occurrence."""
    seen: set[str] = set()
    out = []
    for i in ids:
        n = defs[i].name
        if n not in seen:
            seen.add(n)
            out.append(i)
    return out


class GameState:
    """A Commandeer match. Create with ``new_match`` or ``GameState.from_dict`` (position format)."""

    def __init__(
        self, config: RulesConfig, defs: dict[int, CardDef], owners: dict[int, int], rng: Random
    ) -> None:
        self.config = config
        self.defs = defs  # id -> definition (shared, never mutated)
        self.owners = owners  # id -> owner (shared, never mutated)
        self.rng = rng
        self.sides = [Side(), Side()]
        self.board: list[int | None] = [None] * NSQ
        self.units: dict[int, Unit] = {}
        self.turn = 0
        self.active = 0
        self.first = 0
        self.step = Step.COMMANDER
        self.setup_player = 0
        self.decision: dict[str, Any] | None = None
        self.resolution: dict[str, Any] | None = None
        self.triggers: list[dict[str, Any]] = []
        self.ops: list[dict[str, Any]] = []
        self.limbo: list[int] = []
        self.used: dict[tuple[int, int], int] = {}
        self.marks: dict[int, int] = {}
        self.units_deployed = 0  # units that have entered the battlefield this match (C-2.2 "first unit")
        self.outcome_: Outcome | None = None
        self.log: list[dict[str, Any]] = []
        self.log_start = 0  # entries before log[0] that this state no longer holds (loaded without its log)
        self._events: list[dict[str, Any]] = []
        self._cont_cache: dict[int, list[int]] | None = None
        # `to_dict`'s "cards", built once per `defs` (shared by clones; never mutated), and the position's
        # own "cards" it was loaded from, which `to_dict` hands back when equal: a store that splits the
        # catalog off (the online layer's start snapshot) then finds the very object it holds.
        self._cards_json: dict[str, Any] | None = None
        self._cards_source: Mapping[str, Any] | None = None
        self._setup_derived()

    def _setup_derived(self) -> None:
        self._edge = self.config.edge_penalties()
        self._nb = NEIGHBOURS_KING if self.config.adjacency == "king" else NEIGHBOURS_ORTHO

    # ------------------------------------------------------------------ public interface
    def current_players(self) -> list[int]:
        """Who must act now (empty when the match is over)."""
        if self.outcome_ is not None:
            return []
        if self.decision is not None:
            return [self.decision["player"]]
        step = self.step
        if step is Step.COMMANDER or step is Step.MULLIGAN:
            return [self.setup_player]
        if step is Step.DEFENDING:
            return [1 - self.active]
        return [self.active]

    def players(self) -> list[int]:
        """Both seats in seat order (the ``Game`` interface): player 0 and player 1."""
        return [0, 1]

    def is_terminal(self) -> bool:
        return self.outcome_ is not None

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def phase_name(self) -> str:
        """The C-5 phase (or set-up) of the current step, for texts."""
        return PHASE_OF[self.step].capitalize()

    def card_name(self, cid: int) -> str:
        """The name of a card instance (a placeholder for an unknown id, so messages never crash)."""
        d = self.defs.get(cid)
        return d.name if d is not None else f"card #{cid}"

    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of ``player`` (C-6.4: a player may always concede while the match runs)."""
        if self.outcome_ is not None or player not in (0, 1):
            return []
        acts = self._legal_current() if player == self.current_players()[0] else []
        acts.append(Concede(player))
        return acts

    def apply(self, action: Action) -> None:
        """Checked apply: raises IllegalActionError naming the action and why it is not legal now."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        if self.outcome_ is not None:
            raise IllegalActionError(f"{action.to_json()} is illegal: the match is over (C-6.3)")
        if action not in self.legal_actions(action.player):
            raise IllegalActionError(self.explain_illegal(action))
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Fast path for search and agents: assumes ``action`` came from ``legal_actions``.

        Even unchecked, a match with a result accepts no further action (C-6.3).
        """
        if self.outcome_ is not None:
            raise IllegalActionError(f"{action.to_json()} is illegal: the match is over (C-6.3)")
        self._events = []
        dec = self.decision
        entry: dict[str, Any] = {
            "n": self.log_start + len(self.log),
            "player": action.player,
            "action": action,
            "decision": None,
        }
        if dec is not None:
            entry["decision"] = dec["kind"]
            if "for" in dec:
                entry["for"] = dec["for"]
            if dec["kind"] == "order" and isinstance(action, ChooseTrigger):
                entry["label"] = dec["labels"][dec["options"].index(action.index)]
        elif isinstance(action, Pass):
            entry["phase"] = self.phase_name()
        self._dispatch(action)
        self._advance()
        entry["events"] = self._events
        self.log.append(entry)
        self._events = []

    def clone(self) -> GameState:
        g = GameState.__new__(GameState)
        g.config = self.config
        g.defs = self.defs
        g.owners = self.owners
        g.rng = Random.__new__(Random)  # skips seeding from the OS; the state is set right away
        g.rng.setstate(self.rng.getstate())
        g.sides = [self.sides[0].copy(), self.sides[1].copy()]
        g.board = list(self.board)
        g.units = {k: u.copy() for k, u in self.units.items()}
        g.turn, g.active, g.first, g.step, g.setup_player = (
            self.turn,
            self.active,
            self.first,
            self.step,
            self.setup_player,
        )
        g.decision = _deep(self.decision)
        g.resolution = _deep(self.resolution)
        g.triggers = [_deep(t) for t in self.triggers]
        g.ops = [_deep(o) for o in self.ops]
        g.limbo = list(self.limbo)
        g.used = dict(self.used)
        g.marks = dict(self.marks)
        g.units_deployed = self.units_deployed
        g.outcome_ = self.outcome_
        g.log = list(self.log)  # entries are never mutated after they are appended
        g.log_start = self.log_start
        g._events = []
        g._edge = self._edge
        g._nb = self._nb
        g._cont_cache = self._cont_cache  # read-only once built
        g._cards_json = self._cards_json  # read-only, as `defs`
        g._cards_source = self._cards_source
        return g

    def secret_action(self, action: Action) -> bool:
        """Whether ``action``, applied now, is hidden from the other player (C-4.1, C-4.4, C-8)."""
        dec = self.decision
        return action_is_secret(action, dec["kind"] if dec is not None else None)

    def timeout_action(self, player: int) -> Action:
        """The documented default when ``player``'s clock runs out: keep the hand (C-4.4), no Commander
        (C-4.1), end the phase (Pass); otherwise (a pending choice) the first legal choice. Never Concede.

        Raises IllegalActionError when ``player`` is not to act now.
        """
        legal = [a for a in self.legal_actions(player) if not isinstance(a, Concede)]
        if not legal:
            raise IllegalActionError(f"player {player} has nothing to do now: {self._situation()}")
        for wanted in (Keep, Pass):
            for a in legal:
                if isinstance(a, wanted):
                    return a
        for a in legal:
            if isinstance(a, ChooseCommander) and a.name is None:
                return a
        return legal[0]

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now (phase, turn, missing CP or Energy, no legal square …)."""
        from .legality import explain

        return explain(self, action)

    def determinize(self, player: int, rng: Random, *, opponent_deck_known: bool = True) -> GameState:
        """A full state consistent with what ``player`` can know, hidden parts resampled (see
        ``information.determinize``): ``result.player_view(player) == self.player_view(player)``."""
        return determinize(self, player, rng, opponent_deck_known=opponent_deck_known)

    def _situation(self) -> str:
        """The current situation in words (for messages)."""
        if self.outcome_ is not None:
            return "the match is over (C-6.3)"
        cur = self.current_players()[0]
        if self.decision is not None:
            return f"player {cur} must answer a '{self.decision['kind']}' choice"
        if self.step is Step.COMMANDER or self.step is Step.MULLIGAN:
            return f"set-up ({self.step.value}), player {cur} decides"
        return f"turn {self.turn}, {self.phase_name()} phase of player {self.active}, player {cur} acts"

    # ------------------------------------------------------------------ legality
    def _why_illegal(self, a: Action) -> str:
        head = f"{a.to_json()} ({a.describe(self)}) is illegal: "
        cur = self.current_players()
        if a.player not in cur:
            return (
                head
                + f"player {a.player} is not to act now (waiting for player {cur[0]}, step {self.step.value})"
            )
        if self.decision is not None:
            return head + f"player {a.player} must first answer the pending '{self.decision['kind']}' choice"
        side = self.sides[a.player]
        if isinstance(a, Deploy | PlayEvent) and a.card in self.defs:
            d = self.defs[a.card]
            if a.card not in side.hand and a.card != side.commander:
                return head + "that card is not in your hand or Commander zone"
            if d.command_cost > side.cp:
                return head + f"it needs {d.command_cost} CP and you have {side.cp} (C-5.2)"
            if d.energy_cost > len(side.energy):
                return head + f"it needs {d.energy_cost} Energy and you have {len(side.energy)} (C-5.3)"
            if isinstance(a, Deploy):
                return (
                    head
                    + "the square must be empty and adjacent to a unit (a start square for the first unit, C-5.2)"
                )
        if isinstance(a, Move | Reinforce) and side.cp < 1:
            return head + "it costs 1 CP (C-5.2)"
        if isinstance(a, Attack):
            return (
                head
                + "the target must be an enemy unit along one of the attacker's arrows and the attacker must not have attacked yet (C-5.6)"
            )
        return head + f"it is not among the legal actions in step '{self.step.value}'"

    def _legal_current(self) -> list[Action]:
        dec = self.decision
        if dec is not None:
            p = dec["player"]
            kind = dec["kind"]
            if kind in CARD_CHOICES:
                zone = self.sides[p].zone(dec["zone"])
                return [ChooseCard(p, c) for c in _distinct(zone, self.defs)]
            if kind == "target":
                return [ChooseTarget(p, t) for t in dec["options"]]
            if kind == "move_square":
                return [ChooseSquare(p, s) for s in dec["options"]]
            if kind == "order":
                return [ChooseTrigger(p, i) for i in dec["options"]]
            raise AssertionError(f"unknown decision {kind}")
        step = self.step
        if step is Step.PLANNING:
            return self._legal_planning(self.active)
        if step is Step.COMBAT:
            return self._legal_combat(self.active)
        if step is Step.DEFENDING:
            return self._legal_defending(1 - self.active)
        if step is Step.COMMANDER:
            p = self.setup_player
            names = sorted({self.defs[c].name for c in self.sides[p].deck if self._is_legendary_unit(c)})
            choices: list[Action] = [ChooseCommander(p, None)]
            return choices + [ChooseCommander(p, n) for n in names]
        if step is Step.MULLIGAN:
            p = self.setup_player
            acts: list[Action] = [Keep(p)]
            if self.sides[p].mulligans < min(self.config.max_mulligans, self.config.opening_hand - 1):
                acts.append(Mulligan(p))
            return acts
        return []

    def _is_legendary_unit(self, c: int) -> bool:
        d = self.defs[c]
        return d.legendary and d.type == "unit"

    def deploy_squares(self) -> list[int]:
        """C-5.2: empty squares a unit may be deployed to: next to any unit, or a start square (C-2.2)
        for the first unit of the game — and on any later empty battlefield unless
        ``RulesConfig.start_squares_when_battlefield_empty`` is off."""
        board = self.board
        if not self.units:
            if self.units_deployed and not self.config.start_squares_when_battlefield_empty:
                return []
            return [s for s in START_SQUARES if board[s] is None]
        nb = self._nb
        out = set()
        for u in self.units.values():
            for s in nb[u.sq]:
                if board[s] is None:
                    out.add(s)
        return sorted(out)

    def move_squares(self, uid: int, counts: dict[int, int] | None = None) -> list[int]:
        """C-5.2: empty squares adjacent to another card than ``uid`` itself."""
        if counts is None:
            counts = self._neighbour_counts()
        own = self._nb[self.units[uid].sq]
        return [s for s, n in counts.items() if n > 1 or (n == 1 and s not in own)]

    def _neighbour_counts(self) -> dict[int, int]:
        """Empty square -> number of occupied neighbours (only squares with at least one), sorted by square."""
        board = self.board
        nb = self._nb
        counts: dict[int, int] = {}
        for u in self.units.values():
            for s in nb[u.sq]:
                if board[s] is None:
                    counts[s] = counts.get(s, 0) + 1
        return dict(sorted(counts.items()))

    def _payable(self, side: Side, d: CardDef) -> bool:
        return side.cp >= d.command_cost and len(side.energy) >= d.energy_cost

    def _legal_planning(self, p: int) -> list[Action]:
        side = self.sides[p]
        defs = self.defs
        acts: list[Action] = []
        squares: list[int] | None = None
        seen: set[str] = set()
        candidates = list(side.hand)
        if side.commander is not None and side.revealed:
            candidates.append(side.commander)
        for c in candidates:
            d = defs[c]
            if d.name in seen:
                continue
            seen.add(d.name)
            if not self._payable(side, d):
                continue
            if d.type == "unit":
                if squares is None:
                    squares = self.deploy_squares()
                acts.extend([_deploy_action(p, c, s) for s in squares])
            elif d.event_type == "planning":
                acts.append(PlayEvent(p, c, None))
            elif d.event_type == "ongoing":
                for uid in sorted(self.units):
                    if self.config.ongoing_attach_any_unit or self.units[uid].owner == p:
                        acts.append(PlayEvent(p, c, uid))
        if side.cp >= 1:
            counts = self._neighbour_counts()
            for uid in sorted(self.units):
                if self.units[uid].owner == p:
                    acts.extend([_move_action(p, uid, s) for s in self.move_squares(uid, counts)])
            if side.deck or not self.config.reinforce_needs_card_in_deck:
                acts.append(Reinforce(p))
        acts.extend(self._legal_activations(p, "planning_activated"))
        acts.append(Pass(p))
        return acts

    def _legal_activations(self, p: int, trigger: str) -> list[Action]:
        acts: list[Action] = []
        side = self.sides[p]
        for uid in sorted(self.units):
            u = self.units[uid]
            if u.owner != p:
                continue
            d = self.defs[uid]
            for idx in d.by_trigger.get(trigger, ()):
                ab = d.abilities[idx]
                used = self.used.get((uid, idx), 0)
                limit = 1 if ab.get("once_per_turn", True) else self.config.activation_limit_per_turn
                if used >= limit:
                    continue
                if "x" in ab and not self.formation_holds(p, ab["x"]):  # C-7.6 "usable"
                    continue
                cost = ab.get("cost") or {}
                if side.cp < cost.get("cp", 0) or len(side.energy) < cost.get("energy", 0):
                    continue
                acts.append(Activate(p, uid, idx))
        return acts

    def _legal_defending(self, p: int) -> list[Action]:
        side = self.sides[p]
        acts: list[Action] = []
        for c in _distinct(side.hand, self.defs):
            d = self.defs[c]
            if d.event_type == "defensive" and self._payable(side, d):
                acts.append(PlayEvent(p, c, None))
        acts.extend(self._legal_activations(p, "defending_activated"))
        acts.append(Pass(p))
        return acts

    def arrows_of(self, uid: int) -> tuple[str, ...]:
        """C-1.2: the unit's arrows as absolute board directions (rotated for the second player)."""
        d = self.defs[uid]
        if self.config.rotate_second_player_arrows and self.owners[uid] != self.first:
            return tuple(ROTATE[a] for a in d.arrows)
        return d.arrows

    def attack_options(self, uid: int) -> list[tuple[str, int]]:
        """C-5.6 / C-7.1: (direction, target) pairs the unit may attack now."""
        u = self.units[uid]
        board = self.board
        units = self.units
        ranged = self.has_range(uid)
        enemy_only = self.config.only_enemy_targets
        blocked = self.config.range_attack_blocked
        out = []
        for a in self.arrows_of(uid):
            line = LINES[u.sq][a]
            if not line:
                continue
            if ranged:
                for s in line:
                    t = board[s]
                    if t is None:
                        continue
                    if not enemy_only or units[t].owner != u.owner:
                        out.append((a, t))
                    if blocked:
                        break
            else:
                t = board[line[0]]
                if t is not None and (not enemy_only or units[t].owner != u.owner):
                    out.append((a, t))
        return out

    def _legal_combat(self, p: int) -> list[Action]:
        acts: list[Action] = []
        for uid in sorted(self.units):
            u = self.units[uid]
            if u.owner != p or u.attacked:
                continue
            acts.extend(Attack(p, uid, a, t) for a, t in self.attack_options(uid))
        acts.append(Pass(p))
        return acts

    # ------------------------------------------------------------------ continuous stats (C-2.3, C-7.6)
    def _continuous(self) -> dict[int, list[int]]:
        """uid -> [power bonus, health bonus, range 0/1] from static, formation and attached abilities.

        Cached until a unit enters, moves or leaves or an event attaches (the only things it depends on).
        """
        cached = self._cont_cache
        if cached is not None:
            return cached
        out: dict[int, list[int]] = {}
        self._cont_cache = out
        if not self._has_cont_sources():
            return out
        defs = self.defs
        largest: dict[int, int] = {}
        for u in list(self.units.values()):
            d = defs[u.id]
            sources: list[tuple[int, Mapping[str, Any], int]] = []  # (source id, ability, anchor unit)
            if d.has_continuous:
                for trig in ("static", "formation"):
                    for idx in d.by_trigger.get(trig, ()):
                        ab = d.abilities[idx]
                        if trig == "formation":  # C-7.6: any X connected own units, this one or not
                            if u.owner not in largest:
                                largest[u.owner] = self.largest_group(u.owner)
                            if largest[u.owner] < ab["x"]:
                                continue
                        sources.append((u.id, ab, u.id))
            for ev in u.attached:
                ed = defs[ev]
                for idx in ed.by_trigger.get("attached", ()):
                    sources.append((ev, ed.abilities[idx], u.id))
            for src, ab, anchor in sources:
                controller = self.owners[src]
                for eff in ab["effects"]:
                    for t in self._cont_targets(eff["target"], anchor, controller):
                        bonus = out.setdefault(t, [0, 0, 0])
                        name = eff["effect"]
                        if name == "modify_power":
                            bonus[0] += eff["amount"]
                        elif name == "modify_health":
                            bonus[1] += eff["amount"]
                        elif name == "grant_range_attack":
                            bonus[2] = 1
        return out

    def largest_group(self, owner: int) -> int:
        """C-7.6: the size of ``owner``'s largest group of own units connected by adjacency (C-2.5)."""
        groups: dict[int, int] = {}
        self._group_sizes(owner, groups)
        return max(groups.values(), default=0)

    def formation_holds(self, owner: int, x: int) -> bool:
        """C-7.6 Formation X: ``owner`` has X or more own units connected to one another (any of them)."""
        return self.largest_group(owner) >= x

    def ability_condition_holds(self, uid: int, ability: Mapping[str, Any]) -> bool:
        """C-7.6: an activated ability with ``x`` is usable only while its owner's Formation X holds."""
        x = ability.get("x")
        return x is None or self.formation_holds(self.owners[uid], x)

    def _group_sizes(self, owner: int, groups: dict[int, int]) -> None:
        """C-7.6: size of each connected group (C-2.5 adjacency) of ``owner``'s units."""
        board, units, nb = self.board, self.units, self._nb
        for u in units.values():
            if u.owner != owner or u.id in groups:
                continue
            comp = [u.id]
            seen = {u.id}
            stack = [u.sq]
            while stack:
                sq = stack.pop()
                for s in nb[sq]:
                    t = board[s]
                    if t is not None and t not in seen and units[t].owner == owner:
                        seen.add(t)
                        comp.append(t)
                        stack.append(s)
            for t in comp:
                groups[t] = len(comp)

    def _cont_targets(self, target: str, anchor: int, controller: int) -> list[int]:
        units = self.units
        if target in ("self", "attached_unit"):
            return [anchor] if anchor in units else []
        if target in ("adjacent_enemy_units", "adjacent_friendly_units"):
            if anchor not in units:
                return []
            want_enemy = target == "adjacent_enemy_units"
            out = []
            for s in self._nb[units[anchor].sq]:
                t = self.board[s]
                if t is not None and t != anchor and (units[t].owner != controller) == want_enemy:
                    out.append(t)
            return out
        if target == "all_enemy_units":
            return [t for t, u in units.items() if u.owner != controller]
        if target == "all_friendly_units":
            return [t for t, u in units.items() if u.owner == controller]
        if target == "all_other_friendly_units":
            return [t for t, u in units.items() if u.owner == controller and t != anchor]
        return []

    def _has_cont_sources(self) -> bool:
        defs = self.defs
        for u in self.units.values():
            if u.attached or defs[u.id].has_continuous:
                return True
        return False

    def stats(self, uid: int, cont: dict[int, list[int]] | None = None) -> tuple[int, int, bool]:
        """(Power, Health after edge reduction C-2.3, has Range Attack) of a unit on the battlefield."""
        if cont is None:
            cont = self._continuous()
        u = self.units[uid]
        d = self.defs[uid]
        b = cont.get(uid)
        bp, bh, br = (b[0], b[1], b[2]) if b else (0, 0, 0)
        power = max(0, d.power + u.pmod + u.tpmod + bp)
        health = max(0, d.health + u.hmod + u.thmod + bh) - self._edge[u.sq]
        ranged = "range_attack" in d.keywords or u.range_perm or u.range_turn or bool(br)
        return power, health, ranged

    def has_range(self, uid: int) -> bool:
        """C-7.1: keyword, granted (grant_range_attack) or continuous."""
        u = self.units[uid]
        if "range_attack" in self.defs[uid].keywords or u.range_perm or u.range_turn:
            return True
        b = self._continuous().get(uid)
        return bool(b and b[2])

    # ------------------------------------------------------------------ the walker
    def _advance(self) -> None:
        """Run automatic rules until a player must act or the match ends (C-5 declared steps)."""
        while self.outcome_ is None:
            if self.decision is not None:
                return
            if self.resolution is not None:
                self._resume()
                continue
            if self.triggers:
                self._next_trigger()
                continue
            if self.ops:
                self._run_op(self.ops.pop())
                continue
            if self.step in INPUT_STEPS:
                return
            self._run_step()

    def _run_step(self) -> None:
        step = self.step
        ap = self.active
        if step is Step.TURN_START:
            # C-5.1 / C-7.3: start-of-turn, Casting and start-of-Planning abilities of the active player.
            for uid in self._units_of(ap):
                d = self.defs[uid]
                u = self.units[uid]
                for idx in d.by_trigger.get("start_of_turn", ()):
                    self._queue(uid, idx, ap, {})
                if u.hit_turn != self.turn - 1:
                    for idx in d.by_trigger.get("casting", ()):
                        self._queue(uid, idx, ap, {})
                for idx in d.by_trigger.get("start_of_planning", ()):
                    self._queue(uid, idx, ap, {})
            self.step = Step.START_CP
        elif step is Step.START_CP:
            gain = self.config.first_turn_cp if self.turn == 1 else self.config.cp_per_turn  # C-4.6, C-5.1
            self.sides[ap].cp += gain
            self._ev("cp", player=ap, amount=gain)
            self.step = Step.PLANNING
        elif step is Step.PLANNING_END:
            if self._no_unit_loss():  # C-5.4
                return
            self.sides[ap].cp = 0  # C-5.4 unspent CP is lost
            self.step = Step.DEFENDING_START
        elif step is Step.DEFENDING_START:
            dp = 1 - ap
            for uid in self._units_of(dp):  # C-5.5
                for idx in self.defs[uid].by_trigger.get("start_of_defending", ()):
                    self._queue(uid, idx, dp, {})
            self.step = Step.DEFENDING
        elif step is Step.COMBAT_END:
            for u in self.units.values():  # C-5.8
                u.damage = 0
            self.step = Step.END
            self._settle(None)
        elif step is Step.END:
            players = [ap] if self.config.hand_limit_active_only else [ap, 1 - ap]
            for p in reversed(players):
                self.ops.append({"op": "hand_limit", "player": p})
            self.step = Step.END_CHECK
        elif step is Step.END_CHECK:
            self._end_turn()
        else:  # pragma: no cover - input steps never reach here
            raise AssertionError(step)

    def _no_unit_loss(self) -> bool:
        """C-5.4 / C-5.10 / C-6.2: a player with no unit on the battlefield now loses; True if one did.

        Who is checked is a Decision (``RulesConfig.no_unit_loss_active_only``): the active player, or
        also the other player once they have had a turn (turn 2 on); both without units is a draw.
        """
        ap = self.active
        players = [ap] if self.config.no_unit_loss_active_only or self.turn < 2 else [ap, 1 - ap]
        owners = {u.owner for u in self.units.values()}
        losers = [p for p in players if p not in owners]
        if not losers:
            return False
        self._finish(None if len(losers) == 2 else 1 - losers[0], Reason.NO_UNITS)
        return True

    def _end_turn(self) -> None:
        ap = self.active
        if self._no_unit_loss():  # C-5.10
            return
        for u in self.units.values():
            u.tpmod = u.thmod = 0
            u.range_turn = False
            u.attacked = False
        self.marks.clear()
        self.used.clear()
        self.sides[ap].cp = 0  # C-5.11: remaining CP of both players (RulesConfig.cp_reset_active_only)
        if not self.config.cp_reset_active_only:
            self.sides[1 - ap].cp = 0
        self._settle(None)
        if self.outcome_ is not None:
            return
        if self.turn >= 2 * self.config.turn_limit:  # C-6.5 Decision
            d0, d1 = len(self.sides[0].defeated), len(self.sides[1].defeated)
            self._finish(None if d0 == d1 else (0 if d0 < d1 else 1), Reason.TURN_LIMIT)
            return
        self.turn += 1
        self.active = 1 - ap
        self.step = Step.TURN_START
        self._ev("turn", turn=self.turn, player=self.active)

    def _run_op(self, op: dict[str, Any]) -> None:
        kind = op["op"]
        if kind == "deploy":
            self._place(op["card"], op["square"])
        elif kind == "event":
            self._resolve_event(op["card"], op.get("target"))
        elif kind == "retire":
            c = op["card"]
            if c in self.limbo:
                self.limbo.remove(c)
                self.sides[self.owners[c]].retired.append(c)
        elif kind == "activate":
            self._start_trigger(
                {"source": op["card"], "ability": op["ability"], "controller": op["player"], "ctx": {}}
            )
        elif kind == "hand_limit":
            p = op["player"]
            extra = len(self.sides[p].hand) - self.config.hand_limit
            if extra > 0:  # C-5.9
                self._card_choice("discard", p, "hand", extra, reason="hand_limit")
        else:  # pragma: no cover
            raise AssertionError(kind)

    # ------------------------------------------------------------------ dispatch of actions
    def _dispatch(self, a: Action) -> None:
        t = type(a)
        if t is Concede:
            self._finish(1 - a.player, Reason.CONCESSION)
            return
        dec = self.decision
        if dec is not None:
            self._answer(a, dec)
            return
        p = a.player
        side = self.sides[p]
        if t is Deploy:
            assert isinstance(a, Deploy)
            d = self.defs[a.card]
            self._take_from_hand(side, a.card)
            side.cp -= d.command_cost
            self.limbo.append(a.card)
            self.ops.append({"op": "deploy", "card": a.card, "square": a.square})
            if d.energy_cost:
                self._card_choice("pay_energy", p, "energy", d.energy_cost, **{"for": a.card})
        elif t is PlayEvent:
            assert isinstance(a, PlayEvent)
            d = self.defs[a.card]
            self._take_from_hand(side, a.card)
            side.cp -= d.command_cost
            self.limbo.append(a.card)
            self.ops.append({"op": "event", "card": a.card, "target": a.target})
            if d.energy_cost:
                self._card_choice("pay_energy", p, "energy", d.energy_cost, **{"for": a.card})
        elif t is Move:
            assert isinstance(a, Move)
            side.cp -= 1
            self._move_unit(a.unit, a.square)
            self._settle(None)
        elif t is Reinforce:
            side.cp -= 1
            self._draw(p, self.config.reinforce_draw)
            if side.hand:
                self._card_choice("reinforce_energy", p, "hand", 1)
        elif t is Activate:
            assert isinstance(a, Activate)
            ab = self.defs[a.card].abilities[a.ability]
            cost = ab.get("cost") or {}
            side.cp -= cost.get("cp", 0)
            key = (a.card, a.ability)
            self.used[key] = self.used.get(key, 0) + 1
            self.ops.append({"op": "activate", "card": a.card, "ability": a.ability, "player": p})
            if cost.get("energy", 0):
                self._card_choice("pay_energy", p, "energy", cost["energy"], **{"for": a.card})
        elif t is Attack:
            assert isinstance(a, Attack)
            self._attack(a.unit, a.target)
        elif t is Pass:
            step = self.step
            if step is Step.PLANNING:
                self.step = Step.PLANNING_END
            elif step is Step.DEFENDING:
                self.step = Step.COMBAT
            elif step is Step.COMBAT:
                self.step = Step.COMBAT_END
        elif t is Keep:
            self._ev("keep", player=p)
            if self.setup_player == self.first:
                self.setup_player = 1 - self.first
            else:
                self._begin_play()
        elif t is Mulligan:
            # C-4.4: shuffle the hand in, draw anew, then put k cards on the bottom (the k-th mulligan).
            side.deck.extend(side.hand)
            side.hand.clear()
            self.rng.shuffle(side.deck)
            side.mulligans += 1
            self._draw(p, self.config.opening_hand)
            self._card_choice("bottom", p, "hand", side.mulligans)
        elif t is ChooseCommander:
            assert isinstance(a, ChooseCommander)
            if a.name is not None:
                for c in side.deck:
                    if self.defs[c].name == a.name:
                        side.deck.remove(c)
                        side.commander = c
                        break
            self._next_commander_chooser(p + 1)
        else:
            raise IllegalActionError(f"{a.to_json()} does not answer anything now")

    def _take_from_hand(self, side: Side, c: int) -> None:
        if side.commander == c:
            side.commander = None
        else:
            side.hand.remove(c)

    def _answer(self, a: Action, dec: dict[str, Any]) -> None:
        kind = dec["kind"]
        if kind in CARD_CHOICES:
            assert isinstance(a, ChooseCard)
            self._pick_card(a.card)
        elif kind == "target":
            assert isinstance(a, ChooseTarget)
            self.decision = None
            assert self.resolution is not None
            self.resolution["chosen"] = a.target
        elif kind == "move_square":
            assert isinstance(a, ChooseSquare)
            self.decision = None
            r = self.resolution
            assert r is not None
            uid = r["moving"].pop(0)
            if uid in self.units:
                self._move_unit(uid, a.square)
                self._settle(self._cause(r))
            if self._continue_moves(r):
                self._effect_done(r)
        elif kind == "order":
            assert isinstance(a, ChooseTrigger)
            self.decision = None
            self._start_trigger(self.triggers.pop(a.index))
        else:  # pragma: no cover
            raise AssertionError(kind)

    # ------------------------------------------------------------------ set-up (C-4)
    def _next_commander_chooser(self, start: int) -> None:
        for p in range(start, 2):
            side = self.sides[p]
            if side.commander is None and any(self._is_legendary_unit(c) for c in side.deck):
                self.setup_player = p
                return
        self._after_commanders()

    def _after_commanders(self) -> None:
        self.first = self.rng.randrange(2)  # C-4.2
        self._ev("first_player", player=self.first)
        for p in (0, 1):  # C-4.3
            self.rng.shuffle(self.sides[p].deck)
            self._draw(p, self.config.opening_hand)
        self.step = Step.MULLIGAN
        self.setup_player = self.first

    def _begin_play(self) -> None:
        for p in (0, 1):  # C-4.5
            side = self.sides[p]
            if side.commander is not None:
                side.revealed = True
                self._ev("reveal", player=p, card=side.commander)
        self.turn = 1
        self.active = self.first
        self.step = Step.TURN_START
        self._ev("turn", turn=1, player=self.first)

    # ------------------------------------------------------------------ card choices
    def _card_choice(self, kind: str, player: int, zone: str, count: int, **extra: Any) -> None:
        """Ask ``player`` to pick ``count`` cards of ``zone`` one at a time; forced picks are automatic."""
        cards = self.sides[player].zone(zone)
        count = min(count, len(cards))
        if count <= 0:
            self._choice_done(kind, extra)
            return
        self.decision = {"kind": kind, "player": player, "zone": zone, "count": count, **extra}
        self._autopick()

    def _autopick(self) -> None:
        dec = self.decision
        while dec is not None and dec["kind"] in CARD_CHOICES:
            cards = self.sides[dec["player"]].zone(dec["zone"])
            if len(cards) > dec["count"] and len(_distinct(cards, self.defs)) > 1:
                return
            self._pick_card(cards[-1], auto=True)
            dec = self.decision

    def _pick_card(self, c: int, auto: bool = False) -> None:
        dec = self.decision
        assert dec is not None
        p = dec["player"]
        side = self.sides[p]
        kind = dec["kind"]
        if kind == "bottom":
            side.hand.remove(c)
            side.deck.insert(0, c)
            self._ev("bottom", player=p, card=c, secret=True)
        elif kind == "pay_energy" or kind == "retire_energy":
            side.energy.remove(c)
            side.retired.append(c)
            self._ev(kind, player=p, card=c)
        elif kind == "reinforce_energy":
            side.hand.remove(c)
            side.energy.append(c)
            self._ev("energy", player=p, card=c)
        elif kind == "discard":
            side.hand.remove(c)
            side.retired.append(c)
            self._ev("discard", player=p, card=c)
        dec["count"] -= 1
        if dec["count"] <= 0 or not side.zone(dec["zone"]):
            self.decision = None
            self._choice_done(kind, dec)
        elif not auto:
            self._autopick()

    def _choice_done(self, kind: str, dec: Mapping[str, Any]) -> None:
        if kind in ("discard", "retire_energy") and dec.get("reason") == "effect":
            r = self.resolution
            assert r is not None
            self._effect_done(r)

    # ------------------------------------------------------------------ zones
    def _draw(self, p: int, n: int) -> None:
        side = self.sides[p]
        drawn = []
        for _ in range(n):
            if not side.deck:
                break
            c = side.deck.pop()
            side.hand.append(c)
            drawn.append(c)
        if drawn:
            self._ev("draw", player=p, cards=drawn, secret=True)

    def _units_of(self, p: int) -> list[int]:
        return sorted(uid for uid, u in self.units.items() if u.owner == p)

    def _place(self, c: int, sq: int) -> None:
        """Finish a deploy: the unit enters the battlefield (C-5.2) and Deploying triggers (C-7.2)."""
        if c in self.limbo:
            self.limbo.remove(c)
        p = self.owners[c]
        if self.board[sq] is not None:  # cannot happen through legal actions; keep the card safe
            self.sides[p].hand.append(c)
            return
        self.board[sq] = c
        self.units[c] = Unit(c, p, sq, self.turn)
        self.units_deployed += 1
        self._cont_cache = None
        self._ev("deploy", player=p, card=c, square=square_name(sq))
        for idx in self.defs[c].by_trigger.get("deploying", ()):
            self._queue(c, idx, p, {})
        self._settle(None)

    def _move_unit(self, uid: int, sq: int) -> None:
        u = self.units[uid]
        self._cont_cache = None
        self.board[u.sq] = None
        self.board[sq] = uid
        self._ev("move", card=uid, frm=square_name(u.sq), to=square_name(sq))
        u.sq = sq

    def _leave(self, uid: int) -> Unit:
        """Take a unit off the battlefield; its Ongoing events go to their owners' Retired zones (C-1.3)."""
        u = self.units.pop(uid)
        self._cont_cache = None
        self.board[u.sq] = None
        for ev in u.attached:
            self.sides[self.owners[ev]].retired.append(ev)
        self.marks.pop(uid, None)
        return u

    def _defeat(self, uid: int, cause: int | None) -> None:
        """C-5.7: to the Defeated zone face up; queue on_defeated and the causer's Spoil (C-7.5)."""
        u = self._leave(uid)
        owner = u.owner
        self.sides[owner].defeated.append(uid)
        self._ev("defeated", card=uid, player=owner, square=square_name(u.sq))
        for idx in self.defs[uid].by_trigger.get("on_defeated", ()):
            self._queue(uid, idx, owner, {"square": u.sq})
        if (
            cause is not None
            and cause != uid
            and self.owners[cause] != owner
            and self.defs[cause].is_unit
            and (self.config.spoil_from_departed_source or cause in self.units)
        ):
            for idx in self.defs[cause].by_trigger.get("spoil", ()):
                self._queue(cause, idx, self.owners[cause], {"defeated": uid})

    def _settle(self, cause: int | None) -> None:
        """C-6.3 / C-5.7: defeat every unit whose damage reaches its Health, then check C-6.1."""
        while self.units:
            cont = self._continuous()
            if cont:
                dead = [uid for uid in self.units if self.units[uid].damage >= self.stats(uid, cont)[1]]
            else:
                defs, edge = self.defs, self._edge
                dead = [
                    uid
                    for uid, u in self.units.items()
                    if u.damage >= max(0, defs[uid].health + u.hmod + u.thmod) - edge[u.sq]
                ]
            if not dead:
                break
            for uid in sorted(dead):
                if uid in self.units:
                    self._defeat(uid, cause)
        lose = [len(s.defeated) >= self.config.defeated_to_lose for s in self.sides]
        if lose[0] or lose[1]:  # C-6.1
            self._finish(None if lose[0] and lose[1] else (1 if lose[0] else 0), Reason.SIX_DEFEATED)

    def _finish(self, winner: int | None, reason: Reason) -> None:
        if self.outcome_ is None:
            self.outcome_ = Outcome(winner, reason)
            self.step = Step.OVER
            self.decision = None
            self._ev("outcome", winner=winner, reason=reason.value)

    # ------------------------------------------------------------------ combat (C-5.6, C-5.7, C-7.1, C-7.4)
    def _attack(self, uid: int, target: int) -> None:
        u = self.units[uid]
        t = self.units[target]
        u.attacked = True
        t.hit_turn = self.turn
        power, _, ranged = self.stats(uid)
        damage = power
        if ranged and target in self.marks:
            damage += self.config.marking_bonus * self.marks[target]
        t.damage += damage
        self._ev("attack", card=uid, target=target, damage=damage)
        if "marking" in self.defs[uid].keywords and t.owner != u.owner:  # C-7.4: an ENEMY unit
            self.marks[target] = self.marks.get(target, 0) + 1 if self.config.marking_stacks else 1
        self._settle(uid)
        if self.outcome_ is not None:
            return
        if self.config.strike_back and target in self.units and uid in self.units:
            back = self.stats(target)[0]
            self.units[uid].damage += back
            self._ev("strike_back", card=target, target=uid, damage=back)
            self._settle(target)
        d = self.defs[uid]
        for trig in ("marking", "on_attack"):
            for idx in d.by_trigger.get(trig, ()):
                self._queue(uid, idx, u.owner, {"attack_target": target})

    # ------------------------------------------------------------------ events (C-1.3)
    def _resolve_event(self, c: int, target: int | None) -> None:
        d = self.defs[c]
        p = self.owners[c]
        self._ev("event", player=p, card=c)
        ctx: dict[str, Any] = {}
        if d.event_type == "ongoing":
            if c in self.limbo:
                self.limbo.remove(c)
            if target is not None and target in self.units:
                self.units[target].attached.append(c)
                self._cont_cache = None
                ctx["attached"] = target
                self._settle(None)
            else:
                self.sides[p].retired.append(c)
        else:
            self.ops.append({"op": "retire", "card": c})
        for idx in d.by_trigger.get("on_play", ()):
            self._queue(c, idx, p, dict(ctx))

    # ------------------------------------------------------------------ abilities (C-1.5)
    def _queue(self, source: int, idx: int, controller: int, ctx: dict[str, Any]) -> None:
        self.triggers.append({"source": source, "ability": idx, "controller": controller, "ctx": ctx})

    def _next_trigger(self) -> None:
        """C-5.1 / C-5.5: one player's pending triggers first (``active_player_triggers_first``), each
        player choosing the order of their own (a ``choose_trigger`` decision when there are two or more)."""
        first = self.active if self.config.active_player_triggers_first else 1 - self.active
        group = [i for i, t in enumerate(self.triggers) if t["controller"] == first]
        if not group:
            group = list(range(len(self.triggers)))
        if len(group) == 1:
            self._start_trigger(self.triggers.pop(group[0]))
            return
        p = self.triggers[group[0]]["controller"]
        labels = [self._trigger_label(self.triggers[i]) for i in group]
        self.decision = {"kind": "order", "player": p, "options": group, "labels": labels}

    def _trigger_label(self, t: Mapping[str, Any]) -> str:
        d = self.defs[t["source"]]
        ab = d.abilities[t["ability"]]
        return f"{d.name}: {ab.get('text') or ab['trigger']}"

    def _start_trigger(self, t: dict[str, Any]) -> None:
        self._ev("trigger", card=t["source"], ability=t["ability"])
        self.resolution = {**t, "effect": 0}

    def _cause(self, r: Mapping[str, Any]) -> int | None:
        src = r["source"]
        return src if self.defs[src].is_unit else None

    def _resume(self) -> None:
        """Resolve the current ability's effects in order, pausing for chosen targets (an action)."""
        r = self.resolution
        assert r is not None
        effects = self.defs[r["source"]].abilities[r["ability"]]["effects"]
        while r["effect"] < len(effects):
            if self.outcome_ is not None:
                return
            eff = effects[r["effect"]]
            tname = eff["target"]
            if tname in CHOSEN_TARGETS:
                if "chosen" in r:
                    targets = [r.pop("chosen")]
                    if targets[0] not in self.units:
                        targets = []
                else:
                    opts = self._chosen_options(tname, r)
                    if not opts:
                        r["effect"] += 1
                        continue
                    if len(opts) > 1:
                        self.decision = {
                            "kind": "target",
                            "player": r["controller"],
                            "options": opts,
                            "effect": eff["effect"],
                            "source": r["source"],
                        }
                        return
                    targets = opts
            else:
                targets = self._fixed_targets(tname, r)
            if not self._do_effect(eff, targets, r):
                return  # waits for a decision; the answer finishes the effect
            r["effect"] += 1
            self._settle(self._cause(r))
        if self.resolution is r:
            self.resolution = None

    def _effect_done(self, r: dict[str, Any]) -> None:
        r["effect"] += 1
        self._settle(self._cause(r))

    def _chosen_options(self, tname: str, r: Mapping[str, Any]) -> list[int]:
        c = r["controller"]
        src = r["source"]
        units = self.units
        if tname == "chosen_enemy_unit":
            return sorted(t for t, u in units.items() if u.owner != c)
        if tname == "chosen_friendly_unit":
            return sorted(t for t, u in units.items() if u.owner == c)
        if tname == "chosen_other_friendly_unit":
            return sorted(t for t, u in units.items() if u.owner == c and t != src)
        return sorted(units)  # chosen_unit

    def _anchor(self, r: Mapping[str, Any]) -> int | None:
        """The square an ability is measured from: the unit itself, else its last square (on_defeated)."""
        src = r["source"]
        if src in self.units:
            return self.units[src].sq
        att = r["ctx"].get("attached")
        if att is not None and att in self.units:
            return self.units[att].sq
        sq = r["ctx"].get("square")
        return sq if isinstance(sq, int) else None

    def _fixed_targets(self, tname: str, r: Mapping[str, Any]) -> list[int]:
        """Targets that need no choice: unit ids, or player indexes (0/1) for ``controller`` / ``opponent``."""
        c = r["controller"]
        src = r["source"]
        ctx = r["ctx"]
        units = self.units
        if tname == "self":
            if src in units:
                return [src]
            att = ctx.get("attached")
            return [att] if att in units else []
        if tname == "attached_unit":
            att = ctx.get("attached")
            if att is None:
                for uid, u in units.items():
                    if src in u.attached:
                        att = uid
            return [att] if att in units else []
        if tname == "attack_target":
            t = ctx.get("attack_target")
            return [t] if t in units else []
        if tname == "defeated_unit":
            t = ctx.get("defeated")
            return [t] if t is not None else []
        if tname in ("adjacent_enemy_units", "adjacent_friendly_units"):
            sq = self._anchor(r)
            if sq is None:
                return []
            want_enemy = tname == "adjacent_enemy_units"
            out = []
            for s in self._nb[sq]:
                t = self.board[s]
                if t is not None and t != src and (units[t].owner != c) == want_enemy:
                    out.append(t)
            return sorted(out)
        if tname == "all_enemy_units":
            return sorted(t for t, u in units.items() if u.owner != c)
        if tname == "all_friendly_units":
            return sorted(t for t, u in units.items() if u.owner == c)
        if tname == "all_other_friendly_units":
            return sorted(t for t, u in units.items() if u.owner == c and t != src)
        if tname == "controller":
            return [c]
        if tname == "opponent":
            return [1 - c]
        raise AssertionError(f"unknown target {tname}")

    def _do_effect(self, eff: Mapping[str, Any], targets: Sequence[int], r: dict[str, Any]) -> bool:
        """Apply one effect (C-1.5). Returns False when it waits for a player's choice."""
        name = eff["effect"]
        src = r["source"]
        fn = EFFECT_IMPLS[name]
        return bool(fn(self, eff, list(targets), r, src))

    def _continue_moves(self, r: dict[str, Any]) -> bool:
        """Move effect: ask for each target's destination in turn; True when all are done."""
        moving = r["moving"]
        while moving:
            uid = moving[0]
            if uid not in self.units:
                moving.pop(0)
                continue
            opts = self.move_squares(uid)
            if not opts:
                moving.pop(0)
                continue
            if len(opts) == 1:
                moving.pop(0)
                self._move_unit(uid, opts[0])
                self._settle(self._cause(r))
                continue
            self.decision = {"kind": "move_square", "player": r["controller"], "options": opts, "unit": uid}
            return False
        del r["moving"]
        return True

    # ------------------------------------------------------------------ log
    def _ev(self, kind: str, **data: Any) -> None:
        data["type"] = kind
        self._events.append(data)

    # ------------------------------------------------------------------ views and serialisation
    def _ref(self, c: int) -> dict[str, Any]:
        return {"id": c, "card": self.defs[c].name}

    def _unit_json(self, u: Unit, cont: dict[int, list[int]], public: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "square": square_name(u.sq),
            "id": u.id,
            "card": self.defs[u.id].name,
            "owner": u.owner,
            "damage": u.damage,
        }
        if public:
            power, health, ranged = self.stats(u.id, cont)
            out.update(
                power=power,
                health=health,
                range_attack=ranged,
                arrows=list(self.arrows_of(u.id)),
                attacked=u.attacked,
                attached=[{**self._ref(e), "owner": self.owners[e]} for e in u.attached],
                power_mod=u.pmod,
                health_mod=u.hmod,
                turn_power_mod=u.tpmod,
                turn_health_mod=u.thmod,
                marks=self.marks.get(u.id, 0),
            )
        else:
            out.update(
                power_mod=u.pmod,
                health_mod=u.hmod,
                turn_power_mod=u.tpmod,
                turn_health_mod=u.thmod,
                range_perm=u.range_perm,
                range_turn=u.range_turn,
                attacked=u.attacked,
                hit_turn=u.hit_turn,
                entered=u.entered,
                attached=[{**self._ref(e), "owner": self.owners[e]} for e in u.attached],
            )
        return out

    def player_view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (C-8); ``None`` is a spectator (no hands at all). JSON-ready."""
        cont = self._continuous()
        players = []
        for i, side in enumerate(self.sides):
            pub: dict[str, Any] = {
                "cp": side.cp,
                "hand_count": len(side.hand),
                "deck_count": len(side.deck),
                "energy": [self._ref(c) for c in side.energy],
                "retired": [self._ref(c) for c in side.retired],
                "defeated": [self._ref(c) for c in side.defeated],
                "removed": [self._ref(c) for c in side.removed],
                "mulligans": side.mulligans,
            }
            if player == i:
                pub["hand"] = [self._ref(c) for c in side.hand]
            if side.commander is None:
                pub["commander"] = None
            elif side.revealed or player == i:
                pub["commander"] = {**self._ref(side.commander), "revealed": side.revealed}
            else:
                pub["commander"] = {"face_down": True}
            players.append(pub)
        dec = self.decision
        dview = decision_view(dec, player) if dec is not None else None
        return {
            "format": "commandeer-view",
            "viewer": player,
            "turn": self.turn,
            "active": self.active,
            "first_player": self.first if self.step not in (Step.COMMANDER,) else None,
            "step": self.step.value,
            "phase": PHASE_OF[self.step],
            "current_players": self.current_players(),
            "outcome": self.outcome_.to_json() if self.outcome_ else None,
            "turn_limit": self.config.turn_limit,
            "board": [self._unit_json(self.units[uid], cont, True) for uid in self._board_order()],
            "players": players,
            "limbo": [self._ref(c) for c in self.limbo],
            "decision": dview,
            "triggers": [
                {"source": self._ref(t["source"]), "ability": t["ability"], "controller": t["controller"]}
                for t in self.triggers
            ],
            "log_length": self.log_length,
        }

    def _board_order(self) -> list[int]:
        return [c for c in self.board if c is not None]

    @property
    def log_length(self) -> int:
        """Entries in the whole event log, including those a state loaded without its log no longer holds."""
        return self.log_start + len(self.log)

    def log_view(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The event log from ``start`` as ``player`` may see it: drawn and bottomed cards only to their owner.

        A state loaded from a snapshot saved with ``to_dict(log=False)`` only holds the entries made since.
        """
        out = []
        for e in self.log[max(0, start - self.log_start) :]:
            if e["action"] is None:
                out.append(
                    {
                        "n": e["n"],
                        "player": None,
                        "action": None,
                        "text": "Match set-up",
                        "events": self._events_view(e["events"], player),
                    }
                )
                continue
            own = e["player"] == player
            if not own and action_is_secret(e["action"], e["decision"]):
                action: dict[str, Any] = {"type": e["action"].kind, "player": e["player"]}
                text = (
                    f"Player {e['player'] + 1} puts a card on the bottom of the deck"
                    if e["decision"] == "bottom"
                    else f"Player {e['player'] + 1} decides about a Commander"
                )
            else:
                action = e["action"].to_json()
                ctx: dict[str, Any] = {"kind": e["decision"]} if e["decision"] else {}
                if "for" in e:
                    ctx["for"] = e["for"]
                text = describe_action(e["action"], self.card_name, ctx or None, e.get("phase"))
                if "label" in e:
                    text = f"Resolve {e['label']} next"
            events = self._events_view(e["events"], player)
            out.append({"n": e["n"], "player": e["player"], "action": action, "text": text, "events": events})
        return out

    def _events_view(self, evs: list[dict[str, Any]], player: int | None) -> list[dict[str, Any]]:
        """Events as ``player`` may see them (secret cards only to their owner)."""
        events = []
        for ev in evs:
            ev_out = {k: v for k, v in ev.items() if k != "secret"}
            if ev.get("secret") and ev.get("player") != player:
                if "cards" in ev_out:
                    ev_out["count"] = len(ev_out.pop("cards"))
                ev_out.pop("card", None)
            else:
                if "cards" in ev_out:
                    ev_out["cards"] = [self._ref(c) for c in ev_out["cards"]]
                for key in ("card", "target"):
                    if isinstance(ev_out.get(key), int):
                        ev_out[key] = self._ref(ev_out[key])
            events.append(ev_out)
        return events

    def to_dict(self, *, log: bool = True) -> dict[str, Any]:
        """The full state in the position format (docs/commandeer-position.md), RNG state included.

        ``log=False`` leaves the event log out and keeps only its length (``log_length``): a compact
        snapshot whose size does not grow with the match, for stores that keep the actions elsewhere
        (the online layer's action log). Rules state is identical either way.

        The card catalog (``cards``) never changes during a match: it is built once and the same
        mapping is returned by every later call, on this state and its clones. Treat the result as
        read-only (the JSON encoders do).
        """
        ver, internal, gauss = self.rng.getstate()
        sides = []
        for side in self.sides:
            sides.append(
                {
                    "cp": side.cp,
                    "mulligans": side.mulligans,
                    "hand": [self._ref(c) for c in side.hand],
                    "deck": [self._ref(c) for c in reversed(side.deck)],  # top first
                    "energy": [self._ref(c) for c in side.energy],
                    "retired": [self._ref(c) for c in side.retired],
                    "defeated": [self._ref(c) for c in side.defeated],
                    "removed": [self._ref(c) for c in side.removed],
                    "commander": self._ref(side.commander) if side.commander is not None else None,
                    "commander_revealed": side.revealed,
                }
            )
        return {
            "format": "commandeer-position",
            "version": 1,
            "config": self.config.to_dict(),
            "cards": self._catalog_json(),
            "turn": self.turn,
            "active": self.active,
            "first_player": self.first,
            "step": self.step.value,
            "setup_player": self.setup_player,
            "players": sides,
            "board": [self._unit_json(self.units[c], {}, False) for c in self._board_order()],
            "limbo": [{**self._ref(c), "owner": self.owners[c]} for c in self.limbo],
            "decision": _deep(self.decision),
            "resolution": _deep(self.resolution),
            "triggers": [_deep(t) for t in self.triggers],
            "ops": [_deep(o) for o in self.ops],
            "used": [[k[0], k[1], v] for k, v in sorted(self.used.items())],
            "marks": [[k, v] for k, v in sorted(self.marks.items())],
            "units_deployed": self.units_deployed,
            "outcome": self.outcome_.to_json() if self.outcome_ else None,
            **self._log_dict(log),
            "rng": [ver, list(internal), gauss],
        }

    def _catalog_json(self) -> dict[str, Any]:
        cards = self._cards_json
        if cards is None:
            by_name = {d.name: d for d in self.defs.values()}
            cards = {n: dict(by_name[n].raw) for n in sorted(by_name)}
            if self._cards_source is not None and self._cards_source == cards:
                cards = self._cards_source  # type: ignore[assignment]
            self._cards_json = cards
        return cards

    def _log_dict(self, log: bool) -> dict[str, Any]:
        """The snapshot's log part: the entries (and where they start), or only the log's length."""
        if not log:
            return {"log_length": self.log_length}
        out: dict[str, Any] = {
            "log": [
                {
                    **{k: v for k, v in e.items() if k != "action"},
                    "action": e["action"] and e["action"].to_json(),
                }
                for e in self.log
            ]
        }
        if self.log_start:
            out["log_start"] = self.log_start
        return out

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        catalog: Mapping[str, Mapping[str, Any] | CardDef] | None = None,
        seed: int = 0,
    ) -> GameState:
        """Load a position (full or hand-written shorthand, see docs/commandeer-position.md).

        Raises ValueError naming the problem for a malformed position.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        try:
            return _load_position(cls, data, catalog, seed)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"malformed position: {type(exc).__name__}: {exc}") from exc


def _deep(x: Any) -> Any:
    """Copy of JSON-like data (dicts/lists of scalars)."""
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep(v) for v in x]
    return x


# ---------------------------------------------------------------------- effect implementations (C-1.5)
EffectFn = Callable[[GameState, Mapping[str, Any], list[int], dict[str, Any], int], bool]


def _eff_deal_damage(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    for t in targets:
        if t in g.units:
            g.units[t].damage += eff["amount"]
            g._ev("damage", card=t, amount=eff["amount"], source=src)
    return True


def _eff_heal(g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int) -> bool:
    for t in targets:
        if t in g.units:
            u = g.units[t]
            healed = min(u.damage, eff["amount"])
            u.damage -= healed
            g._ev("heal", card=t, amount=healed, source=src)
    return True


def _eff_modify(stat: str) -> EffectFn:
    def fn(g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int) -> bool:
        permanent = eff.get("duration", "turn") == "permanent"
        for t in targets:
            if t in g.units:
                u = g.units[t]
                if stat == "power":
                    if permanent:
                        u.pmod += eff["amount"]
                    else:
                        u.tpmod += eff["amount"]
                else:
                    if permanent:
                        u.hmod += eff["amount"]
                    else:
                        u.thmod += eff["amount"]
                g._ev(
                    "modify",
                    card=t,
                    stat=stat,
                    amount=eff["amount"],
                    duration="permanent" if permanent else "turn",
                )
        return True

    return fn


def _eff_defeat(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    for t in targets:
        if t in g.units:
            g._defeat(t, g._cause(r))
    return True


def _off_board_move(g: GameState, t: int, to: str) -> bool:
    """A defeated unit (spoil's defeated_unit) may be returned or removed from the Defeated zone."""
    side = g.sides[g.owners[t]]
    if t in side.defeated:
        side.defeated.remove(t)
        side.zone(to).append(t)
        return True
    return False


def _send_targets(g: GameState, targets: list[int], zone: str, event: str) -> bool:
    """Move each target (on the battlefield, or a just-defeated card) to its owner's ``zone``."""
    for t in targets:
        if t in g.units:
            g._leave(t)
            g.sides[g.owners[t]].zone(zone).append(t)
            g._ev(event, card=t)
        elif _off_board_move(g, t, zone):
            g._ev(event, card=t)
    return True


def _eff_return_to_hand(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    return _send_targets(g, targets, "hand", "return_to_hand")


def _eff_remove(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    return _send_targets(g, targets, "removed", "removed")


def _eff_move(g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int) -> bool:
    r["moving"] = [t for t in targets if t in g.units]
    return g._continue_moves(r)


def _eff_draw(g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int) -> bool:
    for p in targets:
        g._draw(p, eff["count"])
    return True


def _eff_gain_cp(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    for p in targets:
        g.sides[p].cp += eff["amount"]
        g._ev("cp", player=p, amount=eff["amount"])
    return True


def _eff_lose_cp(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    for p in targets:
        lost = min(g.sides[p].cp, eff["amount"])
        g.sides[p].cp -= lost
        g._ev("cp", player=p, amount=-lost)
    return True


def _eff_gain_energy(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    for p in targets:
        side = g.sides[p]
        for _ in range(eff["count"]):
            if not side.deck:
                break
            c = side.deck.pop()
            side.energy.append(c)
            g._ev("energy", player=p, card=c)
    return True


def _eff_choice(kind: str, zone: str) -> EffectFn:
    def fn(g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int) -> bool:
        p = targets[0]
        g._card_choice(kind, p, zone, eff["count"], reason="effect")
        # _card_choice finishes the effect itself (via _choice_done) once the cards are chosen
        return False

    return fn


def _eff_grant_range(
    g: GameState, eff: Mapping[str, Any], targets: list[int], r: dict[str, Any], src: int
) -> bool:
    permanent = eff.get("duration", "turn") == "permanent"
    for t in targets:
        if t in g.units:
            if permanent:
                g.units[t].range_perm = True
            else:
                g.units[t].range_turn = True
            g._ev("grant_range_attack", card=t)
    return True


EFFECT_IMPLS: dict[str, EffectFn] = {
    "deal_damage": _eff_deal_damage,
    "heal": _eff_heal,
    "modify_power": _eff_modify("power"),
    "modify_health": _eff_modify("health"),
    "defeat": _eff_defeat,
    "return_to_hand": _eff_return_to_hand,
    "move": _eff_move,
    "remove_from_game": _eff_remove,
    "draw": _eff_draw,
    "gain_cp": _eff_gain_cp,
    "lose_cp": _eff_lose_cp,
    "gain_energy": _eff_gain_energy,
    "discard": _eff_choice("discard", "hand"),
    "retire_energy": _eff_choice("retire_energy", "energy"),
    "grant_range_attack": _eff_grant_range,
}

# Which code handles each trigger (the interpreter's coverage of vocabulary.TRIGGERS).
TRIGGER_IMPLS: dict[str, str] = {
    "deploying": "GameState._place (C-7.2)",
    "casting": "GameState._run_step TURN_START (C-7.3)",
    "spoil": "GameState._defeat (C-7.5)",
    "marking": "GameState._attack (C-7.4)",
    "formation": "GameState._continuous (C-7.6)",
    "start_of_turn": "GameState._run_step TURN_START (C-5.1)",
    "start_of_planning": "GameState._run_step TURN_START (C-5.1)",
    "start_of_defending": "GameState._run_step DEFENDING_START (C-5.5)",
    "on_attack": "GameState._attack (C-5.6)",
    "on_defeated": "GameState._defeat (C-5.7)",
    "planning_activated": "GameState._legal_activations (C-5.2)",
    "defending_activated": "GameState._legal_activations (C-5.5)",
    "static": "GameState._continuous",
    "on_play": "GameState._resolve_event (C-1.3)",
    "attached": "GameState._continuous (C-1.3)",
}


# ---------------------------------------------------------------------- creation, loading, replay
Deck = Mapping[str, Any]


_SNAPSHOT_CATALOGS: dict[str, dict[str, CardDef]] = {}
_SNAPSHOT_CATALOGS_SIZE = 64


def _snapshot_catalog(cards: Mapping[str, Any]) -> dict[str, CardDef]:
    """A position's ``cards`` parsed once per distinct content (every snapshot of a match repeats them).

    Keyed by the canonical JSON of the definitions, so equal content means equal (immutable) CardDefs.
    """
    key = json.dumps(cards, sort_keys=True, separators=(",", ":"))
    hit = _SNAPSHOT_CATALOGS.get(key)
    if hit is None:
        hit = _catalog_from(cards.values())
        if len(_SNAPSHOT_CATALOGS) >= _SNAPSHOT_CATALOGS_SIZE:
            try:  # oldest first; another thread may be trimming too
                _SNAPSHOT_CATALOGS.pop(next(iter(_SNAPSHOT_CATALOGS)), None)
            except (StopIteration, RuntimeError):
                pass
        _SNAPSHOT_CATALOGS[key] = hit
    return dict(hit)


def _catalog_from(cards: Iterable[Mapping[str, Any] | CardDef]) -> dict[str, CardDef]:
    out: dict[str, CardDef] = {}
    for raw in cards:
        d = raw if isinstance(raw, CardDef) else card_from_dict_cached(raw)
        prev = out.get(d.name)
        if prev is not None and prev != d:
            raise ValueError(f"two different cards share the name {d.name!r}")
        out[d.name] = d
    return out


def new_match(
    deck_a: Deck, deck_b: Deck, *, seed: int, config: RulesConfig | None = None, check_decks: bool = True
) -> GameState:
    """Start a match (C-4). A deck is {"cards": [card dicts, one per copy], "commander": name | None}."""
    config = config or RulesConfig()
    rng = Random(seed)
    decks = [deck_a, deck_b]
    catalogs = []
    for i, deck in enumerate(decks):
        if not isinstance(deck, Mapping) or not isinstance(deck.get("cards"), list):
            raise ValueError(f"deck {i}: must be an object with a 'cards' list")
        try:
            cat = _catalog_from(deck["cards"])
        except ValueError as exc:
            raise ValueError(f"deck {i}: {exc}") from exc
        catalogs.append(cat)
    catalog = _catalog_from([*catalogs[0].values(), *catalogs[1].values()])
    per_player = [
        [catalog[c["name"] if not isinstance(c, CardDef) else c.name] for c in d["cards"]] for d in decks
    ]
    if check_decks:
        for i, cards in enumerate(per_player):
            problems = deck_problems(cards)
            if problems:
                raise ValueError(f"deck {i} is not legal: " + "; ".join(problems))
    total = sum(len(c) for c in per_player)
    ids = list(range(total))
    rng.shuffle(ids)  # ids reveal nothing about deck-list positions
    defs: dict[int, CardDef] = {}
    owners: dict[int, int] = {}
    g = GameState(config, defs, owners, rng)
    k = 0
    for p, cards in enumerate(per_player):
        for d in cards:
            cid = ids[k]
            k += 1
            defs[cid] = d
            owners[cid] = p
            g.sides[p].deck.append(cid)
        g.sides[p].deck.sort()
    for p, deck in enumerate(decks):
        name = deck.get("commander")
        if name is None:
            continue
        side = g.sides[p]
        match = [c for c in side.deck if defs[c].name == name]
        if not match or not g._is_legendary_unit(match[0]):
            raise ValueError(f"deck {p}: commander {name!r} must be a Legendary unit of the deck (C-4.1)")
        side.deck.remove(match[0])
        side.commander = match[0]
    g.step = Step.COMMANDER
    g._next_commander_chooser(0)
    g._advance()
    if g._events:  # set-up consequences (first player, opening hands) when no choice was needed
        g.log.append({"n": 0, "player": None, "action": None, "decision": None, "events": g._events})
        g._events = []
    return g


def replay(
    decks: Sequence[Deck],
    seed: int,
    actions: Iterable[Action | Mapping[str, Any]],
    config: RulesConfig | None = None,
) -> GameState:
    """Re-run a match from its decks, seed and actions (checked); reproduces the final state exactly."""
    g = new_match(decks[0], decks[1], seed=seed, config=config)
    for a in actions:
        g.apply(a if isinstance(a, Action) else action_from_json(a))
    return g


def _load_position(
    cls: type[GameState],
    data: Mapping[str, Any],
    catalog: Mapping[str, Mapping[str, Any] | CardDef] | None,
    seed: int,
) -> GameState:
    if data.get("format") != "commandeer-position":
        raise ValueError("not a commandeer-position (format field)")
    cat: dict[str, CardDef] = {}
    if catalog:
        cat.update(_catalog_from(catalog.values()))
    if data.get("cards"):
        cat.update(_snapshot_catalog(data["cards"]))
    config = RulesConfig.from_dict(data.get("config"))
    rng = Random(seed)
    if data.get("rng") is not None:
        ver, internal, gauss = data["rng"]
        rng.setstate((ver, tuple(internal), gauss))
    defs: dict[int, CardDef] = {}
    owners: dict[int, int] = {}
    g = cls(config, defs, owners, rng)
    if isinstance(data.get("cards"), dict):
        g._cards_source = data["cards"]
    pending: list[tuple[dict[str, Any], str, int]] = []  # shorthand refs without id

    def ref(x: Any, owner: int) -> int:
        if isinstance(x, str):
            x = {"card": x}
        if not isinstance(x, Mapping) or "card" not in x:
            raise ValueError(f"bad card reference {x!r}")
        name = x["card"]
        if name not in cat:
            raise ValueError(f"unknown card {name!r} (give it in 'cards' or the catalog)")
        cid = x.get("id")
        if cid is None:
            holder: dict[str, Any] = {}
            pending.append((holder, name, owner))
            return -1 - (len(pending) - 1)  # placeholder, fixed below
        if cid in defs:
            raise ValueError(f"card id {cid} used twice")
        defs[cid] = cat[name]
        owners[cid] = owner
        return int(cid)

    players = data.get("players") or [{}, {}]
    for p in (0, 1):
        pd = players[p]
        side = g.sides[p]
        for zone in ZONES:
            items = [ref(x, p) for x in pd.get(zone, [])]
            if zone == "deck":
                items.reverse()  # stored top first
            setattr(side, zone, items)
        if pd.get("commander") is not None:
            side.commander = ref(pd["commander"], p)
        side.revealed = bool(pd.get("commander_revealed", False))
        side.cp = int(pd.get("cp", 0))
        side.mulligans = int(pd.get("mulligans", 0))
    for ud in data.get("board", []):
        owner = int(ud["owner"])
        uid = ref(ud, owner)
        sq = square_index(ud["square"])
        u = Unit(uid, owner, sq, int(ud.get("entered", 0)))
        u.damage = int(ud.get("damage", 0))
        u.pmod = int(ud.get("power_mod", 0))
        u.hmod = int(ud.get("health_mod", 0))
        u.tpmod = int(ud.get("turn_power_mod", 0))
        u.thmod = int(ud.get("turn_health_mod", 0))
        u.range_perm = bool(ud.get("range_perm", False))
        u.range_turn = bool(ud.get("range_turn", False))
        u.attacked = bool(ud.get("attacked", False))
        u.hit_turn = int(ud.get("hit_turn", -1))
        u.attached = [
            ref(e, int(e.get("owner", owner)) if isinstance(e, Mapping) else owner)
            for e in ud.get("attached", [])
        ]
        if g.board[sq] is not None:
            raise ValueError(f"two units on {ud['square']}")
        g.board[sq] = uid
        g.units[uid] = u
    g.limbo = [ref(x, int(x["owner"])) for x in data.get("limbo", [])]
    # give shorthand cards fresh ids after the explicit ones
    if pending:
        nxt = max(defs, default=-1) + 1
        remap: dict[int, int] = {}
        for i, (_, name, owner) in enumerate(pending):
            defs[nxt] = cat[name]
            owners[nxt] = owner
            remap[-1 - i] = nxt
            nxt += 1

        def fix(lst: list[int]) -> list[int]:
            return [remap.get(c, c) for c in lst]

        for side in g.sides:
            for zone in ZONES:
                setattr(side, zone, fix(side.zone(zone)))
            if side.commander is not None:
                side.commander = remap.get(side.commander, side.commander)
        new_units: dict[int, Unit] = {}
        for uid, u in g.units.items():
            u.id = remap.get(uid, uid)
            u.attached = fix(u.attached)
            new_units[u.id] = u
            g.board[u.sq] = u.id
        g.units = new_units
        g.limbo = fix(g.limbo)
    g.turn = int(data.get("turn", 1))
    g.active = int(data.get("active", 0))
    g.first = int(data.get("first_player", 0))
    g.step = Step(data.get("step", "planning"))
    g.setup_player = int(data.get("setup_player", 0))
    for key, value in (("active", g.active), ("first_player", g.first), ("setup_player", g.setup_player)):
        if value not in (0, 1):
            raise ValueError(f"{key} must be 0 or 1, not {value}")
    if g.step is Step.OVER and data.get("outcome") is None:
        raise ValueError("step 'over' needs an outcome")
    g.decision = _deep(data.get("decision"))
    g.resolution = _deep(data.get("resolution"))
    g.triggers = [_deep(t) for t in data.get("triggers", [])]
    g.ops = [_deep(o) for o in data.get("ops", [])]
    g.used = {(int(a), int(b)): int(c) for a, b, c in data.get("used", [])}
    g.marks = {int(a): int(b) for a, b in data.get("marks", [])}
    g.units_deployed = int(data.get("units_deployed", len(g.units)))
    out = data.get("outcome")
    if out is not None:
        g.outcome_ = Outcome(out["winner"], Reason(out["reason"]))
    g.log = []
    g.log_start = int(data.get("log_start", 0) if "log" in data else data.get("log_length", 0))
    if g.log_start < 0:
        raise ValueError("log_start/log_length must not be negative")
    for e in data.get("log", []):
        entry = dict(e)
        entry["action"] = None if e["action"] is None else action_from_json(e["action"])
        entry["events"] = _deep(e["events"])
        g.log.append(entry)
    if g.outcome_ is None:
        g._advance()  # a hand-written position may stop at an automatic step (e.g. turn_start)
    return g
