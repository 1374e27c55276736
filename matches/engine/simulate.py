"""Seeded agent-vs-agent simulations for Commandeer (used by ``manage.py simulate`` and the bench)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from .agents import make_agent
from .config import RulesConfig
from .decks import SAMPLE_CARDS_RELATIVE, default_decks
from .setup import new_match


def run(
    games: int,
    seed: int,
    agents: Sequence[str],
    decks: Sequence[dict[str, Any]] | None = None,
    config: RulesConfig | None = None,
) -> dict[str, Any]:
    """Play ``games`` matches; agent seats alternate and deck pairs rotate. Returns a JSON-ready summary."""
    if len(agents) != 2:
        raise ValueError("commandeer needs exactly two agents, e.g. random,greedy")
    for name in agents:
        make_agent(name, Random(0))  # validates the names early
    if decks is None:
        pool = list(default_decks().values())
        if not pool:
            raise ValueError(f"no decks: {SAMPLE_CARDS_RELATIVE} is missing; pass --decks FILE FILE")
    else:
        pool = list(decks)
    labels = list(agents) if agents[0] != agents[1] else [f"{agents[0]}_a", f"{agents[1]}_b"]
    wins = Counter({label: 0 for label in labels})
    reasons: Counter[str] = Counter()
    draws = turns = actions = 0
    start = time.perf_counter()
    for i in range(games):
        if decks is None:
            n = len(pool)
            pair = (pool[i % n], pool[(i // n + i + 1) % n])
        else:
            pair = (pool[0], pool[1 % len(pool)])
        s = seed * 100003 + i
        g = new_match(pair[0], pair[1], seed=s, config=config)
        seat_of_first = i % 2  # agents[0] sits in seat 0 on even games, seat 1 on odd games
        seats = [0, 1] if seat_of_first == 0 else [1, 0]
        bots = [make_agent(agents[seats[p]], Random(s * 2 + p)) for p in (0, 1)]
        n_actions = 0
        while not g.is_terminal():
            p = g.current_players()[0]
            g.apply_unchecked(bots[p].choose(g, p))
            n_actions += 1
        out = g.outcome()
        assert out is not None
        reasons[out.reason.value] += 1
        if out.winner is None:
            draws += 1
        else:
            wins[labels[seats[out.winner]]] += 1
        turns += g.turn
        actions += n_actions
    seconds = time.perf_counter() - start
    return {
        "game": "commandeer",
        "games": games,
        "seed": seed,
        "agents": list(agents),
        "wins": dict(wins),
        "draws": draws,
        "reasons": dict(reasons),
        "average_turns": round(turns / games, 2) if games else 0.0,
        "average_actions": round(actions / games, 2) if games else 0.0,
        "actions_per_second": round(actions / seconds, 1) if seconds > 0 else 0.0,
        "seconds": round(seconds, 3),
    }
