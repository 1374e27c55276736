"""Game-kind registry: one online-play layer for every game, each game plugged in through one interface.

The services, consumers, tasks and pages never name a game. They ask `get_game(match.kind)` for a
`GameKind[S, A]` — generic in the engine's state type `S` and action type `A` — which wraps one pure engine
(Commandeer, Westeros) behind a small interface: build a state, list legal actions, apply one, give each
player their own view, and say how a finished game ended (`Result`). Engines are pure Python; the game
kinds are the only place where a game meets Django (decks, users).
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, Generic, TypeAlias, TypeVar

from boardgame import dataset as board_dataset
from boardgame.engine import GameData, WesterosState, houses_in_play, load_default_game_data, new_game
from boardgame.engine import RulesConfig as WesterosRules
from boardgame.engine import action_from_json as westeros_action_from_json
from boardgame.engine.actions import ORDER_LABELS, order_label
from boardgame.engine.actions import Action as WesterosAction
from boardgame.engine.actions import secret_message as westeros_secret_message
from boardgame.engine.config import check_field
from boardgame.engine.log_messages import event_message
from boardgame.engine.views import log_view
from cards.services import card_to_dict
from config.errors import ApplicationError
from decks import selectors as deck_selectors
from matches.agents import AGENT_NAMES, DEFAULT_AGENT, make_agent
from matches.engine import GameState, RulesConfig, build_deck, card_from_dict, load_card_file, new_match
from matches.engine import action_from_json as commandeer_action_from_json
from matches.engine.actions import (
    Action,
    Attack,
    Concede,
    Keep,
    Pass,
    action_sentence,
    secret_message,
    timeout_message,
    timeout_secret,
)
from matches.engine.board import ROTATE
from matches.engine.cards import CardDef, factions_of
from matches.engine.consequences import consequences as commandeer_consequences
from matches.engine.consequences import squares_before
from matches.engine.decks import SAMPLE_CARDS
from matches.engine.messages import Msg, term
from matches.interface import Game

Player = int  # a seat position: 0, 1, ...
JSON = dict[str, Any]  # a JSON object (stored snapshots, views, API bodies): values of any JSON type
S = TypeVar("S")  # a game's engine state
A = TypeVar("A")  # a game's engine action
ES = TypeVar("ES", bound="Game[Any, Any]")  # the state of an engine that implements `matches.interface.Game`
EA = TypeVar("EA")


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
        return cls(
            winner=winner if isinstance(winner, int) else None,
            reason=str(data.get("reason") or ""),
            text=None if data.get("text") is None else str(data["text"]),
            loser=loser if isinstance(loser, int) else None,
            rules_reason=data.get("rules_reason"),
            winner_name=data.get("winner_name"),
            unrated=data.get("unrated"),
            message=data.get("message") if isinstance(data.get("message"), dict) else None,
        )


class GameKind(ABC, Generic[S, A]):
    """What the online-play layer needs from a game (docs/style.md 2: one interface for both games), generic
    in the engine's state `S` and action `A`."""

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

    def seat_deck_check(self, *, user: Any, deck_id: int | None) -> None:
        """Refuse a seat whose deck the game cannot use (called on create/join; again at start)."""
        if self.needs_deck and deck_id is None:
            raise ApplicationError("invalid_deck", "Choose a deck to take a seat in this game.")

    def seat_deck_snapshot(self, *, user: Any, deck_id: int | None) -> JSON:
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
        return self.load(self.dump(state))

    # ---- turn and rules ---------------------------------------------------------------------
    @abstractmethod
    def current_players(self, state: S) -> list[Player]:
        """Seats that must act now (more than one for simultaneous steps)."""

    @abstractmethod
    def legal_actions(self, state: S, player: Player) -> list[A]:
        """The single source of truth for what `player` may do now (docs/style.md 3)."""

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

    def timeout_loss(self, state: S, outcome: Result, seat: Player) -> bool:
        """Whether the end `outcome`, reached by a timeout default of `seat`, is `seat` losing on time
        (its engine reason only says what the default left behind). Default: never."""
        return False

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """Apply a legal action; return the new state (may be the same object, mutated)."""

    def illegal_reason(self, state: S, player: Player, action: A) -> str:
        """Why `action` is not legal now, in the engine's words when it can say."""
        return f"{self.action_to_json(action)} is not a legal action for player {player} now."

    @abstractmethod
    def is_terminal(self, state: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S) -> Result:
        """How a terminal state ended (winner seat or None, the engine's reason, in words)."""

    def summary_facts(self, state: S) -> JSON:
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
        """The documented default taken for a player whose clock ran out: deterministic, always legal."""
        return self.legal_actions(state, player)[0]

    @abstractmethod
    def decision_step(self, state: S) -> Hashable:
        """The open decision step, as the engine names it (`decision_step()` of the game interface): a
        timeout takes defaults until it changes."""

    # An AI instance is the engine's own agent class (no common base across engines): `Any`.
    def make_ai(self, agent: str, rng: random.Random) -> Any | None:
        """A fresh AI player `agent` choosing with `rng`, which may keep a plan between decisions of its seat
        (None: this game has no agents; `ai_action` picks with the rng)."""
        return None

    def ai_action(
        self, state: S, player: Player, *, rng: random.Random, agent: str, instance: Any | None = None
    ) -> A:
        """The AI seat's move, by `instance` (from `make_ai`) when given; the default picks among legal
        actions with the seeded rng."""
        return rng.choice(self.legal_actions(state, player))

    def action_is_secret(self, state: S, action: A) -> bool:
        """True when the raw action must not be shown to the other players (e.g. a mulligan's bottom card)."""
        return False

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


