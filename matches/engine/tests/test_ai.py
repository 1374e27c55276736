"""The AI levels: legal on every decision, blind to what their player cannot see (C-8), a
canonical determinization, the simulation mode, and the search beating the random bot.

Strength and time targets are measured by ``bench/ai_strength.py``, never here; every search below runs
a fixed number of iterations so its choices are deterministic.
"""

from __future__ import annotations

from random import Random
from typing import Any, cast

import pytest

from matches.engine import GameState, new_match
from matches.engine.agents import AGENTS, LEVEL_BUDGET_S, Agent, GreedyAgent, RandomAgent, make_agent
from matches.engine.arena import MATCHUPS, play_one
from matches.engine.decks import default_decks
from matches.engine.search import PlanSearchAgent
from matches.engine.tests.helpers import pure_python_only

DECKS = [d for _, d in sorted(default_decks().items())]
pytestmark = pytest.mark.skipif(len(DECKS) < 2, reason="no sample card set")
ITER = 4  # search iterations per decision in these tests


def _agent(name: str, seed: int) -> Agent:
    return make_agent(name, Random(seed), iterations=ITER)


def _positions(seed: int, every: int = 7) -> list[tuple[GameState, int]]:
    """Decision points of a seeded greedy-vs-random match (a copy of the state and who acts)."""
    g = new_match(DECKS[seed % len(DECKS)], DECKS[(seed + 1) % len(DECKS)], seed=seed)
    bots: list[Agent] = [GreedyAgent(Random(seed)), RandomAgent(Random(seed + 1))]
    out = []
    n = 0
    while not g.is_terminal():
        p = g.current_players()[0]
        if n % every == 0:
            out.append((g.clone(), p))
        g.apply_unchecked(bots[p].choose(g, p))
        n += 1
    return out


def test_every_level_has_a_default_budget_and_the_common_constructor() -> None:
    assert set(LEVEL_BUDGET_S) == set(AGENTS)
    for name, cls in AGENTS.items():
        agent = cls(Random(0), None, iterations=2, opponent_deck_known=True)
        assert agent.choose is not None, name
    assert {"easy", "normal", "hard", "flatmc", "greedy", "random"} <= set(AGENTS)


@pytest.mark.parametrize("level", sorted(AGENTS))
def test_level_chooses_only_legal_actions_to_the_end_of_a_match(level: str) -> None:
    g = new_match(DECKS[0], DECKS[1], seed=3)
    bots = [_agent(level, 1), _agent("greedy", 2)]
    while not g.is_terminal():
        p = g.current_players()[0]
        a = bots[p].choose(g, p)
        assert a in g.legal_actions(p) and type(a).__name__ != "Concede", (level, a)
        g.apply(a)


def test_a_fresh_agent_per_decision_plays_legally() -> None:
    """The play layer may build a new agent for every decision (no turn plan kept)."""
    g = new_match(DECKS[1], DECKS[2], seed=5)
    n = 0
    while not g.is_terminal():
        p = g.current_players()[0]
        a = _agent("hard" if p == 0 else "greedy", n).choose(g, p)
        assert a in g.legal_actions(p)
        g.apply(a)
        n += 1


def test_determinize_is_canonical_given_what_the_player_knows_c_8() -> None:
    """C-8: two states the player cannot tell apart determinize alike for the same rng."""
    checked = 0
    for seed in (1, 2):
        for s, p in _positions(seed, every=5):
            for viewer in (p, 1 - p):
                s2 = s.determinize(viewer, Random(99))
                assert s2.player_view(viewer) == s.player_view(viewer)
                a = s.determinize(viewer, Random(7)).to_dict()
                b = s2.determinize(viewer, Random(7)).to_dict()
                assert a == b
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("level", sorted(AGENTS))
def test_agents_choose_alike_in_states_their_player_cannot_tell_apart_c_8(level: str) -> None:
    """The information property: a fresh agent with the same seed and a fixed iteration count chooses
    the same action on a state and on a determinization of it for that player."""
    for s, p in _positions(4, every=9)[:14]:
        s2 = s.determinize(p, Random(11))
        assert _agent(level, 5).choose(s, p) == _agent(level, 5).choose(s2, p), (level, s.turn)


