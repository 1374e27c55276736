"""Match sockets against a real Redis channel layer: idle sockets stay open, each user's sockets are capped
(per match and in total, close code 4429), and a flood of closing sockets leaves no member in any group.

The layer is the one production builds (`config.settings.base.redis_channel_layer`) on the test Redis.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings

import matches.tests.fakegame  # noqa: F401  (registers kind "counting")
from config.routing import websocket_urlpatterns
from config.settings.base import redis_channel_layer
from matches import sockets
from matches.consumers import CLOSE_TOO_MANY_SOCKETS, MatchConsumer
from matches.models import Match
from matches.services.chat import chat_group
from matches.services.lobby import match_create, match_join, match_start
from matches.services.notify import match_group

pytestmark = pytest.mark.django_db(transaction=True)

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def redis_layer(redis_url: str) -> Iterator[str]:
    """The production channel layer, on the test Redis (emptied by `redis_url`)."""
    with override_settings(CHANNEL_LAYERS={"default": redis_channel_layer(redis_url)}):
        channel_layers.backends.clear()
        yield redis_url
    channel_layers.backends.clear()


@pytest.fixture(params=["redis", "memory"])
def any_layer(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each kind of channel layer the caps are counted with: Redis (across processes), in-memory (one)."""
    if request.param == "redis":
        yield request.getfixturevalue("redis_layer")
        return
    sockets._memory = sockets.MemorySocketRegistry()
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends.clear()
        yield "memory"
    channel_layers.backends.clear()


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def _match(owner: Any, other: Any) -> Match:
    match = match_create(user=owner, kind="counting")
    match_join(match_id=match.pk, user=other)
    match_start(match_id=match.pk, user=owner)
    return match


@pytest.fixture
def players() -> tuple[Any, Any]:
    return _user("alice"), _user("bob")


async def _open(match_id: int, user: Any, timeout: float = 5) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=timeout)
    assert connected
    return comm


async def _admitted(comm: WebsocketCommunicator) -> bool:
    """Whether the server kept the socket: its first message is the snapshot, not a 4429 close."""
    first = await comm.receive_output(timeout=5)
    if first["type"] == "websocket.close":
        assert first["code"] == CLOSE_TOO_MANY_SOCKETS
        return False
    assert first["type"] == "websocket.send" and '"type": "state"' in first["text"]
    return True


# --- idle sockets ---------------------------------------------------------------------------------------


def test_the_layers_reads_wait_out_its_blocking_pop_and_dead_peers_are_still_found() -> None:
    """No read time limit (redis-py 8's default of 5 s raced the layer's 5 s blocking pop); keepalive
    probes and health checks find a vanished Redis instead. The cache fails fast."""
    host = redis_channel_layer("redis://h:1/0")["CONFIG"]["hosts"][0]  # type: ignore[index]
    assert RedisChannelLayer.brpop_timeout >= 5 and host["socket_timeout"] is None
    assert host["socket_keepalive"] is True and host["socket_keepalive_options"]
    assert 0 < host["health_check_interval"] <= 60
    assert settings.CACHE_REDIS_TIMEOUT_S <= 1.0


def test_an_idle_socket_stays_open_past_five_seconds_and_then_gets_chat(
    redis_layer: str, players: tuple[Any, Any]
) -> None:
    """redis-py 8 ends a read after 5 s unless told otherwise, which broke the layer's blocking receive:
    every idle socket was closed with `TimeoutError: Timeout reading from …` every 5 s."""
    alice, bob = players
    match = _match(alice, bob)

    @async_to_sync
    async def run() -> None:
        comm = await _open(match.pk, alice)
        assert await _admitted(comm)
        assert await comm.receive_nothing(timeout=7, interval=0.5)  # idle, longer than 5 s
        assert not comm.future.done(), "the consumer ended while idle"
        await get_channel_layer().group_send(
            chat_group(match.pk, "table"),
            {
                "type": "chat.message",
                "channel": "table",
                "author_id": None,
                "message": {"body": "still here"},
            },
        )
        message = await comm.receive_json_from(timeout=5)
        assert message == {"type": "chat", "channel": "table", "message": {"body": "still here"}}
        await comm.disconnect()

    run()


# --- caps on each user's sockets ------------------------------------------------------------------------


@override_settings(MATCHES_WS_MAX_PER_MATCH=2, MATCHES_WS_MAX_PER_USER=3)
def test_sockets_are_capped_per_match_and_in_total_and_released_on_close(
    any_layer: str, players: tuple[Any, Any]
) -> None:
    alice, bob = players
    first, second, third = (_match(alice, bob) for _ in range(3))

    @async_to_sync
    async def run() -> None:
        a1, a2 = await _open(first.pk, alice), await _open(first.pk, alice)
        assert await _admitted(a1) and await _admitted(a2)
        over_match = await _open(first.pk, alice)
        assert not await _admitted(over_match)  # a third socket on one match
        bob_here = await _open(first.pk, bob)
        assert await _admitted(bob_here)  # another user's sockets count apart
        b1 = await _open(second.pk, alice)
        assert await _admitted(b1)
        over_total = await _open(third.pk, alice)
        assert not await _admitted(over_total)  # a fourth socket in all
        await a1.disconnect()
        again = await _open(third.pk, alice)
        assert await _admitted(again)  # the closed socket's place is free again
        for comm in (over_match, over_total):
            await comm.disconnect()
        for comm in (a2, bob_here, b1, again):
            await comm.disconnect()
        for _ in range(3):  # every place is free once all closed
            comm = await _open(first.pk, alice)
            ok = await _admitted(comm)
            await comm.disconnect()
            assert ok

    run()


