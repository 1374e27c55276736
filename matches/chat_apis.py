"""REST API of match chat: a channel's history and posting (`/api/matches/<id>/chat/`), and mutes
(`/api/chat/mutes/`). Thin: the rules are `matches.chat` (who reads what) and `matches.services.chat`."""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from config.errors import ApplicationError
from matches import api_types, chat, selectors
from matches.apis import MatchApiView, errors
from matches.services import chat as chat_service
from matches.types import signed_in

CHAT_RATE = "10/min"  # per user, over every match (settings.CHAT_RATE)
CHAT_BURST_RATE = "3/5s"  # per user and match (settings.CHAT_BURST_RATE)

CHANNEL_PARAM = OpenApiParameter(
    "channel",
    {"type": "string", "maxLength": chat.MAX_CHANNEL_CHARS},
    description=_(
        '"table" (default), "spectators", or a "private:<a>-<b>" channel listed in your match state'
    ),
)
CHAT_DESCRIPTION = _(
    "One chat channel of a match: its recent messages (GET) or a new message (POST). The channels the caller "
    "may use are listed in their match state (`chat.channels`); new messages are also pushed on "
    '/ws/matches/<id>/ as {"type": "chat", "channel", "message"} to the channel\'s readers, and a message '
    'staff hid as {"type": "chat", "channel", "removed": id}.'
)
MUTE_DESCRIPTION = _("Mute (PUT) or unmute (DELETE) a user's chat messages in every match, history and live.")
ERROR_TEXTS = {
    400: _("Bad input: unknown_channel, empty_message, message_too_long, invalid_parameter"),
    403: _("chat_not_allowed (not your channel), chat_read_only (you may read it only), not_participant"),
    404: _("No such match (not_found), or it has no spectator chat (no_spectator_chat)"),
    409: _("chat_closed: the match was called off (aborted)"),
    429: _("throttled: too many chat messages; `extra.wait` says how many seconds to wait"),
}


def chat_errors(*statuses: int) -> dict[int, OpenApiResponse]:
    out = errors(*statuses)
    for code in statuses:
        if code in ERROR_TEXTS:
            out[code] = OpenApiResponse(api_types.ErrorOut, description=ERROR_TEXTS[code])
    return out


class ChatThrottle(UserRateThrottle):
    """Chat messages per user over every match: `settings.CHAT_RATE` (default 10/min)."""

    scope = "chat"

    def get_rate(self) -> str | None:
        return getattr(settings, "CHAT_RATE", CHAT_RATE)


class ChatBurstThrottle(SimpleRateThrottle):
    """A burst bound per user and match: `settings.CHAT_BURST_RATE` (default 3 messages in 5 seconds);
    the period may carry a count ("3/5s")."""

    scope = "chat_burst"

    def get_rate(self) -> str | None:
        return getattr(settings, "CHAT_BURST_RATE", CHAT_BURST_RATE)

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        if rate is None:
            return None, None
        num, period = rate.split("/")
        digits = "".join(ch for ch in period if ch.isdigit()) or "1"
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period.lstrip("0123456789")[0]]
        return int(num), int(digits) * unit

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {
            "scope": self.scope,
            "ident": f"{request.user.pk}-{view.kwargs.get('match_id')}",
        }


class ChatMessageInputSerializer(serializers.Serializer[object]):
    body = serializers.CharField(
        max_length=4 * chat.MAX_BODY_CHARS,
        error_messages={
            "max_length": format_lazy(
                _("A chat message is at most {max} characters."), max=chat.MAX_BODY_CHARS
            )
        },
        trim_whitespace=False,
        allow_blank=True,
        help_text=format_lazy(
            _("Plain text, 1 to {max} characters after trimming (control characters are removed)"),
            max=chat.MAX_BODY_CHARS,
        ),
    )


