"""The Commandeer match state: ``GameState``, its data and its public interface (docs/style.md 2–5).

Pure Python and deterministic: all randomness comes from the seeded ``Random`` held in the state. The rules
live in one module per rule area, as plain functions that take the state as their first argument; the
interface methods here call them:

- ``board.py`` — C-2 battlefield, squares, adjacency, zones; ``steps.py`` — the declared C-4/C-5 steps;
- ``phases.py`` — walking the steps (``advance``, ``STEP_HANDLERS``, ``OP_HANDLERS``), C-4 set-up steps;
- ``legality.py`` — legal actions and why an action is illegal; ``dispatch.py`` — applying actions;
- ``choices.py`` — card choices; ``combat.py`` — C-5.6/C-5.7/C-7 combat; ``continuous.py`` — stats,
  C-7.6 Formation; ``abilities.py`` / ``effects.py`` — C-1.5 abilities; ``results.py`` — C-6;
- ``views.py`` — C-8 views; ``information.py`` — secrets and determinization; ``position.py`` — storage;
- ``setup.py`` — ``new_match`` and ``replay``, which create states (the one module above this one).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from . import dispatch, legality, phases, position, views
from .actions import Action, ChooseCommander, ChooseTrigger, Concede, IllegalActionError, Keep, Pass
from .board import NEIGHBOURS_KING, NEIGHBOURS_ORTHO, NSQ, Side, Unit
from .cards import CardDef
from .config import RulesConfig
from .information import action_is_secret, determinize
from .messages import Msg
from .pending import Decision, DecisionKind, Op, Resolution, Trigger
from .results import Outcome
from .steps import PHASE_OF, Step

__all__ = ["GameState"]


class GameState:
    """A Commandeer match. Create with ``new_match`` or ``GameState.from_dict`` (position format)."""

    def __init__(
        self,
        config: RulesConfig,
        defs: dict[int, CardDef],
        owners: dict[int, int],
        rng: Random,
        *,
        blank: bool = False,
    ) -> None:
        self.config = config
        self.defs = defs  # id -> definition (shared, never mutated)
        self.owners = owners  # id -> owner (shared, never mutated)
        self.rng = rng
        if blank:  # ``clone`` sets every other field (a class compiled by mypyc has no bare ``__new__``)
            return
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
        self.events: list[dict[str, Any]] = []
        # Simulation mode (search): False keeps no event log and records no events; the rules and the
        # outcome are the same (``log_length`` still counts the actions). Not part of the position.
        self.event_log = True
        # Cards of the other player that each player has seen go back into a hidden zone (``cards_seen_by``),
        # kept by a determinized state that no longer has the log they were read from; None: read the log.
        self.seen_override: list[frozenset[int] | None] = [None, None]
        self.cont_cache: dict[int, list[int]] | None = None
        # `to_dict`'s "cards", built once per `defs` (shared by clones; never mutated), and the position's
        # own "cards" it was loaded from, which `to_dict` hands back when equal: a store that splits the
        # catalog off (the online layer's start snapshot) then finds the very object it holds.
        self.cards_json: dict[str, Any] | None = None
        self.cards_source: Mapping[str, Any] | None = None
        self._setup_derived()

    def _setup_derived(self) -> None:
        self.edge = self.config.edge_penalties()
        self.nb = NEIGHBOURS_KING if self.config.adjacency == "king" else NEIGHBOURS_ORTHO

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
        acts = legality.legal_current(self) if player == self.current_players()[0] else []
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
            dispatch.apply_action(self, action)
            phases.advance(self)
            self.log_start += 1
            return
        self.events = []
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
        dispatch.apply_action(self, action)
        phases.advance(self)
        entry["events"] = self.events
        self.log.append(entry)
        self.events = []

    def clone(self) -> GameState:
        rng = Random.__new__(Random)  # skips seeding from the OS; the state is set right away
        rng.setstate(self.rng.getstate())
        g = GameState(self.config, self.defs, self.owners, rng, blank=True)
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
        g.events = []
        g.event_log = self.event_log
        g.seen_override = list(self.seen_override)
        g.edge = self.edge
        g.nb = self.nb
        g.cont_cache = self.cont_cache  # read-only once built
        g.cards_json = self.cards_json  # read-only, as `defs`
        g.cards_source = self.cards_source
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
            raise IllegalActionError(f"player {player} has nothing to do now: {self.situation()}")
        for wanted in (Keep, Pass):
            for a in legal:
                if isinstance(a, wanted):
                    return a
        for a in legal:
            if isinstance(a, ChooseCommander) and a.name is None:
                return a
        return legal[0]

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now (phase, turn, missing CP or Energy, no legal square …), in English."""
        return legality.explain(self, action).english()

    def explain_message(self, action: Action) -> Msg:
        """``explain_illegal`` as a message (docs/commandeer-engine.md, "Messages")."""
        return legality.explain(self, action)

    def unplayable_cards(self, player: int) -> dict[int, str]:
        """Why each card of ``player``'s hand (and Commander) cannot be played now, by card id (see
        ``legality.unplayable_cards``): the same reasons ``explain_illegal`` gives, in English."""
        return {c: m.english() for c, m in legality.unplayable_cards(self, player).items()}

    def unplayable_messages(self, player: int) -> dict[int, Msg]:
        """``unplayable_cards`` as messages."""
        return legality.unplayable_cards(self, player)

    def determinize(self, player: int, rng: Random, *, opponent_deck_known: bool = True) -> GameState:
        """A full state consistent with what ``player`` can know, hidden parts resampled (see
        ``information.determinize``): ``result.player_view(player) == self.player_view(player)``."""
        return determinize(self, player, rng, opponent_deck_known=opponent_deck_known)

    def situation(self) -> str:
        """The current situation in English (for error messages; ``legality.situation``: the message)."""
        return legality.situation(self).english()

    def is_legendary_unit(self, c: int) -> bool:
        """Whether card ``c`` is a Legendary unit (a Commander candidate, C-4.1)."""
        d = self.defs[c]
        return d.legendary and d.type == "unit"

    def simulation(self) -> GameState:
        """A clone in simulation mode (``event_log`` off) for search: same rules, no log or events."""
        g = self.clone()
        g.event_log = False
        g.log_start = g.log_length
        g.log = []
        return g

    def event(self, kind: str, **data: Any) -> None:
        """Record an event of the action being applied (none in simulation mode)."""
        if not self.event_log:
            return
        data["type"] = kind
        self.events.append(data)

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
            return position.load(cls, data, catalog, seed)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"malformed position: {type(exc).__name__}: {exc}") from exc

    def to_dict(self, *, log: bool = True) -> dict[str, Any]:
        """The full state in the position format, RNG state included (see ``position.to_dict``)."""
        return position.to_dict(self, log=log)

    def player_view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (C-8); ``None`` is a spectator (see ``views.player_view``)."""
        return views.player_view(self, player)

    def log_view(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The event log from ``start`` as ``player`` may see it (see ``views.log_view``)."""
        return views.log_view(self, player, start)
