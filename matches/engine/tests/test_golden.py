"""Golden playthrough (docs/style.md §14): a recorded match replays to the recorded result.

Regenerate after an intended rules change with ``UPDATE_GOLDEN=1 pytest matches/engine/tests/test_golden.py``
and review the diff of ``golden_playthrough.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from random import Random
from typing import Any

from matches.engine import GameState, build_deck, load_card_file, new_match, replay
from matches.engine.agents import Agent, GreedyAgent, RandomAgent
from matches.engine.tests.pool import pool_file

GOLDEN = Path(__file__).with_name("golden_playthrough.json")
SEED = 21


def _decks() -> list[dict[str, Any]]:
    cat = load_card_file(pool_file())
    return [build_deck(cat, "ember"), build_deck(cat, "tide")]


def _summary(g: GameState) -> dict[str, Any]:
    out = g.outcome()
    return {
        "turn": g.turn,
        "outcome": out.to_json() if out else None,
        "board": [[u["square"], u["card"], u["owner"]] for u in g.player_view(None)["board"]],
        "defeated": [[g.card_name(c) for c in s.defeated] for s in g.sides],
        "cp": [s.cp for s in g.sides],
        "log_length": len(g.log),
    }


def _record() -> dict[str, Any]:
    decks = _decks()
    g = new_match(decks[0], decks[1], seed=SEED)
    bots: list[Agent] = [GreedyAgent(Random(1)), RandomAgent(Random(2))]
    actions = []
    while not g.is_terminal():
        p = g.current_players()[0]
        a = bots[p].choose(g, p)
        g.apply(a)
        actions.append(a.to_json())
    return {"seed": SEED, "actions": actions, "summary": _summary(g)}


def test_golden_playthrough_replays_to_the_recorded_result() -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(_record(), indent=1) + "\n")
    golden = json.loads(GOLDEN.read_text())
    g = replay(_decks(), golden["seed"], golden["actions"])
    assert g.is_terminal()
    assert _summary(g) == golden["summary"]
