"""Card art: the staff's uploads (checked by their content), their thumbnails, and the placeholder drawn
for a card without art in its faction's colours with its costs (docs/operations.md, "Card art").

Thumbnails are django-imagekit specs (`ART_SIZES`), generated once when the art is saved (the Optimistic
cache-file strategy, config/settings/base.py) and named after the upload, whose file name is new for
every upload: every art URL can be cached for a year. The placeholder's URL carries a version made of
what it draws, so it too is cached for a year and changes when the faction colour or a cost does.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext_lazy as _
from PIL import Image, UnidentifiedImageError

# What staff may upload: formats Pillow recognises from the bytes (never the file's name), and bounds on
# bytes and pixels (a small file may still decode to a huge picture: Pillow's decompression-bomb guard
# is the last line, this the first).
ART_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
ART_MAX_BYTES = 5 * 1024 * 1024
ART_MIN_SIDE = 64
ART_MAX_SIDE = 4096

# The sizes the pages show (CSS pixels x 2 for sharp screens), all 4:3 like the placeholder:
#   thumb  the board's units, the hand, the deck builder's rows (at most 80x60 on screen)
#   card   the card tiles of the card database and the card page (at most 240x180 on screen)
ART_SIZES = {"thumb": (160, 120), "card": (480, 360)}
ART_QUALITY = 82

PLACEHOLDER_WIDTH, PLACEHOLDER_HEIGHT = 160, 120
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def card_art_path(card: Any, filename: str) -> str:
    """Where an upload is stored: a new name for every upload (the card's slug and a random part), so a
    replaced picture never reuses a URL that browsers and the CDN keep for a year. The extension is the
    one of the format Pillow found (`validate_card_art`), not the name the uploader gave."""
    ext = "img"
    handle = _open_upload(card.art)
    try:
        handle.seek(0)
        with Image.open(handle) as image:
            ext = ART_FORMATS.get(str(image.format), ext)
    except (UnidentifiedImageError, OSError, ValueError):
        pass  # validate_card_art has refused such a file already; the name does not matter then
    finally:
        handle.seek(0)
    return f"cards/art/{card.slug or 'card'}-{uuid.uuid4().hex[:12]}.{ext}"


def _open_upload(value: Any) -> Any:
    """The file object behind a model field's value (a FieldFile around an upload, or an upload)."""
    return getattr(value, "file", value)


def validate_card_art(value: Any) -> None:
    """Refuse anything that is not a JPEG, PNG or WebP picture of sensible size, by its content."""
    size = getattr(value, "size", None)
    if size is not None and size > ART_MAX_BYTES:
        raise ValidationError(
            _("The picture is %(size)s MB; at most %(limit)s MB is accepted."),
            code="art_too_large",
            params={"size": f"{size / 1024 / 1024:.1f}", "limit": ART_MAX_BYTES // 1024 // 1024},
        )
    handle = _open_upload(value)
    try:
        handle.seek(0)
        with Image.open(handle) as image:  # reads the header only: dimensions before any decoding
            kind, (width, height) = image.format, image.size
            if kind not in ART_FORMATS:
                raise ValidationError(
                    _("%(kind)s pictures are not accepted: upload a JPEG, PNG or WebP picture."),
                    code="art_format",
                    params={"kind": kind or "?"},
                )
            if max(width, height) > ART_MAX_SIDE or min(width, height) < ART_MIN_SIDE:
                raise ValidationError(
                    _(
                        "The picture is %(width)s×%(height)s pixels; each side must be between "
                        "%(low)s and %(high)s pixels."
                    ),
                    code="art_dimensions",
                    params={"width": width, "height": height, "low": ART_MIN_SIDE, "high": ART_MAX_SIDE},
                )
            image.verify()  # the whole file is read: a truncated or corrupt picture fails here
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise ValidationError(
            _("This file is not a picture (JPEG, PNG or WebP), or it is damaged."), code="art_invalid"
        ) from None
    finally:
        handle.seek(0)


def faction_color(raw: str | None) -> str:
    """A faction's colour as `#rrggbb`; anything else (curated by hand) falls back to grey."""
    return raw if raw and _HEX.match(raw) else "#666666"


def _shade(color: str, factor: float) -> str:
    """`color` darkened (factor < 1) or lightened towards white (factor > 1)."""
    channels = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    if factor <= 1:
        out = [round(c * factor) for c in channels]
    else:
        out = [round(c + (255 - c) * (factor - 1)) for c in channels]
    return "#" + "".join(f"{min(255, max(0, c)):02x}" for c in out)


def placeholder_version(*, color: str, card_type: str, command_cost: int, energy_cost: int) -> str:
    """A short digest of everything the placeholder draws: its URL changes when any of it changes."""
    raw = f"1|{faction_color(color)}|{card_type}|{command_cost}|{energy_cost}"
    return hashlib.sha256(raw.encode()).hexdigest()[:10]


# A unit's placeholder shows a shield, an event's a four-pointed star (no words: it reads in every language).
_EMBLEMS = {
    "unit": "M80 30 L108 40 L108 66 Q108 88 80 100 Q52 88 52 66 L52 40 Z",
    "event": "M80 26 L90 56 L120 64 L90 72 L80 102 L70 72 L40 64 L70 56 Z",
}


def placeholder_svg(*, color: str, card_type: str, command_cost: int, energy_cost: int) -> str:
    """The drawing shown until staff upload art: the faction's colours, the card type's emblem, the
    Command cost (gold, top left) and the Energy cost (blue, top right) as on the card frame (C-1.1)."""
    base = faction_color(color)
    light, dark = _shade(base, 1.35), _shade(base, 0.45)
    emblem = _EMBLEMS.get(card_type, _EMBLEMS["unit"])
    w, h = PLACEHOLDER_WIDTH, PLACEHOLDER_HEIGHT
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
        '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{light}"/><stop offset="1" stop-color="{dark}"/>'
        "</linearGradient></defs>"
        f'<rect width="{w}" height="{h}" fill="url(#g)"/>'
        f'<path d="M0 {h} L{w} {h * 0.55:.0f} L{w} {h} Z" fill="{dark}" opacity="0.35"/>'
        f'<path d="{emblem}" fill="#ffffff" fill-opacity="0.22" stroke="#ffffff" stroke-opacity="0.55" '
        'stroke-width="3" stroke-linejoin="round"/>'
        '<g font-family="system-ui,sans-serif" font-weight="700" font-size="22" text-anchor="middle">'
        '<circle cx="22" cy="22" r="16" fill="#f5c542" stroke="#5a4300" stroke-width="2"/>'
        f'<text x="22" y="30" fill="#3a2b00">{escape(str(command_cost))}</text>'
        f'<circle cx="{w - 22}" cy="22" r="16" fill="#4aa3df" stroke="#0b3a5a" stroke-width="2"/>'
        f'<text x="{w - 22}" y="30" fill="#04263d">{escape(str(energy_cost))}</text>'
        "</g></svg>"
    )


def placeholder_url(card: Any) -> str:
    """The versioned URL of a card's placeholder (cacheable for a year)."""
    version = placeholder_version(
        color=card.faction.color,
        card_type=card.card_type,
        command_cost=card.command_cost,
        energy_cost=card.energy_cost,
    )
    return f"{reverse('card-art-placeholder', kwargs={'slug': card.slug})}?v={version}"


def art_urls(card: Any) -> dict[str, Any]:
    """What a page needs to show a card's picture: `thumb` and `card` URLs (the placeholder's while there
    is no art), `full` (the upload, or None) and `placeholder` (True while the card has no art)."""
    if card.art:
        return {
            "thumb": card.art_thumb.url,
            "card": card.art_card.url,
            "full": card.art.url,
            "placeholder": False,
        }
    url = placeholder_url(card)
    return {"thumb": url, "card": url, "full": None, "placeholder": True}


# A match's card catalog is built for every view it serves: the cards' picture URLs come from the cache
# (kept an hour, dropped when a card or its faction is saved: `forget_art`), not one query per view.
ART_CACHE_S = 3600


def _art_key(name: str) -> str:
    return "card-art:v1:" + hashlib.sha256(name.encode()).hexdigest()[:32]


def art_by_name(names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """{English card name: its `art_urls`} for the cards the database holds, for pages that name cards by
    their English name (a match's card catalog); from the cache, else one query for those not in it."""
    from cards.models import Card

    wanted = sorted(set(names))
    if not wanted:
        return {}
    keys = {name: _art_key(name) for name in wanted}
    cached = cache.get_many(list(keys.values()))
    found = {name: cached[key] for name, key in keys.items() if key in cached}
    missing = [name for name in wanted if name not in found]
    if missing:
        rows = (
            Card.objects.rewrite(False)  # type: ignore[attr-defined]
            .filter(name_en__in=missing)
            .select_related("faction")
            .only("name_en", "slug", "card_type", "command_cost", "energy_cost", "art", "faction__color")
        )
        fresh: dict[str, dict[str, Any]] = {name: {} for name in missing}  # {}: no such card, remembered too
        fresh.update({str(card.name_en): art_urls(card) for card in rows})
        cache.set_many({keys[name]: urls for name, urls in fresh.items()}, ART_CACHE_S)
        found.update(fresh)
    return {name: urls for name, urls in found.items() if urls}


def forget_art(names: Iterable[str]) -> None:
    """Drop cached picture URLs (a card's art, costs or faction colour changed)."""
    cache.delete_many([_art_key(name) for name in set(names) if name])


def card_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save of a card: its picture URLs may have changed."""
    forget_art([str(getattr(instance, "name_en", "") or instance.name)])


def faction_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save of a faction: the placeholders of its cards carry its colour."""
    forget_art(instance.cards.values_list("name_en", flat=True))
