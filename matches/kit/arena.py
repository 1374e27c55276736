"""The arena both engines' strength benches share (``bench/ai_strength.py``): the named match-ups, the
budget of a level in the bench and the loop that plays a seeded game out, timing the subject's decisions.

Each engine's ``arena.py`` keeps only what is its own game: how a seeded game of index ``i`` is dealt and
seated, and how the result is scored. Pure Python, no Django.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TypeVar

from matches.interface import Game

# Subject level, opponent level. The same names in both games; an engine may offer fewer.
MATCHUPS: dict[str, tuple[str, str]] = {
    "easy vs greedy": ("easy", "greedy"),
    "normal vs greedy": ("normal", "greedy"),
    "hard vs greedy": ("hard", "greedy"),
    "easy vs random": ("easy", "random"),
    "normal vs random": ("normal", "random"),
    "hard vs random": ("hard", "random"),
    "hard vs normal": ("hard", "normal"),
    "hard vs flatmc": ("hard", "flatmc"),
    "flatmc vs greedy": ("flatmc", "greedy"),
    "hard vs hard": ("hard", "hard"),
}

P = TypeVar("P")
A = TypeVar("A")


def bench_budget(level: str, level_budget_s: Mapping[str, float], scale: float) -> float:
    """CPU seconds per decision of ``level`` in the bench: its budget times ``scale``; ``flatmc`` gets
    ``hard``'s, so the baseline is compared at equal budget."""
    return level_budget_s.get("hard" if level == "flatmc" else level, 0.0) * scale


def play_out(state: Game[P, A], choose: Callable[[P], A], subject: P) -> list[float]:
    """Play ``state`` to the end, the first current player choosing with ``choose(player)``; the wall
    milliseconds of each decision of ``subject``."""
    times: list[float] = []
    while not state.is_terminal():
        p = state.current_players()[0]
        t0 = time.perf_counter()
        action = choose(p)
        if p == subject:
            times.append((time.perf_counter() - t0) * 1000.0)
        state.apply_unchecked(action)
    return times


__all__ = ["MATCHUPS", "bench_budget", "play_out"]
