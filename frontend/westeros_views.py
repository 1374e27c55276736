"""Westeros pages: the map explorer, the online game table and a single-player demo table.

Pages are shells: the board is drawn in the browser by `westeros/map.js` from the curated map data
(embedded here so the page needs no extra request) and the game table reads the caller's view and
legal actions from the matches API (W-20: only `player_view` leaves the server).
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from boardgame import selectors as board_selectors
from boardgame import services as board_services

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
DEMO_SESSION_KEY = "westeros_demo"
HOUSE_IDS = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


def _map_data() -> dict[str, Any]:
    """The curated map (areas with drawing, adjacency, ports) as the map API returns it."""
    return board_selectors.westeros_map()


def _engine_data() -> Any:
    """The engine's game data built from the curated database (an admin edit changes the next game only)."""
    from boardgame.engine import GameData

    return GameData.from_dict(board_services.game_data_export())


def _house_cards() -> dict[str, dict[str, Any]]:
    """Public facts of every house card by id (W-17.1): hands and discards are open (W-20)."""
    return {
        c.slug: {
            "id": c.slug,
            "house": c.house.slug,
            "name": c.name,
            "strength": c.strength,
            "swords": c.swords,
            "fortifications": c.fortifications,
            "effect": c.effect,
        }
        for c in board_selectors.house_card_list()
    }


def _card_texts() -> dict[str, dict[str, Any]]:
    """Names and texts of the Westeros cards (by "deck:id") and wildling cards (by id): public facts (W-4, W-16.7)."""
    data = board_services.game_data_export()
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
                f"{who.replace('_', ' ').capitalize()}: {what}"
                for side in ("nights_watch_victory", "wildling_victory")
                for who, what in (c.get(side) or {}).items()
            ),
        }
        for c in data["wildling_cards"]["cards"]
    }
    return {"westeros": westeros, "wildling": wildling}


