"""The Commandeer card database (C-1): factions, keywords, unit and event cards, curated by staff."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import translation
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from imagekit.models import ImageSpecField
from imagekit.processors import ResizeToFill
from simple_history.models import HistoricalRecords

from cards.art import ART_QUALITY, ART_SIZES, card_art_path, validate_card_art
from matches.engine.vocabulary import KEYWORDS, TRIGGER_KEYWORDS, abilities_problems

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # C-1.2, relative to the card's owner


class EnglishSourceModel(models.Model):
    """Saves in the source language, so the untranslated column and the history's always hold English.

    The translated fields (translation.py) read the viewer's language; writing `name` while Thai is active
    would otherwise copy the Thai text into the source column.
    """

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        with translation.override(settings.MODELTRANSLATION_DEFAULT_LANGUAGE):
            super().save(*args, **kwargs)


class Faction(EnglishSourceModel):
    name = models.CharField(max_length=60, unique=True, verbose_name=_("name"))
    slug = models.SlugField(max_length=60, unique=True, verbose_name=_("slug"))
    description = models.TextField(blank=True, verbose_name=_("description"))
    color = models.CharField(
        max_length=7,
        default="#666666",
        help_text=_("Hex colour for card frames, e.g. #c0392b"),
        verbose_name=_("color"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("faction")
        verbose_name_plural = _("factions")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.slug:
            self.slug = slugify(self.name)
        super().save(*args, **kwargs)


class Keyword(EnglishSourceModel):
    """A keyword (C-7) with its reminder text. `code` is the rules engine's name for it."""

    code = models.SlugField(
        max_length=40,
        unique=True,
        help_text=format_lazy(_("One of: {codes}"), codes=", ".join(KEYWORDS)),
        verbose_name=_("code"),
    )
    name = models.CharField(max_length=60, unique=True, verbose_name=_("name"))
    reminder_text = models.TextField(verbose_name=_("reminder text"))

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("keyword")
        verbose_name_plural = _("keywords")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.code not in KEYWORDS:
            raise ValidationError(
                {
                    "code": gettext("Unknown keyword code '%(code)s'; the rules engine knows %(codes)s.")
                    % {"code": self.code, "codes": ", ".join(KEYWORDS)}
                }
            )


class CardType(models.TextChoices):
    UNIT = "unit", _("Unit")
    EVENT = "event", _("Event")


class EventType(models.TextChoices):
    PLANNING = "planning", _("Planning")
    DEFENSIVE = "defensive", _("Defensive")
    ONGOING = "ongoing", _("Ongoing")


