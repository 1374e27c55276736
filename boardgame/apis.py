"""Read-only Westeros data API (/api/westeros/): map, houses, house cards, set-ups. Writes go through the admin."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from boardgame import selectors
from boardgame.data_format import HOUSE_CARD_TRANSLATED, HOUSE_TRANSLATED
from cards.data_translations import untranslated_fields
from config.errors import ApplicationError
from config.schema import ApiErrorSerializer

UNTRANSLATED_HELP = _(
    "Fields shown in English: no translation in the reader's language yet (empty in English)."
)


class AreaOutputSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField(help_text=_("In the reader's language; English where not yet translated."))
    name_en = serializers.CharField(help_text=_("The English name."))
    untranslated = serializers.ListField(child=serializers.CharField(), help_text=UNTRANSLATED_HELP)
    kind = serializers.ChoiceField(choices=["land", "sea", "port"])
    castle = serializers.ChoiceField(choices=["none", "castle", "stronghold"])
    supply = serializers.IntegerField()
    crowns = serializers.IntegerField()
    home_house = serializers.CharField(allow_null=True)
    island = serializers.BooleanField()
    port = serializers.CharField(
        allow_null=True, required=False, help_text=_("Land areas: id of their port.")
    )
    land_area = serializers.CharField(required=False, help_text=_("Ports: their land area."))
    sea_area = serializers.CharField(required=False, help_text=_("Ports: the sea they open onto."))
    max_ships = serializers.IntegerField(required=False)
    neighbours = serializers.ListField(child=serializers.CharField())
    x = serializers.FloatField(allow_null=True, help_text=_("Label position on the schematic map."))
    y = serializers.FloatField(allow_null=True)
    outline = serializers.ListField(child=serializers.ListField(child=serializers.FloatField()))


class PortOutputSerializer(serializers.Serializer):
    id = serializers.CharField()
    land_area = serializers.CharField()
    sea_area = serializers.CharField()
    max_ships = serializers.IntegerField()


class MapOutputSerializer(serializers.Serializer):
    viewbox = serializers.ListField(child=serializers.FloatField())
    counts = serializers.DictField(child=serializers.IntegerField())
    areas = AreaOutputSerializer(many=True)
    adjacency = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_("Undirected edges, each once."),
    )
    ports = PortOutputSerializer(many=True)


class WesterosMapApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="westeros_map",
        summary=_(
            "The Westeros map: areas with icons and drawing, undirected adjacency, ports (W-1.2, W-10)"
        ),
        responses=MapOutputSerializer,
    )
    def get(self, request: Request) -> Response:
        return Response(MapOutputSerializer(selectors.westeros_map()).data)


class HouseOutputSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug")
    name = serializers.CharField(help_text=_("In the reader's language; English where not yet translated."))
    name_en = serializers.CharField(help_text=_("The English name."))
    untranslated = serializers.SerializerMethodField(help_text=UNTRANSLATED_HELP)
    home_area = serializers.SerializerMethodField()
    supply_level = serializers.IntegerField()
    victory_track = serializers.IntegerField()
    power_tokens_available = serializers.IntegerField()
    power_tokens_total = serializers.IntegerField()
    garrison_strength = serializers.IntegerField()
    influence_positions_6p = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_untranslated(self, obj: Any) -> list[str]:
        return untranslated_fields(obj, tuple(HOUSE_TRANSLATED))

    def get_home_area(self, obj: Any) -> str | None:
        homes = list(obj.home_areas.all())
        return homes[0].slug if homes else None

    def get_influence_positions_6p(self, obj: Any) -> dict[str, int]:
        return {
            "iron_throne": obj.influence_iron_throne,
            "fiefdoms": obj.influence_fiefdoms,
            "kings_court": obj.influence_kings_court,
        }


class HouseListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="westeros_houses",
        summary=_("The six houses and their start values (W-1.1, W-2)"),
        responses=HouseOutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        return Response(HouseOutputSerializer(selectors.house_list(), many=True).data)


class HouseCardOutputSerializer(serializers.Serializer):
    id = serializers.CharField(source="slug")
    house = serializers.CharField(source="house.slug")
    name = serializers.CharField(help_text=_("In the reader's language; English where not yet translated."))
    name_en = serializers.CharField(help_text=_("The English name."))
    untranslated = serializers.SerializerMethodField(help_text=UNTRANSLATED_HELP)
    strength = serializers.IntegerField()
    swords = serializers.IntegerField()
    fortifications = serializers.IntegerField()
    effect = serializers.CharField(allow_null=True)
    effect_timing = serializers.CharField()

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_untranslated(self, obj: Any) -> list[str]:
        return untranslated_fields(obj, tuple(HOUSE_CARD_TRANSLATED))


class HouseCardListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="westeros_house_cards",
        summary=_("House cards, 7 per house (W-17.1)"),
        parameters=[
            OpenApiParameter(
                "house", str, description=_("Only this house's cards (house id); an unknown house is a 404.")
            )
        ],
        responses={200: HouseCardOutputSerializer(many=True), 404: ApiErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        house = request.query_params.get("house") or None
        cards = selectors.house_card_list(house=house)
        if house and not cards.exists():
            raise ApplicationError(
                "unknown_house", gettext("No house with id '%(house)s'.") % {"house": house}, status_code=404
            )
        return Response(HouseCardOutputSerializer(cards, many=True).data)


class SetupOutputSerializer(serializers.Serializer):
    player_count = serializers.IntegerField()
    houses = serializers.ListField(child=serializers.CharField())
    influence_tracks = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    dominance_token_holders = serializers.DictField(child=serializers.CharField())
    garrisons = serializers.ListField(child=serializers.DictField())
    neutral_forces = serializers.ListField(child=serializers.DictField())
    impassable_areas = serializers.ListField(child=serializers.CharField())
    kings_court_special_orders = serializers.ListField(child=serializers.IntegerField())
    variant_notes = serializers.ListField(child=serializers.CharField(), required=False)
    houses_setup = serializers.DictField(
        help_text=_("Per playing house: home area, starting units, garrison, tokens.")
    )
    start = serializers.DictField()


class SetupDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="westeros_setup",
        summary=_("Start of a game for 3 to 6 players (W-2)"),
        responses={200: SetupOutputSerializer, 404: ApiErrorSerializer},
    )
    def get(self, request: Request, player_count: int) -> Response:
        setup = selectors.setup_get(player_count=player_count)
        if setup is None:
            raise ApplicationError(
                "unknown_player_count",
                gettext("No set-up for %(count)s players; the game takes 3 to 6.") % {"count": player_count},
                status_code=404,
            )
        return Response(SetupOutputSerializer(setup).data)
