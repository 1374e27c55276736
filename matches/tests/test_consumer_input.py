"""The match WebSocket's input is bounded and parsed safely: a bad frame gets a close
code (1003 binary, 1007 not JSON / too deep, 1009 too big, 1008 too many) or an error message, never an
unhandled exception or an ERROR trace."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from matches import consumers
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(match_id: int, user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "state"
    return comm


async def closes_with(comm: WebsocketCommunicator, frame: dict[str, Any]) -> int:
    """Send one raw frame and return the close code the server answered with."""
    await comm.send_input({"type": "websocket.receive", **frame})
    out = await comm.receive_output(timeout=5)
    assert out["type"] == "websocket.close", out
    await comm.disconnect()  # the consumer ends without raising (an exception would surface here)
    return int(out["code"])


BAD_FRAMES = [
    ({"bytes": b"\x00\x01binary"}, 1003),
    ({"text": "not json {"}, 1007),
    ({"text": "[" * 5000 + "]" * 5000}, 1009),  # 10,000 characters: over the size bound first
    ({"text": "[" * 1000 + "]" * 1000}, 1007),  # within the size bound: the depth bound
    ({"text": '{"type": "sync", "pad": "' + "x" * 2_000_000 + '"}'}, 1009),
]


@pytest.mark.parametrize(
    ("frame", "code"), BAD_FRAMES, ids=["binary", "not-json", "deep-5000", "deep-1000", "2mb"]
)
def test_a_bad_frame_gets_a_close_code_and_no_error_log(
    started: Match, alice: Any, frame: dict[str, Any], code: int, caplog: Any
) -> None:
    @async_to_sync
    async def run() -> int:
        comm = await connect(started.pk, alice)
        return await closes_with(comm, frame)

    with caplog.at_level(logging.INFO):
        assert run() == code
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_an_unknown_message_gets_an_error_message_and_the_socket_stays(started: Match, alice: Any) -> None:
    @async_to_sync
    async def run() -> None:
        comm = await connect(started.pk, alice)
        for message in ({"type": "hack"}, [1, 2], "sync", None):
            await comm.send_json_to(message)
            answer = await comm.receive_json_from(timeout=5)
            assert answer["type"] == "error" and answer["code"] == "unknown_message"
        await comm.send_json_to({"type": "sync"})
        assert (await comm.receive_json_from(timeout=5))["type"] == "state"
        await comm.disconnect()

    run()


def test_a_flood_of_frames_is_closed_with_1008(started: Match, alice: Any, monkeypatch: Any) -> None:
    """RATE_BURST frames at once are served; the next one within the same instant closes the socket."""
    monkeypatch.setattr(consumers.MatchConsumer, "clock", staticmethod(lambda: 1000.0))  # time stands still

    @async_to_sync
    async def run() -> int:
        comm = await connect(started.pk, alice)
        for _ in range(consumers.RATE_BURST):
            await comm.send_json_to({"type": "nope"})
            assert (await comm.receive_json_from(timeout=5))["type"] == "error"
        return await closes_with(comm, {"text": '{"type": "nope"}'})

    assert run() == 1008


def test_the_rate_refills_with_time(started: Match, alice: Any, monkeypatch: Any) -> None:
    now = [1000.0]
    monkeypatch.setattr(consumers.MatchConsumer, "clock", staticmethod(lambda: now[0]))

    @async_to_sync
    async def run() -> None:
        comm = await connect(started.pk, alice)
        for _ in range(3 * consumers.RATE_BURST):  # steady sending at the allowed rate is never cut off
            now[0] += 1.0 / consumers.RATE_PER_S
            await comm.send_json_to({"type": "nope"})
            assert (await comm.receive_json_from(timeout=5))["type"] == "error"
        await comm.disconnect()

    run()
