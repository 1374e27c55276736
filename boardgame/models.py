"""Admin-curated Westeros data (W-1, W-2, W-10, W-11): map, houses, set-ups, cards and track tables.

The rules engine never reads these tables directly: `dataset.game_data_export()` turns them into the
six-section dict of `boardgame/data/westeros/*.json`, which a new game copies. An edit here therefore
changes the next game, never a running one. Row-level checks live in `clean()`; checks that need the
whole data set (7 cards per house, deck sizes, connectivity...) live in `validation.game_data_errors`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import translation
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from boardgame.card_validation import westeros_card_errors
from boardgame.data_format import (
    DOMINANCE_TOKENS,
    HOUSE_CARD_TIMINGS,
    TRACK_TABLE_KEYS,
    UNIT_TYPES,
    WESTEROS_EFFECT_TYPES,
    outline_problem,
)
from boardgame.track_validation import track_table_errors
from boardgame.validation import setup_field_errors

ID_HELP = _("Stable snake_case id used by the rules engine and the JSON files, e.g. kings_landing.")
ORDER_HELP = _("Export order (lower first); rows with equal values are ordered by id.")
SECTIONS = ("map", "setup", "house_cards", "westeros_cards", "wildling_cards", "tracks", "layout")


class EnglishSourceModel(models.Model):
    """Saves in the source language, so the untranslated column and the history's always hold English.

    The translated fields (translation.py) read the viewer's language; writing `name` while Thai is active
    would otherwise copy the Thai text into the source column.
    """

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        with translation.override(settings.MODELTRANSLATION_DEFAULT_LANGUAGE):
            super().save(*args, **kwargs)


class SectionMeta(models.Model):
    """Header of one data section (schema_version, game, notes, rule texts): the keys no table holds."""

    section = models.CharField(
        max_length=20, unique=True, choices=[(s, s) for s in SECTIONS], verbose_name=_("section")
    )
    data = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("JSON object; keys are copied into the export."),
        verbose_name=_("data"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("section headers")
        ordering = ["section"]
        verbose_name = _("section header")

    def __str__(self) -> str:
        return self.section

    def clean(self) -> None:
        if not isinstance(self.data, dict):
            raise ValidationError({"data": gettext("A section header must be a JSON object.")})


class House(EnglishSourceModel):
    """A Great House (W-1.1) with its player-screen start values (W-2.1, W-2.2, W-2.3)."""

    slug = models.SlugField(max_length=40, unique=True, help_text=ID_HELP, verbose_name=_("slug"))
    name = models.CharField(max_length=60, unique=True, verbose_name=_("name"))
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )
    power_tokens_available = models.PositiveSmallIntegerField(
        default=5, verbose_name=_("power tokens available")
    )
    power_tokens_total = models.PositiveSmallIntegerField(default=20, verbose_name=_("power tokens total"))
    supply_level = models.PositiveSmallIntegerField(
        default=2, validators=[MaxValueValidator(6)], verbose_name=_("supply level")
    )
    victory_track = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(7)], verbose_name=_("victory track")
    )
    garrison_strength = models.PositiveSmallIntegerField(
        default=2,
        help_text=_("Garrison on the home area (W-11.2)."),
        verbose_name=_("garrison strength"),
    )
    influence_iron_throne = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1)],
        help_text=_("6-player start position (1 = top)."),
        verbose_name=_("influence: Iron Throne"),
    )
    influence_fiefdoms = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)], verbose_name=_("influence: Fiefdoms")
    )
    influence_kings_court = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)], verbose_name=_("influence: King's Court")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("house")
        verbose_name_plural = _("houses")
        ordering = ["position", "slug"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.power_tokens_available > self.power_tokens_total:
            raise ValidationError(
                {
                    "power_tokens_available": gettext(
                        "A house cannot start with more available power than it owns (W-1.7)."
                    )
                }
            )


class Area(EnglishSourceModel):
    """One of the board's areas (W-1.2): land, sea or port, with icons and its drawing on the map."""

    LAND, SEA, PORT = "land", "sea", "port"
    KINDS = [(LAND, _("land")), (SEA, _("sea")), (PORT, _("port"))]
    CASTLES = [("none", _("none")), ("castle", _("castle")), ("stronghold", _("stronghold"))]

    slug = models.SlugField(max_length=60, unique=True, help_text=ID_HELP, verbose_name=_("slug"))
    name = models.CharField(max_length=80, unique=True, verbose_name=_("name"))
    kind = models.CharField(max_length=4, choices=KINDS, verbose_name=_("kind"))
    castle = models.CharField(max_length=10, choices=CASTLES, default="none", verbose_name=_("castle"))
    supply = models.PositiveSmallIntegerField(
        default=0, help_text=_("Supply barrel icons."), verbose_name=_("supply")
    )
    crowns = models.PositiveSmallIntegerField(
        default=0, help_text=_("Power crown icons."), verbose_name=_("crowns")
    )
    home_house = models.ForeignKey(
        House,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="home_areas",
        verbose_name=_("home house"),
    )
    island = models.BooleanField(
        default=False,
        help_text=_("Land area touching no other land area (W-10.2)."),
        verbose_name=_("island"),
    )
    x = models.FloatField(
        default=0, help_text=_("Label position on the schematic map (viewbox units)."), verbose_name=_("x")
    )
    y = models.FloatField(default=0, verbose_name=_("y"))
    outline = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Polygon [[x, y], ...] on the schematic map."),
        verbose_name=_("outline"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("area")
        verbose_name_plural = _("areas")
        ordering = ["kind", "slug"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.kind != self.LAND:
            if self.castle != "none" or self.supply or self.crowns:
                errors["castle"] = gettext(
                    "Sea areas and ports carry no castle, supply or crown icons (W-1.2)."
                )
            if self.home_house_id:
                errors["home_house"] = gettext("Only a land area can be a home area (W-1.2).")
            if self.island:
                errors["island"] = gettext("Only a land area can be an island (W-10.2).")
        if self.home_house_id and self.castle != "stronghold":
            errors["castle"] = gettext("A home area is a stronghold (W-1.2).")
        if self.pk:
            if self.kind != self.PORT and Port.objects.filter(area_id=self.pk).exists():
                errors["kind"] = gettext("This area is described as a port; delete its port record first.")
            if self.kind != self.LAND and Port.objects.filter(land_area_id=self.pk).exists():
                errors["kind"] = gettext("A port belongs to this area, so it must stay a land area (W-1.2).")
            if self.castle == "none" and Port.objects.filter(land_area_id=self.pk).exists():
                errors["castle"] = gettext(
                    "This area has a port; a port belongs to a castle or stronghold area (W-1.2)."
                )
        outline_error = outline_problem(self.outline)
        if outline_error:
            errors["outline"] = outline_error
        if errors:
            raise ValidationError(errors)

    def neighbour_ids(self) -> set[int]:
        """Primary keys of every adjacent area (edges are stored once, so both columns are read)."""
        pairs = Adjacency.objects.filter(Q(area_a_id=self.pk) | Q(area_b_id=self.pk)).values_list(
            "area_a_id", "area_b_id"
        )
        return {b if a == self.pk else a for a, b in pairs}


class Adjacency(models.Model):
    """An undirected border between two areas (W-10.1), stored once with area_a.pk < area_b.pk.

    The storage makes adjacency symmetric by construction: `b in neighbours(a)` iff `a in neighbours(b)`.
    """

    area_a = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+", verbose_name=_("area a"))
    area_b = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+", verbose_name=_("area b"))

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("adjacency")
        verbose_name_plural = _("adjacencies")
        ordering = ["area_a__slug", "area_b__slug"]
        constraints = [
            models.UniqueConstraint(fields=["area_a", "area_b"], name="adjacency_once"),
            models.CheckConstraint(
                condition=Q(area_a__lt=F("area_b")), name="adjacency_ordered_no_self_loop"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.area_a} – {self.area_b}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.area_a_id and self.area_b_id and self.area_a_id > self.area_b_id:
            self.area_a_id, self.area_b_id = self.area_b_id, self.area_a_id
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if not (self.area_a_id and self.area_b_id):
            return
        if self.area_a_id == self.area_b_id:
            raise ValidationError(gettext("An area is never adjacent to itself (W-10.1)."))
        a, b = sorted((self.area_a_id, self.area_b_id))
        if Adjacency.objects.filter(area_a_id=a, area_b_id=b).exclude(pk=self.pk).exists():
            raise ValidationError(
                gettext(
                    "%(first)s and %(second)s are already adjacent; adjacency is symmetric and each "
                    "border is stored once (W-10.1)."
                )
                % {"first": self.area_a, "second": self.area_b}
            )
        problem = port_edge_problem(self.area_a, self.area_b)
        if problem:
            raise ValidationError(problem)


def port_edge_problem(first: Area, second: Area) -> str | None:
    """Why a border between these areas breaks the port rule (W-1.2, W-10.4), or None."""
    for port_area, other in ((first, second), (second, first)):
        if port_area.kind != Area.PORT:
            continue
        port = Port.objects.filter(area=port_area).first()
        if port is None:
            return gettext("%(port)s is a port without a port record; add its land and sea area first.") % {
                "port": port_area
            }
        if other.pk not in (port.land_area_id, port.sea_area_id):
            return gettext(
                "%(port)s may only border its land area (%(land)s) and its sea (%(sea)s), not %(other)s (W-10.4)."
            ) % {"port": port_area, "land": port.land_area, "sea": port.sea_area, "other": other}
    return None


class Port(models.Model):
    """A port (W-1.2, W-10.4): belongs to a castle/stronghold land area and opens onto one adjacent sea."""

    area = models.OneToOneField(
        Area, on_delete=models.CASCADE, related_name="port_info", verbose_name=_("area")
    )
    land_area = models.OneToOneField(
        Area, on_delete=models.PROTECT, related_name="port_of", verbose_name=_("land area")
    )
    sea_area = models.ForeignKey(
        Area, on_delete=models.PROTECT, related_name="ports_opening_here", verbose_name=_("sea area")
    )
    max_ships = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1)], verbose_name=_("max ships")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("port")
        verbose_name_plural = _("ports")
        ordering = ["area__slug"]

    def __str__(self) -> str:
        return str(self.area) if self.area_id else gettext("port")

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.area_id and self.area.kind != Area.PORT:
            errors["area"] = gettext("%(area)s is a %(kind)s area, not a port.") % {
                "area": self.area,
                "kind": self.area.get_kind_display(),
            }
        if self.land_area_id:
            land = self.land_area
            if land.kind != Area.LAND:
                errors["land_area"] = gettext(
                    "%(area)s is not a land area; a port belongs to a land area (W-1.2)."
                ) % {"area": land}
            elif land.castle not in ("castle", "stronghold"):
                errors["land_area"] = gettext(
                    "%(area)s has no castle or stronghold, so it cannot have a port (W-1.2)."
                ) % {"area": land}
        if self.sea_area_id:
            sea = self.sea_area
            if sea.kind != Area.SEA:
                errors["sea_area"] = gettext(
                    "%(area)s is not a sea area; a port opens onto a sea (W-1.2)."
                ) % {"area": sea}
            elif self.land_area_id and sea.pk not in self.land_area.neighbour_ids():
                errors["sea_area"] = gettext(
                    "%(sea)s is not adjacent to %(land)s; a port opens onto an adjacent sea."
                ) % {"sea": sea, "land": self.land_area}
        if self.area_id and not errors:
            allowed = {self.land_area_id, self.sea_area_id}
            if self.pk:  # the borders to the old land and sea are replaced when the port is saved
                allowed |= set(
                    Port.objects.filter(pk=self.pk).values_list("land_area_id", "sea_area_id").first() or ()
                )
            others = Area.objects.filter(pk__in=self.area.neighbour_ids() - allowed)
            if others.exists():
                names = ", ".join(str(a) for a in others)
                errors["area"] = gettext(
                    "A port borders only its land and its sea; remove its border with %(areas)s first."
                ) % {"areas": names}
        if errors:
            raise ValidationError(errors)


# The unit types' names in the admin (glossary: footman, knight, ship, siege engine).
UNIT_NAMES = {
    "footman": _("footman"),
    "knight": _("knight"),
    "ship": _("ship"),
    "siege_engine": _("siege engine"),
}


class StartingUnit(models.Model):
    """Units a house places at set-up (W-2.1)."""

    UNITS = [(u, UNIT_NAMES.get(u, u.replace("_", " "))) for u in UNIT_TYPES]

    house = models.ForeignKey(
        House, on_delete=models.CASCADE, related_name="starting_units", verbose_name=_("house")
    )
    area = models.ForeignKey(Area, on_delete=models.PROTECT, related_name="+", verbose_name=_("area"))
    unit = models.CharField(max_length=12, choices=UNITS, verbose_name=_("unit"))
    count = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)], verbose_name=_("count")
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("starting unit")
        verbose_name_plural = _("starting units")
        ordering = ["house__position", "position", "id"]

    def __str__(self) -> str:
        return gettext("%(count)s %(unit)s in %(area)s") % {
            "count": self.count,
            "unit": self.get_unit_display(),
            "area": self.area,
        }

    def clean(self) -> None:
        if not (self.area_id and self.unit):
            return
        kind = self.area.kind
        if self.unit == "ship" and kind == Area.LAND:
            raise ValidationError({"area": gettext("Ships stand only in sea areas and ports (W-1.3).")})
        if self.unit != "ship" and kind != Area.LAND:
            raise ValidationError(
                {"area": gettext("Footmen, knights and siege engines stand only in land areas (W-1.3).")}
            )