class EngineGame(GameKind[ES, EA]):
    """A game kind over an engine that implements the game interface (`matches.interface.Game`).

    The rules questions — which actions are secret, the default on timeout, why an action is illegal,
    the open decision step, the AI's move — are the engine's; the game kind only maps a seat to the
    engine's player (`engine_player`) and back.
    """

    def engine_player(self, state: ES, player: Player) -> object:
        """The engine's name of seat `player` (Commandeer: the seat number itself)."""
        return player

    def clone(self, state: ES) -> ES:
        return state.clone()

    def apply(self, state: ES, action: EA) -> ES:
        state.apply(action)
        return state

    def is_terminal(self, state: ES) -> bool:
        return state.is_terminal()

    def action_is_secret(self, state: ES, action: EA) -> bool:
        return state.secret_action(action)

    def illegal_reason(self, state: ES, player: Player, action: EA) -> str:
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

    def explain_message(self, state: ES, action: EA) -> JSON | None:
        """`explain_illegal` as a message (JSON), when the engine has one."""
        explain = getattr(state, "explain_message", None)
        found = explain(action) if callable(explain) else None
        return found.to_json() if found is not None else None

    def decision_step(self, state: ES) -> Hashable:
        return state.decision_step()

    def timeout_action(self, state: ES, player: Player) -> EA:
        """The engine's documented default for the seat (`timeout_action` of the game interface)."""
        action: EA = state.timeout_action(self.engine_player(state, player))
        return action

    def make_ai(self, agent: str, rng: random.Random) -> Any:
        return make_agent(self.kind, agent if agent in AGENT_NAMES else DEFAULT_AGENT, rng)

    def ai_action(
        self, state: ES, player: Player, *, rng: random.Random, agent: str, instance: Any | None = None
    ) -> EA:
        chooser = instance if instance is not None else self.make_ai(agent, rng)
        action: EA = chooser.choose(state, self.engine_player(state, player))
        return action


# The registry's games: the kind comes from a database row, so its state and action types are known only
# at run time — the one place where a game's `S` and `A` are `Any`.
AnyGame: TypeAlias = "GameKind[Any, Any]"

_REGISTRY: dict[str, AnyGame] = {}


