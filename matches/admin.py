"""Admin for online play: staff can inspect matches, seats and the append-only log (read-mostly)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from matches.models import ActionLog, IdempotencyRecord, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "position",
        "user",
        "ai_agent",
        "deck_id",
        "clock_remaining_ms",
        "deadline",
        "consecutive_timeouts",
    )
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "created_by", "state_version", "is_public", "created_at")
    list_filter = ("kind", "status", "is_public")
    search_fields = ("id", "created_by__username")
    readonly_fields = (
        "seed",
        "state",
        "state_version",
        "invite_token",
        "result",
        "started_at",
        "finished_at",
    )
    inlines = [SeatInline]


@admin.register(ActionLog)
class ActionLogAdmin(admin.ModelAdmin):
    list_display = ("match", "version", "seat", "source", "created_at")
    list_filter = ("source",)
    readonly_fields = ("match", "version", "seat", "source", "action", "descriptions", "created_at")

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False  # append-only

    def has_add_permission(self, request: Any) -> bool:
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "match", "key", "created_at")
    readonly_fields = ("user", "match", "key", "request_hash", "response", "created_at")
