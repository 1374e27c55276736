"""Page views of online play: lobby, invite link, match page (live over WebSocket) and replay.

Pages are thin: they check access through the selectors and hand ids to the page scripts, which
read everything else from the JSON API and the match WebSocket (one source of truth for views).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import ensure_csrf_cookie

from config.errors import ApplicationError
from matches import selectors
from matches.games.registry import game_kinds, get_game
from matches.models import Match, Seat

if TYPE_CHECKING:
    from matches.clocks import TimeControlJSON

# The pages' words for names other modules keep in English (game labels, time controls, AI levels,
# houses): those stay the API's language-independent values; a page shows them in the reader's language.
GAME_LABELS = {"westeros": _("A Game of Thrones: The Board Game")}  # "Commandeer TCG" is a brand name
TIME_CONTROL_LABELS = {
    "5 min + 10 s per turn": _("5 min + 10 s per turn"),
    "15 min + 15 s per turn": _("15 min + 15 s per turn"),
    "Correspondence: 1 day per move": _("Correspondence: 1 day per move"),
    "Correspondence: 3 days per move": _("Correspondence: 3 days per move"),
    "Live: 3 min per decision + 10 min bank": _("Live: 3 min per decision + 10 min bank"),
    "Quick: 20 s per decision + 1 min bank": _("Quick: 20 s per decision + 1 min bank"),
    "Correspondence: 1 day per phase step": _("Correspondence: 1 day per phase step"),
    "Correspondence: 3 days per phase step": _("Correspondence: 3 days per phase step"),
}
AI_LEVEL_LABELS = {
    "easy": _("Easy — for learning the game"),
    "normal": _("Normal — a fair opponent"),
    "hard": _("Hard — searches ~%(budget)s per move"),
}
HOUSE_NAMES = {
    "stark": _("House Stark"),
    "lannister": _("House Lannister"),
    "baratheon": _("House Baratheon"),
    "greyjoy": _("House Greyjoy"),
    "tyrell": _("House Tyrell"),
    "martell": _("House Martell"),
}


def game_label(kind: str) -> str:
    """A game kind's name in the reader's language (English for a kind without a translation)."""
    label = GAME_LABELS.get(kind)
    return str(label) if label is not None else get_game(kind).label


def house_name(house: str) -> str:
    label = HOUSE_NAMES.get(house)
    return str(label) if label is not None else f"House {house.title()}"


def _ai_level_text(name: str, english: str) -> str:
    """The level's one-line description; the search time is the engine's, as in `agents.level_choices`."""
    if name == "hard" and "~" in english:
        budget = english.rsplit("~", 1)[1].removesuffix(" per move")
        number, _space, unit = budget.partition(" ")
        if unit == "ms":
            budget = gettext("%(number)s ms") % {"number": number}
        elif unit == "s":
            budget = gettext("%(number)s s") % {"number": number}
        return gettext("Hard — searches ~%(budget)s per move") % {"budget": budget}
    if name == "hard":
        return gettext("Hard — searches longest per move")
    label = AI_LEVEL_LABELS.get(name)
    return str(label) if label is not None else english


class DeckChoice(TypedDict):
    id: int
    name: str
    valid: bool  # legal now (a deck the rules changed under is offered, marked)


class StarterDeck(TypedDict):
    id: int
    name: str


class TimeControlChoice(TypedDict):
    label: str
    value: str  # the control as JSON, the form's option value
    kinds: str  # the games it is offered for, space-separated (the page's JS filters by kind)
    default_for: str  # the games it is the default of, space-separated


class HouseChoice(TypedDict):
    id: str
    name: str
    min_players: int


class AILevelChoice(TypedDict):
    id: str
    default: bool
    text: str
    texts: dict[str, str]  # game kind -> its one-line description


class MatchFacts(TypedDict):
    time_control: str
    length: str
    taken: int
    total: int
    names: list[str]


def _my_decks(request: HttpRequest) -> list[DeckChoice]:
    """The caller's decks with their live legality (the deck builder's selectors)."""
    if not request.user.is_authenticated:
        return []
    from decks import selectors as deck_selectors

    out: list[DeckChoice] = []
    for deck in deck_selectors.deck_list_own(user=request.user):
        out.append({"id": deck.pk, "name": deck.name, "valid": deck_selectors.deck_legality(deck).valid})
    return out


def _starter_decks(request: HttpRequest) -> list[StarterDeck]:
    """The published starter decks (`manage.py starter_decks`), offered to an account without a legal deck:
    choosing one copies it into the account on create (`services.lobby.match_create`, starter_deck_id)."""
    if not request.user.is_authenticated:
        return []
    from decks import selectors as deck_selectors
    from matches.services.lobby import STARTER_OWNER

    starters = deck_selectors.deck_queryset().filter(owner__username=STARTER_OWNER, visibility="public")
    return [{"id": d.pk, "name": d.name} for d in starters.order_by("name")[:20]]


def _time_controls() -> list[TimeControlChoice]:
    """The lobby's time controls, each with the games it is offered for (matches.clocks)."""
    from matches.clocks import TIME_CONTROL_PRESETS

    defaults = {
        k: next(p for p in TIME_CONTROL_PRESETS if k in p["kinds"])
        for k in game_kinds()
        if any(k in p["kinds"] for p in TIME_CONTROL_PRESETS)
    }
    named = {k for p in TIME_CONTROL_PRESETS for k in p["kinds"]}
    out: list[TimeControlChoice] = []
    for preset in TIME_CONTROL_PRESETS:
        kinds = [*preset["kinds"], *(k for k in game_kinds() if k not in named)]  # test games: every preset
        out.append(
            {
                "label": str(TIME_CONTROL_LABELS.get(preset["label"], preset["label"])),
                "value": json.dumps(preset["value"]),
                "kinds": " ".join(kinds),
                "default_for": " ".join(k for k, d in defaults.items() if d is preset),
            }
        )
    return out


