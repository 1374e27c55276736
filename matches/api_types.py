"""The shapes the online-play API answers with, for the OpenAPI schema (the contract clients are built on).

The selectors build these dicts directly (no serializer on the hot path: a submit answers in well under a
millisecond of Python); `matches/tests/test_api_contract.py` builds every shape through the selectors
and checks its keys against the fields here, so the schema cannot drift from what is sent.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.schema import ApiErrorSerializer
from matches.models import ActionLog, MatchStatus


@extend_schema_field(OpenApiTypes.OBJECT)
class ObjectField(serializers.JSONField):
    """A JSON object whose keys are the game's own (an engine action, a player view, a time control)."""


ErrorOut = ApiErrorSerializer  # every error of the API has one shape (config/schema.py, STYLE.md 11)


class SeatOut(serializers.Serializer):
    """Who sits at one place of the table and their clock (public facts only)."""

    position = serializers.IntegerField(min_value=0)
    name = serializers.CharField()
    is_ai = serializers.BooleanField()
    is_you = serializers.BooleanField()
    clock_ms = serializers.IntegerField(help_text="Time left now (a running clock counts down)")
    running = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    consecutive_timeouts = serializers.IntegerField(min_value=0)


class ResultOut(serializers.Serializer):
    """How a match ended: the winning seat (null: nobody) and why."""

    winner = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(
        help_text="The engine's reason, or concede, timeout, aborted, cancelled, internal_error"
    )
    text = serializers.CharField(required=False)
    winner_name = serializers.CharField(required=False)


class MatchOut(serializers.Serializer):
    """The lobby card of a match (`selectors.match_summary`): no game state at all."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    is_public = serializers.BooleanField()
    created_by = serializers.CharField(help_text="The creator's user name")
    created_at = serializers.DateTimeField()
    time_control = ObjectField(help_text='{"initial_s", "increment_s"} or {"per_move_s"[, "bank_s"]}')
    state_version = serializers.IntegerField(min_value=0)
    result = ResultOut(allow_null=True)
    seats = SeatOut(many=True)
    seats_needed = serializers.IntegerField(min_value=1)
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, null when you do not sit here")
    invite_token = serializers.CharField(required=False, help_text="Only for the creator")

    class Meta:
        ref_name = "MatchSummary"


class MatchPageOut(serializers.Serializer):
    """One page of matches (`?page=`), newest first."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = MatchOut(many=True)

    class Meta:
        ref_name = "MatchPage"


class LogEntryOut(serializers.Serializer):
    """One action of the log in plain words, as the caller may read it."""

    version = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=0)
    source = serializers.ChoiceField(choices=ActionLog.Source.choices)
    text = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    action = ObjectField(required=False, help_text="The raw action, unless a part of it is hidden from you")


class LegalActionOut(serializers.Serializer):
    """One legal action of the caller and its plain-words description."""

    action = ObjectField(help_text="Submit exactly this object to /actions/")
    description = serializers.CharField()


class SnapshotOut(MatchOut):
    """Everything the match page shows one viewer (`selectors.match_snapshot`)."""

    server_time = serializers.DateTimeField()
    current_players = serializers.ListField(child=serializers.IntegerField(min_value=0))
    view = ObjectField(allow_null=True, help_text="The caller's player_view (spectator: no hands)")
    legal_actions = LegalActionOut(many=True)
    log = LogEntryOut(many=True)
    log_since = serializers.IntegerField(
        allow_null=True,
        help_text="null: `log` is the log's tail; a version: `log` holds only the entries after it",
    )

    class Meta:
        ref_name = "MatchState"


class SubmitOut(serializers.Serializer):
    """The answer to a submitted action, with the caller's snapshot after it."""

    state_version = serializers.IntegerField(min_value=0)
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    result = ResultOut(allow_null=True)
    current_players = serializers.ListField(child=serializers.IntegerField(min_value=0))
    replayed = serializers.BooleanField(
        help_text="True when this idempotency key was answered before: nothing was applied"
    )
    state = SnapshotOut()

    class Meta:
        ref_name = "SubmitResult"


class LegalActionsOut(serializers.Serializer):
    state_version = serializers.IntegerField(min_value=0)
    actions = LegalActionOut(many=True)

    class Meta:
        ref_name = "LegalActions"


class MatchLogOut(serializers.Serializer):
    entries = LogEntryOut(many=True)

    class Meta:
        ref_name = "MatchLog"


class ReplayFrameOut(serializers.Serializer):
    """One frame of a replay: the log entry (none for the start) and the view after it."""

    version = serializers.IntegerField(min_value=0)
    seat = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_blank=True)
    source = serializers.ChoiceField(choices=ActionLog.Source.choices, required=False)
    created_at = serializers.DateTimeField(required=False)
    action = ObjectField(required=False)
    view = ObjectField()


class ReplayOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    result = ResultOut(allow_null=True)
    seats = SeatOut(many=True)
    you = serializers.IntegerField(allow_null=True)
    frames = ReplayFrameOut(many=True)

    class Meta:
        ref_name = "MatchReplay"


class HealthOut(serializers.Serializer):
    ok = serializers.BooleanField()
    db = serializers.CharField(help_text="The database vendor, e.g. postgresql")

    class Meta:
        ref_name = "Health"