class LegalActions(Generic[S, A]):
    """Each seat's legal actions at one state version, computed at most once (docs/style.md 3).

    A submit asks the same question of the same state several times — not-your-turn and membership before
    the move, the automatic-pass check and the answer's snapshot after it — and legal move generation is
    the costly part of a move; one instance per submit answers them all from one computation per seat.
    """

    def __init__(self, game: GameKind[S, A]) -> None:
        self.game = game
        self._version: int | None = None
        self._by_seat: dict[Player, list[A]] = {}

    def of(self, state: S, version: int, player: Player) -> list[A]:
        """``player``'s legal actions in ``state``, which is the match at ``version`` (a new version forgets
        the old answers: states change in place)."""
        if version != self._version:
            self._version, self._by_seat = version, {}
        if player not in self._by_seat:
            self._by_seat[player] = self.game.legal_actions(state, player)
        return self._by_seat[player]


_loaded = False


def register(game: GameKind[S, A]) -> GameKind[S, A]:
    """Make a game kind playable online."""
    _REGISTRY[game.kind] = game
    return game


def _load_modules() -> None:
    """Import the adapters' modules once; MATCHES_EXTRA_GAMES (comma list) adds more, e.g. test games."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    extra = [m.strip() for m in os.environ.get("MATCHES_EXTRA_GAMES", "").split(",") if m.strip()]
    if "commandeer" not in _REGISTRY:
        register(CommandeerGame())
    if "westeros" not in _REGISTRY:
        register(WesterosGame())
    for name in extra:
        importlib.import_module(name)


def get_game(kind: str) -> AnyGame:
    """The game of a kind, or a clear 400 naming the kinds on offer."""
    _load_modules()
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise ApplicationError(
            "unknown_game", f"Unknown game kind '{kind}'.", extra={"kinds": sorted(_REGISTRY)}
        ) from None


def game_kinds() -> list[str]:
    """Kinds that can be played now."""
    _load_modules()
    return sorted(_REGISTRY)


# ---- Commandeer TCG ---------------------------------------------------------------------------------


class CommandeerGame(EngineGame[GameState, Action]):
    """Commandeer TCG (matches.engine): decks from the deck builder, validated again at match start (C-3)."""

    kind = "commandeer"
    label = "Commandeer TCG"
    players = 2
    needs_deck = True
    auto_pass = True

    # -- decks (the only place that meets the decks/cards apps, through their selectors/services)
    def _deck(self, *, user: Any, deck_id: int | None, with_cards: bool = False) -> deck_selectors.PlayDeck:
        """The seat's deck checked by the one validator (C-3); with its card JSON when `with_cards` (start)."""
        if deck_id is None:
            raise ApplicationError("invalid_deck", "Choose a deck to take a seat in a Commandeer match.")
        try:
            deck = deck_selectors.deck_play_get(user=user, deck_id=deck_id, with_cards=with_cards)
        except ApplicationError:
            raise ApplicationError(
                "invalid_deck",
                f"Deck #{deck_id} does not exist or is not yours to play.",
                extra={"deck_id": deck_id},
            ) from None
        verdict = deck.legality
        if not verdict.valid:
            errors = [i.to_dict() for i in verdict.errors]
            raise ApplicationError(
                "invalid_deck",
                f"Deck '{deck.name}' is not legal: " + "; ".join(e["message"] for e in errors),
                extra={"deck_id": deck_id, "errors": errors, "rules": sorted({e["rule"] for e in errors})},
            )
        return deck

    def seat_deck_check(self, *, user: Any, deck_id: int | None) -> None:
        self._deck(user=user, deck_id=deck_id)

    def seat_deck_snapshot(self, *, user: Any, deck_id: int | None) -> JSON:
        """The deck validated again (C-3) and frozen as card JSON, one entry per copy.

        The copies of a card share one dict (JSON data nobody mutates; the engine copies what it
        keeps), so the engine parses each distinct card once (`card_from_dict_cached`).
        """
        deck = self._deck(user=user, deck_id=deck_id, with_cards=True)
        cards: list[JSON] = []
        for card, count in deck.cards:
            cards.extend([card] * count)
        return {"cards": cards, "commander": deck.commander, "deck_id": deck.pk, "name": deck.name}

    def _catalog(self) -> dict[str, CardDef]:
        """Card definitions for AI decks: the card database, or the sample set when it is empty."""
        rows = [card_to_dict(c) for c in deck_selectors.card_queryset()]
        if rows:
            out: dict[str, CardDef] = {}
            for row in rows:
                try:
                    out[row["name"]] = card_from_dict(row)
                except (ValueError, KeyError, TypeError):
                    continue
            return out
        return load_card_file(json.loads(SAMPLE_CARDS.read_text()))

    def ai_deck_snapshot(self, *, rng: random.Random, opponent: JSON | None) -> JSON:
        catalog = self._catalog()
        factions = sorted(factions_of(catalog))
        rng.shuffle(factions)
        for faction in factions:
            try:
                deck = build_deck(catalog, faction)
            except ValueError:
                continue
            return {**deck, "name": f"AI {faction} deck"}
        raise ApplicationError("invalid_deck", "No faction has enough cards for an AI deck.")

    # -- state
    def check_config(self, config: JSON) -> JSON:
        return RulesConfig.from_dict(dict(config)).to_dict() if config else {}

    def config_classes(self) -> tuple[type, ...]:
        return (RulesConfig,)

    def new_state(self, *, decks: list[JSON], seed: int, config: JSON) -> GameState:
        engine_decks = [{"cards": d["cards"], "commander": d.get("commander")} for d in decks]
        try:
            return new_match(*engine_decks, seed=seed, config=RulesConfig.from_dict(config or None))
        except ValueError as exc:
            raise ApplicationError("invalid_deck", f"The engine refused a deck: {exc}") from None

    def load(self, data: JSON) -> GameState:
        return GameState.from_dict(data)

    def dump(self, state: GameState) -> JSON:
        return state.to_dict(log=False)  # the action log holds the history; keeps snapshots small

    # -- rules
    def current_players(self, state: GameState) -> list[Player]:
        return list(state.current_players())

    def legal_actions(self, state: GameState, player: Player) -> list[Action]:
        """The engine's legal actions without Concede (conceding has its own endpoint, C-6.4)."""
        return [a for a in state.legal_actions(player) if not isinstance(a, Concede)]

    def action_from_json(self, data: object) -> Action:
        return commandeer_action_from_json(data)

    def action_to_json(self, action: Action) -> JSON:
        return dict(action.to_json())

    def describe(self, state: GameState, action: Action, viewer: Player | None) -> str:
        return self._describe_message(state, action, viewer).english()

    def _describe_message(self, state: GameState, action: Action, viewer: Player | None) -> Msg:
        """The action as a sentence naming its player, as `viewer` may read it (C-8): a secret choice
        only as "a choice was made"; an attack's direction as this viewer sees the board (C-2.1)."""
        if viewer != action.player and self.action_is_secret(state, action):
            return secret_message(action, sentence=True)
        what = action.message(state)
        if isinstance(action, Attack):
            what = Msg(
                what.key, {**what.params, "direction": term(_seen_direction(state, action.direction, viewer))}
            )
        return action_sentence(action, what)

    def describe_message(self, state: GameState, action: Action, viewer: Player | None) -> JSON:
        return self._describe_message(state, action, viewer).to_json()

    def describe_timeout(self, state: GameState, action: Action, viewer: Player | None, seat: Player) -> str:
        return self._timeout_message(state, action, viewer).english()

    def describe_timeout_message(
        self, state: GameState, action: Action, viewer: Player | None, seat: Player
    ) -> JSON:
        return self._timeout_message(state, action, viewer).to_json()

    def _timeout_message(self, state: GameState, action: Action, viewer: Player | None) -> Msg:
        """The default named as the documented one ("Player 2's time ran out — automatic pass: …";
        `timeout_action`: keep the hand, no Commander, end the phase, else the first legal choice)."""
        if (
            not isinstance(action, Pass | Keep)
            and viewer != action.player
            and self.action_is_secret(state, action)
        ):
            return timeout_secret(action)
        what = action.message(state)
        if isinstance(action, Attack):
            what = Msg(
                what.key, {**what.params, "direction": term(_seen_direction(state, action.direction, viewer))}
            )
        return timeout_message(action, what, state.phase_name(), state.decision, state.card_name)

    def consequences_basis(self, state: GameState) -> dict[int, str]:
        return squares_before(state)

    def consequences(self, state: GameState, viewer: Player | None, basis: object = None) -> list[JSON]:
        """The engine's events of the entry just logged, as `viewer` may see them (the engine's own
        per-viewer filter, as in `log_view`: drawn and bottomed cards only to their owner, C-8)."""
        # Each item keeps the engine's `message` (stored, rendered per reader by the selectors).
        found = commandeer_consequences(state, viewer, basis if isinstance(basis, dict) else None)
        return [dict(c) for c in found]

    def timeout_loss(self, state: GameState, outcome: Result, seat: Player) -> bool:
        """C-5.4/C-5.10 (C-6.2): the automatic pass of a seat without a unit loses — on time."""
        return outcome.reason == "no_units" and outcome.winner not in (None, seat)

    def outcome(self, state: GameState) -> Result:
        out = state.outcome()
        if out is None:
            return Result(winner=None, reason="unknown", text="unknown")
        message = out.message()
        return Result(
            winner=out.winner, reason=out.reason.value, text=message.english(), message=message.to_json()
        )

    def summary_facts(self, state: GameState) -> JSON:
        """Turns played and each side's cards in the Defeated zone (C-6.1: six lose the match)."""
        return {
            "turns": state.turn,
            "turns_label": "turns",
            "by_round": False,
            "seats": {p: {"defeated": len(side.defeated)} for p, side in enumerate(state.sides)},
        }

    def player_view(self, state: GameState, player: Player | None) -> JSON:
        """The engine's view plus the public card facts of every card named in it (for the page)."""
        view = state.player_view(player)
        names: set[str] = set()

        def walk(x: Any) -> None:
            if isinstance(x, dict):
                if isinstance(x.get("card"), str):
                    names.add(x["card"])
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        walk(view)
        by_name = {d.name: d for d in state.defs.values()}
        from cards.selectors import card_texts

        local = card_texts(n for n in names if n in by_name)
        view["catalog"] = {n: _card_facts(by_name[n], local.get(n)) for n in sorted(names) if n in by_name}
        if player is not None and view["players"][player].get("hand") is not None:
            view["unplayable"] = _unplayable(state, player)
        return view


