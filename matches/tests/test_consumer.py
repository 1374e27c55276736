"""The match WebSocket: own view on connect, each user's OWN view on every change, spectators without hands."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from matches.models import Match
from matches.services.lobby import match_create
from matches.services.submit import action_submit

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(match_id: int, user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


def _submit(match_id: int, user: Any, action: dict) -> None:
    match = Match.objects.get(pk=match_id)
    action_submit(match_id=match_id, user=user, action_json=action, state_version=match.state_version)


def _turn_user(match_id: int, alice: Any, bob: Any) -> Any:
    return alice if Match.objects.get(pk=match_id).state["turn"] == 0 else bob


@async_to_sync
async def _test_each_viewer_gets_their_own_view_live(started: Match, alice: Any, bob: Any) -> None:
    hands = started.state["hands"]
    a, b = await connect(started.pk, alice), await connect(started.pk, bob)
    s = await connect(started.pk, AnonymousUser())
    first = [await c.receive_json_from(timeout=5) for c in (a, b, s)]
    assert first[0]["match"]["view"]["hand"] == hands[0]
    assert first[1]["match"]["view"]["hand"] == hands[1]
    assert "hand" not in first[2]["match"]["view"]
    me = await sync_to_async(_turn_user)(started.pk, alice, bob)
    await sync_to_async(_submit)(started.pk, me, {"type": "add", "n": 2})
    updates = [await c.receive_json_from(timeout=5) for c in (a, b, s)]
    assert [u["match"]["state_version"] for u in updates] == [1, 1, 1]
    assert updates[0]["match"]["view"]["hand"] == hands[0]
    assert updates[1]["match"]["view"]["hand"] == hands[1]
    assert "hand" not in updates[2]["match"]["view"]
    assert "adds 2" in updates[2]["match"]["log"][-1]["text"]
    # After the first (full) view, a push carries only the log entries after the version it last sent.
    assert [f["match"]["log_since"] for f in first] == [None, None, None]
    assert [(u["match"]["log_since"], [e["version"] for e in u["match"]["log"]]) for u in updates] == [
        (0, [1])
    ] * 3
    await a.send_json_to({"type": "sync"})  # a resync asked for is whole again
    assert (await a.receive_json_from(timeout=5))["match"]["log_since"] is None
    for c in (a, b, s):
        await c.disconnect()


@async_to_sync
async def _test_reconnect_resyncs_to_the_current_state(started: Match, alice: Any, bob: Any) -> None:
    a = await connect(started.pk, alice)
    await a.receive_json_from(timeout=5)
    await a.disconnect()
    me = await sync_to_async(_turn_user)(started.pk, alice, bob)
    await sync_to_async(_submit)(started.pk, me, {"type": "add", "n": 1})
    a = await connect(started.pk, alice)
    msg = await a.receive_json_from(timeout=5)
    assert msg["match"]["state_version"] == 1
    await a.send_json_to({"type": "sync"})
    assert (await a.receive_json_from(timeout=5))["match"]["state_version"] == 1
    await a.disconnect()


@async_to_sync
async def _test_outsiders_cannot_watch_a_private_match(alice: Any, carol: Any) -> None:
    match = await sync_to_async(match_create)(user=alice, kind="counting", is_public=False)
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{match.pk}/")
    comm.scope["user"] = carol
    connected, _ = await comm.connect()
    # Accepted and closed at once with the code, so that the browser sees 4403 (a refusal before the
    # handshake reaches it only as 1006 and the page would keep reconnecting).
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}


@async_to_sync
async def _test_a_missing_match_closes_with_4404(alice: Any) -> None:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/matches/999999/")
    comm.scope["user"] = alice
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


def test_a_missing_match_closes_with_4404(db: Any, alice: Any) -> None:
    _test_a_missing_match_closes_with_4404(alice)


def test_each_viewer_gets_their_own_view_live(started: Match, alice: Any, bob: Any) -> None:
    _test_each_viewer_gets_their_own_view_live(started, alice, bob)


def test_reconnect_resyncs_to_the_current_state(started: Match, alice: Any, bob: Any) -> None:
    _test_reconnect_resyncs_to_the_current_state(started, alice, bob)


def test_outsiders_cannot_watch_a_private_match(alice: Any, carol: Any) -> None:
    _test_outsiders_cannot_watch_a_private_match(alice, carol)
