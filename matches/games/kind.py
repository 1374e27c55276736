"""The game boundary: `GameKind[S, A]`, generic in the engine's state type `S` and action type `A`.

The services, consumers, tasks and pages never name a game. They ask `registry.get_game(match.kind)` for
a `GameKind`, which wraps one pure engine (Commandeer, Westeros) behind a small interface: build a state,
list legal actions, apply one, give each player their own view, and say how a finished game ended
(`Result`). Engines are pure Python; the game kinds are the only place where a game meets Django (decks,
users).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypedDict, TypeVar, cast

from config.errors import ApplicationError
from matches.agents import AGENT_NAMES, DEFAULT_AGENT, make_agent
from matches.interface import Game
from matches.jsontypes import JSONObject, JSONValue

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Player = int  # a seat position: 0, 1, ...
JSON: TypeAlias = JSONObject  # a JSON object (stored snapshots, views, API bodies); narrow a value to use it
# A game's engine state: it implements the one game interface. Any: the bound spans every engine's player
# type (seat numbers, house ids), and `Game` is invariant in it; `engine_player`/`seat_of` map seats.
S = TypeVar("S", bound="Game[Any, Any]")
A = TypeVar("A")  # a game's engine action
# An AI player: the engine's own agent class, whose `choose(state, engine player)` names the engine's player
# type (seat numbers, house ids), which `GameKind` does not know; the engines share no agent base class.
AgentInstance: TypeAlias = Any


class SummaryFacts(TypedDict):
    """Public facts of a state for the end-of-game summary (`GameKind.summary_facts`)."""

    turns: int  # the turn or round number
    turns_label: str  # "turns" or "rounds"
    by_round: bool  # the summary tracks the seats' facts round by round
    seats: dict[Player, JSONObject]  # each seat's facts: {fact: value}


@dataclass(frozen=True)
class Result:
    """How a match ended: made by the game (`GameKind.outcome`) or the play layer (concession, time,
    abort), passed through `finish`, the ratings and the summary; stored as `Match.result` (JSON) only at
    the storage edge (`to_json`/`from_json`), whose keys stay those of the API's `ResultOut`."""

    winner: Player | None
    reason: str
    text: str | None = None  # the end in plain words ("six cards in the Defeated zone (C-6.1)")
    loser: Player | None = None  # the seat that lost on time
    rules_reason: str | None = None  # a loss on time: what the rules called the end the default left
    winner_name: str | None = None  # the winning seat's title, set by `finish`
    unrated: JSON | None = None  # why a rated match did not count: {"code", "text", ...} (services.ratings)
    message: JSON | None = None  # `text` as the engine's message, rendered in each reader's language

    def to_json(self) -> JSON:
        """The stored form: `winner` and `reason` always, the other keys only when set."""
        out: JSON = {"winner": self.winner, "reason": self.reason}
        for key in ("text", "loser", "rules_reason", "winner_name", "unrated", "message"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, data: JSON | None) -> Result | None:
        """A stored result (None: the match has not ended)."""
        if not data:
            return None
        winner, loser = data.get("winner"), data.get("loser")
        unrated, message = data.get("unrated"), data.get("message")
        return cls(
            winner=winner if isinstance(winner, int) else None,
            reason=str(data.get("reason") or ""),
            text=_text(data.get("text")),
            loser=loser if isinstance(loser, int) else None,
            rules_reason=_text(data.get("rules_reason")),
            winner_name=_text(data.get("winner_name")),
            unrated=unrated if isinstance(unrated, dict) else None,
            message=message if isinstance(message, dict) else None,
        )


def _text(value: JSONValue) -> str | None:
    """A stored text (None stays None)."""
    return None if value is None else str(value)


