"""Card art over HTTP: the placeholder drawing of a card without art, and uploaded files when this site
stores them on its own disk (cards/art.py; docs/operations.md, "Card art")."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe
from django.views.static import serve

from cards.art import ART_SIZES, art_urls, placeholder_svg, placeholder_version
from cards.models import Card

# A placeholder asked for by an old version (its costs or colour changed since) is answered with today's
# drawing but kept only briefly, so that the page's next load asks for the new URL.
STALE_MAX_AGE_S = 300


@require_safe
def placeholder(request: HttpRequest, slug: str) -> HttpResponse:
    """A card's placeholder as SVG; `?v=` is the version the page was given (cards.art.placeholder_url)."""
    card = get_object_or_404(
        Card.objects.select_related("faction").only(
            "slug", "card_type", "command_cost", "energy_cost", "faction__color"
        ),
        slug=slug,
    )
    facts = {
        "color": card.faction.color,
        "card_type": card.card_type,
        "command_cost": card.command_cost,
        "energy_cost": card.energy_cost,
    }
    version = placeholder_version(**facts)
    response = HttpResponse(placeholder_svg(**facts), content_type="image/svg+xml")
    response["ETag"] = f'"{version}"'
    if request.GET.get("v") == version:
        response["Cache-Control"] = settings.MEDIA_CACHE_CONTROL
    else:
        patch_cache_control(response, public=True, max_age=STALE_MAX_AGE_S)
    # An SVG opened on its own is a document: no script, nothing loaded from anywhere.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@require_safe
def current(request: HttpRequest, slug: str, size: str) -> HttpResponseRedirect:
    """A redirect to the card's picture as it is now (its art, else its placeholder), for a page that knows
    a card only by its slug (a saved deck's rows); kept briefly, since staff may upload art at any time."""
    if size not in ART_SIZES:
        raise Http404
    card = get_object_or_404(Card.objects.select_related("faction"), slug=slug)
    response = HttpResponseRedirect(art_urls(card)[size])
    patch_cache_control(response, public=True, max_age=STALE_MAX_AGE_S)
    return response


@require_safe
def media(request: HttpRequest, path: str) -> HttpResponseBase:
    """An uploaded file from MEDIA_ROOT with a year's cache lifetime (every stored name is new for each
    upload). Only for a site that keeps uploads on its own disk; nginx or the object store does it otherwise."""
    if not settings.MEDIA_SERVED_BY_DJANGO:
        raise Http404
    response = serve(request, path, document_root=settings.MEDIA_ROOT)
    response["Cache-Control"] = settings.MEDIA_CACHE_CONTROL
    response["Content-Security-Policy"] = "default-src 'none'"
    return response