def _directory(areas: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Areas grouped by kind and sorted by name, for the page's area index (usable without the map)."""
    groups = {"land": "Land areas", "sea": "Sea areas", "port": "Ports"}
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
        raise ValueError(f"players must be one of 3, 4, 5 or 6 (W-1.1), not '{raw}'")
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


@ensure_csrf_cookie
def game_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live Westeros table of one match; access and data come from the matches API."""
    from config.errors import ApplicationError
    from matches import selectors as match_selectors

    try:
        match, you = match_selectors.match_get_for_viewer(match_id=match_id, user=request.user)
    except ApplicationError as error:
        raise Http404(error.message) from error
    if not match.kind.startswith("westeros"):
        return redirect("match-page", match_id=match.pk)
    return render(
        request,
        "frontend/westeros/game.html",
        {
            "map_data": _map_data(),
            "mode": "match",
            "match_id": match.pk,
            "match_kind": match.kind,
            "you": you.position if you else "",
            "state_url": f"/api/matches/{match.pk}/state/",
            "submit_url": f"/api/matches/{match.pk}/actions/",
            "socket_path": f"/ws/matches/{match.pk}/",
            "house_cards": _house_cards(),
            "card_texts": _card_texts(),
        },
    )


@ensure_csrf_cookie
def replay_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through a finished Westeros match frame by frame (each frame as the caller may see it, W-20)."""
    from config.errors import ApplicationError
    from matches import selectors as match_selectors

    try:
        match, you = match_selectors.match_get_for_viewer(match_id=match_id, user=request.user)
    except ApplicationError as error:
        raise Http404(error.message) from error
    if not match.kind.startswith("westeros"):
        return redirect("match-replay-page", match_id=match.pk)
    return render(
        request,
        "frontend/westeros/game.html",
        {
            "map_data": _map_data(),
            "mode": "replay",
            "match_id": match.pk,
            "match_kind": match.kind,
            "you": you.position if you else "",
            "state_url": f"/api/matches/{match.pk}/replay/",
            "submit_url": "",
            "socket_path": "",
            "house_cards": _house_cards(),
            "card_texts": _card_texts(),
        },
    )


# ---- demo table: the same page against engine AIs, state kept in the session -------------------------
def _demo_replay(demo: dict[str, Any]) -> Any:
    """Rebuild the demo game from its seed and action list (checked, W-2 set-up)."""
    from boardgame.engine import action_from_json, new_game

    state = new_game(_engine_data(), player_count=demo["players"], seed=demo["seed"])
    for a in demo["actions"]:
        state.apply(action_from_json(a))
    return state


def _demo_ai_moves(state: Any, demo: dict[str, Any]) -> None:
    """Let the AI houses act until the human house must decide (or the game ends)."""
    from boardgame.engine.agents import make_agent

    rng = random.Random(demo["seed"] * 31 + len(demo["actions"]))
    agent = make_agent("greedy", rng)
    while not state.is_terminal():
        others = [p for p in state.current_players() if p != demo["house"]]
        if not others:
            break
        action = agent.choose(state, others[0])
        state.apply(action)
        demo["actions"].append(action.to_json())


def westeros_view(state: Any, house: str | None) -> dict[str, Any]:
    """`player_view` plus public derived facts the table shows: castles (W-18), control (W-8), combat (W-9.3)."""
    view = state.player_view(house)
    view["castles"] = {h: state.castle_count(h) for h in state.houses}
    view["control"] = {a: h for a in state.data.land_areas if (h := state.control(a))}
    # W-9.3: the combat's current numbers use only public facts (units, revealed orders, declared
    # support, house cards once both are revealed — the view already shows those).
    view["combat_strength"] = state.combat_numbers() if state.combat else None
    return dict(view)


def _demo_snapshot(state: Any, demo: dict[str, Any]) -> dict[str, Any]:
    """The demo in the shape of the matches API's state snapshot (seat 0 = the human house)."""
    house = demo["house"]
    view = westeros_view(state, house)
    order = [house] + [h for h in state.houses if h != house]
    view["seat_houses"] = order
    seat_of = {h: i for i, h in enumerate(order)}
    current = state.current_players()
    legal = state.legal_actions(house) if house in current else []
    outcome = state.outcome()
    return {
        "id": None,
        "kind": "westeros",
        "status": "finished" if state.is_terminal() else "active",
        "state_version": len(demo["actions"]),
        "seats": [
            {
                "position": i,
                "name": "You" if i == 0 else f"AI ({h.title()})",
                "is_ai": i > 0,
                "is_you": i == 0,
            }
            for i, h in enumerate(order)
        ],
        "you": 0,
        "current_players": [seat_of[p] for p in current],
        "view": view,
        "legal_actions": [{"action": a.to_json(), "description": a.describe(state)} for a in legal],
        "log": [],
        "result": outcome.to_json() if outcome else None,
    }


def _error(code: str, message: str, status: int, **extra: Any) -> JsonResponse:
    """The API's error shape `{"code", "message", "extra"}` (config/errors.py) for the demo endpoints."""
    return JsonResponse({"code": code, "message": message, "extra": extra}, status=status)


NO_DEMO = "No demo game: open /westeros/demo/ first."


def _demo_from_session(request: HttpRequest) -> dict[str, Any] | None:
    demo = request.session.get(DEMO_SESSION_KEY)
    return demo if isinstance(demo, dict) and "actions" in demo else None


@ensure_csrf_cookie
def demo_page(request: HttpRequest) -> HttpResponse:
    """Play one house against engine AIs (no account needed): `?players=3..6&house=<id>` starts a new game."""
    try:
        players = _parse_players(request.GET.get("players"))
    except ValueError as error:
        return HttpResponseBadRequest(str(error))
    data = _map_data()
    if not data["areas"]:
        return render(request, "frontend/westeros/map.html", {"loaded": False, "map_data": data}, status=503)
    demo = _demo_from_session(request)
    if players or demo is None:
        n = players or 3
        houses = _engine_data().raw["setup"]["player_counts"][str(n)]["houses"]
        house = request.GET.get("house") or houses[0]
        if house not in houses:
            return HttpResponseBadRequest(f"house must be one of {', '.join(houses)} in a {n}-player game")
        demo = {"players": n, "house": house, "seed": uuid.uuid4().int % 1_000_000, "actions": []}
        state = _demo_replay(demo)
        _demo_ai_moves(state, demo)
        request.session[DEMO_SESSION_KEY] = demo
    return render(
        request,
        "frontend/westeros/game.html",
        {
            "map_data": data,
            "mode": "demo",
            "match_id": "",
            "match_kind": "westeros",
            "you": 0,
            "state_url": "/westeros/demo/state/",
            "submit_url": "/westeros/demo/actions/",
            "socket_path": "",
            "demo": demo,
            "player_counts": PLAYER_COUNTS,
            "houses_all": HOUSE_IDS,
            "house_cards": _house_cards(),
            "card_texts": _card_texts(),
        },
    )


@require_GET
def demo_state(request: HttpRequest) -> JsonResponse:
    """The demo game's snapshot for the human house."""
    demo = _demo_from_session(request)
    if demo is None:
        return _error("no_demo", NO_DEMO, 404)
    return JsonResponse(_demo_snapshot(_demo_replay(demo), demo))


@require_POST
def demo_action(request: HttpRequest) -> JsonResponse:
    """Apply one of the human house's legal actions at the current version, then let the AIs move."""
    import json

    from boardgame.engine import IllegalActionError, action_from_json

    demo = _demo_from_session(request)
    if demo is None:
        return _error("no_demo", NO_DEMO, 404)
    try:
        body = json.loads(request.body or b"{}")
        action = action_from_json(body["action"])
        version = int(body["state_version"])
    except (ValueError, KeyError, TypeError) as error:
        return _error("bad_request", f"Malformed action: {error}", 400)
    if version != len(demo["actions"]):
        return _error("stale_state", "The game moved on; reload.", 409, state_version=len(demo["actions"]))
    state = _demo_replay(demo)
    if action.player != demo["house"]:
        return _error("not_your_turn", "You play only your own house.", 403)
    try:
        state.apply(action)
    except IllegalActionError as error:
        return _error("illegal_action", str(error), 400)
    demo["actions"].append(action.to_json())
    _demo_ai_moves(state, demo)
    request.session[DEMO_SESSION_KEY] = demo
    return JsonResponse(_demo_snapshot(state, demo))
