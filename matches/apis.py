"""REST API of online play: thin views that parse input, call a service or selector and shape output."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias, cast

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import ErrorDetail
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, UserRateThrottle
from rest_framework.views import APIView

from config.errors import ApplicationError
from matches import api_types, rules_api, selectors
from matches.agents import DEFAULT_AGENT, agent_choices, level_choices
from matches.games.registry import game_kinds
from matches.models import MatchStatus
from matches.services.lobby import match_concede, match_create_once, match_join, match_leave, match_start
from matches.services.rematch import match_rematch
from matches.services.seating import match_fill_ai, match_kick, match_pick_house
from matches.services.submit import action_submit, seat_preferences_update
from matches.types import signed_in

MATCH_CREATE_RATE = "30/min"  # default of settings.MATCHES_CREATE_RATE


class HealthApi(APIView):
    """Liveness probe and the benchmark's trivial baseline endpoint."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        description=_("Liveness probe and the benchmark's trivial baseline endpoint."),
        responses={200: api_types.HealthOut},
    )
    def get(self, request: Request) -> Response:
        return Response({"ok": True, "db": connection.vendor})


ErrorOut = api_types.ErrorOut
MatchOut = api_types.MatchOut
SnapshotOut = api_types.SnapshotOut
ERROR_TEXTS = {
    400: _("Bad input: `code` names it (invalid, invalid_parameter, illegal_action, invalid_deck, ...)"),
    401: _("Not signed in (no or a bad token)"),
    403: _("Not allowed: not signed in, not seated (not_participant), or a private match (not_invited)"),
    404: _("No such match (not_found)"),
    409: _("The match is not in a state for this: stale_state, not_your_turn, game_over, match_started, ..."),
    429: _("Too many requests (throttled)"),
}


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of an operation, each in the one error shape `{"code", "message", "extra"}`."""
    return {code: OpenApiResponse(ErrorOut, description=ERROR_TEXTS[code]) for code in statuses}


SIGNED_IN = (401, 403)  # the errors of an operation that needs a signed-in user
VERSION_PARAM = {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}  # what `_version_param` accepts


MAX_MATCH_ID = 2**63 - 1  # the id column's range: a larger id in the path is no match (not an overflow)


class MatchApiView(APIView):
    """A view of one match (`match_id` in the path): an id beyond the column's range is a 404, not a 500."""

    def initial(self, request: Request, *args: object, **kwargs: int) -> None:  # routes: <int:match_id>
        if kwargs.get("match_id", 0) > MAX_MATCH_ID:
            raise ApplicationError(
                "not_found", gettext("No match #%(id)s.") % {"id": kwargs["match_id"]}, status_code=404
            )
        super().initial(request, *args, **kwargs)


SETTINGS_ERROR_CODES = {"rules_config": "invalid_rules_config", "time_control": "invalid_time_control"}


# A serializer's `errors`: each field's messages, nested as its (list or object) field is.
ErrorTree: TypeAlias = "ErrorDetail | list[ErrorTree] | dict[str, ErrorTree]"


def _settings_error(errors: Mapping[str, ErrorTree]) -> Exception:
    """The create input's errors: a bad rules_config or time_control alone keeps its own stable code
    (`invalid_rules_config`, `invalid_time_control`), the message naming the setting; else `invalid`."""
    if len(errors) == 1 and next(iter(errors)) in SETTINGS_ERROR_CODES:
        name = next(iter(errors))

        def words(detail: object, path: str) -> list[str]:
            if isinstance(detail, dict):
                return [
                    w
                    for k, v in detail.items()
                    for w in words(v, path if k == "non_field_errors" else f"{path}.{k}")
                ]
            if isinstance(detail, list):
                return [w for v in detail for w in words(v, path)]
            return [f"{path}: {detail}"]

        message = "; ".join(w.rstrip(".") for w in words(errors[name], name)) + "."
        return ApplicationError(SETTINGS_ERROR_CODES[name], message, extra={"fields": errors})
    return serializers.ValidationError(errors)


class MatchCreateThrottle(UserRateThrottle):
    """Match creation per user: `settings.MATCHES_CREATE_RATE` (default 30/min; None switches it off)."""

    scope = "match_create"

    def get_rate(self) -> str | None:
        return getattr(settings, "MATCHES_CREATE_RATE", MATCH_CREATE_RATE)


