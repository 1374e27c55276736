"""Your-turn notices: the settings API and page, the unsubscribe link, sign-up's e-mail and /play/mine/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

import matches.tests.fakegame  # noqa: F401  (registers kind "counting")
from frontend import preferences
from frontend.models import UserSettings
from matches.models import Match, MatchStatus, Seat
from matches.my_games import my_games
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.services.submit import action_submit

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def user(db: Any) -> Any:
    return User.objects.create_user("dana", password="pw-dana-12345", email="dana@example.com")


@pytest.fixture
def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# ---------- GET/PATCH /api/me/settings/ ----------


def test_settings_need_a_login() -> None:
    assert APIClient().get("/api/me/settings/").status_code in (401, 403)
    assert APIClient().patch("/api/me/settings/", {"sound": False}, format="json").status_code in (401, 403)


def test_settings_start_with_the_defaults_without_writing(api: APIClient, user: Any) -> None:
    body = api.get("/api/me/settings/").json()
    assert body == {
        "browser_notifications": False,
        "notifications_asked": False,
        "sound": True,
        "low_time_warning": True,
        "email_your_turn": True,
        "language": "",
        "email": "dana@example.com",
    }
    assert not UserSettings.objects.filter(user=user, email_your_turn=False).exists()


def test_patch_changes_only_what_is_sent(api: APIClient, user: Any) -> None:
    body = api.patch("/api/me/settings/", {"sound": False, "email_your_turn": False}, format="json").json()
    assert body["sound"] is False and body["email_your_turn"] is False and body["low_time_warning"] is True
    row = UserSettings.objects.get(user=user)
    assert (row.sound, row.email_your_turn, row.browser_notifications) == (False, False, False)
    assert api.patch("/api/me/settings/", {"email": "new@example.com"}, format="json").json()["email"] == (
        "new@example.com"
    )
    user.refresh_from_db()
    assert user.email == "new@example.com"
    assert api.get("/api/me/settings/").json()["sound"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"sound": "yes"}, "sound"),
        ({"sound": 1}, "sound"),
        ({"email_your_turn": None}, "email_your_turn"),
        ({"email": "not an address"}, "email"),
        ({"email": "a" * 250 + "@example.com"}, "email"),
        ({"last_seen_at": "2020-01-01T00:00:00Z"}, "non_field_errors"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(api: APIClient, user: Any, body: dict, field: str) -> None:
    response = api.patch("/api/me/settings/", body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "invalid" and field in error["extra"]["fields"]
    row = preferences.settings_get(user)  # nothing half-applied (the row may exist: presence)
    assert (row.sound, row.email_your_turn) == (True, True)
    user.refresh_from_db()
    assert user.email == "dana@example.com"


def test_a_list_body_is_refused(api: APIClient) -> None:
    assert api.patch("/api/me/settings/", [1, 2], format="json").status_code == 400


# ---------- the settings page ----------


def test_settings_page_saves_the_form(user: Any) -> None:
    client = Client()
    assert client.get("/accounts/settings/").status_code == 302  # login first
    client.force_login(user)
    page = client.get("/accounts/settings/")
    assert page.status_code == 200 and b"dana@example.com" in page.content
    response = client.post(
        "/accounts/settings/", {"email": "d2@example.com", "sound": "on", "browser_notifications": "on"}
    )
    assert response.status_code == 302
    row = UserSettings.objects.get(user=user)
    assert (row.sound, row.browser_notifications, row.email_your_turn, row.low_time_warning) == (
        True,
        True,
        False,
        False,
    )
    assert row.notifications_asked is True
    user.refresh_from_db()
    assert user.email == "d2@example.com"


def test_settings_page_refuses_a_bad_address(user: Any) -> None:
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/settings/", {"email": "nope", "sound": "on"})
    assert response.status_code == 200 and b"Enter a valid email address" in response.content
    user.refresh_from_db()
    assert user.email == "dana@example.com"


def test_header_links_my_games_and_settings(user: Any) -> None:
    client = Client()
    client.force_login(user)
    html = client.get("/").content.decode()
    assert 'href="/play/mine/"' in html and 'href="/accounts/settings/"' in html
    assert "frontend/js/your_turn.js" in html


def test_signup_takes_an_optional_email() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "erin",
            "email": "erin@example.com",
            "password1": "a-long-pass-9431",
            "password2": "a-long-pass-9431",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="erin").email == "erin@example.com"
    response = Client().post(
        "/accounts/signup/",
        {"username": "finn", "password1": "a-long-pass-9431", "password2": "a-long-pass-9431"},
    )
    assert response.status_code == 302 and User.objects.get(username="finn").email == ""


# ---------- unsubscribe ----------


def test_unsubscribe_link_asks_then_turns_emails_off_without_a_login(user: Any) -> None:
    url = f"/accounts/unsubscribe/{preferences.unsubscribe_token(user.pk)}/"
    client = Client(enforce_csrf_checks=True)
    page = client.get(url)
    assert page.status_code == 200 and b"Stop these e-mails" in page.content
    assert preferences.settings_get(user).email_your_turn is True  # GET changes nothing (link scanners)
    done = client.post(url)  # the page's button, or a mail client's RFC 8058 one-click POST
    assert done.status_code == 200 and b"turned off" in done.content
    assert preferences.settings_get(user).email_your_turn is False


@pytest.mark.parametrize("how", ["tampered", "other_salt", "garbage", "too_long"])
def test_a_bad_unsubscribe_link_is_a_400_page(user: Any, how: str) -> None:
    token = preferences.unsubscribe_token(user.pk)
    bad = {
        "tampered": token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        "other_salt": signing.dumps({"u": user.pk, "w": "email_your_turn"}, salt="something.else"),
        "garbage": "hello",
        "too_long": "x" * 300,
    }[how]
    for method in ("get", "post"):
        response = getattr(Client(), method)(f"/accounts/unsubscribe/{bad}/")
        assert response.status_code == 400 and b"not valid" in response.content
    assert preferences.settings_get(user).email_your_turn is True


def test_an_expired_unsubscribe_link_is_refused(user: Any, monkeypatch: Any) -> None:
    token = preferences.unsubscribe_token(user.pk)
    monkeypatch.setattr(preferences, "UNSUBSCRIBE_MAX_AGE_S", -1)
    assert Client().post(f"/accounts/unsubscribe/{token}/").status_code == 400


# ---------- /play/mine/ ----------


def _match(creator: Any, other: Any, *, start: bool = True, per_move_s: int | None = None) -> Match:
    tc = {"per_move_s": per_move_s} if per_move_s else {"initial_s": 600, "increment_s": 5}
    match = match_create(user=creator, kind="counting", time_control=tc)
    match_join(match_id=match.pk, user=other)
    if start:
        match_start(match_id=match.pk, user=creator)
    return match


def _to_move(match: Match, user: Any) -> Match:
    """Have the other player move first when the seeded start gave `user`'s opponent the move."""
    seat = Seat.objects.get(match=match, clock_started_at__isnull=False)
    if seat.user != user:
        match.refresh_from_db()
        action_submit(
            match_id=match.pk,
            user=seat.user,
            action_json={"type": "add", "n": 1},
            state_version=match.state_version,
        )
    return match


