"""Deck admin: read-mostly for staff (decks belong to players; staff may only change visibility)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from decks.models import Deck, DeckCard, DeckLike, DeckRevision
from decks.selectors import deck_legality


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    fields = ("card", "count")
    readonly_fields = ("card", "count")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DeckRevisionInline(admin.TabularInline):
    model = DeckRevision
    fields = ("number", "created_at", "note")
    readonly_fields = ("number", "created_at", "note")
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "faction", "commander", "visibility", "card_count", "updated_at")
    list_filter = ("visibility", "faction")
    search_fields = ("name", "owner__username")
    list_select_related = ("owner", "faction", "commander")
    readonly_fields = (
        "owner",
        "name",
        "faction",
        "commander",
        "notes",
        "share_id",
        "created_at",
        "updated_at",
        "legality",
    )
    fields = (*readonly_fields[:5], "visibility", *readonly_fields[5:])
    inlines = [DeckCardInline, DeckRevisionInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("Cards"))
    def card_count(self, obj: Deck) -> int:
        return sum(e.count for e in obj.entries.all())

    @admin.display(description=_("Legality (C-3)"))
    def legality(self, obj: Deck) -> str:
        result = deck_legality(obj)
        if result.valid:
            return "; ".join(
                [
                    gettext("Legal"),
                    *(gettext("warning: %(message)s") % {"message": w.message} for w in result.warnings),
                ]
            )
        return "; ".join(e.message for e in result.errors)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("entries__card__faction")


@admin.register(DeckLike)
class DeckLikeAdmin(admin.ModelAdmin):
    """Likes of public decks (one per player per deck); staff may remove abusive ones."""

    list_display = ("deck", "user", "created_at")
    list_select_related = ("deck", "user")
    search_fields = ("deck__name", "user__username")
    raw_id_fields = ("deck", "user")