def test_an_unknown_opponent_deck_is_sampled_from_the_faction_within_the_deck_rules_c_3_2_c_3_4_c_8() -> None:
    for s, p in _positions(6, every=11):
        opp = 1 - p
        faction = {s.defs[c].faction for c in s.owners if s.owners[c] == opp}  # C-3.4: one faction
        g = s.determinize(p, Random(3), opponent_deck_known=False)
        assert g.player_view(p) == s.player_view(p)
        side = g.sides[opp]
        hidden = list(side.deck) + list(side.hand)
        if any(u.owner == opp for u in s.units.values()):  # their faction is public
            assert {g.defs[c].faction for c in hidden} <= faction
        names = [g.defs[c].name for c, o in g.owners.items() if o == opp]
        counts = {n: names.count(n) for n in names}
        assert max(counts.values()) <= 4
        again = s.determinize(p, Random(3), opponent_deck_known=False).to_dict()
        assert g.to_dict() == again


@pytest.mark.parametrize("level", ["greedy", "hard", "flatmc"])
def test_agents_play_legally_without_knowing_the_opponents_deck_list(level: str) -> None:
    g = new_match(DECKS[2], DECKS[3], seed=8)
    bots = [make_agent(level, Random(1), iterations=ITER, opponent_deck_known=False), _agent("greedy", 2)]
    while not g.is_terminal():
        p = g.current_players()[0]
        a = bots[p].choose(g, p)
        assert a in g.legal_actions(p)
        g.apply(a)


def test_hard_beats_random_in_seeded_games() -> None:
    score = 0.0
    for i in range(4):
        g = new_match(DECKS[i % len(DECKS)], DECKS[(i + 1) % len(DECKS)], seed=100 + i)
        seat = i % 2
        bots = [_agent("random", i), _agent("random", i)]
        bots[seat] = _agent("hard", i)
        while not g.is_terminal():
            p = g.current_players()[0]
            g.apply_unchecked(bots[p].choose(g, p))
        out = g.outcome()
        assert out is not None
        score += 1.0 if out.winner == seat else 0.5 if out.winner is None else 0.0
    assert score >= 4.0


def _strip(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("log", "log_start", "log_length")}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulation_mode_plays_exactly_like_normal_mode_without_the_log(seed: int) -> None:
    normal = new_match(DECKS[seed % 4], DECKS[(seed + 2) % 4], seed=seed)
    sim = normal.simulation()
    assert not sim.event_log
    bots: list[list[Agent]] = [[GreedyAgent(Random(seed)), RandomAgent(Random(seed + 1))] for _ in range(2)]
    while not normal.is_terminal():
        p = normal.current_players()[0]
        a = bots[0][p].choose(normal, p)
        assert bots[1][p].choose(sim, p) == a
        normal.apply_unchecked(a)
        sim.apply_unchecked(a)
        assert sim.log_length == normal.log_length
        assert sim.log == []
    assert sim.outcome() == normal.outcome()
    assert _strip(sim.to_dict(log=False)) == _strip(normal.to_dict(log=False))


def test_arena_plays_one_seeded_game_of_each_named_matchup_shape() -> None:
    assert {"easy vs greedy", "hard vs greedy", "hard vs flatmc", "hard vs hard"} <= set(MATCHUPS)
    r = play_one("easy", "random", 1, 1, 1.0)
    assert r["score"] in (0.0, 0.5, 1.0)
    assert r["decision_ms"] and r["label"]


