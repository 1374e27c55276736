"""Card API: list/search, detail, factions and keywords for everyone; card writes for staff only.

Thin: parse with serializers, read through selectors, write through services (docs/style.md 9).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from cards import selectors, services
from cards.art import art_urls
from cards.data_translations import untranslated_fields
from cards.describe import describe_abilities, reader_words
from cards.filters import CardFilter
from cards.models import DIRECTIONS, Card, CardType, EventType, Faction, Keyword
from cards.search import MAX_DEPTH, MAX_QUERY_LENGTH
from cards.selectors import CARD_TEXT_FIELDS
from config.schema import ApiErrorSerializer


class IsStaffOrReadOnly(permissions.BasePermission):
    """Anyone may read; only staff may create, change or delete (curation is for staff)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


class CardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


UNTRANSLATED_HELP = _(
    "The fields shown in English because they have no translation in the reader's language yet "
    "(empty for an English reader)"
)


def _untranslated() -> serializers.SerializerMethodField:
    return serializers.SerializerMethodField(help_text=UNTRANSLATED_HELP)


class FactionSerializer(serializers.ModelSerializer):
    """A faction; name and description in the reader's language, English where not yet translated."""

    untranslated = _untranslated()

    class Meta:
        model = Faction
        fields = ["slug", "name", "description", "color", "untranslated"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_untranslated(self, faction: Faction) -> list[str]:
        return untranslated_fields(faction, ("name", "description"))


class KeywordSerializer(serializers.ModelSerializer):
    """A keyword; name and reminder text in the reader's language, English where not yet translated."""

    untranslated = _untranslated()

    class Meta:
        model = Keyword
        fields = ["code", "name", "reminder_text", "untranslated"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_untranslated(self, keyword: Keyword) -> list[str]:
        return untranslated_fields(keyword, ("name", "reminder_text"))


class CardArtSerializer(serializers.Serializer):
    """A card's picture: staff's art in the sizes the pages use, or its placeholder until there is art."""

    thumb = serializers.CharField(help_text=_("160×120 (the board, the hand, deck lists)"))
    card = serializers.CharField(help_text=_("480×360 (card tiles and the card page)"))
    full = serializers.CharField(
        allow_null=True, help_text=_("The uploaded picture; null while there is none")
    )
    placeholder = serializers.BooleanField(
        help_text=_("True while the card has no art: thumb and card are then an SVG in the faction's colours")
    )


class CardOutputSerializer(serializers.Serializer):
    """A card in the shared card format plus id, slug, faction name and abilities in plain words.

    Name and texts are in the reader's language; a field not yet translated is the English text and is
    listed in `untranslated`. `name_en` is the English name, the one deck lists and share codes use.
    """

    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    name_en = serializers.CharField(
        help_text=_("The English name (deck lists, share codes, the API's input)")
    )
    untranslated = _untranslated()
    faction = serializers.CharField(source="faction.slug")
    faction_name = serializers.CharField(source="faction.name")
    type = serializers.CharField(source="card_type")
    command_cost = serializers.IntegerField()
    energy_cost = serializers.IntegerField()
    power = serializers.IntegerField(allow_null=True)
    health = serializers.IntegerField(allow_null=True)
    arrows = serializers.ListField(child=serializers.CharField())
    legendary = serializers.BooleanField()
    unique = serializers.BooleanField()
    event_type = serializers.SerializerMethodField()
    keywords = serializers.SerializerMethodField()
    rules_text = serializers.CharField()
    abilities = serializers.JSONField()
    flavor_text = serializers.CharField()
    ability_descriptions = serializers.SerializerMethodField()
    art = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=EventType.choices, allow_null=True))
    def get_event_type(self, card: Card) -> str | None:
        return card.event_type or None

    def get_keywords(self, card: Card) -> list[str]:
        return sorted(k.code for k in card.keywords.all())

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_untranslated(self, card: Card) -> list[str]:
        return untranslated_fields(card, CARD_TEXT_FIELDS)

    def get_ability_descriptions(self, card: Card) -> list[str]:
        return describe_abilities(card.abilities, words=reader_words())

    @extend_schema_field(CardArtSerializer)
    def get_art(self, card: Card) -> dict[str, Any]:
        urls = art_urls(card)
        request = self.context.get("request")
        if request is None:
            return urls
        absolute = {k: request.build_absolute_uri(v) for k, v in urls.items() if isinstance(v, str)}
        return {**urls, **absolute}


class CardInputSerializer(serializers.Serializer):
    """A card in the shared card format (docs/card-format.md); consistency is checked by the service."""

    name = serializers.CharField(max_length=80)
    faction = serializers.CharField(help_text=_("Faction slug"))
    type = serializers.ChoiceField(choices=CardType.choices)
    command_cost = serializers.IntegerField(min_value=0, max_value=services.MAX_COST)
    energy_cost = serializers.IntegerField(min_value=0, max_value=services.MAX_COST, required=False)
    power = serializers.IntegerField(
        min_value=0, max_value=services.MAX_STAT, allow_null=True, required=False
    )
    health = serializers.IntegerField(
        min_value=0, max_value=services.MAX_STAT, allow_null=True, required=False
    )
    arrows = serializers.ListField(child=serializers.ChoiceField(choices=DIRECTIONS), required=False)
    legendary = serializers.BooleanField(required=False)
    unique = serializers.BooleanField(required=False)
    event_type = serializers.ChoiceField(choices=EventType.choices, allow_null=True, required=False)
    keywords = serializers.ListField(
        child=serializers.CharField(), required=False, help_text=_("Keyword codes")
    )
    rules_text = serializers.CharField(allow_blank=True, required=False)
    abilities = serializers.JSONField(required=False, help_text=_("Abilities (docs/card-abilities.md)"))
    flavor_text = serializers.CharField(allow_blank=True, required=False)