@override_settings(MATCHES_WS_MAX_PER_MATCH=1, MATCHES_WS_LEASE_S=0.6)
def test_a_live_socket_renews_its_lease(any_layer: str, players: tuple[Any, Any]) -> None:
    alice, bob = players
    match = _match(alice, bob)

    @async_to_sync
    async def run() -> None:
        held = await _open(match.pk, alice)
        assert await _admitted(held)
        await asyncio.sleep(1.5)  # 2.5 leases: only the renewals keep it counted
        refused = await _open(match.pk, alice)
        assert not await _admitted(refused)
        await refused.disconnect()
        await held.disconnect()

    run()


@override_settings(MATCHES_WS_MAX_PER_MATCH=1)
def test_sockets_of_a_process_that_died_lapse_after_the_lease(
    any_layer: str, players: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lease nobody renews (its process was killed) stops counting once it lapses."""
    alice, bob = players
    match = _match(alice, bob)
    lease = float(settings.MATCHES_WS_LEASE_S)

    @async_to_sync
    async def run() -> None:
        registry = sockets.registry_for(get_channel_layer())
        limits = sockets.Limits.from_settings()
        owner = f"user:{alice.pk}"
        start = MatchConsumer.wall_clock()
        assert await registry.claim(owner, match.pk, "dead-socket", start, limits) is None
        refused = await _open(match.pk, alice)
        assert not await _admitted(refused)
        await refused.disconnect()
        later = start + lease + 1
        monkeypatch.setattr(MatchConsumer, "wall_clock", staticmethod(lambda: later))
        comm = await _open(match.pk, alice)
        assert await _admitted(comm)
        await comm.disconnect()
        # The registry alone, with time injected: lapsed entries are purged by the next claim.
        assert await registry.claim(owner, match.pk, "x", start, limits) is None
        assert await registry.claim(owner, match.pk, "y", start + 1, limits) is sockets.Refusal.PER_MATCH
        assert await registry.claim(owner, match.pk, "y", start + lease + 1, limits) is None

    run()


def test_anonymous_viewers_are_counted_by_client_address() -> None:
    scope = {"client": ("10.0.0.9", 5000), "headers": [(b"x-forwarded-for", b"1.2.3.4, 5.6.7.8")]}
    with override_settings(TRUSTED_PROXIES=0):
        assert sockets.owner_of(scope) == "addr:10.0.0.9"
    with override_settings(TRUSTED_PROXIES=1):
        assert sockets.owner_of(scope) == "addr:5.6.7.8"


def test_leaving_a_group_retries_a_transient_failure_and_never_raises(
    players: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A busy pool or a dropped connection fails one `group_discard`: it is tried again; one that keeps
    failing is logged and left to CHANNEL_GROUP_EXPIRY_S, and the disconnect itself never raises."""
    alice, bob = players
    match = _match(alice, bob)
    sockets._memory = sockets.MemorySocketRegistry()
    failures = {"left": 2}

    @async_to_sync
    async def run() -> tuple[set[str], set[str]]:
        layer = get_channel_layer()
        discard = layer.group_discard

        async def flaky(group: str, channel: str) -> None:
            if failures["left"] > 0:
                failures["left"] -= 1
                raise redis.exceptions.ConnectionError("Too many connections")
            await discard(group, channel)

        monkeypatch.setattr(layer, "group_discard", flaky)
        retried = await _open(match.pk, alice)
        assert await _admitted(retried)
        await retried.disconnect(timeout=5)  # fails twice, then leaves
        left_after_retries = {g for g, members in layer.groups.items() if members}
        failures["left"] = 1000
        stuck = await _open(match.pk, alice)
        assert await _admitted(stuck)
        await stuck.disconnect(timeout=5)  # never leaves: no exception either
        assert not stuck.future.cancelled()  # it ended by itself
        return left_after_retries, {g for g, members in layer.groups.items() if members}

    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends.clear()
        try:
            left_after_retries, left_when_stuck = run()
        finally:
            channel_layers.backends.clear()
    assert left_after_retries == set()
    assert left_when_stuck == {match_group(match.pk), chat_group(match.pk, "table")}
    assert sum("left to expire" in r.getMessage() for r in caplog.records) == 2  # the two groups


# --- a flood of closing sockets -------------------------------------------------------------------------


@override_settings(MATCHES_WS_MAX_PER_MATCH=1000, MATCHES_WS_MAX_PER_USER=1000)
def test_a_hundred_and_fifty_sockets_closed_at_once_leave_no_member_behind(
    redis_layer: str, players: tuple[Any, Any]
) -> None:
    """Closing them all at once once raised MaxConnectionsError in `group_discard` (the pool holds 100
    connections) and left the failed sockets in the match's groups, to be sent every later update."""
    alice, bob = players
    match = _match(alice, bob)
    n = 150

    @async_to_sync
    async def run() -> None:
        comms = await asyncio.gather(*(_open(match.pk, alice, timeout=60) for _ in range(n)))
        for comm in comms:
            assert await _admitted(comm)
        r = redis.Redis.from_url(redis_layer)
        groups = r.keys("asgi:group:*")
        assert groups and all(r.zcard(k) == n for k in groups)  # the match's group and its table chat
        # `disconnect` raises what a consumer raised, and cancels one still running after the timeout.
        await asyncio.gather(*(comm.disconnect(timeout=15) for comm in comms))
        assert [c for c in comms if c.future.cancelled()] == []  # every consumer finished by itself
        assert [k for k in r.keys("asgi:group:*") if r.zcard(k)] == []
        assert r.keys(f"{sockets.KEY_PREFIX}*") == []  # and every lease was released

    run()
