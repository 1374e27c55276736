"""Writes of match chat: post a message, mute and unmute an author, hide a message (staff).

Who may read and write which channel is `matches.chat`. A message reaches the live sockets after commit,
only through the channel's own channel-layer group (`chat_group`), which a consumer joins only for the
channels its viewer may read (see `matches.consumers`): a private message never travels to a third
player's socket, a spectator's or staff's.
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
from concurrent.futures import Future
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import status

from config.errors import ApplicationError
from matches import chat
from matches.models import ChatMessage, ChatMute, Match, MatchStatus, Seat
from matches.types import Viewer

log = logging.getLogger(__name__)

MAX_NEWLINES = 5  # lines of one message beyond this are joined with spaces
MAX_MUTES = 500  # users one user may mute
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def chat_group(match_id: int, channel: str) -> str:
    """The channel-layer group of one chat channel's live readers (group names allow [A-Za-z0-9-_.])."""
    return f"chat-{match_id}-{channel.replace(':', '.')}"


def clean_body(raw: str) -> str:
    """The text stored: control and direction-override characters removed, at most MAX_NEWLINES line
    breaks, trimmed; then 1 to `chat.MAX_BODY_CHARS` characters, else a 400 naming the bound."""
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROL.sub("", text.replace("\t", " "))
    lines = text.split("\n")
    if len(lines) > MAX_NEWLINES + 1:
        lines = [*lines[:MAX_NEWLINES], " ".join(lines[MAX_NEWLINES:])]
    text = "\n".join(line.rstrip() for line in lines).strip()
    if not text:
        raise ApplicationError(
            "empty_message", gettext("A chat message cannot be empty."), extra={"field": "body"}
        )
    if len(text) > chat.MAX_BODY_CHARS:
        raise ApplicationError(
            "message_too_long",
            gettext("A chat message is at most %(limit)s characters (this one has %(length)s).")
            % {"limit": chat.MAX_BODY_CHARS, "length": len(text)},
            extra={"field": "body", "limit": chat.MAX_BODY_CHARS},
        )
    return text


def check_channel(channel: str) -> str:
    """A channel name's shape (not whether the caller may use it): a 400 naming the problem."""
    if (
        not channel
        or len(channel) > chat.MAX_CHANNEL_CHARS
        or not (channel in (chat.TABLE, chat.SPECTATORS) or chat.PRIVATE_CHANNEL.fullmatch(channel))
    ):
        raise ApplicationError(
            "unknown_channel",
            gettext(
                'Unknown chat channel: use "table", "spectators" or one of the "private:..." channels '
                "listed in your match state."
            ),
            extra={"parameter": "channel"},
        )
    return channel


def channel_access(
    *, match: Match, you: Seat | None, user: Viewer, channel: str, write: bool
) -> chat.Channel:
    """The caller's channel, or a 403/404 naming why not (a private channel of others: not allowed)."""
    check_channel(channel)
    found = next((c for c in chat.channels_for(match=match, you=you, user=user) if c.id == channel), None)
    if found is None:
        if channel == chat.SPECTATORS and not match.spectator_chat:
            raise ApplicationError(
                "no_spectator_chat",
                gettext("This match has no spectator chat."),
                status_code=status.HTTP_404_NOT_FOUND,
            )
        raise ApplicationError(
            "chat_not_allowed",
            gettext("You may not read the %(channel)s chat channel of this match.")
            % {"channel": repr(channel)},
            status_code=status.HTTP_403_FORBIDDEN,
        )
    if write and match.status == MatchStatus.ABORTED:
        raise ApplicationError(
            "chat_closed",
            gettext("This match was called off: its chat is closed."),
            status_code=status.HTTP_409_CONFLICT,
        )
    if write and not found.write:
        why = (
            gettext("Only the players at the table write in the table chat.")
            if channel == chat.TABLE
            else gettext("Only signed-in spectators write in the spectator chat.")
            if channel == chat.SPECTATORS
            else gettext("You may not write in this channel.")
        )
        raise ApplicationError("chat_read_only", why, status_code=status.HTTP_403_FORBIDDEN)
    return found