def _unplayable(state: GameState, player: Player) -> dict[str, str]:
    """Why each card of the viewer's hand (and their Commander) cannot be played now, by card id, in the
    engine's own words (``GameState.unplayable_messages``, the reasons ``explain_illegal`` gives), as sentences
    shown on the card itself: "Needs 3 CP and you have 2 (C-5.2)." rather than repeating its name; in the
    reader's language (the card's name, where a hint names one, as the reader reads it)."""
    from cards.data_translations import reader_language
    from matches import messages
    from matches.engine.legality import card_hint

    language = reader_language()
    hints = {str(cid): card_hint(m) for cid, m in state.unplayable_messages(player).items()}
    if language == "en":
        return {cid: m.english() for cid, m in hints.items()}
    return {cid: messages.render(m.to_json(), language) for cid, m in hints.items()}  # the reader's language


def _seen_direction(state: GameState, direction: str, viewer: Player | None) -> str:
    """An engine direction as `viewer` sees the board: squares and arrows are named from the first
    player's seat (C-2.1, C-1.2); the other player's board is drawn turned 180° (own side at the
    bottom), so N/S and E/W swap for them. Spectators see the first player's orientation."""
    if viewer is None or viewer == state.first:
        return direction
    return ROTATE.get(direction, direction)


def _card_ids(state: WesterosState) -> dict[str, str]:
    """Printed card name → card id, over the game's decks (the first deck's card for a name two print)."""
    names: dict[str, str] = {}
    gd = state.data
    for deck in (gd.house_cards, gd.westeros_cards, gd.wildling_cards):
        for cid, c in sorted(deck.items(), reverse=True):
            names[str(c["name"])] = cid
    return names


