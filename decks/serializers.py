"""Input and output serializers of the deck builder API (`decks.apis`, `decks.public_apis`)."""

from __future__ import annotations

from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from config.schema import ApiErrorSerializer
from decks.formats import (
    MAX_COUNT,
    MAX_INPUT_CHARS,
)
from decks.models import Visibility
from decks.stats import (
    max_mulligans,
)

MAX_SEED = 2**63 - 1  # a sample hand's seed: any signed 64-bit value a client may store
MAX_MULLIGANS = max_mulligans()  # C-4.4: 5 (the engine's limit; the hand never becomes empty)
MAX_ENTRIES = 200  # distinct cards in one deck body (a legal deck has at most 50)
MAX_SEARCH = 100  # ?search= of public decks matches the name (at most 100 characters)

# --- serializers ------------------------------------------------------------------------------------


ERRORS: dict[int, Any] = {400: ApiErrorSerializer, 404: ApiErrorSerializer}
WRITE_ERRORS: dict[int, Any] = {**ERRORS, 401: ApiErrorSerializer, 403: ApiErrorSerializer}


class CardCountSerializer(serializers.Serializer):
    card = serializers.SlugField(help_text=_("Card slug"), max_length=80)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Both fields, even in a PATCH: DRF's partial mode skips missing fields of nested entries too."""
        missing = [name for name in ("card", "count") if name not in attrs]
        if missing:
            raise serializers.ValidationError({name: gettext("This field is required.") for name in missing})
        return attrs


FACTION_HELP = _("Slug of an existing faction (an unknown one is a 400 unknown_faction)")
CARDS_HELP = format_lazy(
    _("Distinct cards with their counts, at most {max} (unknown slugs are a 400 unknown_cards)"),
    max=MAX_ENTRIES,
)


class DeckInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    faction = serializers.SlugField(
        required=False, allow_null=True, allow_blank=True, max_length=60, help_text=FACTION_HELP
    )
    commander = serializers.SlugField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=80,
        help_text=_("Slug of a Legendary unit in the deck (C-4.1)"),
    )
    notes = serializers.CharField(required=False, allow_blank=True, max_length=10000)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    cards = CardCountSerializer(many=True, required=False, max_length=MAX_ENTRIES, help_text=CARDS_HELP)


class ValidateInputSerializer(serializers.Serializer):
    faction = serializers.SlugField(
        required=False, allow_null=True, allow_blank=True, max_length=60, help_text=FACTION_HELP
    )
    commander = serializers.SlugField(required=False, allow_null=True, allow_blank=True, max_length=80)
    cards = CardCountSerializer(many=True, max_length=MAX_ENTRIES, help_text=CARDS_HELP)


class IssueSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text=_("Rule cited, e.g. C-3.2"))
    code = serializers.CharField()
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField(), help_text=_("Names of the cards involved"))


class LegalitySerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)


class NamedRefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class DeckCardOutputSerializer(serializers.Serializer):
    card = serializers.CharField(help_text=_("Card slug"))
    name = serializers.CharField()
    count = serializers.IntegerField()
    faction = serializers.CharField()
    card_type = serializers.CharField()
    command_cost = serializers.IntegerField()
    energy_cost = serializers.IntegerField()
    legendary = serializers.BooleanField()
    unique = serializers.BooleanField()


class DeckSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(help_text=_("Owner's username"))
    is_owner = serializers.BooleanField()
    faction = NamedRefSerializer(allow_null=True)
    commander = NamedRefSerializer(allow_null=True)
    visibility = serializers.CharField()
    share_id = serializers.CharField(allow_null=True, help_text=_("Only shown to the owner"))
    card_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    legality = LegalitySerializer()
    like_count = serializers.IntegerField(help_text=_("Signed-in players who like this deck"))
    liked = serializers.BooleanField(help_text=_("Whether you like it (false when not signed in)"))
    copied_from = inline_serializer(
        "DeckOrigin",
        {"id": serializers.IntegerField(), "name": serializers.CharField(), "owner": serializers.CharField()},
        allow_null=True,
        help_text=_("The public deck this one was copied from, while it is still public"),
    )


class DeckDetailSerializer(DeckSummarySerializer):
    notes = serializers.CharField()
    cards = DeckCardOutputSerializer(many=True)


class DeckPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DeckSummarySerializer(many=True)


class LineErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    line = serializers.IntegerField(allow_null=True, help_text=_("1-based line (text) or cards entry (JSON)"))
    text = serializers.CharField()
    suggestions = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField(
        allow_null=True,
        help_text=_("An unknown card's copies (null for the Commander line and other errors)"),
    )
    suggested_cards = serializers.ListField(
        child=serializers.DictField(child=serializers.CharField()),
        help_text=_("The suggestions as {card: slug, name}: what a fix adds in place of the unknown card"),
    )


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "maxLength": MAX_INPUT_CHARS},
            {"type": "object", "additionalProperties": {}},
        ]
    }
)
class DecklistField(serializers.JSONField):
    """A decklist as text or share code (a string of at most MAX_INPUT_CHARS) or the deck JSON document."""


class ImportInputSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["auto", "text", "json", "code"], default="auto")
    data = DecklistField(help_text=_("Decklist text, share code (strings) or the deck JSON document"))
    save = serializers.BooleanField(
        default=False,
        help_text=_("Save as a new deck: the lines that were read (the others are listed in `errors`)"),
    )
    name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)


class ImportOutputSerializer(serializers.Serializer):
    entries = DeckCardOutputSerializer(many=True)
    commander = NamedRefSerializer(allow_null=True)
    faction = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    errors = LineErrorSerializer(many=True)
    legality = LegalitySerializer(help_text=_("Of the entries that were read"))
    deck = DeckDetailSerializer(allow_null=True, help_text=_("The saved deck when save=true"))


class HandOddsSerializer(serializers.Serializer):
    card = serializers.CharField()
    name = serializers.CharField()
    count = serializers.IntegerField()
    probability = serializers.FloatField(help_text=_("Chance to see at least one copy in the opening 6"))


class DeckStatsSerializer(serializers.Serializer):
    total_cards = serializers.IntegerField()
    draw_pile = serializers.IntegerField(
        help_text=_("Cards left to draw from once the Commander is set aside")
    )
    command_curve = serializers.DictField(
        child=serializers.IntegerField(), help_text=_("Command cost -> copies")
    )
    energy_curve = serializers.DictField(
        child=serializers.IntegerField(), help_text=_("Energy cost -> copies")
    )
    types = serializers.DictField(child=serializers.IntegerField(), help_text=_("unit/event -> copies"))
    keywords = serializers.DictField(child=serializers.IntegerField(), help_text=_("Keyword code -> copies"))
    average_power = serializers.FloatField(allow_null=True, help_text=_("Units only, full numbers (3000)"))
    average_health = serializers.FloatField(allow_null=True)
    opening_hand_odds = HandOddsSerializer(many=True)


class RevisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    note = serializers.CharField()
    snapshot = serializers.JSONField()
