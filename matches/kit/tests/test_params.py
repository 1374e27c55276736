"""Each engine's AI tunables are one frozen value handed to its agents; the defaults are the values the
levels were tuned with (written out here, so a changed default is a visible decision)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from boardgame.engine import agents as westeros_agents
from boardgame.engine import search as westeros_search
from boardgame.engine.ai_params import DEFAULT_PARAMS as W
from boardgame.engine.ai_params import WesterosAIParams
from matches.engine import agents as commandeer_agents
from matches.engine.ai_params import DEFAULT_PARAMS as C
from matches.engine.ai_params import CommandeerAIParams

ROOT = Path(__file__).resolve().parents[3]


def test_commandeer_defaults_are_the_tuned_constants() -> None:
    assert C.level_budget_s == {
        "random": 0.0,
        "greedy": 0.0,
        "easy": 0.0,
        "normal": 0.06,
        "hard": 0.3,
        "flatmc": 0.3,
    }
    assert C.easy_blunder == 0.35 and C.rollout_cap == 400
    n, h = C.search("normal"), C.search("hard")
    assert (n.replies, n.noise, n.width, n.first, n.replan, n.own_turn_after, n.per_action) == (
        1,
        0.35,
        16,
        14,
        0.4,
        False,
        False,
    )
    assert (h.replies, h.own_turn_after, h.per_action) == (2, True, True) and C.search("flatmc") == h
    w = C.policy
    assert (w.defeated, w.hand, w.energy, w.on_board, w.race, w.strike_first, w.value_scale) == (
        8000.0,
        300.0,
        500.0,
        1500.0,
        1500.0,
        0.5,
        12000.0,
    )
    assert (w.deploy, w.deploy_edge, w.threatened_square, w.deploy_facing_enemy) == (
        3000.0,
        -2000.0,
        2500.0,
        1500.0,
    )
    assert (w.attack_defeats, w.attack, w.move, w.other) == (20000.0, 1000.0, -500.0, 100.0)
    assert (w.reinforce, w.reinforce_full_hand, w.reinforce_hand_below, w.reinforce_no_unit) == (
        1500.0,
        200.0,
        4,
        4000.0,
    )
    assert (w.noisy_top, w.noisy_floor) == (3, -10000.0)
    assert commandeer_agents.LEVEL_BUDGET_S == C.level_budget_s  # what the play layer's registry reads


def test_westeros_defaults_are_the_tuned_constants() -> None:
    assert W.level_budget_s == {
        "random": 0.0,
        "greedy": 0.0,
        "easy": 0.0,
        "normal": 0.06,
        "hard": 0.25,
        "flatmc": 0.25,
    }
    assert W.kind_weight == {
        "orders": 2.4,
        "march_move": 1.2,
        "march_select": 0.8,
        "house_card": 1.2,
        "bid": 1.0,
        "raven": 0.6,
        "support": 0.5,
        "muster": 0.5,
        "raid": 0.5,
        "consolidate": 0.3,
        "choose": 0.5,
    }
    assert W.other_kind_weight == 0.5 and westeros_agents.MAX_BUDGET_FACTOR == 2.4
    assert (W.card_floor, W.card_temperature, W.log_floor, W.easy_blunder) == (0.01, 0.01, 0.005, 0.25)
    assert W.bid_spread == (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15) and W.flatmc_max_decisions == 3000
    n, h = W.search("normal"), W.search("hard")
    assert (n.max_candidates, n.plan_candidates) == (5, 5) and (h.max_candidates, h.plan_candidates) == (
        8,
        10,
    )
    assert (
        (h.horizon_rounds, h.max_rollout_decisions, h.noise)
        == (1, 260, 0.6)
        == (
            n.horizon_rounds,
            n.max_rollout_decisions,
            n.noise,
        )
    )
    assert W.seat_prior_on and W.seat_prior == {
        6: {
            "greyjoy": 0.74,
            "stark": 0.18,
            "martell": -0.04,
            "tyrell": -0.25,
            "lannister": -1.27,
            "baratheon": -1.31,
        }
    }
    assert W.eval_weights == {
        "castles": 0.383,
        "castles_over_4": -0.151,
        "castles_over_5": 0.395,
        "castles_progress": 0.358,
        "castles_last_rounds": 0.138,
        "lands": 0.043,
        "supply": 0.058,
        "power": 0.049,
        "army": 0.188,
        "iron_throne": 0.0,
        "fiefdoms": 0.367,
        "kings_court": 0.325,
        "cards": 0.043,
        "castles_at_risk": -0.251,
        "castles_in_reach": 0.195,
    }
    g = W.greedy
    assert (g.remove_order, g.support_own_side, g.combat_won, g.combat_lost, g.tie, g.wins_the_game) == (
        -100.0,
        10.0,
        2.0,
        -6.0,
        0.05,
        12.0,
    )
    assert g.muster == {"knight": 3.0, "siege_engine": 2.0, "footman": 2.5, "ship": 1.5}
    assert g.choose["blade"] == {"use": 1.0} and g.choose["cersei"] == {"none": -1.0}
    assert westeros_agents.LEVEL_BUDGET_S == W.level_budget_s


def test_parameters_are_values_and_the_agents_use_the_ones_they_are_given() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        C.easy_blunder = 1.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        W.seat_prior_on = False  # type: ignore[misc]
    narrow = dataclasses.replace(
        C, normal=dataclasses.replace(C.normal, width=3), level_budget_s={**C.level_budget_s, "normal": 0.7}
    )
    agent = commandeer_agents.make_agent("normal", Random(1), params=narrow)
    assert isinstance(agent, commandeer_agents.NormalAgent)
    assert agent.params is narrow and agent.width == 3 and agent.budget_s == 0.7
    default = commandeer_agents.make_agent("normal", Random(1))
    assert isinstance(default, commandeer_agents.NormalAgent) and default.width == 16  # defaults untouched
    plain = dataclasses.replace(
        W, seat_prior_on=False, normal=dataclasses.replace(W.normal, max_candidates=2)
    )
    house = westeros_agents.make_agent("normal", Random(1), params=plain)
    assert isinstance(house, westeros_search.SearchAgent)
    assert house.params is plain and house.max_candidates == 2 and house.budget_s == 0.06
    assert W.seat_prior_on and westeros_agents.make_agent("hard", Random(1)).params is W


def test_the_easy_levels_blunder_rate_is_a_parameter() -> None:
    """easy with no blunders is greedy; with blunders only it plays the random level's choices."""
    from matches.engine.decks import default_decks
    from matches.engine.setup import new_match

    decks = list(default_decks().values())

    def moves(params: CommandeerAIParams) -> list[str]:
        g = new_match(decks[0], decks[1], seed=3)
        bots = [commandeer_agents.make_agent("easy", Random(p), params=params) for p in (0, 1)]
        out = []
        for _ in range(40):
            p = g.current_players()[0]
            a = bots[p].choose(g, p)
            out.append(str(a))
            g.apply_unchecked(a)
        return out

    never, always = dataclasses.replace(C, easy_blunder=0.0), dataclasses.replace(C, easy_blunder=1.0)
    assert moves(never) != moves(always)
    assert moves(C) == moves(C)


def test_params_cross_process_pools() -> None:
    """The benches hand parameters to worker processes: they pickle."""
    import pickle

    off = dataclasses.replace(W, seat_prior_on=False)
    assert pickle.loads(pickle.dumps(off)) == off and pickle.loads(pickle.dumps(C)) == C
    assert isinstance(pickle.loads(pickle.dumps(off)), WesterosAIParams)


def test_the_kit_and_the_engines_load_no_django() -> None:
    """``matches/__init__.py`` is empty, so an engine importing ``matches.kit`` loads none of the play layer."""
    code = (
        "import sys; import matches.kit.agentbase, matches.kit.arena, matches.kit.budget, "
        "matches.kit.conformance, boardgame.engine.agents, boardgame.engine.arena, matches.engine.agents, "
        "matches.engine.arena; bad = [m for m in sys.modules if m.startswith(('django', 'rest_framework')) "
        "or m in ('matches.models', 'matches.services', 'matches.games')]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
