"""The hot-path reads in plain SQL (config.sql, matches.queries, config.authentication) return exactly
what the ORM returns: every loaded column, through the same database converters, on SQLite and (in CI)
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.authentication import TokenAuthentication
from matches import queries
from matches.models import Match, Seat
from matches.services.lobby import match_concede, match_create, match_create_with_ai
from matches.services.submit import action_submit

pytestmark = pytest.mark.django_db


def _loaded(instance: Any) -> dict[str, Any]:
    """The concrete columns an instance has loaded (deferred ones are absent)."""
    return {
        f.attname: instance.__dict__[f.attname]
        for f in type(instance)._meta.concrete_fields
        if f.attname in instance.__dict__
    }


def _assert_same_as_orm(match_id: int) -> tuple[Match, list[Seat]]:
    found = queries.match_with_seats(match_id)
    assert found is not None
    match, got = found
    orm = Match.objects.get(pk=match_id)
    assert set(_loaded(match)) == {f.attname for f in Match._meta.concrete_fields} - {"state", "state_base"}
    assert _loaded(match) == {k: v for k, v in _loaded(orm).items() if k in _loaded(match)}
    expected = list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("position"))
    assert [s.pk for s in got] == [s.pk for s in expected]
    for mine, theirs in zip(got, expected, strict=True):
        assert "deck_snapshot" not in mine.__dict__
        assert _loaded(mine) == {k: v for k, v in _loaded(theirs).items() if k != "deck_snapshot"}
        assert mine.match is match
        assert (mine.user and mine.user.pk, mine.display_name) == (
            theirs.user and theirs.user.pk,
            theirs.display_name,
        )
    return match, got


def test_a_started_match_with_its_seats_and_users_equals_the_orm(started: Match) -> None:
    # JSON (time_control, rules_config), datetimes (started_at, clocks, deadline), booleans, nullable FKs.
    match, got = _assert_same_as_orm(started.pk)
    assert match.status == "active" and isinstance(match.time_control, dict) and match.started_at is not None
    assert [s.position for s in got] == [0, 1]
    # A deferred column still loads on access, like the ORM's deferred fields.
    assert match.state == Match.objects.get(pk=started.pk).state


def test_ai_seats_without_user_and_a_finished_match_with_a_result(alice: Any) -> None:
    match = match_create_with_ai(user=alice, kind="counting", ai_seats=1)
    match_concede(match_id=match.pk, user=alice)
    _, got = _assert_same_as_orm(match.pk)
    assert got[1].user is None and got[1].display_name == "AI (normal)"
    assert Match.objects.get(pk=match.pk).result is not None


def test_a_match_without_seats_and_a_missing_match(alice: Any) -> None:
    match = match_create(user=alice, kind="counting")
    Seat.objects.filter(match=match).delete()
    found = queries.match_with_seats(match.pk)
    assert found is not None and found[0].pk == match.pk and found[1] == []
    assert queries.match_with_seats(10**9) is None


def test_the_locking_read_is_one_statement_and_saves_like_an_orm_instance(started: Match) -> None:
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        match, got = queries.match_with_seats(started.pk, lock=True) or (None, [])
        got[0].clock_remaining_ms = 1234
        got[0].save(update_fields=["clock_remaining_ms"])
        match.result = {"note": "x"}
        match.save(update_fields=["result"])
    reads = [q["sql"] for q in ctx.captured_queries if q["sql"].upper().startswith("SELECT")]
    assert len(reads) == 1
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in reads[0]
    assert Seat.objects.get(pk=got[0].pk).clock_remaining_ms == 1234
    assert Match.objects.get(pk=started.pk).result == {"note": "x"}


def test_token_authentication_equals_drf_and_refuses_unknown_and_inactive(alice: Any) -> None:
    token = Token.objects.create(user=alice)
    user, got = TokenAuthentication().authenticate_credentials(token.key)
    assert (user.pk, got.pk, got.user.pk) == (alice.pk, token.key, alice.pk)
    assert _loaded(user) == _loaded(get_user_model().objects.get(pk=alice.pk))
    assert got.created == Token.objects.get(pk=token.key).created
    with pytest.raises(exceptions.AuthenticationFailed, match="Invalid token"):
        TokenAuthentication().authenticate_credentials("nope")
    alice.is_active = False
    alice.save()
    with pytest.raises(exceptions.AuthenticationFailed, match="inactive"):
        TokenAuthentication().authenticate_credentials(token.key)


def test_the_api_refuses_a_bad_token_by_name_and_serves_a_good_one(alice: Any, started: Match) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    r = client.get(f"/api/matches/{started.pk}/state/")
    # 401 with the challenge: token authentication comes first, so DRF asks it for WWW-Authenticate
    assert (
        r.status_code == 401 and r["WWW-Authenticate"] == "Token" and "Invalid token" in r.json()["message"]
    )
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    r = client.get("/api/auth/me/")
    assert r.status_code == 200 and r.json()["username"] == "alice"


def test_plain_sql_writes_store_what_the_orm_would(started: Match, alice: Any) -> None:
    """`config.sql.insert/update`: fields' pre_save (auto_now_add, the split snapshot), JSON, key set."""
    from config import sql
    from matches.models import ActionLog, IdempotencyRecord

    entry = ActionLog(
        match=started, version=99, seat=0, source="player", action={"type": "x"}, descriptions={"0": "é"}
    )
    sql.insert(entry)
    stored = ActionLog.objects.get(pk=entry.pk)
    assert (stored.version, stored.action, stored.descriptions) == (99, {"type": "x"}, {"0": "é"})
    assert stored.created_at is not None and not entry._state.adding
    record = IdempotencyRecord(user=alice, match=started, key="k", request_hash="h", response={"a": [1]})
    sql.insert(record)
    assert IdempotencyRecord.objects.get(pk=record.pk).response == {"a": [1]}
    match = Match.objects.get(pk=started.pk)
    match.state = {**match.state, "turn": 1}
    match.state_version = 7
    match.result = None
    sql.update(match, ["state", "state_version", "result"])
    again = Match.objects.get(pk=started.pk)
    assert (again.state, again.state_version, again.result) == (match.state, 7, None)
    with pytest.raises(IntegrityError):  # a unique constraint still speaks as Django's IntegrityError
        with transaction.atomic():
            sql.insert(IdempotencyRecord(user=alice, match=started, key="k", request_hash="h", response={}))


