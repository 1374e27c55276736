"""Your-turn e-mails: a correspondence move waiting on an absent player sends exactly one e-mail.

The task runs through Celery (eager in tests) with Django's locmem mail backend (`mail.outbox`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import IntegrityError
from django.test import Client
from django.utils import timezone

from frontend import preferences
from frontend.models import UserSettings
from matches import tasks
from matches.models import Match, Seat, YourTurnEmail
from matches.services import emails
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.tests.conftest import mover

pytestmark = pytest.mark.django_db

DAY = 86400


@pytest.fixture(autouse=True)
def _fresh_presence() -> None:
    cache.clear()  # `preferences.seen` writes at most once a minute per user: a key of an earlier run


@pytest.fixture
def corr(alice: Any, bob: Any) -> Match:
    """A started correspondence counting match (a day per move); both players have an e-mail address."""
    for user in (alice, bob):
        user.email = f"{user.username}@example.com"
        user.save()
    match = match_create(user=alice, kind="counting", time_control={"per_move_s": DAY})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match


def _run_task() -> int:
    """The periodic task run through Celery's task machinery, here (`apply`). `disable_sync_subtasks`:
    an earlier test of the same process may have left Celery's in-a-worker flag set."""
    return tasks.send_your_turn_emails.apply().get(disable_sync_subtasks=False)


def test_a_waiting_move_of_an_absent_player_sends_exactly_one_email(
    corr: Match, alice: Any, bob: Any
) -> None:
    to_move, other = mover(corr, alice, bob)
    assert _run_task() == 1
    assert _run_task() == 0  # the task again (a retry, the next minute): nothing new
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [to_move.email]
    assert message.subject == f"Your turn in Counting (test game) #{corr.pk}"
    assert other.username in message.body and f"http://testserver/play/{corr.pk}/" in message.body
    assert "left to move" in message.body
    html = message.alternatives[0][0]
    assert f"http://testserver/play/{corr.pk}/" in html and "Stop these e-mails" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = message.extra_headers["List-Unsubscribe"].strip("<>").rsplit("/", 2)[-2]
    assert preferences.unsubscribe_user_id(token) == to_move.pk
    assert YourTurnEmail.objects.filter(match=corr, user=to_move).count() == 1


def test_the_next_deadline_gets_its_own_email(corr: Match, alice: Any, bob: Any) -> None:
    first, second = mover(corr, alice, bob)
    assert _run_task() == 1
    corr.refresh_from_db()
    action_submit(
        match_id=corr.pk, user=first, action_json={"type": "add", "n": 1}, state_version=corr.state_version
    )
    assert _run_task() == 1
    assert [m.to for m in mail.outbox] == [[first.email], [second.email]]
    assert "Last move:" not in mail.outbox[0].body and "Last move:" in mail.outbox[1].body
    assert "adds 1" in mail.outbox[1].body  # the move that handed the turn on, in the reader's words


def test_no_email_when_the_setting_is_off(corr: Match, alice: Any, bob: Any) -> None:
    to_move, _ = mover(corr, alice, bob)
    preferences.settings_update(user=to_move, email_your_turn=False)
    assert _run_task() == 0
    assert mail.outbox == []


def test_no_email_when_the_player_was_seen_recently(corr: Match, alice: Any, bob: Any) -> None:
    to_move, _ = mover(corr, alice, bob)
    preferences.seen(to_move.pk)
    assert _run_task() == 0
    assert mail.outbox == []
    # Away longer than NOTIFY_ABSENT_AFTER_S: now the e-mail goes.
    UserSettings.objects.filter(user=to_move).update(
        last_seen_at=timezone.now() - preferences.absent_after() - timedelta(seconds=1)
    )
    assert _run_task() == 1


def test_a_request_marks_the_user_as_seen(corr: Match, alice: Any, bob: Any) -> None:
    to_move, _ = mover(corr, alice, bob)
    client = Client()
    client.force_login(to_move)
    assert client.get("/api/me/settings/").status_code == 200
    assert UserSettings.objects.get(user=to_move).last_seen_at is not None
    assert _run_task() == 0


