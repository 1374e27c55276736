"""The stored JSON of a game never changes with the engine's internal types (docs/style.md §5, 14): seeded random
games of 3 and 6 houses are recorded in `golden/storage_format.json` — every snapshot's JSON (as
written, key order included, and sorted), the log-less snapshot, the player views and the action log —
and replaying them today must give the same bytes. Snapshots stored by the recording engine, taken in
the middle of a march, a combat and a bid, load and play on to the recorded end.

The recording was made before orders, units and round steps became typed values; regenerate it only for
an intended rules change: `python -m boardgame.engine.tests.test_storage_format`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from boardgame.engine.actions import action_from_json
from boardgame.engine.data import GameData, load_default_game_data
from boardgame.engine.game import WesterosState, new_game, replay

FIXTURE = Path(__file__).parent / "golden" / "storage_format.json"
CASES = ((3, 7), (6, 5))  # (player count, seed)
SNAPSHOT_KINDS = ("march", "combat", "bid")  # a mid-game snapshot is kept for each (the first one met)


def _snapshot(st: WesterosState, *, log: bool = True) -> dict[str, Any]:
    d = st.to_dict(log=log)
    del d["game_data"]
    return d


def _snapshot_kind(st: WesterosState) -> str | None:
    if st.combat is not None and st.pending is not None and st.pending.kind == "house_card":
        return "combat"
    if st.march is not None and st.pending is not None and st.pending.kind == "march_move":
        return "march"
    if st.pending is not None and st.pending.kind == "bid":
        return "bid"
    return None


def play(gd: GameData, count: int, seed: int) -> dict[str, Any]:
    """A seeded random game (the first current player answers with a random legal action), hashed."""
    st = new_game(gd, player_count=count, seed=seed)
    rng = Random(seed)
    written, ordered, logless, views = (hashlib.sha256() for _ in range(4))
    actions: list[dict[str, Any]] = []
    kept: dict[str, Any] = {}
    while True:
        snap = _snapshot(st)
        written.update(json.dumps(snap).encode())
        ordered.update(json.dumps(snap, sort_keys=True).encode())
        logless.update(json.dumps(_snapshot(st, log=False)).encode())
        if len(actions) % 7 == 0:
            for p in [None, *st.houses]:
                views.update(json.dumps(st.player_view(p)).encode())
        kind = _snapshot_kind(st)
        if kind is not None and kind not in kept:
            kept[kind] = {"decisions": len(actions), "snapshot": _snapshot(st, log=False)}
        if st.is_terminal():
            break
        a = rng.choice(st.legal_actions(st.current_players()[0]))
        st.apply(a)
        actions.append(a.to_json())
    return {
        "player_count": count,
        "seed": seed,
        "decisions": len(actions),
        "snapshots_sha256": written.hexdigest(),
        "sorted_snapshots_sha256": ordered.hexdigest(),
        "logless_snapshots_sha256": logless.hexdigest(),
        "views_sha256": views.hexdigest(),
        "final_sha256": hashlib.sha256(json.dumps(_snapshot(st), sort_keys=True).encode()).hexdigest(),
        "actions": actions,
        "snapshots": kept,
    }


def regenerate() -> None:
    gd = load_default_game_data()
    games = [play(gd, count, seed) for count, seed in CASES]
    FIXTURE.write_text(json.dumps({"games": games}, separators=(",", ":")) + "\n")


def _recorded() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["games"]
    return games


@pytest.mark.parametrize("index", range(len(CASES)))
def test_a_seeded_game_writes_the_recorded_bytes(gd: GameData, index: int) -> None:
    rec = _recorded()[index]
    now = play(gd, rec["player_count"], rec["seed"])
    for key in (
        "decisions",
        "actions",
        "snapshots_sha256",
        "sorted_snapshots_sha256",
        "logless_snapshots_sha256",
    ):
        assert now[key] == rec[key], key
    assert now["views_sha256"] == rec["views_sha256"] and now["final_sha256"] == rec["final_sha256"]
    assert now["snapshots"] == rec["snapshots"]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_recorded_action_log_replays_to_the_recorded_state(gd: GameData, index: int) -> None:
    rec = _recorded()[index]
    st = replay(
        gd, rec["seed"], [action_from_json(a) for a in rec["actions"]], player_count=rec["player_count"]
    )
    assert st.is_terminal()
    assert (
        hashlib.sha256(json.dumps(_snapshot(st), sort_keys=True).encode()).hexdigest() == rec["final_sha256"]
    )


@pytest.mark.parametrize("index", range(len(CASES)))
@pytest.mark.parametrize("kind", SNAPSHOT_KINDS)
def test_a_stored_snapshot_loads_saves_unchanged_and_plays_on_to_the_recorded_end(
    gd: GameData, index: int, kind: str
) -> None:
    rec = _recorded()[index]
    kept = rec["snapshots"][kind]
    stored = json.dumps(kept["snapshot"])
    st = WesterosState.from_dict(json.loads(stored), game_data=gd)
    assert json.dumps(_snapshot(st, log=False)) == stored
    assert json.dumps(_snapshot(st.clone(), log=False)) == stored
    for a in rec["actions"][kept["decisions"] :]:
        st.apply(action_from_json(a))
    assert st.is_terminal()
    final = _snapshot(replay(gd, rec["seed"], [action_from_json(a) for a in rec["actions"]],
                             player_count=rec["player_count"]), log=False)  # fmt: skip
    assert _snapshot(st, log=False) == final


if __name__ == "__main__":
    regenerate()
