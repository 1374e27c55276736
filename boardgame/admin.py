"""Staff curation of the Westeros data: every edit is checked and refused with the reason (W-1, W-2, W-10, W-17).

Edits that must keep a total (7 house cards of strengths 4,3,2,2,1,1,0 per house; 10 cards per Westeros
deck) are made on the house / deck page, where the whole hand or deck is edited and checked at once.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TranslationTabularInline
from simple_history.admin import SimpleHistoryAdmin

from boardgame.dataset import dataset_errors, game_data_export, layout_export
from boardgame.models import (
    Adjacency,
    Area,
    House,
    HouseCard,
    NeutralForce,
    Port,
    SectionMeta,
    Setup,
    SetupGarrison,
    StartingUnit,
    TrackTable,
    WesterosCard,
    WesterosDeck,
    WildlingCard,
    port_edge_problem,
)
from boardgame.selectors import map_svg
from boardgame.services import (
    area_set_neighbours,
    deck_size_problem,
    hand_strength_problem,
    neighbour_problems,
    port_sync_edges,
    setup_references,
    setup_references_rename,
)
from cards.admin_translation import DataTranslationAdmin
from cards.data_translations import all_languages


class NoBulkDeleteMixin:
    """Deletes go one by one through `delete_view`, which checks and explains (no "delete selected")."""

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)  # type: ignore[misc]
        actions.pop("delete_selected", None)
        return actions


class SetupReferencedMixin(NoBulkDeleteMixin, admin.ModelAdmin):
    """An area or house that set-ups name by slug (W-2): a new slug is carried into the set-ups, and a
    delete is refused, saying where, while a set-up still names it."""

    setup_reference: str  # "area" or "house", as setup_references() calls it

    def save_model(self, request: HttpRequest, obj: Any, form: forms.ModelForm, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "slug" in form.changed_data:
            setup_references_rename(old=form.initial["slug"], new=obj.slug, what=self.setup_reference)

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> HttpResponse:
        obj = self.get_object(request, object_id)
        places = setup_references(slug=obj.slug, what=self.setup_reference) if obj is not None else []
        if not places:
            return super().delete_view(request, object_id, extra_context)
        self.message_user(
            request,
            gettext("%(name)s cannot be deleted: it is named in %(places)s. Edit those set-ups first.")
            % {"name": obj, "places": "; ".join(places)},
            messages.ERROR,
        )
        opts = self.model._meta
        return HttpResponseRedirect(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        )


@admin.register(SectionMeta)
class SectionMetaAdmin(SimpleHistoryAdmin):
    list_display = ["section"]


# ------------------------------------------------------------------ houses and their cards


class HandFormSet(forms.BaseInlineFormSet):
    """The 7 cards of a house, checked together: strengths 4, 3, 2, 2, 1, 1, 0 (W-17.1)."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        strengths = [f.cleaned_data["strength"] for f in self.forms if f.cleaned_data]
        if len(strengths) == 7:
            problem = hand_strength_problem(strengths)
            if problem:
                raise forms.ValidationError(problem)


class HouseCardInline(TranslationTabularInline):  # type: ignore[misc]
    model = HouseCard
    formset = HandFormSet
    fields = ["slug", "name", "strength", "swords", "fortifications", "effect_timing", "effect", "position"]
    extra = 0
    max_num = 7
    can_delete = False
    show_change_link = True


class StartingUnitInline(admin.TabularInline):
    model = StartingUnit
    extra = 0
    autocomplete_fields = ["area"]


