"""Abuse bounds of online play, so one user cannot exhaust the server: match creation is throttled, a
user's open matches are bounded, a double submit of "create" (e.g. "Play against the AI") makes one match,
and `?since=garbage` is a 400."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from config.errors import ApplicationError
from matches.models import Match, MatchStatus
from matches.services.lobby import match_create, match_leave

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def test_match_creation_is_throttled_per_user(alice: Any, bob: Any) -> None:
    cache.clear()
    with override_settings(MATCHES_CREATE_RATE="3/min"):
        answers = [
            client_for(alice).post(
                "/api/matches/", {"kind": "counting", "rules_config": {"target": 10 + i}}, format="json"
            )
            for i in range(4)
        ]
        assert [r.status_code for r in answers] == [201, 201, 201, 429]
        assert answers[-1].json()["code"] == "throttled" and "throttled" in answers[-1].json()["message"]
        assert client_for(alice).get("/api/matches/").status_code == 200  # listing is not throttled
        r = client_for(bob).post("/api/matches/", {"kind": "counting"}, format="json")
        assert r.status_code == 201  # per user
    cache.clear()


@override_settings(MATCHES_MAX_OPEN_PER_USER=3)
def test_a_user_has_a_bounded_number_of_open_matches(alice: Any, bob: Any) -> None:
    for target in (10, 11, 12):
        match_create(user=alice, kind="counting", rules_config={"target": target})
    r = client_for(alice).post("/api/matches/", {"kind": "counting", "is_public": False}, format="json")
    assert r.status_code == 409, r.content
    body = r.json()
    assert body["code"] == "too_many_open_matches" and "at most 3" in body["message"]
    assert body["extra"] == {"open_matches": 3, "limit": 3}
    assert Match.objects.filter(created_by=alice).count() == 3
    # joining another's match counts too
    theirs = match_create(user=bob, kind="counting")
    r = client_for(alice).post(f"/api/matches/{theirs.pk}/join/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "too_many_open_matches")
    # a finished or cancelled match frees a place
    match_leave(match_id=Match.objects.filter(created_by=alice).first().pk, user=alice)
    assert client_for(alice).post(f"/api/matches/{theirs.pk}/join/", {}, format="json").status_code == 200


@override_settings(MATCHES_MAX_OPEN_PER_USER=1)
def test_the_open_match_limit_holds_in_the_service(alice: Any) -> None:
    match_create(user=alice, kind="counting")
    with pytest.raises(ApplicationError) as info:
        match_create(user=alice, kind="counting", rules_config={"target": 7})
    assert info.value.code == "too_many_open_matches" and info.value.status_code == 409


def test_a_double_click_on_play_against_the_ai_creates_one_match(alice: Any) -> None:
    body = {"kind": "counting", "vs_ai": True, "time_control": {"initial_s": 300, "increment_s": 10}}
    first = client_for(alice).post("/api/matches/", body, format="json")
    second = client_for(alice).post("/api/matches/", body, format="json")
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["id"] == second.json()["id"]
    assert Match.objects.filter(created_by=alice).count() == 1
    other = client_for(alice).post(
        "/api/matches/", {**body, "time_control": {"per_move_s": 600}}, format="json"
    )
    assert (
        other.status_code == 201 and other.json()["id"] != first.json()["id"]
    )  # other settings: a new match


def test_the_same_create_after_the_match_ended_is_a_new_game_not_a_double_click(alice: Any) -> None:
    body = {"kind": "counting", "vs_ai": True, "time_control": {"initial_s": 300, "increment_s": 10}}
    first = client_for(alice).post("/api/matches/", body, format="json")
    assert first.status_code == 201
    conceded = client_for(alice).post(f"/api/matches/{first.json()['id']}/concede/", {}, format="json")
    assert conceded.status_code == 200 and Match.objects.get(pk=first.json()["id"]).status == "finished"
    again = client_for(alice).post("/api/matches/", body, format="json")  # within the 10 s window
    assert again.status_code == 201 and again.json()["id"] != first.json()["id"]


def test_the_same_idempotency_key_names_one_match_and_a_new_key_a_new_one(alice: Any) -> None:
    c = client_for(alice)
    a = c.post("/api/matches/", {"kind": "counting"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    b = c.post(  # the same request (the default spelled out): the first match again
        "/api/matches/", {"kind": "counting", "is_public": True}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    d = c.post("/api/matches/", {"kind": "counting"}, format="json", HTTP_IDEMPOTENCY_KEY="k2")
    assert (a.status_code, b.status_code, d.status_code) == (201, 200, 201)
    assert a.json()["id"] == b.json()["id"] != d.json()["id"]


def test_an_idempotency_key_reused_with_another_body_on_create_is_a_409_and_creates_nothing(
    alice: Any,
) -> None:
    c = client_for(alice)
    a = c.post("/api/matches/", {"kind": "counting"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert a.status_code == 201
    for other in ({"kind": "counting", "is_public": False}, {"kind": "counting", "vs_ai": True}):
        b = c.post("/api/matches/", other, format="json", HTTP_IDEMPOTENCY_KEY="k1")
        assert (b.status_code, b.json()["code"]) == (409, "idempotency_key_reused"), b.json()
        assert "different request" in b.json()["message"]
    assert Match.objects.filter(created_by=alice).count() == 1
    assert Match.objects.get(pk=a.json()["id"]).is_public  # the first match is untouched
    again = c.post("/api/matches/", {"kind": "counting"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (again.status_code, again.json()["id"]) == (200, a.json()["id"])


def test_a_cancelled_match_is_not_handed_back_to_a_new_create(alice: Any) -> None:
    c = client_for(alice)
    first = c.post("/api/matches/", {"kind": "counting"}, format="json").json()
    match_leave(match_id=first["id"], user=alice)
    again = c.post("/api/matches/", {"kind": "counting"}, format="json")
    assert again.status_code == 201 and again.json()["id"] != first["id"]
    assert Match.objects.get(pk=first["id"]).status == MatchStatus.ABORTED


@pytest.mark.parametrize("since", ["garbage", "-1", "1.5", "1e3", "９"])
def test_log_since_garbage_is_a_400_like_state_log_since(started: Match, alice: Any, since: str) -> None:
    c = client_for(alice)
    r = c.get(f"/api/matches/{started.pk}/log/", {"since": since})
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid_parameter" and "since" in r.json()["message"]
    r = c.get(f"/api/matches/{started.pk}/state/", {"log_since": since})
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"


def test_log_since_a_version_still_works(started: Match, alice: Any) -> None:
    r = client_for(alice).get(f"/api/matches/{started.pk}/log/", {"since": "0"})
    assert r.status_code == 200 and r.json() == {"entries": []}
