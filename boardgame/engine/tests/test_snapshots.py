"""Snapshots: behaviour never depends on dict key order (jsonb reorders keys), and log-less snapshots.

Size from WESTEROS_SNAPSHOT_GAMES (seeded games, 3-6 houses in turn; small default for CI).
"""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

import pytest

from boardgame.engine.actions import Action
from boardgame.engine.agents import RandomAgent
from boardgame.engine.data import GameData
from boardgame.engine.game import WesterosState, new_game, replay

GAMES = int(os.environ.get("WESTEROS_SNAPSHOT_GAMES", "3"))
CASES = [(3 + g % 4, 100 + g) for g in range(GAMES)]  # (player count, seed)


def reverse_keys(v: Any) -> Any:
    """`v` with every dict's keys in reverse order (a worst case of a store that reorders keys)."""
    if isinstance(v, dict):
        return {k: reverse_keys(v[k]) for k in reversed(list(v))}
    if isinstance(v, list):
        return [reverse_keys(x) for x in v]
    return v


def sorted_keys(d: dict[str, Any]) -> dict[str, Any]:
    """`d` as PostgreSQL jsonb might hand it back: keys reordered (here sorted)."""
    out: dict[str, Any] = json.loads(json.dumps(d, sort_keys=True))
    return out


def canonical_json(st: WesterosState) -> str:
    return json.dumps(st.to_dict(), sort_keys=True)


def legal_json(st: WesterosState) -> list[Any]:
    """Every current player's legal actions, in the engine's order."""
    return [[p, [a.to_json() for a in st.legal_actions(p)]] for p in st.current_players()] + [
        [a.to_json() for a in st.legal_actions()]
    ]


def play_out(st: WesterosState, seed: int) -> WesterosState:
    """Finish the game with a seeded RandomAgent, always answering the first current player."""
    agent = RandomAgent(Random(seed))
    while not st.is_terminal():
        p = st.current_players()[0]
        st.apply(agent.choose(st, p))
    return st


def snapshots(gd: GameData, count: int, seed: int, every: int) -> list[WesterosState]:
    """Clones of a seeded random game at every `every`-th decision, up to and including the end."""
    st = new_game(gd, player_count=count, seed=seed)
    agent = RandomAgent(Random(seed))
    out, n = [], 0
    while not st.is_terminal():
        if n % every == 0:
            out.append(st.clone())
        p = st.current_players()[0]
        st.apply(agent.choose(st, p))
        n += 1
    out.append(st.clone())
    return out


@pytest.mark.parametrize(("count", "seed"), CASES)
def test_key_order_of_a_snapshot_never_changes_legal_actions(gd: GameData, count: int, seed: int) -> None:
    """The same state loaded with its keys sorted or reversed lists the same legal actions in the same
    order (W-3.3 simultaneous steps included), so seeded AI choices and defaults do not depend on the store."""
    checked = 0
    for st in snapshots(gd, count, seed, every=17):
        d = st.to_dict()
        want = legal_json(st)
        for variant in (sorted_keys(d), reverse_keys(d)):
            loaded = WesterosState.from_dict(variant)
            assert legal_json(loaded) == want, f"legal action order changed at round {st.round} {st.step}"
            assert json.dumps(loaded.to_dict(), sort_keys=True) == json.dumps(d, sort_keys=True)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(("count", "seed"), CASES)
def test_key_order_of_a_snapshot_never_changes_how_the_game_goes_on(
    gd: GameData, count: int, seed: int
) -> None:
    """A seeded RandomAgent finishes the game identically from the live state, a sorted-key copy and a
    reversed-key copy (a jsonb store and an in-process cache agree move by move)."""
    points = snapshots(gd, count, seed, every=250)
    assert len(points) >= 3
    for i, st in enumerate(points[:2]):
        d = st.to_dict()
        want = canonical_json(play_out(st.clone(), seed + i))
        for variant in (sorted_keys(d), reverse_keys(d)):
            got = canonical_json(play_out(WesterosState.from_dict(variant), seed + i))
            assert got == want, f"the game went on differently from round {st.round} {st.step}"


