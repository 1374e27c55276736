"""Seeded games between AI levels for the strength benchmark (`bench/ai_strength.py`).

One game of a match-up (`matches.kit.arena.MATCHUPS`): ONE house of the subject level against FIVE houses
of the opponent level, on a 6-player board. Game `index` seats the subject in house ``houses[index % 6]``
on the deal of seed ``seed + index // 6``, so every seat is taken in turn on the same deals. Budgets are the
levels' ``params.level_budget_s`` times `budget_scale` (`matches.kit.arena.bench_budget`: flatmc plays with
hard's, the baseline at equal budget); every agent gets ``params``; the event log is off.
"""

from __future__ import annotations

from random import Random
from typing import Any

from matches.kit.arena import MATCHUPS, bench_budget, play_out

from .agents import AGENTS
from .ai_params import DEFAULT_PARAMS, WesterosAIParams
from .config import RulesConfig
from .data import GameData, load_default_game_data
from .game import new_game

_DATA: GameData | None = None


def _data() -> GameData:
    global _DATA
    if _DATA is None:
        _DATA = load_default_game_data()
    return _DATA


def level_budget(name: str, budget_scale: float, params: WesterosAIParams = DEFAULT_PARAMS) -> float:
    """A level's budget in the arena: flatmc gets hard's (equal budget)."""
    return bench_budget(name, params.level_budget_s, budget_scale)


def play_one(
    subject: str,
    opponent: str,
    index: int,
    seed: int,
    budget_scale: float,
    *,
    config: RulesConfig | None = None,
    params: WesterosAIParams = DEFAULT_PARAMS,
) -> dict[str, Any]:
    """Play one seeded game (see the module text); the subject's wall milliseconds per decision."""
    cfg = config or RulesConfig(event_log=False)
    st = new_game(_data(), player_count=6, seed=seed + index // 6, config=cfg)
    houses = list(st.houses)
    me = houses[index % 6]
    base = (seed + index // 6) * 1_000_003 + index % 6
    agents = {
        h: AGENTS[subject if h == me else opponent](
            Random(base * 31 + i),
            level_budget(subject if h == me else opponent, budget_scale, params),
            params=params,
        )
        for i, h in enumerate(houses)
    }
    times = play_out(st, lambda p: agents[p].choose(st, p), me)
    return {
        "score": 1.0 if st.winner == me else 0.0,
        "decision_ms": times,
        "label": me,
        "winner_label": st.winner,
        "rounds": st.round,
    }


__all__ = ["MATCHUPS", "level_budget", "play_one"]
