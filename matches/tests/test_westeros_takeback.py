"""W-5.1 through the play layer: a house takes a placed order back before declaring its orders done; the
token never reaches another seat, a spectator or their log lines (W-20.1), and after Ready there is no take-back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config.errors import ApplicationError
from matches.models import ActionLog, Match, Seat
from matches.selectors import match_snapshot
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit

pytestmark = pytest.mark.django_db


def _snap(match: Match, seat: Seat | None) -> dict[str, Any]:
    return match_snapshot(match=Match.objects.get(pk=match.pk), you=seat)


def _submit(match: Match, user: Any, action: dict[str, Any]) -> None:
    version = Match.objects.get(pk=match.pk).state_version
    action_submit(match_id=match.pk, user=user, action_json=action, state_version=version)


def test_a_placed_order_is_taken_back_and_replaced_without_showing_the_token_w_5_1_w_20_1(alice: Any) -> None:
    match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    you = Seat.objects.get(match=match, position=0)
    snap = _snap(match, you)
    place = next(a["action"] for a in snap["legal_actions"] if a["action"]["type"] == "place_order")
    area, token = place["area"], place["token"]
    _submit(match, alice, place)
    take = {"type": "remove_order", "player": place["player"], "area": area}
    assert take in [a["action"] for a in _snap(match, you)["legal_actions"]]
    _submit(match, alice, take)
    mine = _snap(match, you)
    assert area not in mine["view"]["orders"]
    again = [a["action"] for a in mine["legal_actions"] if a["action"].get("area") == area]
    assert {"type": "place_order", "player": place["player"], "area": area, "token": token} in again
    entry = ActionLog.objects.filter(match=match, source="player").last()
    assert entry is not None and entry.action["type"] == "remove_order"
    assert "takes back the order in" in entry.descriptions["spectator"]
    # Replace it with another token: the others and a spectator never learn either token.
    other = next(a for a in again if a["type"] == "place_order" and a["token"] != token)
    _submit(match, alice, other)
    assert _snap(match, you)["view"]["orders"][area] == [place["player"], other["token"]]
    spectator = _snap(match, None)
    assert spectator["view"]["orders"][area] == [place["player"], None]
    text = json.dumps(spectator["log"]) + json.dumps(spectator["view"]["log"])
    for t in (token, other["token"]):
        assert t not in text
    assert "takes back the order in" in text


def test_after_ready_the_orders_cannot_be_taken_back_w_5_1(alice: Any) -> None:
    match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    you = Seat.objects.get(match=match, position=0)
    while True:
        legal = [a["action"] for a in _snap(match, you)["legal_actions"]]
        if not legal or legal[0]["type"] == "finish_orders":
            break
        _submit(match, alice, legal[0])
    house = legal[0]["player"]
    placed = next(a for a, (h, _t) in _snap(match, you)["view"]["orders"].items() if h == house)
    _submit(match, alice, legal[0])  # Ready
    with pytest.raises(ApplicationError) as err:
        _submit(match, alice, {"type": "remove_order", "player": house, "area": placed})
    assert err.value.code in {"not_your_turn", "illegal_action"}


def _ready(match: Match, user: Any, seat: Seat) -> str:
    """Place the first legal token everywhere, then Ready; returns the seat's house."""
    while True:
        legal = [a["action"] for a in _snap(match, seat)["legal_actions"]]
        _submit(match, user, legal[0])
        if legal[0]["type"] == "finish_orders":
            return str(legal[0]["player"])


