"""The interactive tutorials: every lesson plays to its end on the real engine and each step's words are
true of the position it leaves (the rule numbers it cites, checked on the state); the API keeps progress
per user or per session, accepts only the step's move, checks CSRF for everyone and makes no match."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from frontend import tutorial
from frontend.models import TutorialProgress
from frontend.tutorial_lessons import COMMANDEER, LEARNER
from matches.engine import GameState
from matches.models import Match

OPPONENT = 1 - LEARNER
URL = "/api/tutorials/commandeer/"


def _unit(state: GameState, square: str) -> dict[str, Any] | None:
    return next((u for u in state.player_view(LEARNER)["board"] if u["square"] == square), None)


def _after(step: int) -> GameState:
    """The state once the lesson's step `step` (0-based) is made."""
    state, _chapter, _index = tutorial.state_at(COMMANDEER, step + 1)
    return state


def _index(move_type: str, **fields: str) -> int:
    """The lesson's index of the step with this move."""
    for i, (_c, _w, step) in enumerate(COMMANDEER.steps()):
        if (
            step.move
            and step.move["type"] == move_type
            and all(step.move.get(k) == v for k, v in fields.items())
        ):
            return i
    raise AssertionError(f"no {move_type} {fields} step")


# ---- the lesson on the engine -----------------------------------------------------------------------------


def test_every_step_expects_exactly_one_legal_action_and_the_learner_wins_c_6_1() -> None:
    steps = COMMANDEER.steps()
    moves = 0
    for i, (_c, _w, step) in enumerate(steps):
        state, _chapter, _index = tutorial.state_at(COMMANDEER, i)
        assert state.current_players() == [LEARNER], f"step {i}: the learner must be the one to act"
        action = tutorial.expected_action(state, step)
        if step.move is not None:
            assert action in state.legal_actions(LEARNER)
            assert tutorial.highlight(state, action), f"step {i} highlights nothing"
            moves += 1
    assert moves >= 10
    final, _chapter, _index = tutorial.state_at(COMMANDEER, len(steps))
    outcome = final.outcome()
    assert outcome is not None and outcome.winner == LEARNER and outcome.reason.value == "six_defeated"


def test_the_first_unit_goes_on_a_start_square_and_costs_its_command_cost_c_2_2_c_5_2() -> None:
    before, _c, _i = tutorial.state_at(COMMANDEER, _index("deploy", card="Flamebrand Recruit"))
    assert before.player_view(LEARNER)["players"][LEARNER]["cp"] == 2  # C-4.6: 2 CP in the first turn
    squares = {
        a.to_json()["square"] for a in before.legal_actions(LEARNER) if a.to_json()["type"] == "deploy"
    }
    assert squares == {"c3", "d3", "c4", "d4"}
    state = _after(_index("deploy", card="Flamebrand Recruit"))
    assert _unit(state, "c3")["card"] == "Flamebrand Recruit"
    # the opponent's turn ran on to the learner's Defending phase: two units next to the Recruit (C-5.5)
    assert state.player_view(LEARNER)["step"] == "defending"
    assert _unit(state, "c4")["card"] == "Clay Golem" and _unit(state, "d4")["card"] == "Shale Skirmisher"


def test_the_defensive_event_weakens_the_attack_and_damage_heals_c_5_5_c_5_7_c_5_8() -> None:
    state = _after(_index("choose_target", target="Clay Golem"))
    view = state.player_view(LEARNER)
    assert view["turn"] == 3 and view["step"] == "planning" and view["players"][LEARNER]["cp"] == 3
    recruit = _unit(state, "c3")
    assert recruit["card"] == "Flamebrand Recruit" and recruit["damage"] == 0  # survived, healed (C-5.8)
    events = [ev for e in state.log_view(LEARNER) for ev in e["events"] if ev.get("type") == "attack"]
    damage = [ev["damage"] for ev in events]
    assert damage == [1000, 1500]  # the Golem's 2000 Power less Heat Shimmer's 1000


