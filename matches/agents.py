"""The AI agents of both games: one registry of names, one way to make an agent.

The lobby's choices, the Celery AI task (through the adapters), the AI seats that take over a seat and
the simulate command all take their names from here. Each engine keeps its own agent classes
(`matches.engine.agents`, `boardgame.engine.agents`); this module only names and builds them.
"""

from __future__ import annotations

from random import Random
from typing import Any

AGENT_NAMES = ("greedy", "random")  # the order the lobby offers them in; the first is the default
DEFAULT_AGENT = AGENT_NAMES[0]
TAKEOVER_AGENT = "greedy"  # the AI that takes over a seat whose player conceded or is gone (3+ seats)


def _engine_agents(kind: str) -> dict[str, Any]:
    if kind == "commandeer":
        from matches.engine.agents import AGENTS
    elif kind == "westeros":
        from boardgame.engine.agents import AGENTS
    else:
        raise ValueError(f"no AI agents for game kind {kind!r}")
    return dict(AGENTS)


def make_agent(kind: str, name: str, rng: Random, budget_s: float | None = None) -> Any:
    """The agent `name` of game `kind`, choosing with `rng` (ValueError naming the agents on offer).

    `budget_s` is the thinking time of searching agents; today's agents answer at once and ignore it.
    """
    if name not in AGENT_NAMES:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(AGENT_NAMES)}")
    return _engine_agents(kind)[name](rng)