def test_my_games_lists_the_ones_waiting_for_me_first_soonest_deadline_first(user: Any) -> None:
    rival = User.objects.create_user("rival", password="pw-rival-12345")
    third = User.objects.create_user("third", password="pw-third-12345")
    later = _to_move(_match(user, rival, per_move_s=86400), user)
    soon = _to_move(_match(user, rival, per_move_s=3600), user)
    theirs = _to_move(_match(rival, user), rival)
    open_table = match_create(user=user, kind="counting")
    finished = _match(user, third)
    match_concede(match_id=finished.pk, user=user)
    other_people = _match(rival, third)  # not mine

    def waiting(m: Match) -> Seat:
        return Seat.objects.get(match=m, clock_started_at__isnull=False)

    assert waiting(soon).user == user and waiting(theirs).user == rival
    games = my_games(user=user)
    assert [g.id for g in games.your_turn] == [soon.pk, later.pk]
    assert games.your_turn[0].time_left_ms <= 3600 * 1000 and games.your_turn[0].correspondence
    assert [g.id for g in games.running] == [theirs.pk]
    assert [g.id for g in games.open] == [open_table.pk]
    assert [g.id for g in games.finished] == [finished.pk]
    assert (
        games.finished[0].outcome == "lost" and games.finished[0].replay_url == f"/play/{finished.pk}/replay/"
    )
    assert other_people.pk not in {g["id"] for part in games.as_dict().values() for g in part}

    client = Client()
    client.force_login(user)
    html = client.get("/play/mine/").content.decode()
    # On the page too: the waiting ones come before every other game.
    order = [html.index(f'data-match="{m.pk}"') for m in (soon, later, theirs, open_table, finished)]
    assert order == sorted(order)
    assert "rival" in html and "Lost" in html and f"/play/{finished.pk}/replay/" in html


