"""The guarded submit (`guard: true`): a move that loses the match at once while another legal move does
not is refused with 409 `loses_at_once` and its reason (C-6.2), nothing applied; the same move without the
guard is played as before (the rules do not change)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from matches.games.registry import get_game
from matches.losing import avoidable_loss
from matches.models import ActionLog, Match, MatchStatus
from matches.services.lobby import match_create, match_join, match_start
from matches.storage import load_state
from matches.tests.commandeer_fixtures import legal_deck
from matches.tests.rigging import rig_deploying_position

pytestmark = pytest.mark.django_db

PASS = {"type": "pass", "player": 0}


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    """A request in Thai or Chinese leaves its language active in this thread: the next test starts in English."""
    yield
    translation.activate("en")


def _rigged(alice: Any, bob: Any, *, own_unit: bool = False) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    return rig_deploying_position(Match.objects.get(pk=match.pk), own_unit=own_unit)


def _post(user: Any, match: Match, body: dict[str, Any], language: str = "en") -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(
        f"/api/matches/{match.pk}/actions/",
        {"action": PASS, "state_version": match.state_version, **body},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_ending_planning_with_no_unit_is_refused_when_guarded_c_6_2(alice: Any, bob: Any) -> None:
    match = _rigged(alice, bob)  # seat 0 in Planning, no unit of its own, a unit to deploy in hand
    answer = _post(alice, match, {"guard": True})
    assert answer.status_code == 409, answer.content
    body = answer.json()
    assert body["code"] == "loses_at_once"
    assert body["extra"]["reason"] == "no unit on the battlefield (C-6.2)"
    assert body["extra"]["winner"] == 1
    assert "C-6.2" in body["message"]
    after = Match.objects.get(pk=match.pk)
    assert after.state_version == match.state_version and after.status == MatchStatus.ACTIVE
    assert not ActionLog.objects.filter(match=match, version__gt=match.state_version).exists()


def test_the_reason_is_in_the_readers_language(alice: Any, bob: Any) -> None:
    match = _rigged(alice, bob)
    th = _post(alice, match, {"guard": True}, "th").json()
    zh = _post(alice, match, {"guard": True}, "zh-hans").json()
    assert "C-6.2" in th["extra"]["reason"] and "C-6.2" in zh["extra"]["reason"]
    assert th["extra"]["reason"] != zh["extra"]["reason"] != "no unit on the battlefield (C-6.2)"
    assert th["message"] != zh["message"]


def test_without_the_guard_the_move_is_played_and_loses_c_6_2(alice: Any, bob: Any) -> None:
    match = _rigged(alice, bob)
    answer = _post(alice, match, {})
    assert answer.status_code == 200, answer.content
    after = Match.objects.get(pk=match.pk)
    assert after.status == MatchStatus.FINISHED and after.result["winner"] == 1
    assert after.result["reason"] == "no_units"


def test_a_safe_move_passes_the_guard(alice: Any, bob: Any) -> None:
    match = _rigged(alice, bob, own_unit=True)  # a unit of its own: ending Planning loses nothing
    answer = _post(alice, match, {"guard": True})
    assert answer.status_code == 200, answer.content
    assert Match.objects.get(pk=match.pk).state_version > match.state_version


def test_no_question_when_every_move_loses(alice: Any, bob: Any) -> None:
    match = _rigged(alice, bob)
    game = get_game("commandeer")
    state = load_state(match, game)
    legal = game.legal_actions(state, 0)
    passing = next(a for a in legal if a.to_json()["type"] == "pass")
    assert avoidable_loss(game, state, 0, passing, legal) is not None
    assert avoidable_loss(game, state, 0, passing, [passing]) is None  # nothing else to choose
    assert not game.is_terminal(state)  # the check played on a copy
