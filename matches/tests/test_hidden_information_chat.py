"""Private chat is hidden information: a message between two Westeros houses reaches exactly
those two players — never the third house, a spectator or staff — over the WebSocket, REST and the admin.
Table chat reaches every viewer live; a muted author's messages do not reach the muter; a message staff
hide is removed live."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from config.routing import websocket_urlpatterns
from matches.models import ChatMessage, ChatMute, Match
from matches.services import chat as chat_service
from matches.services.lobby import match_create, match_join, match_start

pytestmark = pytest.mark.django_db(transaction=True)

PRIVATE = "private:lannister-stark"  # alice (seat 0) plays Stark, bob Lannister, carol Baratheon (W-1.1)
SECRET = "meet me at the Twins, carol must not know"


@pytest.fixture(autouse=True)
def _fresh_throttles_and_one_process_layer() -> Any:
    """The in-memory channel layer: these sockets and the posts share one process (the Redis layer is
    driven end to end by tests/browser/test_chat_browser.py)."""
    cache.clear()
    with override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}):
        from channels.layers import channel_layers

        channel_layers.backends.clear()
        yield
        channel_layers.backends.clear()
    cache.clear()


@pytest.fixture
def westeros(alice: Any, bob: Any, carol: Any) -> Match:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def staff(make_user: Any) -> Any:
    user = make_user("moderator")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


async def connect(match_id: int, user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/")
    comm.scope["user"] = user
    assert (await comm.connect())[0]
    first = await comm.receive_json_from(timeout=10)
    assert first["type"] == "state"
    return comm


async def drain(comm: WebsocketCommunicator, wait: float = 1.0) -> list[str]:
    """Every frame the socket receives within `wait` seconds of quiet."""
    frames = []
    while not await comm.receive_nothing(timeout=wait):
        frames.append(await comm.receive_from())
    return frames


def _post(match: Match, user: Any, channel: str, body: str) -> None:
    you = match.seats.filter(user=user).first()
    chat_service.message_post(match=match, you=you, user=user, channel=channel, body=body)


@async_to_sync
async def _live(match: Match, users: dict[str, Any]) -> dict[str, list[str]]:
    comms = {name: await connect(match.pk, user) for name, user in users.items()}
    await sync_to_async(_post)(match, users["alice"], PRIVATE, SECRET)
    await sync_to_async(_post)(match, users["carol"], "table", "hello table")
    frames = {name: await drain(comm) for name, comm in comms.items()}
    for comm in comms.values():
        await comm.disconnect()
    return frames


def test_a_private_message_reaches_exactly_the_two_houses_over_the_websocket(
    westeros: Match, alice: Any, bob: Any, carol: Any, staff: Any
) -> None:
    users = {"alice": alice, "bob": bob, "carol": carol, "staff": staff, "spectator": AnonymousUser()}
    frames = _live(westeros, users)
    for name in ("alice", "bob"):
        chats = [json.loads(f) for f in frames[name] if json.loads(f)["type"] == "chat"]
        assert [(c["channel"], c["message"]["body"]) for c in chats] == [
            (PRIVATE, SECRET),
            ("table", "hello table"),
        ], name
        assert chats[0]["message"]["author"] == "alice" and "author_id" not in chats[0]["message"]
    for name in ("carol", "staff", "spectator"):
        assert all(SECRET not in f and "Twins" not in f for f in frames[name]), name
        chats = [json.loads(f) for f in frames[name] if json.loads(f)["type"] == "chat"]
        assert [c["message"]["body"] for c in chats] == ["hello table"], name


def test_no_rest_read_gives_a_private_message_to_another_viewer(
    westeros: Match, alice: Any, carol: Any, staff: Any, make_user: Any
) -> None:
    _post(westeros, alice, PRIVATE, SECRET)
    urls = [
        f"/api/matches/{westeros.pk}/state/",
        f"/api/matches/{westeros.pk}/log/",
        f"/api/matches/{westeros.pk}/",
        f"/api/matches/{westeros.pk}/chat/",
        f"/api/matches/{westeros.pk}/chat/?channel={PRIVATE}",
        "/admin/matches/chatmessage/",
        f"/admin/matches/chatmessage/?q=meet&match__id__exact={westeros.pk}",
    ]
    for viewer in (carol, staff, make_user("watcher"), None):
        client = APIClient()
        if viewer is not None:
            client.force_login(viewer)
        for url in urls:
            assert "Twins" not in client.get(url).content.decode(), (viewer, url)
    private = ChatMessage.objects.get(channel=PRIVATE)
    staff_client = APIClient()
    staff_client.force_login(staff)
    page = staff_client.get(f"/admin/matches/chatmessage/{private.pk}/change/")
    assert "Twins" not in page.content.decode()


@async_to_sync
async def _muted_and_hidden(match: Match, alice: Any, bob: Any, carol: Any) -> tuple[list[str], list[str]]:
    b, c = await connect(match.pk, bob), await connect(match.pk, carol)
    await sync_to_async(ChatMute.objects.create)(user=bob, muted=alice)
    await sync_to_async(_post)(match, alice, "table", "bob will not read this")
    message = await sync_to_async(ChatMessage.objects.get)(body="bob will not read this")
    await sync_to_async(chat_service.message_hide)(message_id=message.pk, by=carol)
    await sync_to_async(chat_service.message_unhide)(message_id=message.pk)
    frames = await drain(b), await drain(c)
    await b.disconnect()
    await c.disconnect()
    return frames


def test_a_muted_author_is_not_pushed_and_a_hidden_message_is_removed_and_restored_live(
    westeros: Match, alice: Any, bob: Any, carol: Any
) -> None:
    to_bob, to_carol = _muted_and_hidden(westeros, alice, bob, carol)
    assert all("bob will not read this" not in f for f in to_bob)
    carol_chats = [json.loads(f) for f in to_carol if json.loads(f)["type"] == "chat"]
    assert carol_chats[0]["message"]["body"] == "bob will not read this"
    assert carol_chats[1] == {"type": "chat", "channel": "table", "removed": carol_chats[0]["message"]["id"]}
    assert carol_chats[2]["message"] == carol_chats[0]["message"]  # shown again (a mistaken hide)
    assert len(carol_chats) == 3


@async_to_sync
async def _in_flight(match: Match, alice: Any, bob: Any) -> tuple[list[str], list[str]]:
    from channels.layers import get_channel_layer

    from matches.models import Seat

    a, b = await connect(match.pk, alice), await connect(match.pk, bob)
    # bob's house goes to the AI, and a private message is already on its way before his socket's next
    # snapshot could drop the channel: the socket checks the seat again and keeps it from him.
    await sync_to_async(Seat.objects.filter(match=match, user=bob).update)(ai_agent="greedy")
    event = {
        "type": "chat.message",
        "channel": PRIVATE,
        "author_id": alice.pk,
        "message": {"id": 1, "body": SECRET},
    }
    await get_channel_layer().group_send(chat_service.chat_group(match.pk, PRIVATE), event)
    frames = await drain(a), await drain(b)
    await a.disconnect()
    await b.disconnect()
    return frames


def test_a_private_message_in_flight_never_reaches_a_house_just_handed_to_the_ai(
    westeros: Match, alice: Any, bob: Any
) -> None:
    to_alice, to_bob = _in_flight(westeros, alice, bob)
    assert any(SECRET in f for f in to_alice)
    assert all(SECRET not in f for f in to_bob)