def test_my_games_needs_a_login() -> None:
    response = Client().get("/play/mine/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_finished_match_leaves_the_waiting_list(user: Any) -> None:
    rival = User.objects.create_user("rival", password="pw-rival-12345")
    match = _to_move(_match(user, rival, per_move_s=86400), user)
    assert [g.id for g in my_games(user=user).your_turn] == [match.pk]
    match_concede(match_id=match.pk, user=rival)
    games = my_games(user=user, now=timezone.now() + timedelta(seconds=1))
    assert games.your_turn == [] and games.finished[0].outcome == "won"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


def test_my_games_api_answers_the_same_lists(user: Any, api: APIClient) -> None:
    rival = User.objects.create_user("rival", password="pw-rival-12345")
    mine = _to_move(_match(user, rival, per_move_s=86400), user)
    assert APIClient().get("/api/me/games/").status_code in (401, 403)
    body = api.get("/api/me/games/").json()
    assert [g["id"] for g in body["your_turn"]] == [mine.pk]
    assert body["your_turn"][0]["opponents"] == ["rival"] and body["your_turn"][0]["deadline"]
    assert body["running"] == body["open"] == body["finished"] == []


def test_my_turns_counts_the_games_waiting_for_me(user: Any, api: APIClient) -> None:
    rival = User.objects.create_user("rival", password="pw-rival-12345")
    assert api.get("/api/me/turns/").json() == {"count": 0, "matches": []}
    later = _to_move(_match(user, rival, per_move_s=86400), user)
    soon = _to_move(_match(user, rival, per_move_s=3600), user)
    _to_move(_match(rival, user), rival)  # rival's move: not counted
    assert api.get("/api/me/turns/").json() == {"count": 2, "matches": [soon.pk, later.pk]}
    assert APIClient().get("/api/me/turns/").status_code in (401, 403)


def test_the_header_badge_comes_with_the_page(user: Any) -> None:
    """The "My games" badge is in the page as the server draws it (no wait for the script's first read),
    on the link and on the phone menu's button; no badge at zero, none for a visitor; one query."""
    rival = User.objects.create_user("rival", password="pw-rival-12345")
    client = Client()
    client.force_login(user)
    html = client.get("/cards/").content.decode()
    assert 'data-testid="nav-turns"' not in html and 'data-turns="0"' in html
    _to_move(_match(user, rival, per_move_s=86400), user)
    _to_move(_match(user, rival, per_move_s=3600), user)
    _to_move(_match(rival, user), rival)  # the rival's move: not counted
    html = client.get("/cards/").content.decode()
    # the badge repeats the count the link's name says: hidden from screen readers, after a space so the
    # visible "My games 2" is the start of the name (WCAG 2.5.3)
    assert '>My games <span class="nav-badge" data-testid="nav-turns" aria-hidden="true">2</span></a>' in html
    assert '<span class="nav-badge" data-testid="nav-turns-menu">2</span></label>' in html
    assert 'aria-label="My games: 2 waiting for your move"' in html and 'data-turns="2"' in html
    visitor = Client().get("/cards/").content.decode()
    assert "nav-turns" not in visitor and "nav-my-games" not in visitor
    # The count costs the page one query.
    with CaptureQueriesContext(connection) as ctx:
        client.get("/cards/")
    assert len([q for q in ctx.captured_queries if '"matches_seat"' in q["sql"]]) == 1
