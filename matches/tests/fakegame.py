"""A tiny two-player counting game, registered as kind "counting" to prove the online layer is game-agnostic.

Players take turns adding 1 or 2 to a shared total, or playing a secret card from their hand (its
value is added). Whoever brings the total to the target wins. Hands are hidden information, so the
permission tests can check that no view or message leaks the other player's hand.
"""

from __future__ import annotations

import random
from typing import Any

from matches.games import GameKind, Player, Result, register


class IllegalCountingAction(ValueError):
    """An action the counting game does not allow now."""


class CountingGame(GameKind[dict[str, Any], dict[str, Any]]):
    kind = "counting"
    label = "Counting (test game)"

    def new_state(self, *, decks: list[dict[str, Any]], seed: int, config: dict[str, Any]) -> dict[str, Any]:
        rng = random.Random(seed)
        return {
            "total": 0,
            "target": int(config.get("target", 10)),
            "turn": rng.randrange(2),
            "hands": [sorted(rng.randint(1, 3) for _ in range(3)) for _ in range(2)],
            "winner": None,
        }

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "hands": [list(h) for h in data["hands"]]}

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "hands": [list(h) for h in state["hands"]]}

    def current_players(self, state: dict[str, Any]) -> list[Player]:
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state: dict[str, Any], player: Player) -> list[dict[str, Any]]:
        if player not in self.current_players(state):
            return []
        acts: list[dict[str, Any]] = [{"type": "add", "n": 1}, {"type": "add", "n": 2}]
        acts += [{"type": "play", "card": c} for c in sorted(set(state["hands"][player]))]
        return acts

    def action_to_json(self, action: dict[str, Any]) -> dict[str, Any]:
        return dict(action)

    def action_from_json(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or data.get("type") not in {"add", "play"}:
            raise ValueError("an action is {'type': 'add', 'n': 1|2} or {'type': 'play', 'card': value}")
        if data["type"] == "add":
            return {"type": "add", "n": int(data["n"])}
        return {"type": "play", "card": int(data["card"])}

    def describe(self, state: dict[str, Any], action: dict[str, Any], viewer: Player | None) -> str:
        who = f"Player {state['turn'] + 1}"
        if action["type"] == "add":
            return f"{who} adds {action['n']}."
        return f"{who} plays a card worth {action['card']}."

    def illegal_reason(self, state: dict[str, Any], player: Player, action: Any) -> str:
        if action.get("type") == "play":
            return f"Player {player + 1} has no card worth {action.get('card')} in hand."
        return f"Player {player + 1} may add only 1 or 2."

    def apply(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        player = state["turn"]
        if action not in self.legal_actions(state, player):
            raise IllegalCountingAction(self.illegal_reason(state, player, action))
        if action["type"] == "add":
            state["total"] += action["n"]
        else:
            state["hands"][player].remove(action["card"])
            state["total"] += action["card"]
        if state["total"] >= state["target"]:
            state["winner"] = player
        else:
            state["turn"] = 1 - player
        return state

    def is_terminal(self, state: dict[str, Any]) -> bool:
        return state["winner"] is not None

    def outcome(self, state: dict[str, Any]) -> Result:
        return Result(winner=state["winner"], reason="reached the target")

    def player_view(self, state: dict[str, Any], player: Player | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "total": state["total"],
            "target": state["target"],
            "turn": state["turn"],
            "hand_counts": [len(h) for h in state["hands"]],
        }
        if player is not None:
            view["hand"] = list(state["hands"][player])
        return view

    def decision_step(self, state: dict[str, Any]) -> Any:
        """Every action closes its own step: the step is named by the running total."""
        return ("ply", state["total"])

    def timeout_action(self, state: dict[str, Any], player: Player) -> dict[str, Any]:
        """Default on timeout: add 1 (always legal)."""
        return {"type": "add", "n": 1}


GAME = register(CountingGame())
