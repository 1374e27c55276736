"""The REST API of online play: shapes, error codes and permissions (non-participants get 403 on writes)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from matches.tests.conftest import mover

pytestmark = pytest.mark.django_db


def client_for(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def test_health_is_public() -> None:
    r = APIClient().get("/api/health/")
    assert r.status_code == 200 and r.json()["ok"] is True


def test_create_join_start_over_http(alice: Any, bob: Any) -> None:
    body = {"kind": "counting", "is_public": False, "auto_start": False}
    r = client_for(alice).post("/api/matches/", body, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    match_id, token = body["id"], body["invite_token"]
    assert body["status"] == "waiting" and body["you"] == 0
    assert "seed" not in body and "state" not in body
    r = client_for(bob).post(f"/api/matches/{match_id}/join/", {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_invited"
    r = client_for(bob).post(f"/api/matches/{match_id}/join/", {"invite_token": token}, format="json")
    assert r.status_code == 200 and r.json()["you"] == 1 and "invite_token" not in r.json()
    r = client_for(bob).post(f"/api/matches/{match_id}/start/")
    assert r.status_code == 200
    state = r.json()
    assert state["status"] == "active" and state["view"]["hand"] is not None


def test_a_match_starts_by_itself_when_its_last_seat_is_taken(alice: Any, bob: Any) -> None:
    r = client_for(alice).post("/api/matches/", {"kind": "counting"}, format="json")
    assert r.status_code == 201 and r.json()["auto_start"] is True  # the default
    r = client_for(bob).post(f"/api/matches/{r.json()['id']}/join/", {}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "active"


def test_a_match_created_without_auto_start_waits_for_a_seated_player(alice: Any, bob: Any) -> None:
    r = client_for(alice).post("/api/matches/", {"kind": "counting", "auto_start": False}, format="json")
    match_id = r.json()["id"]
    assert (
        client_for(bob).post(f"/api/matches/{match_id}/join/", {}, format="json").json()["status"]
        == "waiting"
    )
    assert client_for(alice).post(f"/api/matches/{match_id}/start/").json()["status"] == "active"
    bad = client_for(alice).post(
        "/api/matches/", {"kind": "counting", "auto_start": "sometimes"}, format="json"
    )
    assert bad.status_code == 400 and "auto_start" in str(bad.json()["extra"])


def test_a_westeros_game_starts_by_itself_when_its_last_house_joins_w_1_1(
    alice: Any, bob: Any, carol: Any
) -> None:
    body = {"kind": "westeros", "rules_config": {"player_count": 3, "seating": "choose", "house": "stark"}}
    match_id = client_for(alice).post("/api/matches/", body, format="json").json()["id"]
    first = client_for(bob).post(f"/api/matches/{match_id}/join/", {"house": "lannister"}, format="json")
    assert first.json()["status"] == "waiting"
    last = client_for(carol).post(f"/api/matches/{match_id}/join/", {"house": "baratheon"}, format="json")
    assert last.status_code == 200 and last.json()["status"] == "active"
    assert Match.objects.get(pk=match_id).started_at is not None


def test_a_start_refused_at_the_last_join_keeps_the_seat_and_the_match_waiting(alice: Any, bob: Any) -> None:
    from matches.tests.commandeer_fixtures import legal_deck

    deck_a, deck_b = legal_deck(alice, "stonehold"), legal_deck(bob, "stonehold")
    body = {"kind": "commandeer", "deck_id": deck_a.pk}
    match_id = client_for(alice).post("/api/matches/", body, format="json").json()["id"]
    deck_a.entries.all().delete()  # no longer legal (C-3.1): the start refuses it
    r = client_for(bob).post(f"/api/matches/{match_id}/join/", {"deck_id": deck_b.pk}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "waiting" and r.json()["you"] == 1
    refused = client_for(bob).post(f"/api/matches/{match_id}/start/")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_deck"


def test_unknown_kind_is_a_400_naming_the_field(alice: Any) -> None:
    r = client_for(alice).post("/api/matches/", {"kind": "chess"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "kind" in r.json()["extra"]["fields"]


def test_submit_action_and_error_codes_over_http(started: Match, alice: Any, bob: Any) -> None:
    me, other = mover(started, alice, bob)
    url = f"/api/matches/{started.pk}/actions/"
    legal = client_for(me).get(f"/api/matches/{started.pk}/legal-actions/").json()
    assert {"action": {"type": "add", "n": 1}, "description": legal["actions"][0]["description"]} in legal[
        "actions"
    ]
    assert client_for(other).get(f"/api/matches/{started.pk}/legal-actions/").json()["actions"] == []
    r = client_for(other).post(url, {"action": {"type": "add", "n": 1}, "state_version": 0}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
    r = client_for(me).post(url, {"action": {"type": "add", "n": 9}, "state_version": 0}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "illegal_action")
    r = client_for(me).post(
        url,
        {"action": {"type": "add", "n": 1}, "state_version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc",
    )
    assert r.status_code == 200 and r.json()["state_version"] == 1
    r2 = client_for(me).post(
        url,
        {"action": {"type": "add", "n": 1}, "state_version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc",
    )
    first, again = r.json(), r2.json()
    result_fields = ("state_version", "status", "result", "current_players")
    assert [again[f] for f in result_fields] == [first[f] for f in result_fields]  # the first answer
    assert (first["replayed"], again["replayed"]) == (False, True)
    # Both carry the caller's own snapshot at version 1: the submit's built without a query, with the one new
    # log entry to append; it equals what the state endpoint answers then.
    assert first["state"]["state_version"] == again["state"]["state_version"] == 1
    assert first["state"]["log_since"] == 0 and [e["version"] for e in first["state"]["log"]] == [1]
    fresh = client_for(me).get(f"/api/matches/{started.pk}/state/?log_since=0").json()
    volatile = ("server_time", "seats")
    assert {k: v for k, v in first["state"].items() if k not in volatile} == {
        k: v for k, v in fresh.items() if k not in volatile
    }
    r = client_for(other).post(url, {"action": {"type": "add", "n": 1}, "state_version": 0}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["extra"]["state_version"]) == (409, "stale_state", 1)
    r = client_for(me).post(url, {"action": {"type": "add"}}, format="json")
    assert r.status_code == 400 and "state_version" in r.json()["message"]


def test_log_and_replay(started: Match, alice: Any, bob: Any) -> None:
    for _ in range(20):
        started.refresh_from_db()
        if started.status != "active":
            break
        me, _ = mover(started, alice, bob)
        client_for(me).post(
            f"/api/matches/{started.pk}/actions/",
            {"action": {"type": "add", "n": 2}, "state_version": started.state_version},
            format="json",
        )
    started.refresh_from_db()
    entries = client_for(None).get(f"/api/matches/{started.pk}/log/").json()["entries"]
    assert [e["version"] for e in entries] == list(range(1, started.state_version + 1))
    assert all("adds 2" in e["text"] for e in entries)
    replay = client_for(alice).get(f"/api/matches/{started.pk}/replay/").json()
    frames = replay["frames"]
    assert len(frames) == started.state_version + 1
    assert frames[-1]["view"]["total"] == started.state["total"]
    assert frames[-1]["view"]["hand"] == started.state["hands"][0]  # alice sees her own hand only
    spectator = client_for(None).get(f"/api/matches/{started.pk}/replay/").json()
    assert all("hand" not in f["view"] for f in spectator["frames"])


def test_replay_of_a_running_match_is_refused(started: Match) -> None:
    r = client_for(None).get(f"/api/matches/{started.pk}/replay/")
    assert (r.status_code, r.json()["code"]) == (409, "not_finished")


WRITES = ["join", "leave", "start", "actions", "concede"]


@pytest.mark.parametrize("endpoint", WRITES)
def test_non_participants_get_403_on_every_write(started: Match, carol: Any, endpoint: str) -> None:
    r = client_for(carol).post(
        f"/api/matches/{started.pk}/{endpoint}/",
        {"action": {"type": "add", "n": 1}, "state_version": 0},
        format="json",
    )
    expected = 409 if endpoint == "join" else 403  # joining a public match is allowed until it has started
    assert r.status_code == expected, (endpoint, r.content)


@pytest.mark.parametrize("endpoint", WRITES)
def test_anonymous_users_get_401_on_every_write(started: Match, endpoint: str) -> None:
    r = APIClient().post(f"/api/matches/{started.pk}/{endpoint}/", {}, format="json")
    assert r.status_code == 401 and r["WWW-Authenticate"] == "Token"  # no credentials: say which to send


@pytest.mark.parametrize("endpoint", ["", "state/", "legal-actions/", "log/", "replay/"])
def test_private_match_reads_are_closed_to_outsiders(alice: Any, carol: Any, endpoint: str) -> None:
    r = client_for(alice).post("/api/matches/", {"kind": "counting", "is_public": False}, format="json")
    r = client_for(carol).get(f"/api/matches/{r.json()['id']}/{endpoint}")
    assert r.status_code == 403


def test_no_read_endpoint_gives_the_other_players_hand(started: Match, alice: Any, bob: Any) -> None:
    started.refresh_from_db()
    hands = started.state["hands"]
    for viewer, pos in ((alice, 0), (bob, 1), (None, None)):
        for endpoint in ("", "state/", "legal-actions/", "log/"):
            body = client_for(viewer).get(f"/api/matches/{started.pk}/{endpoint}").json()
            assert "seed" not in str(body) and "deck_snapshot" not in str(body)
            if endpoint == "state/":
                if pos is None:
                    assert "hand" not in body["view"]
                else:
                    assert body["view"]["hand"] == hands[pos]


def test_list_shows_public_matches_and_my_private_ones(started: Match, alice: Any, carol: Any) -> None:
    client_for(alice).post("/api/matches/", {"kind": "counting", "is_public": False}, format="json")
    mine = client_for(alice).get("/api/matches/").json()
    theirs = client_for(carol).get("/api/matches/").json()
    assert mine["count"] == 2 and theirs["count"] == 1


def test_openapi_schema_documents_the_match_endpoints(alice: Any) -> None:
    r = client_for(alice).get("/api/schema/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    paths = r.json()["paths"] if r["content-type"].startswith("application/json") else r.content.decode()
    for p in ("/api/matches/{match_id}/actions/", "/api/matches/{match_id}/replay/", "/api/health/"):
        assert p in paths


def test_unknown_match_is_a_404_with_a_code(alice: Any) -> None:
    for method, endpoint in (("get", "state/"), ("post", "actions/"), ("post", "join/")):
        r = getattr(client_for(alice), method)(
            f"/api/matches/987654/{endpoint}", {"action": {}, "state_version": 0}, format="json"
        )
        assert (r.status_code, r.json()["code"]) == (404, "not_found"), (endpoint, r.content)


def test_legal_actions_name_the_seated_player_not_player_n(started: Match, alice: Any, bob: Any) -> None:
    me, _ = mover(started, alice, bob)
    actions = client_for(me).get(f"/api/matches/{started.pk}/legal-actions/").json()["actions"]
    assert actions and all(a["description"].startswith(f"{me.username} ") for a in actions)
    assert not any("Player " in a["description"] for a in actions)
