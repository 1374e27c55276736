"""A snapshot's version and state come from one consistent read; the state cache never holds a state
under another version's key.

The race: a reader reads the match row (version N) without its snapshot, another process commits version
N+1, and only then the reader reads the snapshot. These tests commit the new version exactly between the two
reads (in the test's transaction, whose `on_commit` callbacks never run: as another process's commit, it
puts nothing in this process's cache).
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from config.lru import LruCache
from matches import queries, selectors, storage
from matches.games.registry import get_game
from matches.models import Match
from matches.services.submit import action_submit
from matches.tests.conftest import mover

pytestmark = pytest.mark.django_db


def _commit_next_version(match: Match, alice: Any, bob: Any) -> dict[str, Any]:
    """Another player's move, committed as another process would; the stored state it leads to."""
    me, _ = mover(match, alice, bob)
    action_submit(
        match_id=match.pk,
        user=me,
        action_json={"type": "add", "n": 1},
        state_version=match.state_version,
        idempotency_key=None,
    )
    storage.clear_state_cache()  # what the other process parsed is in its own cache, not this one's
    match.refresh_from_db()
    return dict(match.state)


def _cache_entries() -> dict[tuple[int, int, int], Any]:
    cache: LruCache[tuple[int, int, int], Any] = storage._STATE_CACHE
    return dict(cache._data)


def _assert_cache_honest(match: Match, states: dict[int, dict[str, Any]]) -> None:
    """Every cached state of the match is the state its key's version names."""
    game = get_game(match.kind)
    for (match_id, version, _seed), state in _cache_entries().items():
        if match_id == match.pk:
            assert game.dump(state) == states[version], (
                f"the cache holds another state under version {version}"
            )


def test_a_state_read_after_a_commit_is_never_labelled_with_the_older_version(
    started: Match, alice: Any, bob: Any
) -> None:
    states = {started.state_version: dict(started.state)}
    storage.clear_state_cache()
    behind = storage.read_match(started.pk)  # version N, without its snapshot (the AI worker's read)
    assert behind is not None
    state = _commit_next_version(started, alice, bob)
    states[started.state_version] = state
    state = storage.load_state(behind)
    # The reader gets the state with the version it really is, never (N, the state of N+1).
    assert behind.state_version == started.state_version
    assert get_game(started.kind).dump(state) == states[behind.state_version]
    _assert_cache_honest(started, states)


def test_the_snapshot_of_a_viewer_is_one_version_when_a_move_lands_between_its_reads(
    started: Match, alice: Any, bob: Any
) -> None:
    states = {started.state_version: dict(started.state)}
    storage.clear_state_cache()
    match, you = selectors.match_get_for_viewer(match_id=started.pk, user=alice)  # the consumer's read
    state = _commit_next_version(started, alice, bob)
    states[started.state_version] = state
    snap = selectors.match_snapshot(match=match, you=you)
    game = get_game(started.kind)
    version = snap["state_version"]
    assert version == started.state_version
    assert snap["view"] == game.player_view(game.load(states[version]), you.position)
    assert snap["current_players"] == [states[version]["turn"]]
    assert [e["version"] for e in snap["log"]][-1:] == [version]
    _assert_cache_honest(started, states)


def test_the_state_api_never_answers_a_version_with_the_next_ones_board(
    started: Match, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit lands exactly between the API's row read and its snapshot read."""
    states = {started.state_version: dict(started.state)}
    storage.clear_state_cache()
    read_state = queries.match_state
    landed: list[int] = []

    def commit_first(match_id: int) -> Any:
        if not landed:
            landed.append(match_id)  # first: the commit reads the state too
            state = _commit_next_version(started, alice, bob)
            states[started.state_version] = state
        return read_state(match_id)

    monkeypatch.setattr(queries, "match_state", commit_first)
    client = APIClient()
    client.force_authenticate(alice)
    body = client.get(f"/api/matches/{started.pk}/state/").json()
    assert landed, "the snapshot was read from the cache: the race was not exercised"
    version = body["state_version"]
    assert body["view"]["total"] == states[version]["total"]
    assert body["view"]["turn"] == states[version]["turn"]
    _assert_cache_honest(started, states)
    # The next move is accepted at the version the snapshot named (no false stale_state).
    me = alice if states[version]["turn"] == 0 else bob
    client.force_authenticate(me)
    answer = client.post(
        f"/api/matches/{started.pk}/actions/",
        {"action": {"type": "add", "n": 1}, "state_version": version},
        format="json",
    )
    assert answer.status_code == 200, answer.json()


def test_the_legal_actions_api_names_the_version_they_are_legal_at(
    started: Match, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = {started.state_version: dict(started.state)}
    storage.clear_state_cache()
    read_state = queries.match_state
    landed: list[int] = []

    def commit_first(match_id: int) -> Any:
        if not landed:
            landed.append(match_id)
            state = _commit_next_version(started, alice, bob)
            states[started.state_version] = state
        return read_state(match_id)

    monkeypatch.setattr(queries, "match_state", commit_first)
    client = APIClient()
    client.force_authenticate(alice)
    body = client.get(f"/api/matches/{started.pk}/legal-actions/").json()
    assert landed
    turn = states[body["state_version"]]["turn"]
    assert bool(body["actions"]) == (turn == 0)  # alice sits in seat 0: actions only on her turn