def test_reinforce_puts_a_card_into_energy_and_the_deploy_pays_it_c_5_2_c_5_3() -> None:
    state = _after(_index("choose_card", card="Cinder Hound"))
    me = state.player_view(LEARNER)["players"][LEARNER]
    assert [c["card"] for c in me["energy"]] == ["Cinder Hound"] and me["cp"] == 2
    state = _after(_index("deploy", card="Kindling Adept"))
    me = state.player_view(LEARNER)["players"][LEARNER]
    assert me["energy"] == [] and "Cinder Hound" in [c["card"] for c in me["retired"]]
    assert state.player_view(LEARNER)["step"] == "combat"


def test_two_attacks_add_up_to_a_defeat_c_5_6_c_5_7() -> None:
    state = _after(_index("attack", unit="Flamebrand Recruit"))
    assert _unit(state, "d4")["damage"] == 2500
    state = _after(_index("attack", unit="Kindling Adept"))
    assert _unit(state, "d4") is None
    assert [c["card"] for c in state.player_view(LEARNER)["players"][OPPONENT]["defeated"]] == [
        "Shale Skirmisher"
    ]


def test_formation_gives_the_power_the_lesson_names_c_7_6() -> None:
    deploy = _index("deploy", card="Ashfoot Skirmisher")
    before, _c, _i = tutorial.state_at(COMMANDEER, deploy)
    assert _unit(before, "c3")["power"] == 3000
    assert _unit(before, "c4")["health"] == 4500
    assert len(before.player_view(LEARNER)["players"][OPPONENT]["defeated"]) == 5
    assert _unit(_after(deploy), "c3")["power"] == 4500


# ---- the API: progress, the step's move only, CSRF, no match --------------------------------------------


def _csrf_client() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/learn/commandeer/")  # the page sets the CSRF cookie
    return client


def _post(client: Client, path: str, body: dict[str, Any]) -> Any:
    return client.post(
        path,
        json.dumps(body),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )


def _play_to_the_end(client: Client) -> dict[str, Any]:
    data = client.get(URL).json()
    while not data["finished"]:
        response = _post(client, URL, {"step": data["step"], "action": data["expect"]})
        assert response.status_code == 200, response.content
        data = response.json()
    return data


@pytest.mark.django_db
def test_a_visitor_plays_the_whole_lesson_with_progress_in_the_session() -> None:
    client = _csrf_client()
    first = client.get(URL).json()
    assert (
        first["step"] == 0
        and first["expect"] is None
        and first["view"]["players"][OPPONENT].get("hand") is None
    )
    moved = _post(client, URL, {"step": 0, "action": None}).json()
    assert moved["step"] == 1 and moved["highlight"] == [
        f"c:{moved['expect']['card']}",
        "s:c3",
    ]
    assert client.get(URL).json()["step"] == 1  # kept in the session
    deployed = _post(client, URL, {"step": 1, "action": moved["expect"]}).json()
    # what happened: the engine's log since the last step, each line naming its side
    assert deployed["happened"][0] == "Cinder Legion: Deploy Flamebrand Recruit to c3"
    assert "Stonehold Clans: Deploy Clay Golem to c4" in deployed["happened"]
    done = _play_to_the_end(client)
    assert done["winner"] == LEARNER and done["expect"] is None
    assert client.session[tutorial.SESSION_KEY] == {"commandeer": len(COMMANDEER.steps())}
    assert Match.objects.count() == 0  # a tutorial is no match: nothing rated, listed or on a profile
    again = _post(client, "/api/tutorials/commandeer/restart/", {}).json()
    assert again["step"] == 0


@pytest.mark.django_db
def test_a_signed_in_player_keeps_progress_on_the_server() -> None:
    user = User.objects.create_user("learner", password="pw-learner-123")
    client = _csrf_client()
    client.force_login(user)
    client.get("/learn/commandeer/")
    _post(client, URL, {"step": 0, "action": None})
    assert TutorialProgress.objects.get(user=user, game="commandeer").step == 1
    other = Client()
    other.force_login(user)
    assert other.get(URL).json()["step"] == 1  # another browser of the same player
    _play_to_the_end(client)
    row = TutorialProgress.objects.get(user=user, game="commandeer")
    assert row.step == len(COMMANDEER.steps()) and row.finished_at is not None
    # a lesson given a step more since then is still finished for them, until they start it again
    TutorialProgress.objects.filter(pk=row.pk).update(step=row.step - 1)
    assert client.get(URL).json()["finished"] is True


