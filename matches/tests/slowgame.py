"""The counting game with an AI whose search never ends, registered as kind "slow-counting": the AI task's
Celery soft time limit must cut it and the greedy fallback move the game on (tests/integration)."""

from __future__ import annotations

import random
import time
from typing import Any

from matches.agents import FALLBACK_AGENT
from matches.games.kind import Player
from matches.games.registry import register
from matches.tests.fakegame import CountingGame


class EndlessSearch:
    """An agent that thinks for an hour: only a signal (Celery's soft time limit) stops it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, player: Player) -> Any:
        time.sleep(3600)
        raise AssertionError("the search was never cut")


class SlowCountingGame(CountingGame):
    kind = "slow-counting"
    label = "Counting with an endless AI search (test game)"

    def make_ai(self, agent: str, rng: random.Random) -> Any:
        return EndlessSearch(rng)

    def ai_action(
        self, state: Any, player: Player, *, rng: random.Random, agent: str, instance: Any | None = None
    ) -> Any:
        if agent == FALLBACK_AGENT:
            return {"type": "add", "n": 2}  # the greedy move: recognisable in the log
        return (instance or self.make_ai(agent, rng)).choose(state, player)


GAME = register(SlowCountingGame())
