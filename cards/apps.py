from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"
    verbose_name = _("Cards")  # the admin's heading of this app's models

    def ready(self) -> None:
        from cards.art import card_saved, faction_saved
        from cards.models import Card, Faction

        # cached picture URLs of the match pages' card catalogs (cards/art.py)
        post_save.connect(card_saved, sender=Card, dispatch_uid="cards.art.card_saved")
        post_save.connect(faction_saved, sender=Faction, dispatch_uid="cards.art.faction_saved")