def _kinds() -> list[dict[str, str]]:
    return [{"kind": k, "label": game_label(k)} for k in game_kinds()]


def _westeros_houses() -> list[HouseChoice]:
    """The houses to choose from, each with the smallest player count it plays in (W-1.1, W-2)."""
    from matches.games.westeros import WesterosGame

    out: dict[str, HouseChoice] = {}
    for count in range(3, 7):
        for house in WesterosGame.houses_in_play(count):
            out.setdefault(house, {"id": house, "name": house_name(house), "min_players": count})
    return list(out.values())


def _ai_levels() -> list[AILevelChoice]:
    """The lobby's AI levels, each with its one-line description per game (the search time is the engine's)."""
    from matches.agents import DEFAULT_AGENT, GAME_KINDS, LEVELS, level_choices

    texts = {kind: dict(level_choices(kind)) for kind in GAME_KINDS}
    return [
        {
            "id": name,
            "default": name == DEFAULT_AGENT,
            "text": _ai_level_text(name, texts["commandeer"][name]),
            "texts": {kind: _ai_level_text(name, texts[kind][name]) for kind in GAME_KINDS},
        }
        for name in LEVELS
    ]


@ensure_csrf_cookie
def lobby(request: HttpRequest) -> HttpResponse:
    """Create a match (or play the AI in one click), join open ones, spectate public ones."""
    kind = request.GET.get("kind", "")
    return render(
        request,
        "frontend/matches/lobby.html",
        {
            "decks": _my_decks(request),
            "starter_decks": _starter_decks(request),
            "time_controls": _time_controls(),
            "kinds": _kinds(),
            "westeros_houses": _westeros_houses(),
            "ai_levels": _ai_levels(),
            "initial_kind": kind if kind in game_kinds() else None,
        },
    )


def match_for_page(request: HttpRequest, match_id: int, invite: str = "") -> tuple[Match, Seat | None]:
    """The match and the caller's seat for a page. No such match: the 404 page. A private match the
    caller may not see: the 403 page saying "This match is private." (with a login link when signed out)."""
    try:
        return selectors.match_get_for_viewer(match_id=match_id, user=request.user, invite_token=invite)
    except ApplicationError as error:
        if error.status_code == 403:
            raise PermissionDenied(error.message) from error
        raise Http404(error.message) from error


