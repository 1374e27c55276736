"""Template marks for curated game data read in the viewer's language (docs/i18n-data.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from cards.data_translations import untranslated_fields

register = template.Library()


@register.simple_tag
def untranslated_mark(record: Any, field: str = "name") -> SafeString | str:
    """A small mark after a text shown in English because it has no translation in the viewer's
    language yet: `record` is a model row (cards, Westeros data) or a localised data record with an
    `untranslated` list (boardgame.selectors.localise_game_data). Nothing when it is translated."""
    if isinstance(record, Mapping):
        fields = record.get("untranslated") or []
    else:
        fields = untranslated_fields(record, (field,))
    if field not in fields:
        return ""
    label = _("Not yet translated")
    return format_html(
        '<span class="untranslated" lang="en" title="{}" aria-label="{}">*</span>', label, label
    )
