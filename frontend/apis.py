"""The signed-in user's notification settings: GET/PATCH /api/me/settings/ (thin: logic in preferences)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from frontend import preferences
from frontend.language import normalize, unknown_language_message


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false only (DRF's BooleanField also takes "yes", "0", 1, ...)."""

    default_error_messages = {"invalid": gettext_lazy("Must be true or false.")}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


@extend_schema_field({"type": "string", "format": "email", "maxLength": 254})
class BoundedEmailField(serializers.EmailField):
    """An e-mail address of at most 254 characters, with the bound in the schema."""


@extend_schema_field({"type": "string", "enum": ["", "en", "th", "zh-hans"]})
class LanguageField(serializers.CharField):
    """One of the site's language codes, or '' (none chosen: the browser's language); else a 400 naming them."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if data is None:
            raise serializers.ValidationError(unknown_language_message(data), code="invalid_language")
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> str:
        if data == "":
            return ""
        language = normalize(data)
        if language is None:
            raise serializers.ValidationError(unknown_language_message(data), code="invalid_language")
        return language


class UserSettingsSerializer(serializers.Serializer):
    browser_notifications = StrictBooleanField(
        required=False,
        help_text=gettext_lazy("A browser notification when it is your turn and the game's tab is hidden"),
    )
    notifications_asked = StrictBooleanField(
        required=False,
        help_text=gettext_lazy("The game page has offered browser notifications (it asks only once)"),
    )
    sound = StrictBooleanField(
        required=False, help_text=gettext_lazy("A short sound when it becomes your turn")
    )
    low_time_warning = StrictBooleanField(
        required=False,
        help_text=gettext_lazy("A warning (and a tick with sound on) when your live clock runs low"),
    )
    email_your_turn = StrictBooleanField(
        required=False,
        help_text=gettext_lazy(
            "E-mail when a correspondence game waits for your move and you have been away "
            "(needs an e-mail address)"
        ),
    )
    language = LanguageField(
        required=False,
        allow_blank=True,
        help_text=gettext_lazy("The site's language for you: en, th or zh-hans ('' for your browser's)"),
    )
    email = BoundedEmailField(
        required=False,
        allow_blank=True,
        max_length=254,
        help_text=gettext_lazy("Where e-mails go ('' for none)"),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = set(self.initial_data) - set(self.fields) if isinstance(self.initial_data, dict) else set()
        if unknown:
            names = ", ".join(sorted(map(str, unknown)))[:200]
            message = gettext("Unknown settings: %(names)s.") % {"names": names}
            raise serializers.ValidationError({"non_field_errors": [message]})
        return attrs


def settings_dict(user: Any) -> dict[str, Any]:
    row = preferences.settings_get(user)
    return {**{name: getattr(row, name) for name in preferences.EDITABLE}, "email": user.email}


@transaction.atomic
def settings_change(*, user: Any, changes: dict[str, Any]) -> None:
    """Apply a validated change: the e-mail address on the user, the rest on their settings row."""
    email = changes.pop("email", None)
    if email is not None and email != user.email:
        user.email = email
        user.save(update_fields=["email"])
    if changes:
        preferences.settings_update(user=user, **changes)


class MeSettingsApi(APIView):
    """Notification settings of the signed-in user (made with the defaults on first change)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        description=gettext_lazy(
            "Notification settings of the signed-in user (made with the defaults on first change)."
        ),
        responses=UserSettingsSerializer,
        summary=gettext_lazy("My notification settings"),
    )
    def get(self, request: Request) -> Response:
        return Response(settings_dict(request.user))

    @extend_schema(
        request=UserSettingsSerializer,
        responses=UserSettingsSerializer,
        summary=gettext_lazy("Change my notification settings"),
        description=gettext_lazy(
            "Send only the settings to change; unknown names are refused (400). "
            "Answers all settings as they now are."
        ),
    )
    def patch(self, request: Request) -> Response:
        body = UserSettingsSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        settings_change(user=request.user, changes=dict(body.validated_data))
        return Response(settings_dict(request.user))


class MyGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    game = serializers.CharField(help_text=gettext_lazy("The game's name, e.g. Commandeer TCG"))
    status = serializers.CharField()
    url = serializers.CharField(help_text=gettext_lazy("The match page"))
    opponents = serializers.ListField(child=serializers.CharField())
    your_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text=gettext_lazy("When your move is due (your turn only)")
    )
    time_left_ms = serializers.IntegerField(allow_null=True)
    correspondence = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.CharField(
        help_text=gettext_lazy("won, lost, draw or aborted (finished games); '' otherwise")
    )
    result_text = serializers.CharField()
    replay_url = serializers.CharField()
    seats_needed = serializers.IntegerField()
    seated = serializers.IntegerField()


class MyGamesSerializer(serializers.Serializer):
    your_turn = MyGameSerializer(
        many=True, help_text=gettext_lazy("Waiting for your move, soonest deadline first")
    )
    running = MyGameSerializer(many=True, help_text=gettext_lazy("Your other running games, newest first"))
    open = MyGameSerializer(many=True, help_text=gettext_lazy("Tables you sit at that have not started"))
    finished = MyGameSerializer(
        many=True, help_text=gettext_lazy("Your last 20 finished games, newest first")
    )


class MyGamesApi(APIView):
    """The signed-in user's games of every kind (the /play/mine/ page's data)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        description=gettext_lazy("The signed-in user's games of every kind (the /play/mine/ page's data)."),
        responses=MyGamesSerializer,
        summary=gettext_lazy("My games, those waiting for my move first"),
    )
    def get(self, request: Request) -> Response:
        from matches.my_games import my_games

        return Response(my_games(user=request.user).as_dict())


class MyTurnsSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text=gettext_lazy("How many running games wait for your move"))
    matches = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("Their ids, soonest deadline first (at most 100)"),
    )


class MyTurnsApi(APIView):
    """How many games wait for the signed-in user's move (the header's badge; one query)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        description=gettext_lazy(
            "How many games wait for the signed-in user's move (the header's badge; one query)."
        ),
        responses=MyTurnsSerializer,
        summary=gettext_lazy("The games waiting for my move"),
    )
    def get(self, request: Request) -> Response:
        from matches.my_games import waiting_match_ids

        ids = waiting_match_ids(user=request.user)
        return Response({"count": len(ids), "matches": ids})