@ensure_csrf_cookie
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table: waiting room before the start, then the live board; spectators see no hands."""
    match, you = match_for_page(request, match_id)
    if match.kind == "westeros" and match.status != "waiting":
        return redirect("westeros-game", match_id=match.pk)  # the Westeros table (frontend app)
    return render(
        request,
        "frontend/matches/match.html",
        {"match": match, "you": you, "decks": _my_decks(request), "kind_label": game_label(match.kind)},
    )


@login_required
@ensure_csrf_cookie
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: shows the match and a join form (the token lets the invitee into a private match)."""
    match = Match.objects.filter(invite_token=token).first()
    if match is None:
        raise Http404(gettext("This invite link is not valid."))
    match, you = match_for_page(request, match.pk, token)
    game = get_game(match.kind)
    seating = selectors.match_summary(match, you=you)["seating"]
    return render(
        request,
        "frontend/matches/invite.html",
        {
            "match": match,
            "you": you,
            "token": token,
            "decks": _my_decks(request) if game.needs_deck else [],
            "needs_deck": game.needs_deck,
            "free_houses": [{"id": h, "name": house_name(h)} for h in seating["free"]]
            if seating is not None and seating["mode"] == "choose"
            else [],
            "kind_label": game_label(match.kind),
            "facts": match_facts(match),
        },
    )


def _duration(seconds: int) -> str:
    """A time control's span in the reader's language: whole days, hours, minutes, else seconds."""
    if seconds >= 86400 and seconds % 86400 == 0:
        n = seconds // 86400
        return ngettext("%(count)s day", "%(count)s days", n) % {"count": n}
    if seconds >= 3600 and seconds % 3600 == 0:
        n = seconds // 3600
        return ngettext("%(count)s hour", "%(count)s hours", n) % {"count": n}
    if seconds >= 60 and seconds % 60 == 0:
        return gettext("%(count)s min") % {"count": seconds // 60}
    return gettext("%(count)s s") % {"count": seconds}


def time_control_text(time_control: TimeControlJSON | None) -> str:
    """A match's time control as the lobby names it (a preset), else in words."""
    from matches.clocks import TIME_CONTROL_PRESETS

    for preset in TIME_CONTROL_PRESETS:
        if preset["value"] == time_control:
            return str(TIME_CONTROL_LABELS.get(preset["label"], preset["label"]))
    tc = time_control or {}
    per_move = tc.get("per_move_s")
    if per_move and tc.get("bank_s"):
        return gettext("%(per)s per decision + %(bank)s bank") % {
            "per": _duration(int(per_move)),
            "bank": _duration(int(tc["bank_s"])),
        }
    if per_move:
        return gettext("%(per)s per move") % {"per": _duration(int(per_move))}
    if tc.get("initial_s"):
        return gettext("%(initial)s + %(increment)s per turn") % {
            "initial": _duration(int(tc["initial_s"])),
            "increment": _duration(int(tc.get("increment_s") or 0)),
        }
    return gettext("No clock")


def match_facts(match: Match) -> MatchFacts:
    """What a player decides on before joining: time control, length, seats (rated and the start are
    the match's own fields)."""
    game = get_game(match.kind)
    config = match.rules_config or {}
    seats = selectors.match_summary(match, you=None)["seats"]
    length = ""
    if config.get("turn_limit"):  # C-6.5
        n = int(config["turn_limit"])
        length = ngettext(
            "Ends when each player has had %(count)s turn (C-6.5)",
            "Ends when each player has had %(count)s turns (C-6.5)",
            n,
        ) % {"count": n}
    elif config.get("max_rounds"):  # W-3.1
        n = int(config["max_rounds"])
        length = ngettext("At most %(count)s round (W-3.1)", "At most %(count)s rounds (W-3.1)", n) % {
            "count": n
        }
    return {
        "time_control": time_control_text(match.time_control),
        "length": length,
        "taken": len(seats),
        "total": game.seat_count(config),
        "names": [s["name"] for s in seats],
    }


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through a finished match action by action."""
    match, you = match_for_page(request, match_id)
    return render(request, "frontend/matches/replay.html", {"match": match, "you": you})
