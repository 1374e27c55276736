"""The AI agents of both games: one registry of names, one way to make an agent.

The lobby's choices, the Celery AI task (through the adapters), the AI seats that take over a seat, the
simulate command, the benchmarks and the tests all take their names from here. Each engine keeps its own
agent classes and their default thinking times (`AGENTS` and `LEVEL_BUDGET_S` in `matches.engine.agents`
and `boardgame.engine.agents`); this module only names, scales and builds them.
"""

from __future__ import annotations

from random import Random
from types import ModuleType
from typing import Any

from boardgame.engine import agents as westeros_agents
from matches.engine import agents as commandeer_agents

LEVELS = ("easy", "normal", "hard")  # offered in the lobby, in this order
LEVEL_DESCRIPTIONS = {
    "easy": "Easy — for learning the game",
    "normal": "Normal — a fair opponent",
    "hard": "Hard — searches ~{budget} per move",
}
BASELINE_DESCRIPTIONS = {
    "random": "baseline: a uniformly random legal action",
    "greedy": "baseline: one-ply greedy, answers at once",
    "flatmc": "baseline: flat Monte Carlo (benchmarks)",
}
# Accepted by the API and simulate (tests, benchmarks), never offered in the lobby.
BASELINES = ("random", "greedy", "flatmc")
INSTANT = ("random", "greedy")  # answer at once: no budget, no iterations
AGENT_NAMES = LEVELS + BASELINES  # every name a seat may hold (matches stored with "greedy" keep working)
DEFAULT_AGENT = "normal"  # the lobby's default level
TAKEOVER_AGENT = "normal"  # the AI that takes over a seat whose player conceded or is gone (3+ seats)
FALLBACK_AGENT = "greedy"  # answers at once: the move of a decision whose search failed or ran out of time
GAME_KINDS = ("commandeer", "westeros")

AI_BUDGET_SCALE_BOUNDS = (0.01, 10.0)  # settings.AI_BUDGET_SCALE is clamped into this range


def _engine_module(kind: str) -> ModuleType:
    if kind == "commandeer":
        return commandeer_agents
    if kind == "westeros":
        return westeros_agents
    raise ValueError(f"no AI agents for game kind {kind!r}; choose one of {', '.join(GAME_KINDS)}")


def _engine_agents(kind: str) -> dict[str, Any]:
    return dict(_engine_module(kind).AGENTS)


def budget_scale() -> float:
    """settings.AI_BUDGET_SCALE (1.0 without Django settings), clamped into AI_BUDGET_SCALE_BOUNDS."""
    try:
        from django.conf import settings

        scale = float(getattr(settings, "AI_BUDGET_SCALE", 1.0))
    except Exception:  # no Django settings configured (engine scripts): unscaled
        scale = 1.0
    low, high = AI_BUDGET_SCALE_BOUNDS
    return min(max(scale, low), high)


def opponent_decklist_known() -> bool:
    """settings.AI_OPPONENT_DECKLIST_KNOWN (True without Django settings)."""
    try:
        from django.conf import settings

        return bool(getattr(settings, "AI_OPPONENT_DECKLIST_KNOWN", True))
    except Exception:
        return True


def level_budget_s(kind: str, name: str) -> float | None:
    """The engine's default thinking time of agent `name` times AI_BUDGET_SCALE; None for agents that
    answer at once (none or 0 in the engine's LEVEL_BUDGET_S)."""
    base = getattr(_engine_module(kind), "LEVEL_BUDGET_S", {}).get(name)
    return None if not base else float(base) * budget_scale()


def max_budget_factor(kind: str) -> float:
    """How many level budgets one decision may take in this game (Westeros spends more on an order plan)."""
    return float(getattr(_engine_module(kind), "MAX_BUDGET_FACTOR", 1.0))


def check_name(name: str) -> str:
    """`name` when it is an agent name, else ValueError naming the agents on offer."""
    if name not in AGENT_NAMES:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(AGENT_NAMES)}")
    return name


def make_agent(
    kind: str,
    name: str,
    rng: Random,
    budget_s: float | None = None,
    *,
    iterations: int | None = None,
    opponent_deck_known: bool | None = None,
) -> Any:
    """The agent `name` of game `kind`, choosing with `rng` (ValueError naming the agents on offer).

    `budget_s` None: the level's default (`level_budget_s`, scaled by AI_BUDGET_SCALE). `iterations` makes
    a searching agent's choice deterministic (a fixed number of iterations instead of time).
    `opponent_deck_known` None: settings.AI_OPPONENT_DECKLIST_KNOWN. The INSTANT baselines are built as
    `Cls(rng)`; the searching agents get the budget and only the options that differ from their defaults.
    """
    check_name(name)
    agents = _engine_agents(kind)
    if name not in agents:
        raise ValueError(f"the {kind} engine has no agent {name!r} (it has {', '.join(sorted(agents))})")
    if budget_s is None:
        budget_s = level_budget_s(kind, name)
    elif not 0 < budget_s <= 600:
        raise ValueError(f"budget_s must be in (0, 600] seconds, not {budget_s}")
    if iterations is not None and not 1 <= iterations <= 1_000_000:
        raise ValueError(f"iterations must be in [1, 1000000], not {iterations}")
    known = opponent_decklist_known() if opponent_deck_known is None else opponent_deck_known
    if name in INSTANT:
        return agents[name](rng)  # nothing to search, no information set to sample
    kwargs: dict[str, Any] = {}
    if iterations is not None:
        kwargs["iterations"] = iterations
    if not known:
        kwargs["opponent_deck_known"] = False
    if budget_s is None:
        return agents[name](rng, **kwargs)
    return agents[name](rng, budget_s, **kwargs)


def level_choices(kind: str = "commandeer") -> list[tuple[str, str]]:
    """(name, one-line description) of the lobby's levels, the search time (scaled) read from the engine."""
    out = []
    for name in LEVELS:
        try:
            budget = level_budget_s(kind, name)
        except ValueError:
            budget = None
        if budget is None:
            text = LEVEL_DESCRIPTIONS[name].replace("~{budget}", "longest")
        else:
            shown = f"{budget:.2g} s" if budget >= 0.1 else f"{budget * 1000:.0f} ms"
            text = LEVEL_DESCRIPTIONS[name].format(budget=shown)
        out.append((name, text))
    return out


def agent_choices() -> list[tuple[str, str]]:
    """(name, label) of every agent name, for the API's schema (the levels' search time left out)."""
    hard = LEVEL_DESCRIPTIONS["hard"].replace("~{budget}", "longest")
    labels = {**LEVEL_DESCRIPTIONS, "hard": hard, **BASELINE_DESCRIPTIONS}
    return [(name, labels[name]) for name in AGENT_NAMES]
