"""The shapes the online-play API answers with, for the OpenAPI schema (the contract clients are built on).

The selectors build these dicts directly (no serializer on the hot path: a submit answers in well under a
millisecond of Python); `matches/tests/test_api_contract.py` builds every shape through the selectors
and checks its keys against the fields here, so the schema cannot drift from what is sent.
"""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.schema import ApiErrorSerializer
from matches.games.westeros import SEATING_CHOICES
from matches.models import ActionLog, MatchStatus


@extend_schema_field(OpenApiTypes.OBJECT)
class ObjectField(serializers.JSONField):
    """A JSON object whose keys are the game's own (an engine action, a player view, a time control)."""


ErrorOut = ApiErrorSerializer  # every error of the API has one shape (config/schema.py, docs/style.md 11)


class SeatOut(serializers.Serializer[object]):
    """Who sits at one place of the table and their clock (public facts only)."""

    position = serializers.IntegerField(min_value=0)
    name = serializers.CharField()
    is_ai = serializers.BooleanField()
    is_you = serializers.BooleanField()
    clock_ms = serializers.IntegerField(help_text=_("Time left now (a running clock counts down)"))
    running = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    consecutive_timeouts = serializers.IntegerField(min_value=0)
    auto_pass = serializers.BooleanField(
        required=False,
        help_text=_("Your own seat only: the phase's Pass is made for you when it is your only move"),
    )
    house = serializers.CharField(
        allow_blank=True, help_text=_("Westeros: the seat's house (W-1.1); '' until fixed")
    )
    left = serializers.BooleanField(help_text=_("The player left the running game: the AI plays the seat on"))


class ResultOut(serializers.Serializer[object]):
    """How a match ended: the winning seat (null: nobody) and why."""

    winner = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(
        help_text=_("The engine's reason, or concede, timeout, aborted, cancelled, internal_error")
    )
    text = serializers.CharField(required=False, help_text=_('In plain words, e.g. "bob lost on time"'))
    winner_name = serializers.CharField(required=False)
    loser = serializers.IntegerField(
        required=False, help_text=_("reason timeout: the seat that lost on time")
    )
    rules_reason = serializers.CharField(
        required=False,
        help_text=_(
            "reason timeout: the engine's own reason for the end the timeout default left behind "
            "(e.g. no_units), never shown as the result"
        ),
    )
    unrated = ObjectField(
        required=False,
        help_text=_(
            'A match created rated that did not count: {"code": "no_first_move"|"repeated_pairing", "text"}'
        ),
    )


class SeatingOut(serializers.Serializer[object]):
    """How the seats of a table get their houses (services.seating) and who the creator removed."""

    mode = serializers.CharField(
        allow_blank=True,
        help_text=format_lazy(
            _(
                "One of {choices} (the rules_config `seating`; '' for a game without houses): "
                "choose: each player picks a free house; random: drawn at the start; draft: in join order"
            ),
            choices=", ".join(SEATING_CHOICES),
        ),
    )
    houses = serializers.ListField(
        child=serializers.CharField(), help_text=_("The houses of this player count (W-1.1)")
    )
    free = serializers.ListField(child=serializers.CharField(), help_text=_("The houses nobody holds yet"))
    kicked = serializers.ListField(child=serializers.CharField(), help_text=_("Players the creator removed"))
    picking = serializers.IntegerField(
        allow_null=True, min_value=0, help_text=_("Draft: the seat whose player picks now (join order)")
    )


class RematchOut(serializers.Serializer[object]):
    """A finished match's rematch (services.rematch): who asked, and the new match once every player did."""

    offered_by = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text=_("Seats that asked")
    )
    offered_by_names = serializers.ListField(child=serializers.CharField())
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text=_("The seats whose players must ask")
    )
    match_id = serializers.IntegerField(allow_null=True, help_text=_("The rematch, once made"))