def test_writes_together_store_what_the_orm_would_and_fail_as_a_whole(started: Match, alice: Any) -> None:
    """`config.sql.Writes`: two inserts and two updates in one go (one statement on PostgreSQL), the new
    rows' keys set; a unique violation in any part raises Django's IntegrityError and, once its atomic
    block rolls back, nothing of the batch is stored."""
    from config import sql
    from matches.models import ActionLog, IdempotencyRecord

    match = Match.objects.get(pk=started.pk)
    seat = Seat.objects.filter(match=match).order_by("position").first()
    assert seat is not None
    match.state = {**match.state, "turn": 3}
    match.state_version = 11
    seat.consecutive_timeouts = 2
    entry = ActionLog(match=match, version=11, seat=0, source="player", action={"t": 1}, descriptions={})
    record = IdempotencyRecord(user=alice, match=match, key="w", request_hash="h", response={"v": 11})
    writes = sql.Writes().insert(entry).update(match, ["state", "state_version"])
    writes.update(seat, ["consecutive_timeouts"]).insert(record)
    assert len(writes) == 4
    with CaptureQueriesContext(connection) as ctx:
        writes.run()
    assert len(ctx.captured_queries) == (1 if connection.vendor == "postgresql" else 4)
    assert entry.pk and record.pk and not entry._state.adding and not record._state.adding
    assert ActionLog.objects.get(pk=entry.pk).action == {"t": 1}
    assert IdempotencyRecord.objects.get(pk=record.pk).response == {"v": 11}
    again = Match.objects.get(pk=started.pk)
    assert (again.state, again.state_version) == (match.state, 11)
    assert Seat.objects.get(pk=seat.pk).consecutive_timeouts == 2

    match.state_version = 12
    late = ActionLog(match=match, version=12, seat=0, source="player", action={"t": 2}, descriptions={})
    clash = IdempotencyRecord(user=alice, match=match, key="w", request_hash="h", response={})
    with pytest.raises(IntegrityError, match="idempotency"):
        with transaction.atomic():
            sql.Writes().insert(late).update(match, ["state_version"]).insert(clash).run()
    assert Match.objects.get(pk=started.pk).state_version == 11
    assert not ActionLog.objects.filter(match=match, version=12).exists()
    assert sql.Writes().run() is None  # nothing to write: no statement


def test_log_entries_equal_the_orm_for_every_window(started: Match, alice: Any, bob: Any) -> None:
    from matches.models import ActionLog
    from matches.tests.conftest import mover

    for _ in range(6):
        me, _ = mover(started, alice, bob)
        action_submit(
            match_id=started.pk,
            user=me,
            action_json={"type": "add", "n": 1},
            state_version=Match.objects.get(pk=started.pk).state_version,
        )
    orm = list(ActionLog.objects.filter(match=started).order_by("version"))
    assert len(orm) == 6
    for since, limit in [(0, None), (2, None), (0, 3), (4, 10), (6, None), (0, 0)]:
        got = queries.log_entries(started.pk, since=since, limit=limit)
        want = [e for e in orm if e.version > since]
        want = want[len(want) - limit :] if limit is not None else want
        if limit == 0:
            want = []
        assert [_loaded(e) for e in got] == [_loaded(e) for e in want], (since, limit)
