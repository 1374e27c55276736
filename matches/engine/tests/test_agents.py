"""Bots choose only legal actions; the greedy bot beats the random bot in at least 80% of 200 seeded matches."""

from __future__ import annotations

import os
from random import Random

import pytest

from matches.engine import new_match
from matches.engine.agents import Agent, GreedyAgent, RandomAgent, make_agent
from matches.engine.decks import default_decks
from matches.engine.simulate import run

DECKS = default_decks()
MATCHES = int(os.environ.get("AGENT_MATCHES", "200"))


def test_agents_only_choose_legal_actions() -> None:
    decks = list(DECKS.values())[:2]
    if len(decks) < 2:
        pytest.skip("no sample card set")
    for seed in range(3):
        g = new_match(decks[0], decks[1], seed=seed)
        bots: list[Agent] = [GreedyAgent(Random(seed)), RandomAgent(Random(seed))]
        while not g.is_terminal():
            p = g.current_players()[0]
            a = bots[p].choose(g, p)
            assert a in g.legal_actions(p) and type(a).__name__ != "Concede"
            g.apply(a)


def test_unknown_agent_name_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("alphazero", Random(0))


@pytest.mark.skipif(not DECKS, reason="no sample card set")
def test_greedy_beats_random_in_at_least_80_percent_of_200_matches() -> None:
    result = run(MATCHES, 7, ["greedy", "random"])
    assert result["games"] == MATCHES
    assert result["wins"]["greedy"] + result["wins"]["random"] + result["draws"] == MATCHES
    assert result["wins"]["greedy"] >= 0.8 * MATCHES, result