class MatchOut(serializers.Serializer[object]):
    """The lobby card of a match (`selectors.match_summary`): no game state at all."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    is_public = serializers.BooleanField()
    rated = serializers.BooleanField(help_text=_("The result changes the players' ratings"))
    auto_start = serializers.BooleanField(help_text=_("Starts by itself when the last seat is taken"))
    unrated_reason = serializers.CharField(
        allow_blank=True,
        help_text=_(
            "Why a match created rated is played unrated (a repeated pairing, no first move); '' otherwise"
        ),
    )
    created_by = serializers.CharField(help_text=_("The creator's user name"))
    created_at = serializers.DateTimeField()
    time_control = ObjectField(help_text=_('{"initial_s", "increment_s"} or {"per_move_s"[, "bank_s"]}'))
    state_version = serializers.IntegerField(min_value=0)
    result = ResultOut(allow_null=True)
    seats = SeatOut(many=True)
    seats_needed = serializers.IntegerField(min_value=1)
    you = serializers.IntegerField(allow_null=True, help_text=_("Your seat, null when you do not sit here"))
    invite_token = serializers.CharField(required=False, help_text=_("Only for the creator"))
    result_text = serializers.CharField(
        allow_blank=True, help_text=_("The result in plain words ('' while open)")
    )
    result_reason = serializers.CharField(
        allow_blank=True, help_text=_("Why it ended, in the game-over summary's words ('' while open)")
    )
    seating = SeatingOut(allow_null=True, help_text=_("Houses to pick before the start; removed players"))
    rematch = RematchOut(allow_null=True, help_text=_("A finished match's rematch offer (null otherwise)"))
    rematch_of = serializers.IntegerField(allow_null=True, help_text=_("The finished match this one replays"))

    class Meta:
        ref_name = "MatchSummary"


class RematchAnswerOut(serializers.Serializer[object]):
    """The answer to a rematch request: the offer now, and the new match when this call made it."""

    rematch = RematchOut()
    match = MatchOut(allow_null=True, help_text=_("The new match (started), when this call made it"))


class MatchPageOut(serializers.Serializer[object]):
    """One page of matches (`?page=`), newest first."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = MatchOut(many=True)

    class Meta:
        ref_name = "MatchPage"


class ConsequenceOut(serializers.Serializer[object]):
    """One thing an action caused (damage, a defeat, a draw, CP or Energy, a triggered ability ...), as
    the caller may see it: a drawn card is named only to its owner."""

    text = serializers.CharField()
    kind = serializers.CharField(
        help_text=_("damage, defeat, heal, modify, draw, cp, energy, ability, zone, turn (more may be added)")
    )
    square = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text=_(
            "[row, col] in engine coordinates (Commandeer: row = rank - 1, col = file; a1 = [0, 0]), or null"
        ),
    )
    amount = serializers.IntegerField(
        allow_null=True, help_text=_("damage dealt, health healed, cards drawn, CP/Energy change (signed)")
    )

    class Meta:
        ref_name = "Consequence"


class LogEntryOut(serializers.Serializer[object]):
    """One action of the log in plain words, as the caller may read it."""

    version = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=0)
    # A field named like Field.source/Field.label: the serializer's metaclass moves it out of the class.
    source = serializers.ChoiceField(choices=ActionLog.Source.choices)  # type: ignore[assignment]
    text = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    action = ObjectField(
        required=False, help_text=_("The raw action, unless a part of it is hidden from you")
    )
    consequences = ConsequenceOut(many=True, help_text=_("What the action caused, as you may see it"))


class LegalActionOut(serializers.Serializer[object]):
    """One legal action of the caller and its plain-words description."""

    action = ObjectField(help_text=_("Submit exactly this object to /actions/"))
    description = serializers.CharField()


class ChatChannelOut(serializers.Serializer[object]):
    """One chat channel the caller may read: "table", "spectators" or "private:<a>-<b>"."""

    id = serializers.CharField(
        help_text=_('Pass as `?channel=` to /chat/: "table", "spectators", "private:<a>-<b>"')
    )
    label = serializers.CharField(  # type: ignore[assignment]  # a field named like Field.label (see LogEntryOut)
        help_text=_("What the page calls it (a private channel: the other house)")
    )
    write = serializers.BooleanField(help_text=_("Whether the caller may post in it"))


