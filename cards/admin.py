"""Staff curation of the card database: readable arrows and abilities, consistency checks, history."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from cards.admin_translation import DataTranslationAdmin
from cards.art import art_urls
from cards.data_translations import all_languages
from cards.describe import describe_abilities
from cards.models import DIRECTIONS, Card, Faction, Keyword, card_field_errors
from cards.search import QuerySyntaxError, parse_query
from cards.services import canonical_arrows
from matches.engine.vocabulary import KEYWORDS

# The compass as a 3x3 grid, "N" at the top (C-1.2: toward the opponent).
COMPASS_ROWS = (("NW", "N", "NE"), ("W", "", "E"), ("SW", "S", "SE"))
ARROW_GLYPHS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}


def arrows_compass_html(arrows: Any, *, size: int = 14) -> SafeString:
    """A small 3×3 compass: the card's attack directions lit, the others faint."""
    lit = set(arrows) if isinstance(arrows, list) else set()
    cell = (
        f"width:{size}px;height:{size}px;line-height:{size}px;text-align:center;padding:0;"
        f"font-size:{max(size - 3, 8)}px;border:1px solid #ddd;"
    )
    rows = []
    for row in COMPASS_ROWS:
        cells = []
        for direction in row:
            if not direction:
                cells.append(format_html('<td style="{}background:#eee">●</td>', cell))
            elif direction in lit:
                cells.append(
                    format_html(
                        '<td style="{}background:#c0392b;color:#fff" title="{}">{}</td>',
                        cell,
                        direction,
                        ARROW_GLYPHS[direction],
                    )
                )
            else:
                cells.append(format_html('<td style="{}color:#ccc" title="{}">·</td>', cell, direction))
        rows.append(format_html("<tr>{}</tr>", mark_safe("".join(cells))))
    label = " ".join(a for a in DIRECTIONS if a in lit) or gettext("no arrows")
    return format_html(
        '<table style="border-collapse:collapse;display:inline-table" aria-label="{}" title="{}">{}</table>',
        label,
        label,
        mark_safe("".join(rows)),
    )


def abilities_html(abilities: Any) -> SafeString:
    """Abilities in plain words as a list (generated from the structured data)."""
    lines = describe_abilities(abilities)
    if not lines:
        return format_html("<em>{}</em>", gettext("no abilities"))
    return format_html(
        "<ul style='margin:0;padding-left:1.2em'>{}</ul>",
        format_html_join("", "<li>{}</li>", ((line,) for line in lines)),
    )