@transaction.atomic
def message_post(*, match: Match, you: Seat | None, user: User, channel: str, body: str) -> ChatMessage:
    """Store one message (the caller may write the channel) and push it to the channel's readers on commit."""
    channel_access(match=match, you=you, user=user, channel=channel, write=True)
    text = clean_body(body)
    message = ChatMessage.objects.create(
        match=match, channel=channel, author=user, seat=you.position if you is not None else None, body=text
    )
    payload = chat.message_json(message, author_name=user.get_username())
    event: ChatMessageEvent = {
        "type": "chat.message",
        "channel": channel,
        "message": payload,
        "author_id": user.pk,
    }
    transaction.on_commit(lambda: _group_send(chat_group(match.pk, channel), event))
    return message


class ChatMessageEvent(TypedDict):
    """A message posted to a channel (its payload as the readers get it)."""

    type: str
    channel: str
    message: object
    author_id: int | None


class ChatRemovedEvent(TypedDict):
    """Staff hid this message."""

    type: str
    channel: str
    id: int


# Any: the admin passes request.user, which Django's stub types as User | AnonymousUser (staff only here)
@transaction.atomic
def message_hide(*, message_id: int, by: Any) -> bool:
    """Staff: hide a message (kept for review, never read again); its readers' pages remove it live.
    False when it was hidden already."""
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None or message.hidden:
        return False
    message.hidden, message.hidden_by, message.hidden_at = True, by, timezone.now()
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    event: ChatRemovedEvent = {"type": "chat.removed", "channel": message.channel, "id": message.pk}
    group = chat_group(message.match_id, message.channel)
    transaction.on_commit(lambda: _group_send(group, event))
    return True


@transaction.atomic
def message_unhide(*, message_id: int) -> bool:
    """Staff: show a hidden message again (a mistaken hide); its readers' pages get it back live.
    False when it was not hidden."""
    message = ChatMessage.objects.select_for_update().select_related("author").filter(pk=message_id).first()
    if message is None or not message.hidden:
        return False
    message.hidden, message.hidden_by, message.hidden_at = False, None, None
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    payload = chat.message_json(message)
    event: ChatMessageEvent = {
        "type": "chat.message",
        "channel": message.channel,
        "message": payload,
        "author_id": message.author_id,
    }
    group = chat_group(message.match_id, message.channel)
    transaction.on_commit(lambda: _group_send(group, event))
    return True


def _user_by_name(username: str) -> User:
    model = get_user_model()
    found = model.objects.filter(**{model.USERNAME_FIELD: username[:150]}).first()
    if found is None:
        raise ApplicationError(
            "not_found",
            gettext("No user %(name)s.") % {"name": repr(username[:40])},
            status_code=status.HTTP_404_NOT_FOUND,
        )
    return found


def mute(*, user: User, username: str) -> User:
    """`user` stops seeing `username`'s chat messages (every match, history and live)."""
    other = _user_by_name(username)
    if other.pk == user.pk:
        raise ApplicationError("cannot_mute_self", gettext("You cannot mute yourself."))
    if ChatMute.objects.filter(user=user).count() >= MAX_MUTES:
        raise ApplicationError(
            "too_many_mutes",
            gettext("You can mute at most %(limit)s users.") % {"limit": MAX_MUTES},
            status_code=409,
        )
    ChatMute.objects.get_or_create(user=user, muted=other)
    return other


def unmute(*, user: User, username: str) -> None:
    other = _user_by_name(username)
    ChatMute.objects.filter(user=user, muted=other).delete()


def muted_names(user: User) -> list[str]:
    model = get_user_model()
    field = f"muted__{model.USERNAME_FIELD}"
    return sorted(ChatMute.objects.filter(user=user).values_list(field, flat=True))


def _group_send(group: str, event: ChatMessageEvent | ChatRemovedEvent) -> None:
    """Hand one event to the channel layer (after commit); a failure is logged, never raised: the
    message is stored and readers see it on their next history read."""
    from asgiref.sync import async_to_sync
    from channels.layers import InMemoryChannelLayer, get_channel_layer

    from matches.services.notify import _broadcast_loop

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if isinstance(layer, InMemoryChannelLayer):
            async_to_sync(layer.group_send)(group, event)
            return
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, event), _broadcast_loop())
        sent.add_done_callback(_push_failed)
    except Exception:
        log.exception("chat push to %s failed", group)


def _push_failed(sent: Future[object]) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        log.error("chat push failed: %r", sent.exception())
