"""Fields of the card database that staff translate (docs/i18n-data.md); English is the source."""

from modeltranslation.translator import TranslationOptions, register, translator

from cards.models import Card, Faction, Keyword


@register(Faction)
class FactionTranslation(TranslationOptions):
    fields = ("name", "description")


@register(Keyword)
class KeywordTranslation(TranslationOptions):
    fields = ("name", "reminder_text")


@register(Card)
class CardTranslation(TranslationOptions):
    fields = ("name", "rules_text", "flavor_text")


# The history tables keep every language too, so a translation edit is recorded like any other.
translator.register(Faction.history.model, FactionTranslation)  # type: ignore[attr-defined]
translator.register(Keyword.history.model, KeywordTranslation)  # type: ignore[attr-defined]
translator.register(Card.history.model, CardTranslation)  # type: ignore[attr-defined]
