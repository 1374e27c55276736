"""A tiny two-player counting game, registered as kind "counting" to prove the online layer is game-agnostic.

Players take turns adding 1 or 2 to a shared total, or playing a secret card from their hand (its
value is added). Whoever brings the total to the target wins. Hands are hidden information, so the
permission tests can check that no view or message leaks the other player's hand.

Like the real engines, its state implements the one game interface (`matches.interface.Game`); the game
kind adds only the storage format and the words.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Self

from matches.games.kind import JSON, GameKind, Player, Result
from matches.games.registry import register

CountingAction = dict[str, Any]  # {"type": "add", "n": 1|2} or {"type": "play", "card": value}


class IllegalCountingAction(ValueError):
    """An action the counting game does not allow now."""


class CountingEnd(Enum):
    TARGET = "reached the target"


@dataclass(frozen=True)
class CountingOutcome:
    winner: int | None
    reason: Enum = CountingEnd.TARGET


class CountingState:
    """The counting game's state (the `Game[int, CountingAction]` interface); its snapshot is a dict."""

    def __init__(
        self, *, total: int, target: int, turn: int, hands: list[list[int]], winner: int | None
    ) -> None:
        self.total, self.target, self.turn, self.hands, self.winner = total, target, turn, hands, winner

    def players(self) -> list[int]:
        return [0, 1]

    def current_players(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    def legal_actions(self, player: int) -> list[CountingAction]:
        if player not in self.current_players():
            return []
        acts: list[CountingAction] = [{"type": "add", "n": 1}, {"type": "add", "n": 2}]
        acts += [{"type": "play", "card": c} for c in sorted(set(self.hands[player]))]
        return acts

    def apply(self, action: CountingAction) -> None:
        if action not in self.legal_actions(self.turn):
            raise IllegalCountingAction(self.explain_illegal(action))
        self.apply_unchecked(action)

    def apply_unchecked(self, action: CountingAction) -> None:
        player = self.turn
        if action["type"] == "add":
            self.total += action["n"]
        else:
            self.hands[player].remove(action["card"])
            self.total += action["card"]
        if self.total >= self.target:
            self.winner = player
        else:
            self.turn = 1 - player

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> CountingOutcome | None:
        return CountingOutcome(self.winner) if self.winner is not None else None

    def clone(self) -> Self:
        return self.from_dict(self.to_dict())

    def player_view(self, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "total": self.total,
            "target": self.target,
            "turn": self.turn,
            "hand_counts": [len(h) for h in self.hands],
        }
        if player is not None:
            view["hand"] = list(self.hands[player])
        return view

    def to_dict(self, *, log: bool = True) -> dict[str, Any]:
        return {
            "total": self.total,
            "target": self.target,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(
            total=data["total"],
            target=data["target"],
            turn=data["turn"],
            hands=[list(h) for h in data["hands"]],
            winner=data["winner"],
        )

    def determinize(self, player: int, rng: random.Random) -> Self:
        return self.clone()  # the other hand's values are drawn at the deal: nothing to resample here

    def secret_action(self, action: CountingAction) -> bool:
        return False

    def decision_step(self) -> tuple[str, int]:
        """Every action closes its own step: the step is named by the running total."""
        return ("ply", self.total)

    def timeout_action(self, player: int) -> CountingAction:
        """Default on timeout: add 1 (always legal)."""
        return {"type": "add", "n": 1}

    def explain_illegal(self, action: CountingAction) -> str:
        if action.get("type") == "play":
            return f"Player {self.turn + 1} has no card worth {action.get('card')} in hand."
        return f"Player {self.turn + 1} may add only 1 or 2."


class CountingGame(GameKind[CountingState, CountingAction]):
    kind = "counting"
    label = "Counting (test game)"

    def new_state(self, *, decks: list[JSON], seed: int, config: JSON) -> CountingState:
        rng = random.Random(seed)
        return CountingState(
            total=0,
            target=int(config.get("target", 10)),
            turn=rng.randrange(2),
            hands=[sorted(rng.randint(1, 3) for _ in range(3)) for _ in range(2)],
            winner=None,
        )

    def load(self, data: JSON) -> CountingState:
        return CountingState.from_dict(data)

    def dump(self, state: CountingState) -> JSON:
        return state.to_dict()

    def action_to_json(self, action: CountingAction) -> JSON:
        return dict(action)

    def action_from_json(self, data: object) -> CountingAction:
        if not isinstance(data, dict) or data.get("type") not in {"add", "play"}:
            raise ValueError("an action is {'type': 'add', 'n': 1|2} or {'type': 'play', 'card': value}")
        if data["type"] == "add":
            return {"type": "add", "n": int(data["n"])}
        return {"type": "play", "card": int(data["card"])}

    def describe(self, state: CountingState, action: CountingAction, viewer: Player | None) -> str:
        who = f"Player {state.turn + 1}"
        if action["type"] == "add":
            return f"{who} adds {action['n']}."
        return f"{who} plays a card worth {action['card']}."

    def illegal_reason(self, state: CountingState, player: Player, action: CountingAction) -> str:
        if action.get("type") == "play":
            return f"Player {player + 1} has no card worth {action.get('card')} in hand."
        return f"Player {player + 1} may add only 1 or 2."

    def outcome(self, state: CountingState) -> Result:
        return Result(winner=state.winner, reason="reached the target")

    def player_view(self, state: CountingState, player: Player | None) -> JSON:
        return state.player_view(player)

    def make_ai(self, agent: str, rng: random.Random) -> None:
        return None  # no agents: `ai_action` picks among the legal actions with the rng


GAME = register(CountingGame())
