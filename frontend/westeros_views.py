"""Westeros pages: the map explorer and the online game table (and its replay) of a Westeros match.

Pages are shells: the board is drawn in the browser by `westeros/map.js` from map data embedded here
(so the page needs no extra request) and the game table reads the caller's view and legal actions
from the matches API (W-20: only `player_view` leaves the server). The explorer shows the curated
database; a game's table and replay show the data that game plays on, copied when it started. Playing against AI
houses is a real match made in the lobby (`/play/`), never a second path around the action service.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from boardgame import dataset as board_dataset
from boardgame import selectors as board_selectors

PLAYER_COUNTS = (3, 4, 5, 6)
BOARD_FIELDS = (
    "houses",
    "units",
    "tokens",
    "garrisons",
    "neutral",
    "impassable",
    "tracks",
    "power",
    "supply",
)


def _map_data() -> dict[str, Any]:
    """The curated map (areas with drawing, adjacency, ports) as the map API returns it."""
    return board_selectors.westeros_map()


def _engine_data() -> Any:
    """The engine's game data built from the curated database (an admin edit changes the next game only)."""
    from boardgame.engine import GameData

    return GameData.from_dict(board_dataset.game_data_export())


def match_game_data(match: Any) -> dict[str, Any]:
    """The Westeros data (six sections) a match plays on: the copy its game took when it started (W-2.1).

    Read through the play layer's `replay_start` selector (the match's stored start state, never the
    database): an admin's edit of the map or of a card after the start changes neither the game nor its
    page. A match not started yet has no copy: it will start from the curated database, shown meanwhile.
    Names and texts read in the viewer's language (the curated translations, by id), the English kept as
    `name_en` and what has no translation yet listed in each record's `untranslated`.
    """
    if match.started_at is None:
        return board_selectors.localise_game_data(board_dataset.game_data_export())
    from matches import selectors

    return board_selectors.localise_game_data(dict(selectors.replay_start(match).data.to_dict()))


def _house_cards(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Public facts of every house card by id (W-17.1): hands and discards are open (W-20)."""
    fields = ("id", "house", "name", "strength", "swords", "fortifications")
    return {
        c["id"]: {**{f: c[f] for f in fields}, "effect": c.get("effect") or ""}
        for c in data["house_cards"]["cards"]
    }


def _who(key: str) -> str:
    """Who a wildling card's outcome is for (W-16.7), in the reader's language."""
    labels = {
        "highest_bidder": _("Highest bidder"),
        "lowest_bidder": _("Lowest bidder"),
        "everyone_else": _("Everyone else"),
    }
    return labels.get(key, key.replace("_", " ").capitalize())


def _card_texts(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Names and texts of the Westeros cards (by "deck:id") and wildling cards (by id): public facts (W-4, W-16.7)."""
    westeros = {
        f"{c['deck']}:{c['id']}": {
            "name": c["name"],
            "text": c.get("effect", ""),
            "icon": c.get("wildling_icon", False),
        }
        for c in data["westeros_cards"]["cards"]
    }
    wildling = {
        c["id"]: {
            "name": c["name"],
            "text": " ".join(
                _("%(who)s: %(text)s") % {"who": _who(who), "text": what}
                for side in ("nights_watch_victory", "wildling_victory")
                for who, what in (c.get(side) or {}).items()
            ),
        }
        for c in data["wildling_cards"]["cards"]
    }
    return {"westeros": westeros, "wildling": wildling}


def _directory(areas: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Areas grouped by kind and sorted by name, for the page's area index (usable without the map)."""
    groups = {"land": _("Land areas"), "sea": _("Sea areas"), "port": _("Ports")}
    return [
        (label, sorted((a for a in areas if a["kind"] == kind), key=lambda a: a["name"]))
        for kind, label in groups.items()
    ]


def _parse_players(raw: str | None) -> int | None:
    if raw in (None, ""):
        return None
    try:
        n = int(str(raw))
    except ValueError:
        n = 0
    if n not in PLAYER_COUNTS:
        raise ValueError(_("players must be one of 3, 4, 5 or 6 (W-1.1), not '%(value)s'") % {"value": raw})
    return n


def setup_board(player_count: int) -> dict[str, Any]:
    """The board at the start of a game for `player_count` houses (W-2), as the engine sets it up."""
    from boardgame.engine import new_game

    view = new_game(_engine_data(), player_count=player_count, seed=0).player_view(None)
    return {k: view[k] for k in BOARD_FIELDS}


@ensure_csrf_cookie
def map_explorer(request: HttpRequest) -> HttpResponse:
    """The whole map: click an area for its facts and neighbours; `?players=3..6` shows that set-up (W-2)."""
    try:
        players = _parse_players(request.GET.get("players"))
    except ValueError as error:
        return HttpResponseBadRequest(str(error))
    data = _map_data()
    board = setup_board(players) if players and data["areas"] else None
    return render(
        request,
        "frontend/westeros/map.html",
        {
            "map_data": data,
            "board": board,
            "players": players,
            "player_counts": PLAYER_COUNTS,
            "directory": _directory(data["areas"]),
            "loaded": bool(data["areas"]),
        },
    )


def _table_page(request: HttpRequest, match: Any, you: Any, *, mode: str) -> HttpResponse:
    """The game table (live or replay): map, house cards and card texts from the match's own data."""
    data = match_game_data(match)
    live = mode == "match"
    return render(
        request,
        "frontend/westeros/game.html",
        {
            "map_data": board_selectors.westeros_map(data["map"]),
            "mode": mode,
            "match_id": match.pk,
            "match_kind": match.kind,
            "you": you.position if you else "",
            "state_url": f"/api/matches/{match.pk}/{'state' if live else 'replay'}/",
            "submit_url": f"/api/matches/{match.pk}/actions/" if live else "",
            "socket_path": f"/ws/matches/{match.pk}/" if live else "",
            "house_cards": _house_cards(data),
            "card_texts": _card_texts(data),
        },
    )


@ensure_csrf_cookie
def game_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live Westeros table of one match; access and the game's view come from the matches API."""
    from matches.pages import match_for_page

    match, you = match_for_page(request, match_id)
    if not match.kind.startswith("westeros"):
        return redirect("match-page", match_id=match.pk)
    return _table_page(request, match, you, mode="match")


@ensure_csrf_cookie
def replay_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through a finished Westeros match frame by frame (each frame as the caller may see it, W-20)."""
    from matches.pages import match_for_page

    match, you = match_for_page(request, match_id)
    if not match.kind.startswith("westeros"):
        return redirect("match-replay-page", match_id=match.pk)
    return _table_page(request, match, you, mode="replay")
