"""What an agent may know (W-20): its house's view, its legal actions and samples of the hidden parts.

Agents never hold the full state. `Information(state, house)` is all an agent's decision code gets: the
house's `player_view`, its own `legal_actions` and `determinize` samples (full states it cannot tell from
the real one, drawn canonically: `hidden.determinize`). Whatever an agent computes from these depends
only on what the house can know and on the agent's rng, so the same agent with the same seed chooses
the same action in every state the house cannot tell apart (tested in tests/test_ai.py).
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING, Any

from .actions import Action, RemoveOrder, ReopenOrders

if TYPE_CHECKING:
    from .game import WesterosState

# A fixed stream for `observed()`: the public sample must not depend on the agent's rng draws.
_OBSERVED_SEED = 0x5EED


class Information:
    """The game as `house` sees it; the real state stays private to this object."""

    __slots__ = ("_legal", "_observed", "_state", "_view", "house")

    def __init__(self, state: WesterosState, house: str) -> None:
        self._state = state
        self.house = house
        self._view: dict[str, Any] | None = None
        self._legal: list[Action] | None = None
        self._observed: WesterosState | None = None

    def view(self) -> dict[str, Any]:
        """`player_view(house)` (computed once)."""
        if self._view is None:
            self._view = self._state.player_view(self.house)
        return self._view

    def legal_actions(self) -> list[Action]:
        """The house's own legal actions (they depend only on what it knows, W-20), less the take-backs of
        placed orders and of Ready (W-5.1 `RemoveOrder`, `ReopenOrders`): an agent places a searched plan in
        one go and never rearranges it, so an agent's choices are the same as before take-backs existed."""
        if self._legal is None:
            self._legal = [
                a
                for a in self._state.legal_actions(self.house)
                if not isinstance(a, RemoveOrder | ReopenOrders)
            ]
        return list(self._legal)

    def determinize(self, rng: Random) -> WesterosState:
        """A full state the house cannot tell from the real one, hidden parts drawn from `rng`."""
        return self._state.determinize(self.house, rng)

    def observed(self) -> WesterosState:
        """One fixed sample (`determinize` with a constant seed): a full state whose every hidden part is
        a canonical guess. For heuristics that read the board's public parts through state methods
        (control, castle counts, revealed orders); never mutate it."""
        if self._observed is None:
            self._observed = self._state.determinize(self.house, Random(_OBSERVED_SEED))
        return self._observed

    def key(self) -> tuple[Any, ...]:
        """A fingerprint of what the house knows now (round, step, decisions made, own orders)."""
        v = self.view()
        own = tuple(sorted((a, t) for a, (h, t) in v["orders"].items() if h == self.house and t is not None))
        return (v["round"], v["phase"], v["step"], own)
