"""The online-play pages render, guard private matches and hand the scripts what they need."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from matches.models import Match
from matches.services.lobby import match_create

pytestmark = pytest.mark.django_db


def login(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_lobby_renders_for_visitors_and_players(alice: Any) -> None:
    assert Client().get("/play/").status_code == 200
    r = login(alice).get("/play/")
    assert r.status_code == 200 and b'data-testid="play-ai"' in r.content and "csrftoken" in r.cookies


def test_match_page_for_players_and_spectators(started: Match, alice: Any, carol: Any) -> None:
    r = login(alice).get(f"/play/{started.pk}/")
    assert r.status_code == 200 and b'data-you="0"' in r.content
    r = login(carol).get(f"/play/{started.pk}/")
    assert r.status_code == 200 and b'data-you=""' in r.content
    assert str(started.seed).encode() not in r.content


def test_private_match_page_is_403_for_outsiders_but_open_through_the_invite(alice: Any, carol: Any) -> None:
    match = match_create(user=alice, kind="counting", is_public=False)
    refused = login(carol).get(f"/play/{match.pk}/")  # signed in, not seated: told why, not "not found"
    assert refused.status_code == 403 and b"This match is private." in refused.content
    r = login(carol).get(f"/play/join/{match.invite_token}/")
    assert r.status_code == 200 and b'data-testid="join"' in r.content
    assert login(carol).get("/play/join/not-a-token/").status_code == 404


def test_replay_page_renders(started: Match) -> None:
    assert Client().get(f"/play/{started.pk}/replay/").status_code == 200


def test_a_started_westeros_match_opens_the_westeros_table(alice: Any) -> None:
    match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    r = login(alice).get(f"/play/{match.pk}/")
    assert r.status_code == 302 and r["Location"] == f"/westeros/games/{match.pk}/"
    assert login(alice).get(r["Location"]).status_code == 200  # the frontend's table reads this match
