from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = _("Matches")  # the admin's heading of this app's models

    def ready(self) -> None:
        from matches.messages import connect_signals

        connect_signals()
