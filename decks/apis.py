"""Deck builder API: thin views that parse input, call selectors/services and shape output.

Every deck response carries the live `legality` from `decks.validation.validate_deck` (C-3).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import ApplicationError
from config.schema import ApiErrorSerializer
from decks import selectors, services
from decks.formats import (
    DeckFormatError,
    encode_share_code,
    export_json,
    export_text,
    parse_any,
    resolve,
)
from decks.models import Deck, DeckRevision, Visibility
from decks.serializers import (
    ERRORS,
    MAX_MULLIGANS,
    MAX_SEARCH,
    MAX_SEED,
    WRITE_ERRORS,
    DeckDetailSerializer,
    DeckInputSerializer,
    DeckPageSerializer,
    DeckStatsSerializer,
    DeckSummarySerializer,
    ImportInputSerializer,
    ImportOutputSerializer,
    LegalitySerializer,
    RevisionSerializer,
    ValidateInputSerializer,
)
from decks.stats import (
    HAND_SIZE,
    MAX_REINFORCES,
    MAX_TURN,
    deck_stats,
    draw_odds,
    sample_hand,
)
from decks.validation import validate_deck

# --- shaping ----------------------------------------------------------------------------------------


def _card_row(card: Any, count: int) -> dict[str, Any]:
    return {
        "card": card.slug,
        "name": card.name,
        "count": count,
        "faction": card.faction.slug,
        "card_type": card.card_type,
        "command_cost": card.command_cost,
        "energy_cost": card.energy_cost,
        "legendary": card.legendary,
        "unique": card.unique,
    }


def _ref(obj: Any) -> dict[str, str] | None:
    return {"slug": obj.slug, "name": obj.name} if obj is not None else None


def _annotated(deck: Deck, name: str, compute: Any) -> Any:
    """A value the list selectors annotate (no query per row), computed for a single deck."""
    return getattr(deck, name) if hasattr(deck, name) else compute(deck)


def _origin(deck: Deck) -> dict[str, Any] | None:
    source = deck.copied_from if deck.copied_from_id else None
    if source is None or source.visibility != Visibility.PUBLIC:
        return None
    return {"id": source.pk, "name": source.name, "owner": source.owner.get_username()}


def deck_output(deck: Deck, user: AbstractBaseUser | AnonymousUser, *, detail: bool = True) -> dict[str, Any]:
    entries = selectors.deck_entries(deck)
    is_owner = deck.owner_id == user.pk
    data: dict[str, Any] = {
        "id": deck.pk,
        "name": deck.name,
        "owner": deck.owner.get_username(),
        "is_owner": is_owner,
        "faction": _ref(deck.faction),
        "commander": _ref(deck.commander),
        "visibility": deck.visibility,
        "share_id": deck.share_id if is_owner else None,
        "card_count": sum(c for _, c in entries),
        "created_at": deck.created_at,
        "updated_at": deck.updated_at,
        "legality": validate_deck(entries, commander=deck.commander, faction=deck.faction).to_dict(),
        "like_count": _annotated(deck, "like_count", selectors.deck_like_count),
        "liked": _annotated(deck, "liked", lambda d: selectors.deck_liked_by(d, user)),
        "copied_from": _origin(deck),
    }
    if detail:
        data["notes"] = deck.notes
        data["cards"] = [_card_row(card, count) for card, count in entries]
    return data


def _write_kwargs(data: dict[str, Any]) -> dict[str, Any]:
    kwargs = {k: data[k] for k in ("name", "faction", "commander", "notes", "visibility") if k in data}
    for key in ("faction", "commander"):
        if key in kwargs and not kwargs[key]:
            kwargs[key] = None
    if "cards" in data:
        kwargs["cards"] = [(c["card"], c["count"]) for c in data["cards"]]
    return kwargs


class IgnoreFormatNegotiation(BaseContentNegotiation):
    """JSON always: `?format=` on export names the deck format, not a DRF renderer."""

    def select_parser(self, request: Request, parsers: list[Any]) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(
        self, request: Request, renderers: list[Any], format_suffix: str | None = None
    ) -> Any:
        return renderers[0], renderers[0].media_type


READ_ACCESS = _("Read access by id (owner or public) or by share id (unlisted or public).")


class DeckLookupMixin:
    """Read access by id (owner or public) or by share id (unlisted or public)."""

    def get_deck(self, request: Request, **kwargs: Any) -> Deck:
        if "share_id" in kwargs:
            return selectors.deck_get_shared(share_id=kwargs["share_id"])
        return selectors.deck_get_readable(user=request.user, deck_id=kwargs["pk"])


# --- views ------------------------------------------------------------------------------------------


class DeckListCreateApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "public", OpenApiTypes.BOOL, description=_("1: everyone's public decks instead of yours")
            ),
            OpenApiParameter(
                "search",
                {"type": "string", "maxLength": MAX_SEARCH},
                description=format_lazy(
                    _("With public=1: deck name contains (at most {max} characters)"), max=MAX_SEARCH
                ),
            ),
            OpenApiParameter("page", OpenApiTypes.INT),
        ],
        operation_id="decks_list",
        responses={200: DeckPageSerializer, 401: ApiErrorSerializer},
        summary=_("List your decks, or public decks with ?public=1 (paginated, 50 a page)"),
    )
    def get(self, request: Request) -> Response:
        if request.query_params.get("public") in {"1", "true", "yes"}:
            search = request.query_params.get("search", "")
            if len(search) > MAX_SEARCH:
                raise ApplicationError(
                    "invalid_parameter",
                    gettext("'search' is longer than %(max)s characters.") % {"max": MAX_SEARCH},
                    extra={"parameter": "search"},
                )
            qs = selectors.deck_list_public(search=search, viewer=request.user)
        elif request.user.is_authenticated:
            qs = selectors.deck_list_own(user=request.user)
        else:
            raise ApplicationError(
                "not_authenticated",
                gettext("Log in to list your decks (or use ?public=1)."),
                status_code=status.HTTP_401_UNAUTHORIZED,
            )
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        data = [deck_output(d, request.user, detail=False) for d in page or []]
        return paginator.get_paginated_response(DeckSummarySerializer(data, many=True).data)

    @extend_schema(
        request=DeckInputSerializer,
        responses={201: DeckDetailSerializer, **WRITE_ERRORS},
        summary=_("Create a deck"),
    )
    def post(self, request: Request) -> Response:
        body = DeckInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck = services.deck_create(owner=request.user, **_write_kwargs(body.validated_data))
        return Response(
            DeckDetailSerializer(deck_output(deck, request.user)).data, status=status.HTTP_201_CREATED
        )


class DeckDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: DeckDetailSerializer, **ERRORS}, summary=_("A deck (yours or a public one)")
    )
    def get(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get_readable(user=request.user, deck_id=pk)
        return Response(DeckDetailSerializer(deck_output(deck, request.user)).data)

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        deck = selectors.deck_get_writable(user=request.user, deck_id=pk)
        body = DeckInputSerializer(data=request.data, partial=partial)
        body.is_valid(raise_exception=True)
        kwargs = _write_kwargs(body.validated_data)
        if not partial:  # PUT replaces the whole deck
            kwargs = {"faction": None, "commander": None, "notes": "", "cards": [], **kwargs}
        deck = services.deck_update(deck=deck, **kwargs)
        return Response(DeckDetailSerializer(deck_output(deck, request.user)).data)

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: DeckDetailSerializer, **WRITE_ERRORS},
        summary=_("Replace a deck"),
    )
    def put(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=False)

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: DeckDetailSerializer, **WRITE_ERRORS},
        summary=_("Change some fields"),
    )
    def patch(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=True)

    @extend_schema(responses={204: None, **WRITE_ERRORS}, summary=_("Delete a deck"))
    def delete(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get_writable(user=request.user, deck_id=pk)
        services.deck_delete(deck=deck)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckSharedApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: DeckDetailSerializer, **ERRORS},
        summary=_("A deck by its share id (unlisted or public)"),
    )
    def get(self, request: Request, share_id: str) -> Response:
        deck = selectors.deck_get_shared(share_id=share_id)
        return Response(DeckDetailSerializer(deck_output(deck, request.user)).data)


class DeckValidateApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=ValidateInputSerializer,
        responses={200: LegalitySerializer, 400: ApiErrorSerializer},
        summary=_("Validate a card list without saving it (C-3)"),
    )
    def post(self, request: Request) -> Response:
        body = ValidateInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        entries = services.resolve_card_slugs([(c["card"], c["count"]) for c in data["cards"]])
        commander = (
            services.resolve_card_slugs([(data["commander"], 1)])[0][0] if data.get("commander") else None
        )
        slug = data.get("faction") or None
        faction = selectors.faction_by_slug(slug) if slug else None
        if slug and faction is None:
            raise ApplicationError(
                "unknown_faction",
                gettext("Unknown faction: %(faction)s.") % {"faction": slug},
                extra={"faction": slug},
            )
        # the Faction row, not its slug: messages name "Cinder Legion", never "cinder-legion" (C-3.4)
        result = validate_deck(entries, commander=commander, faction=faction)
        return Response(LegalitySerializer(result.to_dict()).data)


class DeckImportApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=ImportInputSerializer,
        responses={200: ImportOutputSerializer, 201: ImportOutputSerializer, **WRITE_ERRORS},
        summary=_("Read a decklist (text, JSON or share code); optionally save it"),
    )
    def post(self, request: Request) -> Response:
        body = ImportInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            parsed = parse_any(data["data"], data["format"])
        except DeckFormatError as exc:
            raise ApplicationError(exc.code, exc.message) from exc
        resolved = resolve(parsed, selectors.DbCatalog())
        services.refuse_unreadable_import(resolved)
        deck = None
        if data["save"]:
            if not request.user.is_authenticated:
                raise ApplicationError(
                    "not_authenticated",
                    gettext("Log in to save a deck."),
                    status_code=status.HTTP_401_UNAUTHORIZED,
                )
            deck = services.deck_create_from_import(
                owner=request.user,
                resolved=resolved,
                name=data.get("name", ""),
                visibility=data["visibility"],
            )
        # the legality of what was read: the unknown lines are listed in `errors` beside it
        legality = validate_deck(
            resolved.entries, commander=resolved.commander, faction=resolved.faction
        ).to_dict()
        out = {
            "entries": [_card_row(card, count) for card, count in resolved.entries],
            "commander": _ref(resolved.commander),
            "faction": resolved.faction,
            "name": resolved.name,
            "errors": [e.to_dict() for e in resolved.errors],
            "legality": legality,
            "deck": deck_output(deck, request.user) if deck is not None else None,
        }
        code = status.HTTP_201_CREATED if deck is not None else status.HTTP_200_OK
        return Response(ImportOutputSerializer(out).data, status=code)


class DeckExportApi(DeckLookupMixin, APIView):
    permission_classes = [AllowAny]
    content_negotiation_class = IgnoreFormatNegotiation

    @extend_schema(
        description=READ_ACCESS,
        parameters=[
            OpenApiParameter("format", OpenApiTypes.STR, enum=["text", "json", "code"], default="text")
        ],
        responses={
            200: inline_serializer(
                "DeckExport",
                {
                    "format": serializers.CharField(),
                    "content": serializers.JSONField(
                        help_text=_("text: a string; json: the deck document; code: a string")
                    ),
                },
            ),
            **ERRORS,
        },
        summary=_("Export a deck as text, JSON or share code"),
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        deck = self.get_deck(request, **kwargs)
        kind = request.query_params.get("format", "text")
        entries = selectors.deck_entries(deck)
        faction = deck.faction.slug if deck.faction else None
        content: Any
        if kind == "text":
            content = export_text(
                entries,
                commander=deck.commander,
                name=deck.name,
                faction=deck.faction.name if deck.faction else "",
            )
        elif kind == "json":
            content = export_json(
                entries, commander=deck.commander, name=deck.name, faction=faction, notes=deck.notes
            )
        elif kind == "code":
            content = encode_share_code(entries, commander=deck.commander, faction=faction)
        else:
            raise ApplicationError(
                "invalid_format",
                gettext("Unknown export format '%(format)s': use text, json or code.") % {"format": kind},
                extra={"format": kind},
            )
        return Response({"format": kind, "content": content})


class DeckStatsApi(DeckLookupMixin, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description=READ_ACCESS,
        responses={200: DeckStatsSerializer, **ERRORS},
        summary=_("Cost curves, type split, keywords, averages, hand odds"),
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        deck = self.get_deck(request, **kwargs)
        return Response(
            DeckStatsSerializer(deck_stats(selectors.deck_entries(deck), commander=deck.commander)).data
        )


class DeckSampleHandApi(DeckLookupMixin, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description=READ_ACCESS,
        parameters=[
            OpenApiParameter(
                "seed",
                {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                description=format_lazy(
                    _("Same seed, same hand (0 to {max}); omitted: a random one"), max=MAX_SEED
                ),
            ),
            OpenApiParameter(
                "mulligans",
                {"type": "integer", "minimum": 0, "maximum": MAX_MULLIGANS},
                description=format_lazy(
                    _("Mulligans taken (0 to {max}, C-4.4): the k-th puts k cards on the bottom"),
                    max=MAX_MULLIGANS,
                ),
            ),
        ],
        responses={
            200: inline_serializer(
                "SampleHand",
                {
                    "seed": serializers.IntegerField(),
                    "mulligans": serializers.IntegerField(),
                    "hand": inline_serializer(
                        "HandCard",
                        {"card": serializers.CharField(), "name": serializers.CharField()},
                        many=True,
                        help_text=_("The cards drawn (6, C-4.3)"),
                    ),
                    "bottom": serializers.IntegerField(
                        help_text=_(
                            "How many of them go to the bottom of the deck (C-4.4: the k-th mulligan, k)"
                        )
                    ),
                    "upcoming": inline_serializer(
                        "UpcomingCard",
                        {"card": serializers.CharField(), "name": serializers.CharField()},
                        many=True,
                        help_text=_("The next cards on top of the deck, for Reinforce draws (C-5.2)"),
                    ),
                },
            ),
            **ERRORS,
        },
        summary=format_lazy(
            _("A seeded sample opening hand of {size}, with mulligans as in C-4.4"), size=HAND_SIZE
        ),
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        deck = self.get_deck(request, **kwargs)
        seed = _int_param(request, "seed", secrets.randbelow(2**31), 0, MAX_SEED)
        mulligans = _int_param(request, "mulligans", 0, 0, MAX_MULLIGANS)
        dealt = sample_hand(
            selectors.deck_entries(deck), seed=seed, mulligans=mulligans, commander=deck.commander
        )
        return Response(
            {
                "seed": seed,
                "mulligans": mulligans,
                "hand": [{"card": c.slug, "name": c.name} for c in dealt.drawn],
                "bottom": dealt.bottom,
                "upcoming": [{"card": c.slug, "name": c.name} for c in dealt.upcoming],
            }
        )


_ODDS_ROW = {
    "probabilities": serializers.ListField(
        child=serializers.FloatField(), help_text=_("Opening hand, then by your turn 1, 2, … (0 to 1)")
    )
}


class DeckDrawOddsApi(DeckLookupMixin, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description=READ_ACCESS,
        parameters=[
            OpenApiParameter(
                "turns",
                {"type": "integer", "minimum": 1, "maximum": MAX_TURN},
                description=format_lazy(_("Columns up to your turn T (1 to {max}; default 5)"), max=MAX_TURN),
            ),
            OpenApiParameter(
                "reinforces",
                {"type": "integer", "minimum": 0, "maximum": MAX_REINFORCES},
                description=_("Reinforces (1 CP: draw 2, C-5.2) you make each turn (0 to 3; default 1)"),
            ),
            OpenApiParameter(
                "mulligans",
                {"type": "integer", "minimum": 0, "maximum": MAX_MULLIGANS},
                description=_(
                    "Mulligan up to this many times while the hand lacks the card (C-4.4; default 0)"
                ),
            ),
            OpenApiParameter(
                "first",
                {"type": "integer", "minimum": 0, "maximum": 1},
                description=_("1: you go first (2 CP in your first turn, C-4.6); 0: second (default 1)"),
            ),
        ],
        responses={
            200: inline_serializer(
                "DrawOdds",
                {
                    "draw_pile": serializers.IntegerField(
                        help_text=_("Cards in the deck once the Commander is out")
                    ),
                    "opening_hand": serializers.IntegerField(),
                    "reinforce_draw": serializers.IntegerField(),
                    "reinforces": serializers.IntegerField(),
                    "mulligans": serializers.IntegerField(),
                    "first": serializers.BooleanField(),
                    "cards_seen": serializers.ListField(
                        child=serializers.IntegerField(),
                        help_text=_("Cards seen: opening, then by turn 1, 2, …"),
                    ),
                    "cards": inline_serializer(
                        "CardOdds",
                        {
                            "card": serializers.CharField(),
                            "name": serializers.CharField(),
                            "count": serializers.IntegerField(),
                            "commander": serializers.BooleanField(
                                help_text=_("In the Commander zone: always at hand")
                            ),
                            **_ODDS_ROW,
                        },
                        many=True,
                    ),
                    "units_by_cost": inline_serializer(
                        "UnitCostOdds",
                        {
                            "max_cost": serializers.IntegerField(
                                help_text=_("A unit of Command cost <= this")
                            ),
                            "copies": serializers.IntegerField(),
                            **_ODDS_ROW,
                        },
                        many=True,
                    ),
                },
            ),
            **ERRORS,
        },
        summary=_("Exact draw odds: each card, and a unit of cost <= N, by turn T (C-4.3, C-4.4, C-5.2)"),
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        deck = self.get_deck(request, **kwargs)
        odds = draw_odds(
            selectors.deck_entries(deck),
            commander=deck.commander,
            turns=_int_param(request, "turns", 5, 1, MAX_TURN),
            reinforces=_int_param(request, "reinforces", 1, 0, MAX_REINFORCES),
            mulligans=_int_param(request, "mulligans", 0, 0, MAX_MULLIGANS),
            first=_int_param(request, "first", 1, 0, 1) == 1,
        )
        return Response(odds)


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter within [low, high] (omitted: `default`), else a 400 naming it."""
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw) if len(raw) <= 40 else low - 1  # int() of thousands of digits is slow, then raises
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ApplicationError(
            "invalid_parameter",
            gettext("'%(name)s' must be a whole number from %(low)s to %(high)s.")
            % {"name": name, "low": low, "high": high},
            extra={name: raw},
        )
    return value


class DeckRevisionListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: RevisionSerializer(many=True), **WRITE_ERRORS},
        summary=_("Every saved revision of your deck"),
    )
    def get(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get_writable(user=request.user, deck_id=pk)
        revisions: list[DeckRevision] = list(selectors.deck_revisions(deck=deck))
        return Response(RevisionSerializer(revisions, many=True).data)


class DeckRevisionDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: RevisionSerializer, **WRITE_ERRORS}, summary=_("One revision of your deck")
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        deck = selectors.deck_get_writable(user=request.user, deck_id=pk)
        return Response(RevisionSerializer(selectors.deck_revision_get(deck=deck, number=number)).data)


class DeckRevisionRestoreApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: DeckDetailSerializer, **WRITE_ERRORS},
        summary=_("Restore a revision (saved as a new one)"),
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        deck = selectors.deck_get_writable(user=request.user, deck_id=pk)
        deck = services.deck_restore(deck=deck, number=number)
        return Response(DeckDetailSerializer(deck_output(deck, request.user)).data)