def test_a_ready_house_takes_its_ready_back_while_another_still_places_w_5_1(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    you, other = Seat.objects.get(match=match, position=0), Seat.objects.get(match=match, position=1)
    house = _ready(match, alice, you)
    snap = _snap(match, you)
    assert 0 not in snap["current_players"]  # nobody waits for a Ready house
    reopen = {"type": "reopen_orders", "player": house}
    assert [a["action"] for a in snap["legal_actions"]] == [reopen]
    assert "changing" in snap["legal_actions"][0]["description"]
    assert _snap(match, other)["legal_actions"][0]["action"]["type"] == "place_order"  # bob is not Ready
    _submit(match, alice, reopen)
    snap = _snap(match, you)
    assert 0 in snap["current_players"]
    placed = sorted(a for a, (h, _t) in snap["view"]["orders"].items() if h == house)
    assert {"type": "remove_order", "player": house, "area": placed[0]} in [
        a["action"] for a in snap["legal_actions"]
    ]
    entry = ActionLog.objects.filter(match=match, source="player").last()
    assert entry is not None and entry.action == reopen
    assert "is changing its orders" in entry.descriptions["spectator"]
    # A house still placing has no Ready to take back; once everyone is Ready the orders are revealed.
    with pytest.raises(ApplicationError) as err:
        _submit(
            match,
            bob,
            {"type": "reopen_orders", "player": _snap(match, other)["legal_actions"][0]["action"]["player"]},
        )
    assert err.value.code == "illegal_action" and "has not declared its orders complete" in err.value.message
    _ready(match, alice, you)
    _ready(match, bob, other)
    _ready(match, carol, Seat.objects.get(match=match, position=2))
    assert _snap(match, you)["view"]["orders_revealed"]
    with pytest.raises(ApplicationError) as err:
        _submit(match, alice, reopen)
    assert err.value.code in {"not_your_turn", "illegal_action"}


def test_a_view_overtaken_only_by_others_orders_still_places_an_order_w_3_3(
    alice: Any, bob: Any, carol: Any
) -> None:
    """W-3.3: the others' face-down orders cannot change what a house may do, so a submit from a view they
    overtook is applied (no 409 for a click made while an AI house placed an order); a view overtaken by a
    move of one's own, or by a step that is not simultaneous, stays stale."""
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    you, other = Seat.objects.get(match=match, position=0), Seat.objects.get(match=match, position=1)
    seen = Match.objects.get(pk=match.pk).state_version
    mine = next(
        a["action"] for a in _snap(match, you)["legal_actions"] if a["action"]["type"] == "place_order"
    )
    _ready(match, bob, other)  # bob places all his orders and is Ready meanwhile
    assert Match.objects.get(pk=match.pk).state_version > seen + 1
    action_submit(match_id=match.pk, user=alice, action_json=mine, state_version=seen)
    assert _snap(match, you)["view"]["orders"][mine["area"]] == [mine["player"], mine["token"]]
    # Now alice's own move lies after `seen`: that view is stale.
    nxt = next(
        a["action"] for a in _snap(match, you)["legal_actions"] if a["action"]["type"] == "place_order"
    )
    with pytest.raises(ApplicationError) as err:
        action_submit(match_id=match.pk, user=alice, action_json=nxt, state_version=seen)
    assert err.value.code == "stale_state"
    # A version from the future is stale too.
    version = Match.objects.get(pk=match.pk).state_version
    with pytest.raises(ApplicationError) as err:
        action_submit(match_id=match.pk, user=alice, action_json=nxt, state_version=version + 1)
    assert err.value.code == "stale_state"


@pytest.mark.parametrize(
    "control",
    [{"initial_s": 300, "increment_s": 10}, {"per_move_s": 20, "bank_s": 60}],
    ids=["fischer", "bank"],
)
def test_readying_and_reopening_orders_again_and_again_earns_no_time_w_5_1(
    alice: Any, bob: Any, carol: Any, control: dict[str, int]
) -> None:
    """Each Ready stops the clock and each take-back starts it again, but the decision stays one: its
    increment is added once and its period is not granted afresh (matches.clocks, "taking a decision back")."""
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3}, time_control=control)
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    you = Seat.objects.get(match=match, position=0)
    house = _ready(match, alice, you)
    first = Seat.objects.get(pk=you.pk)
    assert first.clock_started_at is None
    for _ in range(6):
        _submit(match, alice, {"type": "reopen_orders", "player": house})
        seat = Seat.objects.get(pk=you.pk)
        assert seat.clock_started_at is not None
        allowance = (seat.deadline - seat.clock_started_at).total_seconds() * 1000
        if "increment_s" in control:  # the bank as the first Ready left it, less the time spent since
            assert allowance <= first.clock_remaining_ms - 10_000
        else:  # what is left of the 20 s period (not a new one), then the bank
            assert (
                0 < seat.clock_carry_ms
                and allowance == 20_000 - seat.clock_carry_ms + seat.clock_remaining_ms
            )
        _submit(match, alice, {"type": "finish_orders", "player": house})
    last = Seat.objects.get(pk=you.pk)
    assert last.clock_started_at is None and last.clock_remaining_ms <= first.clock_remaining_ms
