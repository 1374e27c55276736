from django.apps import AppConfig


class BoardgameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "boardgame"
