"""The Commandeer arena of the AI strength bench (``bench/ai_strength.py``): one seeded game of a match-up
(``matches.kit.arena.MATCHUPS``).

``index`` rotates the starter deck pairs (``decks.default_decks``) and swaps seats (the subject sits in
seat ``index % 2``); budgets are the level's ``params.level_budget_s`` times ``budget_scale``
(``matches.kit.arena.bench_budget``: ``flatmc`` gets ``hard``'s). Pure Python, no Django.
"""

from __future__ import annotations

from random import Random
from typing import Any

from matches.kit.arena import MATCHUPS, bench_budget, play_out

from .agents import AGENTS, Agent
from .ai_params import DEFAULT_PARAMS, CommandeerAIParams
from .decks import SAMPLE_CARDS_RELATIVE, default_decks
from .setup import new_match


def budget_of(level: str, scale: float, params: CommandeerAIParams = DEFAULT_PARAMS) -> float:
    """CPU seconds per searched decision of ``level`` in the bench (flatmc: hard's, for equal budgets)."""
    return bench_budget(level, params.level_budget_s, scale)


def play_one(
    subject: str,
    opponent: str,
    index: int,
    seed: int,
    budget_scale: float,
    *,
    params: CommandeerAIParams = DEFAULT_PARAMS,
    opponent_budget_factor: float = 1.0,
    subject_params: CommandeerAIParams | None = None,
) -> dict[str, Any]:
    """Play one seeded game; the subject's score (1 win, 1/2 draw, 0 loss) and its decision wall times.
    ``opponent_budget_factor`` scales the opponent's budget alone: a factor of old/new engine speed gives the
    opponent the simulations per decision a slower engine affords at the same budget (docs/speed.md).
    ``subject_params`` (default ``params``): the subject's own tunables, e.g. another search shape."""
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
        AGENTS[names[p]](
            Random(game_seed * 4 + 2 * p + (p == seat)),
            budget_of(names[p], budget_scale, params) * (1.0 if p == seat else opponent_budget_factor),
            params=(subject_params or params) if p == seat else params,
        )
        for p in (0, 1)
    ]
    times = play_out(g, lambda p: agents[p].choose(g, p), seat)
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
