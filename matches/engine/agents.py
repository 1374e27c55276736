"""Bots for Commandeer, by level: ``random`` and ``greedy`` (baselines), ``easy``, ``normal``, ``hard``, and
``flatmc`` (the flat Monte Carlo baseline of the strength bench, not offered in the lobby).

Every agent sees the match only through ``information.Information`` (C-8): its view, its own legal
actions and determinized samples. Agents take an injected ``rng`` (docs/style.md 1), choose only legal
actions and never concede. Constructor of every level (``matches.kit.agentbase``):
``Cls(rng, budget_s=None, *, iterations=None, opponent_deck_known=True, params=None)``; ``budget_s=None`` is
the level's default from ``params.level_budget_s`` (CPU seconds per searched decision), ``iterations`` a
fixed number of simulations instead of a clock (deterministic choices, tests), ``params`` the AI's
tunables (``ai_params.CommandeerAIParams``; None: the defaults).
"""

from __future__ import annotations

from random import Random

from .actions import Action, Concede
from .ai_params import DEFAULT_PARAMS, CommandeerAgentBase, CommandeerAIParams
from .information import Information
from .policy import evaluate, greedy_choice
from .results import Reason
from .search import FlatMCAgent, PlanSearchAgent
from .state import GameState

# The default levels' budgets (read-only; the play layer's registry reads them here).
LEVEL_BUDGET_S = DEFAULT_PARAMS.level_budget_s


class RandomAgent(CommandeerAgentBase):
    """Uniformly random among the legal actions (concession excluded)."""

    name = "random"

    def choose(self, state: GameState, player: int) -> Action:
        acts = Information(state, player, opponent_deck_known=self.opponent_deck_known).legal_actions()
        return acts[self.rng.randrange(len(acts))] if acts else Concede(player)


class GreedyAgent(CommandeerAgentBase):
    """One-ply heuristic (``policy.greedy_choice``) on a determinized sample of the match: defeat units,
    place safely (no edges, out of enemy arrows), spend CP well."""

    name = "greedy"

    def blunder(self) -> float:
        """The share of decisions with a choice played at random (none: easy's is a parameter)."""
        return 0.0

    def choose(self, state: GameState, player: int) -> Action:
        info = Information(state, player, opponent_deck_known=self.opponent_deck_known)
        acts = info.legal_actions()
        if not acts:
            return Concede(player)
        if len(acts) == 1:
            return acts[0]
        world = info.determinize(self.rng)
        blunder = self.blunder()
        if blunder and self.rng.random() < blunder:
            choice = acts[self.rng.randrange(len(acts))]
        else:
            choice = greedy_choice(world, player, acts, self.rng, self.params.policy)
        return (
            choice if not loses_at_once(world, player, choice) else not_losing(world, player, acts, self.rng)
        )


def loses_at_once(world: GameState, player: int, action: Action) -> bool:
    """True when ``action`` ends the match with ``player`` losing: the result is checked after every action
    (C-6.3), so ending Planning with no unit on the battlefield (C-6.2) or taking a sixth Defeated card
    (C-6.1) loses on the spot. Asked of a determinized ``world`` (C-8), never the real match."""
    after = world.clone()
    after.event_log = False
    after.apply_unchecked(action)
    out = after.outcome_
    return out is not None and out.winner is not None and out.winner != player


def keep_in_the_match(agent: PlanSearchAgent, state: GameState, player: int, action: Action) -> Action:
    """A searching level's ``action``, unless it loses at once while another legal action does not (C-6.2;
    C-6.1: a move to an edge square that defeats the unit for a sixth Defeated card): then a random one of
    those. The search scores such a loss as lost, but a small budget may never look at the alternatives."""
    if isinstance(action, Concede):
        return action
    info = Information(state, player, opponent_deck_known=agent.opponent_deck_known)
    acts = info.legal_actions()
    if len(acts) < 2:
        return action
    world = info.determinize(agent.rng)
    return action if not loses_at_once(world, player, action) else not_losing(world, player, acts, agent.rng)


def not_losing(world: GameState, player: int, acts: list[Action], rng: Random) -> Action:
    """A random one of ``acts`` that does not lose at once; the first of them when every one does. A weak
    player may blunder, but never throws the match away when it need not (C-6.2)."""
    safe = [a for a in acts if not loses_at_once(world, player, a)]
    return safe[rng.randrange(len(safe))] if safe else acts[0]


class EasyAgent(GreedyAgent):
    """A beginner's opponent: greedy, but a third of its decisions (when it has a choice) are random."""

    name = "easy"

    def blunder(self) -> float:
        return self.params.easy_blunder


class NormalAgent(PlanSearchAgent):
    """The turn-plan search with a small budget and a greedy opponent model (one reply per simulation:
    ``CommandeerAIParams.normal``)."""

    name = "normal"

    def choose(self, state: GameState, player: int) -> Action:
        return keep_in_the_match(self, state, player, super().choose(state, player))


class HardAgent(PlanSearchAgent):
    """Each decision searched on its own (``PlanSearchAgent._search_actions``): every legal action on the same
    fresh determinized worlds, sequential halving, the opponent replying by the best of two sampled turns
    (greedy and noisy greedy), then our next turn played greedily (``own_turn_after``), scored by
    ``evaluate_position``. No turn plan is kept (``CommandeerAIParams.hard``)."""

    name = "hard"

    def choose(self, state: GameState, player: int) -> Action:
        return keep_in_the_match(self, state, player, super().choose(state, player))


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
    params: CommandeerAIParams | None = None,
) -> Agent:
    """Agent by level name (see ``AGENTS``), with the AI's tunables ``params`` (None: the defaults)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None
    return cls(rng, budget_s, iterations=iterations, opponent_deck_known=opponent_deck_known, params=params)


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
    "DEFAULT_PARAMS",
    "LEVEL_BUDGET_S",
    "LOBBY_LEVELS",
    "Agent",
    "CommandeerAIParams",
    "EasyAgent",
    "FlatMCAgent",
    "GreedyAgent",
    "HardAgent",
    "NormalAgent",
    "RandomAgent",
    "Reason",
    "evaluate",
    "keep_in_the_match",
    "loses_at_once",
    "make_agent",
    "not_losing",
    "play_match",
]