@admin.register(House)
class HouseAdmin(SetupReferencedMixin, SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    setup_reference = "house"
    list_display = [
        "name",
        "slug",
        "home",
        "position",
        "supply_level",
        "victory_track",
        "power_tokens_available",
        "influence_iron_throne",
        "influence_fiefdoms",
        "influence_kings_court",
    ]
    search_fields = [*all_languages("name"), "slug"]
    inlines = [StartingUnitInline, HouseCardInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[House]:
        return super().get_queryset(request).prefetch_related("home_areas")

    @admin.display(description=_("home area"))
    def home(self, obj: House) -> str:
        return ", ".join(a.name for a in obj.home_areas.all()) or "—"


class HouseCardForm(forms.ModelForm):
    """A single card edited on its own: refuse a strength that breaks the hand (W-17.1)."""

    class Meta:
        model = HouseCard
        fields = [
            "slug",
            "house",
            "name",
            "strength",
            "swords",
            "fortifications",
            "effect",
            "effect_timing",
            "position",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        house, strength = data.get("house"), data.get("strength")
        if self.instance.pk and house and strength is not None and house.pk == self.instance.house_id:
            others = list(house.house_cards.exclude(pk=self.instance.pk).values_list("strength", flat=True))
            if len(others) == 6:
                problem = hand_strength_problem([*others, strength])
                if problem:
                    raise forms.ValidationError(
                        gettext("%(problem)s Change several cards at once on the house page.")
                        % {"problem": problem}
                    )
        return data


@admin.register(HouseCard)
class HouseCardAdmin(NoBulkDeleteMixin, SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    form = HouseCardForm
    list_display = ["name", "house", "strength", "swords", "fortifications", "effect_timing"]
    list_filter = ["house", "effect_timing", "strength"]
    search_fields = [*all_languages("name"), "slug", *all_languages("effect")]

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> HttpResponse:
        card = self.get_object(request, object_id)
        if card is not None:
            self.message_user(
                request,
                gettext(
                    "%(card)s cannot be deleted: %(house)s must keep exactly 7 house cards (W-17.1). "
                    "Edit the card instead."
                )
                % {"card": card.name, "house": card.house},
                messages.ERROR,
            )
            return HttpResponseRedirect(reverse("admin:boardgame_housecard_change", args=[card.pk]))
        return super().delete_view(request, object_id, extra_context)


# ------------------------------------------------------------------ the map


class PortInline(admin.StackedInline):
    model = Port
    fk_name = "area"
    extra = 0
    max_num = 1
    can_delete = False
    autocomplete_fields = ["land_area", "sea_area"]


class AreaForm(forms.ModelForm):
    """Area edit with its neighbours as one list: adjacency stays symmetric and loop-free (W-10.1)."""

    neighbours = forms.ModelMultipleChoiceField(
        queryset=Area.objects.all(),
        required=False,
        widget=FilteredSelectMultiple(_("neighbours"), is_stacked=False),
        label=_("Neighbours"),
        help_text=_(
            "Areas adjacent to this one (each border is stored once, so both sides see it). "
            "A port's borders come from its port record."
        ),
    )

    class Meta:
        model = Area
        fields = [
            "slug",
            "name",
            "kind",
            "castle",
            "supply",
            "crowns",
            "home_house",
            "island",
            "x",
            "y",
            "outline",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["neighbours"].queryset = Area.objects.exclude(pk=self.instance.pk)
            self.initial["neighbours"] = list(self.instance.neighbour_ids())
        if self.instance.kind == Area.PORT:
            self.fields["neighbours"].disabled = True
            self.fields["neighbours"].help_text = _(
                "A port borders its land area and its sea: edit the port record."
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.instance.pk and data.get("kind") != Area.PORT and "neighbours" in data:
            probe = Area(pk=self.instance.pk, kind=data.get("kind", self.instance.kind))
            for problem in neighbour_problems(area=probe, neighbours=data["neighbours"]):
                self.add_error("neighbours", problem)
        return data


@admin.register(Area)
class AreaAdmin(SetupReferencedMixin, SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    setup_reference = "area"
    form = AreaForm
    list_display = [
        "name",
        "slug",
        "kind",
        "castle",
        "supply",
        "crowns",
        "home_house",
        "island",
        "border_count",
        "drawn",
    ]
    list_filter = ["kind", "castle", "home_house", "island"]
    search_fields = [*all_languages("name"), "slug"]
    inlines = [PortInline]
    fieldsets = [
        (None, {"fields": ["slug", "name", "kind", "castle", "supply", "crowns", "home_house", "island"]}),
        (_("Borders"), {"fields": ["neighbours"]}),
        (_("Drawing on the schematic map"), {"fields": ["x", "y", "outline"], "classes": ["collapse"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Area]:
        return super().get_queryset(request).select_related("home_house")

    @admin.display(description=_("borders"))
    def border_count(self, obj: Area) -> int:
        return Adjacency.objects.filter(Q(area_a=obj) | Q(area_b=obj)).count()

    @admin.display(description=_("drawn"), boolean=True)
    def drawn(self, obj: Area) -> bool:
        return bool(obj.outline)

    def save_related(self, request: HttpRequest, form: forms.ModelForm, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        area = form.instance
        port = Port.objects.filter(area=area).first()
        if port is not None:
            port_sync_edges(port=port)
        elif area.kind != Area.PORT:
            area_set_neighbours(area=area, neighbours=form.cleaned_data.get("neighbours", []))

    def get_urls(self) -> list:
        extra = [
            path(
                "map-preview/",
                self.admin_site.admin_view(self.map_preview),
                name="boardgame_area_map_preview",
            ),
            path("check/", self.admin_site.admin_view(self.check_data), name="boardgame_area_check"),
        ]
        return extra + super().get_urls()

    def map_preview(self, request: HttpRequest) -> HttpResponse:
        """The schematic map drawn from the current data; each area links to its admin page."""
        href = reverse("admin:boardgame_area_changelist") + "?slug={id}"
        svg = map_svg(game_data_export()["map"], layout_export(), href=href)
        return HttpResponse(
            _page(gettext("Westeros map preview"), f'<div style="max-width:1000px">{svg}</div>')
        )

    def check_data(self, request: HttpRequest) -> HttpResponse:
        """Whole-data-set check: what a new game would refuse, listed with reasons."""
        errors = dataset_errors()
        if errors:
            found = ngettext("%(count)d problem:", "%(count)d problems:", len(errors)) % {
                "count": len(errors)
            }
            body = f"<p>{escape(found)}</p><ul>" + "".join(f"<li>{escape(e)}</li>" for e in errors) + "</ul>"
        else:
            body = f"<p>{escape(gettext('The Westeros data set is consistent.'))}</p>"
        return HttpResponse(_page(gettext("Westeros data check"), body))

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        slug = request.GET.get("slug")
        if slug:  # map preview links
            area = Area.objects.filter(slug=slug).first()
            if area:
                return HttpResponseRedirect(reverse("admin:boardgame_area_change", args=[area.pk]))
        extra_context = {
            **(extra_context or {}),
            "title": gettext("Areas (map preview: ./map-preview/, data check: ./check/)"),
        }
        return super().changelist_view(request, extra_context)


def _page(title: str, body: str) -> str:
    back = reverse("admin:boardgame_area_changelist")
    return format_html(
        '<!doctype html><html lang="{}"><head><meta charset="utf-8"><title>{}</title></head>'
        '<body style="font-family:sans-serif;margin:1em"><p><a href="{}">&larr; {}</a></p><h1>{}</h1>{}</body></html>',
        get_language() or "en",
        title,
        back,
        gettext("Areas"),
        title,
        mark_safe(body),  # built from escaped pieces by the callers
    )


class AdjacencyForm(forms.ModelForm):
    class Meta:
        model = Adjacency
        fields = ["area_a", "area_b"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        a, b = data.get("area_a"), data.get("area_b")
        if a and b and a != b:
            problem = port_edge_problem(a, b)
            if problem:
                raise forms.ValidationError(problem)
        return data


@admin.register(Adjacency)
class AdjacencyAdmin(SimpleHistoryAdmin):
    form = AdjacencyForm
    list_display = ["__str__", "area_a", "area_b"]
    list_filter = ["area_a__kind", "area_b__kind"]
    search_fields = ["area_a__name", "area_b__name", "area_a__slug", "area_b__slug"]
    autocomplete_fields = ["area_a", "area_b"]


@admin.register(Port)
class PortAdmin(SimpleHistoryAdmin):
    list_display = ["area", "land_area", "sea_area", "max_ships"]
    search_fields = ["area__name", "land_area__name", "sea_area__name"]
    autocomplete_fields = ["area", "land_area", "sea_area"]

    def save_model(self, request: HttpRequest, obj: Port, form: forms.ModelForm, change: bool) -> None:
        super().save_model(request, obj, form, change)
        port_sync_edges(port=obj)


# ------------------------------------------------------------------ set-ups


class SetupGarrisonInline(admin.TabularInline):
    model = SetupGarrison
    extra = 0
    autocomplete_fields = ["area"]


class NeutralForceInline(admin.TabularInline):
    model = NeutralForce
    extra = 0
    autocomplete_fields = ["area"]


@admin.register(Setup)
class SetupAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "player_count", "houses", "neutral_force_count"]
    inlines = [SetupGarrisonInline, NeutralForceInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Setup]:
        return super().get_queryset(request).annotate(n_forces=Count("neutral_forces"))

    @admin.display(description=_("neutral forces"), ordering="n_forces")
    def neutral_force_count(self, obj: Any) -> int:
        return obj.n_forces


@admin.register(StartingUnit)
class StartingUnitAdmin(SimpleHistoryAdmin):
    list_display = ["house", "unit", "count", "area"]
    list_filter = ["house", "unit"]
    autocomplete_fields = ["area"]


# ------------------------------------------------------------------ Westeros and wildling cards, tracks


class DeckFormSet(forms.BaseInlineFormSet):
    """A Westeros deck's cards, checked together: their counts fill the deck (10 cards, W-1.11)."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        counts = [
            f.cleaned_data["count"]
            for f in self.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE") and f.cleaned_data.get("count")
        ]
        deck = self.instance
        problem = deck_size_problem(deck=deck, counts=counts)
        if problem:
            raise forms.ValidationError(problem)


class WesterosCardInline(TranslationTabularInline):  # type: ignore[misc]
    model = WesterosCard
    formset = DeckFormSet
    fields = [
        "slug",
        "name",
        "count",
        "wildling_icon",
        "effect_type",
        "chooser",
        "options",
        "restricted_orders",
        "position",
    ]
    extra = 0
    show_change_link = True


@admin.register(WesterosDeck)
class WesterosDeckAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "size", "card_total"]
    inlines = [WesterosCardInline]

    @admin.display(description=_("cards"))
    def card_total(self, obj: WesterosDeck) -> int:
        return sum(obj.cards.values_list("count", flat=True))


class WesterosCardForm(forms.ModelForm):
    """A single Westeros card edited on its own: refuse a count or deck change that breaks a deck size."""

    class Meta:
        model = WesterosCard
        fields = [
            "deck",
            "slug",
            "name",
            "count",
            "wildling_icon",
            "effect_type",
            "effect",
            "chooser",
            "options",
            "restricted_orders",
            "position",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        deck, count = data.get("deck"), data.get("count")
        if deck and count:
            others = list(deck.cards.exclude(pk=self.instance.pk).values_list("count", flat=True))
            problem = deck_size_problem(deck=deck, counts=[*others, count])
            if problem:
                raise forms.ValidationError(
                    gettext("%(problem)s Change several cards at once on the deck page.")
                    % {"problem": problem}
                )
            old_deck = self.instance.deck if self.instance.pk else None
            if old_deck and old_deck != deck:
                remaining = list(old_deck.cards.exclude(pk=self.instance.pk).values_list("count", flat=True))
                problem = deck_size_problem(deck=old_deck, counts=remaining)
                if problem:
                    raise forms.ValidationError(problem)
        return data


@admin.register(WesterosCard)
class WesterosCardAdmin(SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    form = WesterosCardForm
    list_display = ["name", "deck", "count", "wildling_icon", "effect_type", "chooser"]
    list_filter = ["deck", "effect_type", "wildling_icon"]
    search_fields = [*all_languages("name"), "slug", *all_languages("effect")]


@admin.register(WildlingCard)
class WildlingCardAdmin(SimpleHistoryAdmin, DataTranslationAdmin):  # type: ignore[misc]
    list_display = ["name", "slug", "position"]
    search_fields = [
        *all_languages("name"),
        "slug",
        *all_languages("highest_bidder", "lowest_bidder", "everyone_else"),
    ]


@admin.register(TrackTable)
class TrackTableAdmin(SimpleHistoryAdmin):
    list_display = ["key", "position"]
    search_fields = ["key"]
