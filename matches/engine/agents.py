"""Bots for Commandeer, by level: ``random`` and ``greedy`` (baselines), ``easy``, ``normal``, ``hard``, and
``flatmc`` (the flat Monte Carlo baseline of the strength bench, not offered in the lobby).

Every agent sees the match only through ``information.Information`` (C-8): its view, its own legal
actions and determinized samples. Agents take an injected ``rng`` (STYLE.md §1), choose only legal
actions and never concede. Constructor of every level:
``Cls(rng, budget_s=None, *, iterations=None, opponent_deck_known=True)``; ``budget_s=None`` is the level's
default from ``LEVEL_BUDGET_S`` (CPU seconds per searched decision), ``iterations`` a fixed number of
simulations instead of a clock (deterministic choices, tests).
"""

from __future__ import annotations

from random import Random

from .actions import Action, Concede
from .agentbase import LEVEL_BUDGET_S, AgentBase
from .information import Information
from .policy import evaluate, greedy_choice
from .results import Reason
from .search import FlatMCAgent, PlanSearchAgent
from .state import GameState


class RandomAgent(AgentBase):
    """Uniformly random among the legal actions (concession excluded)."""

    name = "random"

    def choose(self, state: GameState, player: int) -> Action:
        acts = Information(state, player, opponent_deck_known=self.opponent_deck_known).legal_actions()
        return acts[self.rng.randrange(len(acts))] if acts else Concede(player)


class GreedyAgent(AgentBase):
    """One-ply heuristic (``policy.greedy_choice``) on a determinized sample of the match: defeat units,
    place safely (no edges, out of enemy arrows), spend CP well."""

    name = "greedy"
    blunder = 0.0  # the share of decisions with a choice played at random (easy)

    def choose(self, state: GameState, player: int) -> Action:
        info = Information(state, player, opponent_deck_known=self.opponent_deck_known)
        acts = info.legal_actions()
        if not acts:
            return Concede(player)
        if len(acts) == 1:
            return acts[0]
        if self.blunder and self.rng.random() < self.blunder:
            return acts[self.rng.randrange(len(acts))]
        return greedy_choice(info.determinize(self.rng), player, acts, self.rng)


class EasyAgent(GreedyAgent):
    """A beginner's opponent: greedy, but a third of its decisions (when it has a choice) are random."""

    name = "easy"
    blunder = 0.35


class NormalAgent(PlanSearchAgent):
    """The turn-plan search with a small budget and a greedy opponent model (one reply per simulation)."""

    name = "normal"
    replies = 1


class HardAgent(PlanSearchAgent):
    """Each decision searched on its own (``PlanSearchAgent._search_actions``): every legal action on the same
    fresh determinized worlds, sequential halving, the opponent replying by the best of two sampled turns
    (greedy and noisy greedy), then our next turn played greedily (``own_turn_after``), scored by
    ``evaluate_position``. No turn plan is kept."""

    name = "hard"
    replies = 2
    per_action = True
    own_turn_after = True


Agent = RandomAgent | GreedyAgent | EasyAgent | NormalAgent | HardAgent | FlatMCAgent
AGENTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "easy": EasyAgent,
    "normal": NormalAgent,
    "hard": HardAgent,
    "flatmc": FlatMCAgent,
}
LOBBY_LEVELS = ("easy", "normal", "hard")  # flatmc, random and greedy are benchmarks


def make_agent(
    name: str,
    rng: Random,
    budget_s: float | None = None,
    *,
    iterations: int | None = None,
    opponent_deck_known: bool = True,
) -> Agent:
    """Agent by level name (see ``AGENTS``)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None
    return cls(rng, budget_s, iterations=iterations, opponent_deck_known=opponent_deck_known)


def play_match(state: GameState, agents: list[Agent], *, max_actions: int = 100000) -> int:
    """Play to the end with agents[player]; returns the number of actions applied."""
    n = 0
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply_unchecked(agents[p].choose(state, p))
        n += 1
        if n >= max_actions:
            raise RuntimeError("match did not terminate")
    return n


__all__ = [
    "AGENTS",
    "LEVEL_BUDGET_S",
    "LOBBY_LEVELS",
    "Agent",
    "EasyAgent",
    "FlatMCAgent",
    "GreedyAgent",
    "HardAgent",
    "NormalAgent",
    "RandomAgent",
    "Reason",
    "evaluate",
    "make_agent",
    "play_match",
]
