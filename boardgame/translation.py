"""Fields of the Westeros data that staff translate (docs/i18n-data.md); English is the source."""

from modeltranslation.translator import TranslationOptions, register, translator

from boardgame.models import Area, House, HouseCard, WesterosCard, WildlingCard


@register(House)
class HouseTranslation(TranslationOptions):
    fields = ("name",)


@register(Area)
class AreaTranslation(TranslationOptions):
    fields = ("name",)


@register(HouseCard)
class HouseCardTranslation(TranslationOptions):
    fields = ("name", "effect")


@register(WesterosCard)
class WesterosCardTranslation(TranslationOptions):
    fields = ("name", "effect")


@register(WildlingCard)
class WildlingCardTranslation(TranslationOptions):
    fields = ("name", "highest_bidder", "lowest_bidder", "everyone_else")


# The history tables keep every language too, so a translation edit is recorded like any other.
translator.register(House.history.model, HouseTranslation)  # type: ignore[attr-defined]
translator.register(Area.history.model, AreaTranslation)  # type: ignore[attr-defined]
translator.register(HouseCard.history.model, HouseCardTranslation)  # type: ignore[attr-defined]
translator.register(WesterosCard.history.model, WesterosCardTranslation)  # type: ignore[attr-defined]
translator.register(WildlingCard.history.model, WildlingCardTranslation)  # type: ignore[attr-defined]
