"""Batch simulation of Westeros games between agents (used by `manage.py simulate westeros`)."""

from __future__ import annotations

import time
from random import Random
from typing import Any

from .agents import make_agent
from .config import RulesConfig
from .data import GameData, load_default_game_data
from .game import new_game


def play_game(
    data: GameData, players: int, seed: int, agents: list[str], config: RulesConfig | None = None
) -> tuple[Any, int]:
    """Play one game to the end; returns (final state, decisions made)."""
    st = new_game(data, player_count=players, seed=seed, config=config)
    rng = Random(seed * 7919 + 13)
    seat = {h: make_agent(agents[i % len(agents)], Random(rng.random())) for i, h in enumerate(st.houses)}
    n = 0
    while not st.is_terminal():
        p = st.current_players()[0]
        st.apply_unchecked(seat[p].choose(st, p))
        n += 1
    return st, n


def run(players: int, games: int, seed: int, agents: list[str] | None = None) -> dict[str, Any]:
    """Play `games` seeded games with `players` houses; agents are assigned to houses in turn."""
    agents = agents or ["random"]
    data = load_default_game_data()
    config = RulesConfig(event_log=False)
    winners: dict[str, int] = {}
    endings: dict[str, int] = {}
    rounds = 0
    decisions = 0
    t0 = time.perf_counter()
    for g in range(games):
        st, n = play_game(data, players, seed + g, agents, config)
        out = st.outcome()
        assert out is not None
        winners[out.winner] = winners.get(out.winner, 0) + 1
        endings[out.reason.value] = endings.get(out.reason.value, 0) + 1
        rounds += st.round
        decisions += n
    secs = time.perf_counter() - t0
    return {
        "game": "westeros",
        "players": players,
        "games": games,
        "agents": agents,
        "winners": winners,
        "average_rounds": rounds / games if games else 0.0,
        "endings": endings,
        "decisions": decisions,
        "seconds": round(secs, 3),
        "decisions_per_second": round(decisions / secs, 1) if secs else 0.0,
    }
