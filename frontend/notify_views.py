"""Pages of your-turn notices: the settings page, the one-click unsubscribe link, and "my games" (/play/mine/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, ensure_csrf_cookie
from django.views.decorators.http import require_http_methods

from frontend import preferences
from frontend.apis import settings_change
from frontend.errors import error_page
from frontend.forms import UserSettingsForm
from frontend.language import set_cookie
from matches.my_games import my_games
from matches.pages import game_label


@login_required
@ensure_csrf_cookie
@require_http_methods(["GET", "POST"])
def user_settings(request: HttpRequest) -> HttpResponse:
    """The e-mail address and notification preferences (the page's script asks for browser permission)."""
    row = preferences.settings_get(request.user)
    initial = {name: getattr(row, name) for name in preferences.EDITABLE} | {"email": request.user.email}
    form = UserSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changes = dict(form.cleaned_data)
        if changes.get("browser_notifications") != row.browser_notifications:
            changes["notifications_asked"] = True
        settings_change(user=request.user, changes=changes)
        if changes.get("language"):
            translation.activate(changes["language"])  # the confirmation in the language just chosen
        messages.success(request, _("Settings saved."))
        response = redirect("user-settings")
        if changes.get("language"):
            set_cookie(response, changes["language"])
        return response
    return render(request, "frontend/settings.html", {"form": form, "has_email": bool(request.user.email)})


@csrf_exempt  # the signed token is the credential; RFC 8058 one-click POSTs come from mail clients
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page asking to confirm; POST (its button, or a mail client's one-click): e-mails off."""
    user_id = preferences.unsubscribe_user_id(token)
    if user_id is None:
        return error_page(
            request,
            400,
            ValueError(_("This unsubscribe link is not valid: it may be cut short or too old.")),
            hint=_("You can turn e-mails off in your settings after logging in."),
        )
    if request.method == "POST":
        user = preferences.unsubscribe(user_id)
        if user is None:
            return error_page(request, 400, ValueError(_("This account no longer exists.")))
        return render(request, "frontend/unsubscribe.html", {"done": True, "username": user.get_username()})
    return render(request, "frontend/unsubscribe.html", {"done": False, "token": token})


@login_required
def my_games_page(request: HttpRequest) -> HttpResponse:
    """The player's games of both kinds, those waiting for their move first."""
    games = my_games(user=request.user)
    for game in [*games.your_turn, *games.running, *games.open, *games.finished]:
        game.game = game_label(game.kind)  # the game's name in the reader's language
    return render(
        request,
        "frontend/my_games.html",
        {"games": games, "lobby_url": reverse("match-lobby")},
    )
