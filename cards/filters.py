"""django-filter filter set of the card list API (GET /api/cards/)."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from cards.data_translations import all_languages
from cards.models import Card, CardType, EventType
from cards.search import QuerySyntaxError, parse_query
from config.errors import ApplicationError


class _OrderingWithTieBreak(django_filters.OrderingFilter):
    """Ordering that always ends with the name, so pages are stable when costs or powers tie."""

    def filter(self, qs: QuerySet[Card], value: list[str] | None) -> QuerySet[Card]:
        qs = super().filter(qs, value)
        if value:
            qs = qs.order_by(*qs.query.order_by, "name")
        return qs


class CardFilter(django_filters.FilterSet):
    """Structured filters plus ``q`` (the search query language, docs/card-format.md)."""

    q = django_filters.CharFilter(method="filter_q", label=_("Search query, e.g. f:ember t:unit pow>=3000"))
    faction = django_filters.CharFilter(field_name="faction__slug", label=_("Faction slug"))
    type = django_filters.ChoiceFilter(field_name="card_type", choices=CardType.choices)
    event_type = django_filters.ChoiceFilter(choices=EventType.choices)
    command_cost_min = django_filters.NumberFilter(field_name="command_cost", lookup_expr="gte")
    command_cost_max = django_filters.NumberFilter(field_name="command_cost", lookup_expr="lte")
    keyword = django_filters.CharFilter(method="filter_keyword", label=_("Keyword code or name"))
    legendary = django_filters.BooleanFilter()
    unique = django_filters.BooleanFilter()
    ordering = _OrderingWithTieBreak(
        fields=(("name", "name"), ("command_cost", "command_cost"), ("power", "power"))
    )

    class Meta:
        model = Card
        fields: list[str] = []

    def filter_q(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        try:
            return queryset.filter(parse_query(value))
        except QuerySyntaxError as exc:
            raise ApplicationError("invalid_query", exc.message, extra={"position": exc.position}) from exc

    def filter_keyword(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        through = Card.keywords.through
        by_name = Q()
        for column in all_languages("name"):  # the keyword's name in any language
            by_name |= Q(**{f"keyword__{column}__iexact": value})
        matching = through.objects.filter(Q(keyword__code__iexact=value) | by_name)
        return queryset.filter(pk__in=matching.values("card_id"))