def test_reloading_reordered_keys_after_every_decision_changes_nothing(gd: GameData) -> None:
    """The rules never walk a dict in its key order (no re-sorting either): a game whose state is reloaded
    from a reversed-key (then a sorted-key) snapshot after every decision plays exactly like the live one."""
    live = new_game(gd, player_count=5, seed=21)
    moved = WesterosState.from_dict(reverse_keys(live.to_dict()))
    agent = RandomAgent(Random(21))
    n = 0
    while not live.is_terminal() and live.round <= 4:
        assert legal_json(moved) == legal_json(live), f"legal actions differ at decision {n}"
        p = live.current_players()[0]
        a = agent.choose(live, p)
        live.apply(a)
        moved.apply(a)
        variant = reverse_keys if n % 2 == 0 else sorted_keys
        moved = WesterosState.from_dict(variant(moved.to_dict()))
        n += 1
    assert n > 100 and canonical_json(moved) == canonical_json(live)


# ---- log-less snapshots -------------------------------------------------------------------------------


def test_log_less_snapshot_keeps_the_rules_state_and_only_the_log_length(gd: GameData) -> None:
    """to_dict(log=False) equals the full snapshot minus the log plus its length; loading it gives the
    same legal actions and the same full rules state."""
    for st in snapshots(gd, 4, 11, every=40):
        full, bare = st.to_dict(), st.to_dict(log=False)
        assert "log" not in bare and bare["log_length"] == len(st.log) > 0
        assert {k: v for k, v in full.items() if k != "log"} == {
            k: v for k, v in bare.items() if k != "log_length"
        }
        loaded = WesterosState.from_dict(sorted_keys(bare))
        assert loaded.log == [] and loaded.log_length == len(st.log)
        assert legal_json(loaded) == legal_json(st)
        assert loaded.to_dict(log=False) == bare


def test_log_less_snapshot_size_stays_bounded_over_a_whole_game(gd: GameData) -> None:
    """The compact snapshot does not grow with the game while the full one does."""
    points = snapshots(gd, 6, 3, every=25)

    def size(st: WesterosState, log: bool) -> int:
        d = st.to_dict(log=log)
        del d["game_data"]  # the same static data in every snapshot
        return len(json.dumps(d))

    bare = [size(st, False) for st in points]
    full = [size(st, True) for st in points]
    assert max(bare) < 2 * min(bare), bare
    assert max(bare) < 20_000
    assert full[-1] > 5 * bare[-1]


def test_state_loaded_without_its_log_keeps_numbering_and_viewing_events(gd: GameData) -> None:
    """Events made after a log-less load are numbered on from log_length; log_view(player, start) with a
    number from the whole game returns exactly the entries made since, as a full state would."""
    st = new_game(gd, player_count=3, seed=5)
    agent = RandomAgent(Random(5))
    for _ in range(60):
        p = st.current_players()[0]
        st.apply(agent.choose(st, p))
    mark = st.log_length
    bare = WesterosState.from_dict(sorted_keys(st.to_dict(log=False)))
    for _ in range(40):
        p = st.current_players()[0]
        a = agent.choose(st, p)
        st.apply(a)
        bare.apply(a)
    assert bare.log_length == st.log_length > mark
    assert [e["n"] for e in bare.log] == list(range(mark, st.log_length))
    for h in [*st.houses, None]:
        assert bare.log_view(h, mark) == st.log_view(h, mark) != []
        assert bare.log_view(h, mark + 3) == st.log_view(h, mark + 3)
        assert bare.player_view(h)["log_length"] == st.log_length
    # A full snapshot of the reloaded state keeps where its log starts.
    again = WesterosState.from_dict(json.loads(json.dumps(bare.to_dict())))
    assert again.log_start == mark and again.log_view(None, mark) == st.log_view(None, mark)


def test_replay_is_unaffected_by_log_less_snapshots(gd: GameData) -> None:
    """Replaying the actions from the seed gives the same rules state as a game saved and loaded
    without its log after every move (what the online layer does)."""
    st = new_game(gd, player_count=4, seed=9)
    agent = RandomAgent(Random(9))
    actions: list[Action] = []
    while not st.is_terminal() and len(actions) < 300:
        p = st.current_players()[0]
        a = agent.choose(st, p)
        actions.append(a)
        st = WesterosState.from_dict(sorted_keys(st.to_dict(log=False)))
        st.apply(a)
    again = replay(gd, 9, actions, player_count=4)
    assert again.to_dict(log=False) == st.to_dict(log=False)
    assert again.log_length == st.log_length
