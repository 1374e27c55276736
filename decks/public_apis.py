"""Public decks: browse, like and copy (the API under /api/decks/public/ and /api/decks/<id>/like|copy/)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from config.errors import ApplicationError
from decks import selectors, services
from decks.apis import READ_ACCESS, DeckLookupMixin, deck_output
from decks.serializers import (
    ERRORS,
    MAX_SEARCH,
    WRITE_ERRORS,
    DeckDetailSerializer,
    DeckPageSerializer,
    DeckSummarySerializer,
)

# --- public decks: browse, like, copy ------------------------------------------------------------------

PUBLIC_PAGE_SIZE = 24
MAX_PUBLIC_PAGE_SIZE = 60
SOCIAL_RATE = "120/min"


class DeckSocialThrottle(UserRateThrottle):
    """Likes and copies per user: `settings.DECKS_SOCIAL_RATE` (default 120/min; None switches it off)."""

    scope = "deck_social"

    def get_rate(self) -> str | None:
        return getattr(settings, "DECKS_SOCIAL_RATE", SOCIAL_RATE)


class PublicDeckPagination(PageNumberPagination):
    page_size = PUBLIC_PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PUBLIC_PAGE_SIZE


class PublicDeckFilterSerializer(serializers.Serializer):
    q = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=MAX_SEARCH,
        help_text=_("Words in the deck or card names"),
    )
    card = serializers.SlugField(
        required=False, allow_blank=True, max_length=80, help_text=_("Has this card")
    )
    faction = serializers.SlugField(
        required=False, allow_blank=True, max_length=60, help_text=_("Faction slug")
    )
    owner = serializers.CharField(
        required=False, allow_blank=True, max_length=150, help_text=_("Only this player's decks (username)")
    )
    sort = serializers.ChoiceField(choices=list(selectors.PUBLIC_SORTS), default="newest", required=False)


class LikeOutputSerializer(serializers.Serializer):
    liked = serializers.BooleanField()
    like_count = serializers.IntegerField()


class CopyInputSerializer(serializers.Serializer):
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text=_("Name of the copy; default '<name> (copy)'"),
    )


class PublicDeckListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            PublicDeckFilterSerializer,
            OpenApiParameter(
                "page", {"type": "integer", "minimum": 1}, description=_("Past the last page: 404")
            ),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1, "maximum": MAX_PUBLIC_PAGE_SIZE},
                description=format_lazy(
                    _("Decks a page (default {default}, at most {max})"),
                    default=PUBLIC_PAGE_SIZE,
                    max=MAX_PUBLIC_PAGE_SIZE,
                ),
            ),
        ],
        operation_id="decks_public_list",
        responses={200: DeckPageSerializer, **ERRORS},
        summary=_("Browse public decks: search, filter by card or faction, sort (no sign-in needed)"),
    )
    def get(self, request: Request) -> Response:
        f = PublicDeckFilterSerializer(data=request.query_params.dict())
        f.is_valid(raise_exception=True)
        params = f.validated_data
        faction = params.get("faction") or ""
        if faction and selectors.faction_by_slug(faction) is None:
            raise ApplicationError(
                "unknown_faction",
                gettext("Unknown faction: %(faction)s.") % {"faction": faction},
                extra={"faction": faction},
            )
        qs = selectors.public_decks(
            owner=params.get("owner") or None,
            search=params.get("q", ""),
            card=params.get("card", ""),
            faction=faction,
            sort=params.get("sort", "newest"),
            viewer=request.user,
        )
        paginator = PublicDeckPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        data = [deck_output(d, request.user, detail=False) for d in page or []]
        return paginator.get_paginated_response(DeckSummarySerializer(data, many=True).data)


class DeckLikeApi(APIView):
    permission_classes = [IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        return [DeckSocialThrottle()]

    def _answer(self, request: Request, pk: int, *, liked: bool) -> Response:
        deck = selectors.deck_get_readable(user=request.user, deck_id=pk)
        services.deck_like_set(user=request.user, deck=deck, liked=liked)
        return Response(
            LikeOutputSerializer({"liked": liked, "like_count": selectors.deck_like_count(deck)}).data
        )

    @extend_schema(
        request=None,
        responses={200: LikeOutputSerializer, **WRITE_ERRORS},
        summary=_("Like a public deck (once; liking again changes nothing; not your own)"),
    )
    def post(self, request: Request, pk: int) -> Response:
        return self._answer(request, pk, liked=True)

    @extend_schema(responses={200: LikeOutputSerializer, **WRITE_ERRORS}, summary=_("Take your like back"))
    def delete(self, request: Request, pk: int) -> Response:
        return self._answer(request, pk, liked=False)


class DeckCopyApi(DeckLookupMixin, APIView):
    permission_classes = [IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        return [DeckSocialThrottle()]

    @extend_schema(
        description=READ_ACCESS,
        request=CopyInputSerializer,
        responses={201: DeckDetailSerializer, **WRITE_ERRORS},
        summary=_("Copy a public deck (or your own, or an unlisted one by share id) into your private decks"),
    )
    def post(self, request: Request, **kwargs: Any) -> Response:
        source = self.get_deck(request, **kwargs)
        body = CopyInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck = services.deck_copy(owner=request.user, source=source, name=body.validated_data.get("name", ""))
        return Response(
            DeckDetailSerializer(deck_output(deck, request.user)).data, status=status.HTTP_201_CREATED
        )
