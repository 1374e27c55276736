"""The Commandeer arena of the AI strength bench (``bench/ai_strength.py``): named match-ups and one
seeded game of one.

``index`` rotates the starter deck pairs (``decks.default_decks``) and swaps seats (the subject sits in
seat ``index % 2``); budgets are ``LEVEL_BUDGET_S[level] * budget_scale`` (``flatmc`` gets ``hard``'s
budget: equal budget). Pure Python, no Django.
"""

from __future__ import annotations

import time
from random import Random
from typing import Any

from .agents import AGENTS, LEVEL_BUDGET_S, Agent
from .decks import SAMPLE_CARDS_RELATIVE, default_decks
from .setup import new_match

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


def budget_of(level: str, scale: float) -> float:
    """CPU seconds per searched decision of ``level`` in the bench (flatmc: hard's, for equal budgets)."""
    return LEVEL_BUDGET_S["hard" if level == "flatmc" else level] * scale


def play_one(subject: str, opponent: str, index: int, seed: int, budget_scale: float) -> dict[str, Any]:
    """Play one seeded game; the subject's score (1 win, 1/2 draw, 0 loss) and its decision wall times."""
    decks = sorted(default_decks().items())
    if len(decks) < 2:
        raise ValueError(f"no starter decks: {SAMPLE_CARDS_RELATIVE} is missing")
    n = len(decks)
    pair = index // 2  # both seatings of one deck pair are consecutive games
    a, b = decks[pair % n], decks[(pair + 1 + pair // n) % n]
    game_seed = seed * 1_000_003 + pair
    seat = index % 2
    names = [subject, opponent] if seat == 0 else [opponent, subject]
    labels = [a[0], b[0]]
    g = new_match(a[1], b[1], seed=game_seed)
    agents: list[Agent] = [
        AGENTS[names[p]](Random(game_seed * 4 + 2 * p + (p == seat)), budget_of(names[p], budget_scale))
        for p in (0, 1)
    ]
    times: list[float] = []
    while not g.is_terminal():
        p = g.current_players()[0]
        t0 = time.perf_counter()
        action = agents[p].choose(g, p)
        if p == seat:
            times.append((time.perf_counter() - t0) * 1000.0)
        g.apply_unchecked(action)
    out = g.outcome()
    assert out is not None
    score = 0.5 if out.winner is None else (1.0 if out.winner == seat else 0.0)
    return {
        "score": score,
        "decision_ms": times,
        "label": labels[seat],
        "winner_label": None if out.winner is None else labels[out.winner],
    }


__all__ = ["MATCHUPS", "budget_of", "play_one"]
