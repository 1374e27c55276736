from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BoardgameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "boardgame"
    verbose_name = _("Boardgame")  # the admin's heading of this app's models
