"""Engine messages (``matches.engine.messages.Msg``) rendered in the active language for the deck builder.

The key is looked up in the engine's catalogue (``matches/engine/locale``), then each parameter is rendered:
``{"card": <English name>}`` as the card's name in the active language (modeltranslation columns, English
when a card has no translation), ``{"term": …}`` and nested messages through the catalogue, lists joined.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import get_language, gettext, pgettext

from matches.engine.messages import Msg


def _language_column() -> str | None:
    """The modeltranslation column suffix of the active language, or None for English (the source)."""
    code = (get_language() or "en").lower()
    if code.startswith("en"):
        return None
    return code.replace("-", "_")


def card_names(english_names: Iterable[str]) -> dict[str, str]:
    """Each English card name → its name in the active language (itself where no translation exists)."""
    names = {n for n in english_names if n}
    column = _language_column()
    if column is None or not names:
        return {n: n for n in names}
    from cards.models import Card  # not at import: validation runs on plain data too

    found: dict[str, str] = {}
    rows = Card.objects.filter(name_en__in=names).values_list("name_en", f"name_{column}")
    for english, translated in rows:
        found[english] = translated or english
    return {n: found.get(n, n) for n in names}


def faction_names(slugs: Iterable[str]) -> dict[str, str]:
    """Each faction slug → its name in the active language (modeltranslation's `name`, English where the
    faction has no translation); a slug no faction has stays as it is."""
    wanted = {s for s in slugs if s}
    if not wanted:
        return {}
    from cards.models import Faction  # not at import: validation runs on plain data too

    found = {f.slug: str(f.name) for f in Faction.objects.filter(slug__in=wanted)}
    return {s: found.get(s, s) for s in wanted}


def _cards_in(value: Any, into: set[str]) -> None:
    if isinstance(value, dict):
        if "card" in value:
            into.add(str(value["card"]))
        elif "msg" in value:
            for v in Msg.from_json(value["msg"]).params.values():
                _cards_in(v, into)
        elif "list" in value:
            for v in value["list"]:
                _cards_in(v, into)


def render(message: Msg, names: dict[str, str] | None = None) -> str:
    """``message`` in the active language; ``names`` (English → shown name) saves the card look-ups."""
    if names is None:
        wanted: set[str] = set()
        for v in message.params.values():
            _cards_in(v, wanted)
        names = card_names(wanted)
    template = gettext(message.key)
    if not message.params:
        return template
    return template % {k: _param(v, names) for k, v in message.params.items()}


def _param(value: Any, names: dict[str, str]) -> str:
    if isinstance(value, dict):
        if "card" in value:
            return names.get(str(value["card"]), str(value["card"]))
        if "term" in value:
            return gettext(str(value["term"]))
        if "msg" in value:
            return render(Msg.from_json(value["msg"]), names)
        if "list" in value:
            # Translators: the separator between the items of a list ("a, b, c"; Chinese uses "、").
            return pgettext("list separator", ", ").join(_param(v, names) for v in value["list"])
    return str(value)
