"""No agent peeks, so playing against the AI is fair: every agent of both games decides on what its player
may know only.

For every agent name of the registry (`matches.agents.AGENT_NAMES`), over decisions sampled from seeded
games played by greedy: a fresh agent seeded k on the true state `s`, and a fresh agent seeded k on
`s.determinize(p, Random(j))` (the hidden parts resampled: the opponent's hand and deck, face-down orders
and bids, the engine's rng), choose the same action. Searching agents run a small fixed number of
iterations, so their choice is deterministic. AGENT_INFO_DECISIONS (default 30) sets how many decisions
are sampled per game; no database.
"""

from __future__ import annotations

import os
from functools import cache
from random import Random
from typing import Any

import pytest

from matches.agents import AGENT_NAMES, GAME_KINDS, INSTANT, make_agent

DECISIONS = int(os.environ.get("AGENT_INFO_DECISIONS", "30"))  # sampled decisions per game
EVERY = 7  # sample every 7th decision of a game
ITERATIONS = 16  # a searching agent's fixed iterations (deterministic choice)


@cache
def positions(kind: str) -> tuple[tuple[Any, Any, int], ...]:
    """(state, player, k) at every EVERY-th decision of seeded greedy games until DECISIONS are taken."""
    out: list[tuple[Any, Any, int]] = []
    seed = 0
    while len(out) < DECISIONS:
        state = _new_state(kind, seed)
        bots: dict[Any, Any] = {}
        decision = 0
        while not state.is_terminal() and len(out) < DECISIONS:
            player = state.current_players()[0]
            if decision % EVERY == EVERY - 1:
                out.append((state.clone(), player, len(out)))
            bot = bots.setdefault(player, make_agent(kind, "greedy", Random(f"{seed}:{player}")))
            state.apply_unchecked(bot.choose(state.clone(), player))
            decision += 1
        seed += 1
    return tuple(out)


def _new_state(kind: str, seed: int) -> Any:
    if kind == "commandeer":
        from matches.engine.decks import default_decks
        from matches.engine.setup import new_match

        pool = list(default_decks().values())
        return new_match(pool[seed % len(pool)], pool[(seed + 1) % len(pool)], seed=seed)
    from boardgame.engine.data import load_default_game_data
    from boardgame.engine.game import new_game

    return new_game(load_default_game_data(), player_count=3 + seed % 4, seed=seed)


def _choice(kind: str, name: str, k: int, state: Any, player: Any) -> Any:
    iterations = None if name in INSTANT else ITERATIONS
    return make_agent(kind, name, Random(k), iterations=iterations).choose(state, player)


@pytest.mark.parametrize("name", AGENT_NAMES)
@pytest.mark.parametrize("kind", GAME_KINDS)
def test_an_agent_chooses_the_same_on_every_state_its_player_cannot_tell_apart(kind: str, name: str) -> None:
    differ = []
    for state, player, k in positions(kind):
        on_truth = _choice(kind, name, k, state.clone(), player)
        resampled = state.determinize(player, Random(10_000 + k))
        on_guess = _choice(kind, name, k, resampled, player)
        if on_truth != on_guess:
            differ.append(
                f"decision {k} of player {player}: {on_truth!r} on the true state, {on_guess!r} after"
            )
    assert differ == [], f"{name} ({kind}) decides on hidden information:\n" + "\n".join(differ)


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_the_sampled_decisions_do_hide_something(kind: str) -> None:
    """Else the test above proves nothing: resampling changes the full state of some sampled decisions."""
    changed = sum(
        state.determinize(player, Random(10_000 + k)).to_dict() != state.to_dict()
        for state, player, k in positions(kind)
    )
    assert changed >= len(positions(kind)) // 2
