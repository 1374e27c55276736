"""The pages' own records: one-time form tokens, so a form sent twice does its work once."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class FormSubmission(models.Model):
    """A form token spent by a user; a second submit of the same form finds it and gets the first answer.

    The page puts a fresh random token in the form; the view inserts this row in the same transaction as
    the work (e.g. creating a deck). A double click sends the token twice: the second insert hits the
    unique constraint (on PostgreSQL it waits for the first transaction, on SQLite the write lock does),
    and the view answers with the first submit's result instead of doing the work again.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    token = models.CharField(max_length=64, verbose_name=_("token"))
    result_url = models.CharField(max_length=200, blank=True, verbose_name=_("result URL"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("form submission")
        verbose_name_plural = _("form submissions")
        constraints = [models.UniqueConstraint(fields=["user", "token"], name="form_submission_once")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.token}"


class UserSettings(models.Model):
    """A player's notification preferences and when they were last seen (one row per user, made lazily).

    Read and written through `frontend.preferences` (settings_get / settings_update / seen), never here.
    `last_seen_at` is written at most once a minute per user (`preferences.seen`), from any request or
    match WebSocket; the your-turn e-mail (matches.services.emails) goes only to players absent longer
    than NOTIFY_ABSENT_AFTER_S.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    browser_notifications = models.BooleanField(
        default=False,
        help_text=_("Show a browser notification when it is your turn and the tab is hidden"),
        verbose_name=_("browser notifications"),
    )
    notifications_asked = models.BooleanField(
        default=False,
        help_text=_("The game page has offered browser notifications once (asked only once)"),
        verbose_name=_("notifications asked"),
    )
    sound = models.BooleanField(
        default=True, help_text=_("A short sound when it becomes your turn"), verbose_name=_("sound")
    )
    low_time_warning = models.BooleanField(
        default=True,
        help_text=_("Warn (and tick, with sound on) when your live clock runs low"),
        verbose_name=_("low time warning"),
    )
    email_your_turn = models.BooleanField(
        default=True,
        help_text=_("E-mail me when a correspondence game waits for my move and I have been away"),
        verbose_name=_("your-turn e-mails"),
    )
    # The site's language for this user ('' : none chosen, the cookie or the browser's Accept-Language
    # decides); frontend.language reads it on every request.
    language = models.CharField(
        max_length=10,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text=_("The language of the site for this user (empty: the browser's)"),
        verbose_name=_("language"),
    )
    last_seen_at = models.DateTimeField(null=True, blank=True, db_index=True, verbose_name=_("last seen at"))

    class Meta:
        verbose_name = _("user settings")
        verbose_name_plural = _("user settings")

    def __str__(self) -> str:
        return f"settings of user {self.user_id}"


class TutorialProgress(models.Model):
    """How far a signed-in player has come in an interactive tutorial (frontend/tutorial.py).

    Only the step is kept: the lesson's state is its prepared position replayed up to that step. Visitors
    who are not signed in keep the same number in their session instead.
    """

    GAMES = [("commandeer", "Commandeer"), ("westeros", "Westeros")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    game = models.CharField(max_length=20, choices=GAMES, verbose_name=_("game"))
    step = models.PositiveSmallIntegerField(default=0, verbose_name=_("step"))
    finished_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the lesson was last finished"),
        verbose_name=_("finished at"),
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("tutorial progress")
        verbose_name_plural = _("tutorial progress")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="tutorial_progress_once")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.game}:{self.step}"