def test_no_email_without_an_address_or_for_live_clocks(
    started: Match, corr: Match, alice: Any, bob: Any
) -> None:
    type(alice).objects.update(email="")
    assert _run_task() == 0
    type(alice).objects.update(email="x@example.com")
    assert _run_task() == 1  # only the correspondence match: `started` has a 60 s + 5 s live clock
    assert {m.subject for m in mail.outbox} == {mail.outbox[0].subject} and f"#{corr.pk}" in mail.outbox[
        0
    ].subject


def test_a_concurrent_sender_that_got_there_first_means_no_second_email(
    corr: Match, alice: Any, bob: Any
) -> None:
    to_move, _ = mover(corr, alice, bob)
    seat = Seat.objects.select_related("match", "user").get(match=corr, user=to_move)
    now = timezone.now()
    assert emails.waiting_seats(now=now) == [seat]
    # Another worker inserted the record between this one's read and its insert: the constraint holds.
    YourTurnEmail.objects.create(match=corr, position=seat.position, deadline=seat.deadline, user=to_move)
    assert emails.your_turn_email_send(seat=seat, now=now) is False
    assert mail.outbox == []
    with pytest.raises(IntegrityError):
        YourTurnEmail.objects.create(match=corr, position=seat.position, deadline=seat.deadline, user=to_move)


def test_a_failing_mail_server_leaves_no_record_so_the_next_run_retries(
    corr: Match, alice: Any, bob: Any
) -> None:
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("SMTP down")):
        assert _run_task() == 0
    assert YourTurnEmail.objects.count() == 0
    assert _run_task() == 1
    assert len(mail.outbox) == 1


def test_human_duration() -> None:
    assert emails.human_duration(timedelta(hours=23, minutes=59)) == "23 hours"
    assert emails.human_duration(timedelta(days=2, hours=4)) == "2 days 4 hours"
    assert emails.human_duration(timedelta(minutes=1)) == "1 minute"
    assert emails.human_duration(timedelta(seconds=5)) == "less than a minute"
    assert emails.human_duration(timedelta(hours=1, minutes=30)) == "1 hour 30 minutes"


@pytest.mark.django_db(transaction=True)
def test_opening_the_match_websocket_marks_the_player_as_seen(corr: Match, alice: Any, bob: Any) -> None:
    from asgiref.sync import async_to_sync
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from config.routing import websocket_urlpatterns

    to_move, _ = mover(corr, alice, bob)

    @async_to_sync
    async def visit() -> None:
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{corr.pk}/")
        comm.scope["user"] = to_move
        connected, _ = await comm.connect()
        assert connected
        await comm.receive_json_from(timeout=5)
        await comm.disconnect()

    visit()
    assert UserSettings.objects.get(user=to_move).last_seen_at is not None
    assert _run_task() == 0 and mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_one_email(corr: Match, alice: Any, bob: Any) -> None:
    """Two runs racing (threads with their own connections): the unique record lets one e-mail through."""
    import threading

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks between connections: PostgreSQL")
    barrier = threading.Barrier(2)
    real_waiting = emails.waiting_seats

    def both_read_first(**kwargs: Any) -> Any:
        seats = real_waiting(**kwargs)
        barrier.wait(timeout=10)  # both runs found the seat before either sends
        return seats

    def run() -> None:
        try:
            results.append(emails.your_turn_emails_send())
        finally:
            connections.close_all()

    results: list[int] = []
    with mock.patch.object(emails, "waiting_seats", side_effect=both_read_first):
        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
    assert sorted(results) == [0, 1]
    assert len(mail.outbox) == 1 and YourTurnEmail.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "subject", "left"), [("th", "ถึงตาคุณแล้วใน", "ชั่วโมง"), ("zh-hans", "轮到你了", "小时")]
)
def test_the_email_is_written_in_the_recipients_language(
    corr: Match, alice: Any, bob: Any, language: str, subject: str, left: str
) -> None:
    to_move, _other = mover(corr, alice, bob)
    preferences.settings_update(user=to_move, language=language)
    assert _run_task() == 1
    message = mail.outbox[0]
    assert subject in message.subject and f"#{corr.pk}" in message.subject
    assert left in message.body  # "23 hours" in the reader's words
    assert "left to move" not in message.body and "Stop these e-mails" not in message.alternatives[0][0]