class GameKind(ABC, Generic[S, A]):
    """A game as the online-play layer plays it, generic in the engine's state `S` and action `A`.

    The rules are the engine's: `S` implements the one game interface (`matches.interface.Game`, docs/style.md
    2), and every rules question — whose turn, the legal actions, applying one, the end, secret actions, the
    timeout default, why an action is illegal, the open decision step, the AI's move — is asked of the state
    through it. A game kind adds only what a match needs besides the rules: seats (a seat number and the
    engine's player: `engine_player`, `seat_of`), decks, the rules config, the stored snapshot, the words
    each viewer reads and the `Result`.
    """

    kind: str = ""
    label: str = ""
    players: int = 2
    needs_deck: bool = False
    # True: a seat whose only legal action is the phase's Pass (action type "pass") passes at once when
    # its player wants it (Seat.auto_pass; matches.services.submit.auto_pass_action)
    auto_pass: bool = False
    # Action types of simultaneous steps (everyone decides at once, nobody sees what the others chose): a
    # submit from a view that only others' such actions have overtaken is still good
    # (matches.services.submit._overtaken_only_by_simultaneous_moves).
    simultaneous_action_types: frozenset[str] = frozenset()

    # ---- seats and setup -------------------------------------------------------------------
    def seat_count(self, config: JSON) -> int:
        """How many seats a match with this rules config has."""
        return self.players

    def houses(self, config: JSON) -> list[str]:
        """The sides a seat picks before the start (Westeros: the houses of the player count, W-1.1), in set-up
        order; empty for a game whose seats have no side to pick."""
        return []

    def seat_deck_check(self, *, user: User | None, deck_id: int | None) -> None:
        """Refuse a seat whose deck the game cannot use (called on create/join; again at start)."""
        if self.needs_deck and deck_id is None:
            from django.utils.translation import gettext

            raise ApplicationError("invalid_deck", gettext("Choose a deck to take a seat in this game."))

    def seat_deck_snapshot(self, *, user: User | None, deck_id: int | None) -> JSON:
        """Validate the seat's deck again (match start) and return the frozen copy the engine plays with."""
        return {}

    def ai_deck_snapshot(self, *, rng: random.Random, opponent: JSON | None) -> JSON:
        """A deck for an AI seat."""
        return {}

    @abstractmethod
    def new_state(self, *, decks: list[JSON], seed: int, config: JSON) -> S:
        """A fresh engine state for a started match."""

    @abstractmethod
    def load(self, data: JSON) -> S:
        """Engine state from its stored JSON snapshot."""

    @abstractmethod
    def dump(self, state: S) -> JSON:
        """JSON snapshot of an engine state (stored in Match.state)."""

    def clone(self, state: S) -> S:
        """An independent copy of a state (the cache hands out copies to code that applies actions)."""
        return state.clone()

    # ---- seats and the engine's players --------------------------------------------------------
    def engine_player(self, state: S, player: Player) -> object:
        """The engine's name of seat `player`: seat i plays the engine's ``players()[i]`` (Commandeer: the
        seat number itself; Westeros: the house the seat plays, fixed at the start)."""
        return state.players()[player]

    def seat_of(self, state: S, engine_player: object) -> Player:
        """The seat that plays the engine's player `engine_player`."""
        return list(state.players()).index(engine_player)

    # ---- turn and rules: the engine's, through the game interface ------------------------------
    def current_players(self, state: S) -> list[Player]:
        """Seats that must act now (more than one for simultaneous steps)."""
        return [self.seat_of(state, p) for p in state.current_players()]

    def legal_actions(self, state: S, player: Player) -> list[A]:
        """The single source of truth for what `player` may do now (docs/style.md 3)."""
        return list(state.legal_actions(self.engine_player(state, player)))

    @abstractmethod
    def action_to_json(self, action: A) -> JSON: ...

    @abstractmethod
    def action_from_json(self, data: object) -> A:
        """Parse an action; raise ValueError/KeyError/TypeError on malformed input."""

    @abstractmethod
    def describe(self, state: S, action: A, viewer: Player | None) -> str:
        """The action in plain words, as `viewer` may read it (None = spectator) — hidden parts stay hidden."""

    def describe_message(self, state: S, action: A, viewer: Player | None) -> JSON | None:
        """`describe` as a message (key + parameters, JSON) rendered in each reader's language
        (`matches.messages.render`); None when the game has none (its English words are all there is)."""
        return None

    def describe_timeout_message(
        self, state: S, action: A, viewer: Player | None, seat: Player
    ) -> JSON | None:
        """`describe_timeout` as a message; None when the game has none."""
        return None

    def describe_timeout(self, state: S, action: A, viewer: Player | None, seat: Player) -> str:
        """The log line of the default taken because `seat`'s clock ran out, as `viewer` may read it.

        Every viewer reads that the time ran out (clocks are public); the default itself only as far as
        `describe` shows it to them.
        """
        return f"Player {seat + 1}'s time ran out — automatic choice: {self.describe(state, action, viewer)}"

    def consequences_basis(self, state: S) -> object:
        """What `consequences` needs from the state BEFORE the action (taken just before it is applied)."""
        return None

    def consequences(self, state: S, viewer: Player | None, basis: object = None) -> list[JSON]:
        """What the action just applied to `state` caused, as `viewer` may see it (None = spectator);
        `basis` is `consequences_basis` of the state before it.

        Each item: `{"text", "kind", "square": [row, col] | None, "amount": int | None}` (see
        docs/play-layer.md). Nothing hidden from `viewer` may appear (hands, deck order, face-down
        cards). The default: the game reports none.
        """
        return []

    def consequences_by_viewer(
        self, state: S, viewers: Sequence[Player | None], basis: object = None
    ) -> list[list[JSON]]:
        """`consequences` for each of `viewers`, in their order (a game may share the work their lists have
        in common: the same event read by every seat)."""
        return [self.consequences(state, viewer, basis) for viewer in viewers]

    def timeout_loss(self, state: S, outcome: Result, seat: Player) -> bool:
        """Whether the end `outcome`, reached by a timeout default of `seat`, is `seat` losing on time
        (its engine reason only says what the default left behind). Default: never."""
        return False

    def apply(self, state: S, action: A) -> S:
        """Apply a legal action (the engine refuses an illegal one); return the state, mutated."""
        state.apply(action)
        return state

    def illegal_reason(self, state: S, player: Player, action: A) -> str:
        """The engine's reason in the reader's (active) language; its English words where it has no message."""
        from django.utils.translation import gettext

        from cards.data_translations import reader_language

        reason = state.explain_illegal(action)
        if reason and reader_language() != "en":
            message = self.explain_message(state, action)
            if message is not None:
                from matches.messages import render

                return render(message, game=self.kind)
        return reason or gettext("%(action)s is not among your legal actions now.") % {
            "action": self.action_to_json(action)
        }

    def explain_message(self, state: S, action: A) -> JSON | None:
        """`explain_illegal` as a message (JSON), when the engine has one."""
        explain = getattr(state, "explain_message", None)
        found = explain(action) if callable(explain) else None
        return found.to_json() if found is not None else None

    def is_terminal(self, state: S) -> bool:
        return state.is_terminal()

    @abstractmethod
    def outcome(self, state: S) -> Result:
        """How a terminal state ended (winner seat or None, the engine's reason, in words)."""

    def summary_facts(self, state: S) -> SummaryFacts:
        """Public facts of a state for the end-of-game summary (`matches.summary`): `turns` (the turn or
        round number), `turns_label`, `by_round` (track the seats' facts round by round) and `seats`:
        {seat: {fact: value}} — nothing hidden (no hand, no deck order)."""
        return {"turns": 0, "turns_label": "turns", "by_round": False, "seats": {}}

    def standing(self, state: S) -> list[list[Player]] | None:
        """The final standing of an ended game, best first, seats sharing a place grouped (ratings of 3+
        player games); None: the result's winner says it all (two players)."""
        return None

    @abstractmethod
    def player_view(self, state: S, player: Player | None) -> JSON:
        """What `player` may see (None = spectator: no hand, no deck order) (docs/style.md 7)."""

    def timeout_action(self, state: S, player: Player) -> A:
        """The engine's documented default for a seat whose clock ran out: deterministic, always legal."""
        action: A = state.timeout_action(self.engine_player(state, player))
        return action

    def decision_step(self, state: S) -> Hashable:
        """The open decision step, as the engine names it: a timeout takes defaults until it changes."""
        return state.decision_step()

    def make_ai(self, agent: str, rng: random.Random) -> AgentInstance | None:
        """A fresh AI player `agent` choosing with `rng`, which may keep a plan between decisions of its seat
        (None: this game has no agents; `ai_action` picks with the rng)."""
        return make_agent(self.kind, agent if agent in AGENT_NAMES else DEFAULT_AGENT, rng)

    def ai_action(
        self,
        state: S,
        player: Player,
        *,
        rng: random.Random,
        agent: str,
        instance: AgentInstance | None = None,
    ) -> A:
        """The AI seat's move, by `instance` (from `make_ai`) when given, else by a fresh agent; a game
        without agents picks among the legal actions with the seeded rng."""
        chooser = instance if instance is not None else self.make_ai(agent, rng)
        if chooser is None:
            return rng.choice(self.legal_actions(state, player))
        action: A = chooser.choose(state, self.engine_player(state, player))
        return action

    def action_is_secret(self, state: S, action: A) -> bool:
        """True when the raw action must not be shown to the other players (the engine's `secret_action`)."""
        return state.secret_action(action)

    def check_config(self, config: JSON) -> JSON:
        """Validate a match's rules config (raise ValueError naming the problem); return it normalised."""
        return dict(config)

    def config_classes(self) -> tuple[type, ...]:
        """The dataclasses whose fields ARE this game's rules_config keys (their metadata: the bounds).

        The API's rules_config serializer is generated from them (`matches.rules_api`), so a field added
        to an engine's RulesConfig is settable and documented at once. Empty: a free-form object that
        only `check_config` judges (test games).
        """
        return ()


