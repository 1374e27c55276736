"""A snapshot is one version on PostgreSQL: a move committed by another connection between a reader's row read
and its snapshot read never yields (version N, the board of N+1), nor a cache entry of that kind.

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration/test_consistent_reads_pg.py -m postgres
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from matches import selectors, storage
from matches.games.registry import get_game
from matches.models import Match
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from tests.integration.test_concurrency import run_at_once

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(transactional_db: Any) -> None:
    from tests.services import unavailable

    if connection.vendor != "postgresql":
        unavailable("needs PostgreSQL: run with DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test")


def test_a_move_committed_by_another_connection_between_the_two_reads_gives_one_version(pg: None) -> None:
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    match = match_create(user=alice, kind="counting", rules_config={"target": 50})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    game = get_game("counting")
    for _ in range(5):
        storage.clear_state_cache()  # a process that has not seen this match's latest version
        seen, you = selectors.match_get_for_viewer(match_id=match.pk, user=alice)  # row read: version N
        row = Match.objects.get(pk=match.pk)
        me = alice if row.state["turn"] == 0 else bob
        (result,) = run_at_once(  # another connection (another process) commits N+1 now
            [
                lambda me=me, row=row: action_submit(
                    match_id=match.pk,
                    user=me,
                    action_json={"type": "add", "n": 1},
                    state_version=row.state_version,
                )
            ]
        )
        assert result.state_version == row.state_version + 1
        storage.clear_state_cache()  # what that process parsed is in its own cache, not in this one's
        snap = selectors.match_snapshot(match=seen, you=you)  # the snapshot read: after the commit
        now = Match.objects.get(pk=match.pk)
        states = {row.state_version: row.state, now.state_version: now.state}
        assert snap["view"] == game.player_view(game.load(states[snap["state_version"]]), 0)
        assert snap["state_version"] == now.state_version  # the newer version, read with its own board
        stale = storage._STATE_CACHE.get((match.pk, row.state_version, row.seed))
        assert stale is None or game.dump(stale) == row.state  # never N+1's board under N
