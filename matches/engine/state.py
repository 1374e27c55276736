"""The Commandeer match state: ``GameState`` and its public interface (STYLE.md 2–5).

Pure Python and deterministic: all randomness comes from the seeded ``Random`` held in the state. The rules
live in one module per rule area, whose functions are bound here as ``GameState`` methods:

- ``board.py`` — C-2 battlefield, squares, adjacency, zones; ``setup.py`` — C-4 set-up, ``new_match``;
- ``phases.py`` — the declared C-5 turn structure (``Step``) that ``_advance`` walks;
- ``legality.py`` — legal actions and why an action is illegal; ``dispatch.py`` — applying actions;
- ``choices.py`` — card choices; ``combat.py`` — C-5.6/C-5.7/C-7 combat; ``continuous.py`` — stats,
  C-7.6 Formation; ``abilities.py`` / ``effects.py`` — C-1.5 abilities; ``results.py`` — C-6;
- ``views.py`` — C-8 views; ``information.py`` — secrets and determinization; ``position.py`` — storage.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from . import (
    abilities,
    board,
    choices,
    combat,
    continuous,
    dispatch,
    legality,
    phases,
    position,
    results,
    setup,
    views,
)
from .abilities import TRIGGER_IMPLS
from .actions import Action, ChooseCommander, ChooseTrigger, Concede, IllegalActionError, Keep, Pass
from .board import LINES, NEIGHBOURS_KING, NEIGHBOURS_ORTHO, NSQ, ROTATE, START_SQUARES, ZONES, Side, Unit
from .cards import CardDef
from .config import RulesConfig
from .effects import EFFECT_IMPLS
from .information import action_is_secret, determinize
from .pending import Decision, DecisionKind, Op, Resolution, Trigger
from .phases import INPUT_STEPS, PHASE_OF, Step
from .position import _load_position
from .results import Outcome, Reason
from .setup import new_match, replay

__all__ = [
    "EFFECT_IMPLS",
    "INPUT_STEPS",
    "LINES",
    "NEIGHBOURS_KING",
    "NEIGHBOURS_ORTHO",
    "NSQ",
    "PHASE_OF",
    "ROTATE",
    "START_SQUARES",
    "TRIGGER_IMPLS",
    "ZONES",
    "GameState",
    "Outcome",
    "Reason",
    "Side",
    "Step",
    "Unit",
    "new_match",
    "replay",
]


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
        self.choice: Decision | None = None  # the decision a player must answer now (``decision``: JSON)
        self.resolution: Resolution | None = None
        self.triggers: list[Trigger] = []
        self.ops: list[Op] = []
        self.limbo: list[int] = []
        self.used: dict[tuple[int, int], int] = {}
        self.marks: dict[int, int] = {}
        self.units_deployed = 0  # units that have entered the battlefield this match (C-2.2 "first unit")
        self.outcome_: Outcome | None = None
        self.log: list[dict[str, Any]] = []
        self.log_start = 0  # entries before log[0] that this state no longer holds (loaded without its log)
        self._events: list[dict[str, Any]] = []
        # Simulation mode (search): False keeps no event log and records no events; the rules and the
        # outcome are the same (``log_length`` still counts the actions). Not part of the position.
        self.event_log = True
        # Cards of the other player that each player has seen go back into a hidden zone (``cards_seen_by``),
        # kept by a determinized state that no longer has the log they were read from; None: read the log.
        self.seen_override: list[frozenset[int] | None] = [None, None]
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

    def current_players(self) -> list[int]:
        """Who must act now (empty when the match is over)."""
        if self.outcome_ is not None:
            return []
        if self.choice is not None:
            return [self.choice.player]
        step = self.step
        if step is Step.COMMANDER or step is Step.MULLIGAN:
            return [self.setup_player]
        if step is Step.DEFENDING:
            return [1 - self.active]
        return [self.active]

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision in the position format's JSON form (read-only; the engine holds ``choice``)."""
        return None if self.choice is None else self.choice.to_json()

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
        if not self.event_log:  # simulation mode: the same rules, no log
            self._dispatch(action)
            self._advance()
            self.log_start += 1
            return
        self._events = []
        dec = self.choice
        entry: dict[str, Any] = {
            "n": self.log_start + len(self.log),
            "player": action.player,
            "action": action,
            "decision": None,
        }
        if dec is not None:
            entry["decision"] = dec.kind.value
            if dec.for_card is not None:
                entry["for"] = dec.for_card
            if dec.kind is DecisionKind.ORDER and isinstance(action, ChooseTrigger):
                assert dec.labels is not None and dec.options is not None
                entry["label"] = dec.labels[dec.options.index(action.index)]
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
        g.choice = None if self.choice is None else self.choice.copy()
        g.resolution = None if self.resolution is None else self.resolution.copy()
        g.triggers = list(self.triggers)  # Trigger and Op are frozen values
        g.ops = list(self.ops)
        g.limbo = list(self.limbo)
        g.used = dict(self.used)
        g.marks = dict(self.marks)
        g.units_deployed = self.units_deployed
        g.outcome_ = self.outcome_
        g.log = list(self.log) if self.log else []  # entries are never mutated after they are appended
        g.log_start = self.log_start
        g._events = []
        g.event_log = self.event_log
        g.seen_override = list(self.seen_override)
        g._edge = self._edge
        g._nb = self._nb
        g._cont_cache = self._cont_cache  # read-only once built
        g._cards_json = self._cards_json  # read-only, as `defs`
        g._cards_source = self._cards_source
        return g

    def secret_action(self, action: Action) -> bool:
        """Whether ``action``, applied now, is hidden from the other player (C-4.1, C-4.4, C-8)."""
        dec = self.choice
        return action_is_secret(action, dec.kind.value if dec is not None else None)

    def decision_step(self) -> tuple[str, int]:
        """The open decision step: in Commandeer every action closes its step (one timeout default ends
        it), so the step is named by the number of actions taken so far."""
        return ("ply", self.log_length)

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
        return legality.explain(self, action)

    def unplayable_cards(self, player: int) -> dict[int, str]:
        """Why each card of ``player``'s hand (and Commander) cannot be played now, by card id (see
        ``legality.unplayable_cards``): the same reasons ``explain_illegal`` gives."""
        return legality.unplayable_cards(self, player)

    def determinize(self, player: int, rng: Random, *, opponent_deck_known: bool = True) -> GameState:
        """A full state consistent with what ``player`` can know, hidden parts resampled (see
        ``information.determinize``): ``result.player_view(player) == self.player_view(player)``."""
        return determinize(self, player, rng, opponent_deck_known=opponent_deck_known)

    def _situation(self) -> str:
        """The current situation in words (for messages)."""
        if self.outcome_ is not None:
            return "the match is over (C-6.3)"
        cur = self.current_players()[0]
        if self.choice is not None:
            return f"player {cur} must answer a '{self.choice.kind.value}' choice"
        if self.step is Step.COMMANDER or self.step is Step.MULLIGAN:
            return f"set-up ({self.step.value}), player {cur} decides"
        return f"turn {self.turn}, {self.phase_name()} phase of player {self.active}, player {cur} acts"

    def _is_legendary_unit(self, c: int) -> bool:
        d = self.defs[c]
        return d.legendary and d.type == "unit"

    def simulation(self) -> GameState:
        """A clone in simulation mode (``event_log`` off) for search: same rules, no log or events."""
        g = self.clone()
        g.event_log = False
        g.log_start = g.log_length
        g.log = []
        return g

    def _ev(self, kind: str, **data: Any) -> None:
        if not self.event_log:
            return
        data["type"] = kind
        self._events.append(data)

    @property
    def log_length(self) -> int:
        """Entries in the whole event log, including those a state loaded without its log no longer holds."""
        return self.log_start + len(self.log)

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

    # C-2 battlefield and zones, C-5.2 squares: board.py
    deploy_squares = board.deploy_squares
    move_squares = board.move_squares
    _neighbour_counts = board._neighbour_counts
    _draw = board._draw
    _units_of = board._units_of
    _place = board._place
    _move_unit = board._move_unit
    _leave = board._leave
    _take_from_hand = board._take_from_hand

    # C-6 results: results.py
    _no_unit_loss = results._no_unit_loss
    _finish = results._finish

    # C-4/C-5 declared steps: phases.py
    _advance = phases._advance
    _end_turn = phases._end_turn

    # C-4 set-up: setup.py
    _next_commander_chooser = setup._next_commander_chooser
    _after_commanders = setup._after_commanders
    _begin_play = setup._begin_play

    # card choices (C-4.4, C-5.3, C-5.9): choices.py
    _card_choice = choices._card_choice
    _autopick = choices._autopick
    _pick_card = choices._pick_card
    _choice_done = choices._choice_done

    # applying actions: dispatch.py
    _dispatch = dispatch._dispatch
    _play_card = dispatch._play_card

    # C-2.3 stats, C-7.6 Formation, continuous abilities: continuous.py
    _continuous = continuous._continuous
    largest_group = continuous.largest_group
    formation_holds = continuous.formation_holds
    ability_condition_holds = continuous.ability_condition_holds
    _group_sizes = continuous._group_sizes
    _cont_targets = continuous._cont_targets
    _has_cont_sources = continuous._has_cont_sources
    stats = continuous.stats
    has_range = continuous.has_range

    # C-5.6/C-5.7/C-7 combat: combat.py
    arrows_of = combat.arrows_of
    attack_options = combat.attack_options
    _attack = combat._attack
    _defeat = combat._defeat
    _settle = combat._settle

    # C-1.5 abilities, C-1.3 events: abilities.py
    _resolve_event = abilities._resolve_event
    _queue = abilities._queue
    _next_trigger = abilities._next_trigger
    _trigger_label = abilities._trigger_label
    _start_trigger = abilities._start_trigger
    _cause = abilities._cause
    _resume = abilities._resume
    _effect_done = abilities._effect_done
    _chosen_options = abilities._chosen_options
    _anchor = abilities._anchor
    _fixed_targets = abilities._fixed_targets
    _do_effect = abilities._do_effect
    _continue_moves = abilities._continue_moves

    # C-8 views: views.py
    _ref = views._ref
    _unit_json = views._unit_json
    player_view = views.player_view
    _board_order = views._board_order
    log_view = views.log_view
    _events_view = views._events_view

    # position format: position.py
    to_dict = position.to_dict
    _catalog_json = position._catalog_json
    _log_dict = position._log_dict

    # legal actions (C-4, C-5.2, C-5.5, C-5.6): legality.py
    _legal_current = legality._legal_current
    _payable = legality._payable
    _legal_planning = legality._legal_planning
    _legal_activations = legality._legal_activations
    _legal_defending = legality._legal_defending
    _legal_combat = legality._legal_combat
