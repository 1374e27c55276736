"""Golden playthrough (docs/style.md §14): a recorded game replays to the same final state.

After an intended rules change, regenerate with `python -m boardgame.engine.tests.test_golden`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from random import Random
from typing import Any

from boardgame.engine.actions import action_from_json
from boardgame.engine.data import GameData, load_default_game_data
from boardgame.engine.game import WesterosState, new_game, replay

from .conftest import outcome_of

GOLDEN = Path(__file__).parent / "golden" / "playthrough_4p_seed2026.json"


def digest(st: WesterosState) -> str:
    d = st.to_dict()
    del d["game_data"]
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()


def regenerate() -> dict[str, Any]:
    from boardgame.engine.agents import GreedyAgent, RandomAgent

    st = new_game(load_default_game_data(), player_count=4, seed=2026)
    agents = {
        h: GreedyAgent(Random(i)) if i % 2 == 0 else RandomAgent(Random(i)) for i, h in enumerate(st.houses)
    }
    actions = []
    while not st.is_terminal():
        p = st.current_players()[0]
        a = agents[p].choose(st, p)
        st.apply(a)
        actions.append(a.to_json())
    out = st.outcome()
    assert out is not None
    g = {
        "about": "Golden playthrough: 4 players, seed 2026, greedy/random agents. Regenerate only for an "
        "intended rules change.",
        "player_count": 4,
        "seed": 2026,
        "outcome": out.to_json(),
        "rounds": st.round,
        "state_sha256": digest(st),
        "actions": actions,
    }
    GOLDEN.write_text(json.dumps(g, separators=(",", ":")))
    return g


def test_recorded_game_replays_to_the_same_state_and_outcome(gd: GameData) -> None:
    g = json.loads(GOLDEN.read_text())
    st = replay(gd, g["seed"], [action_from_json(a) for a in g["actions"]], player_count=g["player_count"])
    assert st.is_terminal() and outcome_of(st).to_json() == g["outcome"] and st.round == g["rounds"]
    assert digest(st) == g["state_sha256"]


if __name__ == "__main__":
    print(regenerate()["outcome"])