def _int_param(request: Request, name: str, *, low: int, high: int, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None
    if value is None or not low <= value <= high:
        raise ApplicationError(
            "invalid_parameter",
            gettext("%(name)s must be a whole number from %(low)s to %(high)s, not %(value)s.")
            % {"name": name, "low": low, "high": high, "value": repr(raw[:40])},
            extra={"parameter": name},
        )
    return value


class MatchChatApi(MatchApiView):
    """One chat channel of a match: its recent messages (GET) or a new message (POST).

    The channels the caller may use are listed in their match state (`chat.channels`); new messages are
    also pushed on /ws/matches/<id>/ as {"type": "chat", "channel", "message"} to the channel's readers,
    and a message staff hid as {"type": "chat", "channel", "removed": id}.
    """

    chat_throttles = (ChatThrottle, ChatBurstThrottle)

    def check_chat_throttles(self, request: Request) -> None:
        """Posting is throttled per user (`ChatThrottle`) and per user and match (`ChatBurstThrottle`),
        counted only for a message that would be stored (a refused one costs no allowance)."""
        waits = [
            t.wait() for t in (cls() for cls in self.chat_throttles) if not t.allow_request(request, self)
        ]
        if waits:
            self.throttled(request, max((w for w in waits if w is not None), default=None))

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        seconds = max(1, int(wait or 1) + (1 if wait and wait % 1 else 0))
        exc = Throttled(
            wait,
            detail=gettext("You are sending chat messages too fast: wait %(seconds)s s.")
            % {"seconds": seconds},
        )
        exc.extra = {"wait": seconds}  # type: ignore[attr-defined]  # config.errors answers it as `extra`
        raise exc

    def _channel(self, request: Request) -> str:
        return chat_service.check_channel(request.query_params.get("channel") or chat.TABLE)

    @extend_schema(
        description=CHAT_DESCRIPTION,
        operation_id="matches_chat_list",
        parameters=[
            CHANNEL_PARAM,
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": chat.HISTORY_MAX},
                description=format_lazy(
                    _("How many of the newest messages (default {default})"), default=chat.HISTORY_DEFAULT
                ),
            ),
            OpenApiParameter(
                "before",
                {"type": "integer", "minimum": 1, "maximum": 10**18 - 1},
                description=_("Only messages older than this message id (the page before)"),
            ),
            OpenApiParameter("invite", str, description=_("Invite token of a private match")),
        ],
        responses={200: api_types.ChatHistoryOut, **chat_errors(400, 403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        channel = self._channel(request)
        limit = _int_param(request, "limit", low=1, high=chat.HISTORY_MAX, default=chat.HISTORY_DEFAULT)
        before = _int_param(request, "before", low=1, high=10**18 - 1, default=None)
        match, you = selectors.match_get_for_viewer(
            match_id=match_id, user=request.user, invite_token=request.query_params.get("invite", "")[:40]
        )
        chat_service.channel_access(match=match, you=you, user=request.user, channel=channel, write=False)
        assert limit is not None
        return Response(
            chat.history(match=match, channel=channel, user=request.user, limit=limit, before=before)
        )

    @extend_schema(
        description=CHAT_DESCRIPTION,
        operation_id="matches_chat_create",
        parameters=[
            CHANNEL_PARAM,
            OpenApiParameter("invite", str, description=_("Invite token of a private match")),
        ],
        request=ChatMessageInputSerializer,
        responses={201: api_types.ChatMessageOut, **chat_errors(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        if not request.user.is_authenticated:
            raise ApplicationError("not_authenticated", gettext("Sign in to chat."), status_code=403)
        channel = self._channel(request)
        s = ChatMessageInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        match, you = selectors.match_get_for_viewer(
            match_id=match_id, user=request.user, invite_token=request.query_params.get("invite", "")[:40]
        )
        chat_service.channel_access(match=match, you=you, user=request.user, channel=channel, write=True)
        chat_service.clean_body(s.validated_data["body"])
        self.check_chat_throttles(request)
        message = chat_service.message_post(
            match=match, you=you, user=request.user, channel=channel, body=s.validated_data["body"]
        )
        return Response(chat.message_json(message, author_name=request.user.get_username()), status=201)


class ChatMutesApi(APIView):
    """The users whose chat messages you do not see."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        description=_("The users whose chat messages you do not see."),
        operation_id="chat_mutes_list",
        responses={200: api_types.ChatMutesOut, **errors(401, 403)},
    )
    def get(self, request: Request) -> Response:
        return Response({"muted": chat_service.muted_names(signed_in(request.user))})


class ChatMuteApi(APIView):
    """Mute (PUT) or unmute (DELETE) a user's chat messages in every match, history and live."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        description=MUTE_DESCRIPTION,
        operation_id="chat_mute_create",
        request=None,
        responses={
            200: api_types.ChatMutesOut,
            **errors(400, 401, 403, 404),
            409: OpenApiResponse(
                api_types.ErrorOut, description=_("too_many_mutes: the limit of muted users")
            ),
        },
    )
    def put(self, request: Request, username: str) -> Response:
        chat_service.mute(user=signed_in(request.user), username=username)
        return Response({"muted": chat_service.muted_names(signed_in(request.user))})

    @extend_schema(
        description=MUTE_DESCRIPTION,
        operation_id="chat_mute_destroy",
        request=None,
        responses={200: api_types.ChatMutesOut, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, username: str) -> Response:
        chat_service.unmute(user=signed_in(request.user), username=username)
        return Response({"muted": chat_service.muted_names(signed_in(request.user))})