def westeros_event_messages(state: WesterosState, events: list[JSON]) -> list[JSON | None]:
    """Each engine log event of a Westeros view as its message (`event_message`), None where its words
    read back as none: the page's log is rendered per reader from them (`selectors.view_for_reader`)."""
    names = _card_ids(state)
    out: list[JSON | None] = []
    for e in events:
        message = event_message(e, names) if isinstance(e, dict) and "text" in e else None
        out.append(message.to_json() if message is not None else None)
    return out


def _card_facts(d: Any, local: dict[str, Any] | None = None) -> JSON:
    """Public facts of a card definition (card database data, no game state), keyed by its English name
    (the engine's and the share codes'), with `display_name` and `display_rules_text` in the viewer's
    language (`local`, from `cards.selectors.card_texts`) and `untranslated` naming what is shown in English.
    A card the database does not hold (the sample set) reads in English, marked so for a non-English viewer."""
    from cards.data_translations import reader_language

    raw = dict(getattr(d, "raw", {}) or {})
    keys = ("type", "faction", "command_cost", "energy_cost", "power", "health", "arrows", "legendary",
            "unique", "event_type", "keywords", "rules_text")  # fmt: skip
    facts = {k: raw.get(k) for k in keys}
    name, rules_text = raw.get("name") or getattr(d, "name", ""), raw.get("rules_text") or ""
    if local is None:
        english = reader_language() == "en"
        marked = [f for f, text in (("name", name), ("rules_text", rules_text)) if text and not english]
        local = {"name": name, "rules_text": rules_text, "untranslated": marked}
    facts["display_name"] = local["name"] or name  # never empty: the English name at worst
    facts["display_rules_text"] = local["rules_text"]
    facts["untranslated"] = [f for f in local["untranslated"] if f in ("name", "rules_text")]
    return facts