class MatchListCreateApi(APIView):
    """List public matches and your own; create a match (optionally against the AI, started at once)."""

    class MatchListFilterSerializer(serializers.Serializer[object]):
        status = serializers.ChoiceField(choices=MatchStatus.choices, required=False)
        kind = serializers.CharField(required=False, allow_blank=True, max_length=30)

    class MatchCreateInputSerializer(serializers.Serializer[object]):
        kind = serializers.CharField(default="commandeer")
        deck_id = serializers.IntegerField(required=False, allow_null=True)
        starter_deck_id = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=MAX_MATCH_ID,
            help_text=_(
                "A starter deck (owner 'starter'): copied into your decks and played (instead of deck_id)"
            ),
        )
        is_public = serializers.BooleanField(
            default=True, help_text=_("Listed, and anyone may watch (AI matches too) and join while open")
        )
        vs_ai = serializers.BooleanField(
            default=False, help_text=_("Every other seat is an AI; starts at once")
        )
        spectator_chat = serializers.BooleanField(
            default=False, help_text=_("Spectators may write in the match's spectator chat channel")
        )
        auto_start = serializers.BooleanField(
            default=True,
            help_text=_("Start by itself when the last seat is taken; false: a seated player starts it"),
        )
        ai_seats = serializers.IntegerField(
            default=0,
            min_value=0,
            max_value=5,
            help_text=_("This many of the last seats are AI (3+ seat games)"),
        )
        ai_agent = serializers.ChoiceField(
            choices=agent_choices(),
            default=DEFAULT_AGENT,
            help_text=_(
                "The AI seats' level: easy, normal (default) or hard; random, greedy and flatmc are "
                "baselines for tests and benchmarks"
            ),
        )
        time_control = rules_api.TimeControlSerializer(
            required=False, help_text=_('{"initial_s": 300, "increment_s": 10} or {"per_move_s": 86400}')
        )
        rules_config = rules_api.RulesConfigField(
            required=False, help_text=_("The match kind's rules settings (see the RulesConfig variants)")
        )
        rated = serializers.BooleanField(
            default=False,
            help_text=_(
                "The result changes ratings: only people (no AI seat) with a time control; else 400 "
                "not_rateable"
            ),
        )

        def validate_kind(self, value: str) -> str:
            if value not in game_kinds():
                raise serializers.ValidationError(
                    gettext("Unknown game kind; choose one of %(kinds)s.")
                    % {"kinds": ", ".join(game_kinds())}
                )
            return value

        def validate(self, attrs: dict[str, object]) -> dict[str, object]:
            """rules_config against the kind's generated serializer (errors under `rules_config`)."""
            if "rules_config" in attrs:
                try:
                    attrs["rules_config"] = rules_api.validate_rules_config(
                        cast("str", attrs["kind"]),
                        attrs["rules_config"],  # a str: validate_kind ran
                    )
                except serializers.ValidationError as exc:
                    raise serializers.ValidationError({"rules_config": exc.detail}) from None
            return attrs

    @extend_schema(
        description=_("Public matches and your own."),
        operation_id="matches_list",
        parameters=[
            OpenApiParameter("status", str, enum=[c for c, _ in MatchStatus.choices]),
            OpenApiParameter("kind", str, description=_("Only matches of this game kind")),
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1},
                description=_("Page number; past the last one: 404"),
            ),
        ],
        responses={200: api_types.MatchPageOut, **errors(400, 404)},
    )
    def get(self, request: Request) -> Response:
        f = self.MatchListFilterSerializer(data=request.query_params.dict())  # `status=` is no status: a 400
        f.is_valid(raise_exception=True)
        qs = selectors.match_list(
            user=request.user, status_filter=f.validated_data.get("status"), kind=f.validated_data.get("kind")
        )
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(qs, request, view=self) or []
        data = [selectors.match_summary(m, you=selectors.viewer_seat(m, request.user)) for m in page]
        return paginator.get_paginated_response(data)

    def get_throttles(self) -> list[BaseThrottle]:
        """Creating is throttled per user (`MatchCreateThrottle`); listing is not."""
        return [MatchCreateThrottle()] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(
        description=_("Create a match (optionally against the AI, started at once)."),
        request=MatchCreateInputSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description=_(
                    "Names one match for a day: a retry with the same settings answers it again (200) "
                    "instead of creating; other settings with the same key are a 409"
                ),
            )
        ],
        responses={
            201: MatchOut,
            200: OpenApiResponse(
                MatchOut, description=_("A double submit: the match the first request made")
            ),
            **errors(400, *SIGNED_IN, 429),
            409: OpenApiResponse(
                ErrorOut,
                description=_(
                    "too_many_open_matches: the user's open-match limit; idempotency_key_reused: "
                    "the Idempotency-Key was used before with other settings"
                ),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        s = self.MatchCreateInputSerializer(data=request.data)
        if not s.is_valid():
            raise _settings_error(s.errors)
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 100:
            raise ApplicationError("invalid_parameter", gettext("Idempotency-Key is at most 100 characters."))
        match, created = match_create_once(
            user=signed_in(request.user), idempotency_key=key, **s.validated_data
        )
        match, you = selectors.match_get_for_viewer(match_id=match.pk, user=request.user)
        return Response(selectors.match_summary(match, you=you), status=201 if created else 200)


class MatchDetailApi(MatchApiView):
    """One match's lobby card: kind, status, who is seated, clocks, result."""

    @extend_schema(
        description=_("One match's lobby card: kind, status, who is seated, clocks, result."),
        parameters=[OpenApiParameter("invite", str, description=_("Invite token of a private match"))],
        responses={200: MatchOut, **errors(403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match, you = selectors.match_get_for_viewer(
            match_id=match_id, user=request.user, invite_token=request.query_params.get("invite", "")
        )
        return Response(selectors.match_summary(match, you=you))


class MatchJoinApi(MatchApiView):
    """Take a free seat (private matches: with the invite token)."""

    permission_classes = [permissions.IsAuthenticated]

    class MatchJoinInputSerializer(serializers.Serializer[object]):
        deck_id = serializers.IntegerField(required=False, allow_null=True)
        invite_token = serializers.CharField(required=False, default="", allow_blank=True)
        house = serializers.CharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=20,
            help_text=_(
                "Westeros: the house you pick (free, of this player count, W-1.1); '' = the first free"
            ),
        )

    @extend_schema(
        description=_("Take a free seat (private matches: with the invite token)."),
        request=MatchJoinInputSerializer,
        responses={200: MatchOut, **errors(400, *SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        s = self.MatchJoinInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        match_join(match_id=match_id, user=signed_in(request.user), **s.validated_data)
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_summary(match, you=you))


class MatchLeaveApi(MatchApiView):
    """Leave before the start (the creator leaving cancels the match), or leave a running game of 3+ seats
    (Westeros: an AI plays your house on under your name, marked "(AI, left)"; you may still watch). In a
    running 2-player match leaving is conceding: 409, use concede."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        description=_(
            'Leave before the start (the creator leaving cancels the match), or leave a running game of 3+ seats (Westeros: an AI plays your house on under your name, marked "(AI, left)"; you may still watch). In a running 2-player match leaving is conceding: 409, use concede.'
        ),
        request=None,
        responses={204: None, **errors(*SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match_leave(match_id=match_id, user=signed_in(request.user))
        return Response(status=204)


class MatchHouseApi(MatchApiView):
    """Pick (or, in the "choose" seating, change) your house before the start (W-1.1)."""

    permission_classes = [permissions.IsAuthenticated]

    class HouseInputSerializer(serializers.Serializer[object]):
        house = serializers.CharField(max_length=20, help_text=_("A free house of this player count"))

    @extend_schema(
        description=_('Pick (or, in the "choose" seating, change) your house before the start (W-1.1).'),
        request=HouseInputSerializer,
        responses={200: MatchOut, **errors(400, *SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        s = self.HouseInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        match_pick_house(match_id=match_id, user=signed_in(request.user), house=s.validated_data["house"])
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_summary(match, you=you))


class MatchKickApi(MatchApiView):
    """The creator removes a player (or an AI) from the unstarted table; a removed player cannot rejoin it."""

    permission_classes = [permissions.IsAuthenticated]

    class KickInputSerializer(serializers.Serializer[object]):
        position = serializers.IntegerField(min_value=0, max_value=5, help_text=_("The seat to free"))

    @extend_schema(
        description=_(
            "The creator removes a player (or an AI) from the unstarted table; a removed player cannot rejoin it."
        ),
        request=KickInputSerializer,
        responses={200: MatchOut, **errors(400, *SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        s = self.KickInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        match_kick(match_id=match_id, user=signed_in(request.user), position=s.validated_data["position"])
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_summary(match, you=you))


class MatchFillAiApi(MatchApiView):
    """The creator fills every empty seat of the unstarted table with an AI of one level."""

    permission_classes = [permissions.IsAuthenticated]

    class FillInputSerializer(serializers.Serializer[object]):
        ai_agent = serializers.ChoiceField(
            choices=level_choices(), default=DEFAULT_AGENT, help_text=_("The AI level: easy, normal or hard")
        )

    @extend_schema(
        description=_("The creator fills every empty seat of the unstarted table with an AI of one level."),
        request=FillInputSerializer,
        responses={200: MatchOut, **errors(400, *SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        s = self.FillInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        match_fill_ai(match_id=match_id, user=signed_in(request.user), agent=s.validated_data["ai_agent"])
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_summary(match, you=you))


class MatchRematchApi(MatchApiView):
    """Offer (or accept) a rematch of a finished match: same settings, sides swapped (services.rematch).

    The first player's call records the offer (201 never); once every human player has asked, the new
    match is made, started and returned (201). Against AI only, the one call makes it. A call once it
    exists: 409 `rematch_exists` with its id in `extra.match_id`.
    """

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        description=_(
            "Offer (or accept) a rematch of a finished match: same settings, sides swapped. The first player's call records the offer (200); once every human player has asked, the new match is made, started and returned (201). Against AI only, the one call makes it. A call once it exists: 409 `rematch_exists` with its id in `extra.match_id`."
        ),
        request=None,
        responses={
            200: OpenApiResponse(
                api_types.RematchAnswerOut, description=_("Offer recorded; waiting for the others")
            ),
            201: OpenApiResponse(
                api_types.RematchAnswerOut, description=_("The rematch was made and started")
            ),
            **errors(*SIGNED_IN, 404),
            409: OpenApiResponse(
                ErrorOut, description=_("not_finished, or rematch_exists (extra.match_id: the rematch)")
            ),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        new, offer = match_rematch(match_id=match_id, user=signed_in(request.user))
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        body: dict[str, object] = {"rematch": selectors.match_summary(match, you=you)["rematch"]}
        if new is None:
            return Response({**body, "match": None})
        new_match, new_you = selectors.match_get_for_viewer(match_id=new.pk, user=request.user)
        return Response({**body, "match": selectors.match_summary(new_match, you=new_you)}, status=201)


class MatchStartApi(MatchApiView):
    """Start when every seat is taken; decks are validated again now."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        description=_("Start when every seat is taken; decks are validated again now."),
        request=None,
        responses={200: SnapshotOut, **errors(400, *SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match_start(match_id=match_id, user=signed_in(request.user))
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_snapshot(match=match, you=you))


def _version_param(request: Request, name: str) -> int | None:
    """A state-version query parameter (0 or more); absent or empty: None; anything else: a 400 naming it."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else -1
    if value < 0:
        raise ApplicationError(
            "invalid_parameter",
            gettext("%(name)s must be a version number (0 or more), not %(value)s.")
            % {"name": name, "value": repr(raw[:40])},
            extra={"parameter": name},
            status_code=400,
        )
    return value


def _log_since(request: Request) -> int | None:
    return _version_param(request, "log_since")


class MatchStateApi(MatchApiView):
    """The caller's own view of the game (spectators: the public view), legal actions and log tail."""

    @extend_schema(
        description=_(
            "The caller's own view of the game (spectators: the public view), legal actions and log tail."
        ),
        parameters=[
            OpenApiParameter(
                "log_since",
                VERSION_PARAM,
                description=_("Only the log entries after this version (the client appends them to its log)"),
            )
        ],
        responses={200: SnapshotOut, **errors(400, 403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        log_since = _log_since(request)
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(
            selectors.match_snapshot(match=match, you=you, log_since=log_since, user=request.user)
        )


class MatchLegalActionsApi(MatchApiView):
    """The caller's legal actions now, each with a plain-words description."""

    @extend_schema(
        description=_("The caller's legal actions now, each with a plain-words description."),
        responses={200: api_types.LegalActionsOut, **errors(403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        actions = selectors.legal_actions_for(match, you)  # first: it may bring `match` to a newer version
        return Response({"state_version": match.state_version, "actions": actions})


class MatchActionSubmitApi(MatchApiView):
    """Submit one action at a state version; an idempotency key makes retries safe."""

    permission_classes = [permissions.IsAuthenticated]

    class ActionSubmitInputSerializer(serializers.Serializer[object]):
        action = api_types.ObjectField(help_text=_("One of the legal actions' `action` objects (not null)"))
        state_version = serializers.IntegerField(min_value=0)
        idempotency_key = serializers.CharField(required=False, max_length=100, allow_blank=True)
        guard = serializers.BooleanField(
            required=False,
            default=False,
            help_text=_(
                "Refuse (409 `loses_at_once`, nothing applied) an action that would lose the match at "
                "once while another legal action would not, so the page can ask the player first"
            ),
        )

    @extend_schema(
        description=_("Submit one action at a state version; an idempotency key makes retries safe."),
        request=ActionSubmitInputSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
        responses={200: api_types.SubmitOut, **errors(400, *SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        s = self.ActionSubmitInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        key = s.validated_data.get("idempotency_key") or request.headers.get("Idempotency-Key") or None
        result = action_submit(
            match_id=match_id,
            user=signed_in(request.user),
            action_json=s.validated_data["action"],
            state_version=s.validated_data["state_version"],
            idempotency_key=key,
            guard=s.validated_data["guard"],
        )
        # The caller's own snapshot after the action (their client renders it without another request;
        # the WebSocket still tells every viewer). A replayed answer reads the match as it is now.
        you = next((x for x in result.seats or [] if x.user_id == request.user.pk), None)
        if result.match is not None and you is not None:
            snapshot = selectors.submit_snapshot(result, you=you)
        else:
            match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
            snapshot = selectors.match_snapshot(
                match=match, you=you, log_since=s.validated_data["state_version"]
            )
        return Response({**result.to_json(), "replayed": result.replayed, "state": snapshot})


class MatchConcedeApi(MatchApiView):
    """Concede (C-6.4): the opponent wins."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        description=_(
            "Concede (C-6.4): the opponent wins; with 3 or more players an AI takes your seat over."
        ),
        request=None,
        responses={200: MatchOut, **errors(*SIGNED_IN, 404, 409)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match_concede(match_id=match_id, user=signed_in(request.user))
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_summary(match, you=you))


class MatchSeatPreferencesApi(MatchApiView):
    """The caller's own seat preferences in this match (only the seated player may change them)."""

    permission_classes = [permissions.IsAuthenticated]

    class SeatPreferencesInputSerializer(serializers.Serializer[object]):
        auto_pass = serializers.BooleanField(
            help_text=_("Pass at once when the phase's Pass is your only legal action (default on)")
        )

    class SeatPreferencesOutSerializer(serializers.Serializer[object]):
        position = serializers.IntegerField(min_value=0)
        auto_pass = serializers.BooleanField()

    @extend_schema(
        description=_(
            "The caller's own seat preferences in this match (only the seated player may change them)."
        ),
        request=SeatPreferencesInputSerializer,
        responses={200: SeatPreferencesOutSerializer, **errors(400, *SIGNED_IN, 404)},
    )
    def patch(self, request: Request, match_id: int) -> Response:
        s = self.SeatPreferencesInputSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        seat = seat_preferences_update(
            match_id=match_id, user=signed_in(request.user), auto_pass=s.validated_data["auto_pass"]
        )
        return Response({"position": seat.position, "auto_pass": seat.auto_pass})


class MatchLogApi(MatchApiView):
    """The match log in plain words, as the caller may read it."""

    @extend_schema(
        description=_("The match log in plain words, as the caller may read it."),
        parameters=[
            OpenApiParameter("since", VERSION_PARAM, description=_("Only entries after this version"))
        ],
        responses={200: api_types.MatchLogOut, **errors(400, 403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        since = _version_param(request, "since") or 0
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response({"entries": selectors.match_log(match=match, you=you, since=since)})


class MatchReplayApi(MatchApiView):
    """A finished match frame by frame, rebuilt from its log (each frame as the caller may see it)."""

    @extend_schema(
        description=_(
            "A finished match frame by frame, rebuilt from its log (each frame as the caller may see it)."
        ),
        responses={200: api_types.ReplayOut, **errors(403, 404, 409)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match, you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(selectors.match_replay(match=match, you=you))


@extend_schema(exclude=True)
class MatchPathNotFoundApi(APIView):
    """Any other path under /api/matches/ (`-1/`, `null,null/`, `5/unknown/`): the API's JSON 404, not a page."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        raise ApplicationError(
            "not_found",
            gettext(
                "No such match resource: a match is /api/matches/<id>/ with a whole number id (see /api/docs/)."
            ),
            status_code=404,
        )
