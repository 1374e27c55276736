"""A stored match whose state today's engine refuses answers a clear 410, never a 500.

For example a finished match stored with rules settings that today's strict `RulesConfig.from_dict`
rejects: its state, log-backed snapshot and replay say "this match's stored state cannot be loaded".
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import storage
from matches.models import Match
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.storage import StateUnloadable, load_state
from matches.tests.commandeer_fixtures import legal_deck

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def unloadable(alice: Any, bob: Any) -> Match:
    """A finished Commandeer match whose stored snapshots name a rules setting that no longer exists."""
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    match_concede(match_id=match.pk, user=bob)
    row = Match.objects.get(pk=match.pk)
    bad = {**row.state, "config": {"retired_rule": True}}
    Match.objects.filter(pk=match.pk).update(state=bad, state_base=bad)
    storage.clear_state_cache()
    return Match.objects.get(pk=match.pk)


def test_loading_an_unloadable_state_raises_a_410_naming_the_problem(unloadable: Match) -> None:
    with pytest.raises(StateUnloadable) as caught:
        load_state(unloadable)
    assert caught.value.status_code == 410 and caught.value.code == "state_unloadable"
    assert "stored state cannot be loaded" in caught.value.message and "retired_rule" in caught.value.message


@pytest.mark.parametrize("path", ["state/", "replay/", ""])
def test_its_api_pages_answer_410_with_the_error_shape_not_500(
    unloadable: Match, alice: Any, path: str
) -> None:
    r = _client(alice).get(f"/api/matches/{unloadable.pk}/{path}")
    if path == "":  # the lobby card needs no state
        assert r.status_code == 200, r.content
        return
    assert r.status_code == 410, r.content
    body = r.json()
    assert body["code"] == "state_unloadable"
    assert body["message"].startswith("This match's stored state cannot be loaded")
    assert body["extra"] == {"match_id": unloadable.pk}


def test_its_log_still_reads(unloadable: Match, alice: Any) -> None:
    r = _client(alice).get(f"/api/matches/{unloadable.pk}/log/")
    assert r.status_code == 200 and r.json()["entries"] is not None
