"""Decks (C-3): a player's list of cards, its entries, and every saved revision of it."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cards.models import Card, Faction


def new_share_id() -> str:
    """An unguessable id for unlisted links (96 random bits, URL-safe)."""
    return secrets.token_urlsafe(12)


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private")
    UNLISTED = "unlisted", _("Unlisted (anyone with the link)")
    PUBLIC = "public", _("Public")


class Deck(models.Model):
    """A deck being built; it may be saved while illegal (a draft), legality is computed live."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks", verbose_name=_("owner")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    faction = models.ForeignKey(
        Faction,
        on_delete=models.PROTECT,
        related_name="decks",
        null=True,
        blank=True,
        verbose_name=_("faction"),
    )
    commander = models.ForeignKey(
        Card,
        on_delete=models.PROTECT,
        related_name="commanded_decks",
        null=True,
        blank=True,
        help_text=_("A Legendary unit of this deck (C-4.1)"),
        verbose_name=_("commander"),
    )
    notes = models.TextField(blank=True, verbose_name=_("notes"))
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE, verbose_name=_("visibility")
    )
    share_id = models.CharField(
        max_length=32, unique=True, default=new_share_id, editable=False, verbose_name=_("share id")
    )
    copied_from = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        related_name="copies",
        null=True,
        blank=True,
        help_text=_("The public deck this one was copied from (kept as credit; cleared if it is deleted)"),
        verbose_name=_("copied from"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = pgettext_lazy("a player's deck", "deck")
        verbose_name_plural = pgettext_lazy("a player's deck", "decks")
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-updated_at"]),
            models.Index(fields=["visibility", "-updated_at"]),
            models.Index(fields=["visibility", "-created_at"]),
        ]

    def __str__(self) -> str:
        return self.name


class DeckCard(models.Model):
    """`count` copies of one card in a deck; one row per card (copies are summed)."""

    deck = models.ForeignKey(
        Deck,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=pgettext_lazy("a player's deck", "deck"),
    )
    card = models.ForeignKey(
        Card, on_delete=models.PROTECT, related_name="deck_entries", verbose_name=_("card")
    )
    count = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)], verbose_name=_("count"))

    class Meta:
        verbose_name = _("deck card")
        verbose_name_plural = _("deck cards")
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="deckcard_unique_card_per_deck"),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="deckcard_count_at_least_1"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card_id}"


class DeckRevision(models.Model):
    """One saved state of a deck, kept forever; restoring one saves a new revision."""

    deck = models.ForeignKey(
        Deck,
        on_delete=models.CASCADE,
        related_name="revisions",
        verbose_name=pgettext_lazy("a player's deck", "deck"),
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    snapshot = models.JSONField(
        help_text=_("name, faction, commander, notes, visibility, cards (by slug)"),
        verbose_name=_("snapshot"),
    )
    note = models.CharField(
        max_length=200,
        blank=True,
        help_text=_("Why it was saved, e.g. 'restored revision 3'"),
        verbose_name=_("note"),
    )

    class Meta:
        verbose_name = _("deck revision")
        verbose_name_plural = _("deck revisions")
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="deckrevision_unique_number")]

    def __str__(self) -> str:
        return f"{self.deck_id} r{self.number}"


class DeckLike(models.Model):
    """A signed-in player's like of a public deck: one per player per deck (liking again changes nothing)."""

    deck = models.ForeignKey(
        Deck,
        on_delete=models.CASCADE,
        related_name="likes",
        verbose_name=pgettext_lazy("a player's deck", "deck"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deck_likes", verbose_name=_("user")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("deck like")
        verbose_name_plural = _("deck likes")
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["deck", "user"], name="decklike_one_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} likes {self.deck_id}"
