"""Property: `player_view` of every house and of a spectator works on every state of seeded random and
greedy games (W-20), and the support step of a march on a neutral force shows its numbers (W-11.1).

WESTEROS_VIEW_GAMES sets how many whole games are walked (small by default; raise it for a long run).
"""

from __future__ import annotations

import json
import os
from random import Random

import pytest

from boardgame.engine.actions import DeclareSupport
from boardgame.engine.agents import GreedyAgent, RandomAgent
from boardgame.engine.game import new_game

from .conftest import _DATA
from .test_orders_and_moves import _neutral_with_baratheon_support

GAMES = int(os.environ.get("WESTEROS_VIEW_GAMES", "2"))


def test_views_during_support_for_a_march_on_a_neutral_force_w_11_1() -> None:
    st = _neutral_with_baratheon_support()
    for h in [*st.houses, None]:
        view = st.player_view(h)
        assert view["combat_strength"] == {
            "lannister": {"strength": 3, "swords": 0, "forts": 0},  # knight 2 + March +1; support undeclared
            "neutral": {"strength": 5, "swords": 0, "forts": 0},
        }
    assert st.combat is not None
    st.combat.support["baratheon"] = "lannister"
    assert st.player_view(None)["combat_strength"]["lannister"]["strength"] == 5
    assert DeclareSupport("baratheon", "lannister") in st.legal_actions("baratheon")


@pytest.mark.parametrize("game", range(GAMES))
def test_every_house_can_view_every_state_of_seeded_games_w_20(game: int) -> None:
    st = new_game(_DATA, player_count=3 + game % 4, seed=7_000 + game)
    agent = GreedyAgent if game % 2 == 0 else RandomAgent
    agents = {h: agent(Random(game * 10 + i)) for i, h in enumerate(st.houses)}
    rng = Random(game)
    steps = 0
    while not st.is_terminal():
        for h in [*st.houses, None]:
            view = st.player_view(h)
            assert view["player"] == h and view["round"] == st.round
        if steps % 50 == 0:
            json.dumps(st.player_view(None))  # JSON-ready
        p = rng.choice(st.current_players())
        st.apply(agents[p].choose(st, p))
        steps += 1
    assert st.player_view(None)["winner"] == st.winner