@pytest.mark.django_db
def test_only_the_steps_move_is_accepted_with_a_message() -> None:
    client = _csrf_client()
    _post(client, URL, {"step": 0, "action": None})
    data = client.get(URL).json()
    wrong_square = {**data["expect"], "square": "d4"}  # legal, but not this step's
    response = _post(client, URL, {"step": 1, "action": wrong_square})
    assert response.status_code == 400 and response.json()["code"] == "not_this_step"
    illegal = {**data["expect"], "square": "a1"}  # not on a start square (C-2.2)
    response = _post(client, URL, {"step": 1, "action": illegal})
    assert response.status_code == 400 and response.json()["code"] == "illegal_action"
    assert "not legal" in response.json()["message"]
    response = _post(client, URL, {"step": 1, "action": {"type": "teleport"}})
    assert response.status_code == 400 and response.json()["code"] == "invalid_action"
    response = _post(client, URL, {"step": 1, "action": None})
    assert response.status_code == 400
    response = _post(client, URL, {"step": "one"})
    assert response.status_code == 400
    # a second click on a step already made answers the current step, unchanged
    assert _post(client, URL, {"step": 0, "action": None}).json()["step"] == 1
    assert client.get(URL).json()["step"] == 1


@pytest.mark.django_db
def test_writes_need_the_csrf_token_also_when_not_signed_in() -> None:
    client = Client(enforce_csrf_checks=True)
    client.get("/learn/commandeer/")
    response = client.post(URL, json.dumps({"step": 0, "action": None}), content_type="application/json")
    assert response.status_code == 403
    restart = client.post("/api/tutorials/commandeer/restart/", "{}", content_type="application/json")
    assert restart.status_code == 403


@pytest.mark.django_db
def test_an_unknown_tutorial_is_a_404_with_a_message() -> None:
    response = Client().get("/api/tutorials/chess/")
    assert response.status_code == 404 and "commandeer" in response.json()["message"]
    assert Client().get("/learn/chess/").status_code == 404


@pytest.mark.django_db
def test_the_home_page_and_the_lobby_link_the_tutorial() -> None:
    client = Client()
    assert b'href="/learn/commandeer/"' in client.get("/").content
    assert b'href="/learn/commandeer/"' in client.get("/play/").content
    page = client.get("/learn/commandeer/")
    assert page.status_code == 200 and b"tutorial.js" in page.content


@pytest.mark.django_db
def test_a_visitor_who_signs_in_half_way_goes_on_where_they_were() -> None:
    user = User.objects.create_user("latecomer", password="pw-latecomer-123")
    client = _csrf_client()
    _post(client, URL, {"step": 0, "action": None})
    client.force_login(user)  # Django's login keeps a visitor's session data (it only changes its key)
    client.get("/learn/commandeer/")  # a fresh CSRF token after the login
    data = client.get(URL).json()
    assert data["step"] == 1
    _post(client, URL, {"step": 1, "action": data["expect"]})
    assert TutorialProgress.objects.get(user__username="latecomer").step == 2


@pytest.mark.django_db
def test_why_a_card_cannot_be_played_reads_in_the_readers_language() -> None:
    client = _csrf_client()
    for _ in range(2):  # to the Defending phase: Warband Veteran cannot be deployed now (C-5.2)
        data = client.get(URL).json()
        _post(client, URL, {"step": data["step"], "action": data["expect"]})
    client.cookies["django_language"] = "zh-hans"
    data = client.get(URL).json()
    notes = data["view"]["unplayable"]
    assert notes and all("计划阶段" in text and "C-5.2" in text for text in notes.values())
    assert data["happened"] and all(line.startswith(("余烬军团", "石堡诸氏族")) for line in data["happened"])
    assert "部署到 c3" in data["happened"][0]  # "Cinder Legion: Deploy … to c3" in Chinese
