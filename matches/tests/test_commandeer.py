"""The Commandeer adapter: decks validated again at start (C-3), hidden information (C-8), AI seats, replays."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from config.errors import ApplicationError
from matches.games.registry import get_game
from matches.models import ActionLog, Match, MatchStatus
from matches.services.lobby import match_create, match_join, match_start
from matches.tests.commandeer_fixtures import illegal_deck, legal_deck

pytestmark = pytest.mark.django_db

FAST = {"turn_limit": 2}  # C-6.5 limit from the rules config keeps test matches short


def client_for(user: Any) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def cmd_match(alice: Any, bob: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk, rules_config=FAST)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match


def test_an_illegal_deck_is_refused_with_rule_numbers_c_3_1(alice: Any) -> None:
    deck = illegal_deck(alice, "stonehold")
    with pytest.raises(ApplicationError) as exc:
        match_create(user=alice, kind="commandeer", deck_id=deck.pk)
    assert exc.value.code == "invalid_deck" and "C-3.1" in exc.value.extra["rules"]


def test_a_deck_made_illegal_after_joining_is_refused_at_start_c_3(alice: Any, bob: Any) -> None:
    from decks import services as deck_services
    from decks.selectors import deck_get_writable

    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "veilborn")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    deck_services.deck_update(deck=deck_get_writable(user=bob, deck_id=db.pk), cards=[])
    r = client_for(alice).post(f"/api/matches/{match.pk}/start/")
    assert r.status_code == 400 and r.json()["code"] == "invalid_deck"
    assert "C-3.1" in r.json()["extra"]["rules"]
    match.refresh_from_db()
    assert match.status == MatchStatus.WAITING  # nothing half-applied


def test_someone_elses_private_deck_cannot_be_played(alice: Any, bob: Any) -> None:
    deck = legal_deck(alice, "stonehold")
    with pytest.raises(ApplicationError) as exc:
        match_create(user=bob, kind="commandeer", deck_id=deck.pk)
    assert exc.value.code == "invalid_deck"


def test_bad_rules_config_is_a_clear_400(alice: Any) -> None:
    deck = legal_deck(alice, "stonehold")
    with pytest.raises(ApplicationError) as exc:
        match_create(user=alice, kind="commandeer", deck_id=deck.pk, rules_config={"turn_limt": 3})
    assert exc.value.code == "invalid_rules_config" and "turn_limt" in exc.value.message


def play_out(match: Match, users: dict[int, Any], *, record: list[str] | None = None) -> None:
    """Both players play the first legal action offered over HTTP until the match ends."""
    clients = {p: client_for(u) for p, u in users.items()}
    for _ in range(600):
        states = {p: c.get(f"/api/matches/{match.pk}/state/").json() for p, c in clients.items()}
        if record is not None:
            record.extend(json.dumps(s) for s in states.values())
        if states[0]["status"] != "active":
            return
        for p, state in states.items():
            if state["legal_actions"]:
                choice = state["legal_actions"][-1 if len(state["legal_actions"]) > 1 else 0]["action"]
                r = clients[p].post(
                    f"/api/matches/{match.pk}/actions/",
                    {"action": choice, "state_version": state["state_version"]},
                    format="json",
                )
                assert r.status_code == 200, r.content
                if record is not None:
                    record.append(r.content.decode())
                break
    raise AssertionError("match did not end")


def test_a_whole_match_over_http_never_shows_a_player_the_other_hand_c_8(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    record: list[str] = []
    play_out(cmd_match, {0: alice, 1: bob}, record=record)
    cmd_match.refresh_from_db()
    assert cmd_match.status == MatchStatus.FINISHED and cmd_match.result["reason"]
    # every view a player received: the "hand" key appears only for the viewer's own side
    for raw in record:
        body = json.loads(raw)
        if "view" not in body or not body["view"]:
            continue
        viewer = body["you"]
        for i, side in enumerate(body["view"]["players"]):
            assert ("hand" in side) == (i == viewer)
        assert "deck" not in json.dumps(body["view"]["players"]).replace("deck_count", "")
        assert str(cmd_match.seed) not in raw


def test_the_log_hides_the_mulligan_bottom_cards_from_the_opponent_c_4_4(
    cmd_match: Match, alice: Any, bob: Any
) -> None:
    play_out(cmd_match, {0: alice, 1: bob})
    secret = ActionLog.objects.filter(match=cmd_match, descriptions__secret=True)
    assert secret.exists()  # the players took mulligans and chose bottom cards
    for entry in secret:
        other = bob if entry.seat == 0 else alice
        log = client_for(other).get(f"/api/matches/{cmd_match.pk}/log/").json()["entries"]
        line = next(e for e in log if e["version"] == entry.version)
        assert "action" not in line
        assert "card" not in line["text"] or "a card" in line["text"]


def test_replay_steps_through_the_match_to_its_final_state(cmd_match: Match, alice: Any, bob: Any) -> None:
    play_out(cmd_match, {0: alice, 1: bob})
    cmd_match.refresh_from_db()
    replay = client_for(alice).get(f"/api/matches/{cmd_match.pk}/replay/").json()
    assert len(replay["frames"]) == cmd_match.state_version + 1
    final = get_game("commandeer").player_view(get_game("commandeer").load(cmd_match.state), 0)
    assert replay["frames"][-1]["view"]["board"] == final["board"]
    assert replay["frames"][-1]["view"]["outcome"] == final["outcome"]
    for frame in replay["frames"]:  # each frame as alice may see it: her hand only (C-8)
        assert ["hand" in side for side in frame["view"]["players"]] == [True, False]
    spectator = APIClient().get(f"/api/matches/{cmd_match.pk}/replay/").json()
    assert all("hand" not in side for f in spectator["frames"] for side in f["view"]["players"])


def test_timeout_default_is_keep_at_mulligan_and_pass_in_a_phase(cmd_match: Match) -> None:
    game = get_game("commandeer")
    state = game.load(cmd_match.state)
    for _ in range(400):
        if game.is_terminal(state):
            break
        p = game.current_players(state)[0]
        legal = game.legal_actions(state, p)
        default = game.timeout_action(state, p)
        assert default in legal
        kinds = {a.kind for a in legal}
        if "keep" in kinds:
            assert default.kind == "keep"
        elif "pass" in kinds:
            assert default.kind == "pass"
        state = game.apply(state, default)
    assert game.is_terminal(state)  # passing every phase ends by C-5.4/C-6.2 or the turn limit


def test_vs_ai_in_one_click_plays_the_default_level_to_the_end(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    deck = legal_deck(alice, "cinder-legion")
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(
            "/api/matches/",
            {"kind": "commandeer", "deck_id": deck.pk, "vs_ai": True, "rules_config": FAST},
            format="json",
        )
    assert r.status_code == 201, r.content
    match = Match.objects.get(pk=r.json()["id"])
    assert match.status == MatchStatus.ACTIVE
    for _ in range(300):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        state = client_for(alice).get(f"/api/matches/{match.pk}/state/").json()
        assert state["legal_actions"], "the AI left the human without a move"
        with django_capture_on_commit_callbacks(execute=True):
            r = client_for(alice).post(
                f"/api/matches/{match.pk}/actions/",
                {"action": state["legal_actions"][-1]["action"], "state_version": state["state_version"]},
                format="json",
            )
        assert r.status_code == 200, r.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert ActionLog.objects.filter(match=match, seat=1, source="ai").exists()
