"""The match log per viewer: what each action caused (consequences), directions as each player sees the
board, timeouts logged as timeouts, and a loss on time called one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from matches import selectors
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.engine.actions import Attack, Deploy
from matches.games.registry import get_game
from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.services.timeouts import clock_enforce
from matches.storage import load_state
from matches.tests.commandeer_fixtures import legal_deck
from matches.tests.rigging import DEPLOYER, rig_deploying_position

pytestmark = pytest.mark.django_db


def client_for(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _match(alice: Any, bob: Any, **extra: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk, **extra)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


def _deploy_ram(match: Match, alice: Any) -> dict[str, Any]:
    game = get_game("commandeer")
    state = load_state(match, game)
    ram = next(
        a for a in game.legal_actions(state, 0) if isinstance(a, Deploy) and a.to_json()["square"] == "c4"
    )
    assert state.card_name(ram.card) == DEPLOYER
    action_submit(match_id=match.pk, user=alice, action_json=ram.to_json(), state_version=match.state_version)
    return ram.to_json()


def test_a_deploying_abilitys_damage_is_in_both_players_and_the_spectators_log_c_7_2(
    alice: Any, bob: Any
) -> None:
    match = rig_deploying_position(_match(alice, bob))
    _deploy_ram(match, alice)
    entry = ActionLog.objects.get(match=match, version=match.state_version + 1)
    for key in ("0", "1", "spectator"):
        caused = entry.consequences[key]
        damage = [c for c in caused if c["kind"] == "damage"]
        assert len(damage) == 1 and damage[0]["amount"] == 1000 and damage[0]["square"] == [2, 2], caused
        assert damage[0]["text"].endswith("takes 1000 damage from Stonehide Ram.")
        assert any(
            c["kind"] == "ability" and c["text"].startswith("Stonehide Ram's Deploying") for c in caused
        )
    for user in (alice, bob, None):
        client = client_for(user)
        log = client.get(f"/api/matches/{match.pk}/log/").json()["entries"]
        # the deploy's entry (automatic passes it led to may follow it)
        deployed = next(e for e in log if e["version"] == entry.version)
        assert any("takes 1000 damage from Stonehide Ram" in c["text"] for c in deployed["consequences"])
        snap = client.get(f"/api/matches/{match.pk}/state/").json()
        assert (
            next(e for e in snap["log"] if e["version"] == entry.version)["consequences"]
            == deployed["consequences"]
        )


def test_consequences_use_the_seated_names(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(_match(alice, bob))
    _deploy_ram(match, alice)
    you = Seat.objects.get(match=match, position=1)
    entry = next(e for e in selectors.match_log(match=match, you=you) if e["action"]["type"] == "deploy")
    assert "Player 1" not in " ".join(c["text"] for c in entry["consequences"])
    assert entry["consequences"][0]["kind"] == "ability"


def test_a_draw_is_named_only_to_its_owner_c_8(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(_match(alice, bob), own_unit=True)
    game = get_game("commandeer")
    state = load_state(match, game)
    reinforce = next(a for a in game.legal_actions(state, 0) if a.to_json()["type"] == "reinforce")
    action_submit(
        match_id=match.pk, user=alice, action_json=reinforce.to_json(), state_version=match.state_version
    )
    after = load_state(Match.objects.get(pk=match.pk), game)
    drawn = [c for c in after.sides[0].hand][-2:]
    names = {after.card_name(c) for c in drawn}
    entry = ActionLog.objects.get(match=match, version=match.state_version + 1)
    own = next(c for c in entry.consequences["0"] if c["kind"] == "draw")
    assert all(n in own["text"] for n in names)
    for key in ("1", "spectator"):
        draw = next(c for c in entry.consequences[key] if c["kind"] == "draw")
        assert draw["text"] == "alice draws 2 cards." and draw["amount"] == 2
        assert not any(n in draw["text"] for n in names)


def test_directions_are_named_as_each_player_sees_the_board_c_2_1(alice: Any, bob: Any) -> None:
    game = get_game("commandeer")
    match = rig_deploying_position(_match(alice, bob), own_unit=True)
    state = load_state(match, game)
    data = state.to_dict(log=False)
    data["step"] = "combat"
    # seat 0 (first player) attacks north from d3 to d4 on its own board
    d3 = next(u for u in data["board"] if u["square"] == "d3")
    target = next(u for u in data["board"] if u["square"] == "c3")
    target["square"] = "d4"
    state = game.load(data)
    attack = Attack(0, d3["id"], "N", target["id"])
    seats = list(Seat.objects.filter(match=match).order_by("position"))
    words = {v: selectors.describe_action(game, state, attack, v, seats) for v in (0, 1, None)}
    assert words[0].endswith("(N).") or words[0].endswith("(N)")
    assert words[None] == words[0]
    assert "(S)" in words[1] and "(N)" not in words[1]  # seat 1's board is drawn turned: north is down


def _expire(match: Match, position: int, **fields: Any) -> None:
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(match=match, position=position).update(deadline=past, clock_started_at=past, **fields)


def test_a_timeout_is_logged_as_one_for_every_viewer(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(_match(alice, bob), own_unit=True)
    _expire(match, 0)
    done = clock_enforce(match_id=match.pk)  # the timeout, then any automatic passes it led to
    assert len(done) == 1 and done[0].startswith("timeout:0@")
    assert int(done[0].split("@")[1]) >= match.state_version + 1
    entry = ActionLog.objects.get(match=match, version=match.state_version + 1)
    assert entry.source == ActionLog.Source.TIMEOUT
    for key in ("0", "1", "spectator"):
        assert entry.descriptions[key] == "alice's time ran out — automatic pass: the Planning phase ends."
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


def test_a_loss_left_by_an_automatic_pass_is_a_loss_on_time_not_c_6_2(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(
        _match(alice, bob)
    )  # seat 0 has no unit: passing its Planning loses (C-5.4)
    _expire(match, 0)
    clock_enforce(match_id=match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED
    assert match.result["reason"] == "timeout" and match.result["winner"] == 1
    assert match.result["text"] == "alice lost on time"
    assert match.result["rules_reason"] == "no_units"
    assert "C-6.2" not in str(match.result)


def test_three_timeouts_in_a_row_lose_on_time(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(_match(alice, bob), own_unit=True)
    _expire(match, 0, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1)
    assert clock_enforce(match_id=match.pk) == ["forfeit:0"]
    result = Match.objects.get(pk=match.pk).result
    assert result["reason"] == "timeout" and result["winner"] == 1
    assert result["text"] == f"alice lost on time (out of time {TIMEOUTS_TO_FORFEIT} turns in a row)"


def test_a_player_move_that_loses_is_not_called_a_timeout(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(_match(alice, bob))
    game = get_game("commandeer")
    state = load_state(match, game)
    pass_ = next(a for a in game.legal_actions(state, 0) if a.to_json()["type"] == "pass")
    action_submit(
        match_id=match.pk, user=alice, action_json=pass_.to_json(), state_version=match.state_version
    )
    result = Match.objects.get(pk=match.pk).result
    assert result["reason"] == "no_units" and "C-6.2" in result["text"]


def test_westeros_consequences_keep_a_private_event_to_its_house_w_20(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    you = Seat.objects.get(match=match, position=0)
    snap = selectors.match_snapshot(match=Match.objects.get(pk=match.pk), you=you)
    place = next(a for a in snap["legal_actions"] if a["action"]["type"] == "place_order")
    action_submit(
        match_id=match.pk, user=alice, action_json=place["action"], state_version=snap["state_version"]
    )
    entry = ActionLog.objects.filter(match=match, source="player").last()
    from boardgame.engine.actions import order_label

    token = order_label(place["action"]["token"])  # the printed name (W-1.6), never the id
    own = " ".join(c["text"] for c in entry.consequences["0"])
    assert token in own, own  # the house that placed the order reads it back (a private event)
    assert "_" not in own, own  # area and token ids read as printed names
    for key in ("1", "2", "spectator"):
        assert not any(token in c["text"] for c in entry.consequences[key]), entry.consequences[key]
        assert entry.consequences[key], key  # the others read that an order was placed, not which


def test_state_log_and_replay_match_their_documented_shapes_after_a_loss_on_time(
    alice: Any, bob: Any
) -> None:
    from matches import api_types
    from matches.tests.test_api_contract import conforms

    match = rig_deploying_position(_match(alice, bob), own_unit=True)
    _deploy_ram(match, alice)
    _expire(match, 0, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1)
    assert clock_enforce(match_id=match.pk) == ["forfeit:0"]
    base = f"/api/matches/{match.pk}"
    for user in (alice, bob, None):
        c = client_for(user)
        state = c.get(f"{base}/state/").json()
        assert conforms(state, api_types.SnapshotOut()) == []
        assert state["result"]["reason"] == "timeout" and state["result"]["loser"] == 0
        log = c.get(f"{base}/log/").json()
        assert conforms(log, api_types.MatchLogOut()) == []
        replay = c.get(f"{base}/replay/").json()
        assert conforms(replay, api_types.ReplayOut()) == []
        caused = replay["frames"][1]["consequences"]
        assert caused == log["entries"][0]["consequences"] and any(x["kind"] == "damage" for x in caused)


def test_the_second_players_attack_buttons_name_directions_as_their_board_shows_them_c_2_1(
    alice: Any, bob: Any
) -> None:
    from matches.engine.board import ROTATE

    game = get_game("commandeer")
    match = rig_deploying_position(_match(alice, bob))
    data = load_state(match, game).to_dict(log=False)
    deck = data["players"][0]["deck"]
    around = ["b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"]  # every neighbour of bob's unit on c3
    units = [u for u in deck if data["cards"][u["card"]]["type"] == "unit"][: len(around)]
    for ref, square in zip(units, around, strict=True):
        deck.remove(ref)
        data["board"].append({"square": square, **ref, "owner": 0})
    data.update(active=1, step="combat", first_player=0)
    state = game.load(data)
    you = Seat.objects.get(match=match, position=1)
    attacks = [a for a in selectors.legal_actions_for(match, you, state) if a["action"]["type"] == "attack"]
    assert attacks, "bob's unit has enemy units on every side"
    for a in attacks:
        seen = ROTATE[a["action"]["direction"]]
        assert a["description"].endswith(f"({seen})"), a  # the engine's N is down on bob's board


def test_a_timed_out_commander_choice_stays_secret_from_the_other_player_c_4_1(alice: Any, bob: Any) -> None:
    match = _match(alice, bob)  # set-up: the Commander choice (C-4.1) is secret until revealed
    game = get_game("commandeer")
    seat = game.current_players(load_state(match, game))[0]
    _expire(match, seat, has_moved=True)
    clock_enforce(match_id=match.pk)
    entry = ActionLog.objects.get(match=match, version=1)
    name = ["alice", "bob"][seat]
    assert entry.source == ActionLog.Source.TIMEOUT
    assert (
        entry.descriptions[str(seat)]
        == f"{name}'s time ran out — automatic choice: plays without a Commander."
    )
    for key in (str(1 - seat), "spectator"):
        assert entry.descriptions[key] == f"{name}'s time ran out — automatic choice."
