"""Live match updates over WebSocket (`/ws/matches/<id>/`).

On connect the caller gets their own snapshot (resync after any reconnect). The channel-layer
message of a change carries only the new version; each consumer then builds ITS user's view from
the database, so no message ever holds another player's hand. Spectators (public matches only) get
the spectator view. The first message of a connection, and the answer to a resync, carry the log's
tail; later ones only the entries after the version the connection last sent (`log_since`).

Each user (an anonymous viewer: a client address) may hold a bounded number of sockets per match and in
all (`matches.sockets`); one more is accepted and closed at once with CLOSE_TOO_MANY_SOCKETS, which the
page shows instead of reconnecting. A live socket renews its lease and its group memberships
periodically; leaving the groups on disconnect retries transient Redis failures and never raises (a member
left behind anyway lapses after CHANNEL_GROUP_EXPIRY_S).

On one machine without Redis (`make run`), the channel layer is in-memory and cannot carry a change
made in another process (a Celery worker's AI move or timeout) to this one, so each consumer then
also looks at the match's version once a second and refreshes when it moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from http.cookies import CookieError, SimpleCookie
from typing import Any, TypedDict

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import trans_real

from config.errors import ApplicationError
from frontend import preferences
from frontend.language import normalize, saved_language
from matches import selectors, sockets
from matches.chat import PRIVATE_PREFIX
from matches.models import ChatMute, Match, Seat
from matches.services.chat import ChatMessageEvent, ChatRemovedEvent, chat_group
from matches.services.notify import match_group
from matches.shapes import Snapshot
from matches.types import Viewer

LOCAL_POLL_SECONDS = 1.0

# Client frames (the only message is {"type": "sync"}): bounds of size, nesting and rate per socket.
MAX_FRAME_CHARS = 4096
MAX_FRAME_DEPTH = 20
RATE_BURST = 20  # frames at once
RATE_PER_S = 2.0  # frames per second on average after the burst
CLOSE_UNSUPPORTED = 1003  # RFC 6455: a data type the endpoint cannot accept (binary)
CLOSE_INVALID = 1007  # RFC 6455: data not consistent with the message type (not JSON, too deep)
CLOSE_POLICY = 1008  # RFC 6455: policy violation (too many frames)
CLOSE_TOO_BIG = 1009  # RFC 6455: message too big
# The user already holds MATCHES_WS_MAX_PER_MATCH sockets on this match or MATCHES_WS_MAX_PER_USER in all
# (4000-4999: private use; 4429 after HTTP's 429). js/live.js shows it and does not reconnect.
CLOSE_TOO_MANY_SOCKETS = 4429

log = logging.getLogger(__name__)


def _nesting(text: str) -> int:
    """How deep brackets nest in `text` (an upper bound of its JSON depth: brackets in strings count too),
    so a frame is judged before the parser recurses through it."""
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


class MatchChangedEvent(TypedDict):
    """services.notify: a change was committed at this version."""

    type: str
    version: int


def _change_key(match_id: int) -> tuple[object, ...] | None:
    """What changes when anything a viewer sees changes: version, status and who is seated."""
    row = Match.objects.filter(pk=match_id).values_list("state_version", "status", "lobby").first()
    if row is None:
        return None
    seats = tuple(  # the house picked and a player's leaving change the waiting room and the seat names
        Seat.objects.filter(match_id=match_id)
        .order_by("position")
        .values_list("user_id", "ai_agent", "house")
    )
    return (*row, seats)


def _delivers(user: Viewer | None, match_id: int, channel: str, author_id: int | None) -> bool:
    """Whether a chat message goes to this socket's user: not when they muted its author, and a private
    channel's only while they still play their house (a seat handed to the AI loses it at once, even
    before this socket's next snapshot)."""
    account = user if isinstance(user, User) and user.is_authenticated else None
    if channel.startswith(PRIVATE_PREFIX):
        if account is None or not Seat.objects.filter(match_id=match_id, user=account, ai_agent="").exists():
            return False
    if account is None or author_id is None:
        return True
    return not ChatMute.objects.filter(user=account, muted_id=author_id).exists()


# Any: an ASGI scope's values differ per key (asgiref types the scope as a dict of Any)
def scope_language(scope: dict[str, Any]) -> str:
    """The socket's language, resolved as `LanguageMiddleware` resolves a request's: the signed-in user's
    saved language, else the `django_language` cookie, else the Accept-Language header, else English."""
    saved = saved_language(scope.get("user"))
    if saved:
        return saved
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except CookieError:
        cookies = SimpleCookie()
    cookie = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie is not None and normalize(cookie.value):
        return str(normalize(cookie.value))
    for code, _quality in trans_real.parse_accept_lang_header(headers.get("accept-language", "")):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


def _snapshot(match_id: int, user: Viewer, log_since: int | None = None, language: str = "en") -> Snapshot:
    with translation.override(language):  # this socket's language, whatever the others' are
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=user)
        return selectors.match_snapshot(match=match, you=you, log_since=log_since, user=user)


class MatchConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one match."""

    match_id: int
    language: str = "en"  # this socket's (scope_language), set on connect
    sent_version: int = -1
    _closing = False
    _leased = False  # holds a lease of the user's socket caps (released on disconnect)
    _joined = False  # is in the match's channel-layer group
    _chat_channels: set[str]  # the chat channels whose groups this socket joined (set on joining)
    _sent_key: tuple[object, ...] | None  # what the last frame showed (a frame that repeats it is not sent)
    clock = staticmethod(time.monotonic)  # injected time of the frame rate limit (tests replace it)
    wall_clock = staticmethod(time.time)  # injected time of the socket leases (compared across processes)

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        try:
            self.language = await database_sync_to_async(scope_language)(self.scope)
            snapshot = await database_sync_to_async(_snapshot)(self.match_id, self.user, None, self.language)
        except ApplicationError as exc:
            # Accepted, then closed with the code: a close before the handshake reaches the browser as 1006
            # (abnormal), which live.js would retry for ever instead of saying the match is not theirs.
            await self.accept()
            await self.close(code=4403 if exc.status_code == 403 else 4404)
            return
        if not await self._take_lease():
            return
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        self._joined = True
        await self.accept()
        await self._send_snapshot(snapshot)
        if self.user is not None and self.user.is_authenticated:  # presence (your-turn e-mails)
            await database_sync_to_async(preferences.mark_seen)(self.user.pk)
        if isinstance(self.channel_layer, InMemoryChannelLayer):
            self._poller = asyncio.ensure_future(self._poll_local_changes())
        self._renewer = asyncio.ensure_future(self._renew_periodically())

    async def _take_lease(self) -> bool:
        """Count this socket against its owner's caps; at a cap, accept and close it with
        CLOSE_TOO_MANY_SOCKETS (a close before the handshake reaches a browser as a bare 1006)."""
        self._owner = sockets.owner_of(self.scope)
        self._limits = sockets.Limits.from_settings()
        self._registry = sockets.registry_for(self.channel_layer)
        refusal = await self._registry.claim(
            self._owner, self.match_id, self.channel_name, self.wall_clock(), self._limits
        )
        if refusal is None:
            self._leased = True
            return True
        await self.accept()
        await self._close_for(CLOSE_TOO_MANY_SOCKETS, f"too many open sockets ({refusal.value})")
        return False

    async def _renew_periodically(self) -> None:
        """Every third of the lease: renew it, and re-join this socket's groups, which restarts their
        expiry (a group member nobody refreshes lapses after CHANNEL_GROUP_EXPIRY_S). A failure is retried
        at the next turn; the lease outlives two missed ones."""
        while True:
            await asyncio.sleep(self._limits.lease_s / 3)
            await sockets.retrying("renewing a socket lease", self._renew)

    async def _renew(self) -> None:
        await self._registry.renew(
            self._owner, self.match_id, self.channel_name, self.wall_clock(), self._limits
        )
        groups = [match_group(self.match_id)]
        groups += [chat_group(self.match_id, c) for c in getattr(self, "_chat_channels", set())]
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def _poll_local_changes(self) -> None:
        """In-memory layer only: notice changes other processes committed (see the module docstring)."""
        seen = await database_sync_to_async(_change_key)(self.match_id)
        while True:
            await asyncio.sleep(LOCAL_POLL_SECONDS)
            now = await database_sync_to_async(_change_key)(self.match_id)
            if now != seen:
                seen = now
                await self._refresh(force=False)

    async def disconnect(self, code: int) -> None:
        """Leave every group and drop the lease. Each step retries a transient Redis failure (a burst of
        closing sockets waits for the pool's connections) and never raises: what it cannot remove lapses."""
        for name in ("_poller", "_renewer"):
            task = getattr(self, name, None)
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        groups = [match_group(self.match_id)] if self._joined else []
        groups += [chat_group(self.match_id, c) for c in getattr(self, "_chat_channels", set())]
        self._joined, self._chat_channels = False, set()
        for group in groups:
            await sockets.retrying(f"leaving {group}", functools.partial(self._discard, group))
        if self._leased:
            self._leased = False
            await sockets.retrying(
                "releasing a socket lease",
                lambda: self._registry.release(self._owner, self.match_id, self.channel_name),
            )

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: object
    ) -> None:
        """One client frame, checked before anything is parsed (an unchecked bad frame once raised in here).

        Binary: close 1003 (unsupported data). Over MAX_FRAME_CHARS: close 1009 (too big). Not JSON, or
        nested deeper than MAX_FRAME_DEPTH: close 1007 (invalid payload). More than RATE_BURST frames at
        once, or beyond RATE_PER_S on average: close 1008 (policy violation). A well-formed message the
        server does not know gets an error message. No frame raises; none logs an error.
        """
        if self._closing:
            return
        if not self._rate_allows():
            await self._close_for(CLOSE_POLICY, "too many messages")
            return
        if bytes_data is not None or text_data is None:
            await self._close_for(CLOSE_UNSUPPORTED, "binary frames are not accepted")
            return
        if len(text_data) > MAX_FRAME_CHARS:
            await self._close_for(CLOSE_TOO_BIG, f"a message is at most {MAX_FRAME_CHARS} characters")
            return
        if _nesting(text_data) > MAX_FRAME_DEPTH:
            await self._close_for(CLOSE_INVALID, f"a message nests at most {MAX_FRAME_DEPTH} levels")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._close_for(CLOSE_INVALID, "a message must be JSON")
            return
        await self.receive_json(content)

    async def receive_json(self, content: object, **kwargs: object) -> None:
        """Clients may ask for a resync: {"type": "sync"}; actions go through the REST API."""
        if isinstance(content, dict) and content.get("type") == "sync":
            await self._refresh(force=True)
            return
        await self.send_json(
            {
                "type": "error",
                "code": "unknown_message",
                "message": 'The only message a client may send is {"type": "sync"}.',
            }
        )

    def _rate_allows(self) -> bool:
        """A token bucket per socket: RATE_BURST frames at once, refilled at RATE_PER_S (time injected)."""
        now = self.clock()
        tokens, last = getattr(self, "_bucket", (float(RATE_BURST), now))
        tokens = min(float(RATE_BURST), tokens + (now - last) * RATE_PER_S)
        if tokens < 1.0:
            self._bucket = (tokens, now)
            return False
        self._bucket = (tokens - 1.0, now)
        return True

    async def _close_for(self, code: int, reason: str) -> None:
        """Close the socket with `code` (logged once, at info level: a client's fault, not the server's)."""
        self._closing = True
        log.info("match %s socket closed with %s: %s", getattr(self, "match_id", "?"), code, reason)
        await self.close(code=code, reason=reason)

    async def match_changed(self, event: MatchChangedEvent) -> None:
        """A change was committed: send this user their own up-to-date view.

        Bursts coalesce: a view is read fresh from the database, so when it already showed a later
        version than this event's (AI houses moving quickly), the event has nothing new to send.
        """
        if int(event.get("version", -1)) < self.sent_version:
            return
        await self._refresh(force=False)

    async def _refresh(self, *, force: bool) -> None:
        """Send the current view: its log only after the version this socket last sent (the page holds
        the rest), in full when the client asked for a resync."""
        since = None if force or self.sent_version < 0 else self.sent_version
        try:
            snapshot = await database_sync_to_async(_snapshot)(self.match_id, self.user, since, self.language)
        except ApplicationError:
            await self.close(code=4403)
            return
        await self._send_snapshot(snapshot, force=force)

    async def _discard(self, group: str) -> None:
        await self.channel_layer.group_discard(group, self.channel_name)

    async def _join_chat_channels(self, channels: set[str]) -> None:
        """Be in the channel-layer group of exactly the chat channels this viewer may read now (from their
        latest snapshot): a private channel's messages never reach another socket (matches.chat)."""
        held: set[str] = getattr(self, "_chat_channels", set())
        for channel in held - channels:
            await self.channel_layer.group_discard(chat_group(self.match_id, channel), self.channel_name)
        for channel in channels - held:
            await self.channel_layer.group_add(chat_group(self.match_id, channel), self.channel_name)
        self._chat_channels = channels

    async def chat_message(self, event: ChatMessageEvent) -> None:
        """A chat message of a channel this socket reads (checked again), unless its viewer muted the author."""
        channel = event.get("channel")
        if channel not in getattr(self, "_chat_channels", set()):
            return
        if not await database_sync_to_async(_delivers)(
            self.user, self.match_id, channel, event.get("author_id")
        ):
            return
        await self.send_json({"type": "chat", "channel": channel, "message": event.get("message")})

    async def chat_removed(self, event: ChatRemovedEvent) -> None:
        """Staff hid a message: the page removes it."""
        channel = event.get("channel")
        if channel in getattr(self, "_chat_channels", set()):
            await self.send_json({"type": "chat", "channel": channel, "removed": event.get("id")})

    async def _send_snapshot(self, snapshot: Snapshot, *, force: bool = True) -> None:
        channels = snapshot["chat"].get("channels")
        listed = channels if isinstance(channels, list) else []
        await self._join_chat_channels({str(c["id"]) for c in listed if isinstance(c, dict)})
        key: tuple[object, ...] = (
            snapshot["state_version"],
            snapshot["status"],
            tuple((s["name"], s.get("house")) for s in snapshot["seats"]),
        )
        key += (repr(snapshot.get("seating")), repr(snapshot.get("rematch")))  # waiting room, rematch offers
        if not force and key == getattr(self, "_sent_key", None):
            return
        self._sent_key = key
        self.sent_version = max(self.sent_version, int(snapshot["state_version"]))
        await self.send_json({"type": "state", "match": snapshot})
