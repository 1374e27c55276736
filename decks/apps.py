from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"
    verbose_name = _("Decks")  # the admin's heading of this app's models