class CardAdminForm(forms.ModelForm):
    """Card form: arrows as checkboxes; clean() refuses inconsistent cards, naming the field (C-1)."""

    arrows = forms.MultipleChoiceField(
        choices=[(d, d) for d in DIRECTIONS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Arrows"),
        help_text=_("Units only: attack directions, N toward the opponent (C-1.2)."),
    )

    class Meta:
        model = Card
        fields = (
            "name",
            "slug",
            "faction",
            "card_type",
            "command_cost",
            "energy_cost",
            "power",
            "health",
            "arrows",
            "legendary",
            "unique",
            "event_type",
            "keywords",
            "rules_text",
            "abilities",
            "flavor_text",
            "art",
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        keywords = cleaned.get("keywords")
        errors = card_field_errors(
            card_type=cleaned.get("card_type", ""),
            power=cleaned.get("power"),
            health=cleaned.get("health"),
            arrows=canonical_arrows(list(cleaned.get("arrows") or [])),
            legendary=bool(cleaned.get("legendary")),
            unique=bool(cleaned.get("unique")),
            event_type=cleaned.get("event_type") or "",
            abilities=cleaned.get("abilities") if cleaned.get("abilities") is not None else [],
            keyword_codes=[k.code for k in keywords] if keywords is not None else None,
        )
        for field_name, field_messages in errors.items():
            for message in field_messages:
                self.add_error(field_name if field_name in self.fields else None, message)
        if "arrows" in cleaned:
            cleaned["arrows"] = canonical_arrows(list(cleaned["arrows"]))
        return cleaned

    def add_error(self, field: str | None, error: Any) -> None:
        """Skip messages already shown: the model's clean() repeats card_field_errors after ours."""
        if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            fresh: dict[str, list[ValidationError]] = {}
            for name, errs in error.error_dict.items():
                shown = set((self._errors or {}).get(name, []))
                kept = [e for e in errs if " ".join(e.messages) not in shown]
                if kept:
                    fresh[name] = kept
            if not fresh:
                return
            error = ValidationError(fresh)
        elif field is not None and self._errors and field in self._errors:
            text = error if isinstance(error, str) else " ".join(getattr(error, "messages", [str(error)]))
            if text in set(self._errors[field]):
                return
        super().add_error(field, error)


@admin.register(Card)
class CardAdmin(SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    form = CardAdminForm
    list_display = (
        "name",
        "faction",
        "card_type",
        "command_cost",
        "energy_cost",
        "power_health",
        "arrows_compass",
        "legendary",
        "unique",
        "event_type",
    )
    list_filter = ("faction", "card_type", "event_type", "command_cost", "keywords", "legendary", "unique")
    list_select_related = ("faction",)
    search_fields = all_languages("name", "rules_text")
    search_help_text = _(
        "Name or rules text; the card search language works too, e.g. f:ember t:unit pow>=3000 -kw:spoil"
    )
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("keywords",)
    readonly_fields = (
        "arrows_compass_large",
        "abilities_in_words",
        "art_preview",
        "created_at",
        "updated_at",
    )
    fieldsets = (
        (None, {"fields": ("name", "slug", "faction", "card_type", "command_cost", "energy_cost")}),
        (_("Unit"), {"fields": ("power", "health", "arrows", "arrows_compass_large", "legendary")}),
        (_("Event"), {"fields": ("event_type", "unique")}),
        (
            _("Text and abilities"),
            {
                "fields": ("keywords", "rules_text", "abilities", "abilities_in_words", "flavor_text"),
                "description": _(
                    "Abilities are JSON in the vocabulary of docs/card-abilities.md; "
                    "the plain-words summary below is generated from it."
                ),
            },
        ),
        (_("Art"), {"fields": ("art", "art_preview")}),
        (_("History"), {"fields": ("created_at", "updated_at")}),
    )

    @admin.display(description=_("Art as the pages show it"))
    def art_preview(self, card: Card) -> SafeString:
        """The card tile's size and the board's thumbnail, or the placeholder while there is no art."""
        if not card.pk:
            return format_html("{}", "—")
        urls = art_urls(card)
        return format_html(
            '<img src="{}" alt="" width="240" height="180" style="object-fit:cover;border-radius:6px"> '
            '<img src="{}" alt="" width="80" height="60" style="object-fit:cover;border-radius:4px">',
            urls["card"],
            urls["thumb"],
        )

    @admin.display(description=_("Power / Health"))
    def power_health(self, card: Card) -> str:
        if not card.is_unit:
            return "—"
        return f"{card.power} / {card.health}"

    @admin.display(description=_("Arrows"))
    def arrows_compass(self, card: Card) -> SafeString:
        return arrows_compass_html(card.arrows) if card.is_unit else format_html("{}", "—")

    @admin.display(description=_("Arrows (compass)"))
    def arrows_compass_large(self, card: Card) -> SafeString:
        return arrows_compass_html(card.arrows, size=22)

    @admin.display(description=_("Abilities in plain words"))
    def abilities_in_words(self, card: Card) -> SafeString:
        return abilities_html(card.abilities)

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Card], search_term: str
    ) -> tuple[QuerySet[Card], bool]:
        """Search with the card query language; fall back to plain name/text search if malformed."""
        if not search_term.strip():
            return queryset, False
        try:
            return queryset.filter(parse_query(search_term)), False
        except QuerySyntaxError as exc:
            messages.warning(
                request,
                gettext("Search: %(problem)s; searched the words instead.") % {"problem": exc.message},
            )
            return super().get_search_results(request, queryset, search_term)


@admin.register(Faction)
class FactionAdmin(SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    list_display = ("name", "slug", "swatch", "card_count")
    search_fields = (*all_languages("name"), "slug")
    prepopulated_fields = {"slug": ("name",)}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Faction]:
        return super().get_queryset(request).annotate(card_total=Count("cards"))

    @admin.display(description=_("Colour"))
    def swatch(self, faction: Faction) -> SafeString:
        return format_html(
            '<span style="display:inline-block;width:1.2em;height:1.2em;background:{};'
            'border:1px solid #999;vertical-align:middle"></span> {}',
            faction.color,
            faction.color,
        )

    @admin.display(description=_("Cards"), ordering="card_total")
    def card_count(self, faction: Faction) -> int:
        return getattr(faction, "card_total", 0)


class KeywordAdminForm(forms.ModelForm):
    """Keyword codes come from the rules engine's vocabulary (C-7); pick one instead of typing it."""

    code = forms.ChoiceField(choices=[(code, code) for code in KEYWORDS])

    class Meta:
        model = Keyword
        fields = ("code", "name", "reminder_text")


@admin.register(Keyword)
class KeywordAdmin(SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    form = KeywordAdminForm
    list_display = ("name", "code", "reminder_text", "card_count")
    search_fields = (*all_languages("name"), "code", *all_languages("reminder_text"))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Keyword]:
        return super().get_queryset(request).annotate(card_total=Count("cards"))

    @admin.display(description=_("Cards"), ordering="card_total")
    def card_count(self, keyword: Keyword) -> int:
        return getattr(keyword, "card_total", 0)
