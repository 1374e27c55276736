"""W-5.1 through the play layer: a house takes a placed order back before declaring its orders done; the
token never reaches another seat, a spectator or their log lines (W-20.1), and after Ready there is no take-back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config.errors import ApplicationError
from matches import services
from matches.models import ActionLog, Match, Seat
from matches.selectors import match_snapshot

pytestmark = pytest.mark.django_db


def _snap(match: Match, seat: Seat | None) -> dict[str, Any]:
    return match_snapshot(match=Match.objects.get(pk=match.pk), you=seat)


def _submit(match: Match, user: Any, action: dict[str, Any]) -> None:
    version = Match.objects.get(pk=match.pk).state_version
    services.action_submit(match_id=match.pk, user=user, action_json=action, state_version=version)


def test_a_placed_order_is_taken_back_and_replaced_without_showing_the_token_w_5_1_w_20_1(alice: Any) -> None:
    match = services.match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
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
    match = services.match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
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
