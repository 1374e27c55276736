"""What every Westeros agent is built with, and the levels' thinking times (the one place for both).

``Cls(rng, budget_s=None, *, iterations=None, opponent_deck_known=True)``: ``budget_s`` None means the
level's ``LEVEL_BUDGET_S``; ``iterations`` replaces the clock by a fixed number of simulations (a
deterministic choice, for tests); ``opponent_deck_known`` is Commandeer's switch, accepted and unused
here (every house's cards are fixed by the game). The play layer's registry (``matches.agents``) reads the budgets here.
"""

from __future__ import annotations

from random import Random

# CPU seconds per decision at weight 1 (`search.KIND_WEIGHT` scales it per kind of decision; forced
# decisions take none). flatmc gets hard's budget: the baseline is compared at equal budget.
LEVEL_BUDGET_S: dict[str, float] = {
    "random": 0.0,
    "greedy": 0.0,
    "easy": 0.0,
    "normal": 0.06,
    "hard": 0.25,
    "flatmc": 0.25,
}


class AgentBase:
    """The constructor every agent shares; an agent's ``name`` picks its default budget."""

    name = "agent"

    def __init__(
        self,
        rng: Random,
        budget_s: float | None = None,
        *,
        iterations: int | None = None,
        opponent_deck_known: bool = True,
    ) -> None:
        self.rng = rng
        self.budget_s = LEVEL_BUDGET_S.get(self.name, 0.0) if budget_s is None else budget_s
        self.iterations = iterations
        self.opponent_deck_known = opponent_deck_known
