"""Staff views of the players' notification settings (read-mostly: players change their own)."""

from django.contrib import admin

from frontend.models import UserSettings


@admin.register(UserSettings)
class UserSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "email_your_turn", "browser_notifications", "sound", "last_seen_at")
    list_filter = ("email_your_turn", "browser_notifications")
    search_fields = ("user__username", "user__email")
    readonly_fields = ("last_seen_at",)
    raw_id_fields = ("user",)
