"""Who may read and write which chat channel of a match, and the reads of its messages.

Channels (docs/play-layer.md, "Chat"):

- ``table``: every match. Everyone who may watch the match reads it; seated human players write.
- ``spectators``: only when the creator allowed spectator chat (``Match.spectator_chat``). Everyone who
  watches reads it, except the seated players while the game runs (no kibitzing, as on Lichess);
  signed-in users without a seat write.
- ``private:<a>-<b>``: in a game of three or more seats (Westeros), one per pair of seats that both have
  a human player, named by the two houses (sorted). Only the users of those two seats read or write it:
  not the other players, not spectators, not staff, not the admin, during the game or after it (a
  private talk is never part of a replay: its authors chose who reads it).

Used by the selectors (the channels a viewer may use, in their snapshot), the chat API, the chat service
and the WebSocket consumer (which channel pushes a socket may receive). No writes here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeGuard

from django.contrib.auth.models import User
from django.db.models import QuerySet

from matches import queries, storage
from matches.games.registry import get_game
from matches.jsontypes import JSONObject
from matches.messages import seat_name
from matches.models import ChatMessage, ChatMute, Match, MatchStatus, Seat
from matches.types import Viewer

TABLE = "table"
SPECTATORS = "spectators"
PRIVATE_PREFIX = "private:"
MAX_CHANNEL_CHARS = 40
PLAYER_NAME = re.compile(r"[a-z0-9_]{1,16}")  # a house id names its side of a private channel
PRIVATE_CHANNEL = re.compile(r"private:[a-z0-9_]{1,16}-[a-z0-9_]{1,16}")
PRIVATE_MIN_SEATS = 3  # private channels are for diplomacy games of three or more seats (Westeros)

MAX_BODY_CHARS = 500  # the longest message, after cleaning (services.chat.clean_body)
HISTORY_DEFAULT = 50
HISTORY_MAX = 100


@dataclass(frozen=True)
class Channel:
    id: str
    label: str
    write: bool

    def to_json(self) -> JSONObject:
        return {"id": self.id, "label": self.label, "write": self.write}


def _seat_names(match: Match, seats: list[Seat], state: Any) -> dict[int, str]:
    """The name a private channel uses for each seat: the engine's player (the Westeros house) when it is
    a name, else "seat<N>"."""
    game = get_game(match.kind)
    if state is None:
        state = storage.load_state(match, game)
    names = {}
    for s in seats:
        player = game.engine_player(state, s.position)
        names[s.position] = (
            player if isinstance(player, str) and PLAYER_NAME.fullmatch(player) else f"seat{s.position}"
        )
    return names


def private_channel(a: str, b: str) -> str:
    first, second = sorted((a, b))
    return f"{PRIVATE_PREFIX}{first}-{second}"


def _is_signed_in(user: Viewer | None) -> TypeGuard[User]:
    return isinstance(user, User) and user.is_authenticated


def channels_for(
    *, match: Match, you: Seat | None, user: Viewer | None = None, state: Any = None
) -> list[Channel]:
    """The channels this viewer may read, each with whether they may write it (the viewer may watch the
    match: `selectors.match_get_for_viewer` said so). `user` defaults to the seat's user."""
    seats = queries.seats_of(match)
    you_human = you is not None and not you.is_ai and you.user_id is not None
    signed_in = you_human or _is_signed_in(user)
    out = [Channel(TABLE, "Table", you_human)]
    if match.spectator_chat and (you is None or match.status != MatchStatus.ACTIVE):
        out.append(Channel(SPECTATORS, "Spectators", you is None and signed_in))
    humans = [s for s in seats if s.user_id is not None and not s.is_ai]
    if you_human and match.started_at is not None and len(seats) >= PRIVATE_MIN_SEATS and len(humans) > 1:
        assert you is not None
        names = _seat_names(match, seats, state)
        for other in humans:
            if other.position != you.position:
                label = seat_name(
                    f"{names[other.position].title()} ({other.display_name})"
                )  # its house translated
                out.append(Channel(private_channel(names[you.position], names[other.position]), label, True))
    return out


def chat_state(
    *, match: Match, you: Seat | None, user: Viewer | None = None, state: Any = None
) -> JSONObject:
    """The `chat` part of a viewer's snapshot: the channels they may read (and write)."""
    return {
        "channels": [c.to_json() for c in channels_for(match=match, you=you, user=user, state=state)],
        "max_chars": MAX_BODY_CHARS,
    }


def message_json(m: ChatMessage, author_name: str | None = None) -> JSONObject:
    """One message as every reader of its channel gets it (no per-viewer field)."""
    return {
        "id": m.pk,
        "channel": m.channel,
        "author": author_name if author_name is not None else m.author.get_username(),
        "seat": m.seat,
        "body": m.body,
        "created_at": m.created_at.isoformat(),
    }


def muted_ids(user: Viewer) -> set[int]:
    if not _is_signed_in(user):
        return set()
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def visible_messages(match: Match, channel: str, user: Viewer) -> QuerySet[ChatMessage]:
    """The channel's messages this user may see: not hidden by staff, none of the authors they muted."""
    qs = ChatMessage.objects.filter(match=match, channel=channel, hidden=False)
    muted = muted_ids(user)
    if muted:
        qs = qs.exclude(author_id__in=muted)
    return qs


def history(
    *, match: Match, channel: str, user: Viewer, limit: int = HISTORY_DEFAULT, before: int | None = None
) -> JSONObject:
    """The newest `limit` messages of the channel (before message id `before`), oldest first."""
    qs = visible_messages(match, channel, user).select_related("author")
    if before is not None:
        qs = qs.filter(pk__lt=before)
    rows = list(qs.order_by("-id")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    return {"channel": channel, "messages": [message_json(m) for m in reversed(rows)], "has_more": more}
