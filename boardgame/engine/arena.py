"""Seeded games between AI levels for the strength benchmark (`bench/ai_strength.py`).

One game: ONE house of the subject level against FIVE houses of the opponent level, on a 6-player board.
Game `index` seats the subject in house ``houses[index % 6]`` on the deal of seed ``seed + index // 6``, so
every seat is taken in turn on the same deals. Budgets are the levels' `LEVEL_BUDGET_S` times
`budget_scale` (flatmc plays with hard's: the baseline at equal budget); the event log is off.
"""

from __future__ import annotations

import time
from random import Random
from typing import Any

from .agents import AGENTS, LEVEL_BUDGET_S
from .config import RulesConfig
from .data import GameData, load_default_game_data
from .game import new_game

MATCHUPS: dict[str, tuple[str, str]] = {
    "easy vs greedy": ("easy", "greedy"),
    "normal vs greedy": ("normal", "greedy"),
    "hard vs greedy": ("hard", "greedy"),
    "easy vs random": ("easy", "random"),
    "normal vs random": ("normal", "random"),
    "hard vs random": ("hard", "random"),
    "hard vs normal": ("hard", "normal"),
    "hard vs flatmc": ("hard", "flatmc"),
    "hard vs hard": ("hard", "hard"),
    "flatmc vs greedy": ("flatmc", "greedy"),  # calibration: the issue measured 23 of 30 at 0.05 s
}

_DATA: GameData | None = None


def _data() -> GameData:
    global _DATA
    if _DATA is None:
        _DATA = load_default_game_data()
    return _DATA


def level_budget(name: str, budget_scale: float) -> float:
    """A level's budget in the arena: flatmc gets hard's (equal budget)."""
    return LEVEL_BUDGET_S["hard" if name == "flatmc" else name] * budget_scale


def play_one(
    subject: str,
    opponent: str,
    index: int,
    seed: int,
    budget_scale: float,
    *,
    config: RulesConfig | None = None,
) -> dict[str, Any]:
    """Play one seeded game (see the module text); the subject's wall milliseconds per decision."""
    cfg = config or RulesConfig(event_log=False)
    st = new_game(_data(), player_count=6, seed=seed + index // 6, config=cfg)
    houses = list(st.houses)
    me = houses[index % 6]
    base = (seed + index // 6) * 1_000_003 + index % 6
    agents = {
        h: AGENTS[subject if h == me else opponent](
            Random(base * 31 + i), level_budget(subject if h == me else opponent, budget_scale)
        )
        for i, h in enumerate(houses)
    }
    times: list[float] = []
    while not st.is_terminal():
        p = st.current_players()[0]
        if p == me:
            t = time.perf_counter()
            a = agents[p].choose(st, p)
            times.append((time.perf_counter() - t) * 1000.0)
        else:
            a = agents[p].choose(st, p)
        st.apply_unchecked(a)
    return {
        "score": 1.0 if st.winner == me else 0.0,
        "decision_ms": times,
        "label": me,
        "winner_label": st.winner,
        "rounds": st.round,
    }
