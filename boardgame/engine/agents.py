"""Westeros agents: they only ever pick among `legal_actions` (docs/style.md §3), take an injected rng and see the
game only through `Information` (their house's view, legal actions and samples of the hidden parts, W-20).

Levels (`AGENTS`): ``random`` and ``greedy`` (baselines), ``easy`` (greedy with blunders), ``normal`` and
``hard`` (determinized Monte Carlo search, `search.py`), ``flatmc`` (the issue's flat Monte Carlo baseline,
not offered in the lobby). Every class takes ``Cls(rng, budget_s=None, *, iterations=None,
opponent_deck_known=True, params=None)`` (`matches.kit.agentbase`); ``budget_s=None`` means the level's
``params.level_budget_s``, ``params`` the AI's tunables (`ai_params.WesterosAIParams`; None: the defaults).
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING, Protocol

from .actions import Action
from .ai_params import DEFAULT_PARAMS, WesterosAgentBase, WesterosAIParams
from .heuristics import greedy_score
from .information import Information
from .search import FlatMCAgent, NormalAgent, SearchAgent

if TYPE_CHECKING:
    from .game import WesterosState

# The default levels' budgets (read-only; the play layer's registry reads them here) and the most one
# decision may take in level budgets: an order plan gets 2.4 (the registry's overrun check).
LEVEL_BUDGET_S = DEFAULT_PARAMS.level_budget_s
MAX_BUDGET_FACTOR = DEFAULT_PARAMS.max_budget_factor()


class Agent(Protocol):
    def choose(self, state: WesterosState, house: str) -> Action: ...


class RandomAgent(WesterosAgentBase):
    """Uniformly random legal action."""

    name = "random"

    def choose(self, state: WesterosState, player: str) -> Action:
        return self.rng.choice(Information(state, player).legal_actions())


class GreedyAgent(WesterosAgentBase):
    """One-step heuristic (`heuristics.greedy_score`): takes castles, supports itself, bids what it can."""

    name = "greedy"

    def blunder(self) -> float:
        """The share of decisions with a choice played at random (none: easy's is a parameter)."""
        return 0.0

    def choose(self, state: WesterosState, player: str) -> Action:
        info = Information(state, player)
        legal = info.legal_actions()
        if len(legal) == 1:
            return self.rng.choice(legal)  # (the rng stream of the greedy level stays as it always was)
        blunder = self.blunder()
        if blunder and self.rng.random() < blunder:
            return self.rng.choice(legal)
        obs = info.observed()
        g = self.params.greedy
        scored = [(greedy_score(obs, player, a, g), a) for a in legal]
        top = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s >= top - g.tie])


class EasyAgent(GreedyAgent):
    """Greedy with blunders: one decision in four is a random legal action (a beginner can beat it)."""

    name = "easy"

    def blunder(self) -> float:
        return self.params.easy_blunder


AgentClass = (
    type[RandomAgent]
    | type[GreedyAgent]
    | type[EasyAgent]
    | type[SearchAgent]
    | type[NormalAgent]
    | type[FlatMCAgent]
)
AGENTS: dict[str, AgentClass] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "easy": EasyAgent,
    "normal": NormalAgent,
    "hard": SearchAgent,
    "flatmc": FlatMCAgent,
}


def make_agent(
    name: str,
    rng: Random,
    budget_s: float | None = None,
    *,
    iterations: int | None = None,
    params: WesterosAIParams | None = None,
) -> RandomAgent | GreedyAgent | SearchAgent | FlatMCAgent:
    """Agent by level name (see `AGENTS`), with the AI's tunables ``params`` (None: the defaults)."""
    try:
        cls = AGENTS[name]
    except KeyError as exc:
        raise ValueError(f"unknown agent {name!r}; choose from {sorted(AGENTS)}") from exc
    return cls(rng, budget_s, iterations=iterations, params=params)
