"""Westeros data edits that the admin makes row by row (neighbours, ports, house cards, renames).

Whole data sets go in and out through `boardgame.dataset`; their checks are `boardgame.validation`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from boardgame.data_format import HOUSE_CARD_STRENGTHS
from boardgame.models import (
    Adjacency,
    Area,
    HouseCard,
    Port,
    Setup,
    WesterosDeck,
)
from config.errors import ApplicationError

# --------------------------------------------------------------------------------------------------
# Edits used by the admin
# --------------------------------------------------------------------------------------------------


@transaction.atomic
def area_set_neighbours(*, area: Area, neighbours: Iterable[Area]) -> None:
    """Make `neighbours` exactly the areas adjacent to `area` (each border stored once, W-10.1)."""
    wanted = {n.pk for n in neighbours}
    if area.pk in wanted:
        raise ApplicationError("invalid_adjacency", _self_loop(area))
    current = area.neighbour_ids()
    Adjacency.objects.filter(
        Q(area_a_id=area.pk, area_b_id__in=current - wanted)
        | Q(area_b_id=area.pk, area_a_id__in=current - wanted)
    ).delete()
    for other in wanted - current:
        a, b = sorted((area.pk, other))
        Adjacency.objects.create(area_a_id=a, area_b_id=b)


@transaction.atomic
def port_sync_edges(*, port: Port) -> None:
    """Give a port exactly two borders: its land area and its sea (W-10.4)."""
    area_set_neighbours(area=port.area, neighbours=[port.land_area, port.sea_area])


def _self_loop(area: Area) -> str:
    return gettext("%(area)s cannot be adjacent to itself (W-10.1).") % {"area": area}


def neighbour_problems(*, area: Area, neighbours: Iterable[Area]) -> list[str]:
    """Why `area` cannot have exactly these neighbours (self loop, port rules), for the admin form."""
    nbs = list(neighbours)
    problems = []
    if any(n.pk == area.pk for n in nbs):
        problems.append(_self_loop(area))
    if area.kind == Area.PORT:
        port = Port.objects.filter(area=area).select_related("land_area", "sea_area").first()
        if port and {n.pk for n in nbs} != {port.land_area_id, port.sea_area_id}:
            problems.append(
                gettext("A port borders exactly its land area (%(land)s) and its sea (%(sea)s) (W-10.4).")
                % {"land": port.land_area, "sea": port.sea_area}
            )
    else:
        for n in nbs:
            if n.kind == Area.PORT:
                port = Port.objects.filter(area=n).first()
                if port is None or area.pk not in (port.land_area_id, port.sea_area_id):
                    problems.append(
                        gettext("%(port)s is a port; it may border only its own land area and sea (W-10.4).")
                        % {"port": n}
                    )
    if area.pk and area.kind == Area.LAND:
        port = Port.objects.filter(land_area=area).select_related("sea_area").first()
        if port and port.sea_area_id not in {n.pk for n in nbs}:
            problems.append(
                gettext("%(area)s's port opens onto %(sea)s, so %(area)s must stay adjacent to it (W-1.2).")
                % {"area": area, "sea": port.sea_area}
            )
    return problems


@transaction.atomic
def house_card_delete(*, card: HouseCard) -> None:
    """Refuse: deleting a house card would leave its house short of its 7 cards (W-17.1)."""
    raise ApplicationError(
        "house_cards_fixed",
        gettext("%(house)s must keep exactly 7 house cards (W-17.1); edit %(card)s instead of deleting it.")
        % {"house": card.house, "card": card.name},
    )


def hand_strength_problem(strengths: list[int]) -> str | None:
    """Why a house's 7 card strengths are not 4, 3, 2, 2, 1, 1, 0 (W-17.1), or None."""
    if sorted(strengths) != HOUSE_CARD_STRENGTHS:
        shown = ", ".join(str(s) for s in sorted(strengths, reverse=True))
        return gettext(
            "A house's cards have strengths 4, 3, 2, 2, 1, 1, 0 (W-17.1); these would be %(shown)s."
        ) % {"shown": shown}
    return None


def deck_size_problem(*, deck: WesterosDeck, counts: list[int]) -> str | None:
    """Why these card counts do not fill the deck exactly (10 cards per deck, W-1.11), or None."""
    if sum(counts) != deck.size:
        return gettext("%(deck)s must hold %(size)s cards (W-1.11); these counts add up to %(total)s.") % {
            "deck": deck,
            "size": deck.size,
            "total": sum(counts),
        }
    return None


def setup_references(*, slug: str, what: str) -> list[str]:
    """Where the set-ups' JSON lists name this area or house id (they hold ids, not foreign keys)."""
    found = []
    for setup in Setup.objects.all():
        where = gettext("%(count)s-player set-up") % {"count": setup.player_count}
        if what == "area" and slug in (setup.impassable_areas or []):
            found.append(f"{where}: impassable_areas")
        if what == "house":
            if slug in (setup.houses or []):
                found.append(f"{where}: houses")
            if any(slug in (order or []) for order in (setup.influence_tracks or {}).values()):
                found.append(f"{where}: influence_tracks")
            if slug in (setup.dominance_token_holders or {}).values():
                found.append(f"{where}: dominance_token_holders")
    return found


@transaction.atomic
def setup_references_rename(*, old: str, new: str, what: str) -> None:
    """After an area or house id changes, rewrite the set-ups' JSON lists so they keep pointing at it."""
    for setup in Setup.objects.select_for_update():
        if what == "area":
            setup.impassable_areas = [new if a == old else a for a in setup.impassable_areas]
        else:
            setup.houses = [new if h == old else h for h in setup.houses]
            setup.influence_tracks = {
                t: [new if h == old else h for h in order] for t, order in setup.influence_tracks.items()
            }
            setup.dominance_token_holders = {
                k: new if h == old else h for k, h in setup.dominance_token_holders.items()
            }
        setup.save()
