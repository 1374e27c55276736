"""Page views: server-rendered shells; the pages' JS modules talk to the JSON API (cards, decks)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from cards import selectors as card_selectors
from config.errors import ApplicationError
from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.accounts import SignupRateThrottle
from decks.models import Deck
from decks.stats import max_mulligans
from decks.validation import DEFAULT_RULES
from frontend import preferences
from frontend.errors import error_page
from frontend.forms import SignupForm
from frontend.language import normalize
from frontend.models import FormSubmission

# The public-deck sorts in the reader's language (deck_selectors.PUBLIC_SORTS keeps the API's English).
SORT_LABELS = {
    "newest": gettext_lazy("Newest"),
    "liked": gettext_lazy("Most liked"),
    "faction": gettext_lazy("Faction"),
    "updated": gettext_lazy("Recently updated"),
}
MAX_MULLIGANS = max_mulligans()  # C-4.4: the sample hand offers as many mulligans as a match allows


def _safe_next(request: HttpRequest, fallback: str) -> str:
    """The `next` target of a form if it points into this site, else the fallback (no open redirect)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def home(request: HttpRequest) -> HttpResponse:
    """What the app is, with links to cards, decks and play."""
    return render(request, "frontend/home.html")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account with Django's UserCreationForm (plus an optional e-mail) and log the new user in (throttled per address)."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request, reverse("deck-list")))
    if request.method == "POST" and not SignupRateThrottle().allow_request(request, None):
        return error_page(request, 429, hint=_("Accounts are created at a limited rate per address."))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        chosen = normalize(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        if chosen:  # the language picked with the switcher before signing up becomes the account's
            preferences.settings_update(user=user, language=chosen)
        messages.success(
            request, _("Welcome, %(username)s! Your account is ready.") % {"username": user.get_username()}
        )
        return redirect(_safe_next(request, reverse("deck-list")))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request, "")})


def card_list(request: HttpRequest) -> HttpResponse:
    """Card browser: query-language search, filters, tiles, load more (data from /api/cards/)."""
    return render(request, "frontend/cards/list.html", {"initial_query": request.GET.get("q", "")})


def card_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """One card with its ability descriptions (drawn from /api/cards/<slug>/); an unknown card is 404."""
    card = card_selectors.card_get(slug)
    if card is None:
        raise Http404(_("No such card."))
    return render(request, "frontend/cards/detail.html", {"slug": card.slug, "card": card})


@login_required
@require_http_methods(["GET", "POST"])
def deck_list(request: HttpRequest) -> HttpResponse:
    """My decks, public decks (data from /api/decks/) and the "new deck" form, which posts here."""
    if request.method == "POST":
        return _deck_create(request)
    return _deck_list_page(request)


def _deck_list_page(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    """The deck list with a fresh one-time token in its "new deck" form (see FormSubmission)."""
    context = {
        "form_token": secrets.token_urlsafe(16),
        "new_deck_error": error,
        "new_deck": request.POST,
        "import_example": deck_selectors.example_decklist(),
    }
    return render(request, "frontend/decks/list.html", context, status=status)


def _deck_create(request: HttpRequest) -> HttpResponse:
    """Create a deck once per form token and open it in the builder; the same token again (a double
    click, a reload of the POST) opens the deck the first submit created instead of making another."""
    token = request.POST.get("form_token", "")
    name = request.POST.get("name", "").strip()
    faction = request.POST.get("faction") or None
    if "\x00" in token + name + (faction or ""):  # PostgreSQL cannot store NUL: refuse, never a 500
        return _deck_list_page(request, _("The form contains a character that cannot be stored (NUL)."), 400)
    if not 8 <= len(token) <= 64:
        return _deck_list_page(request, _("This form is out of date: it has been reloaded, try again."), 400)
    if not name or len(name) > 100:
        return _deck_list_page(request, _("A deck needs a name of 1 to 100 characters."), 400)
    try:
        with transaction.atomic():
            FormSubmission.objects.filter(created_at__lt=timezone.now() - timedelta(days=1)).delete()
            submission = FormSubmission.objects.create(user=request.user, token=token)
            deck = deck_services.deck_create(owner=request.user, name=name, faction=faction)
            submission.result_url = reverse("deck-builder", args=[deck.pk])
            submission.save(update_fields=["result_url"])
    except IntegrityError:  # this form was submitted already: answer as the first submit did
        earlier = FormSubmission.objects.filter(user=request.user, token=token).first()
        return redirect(earlier.result_url if earlier and earlier.result_url else reverse("deck-list"))
    except ApplicationError as error:
        return _deck_list_page(request, error.message, 400)
    return redirect(submission.result_url)


def _deck_or_404(loader: Callable[..., Deck], **kwargs: Any) -> Deck:
    """A deck through the decks app's access rules; their "not found" becomes the page's 404."""
    try:
        return loader(**kwargs)
    except ApplicationError as error:
        raise Http404(error.message) from error


def deck_public(request: HttpRequest) -> HttpResponse:
    """Browse public decks (no sign-in needed): search, faction, card, sort, pages (from /api/decks/public/)."""
    card = None
    slug = request.GET.get("card", "")
    if slug and len(slug) <= 80:
        card = card_selectors.card_get(slug)
    return render(
        request,
        "frontend/decks/public.html",
        {
            "sorts": [
                (key, str(SORT_LABELS.get(key, label)))
                for key, (label, _o) in deck_selectors.PUBLIC_SORTS.items()
            ],
            "card": card,
        },
    )


def deck_builder(request: HttpRequest, deck_id: int) -> HttpResponse:
    """The builder for the owner; a read-only view of a public deck (also signed out); 404 otherwise (C-3)."""
    if not request.user.is_authenticated:
        try:
            deck_selectors.deck_get_readable(user=request.user, deck_id=deck_id)
        except ApplicationError:  # maybe their own private deck: sign in first
            return redirect_to_login(request.get_full_path())
    deck = _deck_or_404(deck_selectors.deck_get_readable, user=request.user, deck_id=deck_id)
    editable = deck.owner_id == request.user.pk
    return render(
        request,
        "frontend/decks/builder.html" if editable else "frontend/decks/view.html",
        {
            "deck": deck,
            "editable": editable,
            "api_url": f"/api/decks/{deck.pk}/",
            "deck_rules": DEFAULT_RULES,  # C-3: the builder shows "n / min_cards" from the one source
            "import_example": deck_selectors.example_decklist() if editable else "",
            "max_mulligans": MAX_MULLIGANS,
        },
    )


def deck_shared(request: HttpRequest, share_id: str) -> HttpResponse:
    """Read-only view of an unlisted or public deck by its share id; a private deck stays 404."""
    deck = _deck_or_404(deck_selectors.deck_get_shared, share_id=share_id)
    return render(
        request,
        "frontend/decks/view.html",
        {
            "deck": deck,
            "editable": False,
            "api_url": f"/api/decks/shared/{share_id}/",
            "max_mulligans": MAX_MULLIGANS,
        },
    )
