"""Ratings of rated matches (Glicko-2 per Commandeer player, OpenSkill per Westeros player) and the cached
end-of-game summary of a finished match. The writes are `matches.services.ratings`; the reads
`matches.players` and `matches.summary`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from matches.models import Match


class PlayerRating(models.Model):
    """One player's rating in one game kind (only rated games count; see `services.ratings`).

    Glicko-2 kinds use `rating`, `deviation`, `volatility`; OpenSkill kinds `mu`, `sigma`, and `rating` is
    the displayed ordinal. `rating` is always the number shown and sorted on.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=30, help_text="Game kind (matches.games registry)")
    rating = models.FloatField(help_text="The displayed rating (Glicko-2 rating, or OpenSkill ordinal)")
    deviation = models.FloatField(default=0.0, help_text="Glicko-2 rating deviation (RD)")
    volatility = models.FloatField(default=0.0, help_text="Glicko-2 volatility")
    mu = models.FloatField(default=0.0, help_text="OpenSkill mu")
    sigma = models.FloatField(default=0.0, help_text="OpenSkill sigma")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="playerrating_one_per_kind")]
        indexes = [models.Index(fields=["kind", "-rating"], name="playerrating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: written once, in the transaction that ends the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=30)
    position = models.PositiveSmallIntegerField(help_text="The user's seat")
    place = models.PositiveSmallIntegerField(
        help_text="Final standing: 1 = first (equal places share a number)"
    )
    score = models.FloatField(
        help_text="1 win, 0.5 draw, 0 loss (Glicko-2); share of opponents beaten (OpenSkill)"
    )
    before = models.FloatField()
    after = models.FloatField()
    deviation_after = models.FloatField(default=0.0, help_text="RD (Glicko-2) or sigma (OpenSkill) after")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratingchange_once_per_match")]
        indexes = [models.Index(fields=["user", "kind", "-created_at"], name="ratingchange_history")]

    def __str__(self) -> str:
        return f"#{self.match_id} {self.user_id}: {self.before:.0f} -> {self.after:.0f}"


class MatchSummary(models.Model):
    """The end-of-game summary of a finished match, computed once from its log (`matches.summary`)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="game_summary")
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"summary of #{self.match_id}"