def test_normal_keeps_its_turn_plan_across_the_decisions_of_a_turn() -> None:
    """A turn is many decisions (C-5.2): the plan is searched once and replayed while the view matches
    (``replan=0``; by default a kept plan is still checked against this decision's alternatives).
    ``hard`` keeps no plan (``per_action``): it searches every decision with a choice."""
    g = new_match(DECKS[0], DECKS[3], seed=12)
    planner = make_agent("normal", Random(3), iterations=ITER)
    assert isinstance(planner, PlanSearchAgent) and not planner.per_action
    planner.replan = 0.0
    bots = [planner, _agent("greedy", 4)]
    decisions = 0
    while not g.is_terminal():
        p = g.current_players()[0]
        decisions += p == 0
        g.apply(bots[p].choose(g, p))
    assert 0 < planner.searches < decisions / 2


class _Noisy(PlanSearchAgent):
    """A search whose simulation is a fixed mean per candidate plus seeded noise (no game played)."""

    def _simulate(self, world: GameState, player: int, plan: tuple[Any, ...], seed: int) -> float:
        return float(plan[0]) / 16 + Random(seed * 31 + int(plan[0])).random() * 0.5


@pytest.mark.pure_only
def test_sequential_halving_spends_the_budget_on_every_stage_and_keeps_the_best() -> None:
    """``_halve`` shares the simulations among the halvings (Karnin et al. 2013): every candidate is seen,
    the survivors of each halving are seen more, the whole budget is spent and the best mean wins."""
    pure_python_only()  # subclasses PlanSearchAgent: a compiled class takes no interpreted subclass
    from matches.engine.search import _Plan
    from matches.kit.budget import Budget

    agent = _Noisy(Random(1), iterations=400)
    plans = [_Plan(cast(Any, (i,))) for i in range(16)]  # plan "i" has the mean i / 16
    budget = Budget(1.0, 400)
    best = agent._halve(list(plans), 0, lambda k: cast(Any, (None, k)), budget)
    assert budget.done == 400
    assert cast(Any, best.actions) == (15,)
    visits = sorted(p.visits for p in plans)
    # 4 halvings of 16: the first stage alone has a quarter of the budget, 400 / 4 / 16 = 6 each ...
    assert visits[0] >= 400 // (4 * 16)
    # ... and the last pair shares a quarter too (not everything the first stages left over)
    assert visits[-1] <= 400 // 3
    assert visits[0] * 4 <= visits[-1]  # the survivors of each halving are seen more
    assert len(set(visits)) == 4  # one allocation per stage


@pytest.mark.pure_only
def test_hard_simulations_play_through_our_next_turn() -> None:
    """``hard`` scores a candidate after the opponent's reply and our next turn (``own_turn_after``); the
    simulation of ``normal`` stops at the start of our next turn."""
    pure_python_only()  # replaces search.value, which compiled callers never look up
    from matches.engine import search

    g = new_match(DECKS[0], DECKS[1], seed=5)
    bots = [GreedyAgent(Random(1)), GreedyAgent(Random(2))]
    while g.turn < 3 or len(g.current_players()) != 1:
        p = g.current_players()[0]
        g.apply_unchecked(bots[p].choose(g, p))
    player = g.current_players()[0]
    seen: dict[str, tuple[int, int]] = {}
    original = search.value

    for name in ("normal", "hard"):
        agent = make_agent(name, Random(7), iterations=1)
        assert isinstance(agent, PlanSearchAgent)

        def spy(state: GameState, who: int, static: Any, w: Any, name: str = name) -> float:
            seen[name] = (state.turn, state.active)  # the last call scores the simulation
            return original(state, who, static, w)

        search.value = spy  # type: ignore[assignment]
        try:
            act = g.legal_actions(player)[0]
            agent._simulate(g.simulation(), player, (act,), 3)
        finally:
            search.value = original
    assert seen["normal"][1] == player
    assert seen["hard"][1] != player and seen["hard"][0] > seen["normal"][0]