class ChatStateOut(serializers.Serializer[object]):
    """The chat channels of a match for the caller (docs/play-layer.md, "Chat")."""

    channels = ChatChannelOut(many=True)
    max_chars = serializers.IntegerField(help_text=_("The longest message accepted"))

    class Meta:
        ref_name = "ChatState"


class ChatMessageOut(serializers.Serializer[object]):
    """One chat message (plain text: render it as text, never as HTML)."""

    id = serializers.IntegerField()
    channel = serializers.CharField()
    author = serializers.CharField(help_text=_("The author's user name"))
    seat = serializers.IntegerField(allow_null=True, help_text=_("The author's seat when they wrote it"))
    body = serializers.CharField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ChatMessage"


class ChatHistoryOut(serializers.Serializer[object]):
    channel = serializers.CharField()
    messages = ChatMessageOut(many=True, help_text=_("Oldest first"))
    has_more = serializers.BooleanField(
        help_text=_("Older messages exist: ask again with `before=` the first id")
    )

    class Meta:
        ref_name = "ChatHistory"


class ChatMutesOut(serializers.Serializer[object]):
    muted = serializers.ListField(child=serializers.CharField(), help_text=_("User names you muted"))

    class Meta:
        ref_name = "ChatMutes"


class SnapshotOut(MatchOut):
    """Everything the match page shows one viewer (`selectors.match_snapshot`)."""

    server_time = serializers.DateTimeField()
    current_players = serializers.ListField(child=serializers.IntegerField(min_value=0))
    view = ObjectField(allow_null=True, help_text=_("The caller's player_view (spectator: no hands)"))
    legal_actions = LegalActionOut(many=True)
    log = LogEntryOut(many=True)
    log_since = serializers.IntegerField(
        allow_null=True,
        help_text=_("null: `log` is the log's tail; a version: `log` holds only the entries after it"),
    )
    chat = ChatStateOut(help_text=_("The chat channels you may read and write"))

    class Meta:
        ref_name = "MatchState"


class SubmitOut(serializers.Serializer[object]):
    """The answer to a submitted action, with the caller's snapshot after it."""

    state_version = serializers.IntegerField(min_value=0)
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    result = ResultOut(allow_null=True)
    current_players = serializers.ListField(child=serializers.IntegerField(min_value=0))
    replayed = serializers.BooleanField(
        help_text=_("True when this idempotency key was answered before: nothing was applied")
    )
    state = SnapshotOut()

    class Meta:
        ref_name = "SubmitResult"


class LegalActionsOut(serializers.Serializer[object]):
    state_version = serializers.IntegerField(min_value=0)
    actions = LegalActionOut(many=True)

    class Meta:
        ref_name = "LegalActions"


class MatchLogOut(serializers.Serializer[object]):
    entries = LogEntryOut(many=True)

    class Meta:
        ref_name = "MatchLog"


class ReplayFrameOut(serializers.Serializer[object]):
    """One frame of a replay: the log entry (none for the start) and the view after it."""

    version = serializers.IntegerField(min_value=0)
    seat = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_blank=True)
    source = serializers.ChoiceField(choices=ActionLog.Source.choices, required=False)  # type: ignore[assignment]
    created_at = serializers.DateTimeField(required=False)
    action = ObjectField(required=False)
    consequences = ConsequenceOut(many=True, help_text=_("What the action caused, as you may see it"))
    view = ObjectField()


class ReplayOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    result = ResultOut(allow_null=True)
    seats = SeatOut(many=True)
    you = serializers.IntegerField(allow_null=True)
    frames = ReplayFrameOut(many=True)

    class Meta:
        ref_name = "MatchReplay"


class HealthOut(serializers.Serializer[object]):
    ok = serializers.BooleanField()
    db = serializers.CharField(help_text=_("The database vendor, e.g. postgresql"))

    class Meta:
        ref_name = "Health"
