"""Admin for online play: staff can inspect matches, seats and the append-only log (read-mostly)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise

from matches.chat import PRIVATE_PREFIX
from matches.models import (
    ActionLog,
    ChatMessage,
    ChatMute,
    IdempotencyRecord,
    Match,
    MatchStatus,
    PlayerRating,
    RatingChange,
    Seat,
)
from matches.services.chat import message_hide, message_unhide


class SeatInline(admin.TabularInline[Seat, Match]):
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

    title = _("end reason")
    parameter_name = "end_reason"

    # Any: Django's stub types the filter's admin as ModelAdmin of any model (a narrower one breaks the override)
    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        return [
            ("internal_error", _("Aborted: internal error")),
            ("aborted", _("Aborted: no first move")),
            ("failing", _("Task failing now (backing off)")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == "failing":
            return queryset.filter(status=MatchStatus.ACTIVE, task_failures__gt=0)
        if self.value():
            return queryset.filter(result__reason=self.value())
        return queryset


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
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

    @admin.display(description=_("end reason"))
    def end_reason(self, obj: Match) -> str:
        return str((obj.result or {}).get("reason", "")) if isinstance(obj.result, dict) else ""

    inlines = [SeatInline]


@admin.register(ActionLog)
class ActionLogAdmin(admin.ModelAdmin[ActionLog]):
    list_display = ("match", "version", "seat", "source", "created_at")
    list_filter = ("source",)
    readonly_fields = (
        "match",
        "version",
        "seat",
        "source",
        "action",
        "descriptions",
        "consequences",
        "created_at",
    )

    def has_change_permission(self, request: HttpRequest, obj: ActionLog | None = None) -> bool:
        return False  # append-only

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin[IdempotencyRecord]):
    list_display = ("user", "match", "key", "created_at")
    readonly_fields = ("user", "match", "key", "request_hash", "response", "created_at")


class ChatChannelFilter(admin.SimpleListFilter):
    """The public channels only (a filter by value would list the private channels' names)."""

    title = _("channel")
    parameter_name = "channel"

    # Any: Django's stub types the filter's admin as ModelAdmin of any model (a narrower one breaks the override)
    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        return [("table", _("Table")), ("spectators", _("Spectators"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> QuerySet[ChatMessage]:
        return queryset.filter(channel=self.value()) if self.value() else queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    """Moderation of the table and spectator chats. Private house-to-house channels are never listed:
    only the two houses' players ever read them (docs/play-layer.md, "Chat")."""

    list_display = ("id", "match", "channel", "author", "short_body", "created_at", "hidden", "hidden_by")
    list_filter = ("hidden", ChatChannelFilter)
    search_fields = ("body", "author__username", "match__id")
    readonly_fields = (
        "match",
        "channel",
        "author",
        "seat",
        "body",
        "created_at",
        "hidden",
        "hidden_by",
        "hidden_at",
    )
    actions = ["hide_messages", "unhide_messages"]
    list_select_related = ("match", "author", "hidden_by")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        return super().get_queryset(request).exclude(channel__startswith=PRIVATE_PREFIX)

    @admin.display(description=_("message"))
    def short_body(self, obj: ChatMessage) -> str:
        return obj.body if len(obj.body) <= 80 else obj.body[:79] + "…"

    @admin.action(description=_("Hide the selected messages (kept for review)"))
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        hidden = sum(
            message_hide(message_id=pk, by=request.user) for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", hidden) % {"count": hidden},
        )

    @admin.action(description=_("Show the selected hidden messages again"))
    def unhide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        shown = sum(message_unhide(message_id=pk) for pk in queryset.values_list("pk", flat=True))
        self.message_user(
            request,
            ngettext("%(count)d message shown again.", "%(count)d messages shown again.", shown)
            % {"count": shown},
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return False  # read-only: hiding and showing again (the actions) are the only changes


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin[ChatMute]):
    list_display = ("user", "muted", "created_at")
    search_fields = ("user__username", "muted__username")
    readonly_fields = ("user", "muted", "created_at")


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin[PlayerRating]):
    """Ratings are written only by finished rated matches (services.ratings): staff read them."""

    list_display = ("user", "kind", "rating", "deviation", "sigma", "games", "wins", "losses", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = tuple(f.name for f in PlayerRating._meta.fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ("match", "user", "kind", "place", "before", "after", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = tuple(f.name for f in RatingChange._meta.fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatingChange | None = None) -> bool:
        return False
