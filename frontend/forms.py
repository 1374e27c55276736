"""Forms of the account pages: sign-up with an optional e-mail address, and the notification settings."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

EMAIL_HELP = _("Optional. Only used to tell you when a correspondence game waits for your move.")


class SignupForm(UserCreationForm):
    """Django's sign-up form plus an optional e-mail address (for your-turn e-mails)."""

    email = forms.EmailField(
        required=False, max_length=254, label=_("E-mail (optional: to hear when a game waits for your move)")
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class UserSettingsForm(forms.Form):
    """The settings page: the e-mail address and each notification preference."""

    email = forms.EmailField(required=False, max_length=254, label=_("E-mail address"), help_text=EMAIL_HELP)
    email_your_turn = forms.BooleanField(
        required=False,
        label=_("E-mail me when a correspondence game waits for my move and I have been away"),
    )
    browser_notifications = forms.BooleanField(
        required=False, label=_("Browser notification when it is my turn and the game's tab is hidden")
    )
    sound = forms.BooleanField(required=False, label=_("Play a short sound when it becomes my turn"))
    low_time_warning = forms.BooleanField(
        required=False, label=_("Warn me when my live clock runs low (with a tick if sound is on)")
    )
