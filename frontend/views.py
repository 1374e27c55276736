"""Page views: server-rendered shells; the pages' JS modules talk to the JSON API (cards, decks)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from cards import selectors as card_selectors
from config.errors import ApplicationError
from decks import selectors as deck_selectors
from decks.models import Deck
from decks.validation import DEFAULT_RULES


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
    """Create an account with Django's UserCreationForm and log the new user in."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request, reverse("deck-list")))
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}! Your account is ready.")
        return redirect(_safe_next(request, reverse("deck-list")))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request, "")})


def card_list(request: HttpRequest) -> HttpResponse:
    """Card browser: query-language search, filters, tiles, load more (data from /api/cards/)."""
    return render(request, "frontend/cards/list.html", {"initial_query": request.GET.get("q", "")})


def card_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """One card with its ability descriptions (drawn from /api/cards/<slug>/); an unknown card is 404."""
    card = card_selectors.card_get(slug)
    if card is None:
        raise Http404("No such card.")
    return render(request, "frontend/cards/detail.html", {"slug": card.slug, "card": card})


@login_required
def deck_list(request: HttpRequest) -> HttpResponse:
    """My decks, public decks and a "new deck" form (data from /api/decks/)."""
    return render(request, "frontend/decks/list.html")


def _deck_or_404(loader: Callable[..., Deck], **kwargs: Any) -> Deck:
    """A deck through the decks app's access rules; their "not found" becomes the page's 404."""
    try:
        return loader(**kwargs)
    except ApplicationError as error:
        raise Http404(error.message) from error


@login_required
def deck_builder(request: HttpRequest, deck_id: int) -> HttpResponse:
    """The builder for the owner; a read-only view of someone else's public deck; 404 otherwise (C-3)."""
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
        },
    )


def deck_shared(request: HttpRequest, share_id: str) -> HttpResponse:
    """Read-only view of an unlisted or public deck by its share id; a private deck stays 404."""
    deck = _deck_or_404(deck_selectors.deck_get_shared, share_id=share_id)
    return render(
        request,
        "frontend/decks/view.html",
        {"deck": deck, "editable": False, "api_url": f"/api/decks/shared/{share_id}/"},
    )