class Setup(models.Model):
    """Start of a game for one player count (W-2): houses in play, tracks, tokens, impassable areas."""

    player_count = models.PositiveSmallIntegerField(
        unique=True,
        validators=[MinValueValidator(3), MaxValueValidator(6)],
        verbose_name=_("player count"),
    )
    houses = models.JSONField(
        default=list,
        help_text=_('House ids in play, e.g. ["stark", "lannister", "baratheon"].'),
        verbose_name=_("houses"),
    )
    influence_tracks = models.JSONField(
        default=dict,
        help_text=_('{"iron_throne": [...], "fiefdoms": [...], "kings_court": [...]}, top first.'),
        verbose_name=_("influence tracks"),
    )
    dominance_token_holders = models.JSONField(
        default=dict,
        help_text=_('{"iron_throne": house, "valyrian_steel_blade": house, "messenger_raven": house}'),
        verbose_name=_("dominance token holders"),
    )
    impassable_areas = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Area ids no unit may enter (W-2.4)."),
        verbose_name=_("impassable areas"),
    )
    kings_court_special_orders = models.JSONField(
        default=list,
        help_text=_("Special orders per King's Court position, e.g. [3, 2, 1]."),
        verbose_name=_("King's Court special orders"),
    )
    variant_notes = models.JSONField(
        null=True,
        blank=True,
        help_text=_("Optional list of notes (exported if set)."),
        verbose_name=_("variant notes"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("setup")
        verbose_name_plural = _("setups")
        ordering = ["player_count"]

    def __str__(self) -> str:
        return gettext("%(count)s-player set-up") % {"count": self.player_count}

    def clean(self) -> None:

        errors = setup_field_errors(
            player_count=self.player_count,
            data={
                "houses": self.houses,
                "influence_tracks": self.influence_tracks,
                "dominance_token_holders": self.dominance_token_holders,
                "impassable_areas": self.impassable_areas,
                "kings_court_special_orders": self.kings_court_special_orders,
            },
            house_ids=set(House.objects.values_list("slug", flat=True)),
            area_ids=set(Area.objects.values_list("slug", flat=True)),
        )
        if self.variant_notes is not None and not (
            isinstance(self.variant_notes, list) and all(isinstance(n, str) for n in self.variant_notes)
        ):
            errors.setdefault("variant_notes", []).append(
                gettext("variant_notes is a list of strings or empty.")
            )
        if errors:
            raise ValidationError(errors)


class SetupGarrison(models.Model):
    """A garrison token placed at set-up (W-2.4, W-11.2)."""

    setup = models.ForeignKey(
        Setup, on_delete=models.CASCADE, related_name="garrisons", verbose_name=_("setup")
    )
    area = models.ForeignKey(Area, on_delete=models.PROTECT, related_name="+", verbose_name=_("area"))
    strength = models.PositiveSmallIntegerField(default=2, verbose_name=_("strength"))
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("setup garrison")
        verbose_name_plural = _("setup garrisons")
        ordering = ["setup__player_count", "position", "id"]

    def __str__(self) -> str:
        return gettext("garrison %(strength)s in %(area)s") % {"strength": self.strength, "area": self.area}

    def clean(self) -> None:
        if self.area_id and self.area.home_house_id is None:
            raise ValidationError({"area": gettext("Garrisons stand only in home areas (W-1.12).")})


class NeutralForce(models.Model):
    """A neutral force token (W-11.1); `impassable` tokens ("~", 3 players) have no strength."""

    setup = models.ForeignKey(
        Setup, on_delete=models.CASCADE, related_name="neutral_forces", verbose_name=_("setup")
    )
    area = models.ForeignKey(Area, on_delete=models.PROTECT, related_name="+", verbose_name=_("area"))
    strength = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(6)],
        verbose_name=_("strength"),
    )
    impassable = models.BooleanField(default=False, verbose_name=_("impassable"))
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("neutral force")
        verbose_name_plural = _("neutral forces")
        ordering = ["setup__player_count", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["setup", "area"], name="one_neutral_force_per_area")]

    def __str__(self) -> str:
        return gettext("%(strength)s in %(area)s") % {
            "strength": "~" if self.impassable else self.strength,
            "area": self.area,
        }

    def clean(self) -> None:
        if self.impassable != (self.strength is None):
            raise ValidationError(
                {
                    "strength": gettext(
                        "An impassable token has no strength; any other token has one (W-11.1)."
                    )
                }
            )
        if self.area_id and self.area.kind != Area.LAND:
            raise ValidationError({"area": gettext("Neutral forces stand only in land areas (W-11.1).")})


