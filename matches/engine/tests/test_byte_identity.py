"""Seeded playouts hash to recorded digests (docs/style.md §14): a refactoring of the engine must not change a
single byte of what it produces — the actions chosen from ``legal_actions``, every snapshot (``to_dict``,
with and without its log), the views and log views of both players and a spectator, the consequences of
each action, the reasons given for unplayable cards, determinized states, and the same match run in
simulation mode.

The digests in ``byte_identity.json`` were recorded from the engine before a change that must not alter
behaviour. Regenerate only after an intended rules change, with ``UPDATE_BYTE_IDENTITY=1`` (and review why
every digest moved).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from random import Random
from typing import Any

import pytest

from matches.engine import GameState, build_deck, load_card_file, new_match
from matches.engine.actions import Concede
from matches.engine.consequences import consequences, squares_before
from matches.engine.decks import default_decks
from matches.engine.tests.pool import pool_file

FIXTURE = Path(__file__).with_name("byte_identity.json")
SEEDS = tuple(range(1, 17))


def _decks(seed: int) -> list[dict[str, Any]]:
    """Pool decks (every trigger, effect and keyword of the vocabulary) on odd seeds, sample decks on even."""
    if seed % 2:
        cat = load_card_file(pool_file())
        return [build_deck(cat, "ember"), build_deck(cat, "tide")]
    decks = list(default_decks().values())
    return [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]]


def _dump(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), default=repr).encode()


def _texts(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Log entries or consequences without their ``message`` (a message's English is its ``text``, which
    is hashed, so the English the engine produces stays byte for byte what it was; test_messages checks
    that every message renders to its text)."""
    return [{k: v for k, v in item.items() if k != "message"} for item in items]


def _playout(seed: int) -> str:
    decks = _decks(seed)
    g = new_match(decks[0], decks[1], seed=seed)
    sim = g.simulation()
    rng = Random(seed * 7919)
    h = hashlib.sha256()
    ply = 0
    while not g.is_terminal() and ply < 2000:
        p = g.current_players()[0]
        legal = [a for a in g.legal_actions(p) if not isinstance(a, Concede)]
        h.update(_dump([a.to_json() for a in legal]))
        h.update(_dump(g.unplayable_cards(p)))
        a = legal[rng.randrange(len(legal))]
        before = squares_before(g)
        g.apply(a)
        sim.apply_unchecked(a)
        h.update(_dump([a.to_json(), g.secret_action(a), g.decision_step()]))
        for viewer in (0, 1, None):
            h.update(_dump(_texts(consequences(g, viewer, before))))
        if ply % 17 == 0:
            h.update(_dump(g.to_dict(log=False)))
            for viewer in (0, 1, None):
                h.update(_dump(g.player_view(viewer)))
            if not g.is_terminal():
                q = g.current_players()[0]
                h.update(_dump(g.determinize(q, Random(ply)).to_dict()))
                h.update(_dump(g.timeout_action(q).to_json()))
        ply += 1
    full = g.to_dict()
    h.update(_dump(full))
    h.update(_dump(GameState.from_dict(full).to_dict()))
    h.update(_dump(sim.to_dict(log=False)))
    for viewer in (0, 1, None):
        h.update(_dump(_texts(g.log_view(viewer))))
        h.update(_dump(g.player_view(viewer)))
    out = g.outcome()
    h.update(_dump([ply, out.to_json() if out else None]))
    return h.hexdigest()


def _recorded() -> dict[str, str]:
    if os.environ.get("UPDATE_BYTE_IDENTITY"):
        FIXTURE.write_text(json.dumps({str(s): _playout(s) for s in SEEDS}, indent=1) + "\n")
    data: dict[str, str] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seeded_playout_produces_the_recorded_bytes(seed: int) -> None:
    assert _playout(seed) == _recorded()[str(seed)]