class Card(EnglishSourceModel):
    """One card (C-1.1 unit, C-1.3 event). Power and Health are stored in full (3000, not 3)."""

    name = models.CharField(max_length=80, unique=True, verbose_name=_("name"))
    slug = models.SlugField(max_length=80, unique=True, verbose_name=_("slug"))
    faction = models.ForeignKey(
        Faction, on_delete=models.PROTECT, related_name="cards", verbose_name=_("faction")
    )
    card_type = models.CharField(max_length=5, choices=CardType.choices, verbose_name=_("card type"))
    command_cost = models.PositiveSmallIntegerField(
        help_text=_("Command cost, paid in Command Points (C-1.1)"),
        verbose_name=_("command cost"),
    )
    energy_cost = models.PositiveSmallIntegerField(
        default=0, help_text=_("Energy cost (C-5.3)"), verbose_name=_("energy cost")
    )
    power = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("Units only, e.g. 3000"),
        verbose_name=pgettext_lazy("a unit's stat", "power"),
    )
    health = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Units only, e.g. 5000"), verbose_name=_("health")
    )
    arrows = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Units only: subset of N NE E SE S SW W NW (C-1.2)"),
        verbose_name=_("arrows"),
    )
    legendary = models.BooleanField(
        default=False, help_text=_("Units only (C-1.4)"), verbose_name=_("legendary")
    )
    unique = models.BooleanField(default=False, help_text=_("Events only (C-1.4)"), verbose_name=_("unique"))
    event_type = models.CharField(
        max_length=9, choices=EventType.choices, blank=True, default="", verbose_name=_("event type")
    )
    keywords = models.ManyToManyField(Keyword, blank=True, related_name="cards", verbose_name=_("keywords"))
    rules_text = models.TextField(blank=True, verbose_name=_("rules text"))
    abilities = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Structured abilities (docs/card-abilities.md)"),
        verbose_name=_("abilities"),
    )
    flavor_text = models.TextField(blank=True, verbose_name=_("flavor text"))
    # Staff's picture (cards/art.py checks it by its content); a card without one shows a placeholder.
    art = models.ImageField(
        upload_to=card_art_path,
        blank=True,
        max_length=200,
        validators=[validate_card_art],
        help_text=_("JPEG, PNG or WebP, at most 5 MB, 64 to 4096 pixels a side; shown cropped to 4:3."),
        verbose_name=_("art"),
    )
    # Thumbnails in the sizes the pages use, made once when the art is saved (docs/operations.md).
    art_thumb = ImageSpecField(
        source="art",
        processors=[ResizeToFill(*ART_SIZES["thumb"])],
        format="WEBP",
        options={"quality": ART_QUALITY},
    )
    art_card = ImageSpecField(
        source="art",
        processors=[ResizeToFill(*ART_SIZES["card"])],
        format="WEBP",
        options={"quality": ART_QUALITY},
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    history = HistoricalRecords(m2m_fields=[keywords])

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["name"]
        indexes = [
            models.Index(fields=["faction", "card_type"]),
            models.Index(fields=["command_cost"]),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.slug:
            self.slug = slugify(self.name)
        super().save(*args, **kwargs)

    @property
    def is_unit(self) -> bool:
        return self.card_type == CardType.UNIT

    def clean(self) -> None:
        """Refuse an inconsistent card; every message names its field (C-1)."""
        errors = card_field_errors(
            card_type=self.card_type,
            power=self.power,
            health=self.health,
            arrows=self.arrows,
            legendary=self.legendary,
            unique=self.unique,
            event_type=self.event_type,
            abilities=self.abilities,
        )
        if errors:
            raise ValidationError(errors)


def card_field_errors(
    *,
    card_type: str,
    power: int | None,
    health: int | None,
    arrows: Any,
    legendary: bool,
    unique: bool,
    event_type: str,
    abilities: Any,
    keyword_codes: list[str] | None = None,
) -> dict[str, list[str]]:
    """Consistency rules of a card, as {field: [messages]} in the active language (the staff member's: the
    card services set it); shared by the model, admin, API and importer."""
    errors: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    if card_type not in CardType.values:
        add("card_type", gettext("must be one of %(choices)s") % {"choices": ", ".join(CardType.values)})
        return errors
    if card_type == CardType.UNIT:
        if power is None:
            add("power", gettext("a unit needs Power (C-1.1)"))
        if health is None:
            add("health", gettext("a unit needs Health (C-1.1)"))
        elif health <= 0:
            add("health", gettext("Health must be above 0"))
        for field, value in (("power", power), ("health", health)):
            if value is not None and value % 500:
                add(field, gettext("must be a multiple of 500 (written in thousands on the card, e.g. 3000)"))
        if not isinstance(arrows, list) or any(a not in DIRECTIONS for a in arrows):
            add(
                "arrows",
                gettext("must be a list drawn from %(directions)s (C-1.2)")
                % {"directions": " ".join(DIRECTIONS)},
            )
        elif len(set(arrows)) != len(arrows):
            add("arrows", gettext("each direction may appear once"))
        if unique:
            add("unique", gettext("only events can be Unique; units are Legendary (C-1.4)"))
        if event_type:
            add("event_type", gettext("a unit has no event type"))
    else:
        if power is not None:
            add("power", gettext("an event has no Power (C-1.3)"))
        if health is not None:
            add("health", gettext("an event has no Health (C-1.3)"))
        if arrows:
            add("arrows", gettext("an event has no attack directions (C-1.3)"))
        if legendary:
            add("legendary", gettext("only units can be Legendary; events are Unique (C-1.4)"))
        if event_type not in EventType.values:
            add("event_type", gettext("an event needs an event type: planning, defensive or ongoing (C-1.3)"))
    problems = abilities_problems(abilities, card_type=card_type, event_type=event_type or None)
    if problems:
        # The ability vocabulary's checks are engine messages (key + parameters): worded here from the engine
        # catalogue in the active language; the data's own words (trigger, effect and field names) stay as written.
        from matches.messages import render

        errors["abilities"] = [render(problem.to_json()) for problem in problems]
    if keyword_codes is not None and not problems and isinstance(abilities, list):
        triggers = {a.get("trigger") for a in abilities if isinstance(a, dict)}
        if any(isinstance(a, dict) and "x" in a for a in abilities):
            triggers.add("formation")  # C-7.6: an ability usable while Formation X holds is a Formation one
        for trigger, code in TRIGGER_KEYWORDS.items():
            if trigger in triggers and code not in keyword_codes:
                add(
                    "keywords",
                    gettext("an ability with trigger '%(trigger)s' needs the keyword '%(code)s'")
                    % {"trigger": trigger, "code": code},
                )
        for code in keyword_codes:
            if code in TRIGGER_KEYWORDS.values() and code not in triggers:
                add(
                    "keywords",
                    gettext("keyword '%(code)s' needs an ability with trigger '%(code)s'") % {"code": code},
                )
    return errors