class HouseCard(EnglishSourceModel):
    """A house card (W-17.1). Each house keeps exactly 7; edit a hand as a whole on its house page."""

    TIMINGS = [(t, t) for t in HOUSE_CARD_TIMINGS]

    slug = models.SlugField(max_length=60, unique=True, help_text=ID_HELP, verbose_name=_("slug"))
    house = models.ForeignKey(
        House, on_delete=models.PROTECT, related_name="house_cards", verbose_name=_("house")
    )
    name = models.CharField(max_length=80, verbose_name=_("name"))
    strength = models.PositiveSmallIntegerField(validators=[MaxValueValidator(4)], verbose_name=_("strength"))
    swords = models.PositiveSmallIntegerField(default=0, verbose_name=_("swords"))
    fortifications = models.PositiveSmallIntegerField(default=0, verbose_name=_("fortifications"))
    effect = models.TextField(
        blank=True,
        default="",
        help_text=_("Card text; empty when the card has none."),
        verbose_name=_("effect"),
    )
    effect_timing = models.CharField(
        max_length=12, choices=TIMINGS, default="none", verbose_name=_("effect timing")
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("house card")
        verbose_name_plural = _("house cards")
        ordering = ["house__position", "position", "slug"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if (not self.effect) != (self.effect_timing == "none"):
            raise ValidationError(
                {"effect_timing": gettext("A card has a timing tag exactly when it has text (W-17.1).")}
            )
        if not self.house_id:
            return
        per_house = cards_per_house()
        if self.pk:
            old_house_id = HouseCard.objects.filter(pk=self.pk).values_list("house_id", flat=True).first()
            if old_house_id is not None and old_house_id != self.house_id:
                raise ValidationError(
                    {
                        "house": gettext(
                            "Each house keeps exactly %(count)s house cards (W-17.1); moving this card "
                            "would leave its house one short and give the other one too many."
                        )
                        % {"count": per_house}
                    }
                )
        elif HouseCard.objects.filter(house_id=self.house_id).count() >= per_house:
            raise ValidationError(
                {
                    "house": gettext(
                        "%(house)s already has %(count)s house cards; each house keeps exactly %(count)s "
                        "(W-17.1). Edit an existing card instead."
                    )
                    % {"house": self.house, "count": per_house}
                }
            )


def cards_per_house() -> int:
    """Hand size from the house-card section header (rules.cards_per_house), 7 by default (W-17.1)."""
    meta = SectionMeta.objects.filter(section="house_cards").values_list("data", flat=True).first() or {}
    value = (meta.get("rules") or {}).get("cards_per_house", 7) if isinstance(meta, dict) else 7
    return value if isinstance(value, int) else 7


class WesterosDeck(models.Model):
    """One of the three Westeros decks (W-4); the counts of its cards add up to `size`."""

    number = models.PositiveSmallIntegerField(
        unique=True,
        validators=[MinValueValidator(1), MaxValueValidator(3)],
        verbose_name=_("number"),
    )
    size = models.PositiveSmallIntegerField(default=10, verbose_name=_("size"))

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Westeros deck")
        verbose_name_plural = _("Westeros decks")
        ordering = ["number"]

    def __str__(self) -> str:
        return gettext("Westeros deck %(number)s") % {"number": self.number}


class WesterosCard(EnglishSourceModel):
    """A Westeros card (W-4) with its copies in the deck, wildling icon and machine-readable effect."""

    EFFECT_TYPES = [(t, t) for t in WESTEROS_EFFECT_TYPES]
    CHOOSERS = [(t, t) for t in DOMINANCE_TOKENS]

    deck = models.ForeignKey(
        WesterosDeck,
        on_delete=models.PROTECT,
        related_name="cards",
        verbose_name=pgettext_lazy("a Westeros card's deck", "deck"),
    )
    slug = models.SlugField(max_length=60, help_text=ID_HELP, verbose_name=_("slug"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    count = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)], verbose_name=_("count")
    )
    wildling_icon = models.BooleanField(default=False, verbose_name=_("wildling icon"))
    effect_type = models.CharField(max_length=20, choices=EFFECT_TYPES, verbose_name=_("effect type"))
    effect = models.TextField(verbose_name=_("effect"))
    chooser = models.CharField(
        max_length=24,
        choices=CHOOSERS,
        blank=True,
        default="",
        help_text=_("Choice cards: who picks the option."),
        verbose_name=_("chooser"),
    )
    options = models.JSONField(
        default=list, blank=True, help_text=_("Choice cards: the option ids."), verbose_name=_("options")
    )
    restricted_orders = models.JSONField(
        null=True,
        blank=True,
        help_text=_("Order-restriction cards: order token ids of the tracks section."),
        verbose_name=_("restricted orders"),
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Westeros card")
        verbose_name_plural = _("Westeros cards")
        ordering = ["deck__number", "position", "slug"]
        constraints = [models.UniqueConstraint(fields=["deck", "slug"], name="westeros_card_once_per_deck")]

    def __str__(self) -> str:
        if not self.deck_id:
            return self.name
        return gettext("%(name)s (deck %(number)s)") % {"name": self.name, "number": self.deck.number}

    def clean(self) -> None:

        errors = westeros_card_errors(
            {
                "id": self.slug,
                "effect_type": self.effect_type,
                "effect": self.effect,
                "chooser": self.chooser or None,
                "options": self.options,
                **(
                    {"restricted_orders": self.restricted_orders}
                    if self.restricted_orders is not None
                    else {}
                ),
            },
            order_ids=order_token_ids(),
        )
        if errors:
            raise ValidationError(errors)


def order_token_ids() -> set[str] | None:
    """Order token ids of the `order_tokens` track table, or None when it is not loaded."""
    table = TrackTable.objects.filter(key="order_tokens").values_list("data", flat=True).first()
    if not isinstance(table, dict):
        return None
    return {t["id"] for t in table.get("tokens", []) if isinstance(t, dict) and isinstance(t.get("id"), str)}


class WildlingCard(EnglishSourceModel):
    """A wildling card (W-16.7): the reward for the highest bidder or the penalties after a defeat."""

    slug = models.SlugField(max_length=60, unique=True, help_text=ID_HELP, verbose_name=_("slug"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    highest_bidder = models.TextField(
        help_text=_("Night's Watch victory: reward of the highest bidder."), verbose_name=_("highest bidder")
    )
    lowest_bidder = models.TextField(
        help_text=_("Wildling victory: penalty of the lowest bidder."), verbose_name=_("lowest bidder")
    )
    everyone_else = models.TextField(
        help_text=_("Wildling victory: penalty of every other house."), verbose_name=_("everyone else")
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("wildling card")
        verbose_name_plural = _("wildling cards")
        ordering = ["position", "slug"]

    def __str__(self) -> str:
        return self.name


class TrackTable(models.Model):
    """One table of tracks.json (supply track, order tokens, unit types...), a small validated JSON document."""

    KEYS = TRACK_TABLE_KEYS

    key = models.CharField(max_length=40, unique=True, choices=[(k, k) for k in KEYS], verbose_name=_("key"))
    data = models.JSONField(verbose_name=_("data"))
    position = models.PositiveSmallIntegerField(
        default=0, help_text=ORDER_HELP, verbose_name=pgettext_lazy("export order", "position")
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("track table")
        verbose_name_plural = _("track tables")
        ordering = ["position", "key"]

    def __str__(self) -> str:
        return self.key

    def clean(self) -> None:

        errors = track_table_errors(self.key, self.data)
        if errors:
            raise ValidationError({"data": errors})
