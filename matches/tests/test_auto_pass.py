"""Automatic passes, so nobody waits on a choice that is no choice: a seat whose only legal action is the
phase's Pass passes at once.

The preference is per seat (on by default), changed only by the seat's player through
PATCH /api/matches/<id>/seat/; an automatic pass is logged with its own source, not as the player's choice.
The match page's "why can't I play this card" hints come with the viewer's own view.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from matches import selectors
from matches.games.registry import get_game
from matches.models import ActionLog, Match, Seat
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.storage import load_state
from matches.tests.commandeer_fixtures import legal_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def cmd_match(alice: Any, bob: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk, rules_config={"turn_limit": 4})
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    return match


def _play(match: Match, users: dict[int, Any], n: int, seed: int) -> None:
    """Submit up to `n` greedy-AI choices as the movers would (a realistic match with attacks)."""
    rng = random.Random(seed)
    game = get_game("commandeer")
    for _ in range(n):
        m, _ = selectors.match_get_for_viewer(match_id=match.pk, user=users[0])
        if m.status != "active":
            return
        mover = users[selectors.match_snapshot(match=m, you=None)["current_players"][0]]
        m, you = selectors.match_get_for_viewer(match_id=match.pk, user=mover)
        state = load_state(m, game)
        action = game.ai_action(state, you.position, rng=rng, agent="greedy")
        action_submit(
            match_id=m.pk, user=mover, action_json=game.action_to_json(action), state_version=m.state_version
        )


def _only_pass_steps(match: Match) -> list[tuple[ActionLog, bool]]:
    """Each log entry with whether Pass was its seat's only legal action just before it."""
    game = get_game(match.kind)
    state = game.load(Match.objects.get(pk=match.pk).state_base)  # the start snapshot
    out = []
    for entry in ActionLog.objects.filter(match=match).order_by("version"):
        legal = game.legal_actions(state, entry.seat)
        out.append((entry, len(legal) == 1 and game.action_to_json(legal[0])["type"] == "pass"))
        state = game.apply(state, game.action_from_json(entry.action))
    return out


def test_a_phase_with_only_pass_is_passed_automatically_and_logged_as_automatic(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    _play(cmd_match, {0: alice, 1: bob}, 120, seed=5)
    steps = _only_pass_steps(cmd_match)
    auto = [e for e, _ in steps if e.source == ActionLog.Source.AUTO]
    assert auto, "no phase was passed automatically"
    for entry, only in steps:
        if entry.source == ActionLog.Source.AUTO:
            assert entry.action["type"] == "pass" and only  # never passes for a seat with a choice
            assert all(
                "(automatic pass: nothing else to do)." in entry.descriptions[k]
                for k in ("0", "1", "spectator")
            )
        else:  # a player never had to make a pass that was their only move
            assert not only, entry.descriptions


def test_with_auto_pass_off_the_player_passes_by_hand(cmd_match: Match, alice: Any, bob: Any) -> None:
    Seat.objects.filter(match=cmd_match).update(auto_pass=False)
    _play(cmd_match, {0: alice, 1: bob}, 120, seed=5)
    steps = _only_pass_steps(cmd_match)
    assert not [e for e, _ in steps if e.source == ActionLog.Source.AUTO]
    assert any(only and e.source == ActionLog.Source.PLAYER for e, only in steps)


def test_only_the_seated_player_changes_their_preference(cmd_match: Match, alice: Any, carol: Any) -> None:
    url = f"/api/matches/{cmd_match.pk}/seat/"
    client = APIClient()
    assert client.patch(url, {"auto_pass": False}, format="json").status_code in (401, 403)
    client.force_authenticate(carol)
    res = client.patch(url, {"auto_pass": False}, format="json")
    assert res.status_code == 403 and res.json()["code"] == "not_participant"
    client.force_authenticate(alice)
    res = client.patch(url, {"auto_pass": "sometimes"}, format="json")
    assert res.status_code == 400 and "auto_pass" in res.json()["message"] + str(res.json()["extra"])
    res = client.patch(url, {"auto_pass": False}, format="json")
    assert res.status_code == 200 and res.json() == {"position": 0, "auto_pass": False}
    seats = {s.position: s.auto_pass for s in Seat.objects.filter(match=cmd_match)}
    assert seats == {0: False, 1: True}
    state = client.get(f"/api/matches/{cmd_match.pk}/state/").json()
    mine = {s["position"]: s.get("auto_pass") for s in state["seats"]}
    assert mine == {0: False, 1: None}  # the other player's preference is not shown


def test_unplayable_hand_cards_say_why_and_playable_ones_do_not(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    users = {0: alice, 1: bob}
    game = get_game("commandeer")
    seen = 0
    rng = random.Random(2)
    for _ in range(60):
        m, _ = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=alice)
        if m.status != "active":
            break
        mover = users[selectors.match_snapshot(match=m, you=None)["current_players"][0]]
        m, you = selectors.match_get_for_viewer(match_id=cmd_match.pk, user=mover)
        snap = selectors.match_snapshot(match=m, you=you)
        view = snap["view"]
        if view["phase"] == "planning" and not view["decision"]:
            playable = {a["action"].get("card") for a in snap["legal_actions"]}
            hand = view["players"][you.position]["hand"]
            names = {ref["card"] for ref in hand if ref["id"] in playable}  # copies are interchangeable
            notes = view["unplayable"]
            for ref in hand:
                assert (str(ref["id"]) in notes) != (ref["card"] in names), (ref, notes)
            seen += len(notes)
            with translation.override("th"):  # the same reasons in the reader's language, rule numbers kept
                thai = selectors.match_snapshot(match=m, you=you)["view"]["unplayable"]
            assert thai.keys() == notes.keys()
            assert all("(C-" in t and "you have" not in t and "Needs" not in t for t in thai.values()), thai
            cp = view["players"][you.position]["cp"]
            for text in notes.values():
                # a sentence citing its rule
                assert text[0].isupper() and text.endswith(".") and "(C-" in text
                if " CP and you have " in text:
                    assert f"you have {cp} " in text
        other = selectors.match_snapshot(match=m, you=selectors.viewer_seat(m, users[1 - you.position]))
        assert "unplayable" not in other["view"] or other["view"]["unplayable"] == {}
        state = load_state(m, game)
        action = game.ai_action(state, you.position, rng=rng, agent="greedy")
        action_submit(
            match_id=m.pk, user=mover, action_json=game.action_to_json(action), state_version=m.state_version
        )
    assert seen > 0
