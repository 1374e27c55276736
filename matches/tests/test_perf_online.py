"""Online play stays cheap: bounded SQL per submit, a stored snapshot that does not grow with the match.

The guarantees themselves (lock, version check, legality, idempotency, hidden information) are tested in
test_services/test_api/test_hidden_information; these tests pin the costs so they cannot regress.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import selectors, storage
from matches.engine import GameState, new_match
from matches.games.registry import get_game
from matches.models import _BASES, FROM_BASE, ActionLog, Match, join_snapshot, split_snapshot
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.storage import load_state
from matches.tests.commandeer_fixtures import legal_deck

pytestmark = pytest.mark.django_db

# The locked match with its seats and users (one query), then the writes: log insert, match, ≤2 seats,
# idempotency insert, which PostgreSQL takes as one statement (config.sql.Writes) and SQLite one by one.
# The idempotency record is looked up only when the version is stale (a retry).
MAX_QUERIES_PER_SUBMIT = 2 if connection.vendor == "postgresql" else 6
MAX_STORED_BYTES = 20_000  # a Commandeer snapshot without its card catalog and event log


def _sql(ctx: CaptureQueriesContext) -> list[str]:
    """Statements that reach the database (transaction bookkeeping left out)."""
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].upper().startswith(skip)]


def _stored(match_id: int) -> Any:
    """The raw `state` column, as written (not joined back)."""
    return Match.objects.filter(pk=match_id).values_list("state", flat=True).get()


@pytest.fixture
def cmd_match(alice: Any, bob: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk, rules_config={"turn_limit": 6})
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    return match


def _play(
    match: Match, users: dict[int, Any], n: int, rng: random.Random, *, greedy: bool = False
) -> list[tuple[int, int]]:
    """Submit `n` legal actions (random, or the greedy AI's) as the movers would; (queries, stored bytes) each."""
    out = []
    for _ in range(n):
        m, _ = selectors.match_get_for_viewer(match_id=match.pk, user=users[0])
        if m.status != "active":
            break
        mover = users[selectors.match_snapshot(match=m, you=None)["current_players"][0]]
        m, you = selectors.match_get_for_viewer(match_id=match.pk, user=mover)
        snap = selectors.match_snapshot(match=m, you=you)
        choice = rng.choice(snap["legal_actions"])["action"]
        if greedy:  # longer, realistic matches: random play often loses all units early (C-6.2)
            game = get_game(m.kind)
            state = load_state(m, game)
            choice = game.action_to_json(game.ai_action(state, you.position, rng=rng, agent="greedy"))
        with CaptureQueriesContext(connection) as ctx:
            done = action_submit(
                match_id=match.pk,
                user=mover,
                action_json=choice,
                state_version=snap["state_version"],
                idempotency_key=uuid.uuid4().hex,
            )
        # Automatic passes that follow the move (a seat whose only action is Pass) are log rows of their
        # own: on PostgreSQL inside the one write statement, on SQLite one INSERT each beyond the first.
        extra_rows = done.state_version - snap["state_version"] - 1
        sqlite_extra = extra_rows if connection.vendor != "postgresql" else 0
        out.append((len(_sql(ctx)) - sqlite_extra, len(json.dumps(_stored(match.pk)))))
    return out


def test_a_submit_costs_a_bounded_number_of_queries_whatever_the_match_length(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    costs = _play(cmd_match, {0: alice, 1: bob}, 40, random.Random(3))
    assert len(costs) >= 10
    queries = [q for q, _ in costs]
    assert max(queries) <= MAX_QUERIES_PER_SUBMIT, queries
    assert queries[-1] <= queries[0] + 1  # no query per earlier action (no N+1 over the log)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement of CTEs is PostgreSQL's")
def test_on_postgresql_a_submit_is_one_locking_read_and_one_write(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    match, you = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=alice)
    snap = selectors.match_snapshot(match=match, you=you)
    mover = {0: alice, 1: bob}[snap["current_players"][0]]
    match, you = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=mover)
    snap = selectors.match_snapshot(match=match, you=you)
    with CaptureQueriesContext(connection) as ctx:
        action_submit(
            match_id=cmd_match.pk,
            user=mover,
            action_json=snap["legal_actions"][0]["action"],
            state_version=snap["state_version"],
            idempotency_key="k1",
        )
    read, write = _sql(ctx)
    assert "FOR UPDATE" in read
    assert write.startswith("WITH") and write.count("INSERT INTO") == 2 and "UPDATE" in write


def test_reading_a_view_costs_two_queries_whatever_the_log_length_and_one_when_up_to_date(
    cmd_match: Match, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The match with its seats and their users (one query, no deck snapshots), the log tail; the state
    comes from the cache (each committed submit leaves its new state there). A client that holds the log
    up to this version (`log_since`) costs the first query only."""
    users = {0: alice, 1: bob}
    counts, current = [], []
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            _play(cmd_match, users, 8, random.Random(len(counts)))
        with CaptureQueriesContext(connection) as ctx:
            match, you = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=alice)
            snap = selectors.match_snapshot(match=match, you=you)
        counts.append(len(_sql(ctx)))
        assert "deck_snapshot" not in " ".join(_sql(ctx)) and snap["view"] is not None
        with CaptureQueriesContext(connection) as ctx:
            match, you = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=alice)
            again = selectors.match_snapshot(match=match, you=you, log_since=match.state_version)
        current.append(len(_sql(ctx)))
        assert (
            again["log"] == []
            and again["view"] == snap["view"]
            and again["log_since"] == snap["state_version"]
        )
    assert counts == [2, 2, 2], counts
    assert current == [1, 1, 1], current


def test_the_stored_snapshot_stays_bounded_over_a_whole_match(cmd_match: Match, alice: Any, bob: Any) -> None:
    users = {0: alice, 1: bob}
    rng = random.Random(5)
    sizes: list[int] = []
    while True:  # the whole match (turn limit 6), not a fixed number of actions
        played = _play(cmd_match, users, 20, rng, greedy=True)
        sizes += [b for _, b in played]
        if len(played) < 20 or len(sizes) > 400:
            break
    cmd_match.refresh_from_db()
    assert cmd_match.status == "finished" and len(sizes) >= 20
    assert max(sizes) <= MAX_STORED_BYTES, max(sizes)
    assert max(sizes[len(sizes) // 2 :]) <= 2 * max(sizes[: len(sizes) // 2])  # no growth with the log
    full = cmd_match.state  # readers still get the whole snapshot, card catalog included
    assert FROM_BASE not in full and "cards" in full and len(json.dumps(full)) > max(sizes)
    # every applied action is in the engine's log count: the submits and the automatic passes they led to
    assert len(sizes) <= cmd_match.state_version == ActionLog.objects.filter(match=cmd_match).count()
    assert (
        "log" not in full
        and full["log_length"] == cmd_match.state_base["log_length"] + cmd_match.state_version
    )


def test_readers_see_the_full_snapshot_equal_to_the_engine_state(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    _play(cmd_match, {0: alice, 1: bob}, 6, random.Random(9))
    stored = _stored(cmd_match.pk)
    assert FROM_BASE in stored and "cards" in stored[FROM_BASE] and "cards" not in stored
    match = Match.objects.get(pk=cmd_match.pk)
    game = get_game("commandeer")
    live = load_state(match, game)
    assert match.state == json.loads(json.dumps(game.dump(live)))
    assert game.player_view(game.load(match.state), 0) == game.player_view(live, 0)


def test_a_cold_process_rebuilds_the_state_from_the_database(cmd_match: Match, alice: Any, bob: Any) -> None:
    """Another worker (empty caches) loads the split snapshot and keeps playing from it."""
    users = {0: alice, 1: bob}
    _play(cmd_match, users, 5, random.Random(1))
    game = get_game("commandeer")
    before = game.player_view(load_state(Match.objects.get(pk=cmd_match.pk), game), None)
    storage.clear_state_cache()
    _BASES.clear()
    match, _ = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=alice)
    assert game.player_view(load_state(match, game), None) == before
    storage.clear_state_cache()
    _BASES.clear()
    assert len(_play(cmd_match, users, 3, random.Random(2))) == 3


def test_stale_and_replayed_submits_still_hold_after_the_fast_path(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    from config.errors import ApplicationError

    users = {0: alice, 1: bob}
    m, _ = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=alice)
    mover = users[selectors.match_snapshot(match=m, you=None)["current_players"][0]]
    m, you = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=mover)
    snap = selectors.match_snapshot(match=m, you=you)
    action = snap["legal_actions"][0]["action"]
    first = action_submit(
        match_id=m.pk,
        user=mover,
        action_json=action,
        state_version=snap["state_version"],
        idempotency_key="k1",
    )
    again = action_submit(
        match_id=m.pk,
        user=mover,
        action_json=action,
        state_version=snap["state_version"],
        idempotency_key="k1",
    )
    assert again.replayed and again.state_version == first.state_version
    with pytest.raises(ApplicationError) as exc:
        action_submit(match_id=m.pk, user=mover, action_json=action, state_version=snap["state_version"])
    assert exc.value.code in ("stale_state", "not_your_turn") and exc.value.status_code == 409
    assert Match.objects.get(pk=m.pk).state_version == first.state_version  # nothing applied twice


def test_split_and_join_are_inverse_and_leave_whole_snapshots_alone() -> None:
    base = {"cards": {"A": {"x": 1}}, "turn": 1, "rng": [1, 2]}
    state = {"cards": {"A": {"x": 1}}, "turn": 2, "rng": [1, 2], "new": True}
    stored = split_snapshot(state, base)
    assert stored == {FROM_BASE: ["cards", "rng"], "turn": 2, "new": True}
    assert join_snapshot(stored, base) == state
    assert split_snapshot(state, None) is state and join_snapshot(state, None) is state
    with pytest.raises(ValueError, match="state_base"):
        join_snapshot(stored, None)


def test_engine_snapshot_without_log_keeps_log_length_and_plays_on() -> None:
    """`to_dict(log=False)`: same rules state, a log length instead of the log; numbering continues."""
    from matches.engine import build_deck, load_card_file
    from matches.engine.tests.pool import pool_file  # the engine tests' card pool

    cat = load_card_file(pool_file())
    g = new_match(build_deck(cat, "ember"), build_deck(cat, "tide"), seed=4)
    rng = random.Random(4)
    for _ in range(12):
        p = g.current_players()[0]
        g.apply(rng.choice(g.legal_actions(p)[:-1] or g.legal_actions(p)))
    compact = g.to_dict(log=False)
    assert "log" not in compact and compact["log_length"] == len(g.log)
    assert {k: v for k, v in g.to_dict().items() if k != "log"} == {
        k: v for k, v in compact.items() if k != "log_length"
    }
    h = GameState.from_dict(json.loads(json.dumps(compact)))
    assert h.player_view(0) == g.player_view(0) and h.to_dict(log=False) == compact
    p = g.current_players()[0]
    action = g.legal_actions(p)[0]
    g.apply(action)
    h.apply(action)
    assert h.player_view(1) == g.player_view(1)
    assert h.log_view(1, start=len(g.log) - 1) == g.log_view(1, start=len(g.log) - 1)
    assert h.log[-1]["n"] == g.log[-1]["n"] and h.to_dict(log=False) == g.to_dict(log=False)
    assert h.to_dict()["log_start"] == len(g.log) - 1  # a partial log says where it starts