def _printed_names(state: WesterosState, text: str) -> str:
    """An engine event's words as a player reads them: area and order-token ids ("the_shivering_sea",
    "march_plus_one") become their printed names (W-1.6), as the action descriptions already say them."""
    areas = state.data.areas

    def printed(m: re.Match[str]) -> str:
        word = m.group(0)
        if word in ORDER_LABELS:
            return order_label(word)
        if word in areas:
            return str(areas[word].get("name") or word.replace("_", " ").title())
        return word

    return re.sub(r"\b[a-z][a-z0-9_]*\b", printed, text)


# ---- A Game of Thrones: The Board Game (Westeros) -----------------------------------------------------
# The Westeros rules (secret actions, timeout defaults, why an action is illegal, which house each seat
# plays) live in the engine (boardgame.engine): this adapter only delegates to it (`EngineGame`).
SEATING_CHOICES = ("choose", "random", "draft")
HOUSE_CHOICES = ("random", "stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
WESTEROS_VIEW_LOG = 150  # engine log entries sent with each view (the full game is in the match log/replay)


@dataclass(frozen=True)
class WesterosSeating:
    """The play layer's own rules_config keys of a Westeros match (next to the engine's RulesConfig)."""

    # W-1.1: the number of houses (3-6); the engine's set-up data names the houses of each count.
    player_count: int = field(default=6, metadata={"rule": "W-1.1", "min": 3, "max": 6})
    # W-1.1: the creator's house (seat 0), one of that player count's houses, or "random" (seeded draw).
    # "" = the set-up order of the houses.
    house: str = field(default="", metadata={"rule": "W-1.1", "choices": HOUSE_CHOICES})
    # How the other seats get their houses (services.lobby): "choose" (each joiner picks a free house),
    # "random" (drawn at the start with the match seed) or "draft" (in join order, from those left).
    seating: str = field(default="choose", metadata={"rule": "W-1.1", "choices": SEATING_CHOICES})


@functools.cache
def _houses_in_play(count: int) -> tuple[str, ...]:
    return tuple(houses_in_play(load_default_game_data(), count))


class WesterosGame(EngineGame[WesterosState, WesterosAction]):
    """Westeros (boardgame.engine): 3–6 houses; which house each seat plays is fixed at the start.

    rules_config: `{"player_count": 3..6, "house": "random"|<house id>, ...engine WesterosRules fields}`.
    `house` is the creator's (seat 0) choice: a house of that player count, the others follow in set-up
    order (W-1.1); "random" draws every seat's house with the match seed. The map and cards are copied
    from the curated database at the start (an admin edit changes the next game, never a running one).
    """

    kind = "westeros"
    label = "A Game of Thrones: The Board Game"
    players = 6
    # W-3.3: orders (placing, taking back, Ready and its take-back), bids and house cards are chosen at once.
    simultaneous_action_types = frozenset(
        {"place_order", "remove_order", "finish_orders", "reopen_orders", "bid", "play_house_card"}
    )

    def seat_count(self, config: JSON) -> int:
        return int((config or {}).get("player_count", self.players))

    def houses(self, config: JSON) -> list[str]:
        return self.houses_in_play(self.seat_count(config))

    @staticmethod
    def houses_in_play(count: int) -> list[str]:
        """The houses of a `count`-player game in set-up order (W-1.1, W-2)."""
        return list(_houses_in_play(count))

    def config_classes(self) -> tuple[type, ...]:
        return (WesterosSeating, WesterosRules)

    def check_config(self, config: JSON) -> JSON:
        """The seating keys (WesterosSeating) and the engine's WesterosRules, each checked strictly."""
        if not isinstance(config, dict):
            raise ValueError("rules_config must be an object")
        config = dict(config)
        seating = {f.name: f for f in dataclass_fields(WesterosSeating)}
        count = check_field(seating["player_count"], config.pop("player_count", self.players))
        house = config.pop("house", "") or ""
        if not isinstance(house, str):
            raise ValueError("house must be a house id or 'random'")
        out: JSON = {"player_count": count}
        seating_mode = config.pop("seating", "choose")
        if seating_mode not in SEATING_CHOICES:
            raise ValueError(f"seating must be one of {', '.join(SEATING_CHOICES)}")
        if seating_mode != "choose":
            out["seating"] = seating_mode
        if house:
            allowed = ["random", *self.houses_in_play(count)]
            if house not in allowed:
                raise ValueError(f"house must be one of {', '.join(allowed)} in a {count}-player game")
            out["house"] = house
        return {**out, **(WesterosRules.from_dict(config).to_dict() if config else {})}

    def _game_data(self) -> GameData:
        try:
            data = board_dataset.game_data_export()
            if data.get("map") and data["map"].get("areas"):
                return GameData.from_dict(data)
        except Exception:  # an empty or half-curated database: fall back to the project's data files
            pass
        return load_default_game_data()

    @staticmethod
    def seat_order(houses: list[str], *, house: str, seed: int) -> list[str]:
        """Which house each seat plays: the creator's choice first, or a seeded random draw."""
        if house == "random":
            order = list(houses)
            random.Random(seed ^ 0x40_5E).shuffle(order)
            return order
        if house in houses:
            return [house, *(h for h in houses if h != house)]
        return list(houses)

    def new_state(self, *, decks: list[JSON], seed: int, config: JSON) -> WesterosState:
        seating = ("player_count", "house", "seating", "seat_houses")  # the play layer's keys
        engine_config = {k: v for k, v in (config or {}).items() if k not in seating}
        data = self._game_data()
        count = self.seat_count(config)
        houses = houses_in_play(data, count)  # W-1.1, in set-up order
        return new_game(
            data,
            player_count=count,
            seed=seed,
            config=WesterosRules.from_dict(engine_config) if engine_config else None,
            seat_houses=list((config or {}).get("seat_houses") or [])  # fixed by the lobby at the start
            or self.seat_order(houses, house=(config or {}).get("house", ""), seed=seed),
        )

    def load(self, data: JSON) -> WesterosState:
        return WesterosState.from_dict(data)  # the snapshot holds which house each seat plays

    def dump(self, state: WesterosState) -> JSON:
        return dict(state.to_dict())

    @staticmethod
    def _houses(state: WesterosState) -> list[str]:
        """Seat i plays `_houses(state)[i]` (the engine's `players()`, fixed for the game)."""
        return list(state.players())

    def engine_player(self, state: WesterosState, player: Player) -> str:
        """The house seat `player` plays."""
        return self._houses(state)[player]

    def _seat(self, state: WesterosState, house: str) -> Player:
        return self._houses(state).index(house)

    def current_players(self, state: WesterosState) -> list[Player]:
        return [self._seat(state, h) for h in state.current_players()]

    def legal_actions(self, state: WesterosState, player: Player) -> list[WesterosAction]:
        """What the seat's house may do now: its decision, or (out of turn) taking its Ready back while
        other houses still place orders (W-5.1)."""
        return list(state.legal_actions(self.engine_player(state, player)))

    def action_from_json(self, data: object) -> WesterosAction:
        if not isinstance(data, dict):
            raise ValueError("an action must be a JSON object")
        return westeros_action_from_json(data)

    def action_to_json(self, action: WesterosAction) -> JSON:
        return dict(action.to_json())

    def describe(self, state: WesterosState, action: WesterosAction, viewer: Player | None) -> str:
        if self.action_is_secret(state, action) and (
            viewer is None or self.engine_player(state, viewer) != action.player
        ):
            return westeros_secret_message(action).english()
        text = action.describe(state)  # the action's message (`Action.message`) in English
        return text if text.endswith(".") else text + "."

    def explain_message(self, state: WesterosState, action: WesterosAction) -> JSON | None:
        from boardgame.engine.explain import explain_message

        found = explain_message(state, action)
        return found.to_json() if found is not None else None

    def describe_message(self, state: WesterosState, action: WesterosAction, viewer: Player | None) -> JSON:
        if self.action_is_secret(state, action) and (
            viewer is None or self.engine_player(state, viewer) != action.player
        ):
            return westeros_secret_message(action).to_json()
        return action.message(state).to_json()

    def outcome(self, state: WesterosState) -> Result:
        out = state.outcome()
        if out is None:
            return Result(winner=None, reason="unknown")
        winner = self._seat(state, out.winner) if out.winner in self._houses(state) else None
        message = out.message()
        return Result(
            winner=winner, reason=str(out.reason.value), text=message.english(), message=message.to_json()
        )

    def summary_facts(self, state: WesterosState) -> JSON:
        """The round, and each house's castles/strongholds (W-18) and supply position (W-12) — public."""
        return {
            "turns": state.round,
            "turns_label": "rounds",
            "by_round": True,
            "seats": {
                seat: {"house": house, "castles": state.castle_count(house), "supply": state.supply[house]}
                for seat, house in enumerate(self._houses(state))
            },
        }

    def standing(self, state: WesterosState) -> list[list[Player]] | None:
        """Every seat by its house's final standing (W-18: the winner, then W-18.2's order and tie-breaks)."""
        return [[self._seat(state, house)] for house in state.final_standing()]

    def consequences_basis(self, state: WesterosState) -> int:
        return state.log_length  # the engine's event log: what this action adds to it is what it caused

    def consequences(self, state: WesterosState, viewer: Player | None, basis: object = None) -> list[JSON]:
        """The engine's events made by the action, as the seat's house may read them (`log_view`: private
        events only to their addressees, W-20); each is plain text, kind "event"."""
        if not isinstance(basis, int):
            return []
        house = self.engine_player(state, viewer) if viewer is not None else None
        names = _card_ids(state)
        out: list[JSON] = []
        for e in log_view(state, house, basis):
            item: JSON = {
                "text": _printed_names(state, str(e["text"])).rstrip(".") + ".",
                "kind": "event",
                "square": None,
                "amount": None,
            }
            message = event_message(e, names)  # the event's words as a message, rendered per reader
            if message is not None:
                item["message"] = message.to_json()
            out.append(item)
        return out

    def player_view(self, state: WesterosState, player: Player | None) -> JSON:
        """The engine's view for the seat's house (with castles, control, combat strength: W-8, W-9.3, W-18)."""
        house = self.engine_player(state, player) if player is not None else None
        view = dict(state.player_view(house))
        log = view.get("log") or []
        view["log"], view["log_total"] = log[-WESTEROS_VIEW_LOG:], len(log)  # the table shows the tail only
        return view  # castles, control and public combat_strength come from the engine's view
