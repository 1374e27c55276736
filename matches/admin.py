"""Admin for online play: staff can inspect matches, seats and the append-only log (read-mostly)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet

from matches.models import ActionLog, IdempotencyRecord, Match, MatchStatus, Seat


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


class StopReasonFilter(admin.SimpleListFilter):
    """Why a match ended: staff find the matches a failing task aborted ("internal error") at once."""

    title = "end reason"
    parameter_name = "end_reason"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("internal_error", "Aborted: internal error"),
            ("aborted", "Aborted: no first move"),
            ("failing", "Task failing now (backing off)"),
        ]

    def queryset(self, request: Any, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == "failing":
            return queryset.filter(status=MatchStatus.ACTIVE, task_failures__gt=0)
        if self.value():
            return queryset.filter(result__reason=self.value())
        return queryset


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "kind",
        "status",
        "end_reason",
        "task_failures",
        "created_by",
        "state_version",
        "is_public",
        "created_at",
    )
    list_filter = ("kind", "status", StopReasonFilter, "is_public")
    search_fields = ("id", "created_by__username")
    readonly_fields = (
        "seed",
        "state",
        "state_version",
        "invite_token",
        "result",
        "started_at",
        "finished_at",
        "task_failures",
        "task_retry_at",
        "task_error",
    )

    @admin.display(description="end reason")
    def end_reason(self, obj: Match) -> str:
        return str((obj.result or {}).get("reason", "")) if isinstance(obj.result, dict) else ""

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
