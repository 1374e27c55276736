"""The interactive tutorials: the page (/learn/<game>/) and its API (/api/tutorials/<game>/), thin over
frontend/tutorial.py. Anyone may use them, signed in or not; every write checks the CSRF token, also for
a visitor who is not signed in (DRF checks it only for signed-in sessions)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from frontend import tutorial


@ensure_csrf_cookie
def tutorial_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in tutorial.LESSONS:
        raise Http404(game)
    lesson = tutorial.LESSONS[game]
    context: dict[str, Any] = {"lesson": lesson, "game": game}
    if game == "westeros":  # the Westeros table's map and the house cards' faces, in the reader's language
        from boardgame import dataset as board_dataset
        from boardgame import selectors as board_selectors
        from frontend.westeros_views import _card_texts, _house_cards

        context["map_data"] = board_selectors.westeros_map()
        export = board_dataset.game_data_export()
        data = board_selectors.localise_game_data(
            {key: export[key] for key in ("house_cards", "westeros_cards", "wildling_cards")}
        )
        context["house_cards"] = _house_cards(data)
        context["card_texts"] = _card_texts(data)
    return render(request, f"frontend/tutorial/{game}.html", context)


class StepSerializer(serializers.Serializer):
    step = serializers.IntegerField(min_value=0, max_value=1000, help_text=_("The step this move answers"))
    action = serializers.JSONField(
        allow_null=True, required=False, help_text=_("The step's action (its `expect`), or null to read on")
    )


def _check_csrf(request: Request) -> None:
    """The session's CSRF check for every caller: a visitor's progress lives in their session too."""
    SessionAuthentication().enforce_csrf(request)


TUTORIAL_DESCRIPTION = _("A tutorial at the caller's step: GET to show it, POST to make the step's move.")


class TutorialApi(APIView):
    """A tutorial at the caller's step: GET to show it, POST to make the step's move."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(
        description=TUTORIAL_DESCRIPTION, summary=_("A tutorial at my step"), responses={200: dict}
    )
    def get(self, request: Request, game: str) -> Response:
        lesson = tutorial.lesson_get(game)
        return Response(tutorial.payload(lesson, tutorial.progress_get(request, game)))

    @extend_schema(
        description=TUTORIAL_DESCRIPTION,
        request=StepSerializer,
        responses={200: dict},
        summary=_("Make this step's move"),
    )
    def post(self, request: Request, game: str) -> Response:
        _check_csrf(request)
        body = StepSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data: dict[str, Any] = dict(body.validated_data)
        return Response(tutorial.advance(request, game=game, step=data["step"], action=data.get("action")))


class TutorialRestartApi(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(request=None, responses={200: dict}, summary=_("Start a tutorial again"))
    def post(self, request: Request, game: str) -> Response:
        _check_csrf(request)
        return Response(tutorial.restart(request, game=game))