Q_PARAMETER = OpenApiParameter(
    "q",
    {"type": "string", "maxLength": MAX_QUERY_LENGTH},
    description=format_lazy(
        _(
            "Search query language (docs/card-format.md). Free words match name or rules text; "
            'quoted "phrases"; keys f: t: cp e pow hp (with = : < <= > >= !=) kw: is: a: name: o:; '
            "'-' negates, 'or' and parentheses combine. Example: `f:ember (kw:spoil or pow>=4000) -is:legendary`. "
            "At most {length} characters and {depth} levels of brackets and negations. "
            "A malformed query answers 400 with code invalid_query and the position."
        ),
        length=MAX_QUERY_LENGTH,
        depth=MAX_DEPTH,
    ),
)


CARDS_DESCRIPTION = _(
    "Cards: read for everyone, write for staff with the same consistency rules as the admin (C-1)."
)


@extend_schema_view(
    list=extend_schema(
        description=CARDS_DESCRIPTION,
        summary=_("List and search cards"),
        parameters=[Q_PARAMETER],
        responses={200: CardOutputSerializer(many=True), 400: ApiErrorSerializer},
    ),
    retrieve=extend_schema(
        description=CARDS_DESCRIPTION, summary=_("One card, with its abilities in plain words")
    ),
    create=extend_schema(
        description=CARDS_DESCRIPTION,
        summary=_("Create a card (staff)"),
        request=CardInputSerializer,
        responses={201: CardOutputSerializer, 400: ApiErrorSerializer, 403: ApiErrorSerializer},
    ),
    update=extend_schema(
        description=CARDS_DESCRIPTION,
        summary=_("Replace a card (staff)"),
        request=CardInputSerializer,
        responses={200: CardOutputSerializer, 400: ApiErrorSerializer, 403: ApiErrorSerializer},
    ),
    partial_update=extend_schema(
        description=CARDS_DESCRIPTION,
        summary=_("Change some fields of a card (staff)"),
        request=CardInputSerializer,
        responses={200: CardOutputSerializer, 400: ApiErrorSerializer, 403: ApiErrorSerializer},
    ),
    destroy=extend_schema(
        description=CARDS_DESCRIPTION,
        summary=_("Delete a card (staff; 409 while it is in use)"),
        responses={204: None, 403: ApiErrorSerializer, 409: ApiErrorSerializer},
    ),
)
class CardViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Cards: read for everyone, write for staff with the same consistency rules as the admin (C-1)."""

    serializer_class = CardOutputSerializer
    permission_classes = [IsStaffOrReadOnly]
    pagination_class = CardPagination
    filterset_class = CardFilter
    lookup_field = "slug"
    lookup_value_regex = "[^/]+"

    def get_queryset(self) -> Any:
        return selectors.card_queryset()

    def _refetched(self, card: Card) -> Card:
        found = selectors.card_get(card.slug)
        if found is None:  # pragma: no cover - just written in this request
            raise Http404
        return found

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = CardInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        card = services.card_create(data=serializer.validated_data)
        return Response(CardOutputSerializer(self._refetched(card)).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        partial = kwargs.pop("partial", False)
        card = self.get_object()
        serializer = CardInputSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        card = services.card_update(card=card, data=serializer.validated_data, partial=partial)
        return Response(CardOutputSerializer(self._refetched(card)).data)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.update(request, *args, partial=True, **kwargs)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        services.card_delete(card=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


FACTIONS_DESCRIPTION = _("Factions (not paginated: there are few).")
KEYWORDS_DESCRIPTION = _("Keywords (C-7) with reminder text (not paginated: there are few).")


@extend_schema_view(
    list=extend_schema(summary=_("All factions"), description=FACTIONS_DESCRIPTION),
    retrieve=extend_schema(summary=_("One faction"), description=FACTIONS_DESCRIPTION),
)
class FactionViewSet(viewsets.ReadOnlyModelViewSet):
    """Factions (not paginated: there are few)."""

    serializer_class = FactionSerializer
    queryset = Faction.objects.all()
    pagination_class = None
    lookup_field = "slug"
    filter_backends: list[Any] = []


@extend_schema_view(
    list=extend_schema(summary=_("All keywords"), description=KEYWORDS_DESCRIPTION),
    retrieve=extend_schema(summary=_("One keyword"), description=KEYWORDS_DESCRIPTION),
)
class KeywordViewSet(viewsets.ReadOnlyModelViewSet):
    """Keywords (C-7) with reminder text (not paginated: there are few)."""

    serializer_class = KeywordSerializer
    queryset = Keyword.objects.all()
    pagination_class = None
    lookup_field = "code"
    filter_backends: list[Any] = []
