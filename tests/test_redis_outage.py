"""Redis out of reach: the API answers 503 service_unavailable with Retry-After (never 500), pages the site's
503 page, and logging in through the API keeps working (the lockouts live in the database). Here the cache
points at a closed port; tests/integration/test_redis_outage.py stops a real Redis under a running server
and sees the site recover by itself."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

import matches.tests.fakegame  # noqa: F401  (registers kind "counting")
from config.errors import RETRY_AFTER_S, service_unavailable

CLOSED = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
}
User = get_user_model()


@pytest.fixture
def alice(db: Any) -> Any:
    return User.objects.create_user("alice", password="alice-pass-123")


def _assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.content[:500]
    assert response["Retry-After"] == str(RETRY_AFTER_S)
    body = json.loads(response.content)
    assert set(body) == {"code", "message", "extra"}
    assert body["code"] == "service_unavailable" and body["extra"] == {"retry_after": RETRY_AFTER_S}
    assert body["message"]


@override_settings(CACHES=CLOSED, MATCHES_CREATE_RATE="30/min")
def test_creating_a_match_without_redis_is_503_with_retry_after(alice: Any) -> None:
    from matches.models import Match

    client = APIClient()
    client.force_authenticate(alice)
    _assert_unavailable(client.post("/api/matches/", {"kind": "counting"}, format="json"))
    assert not Match.objects.exists()  # refused before anything was stored


@override_settings(CACHES=CLOSED, CHAT_RATE="10/min", CHAT_BURST_RATE="3/5s")
def test_a_chat_post_without_redis_is_503_with_retry_after(alice: Any) -> None:
    from matches.models import ChatMessage
    from matches.services.lobby import match_create, match_join

    bob = User.objects.create_user("bob", password="bob-pass-123")
    match = match_create(user=alice, kind="counting", spectator_chat=True)
    match_join(match_id=match.pk, user=bob)
    client = APIClient()
    client.force_authenticate(alice)
    response = client.post(f"/api/matches/{match.pk}/chat/?channel=table", {"body": "hi"}, format="json")
    _assert_unavailable(response)
    assert not ChatMessage.objects.exists()


@override_settings(CACHES=CLOSED)
def test_logging_in_through_the_api_works_without_redis(alice: Any) -> None:
    """The token endpoint's rate limit is skipped while Redis is out of reach (config.throttling)."""
    from rest_framework.throttling import AnonRateThrottle

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "120/min"})  # tests switch rates off
        response = APIClient().post(
            "/api/auth/token/", {"username": "alice", "password": "alice-pass-123"}, format="json"
        )
        assert response.status_code == 200 and response.json()["token"]
        # ...and the signup rate, which nothing else backs, refuses rather than opens
        patch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "120/min", "signup": "10/hour"})
        signup = APIClient().post(
            "/api/auth/signup/", {"username": "newcomer", "password": "a-long-pass-123"}, format="json"
        )
        _assert_unavailable(signup)


@override_settings(CACHES=CLOSED)
def test_logging_in_on_the_page_works_without_redis(alice: Any) -> None:
    client = Client()
    response = client.post("/accounts/login/", {"username": "alice", "password": "alice-pass-123"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)
    assert client.get("/").status_code == 200  # signed in, "last seen" cannot be recorded: skipped


@override_settings(CACHES=CLOSED)
def test_the_lockout_still_holds_without_redis(alice: Any) -> None:
    from django.conf import settings
    from rest_framework.throttling import AnonRateThrottle

    limit = settings.AXES_FAILURE_LIMIT
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "120/min"})
        codes = [
            APIClient()
            .post("/api/auth/token/", {"username": "alice", "password": f"guess-{i}"}, format="json")
            .status_code
            for i in range(limit)
        ]
    assert codes[-1] == 429 and set(codes[:-1]) == {400}


def test_a_page_whose_view_cannot_reach_redis_is_the_sites_503_page(rf: RequestFactory, db: Any) -> None:
    """handler500 answers the 503 page, with Retry-After, when the error is Redis out of reach."""
    import redis.exceptions

    from frontend.errors import server_error

    request = rf.get("/play/")
    request.user = _anonymous()
    try:
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    except redis.exceptions.ConnectionError:
        response = server_error(request)
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER_S)
    assert (
        'class="site-header"' in response.content.decode()
        and "Connection refused" not in response.content.decode()
    )
    # any other error is still the 500 page
    try:
        raise KeyError("bug")
    except KeyError:
        assert server_error(request).status_code == 500


def test_a_503_page_under_api_becomes_the_json_error_with_retry_after(rf: RequestFactory) -> None:
    from config.middleware import _as_json

    page = HttpResponse("<html>503</html>", status=503, content_type="text/html")
    page["Retry-After"] = "5"
    _assert_unavailable(_as_json(rf.get("/api/matches/"), page))


def test_what_counts_as_a_service_out_of_reach() -> None:
    import redis.exceptions
    from kombu.exceptions import OperationalError

    assert service_unavailable(redis.exceptions.ConnectionError("refused"))
    assert service_unavailable(redis.exceptions.TimeoutError("Timeout reading"))
    assert service_unavailable(OperationalError("broker"))
    try:
        try:
            raise redis.exceptions.ConnectionError("refused")
        except redis.exceptions.ConnectionError as exc:
            raise RuntimeError("while reading the cache") from exc
    except RuntimeError as wrapped:
        assert service_unavailable(wrapped)
    assert not service_unavailable(ValueError("bad input"))
    assert not service_unavailable(redis.exceptions.ResponseError("WRONGTYPE"))
    assert not service_unavailable(None)


def _anonymous() -> Any:
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()