class KnownLegalActions(Protocol):
    """Legal actions of one match that other requests of this process computed (`storage.legal_actions`):
    a version never denotes two different states, so an answer about a version holds for good."""

    def get(self, version: int, player: Player) -> Sequence[object] | None: ...

    def put(self, version: int, player: Player, actions: Sequence[object]) -> None: ...


class LegalActions(Generic[S, A]):
    """Who acts and each seat's legal actions at one state version, each computed at most once (docs/style.md 3).

    A submit asks the same questions of the same state several times — not-your-turn and membership before
    the move, whose turn it is when the clocks move, the automatic-pass check and the answer's snapshot after
    it — and legal move generation is the costly part of a move; one instance per submit answers them all
    from one computation per seat. With `known` (`storage.legal_actions`) a seat's legal actions at a
    version are computed once per process: the view a player read, or the answer to their last move, has
    them for their next submit.
    """

    def __init__(self, game: GameKind[S, A], known: KnownLegalActions | None = None) -> None:
        self.game = game
        self.known = known
        self._version: int | None = None
        self._by_seat: dict[Player, list[A]] = {}
        self._current: list[Player] | None = None

    def _at(self, version: int) -> None:
        if version != self._version:  # a new version forgets the old answers: states change in place
            self._version, self._by_seat, self._current = version, {}, None

    def current(self, state: S, version: int) -> list[Player]:
        """The seats that must act in ``state``, which is the match at ``version`` (`GameKind.current_players`)."""
        self._at(version)
        if self._current is None:
            self._current = self.game.current_players(state)
        return list(self._current)

    def of(self, state: S, version: int, player: Player) -> list[A]:
        """``player``'s legal actions in ``state``, which is the match at ``version`` (a negative version: a
        state of no stored version, never shared)."""
        self._at(version)
        found = self._by_seat.get(player)
        if found is not None:
            return found
        shared = self.known.get(version, player) if self.known is not None and version >= 0 else None
        if shared is not None:
            found = cast("list[A]", list(shared))  # put by `of` below for this match's game: its `A`
        else:
            found = self.game.legal_actions(state, player)
            if self.known is not None and version >= 0:
                self.known.put(version, player, tuple(found))
        self._by_seat[player] = found
        return found
