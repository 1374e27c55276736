"""Rematch: the players of a finished match play again, same settings, sides swapped.

`match_rematch` is called by a human player of a finished match. The first call records an offer
(`Match.lobby["rematch"]["offered_by"]`, seat positions, shown to everyone in the snapshot); when every human
player has asked (the others accept by asking too), the new match is made and started at once:

- the same game kind, rules settings, time control, visibility, AI seats and their levels, and each player's
  same deck (validated again at the start, C-3);
- sides swapped: in a game without houses (Commandeer) every player moves one seat on (2 players: the seats
  swap, so the other player begins); in a game with houses (Westeros) every player takes the house of the
  next seat in the "choose" and "draft" modes, and the houses are drawn again from the new seed in "random";
- a player who left the finished game is not asked: an AI (the takeover level) plays their seat.

Against AI only, the one human's call makes the match at once. The new match's id is written to the finished
match's `lobby["rematch"]["match_id"]` and both are announced (the pages go there). Exactly one rematch per
match: the match row is locked and `Match.rematch_of` is unique, so a double click never makes two; a call
once it exists is a 409 naming its id.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext
from rest_framework import status

from config.errors import ApplicationError
from matches import storage
from matches.agents import TAKEOVER_AGENT
from matches.games.registry import get_game
from matches.jsontypes import JSONObject
from matches.models import Match, Seat, new_seed
from matches.selectors import rematch_possible, unrated_reason
from matches.services.notify import notify_on_commit
from matches.services.seating import seating_mode
from matches.services.submit import not_participant


def rematch_players(seats: list[Seat]) -> list[Seat]:
    """The seats whose players are asked: every seat of a user who did not leave the game."""
    return [s for s in seats if s.user_id is not None and s.left_at is None]


def created_rated(match: Match) -> bool:
    """Whether the match was created rated (a result that did not count turned it unrated: its reason
    stays, and the rematch is offered rated again; its own start decides anew)."""
    return match.rated or unrated_reason(match) is not None


@transaction.atomic
def match_rematch(*, match_id: int, user: User) -> tuple[Match | None, JSONObject]:
    """Offer or accept a rematch of a finished match: (the new match once every player asked, else None; the
    offer as `{"offered_by": [positions], "match_id": id|None}`)."""
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    if seat.left_at is not None:
        raise ApplicationError(
            "not_participant", gettext("You left this game: you cannot ask for a rematch."), status_code=403
        )
    if not rematch_possible(match):
        raise ApplicationError(
            "not_finished",
            gettext("A rematch can be asked for once the match has finished."),
            status_code=status.HTTP_409_CONFLICT,
        )
    lobby = dict(match.lobby or {})
    offer = dict(lobby.get("rematch") or {"offered_by": [], "match_id": None})
    existing = (
        offer.get("match_id") or Match.objects.filter(rematch_of=match).values_list("pk", flat=True).first()
    )
    if existing:
        raise ApplicationError(
            "rematch_exists",
            gettext("The rematch has already been made: match #%(id)s.") % {"id": existing},
            extra={"match_id": existing},
            status_code=status.HTTP_409_CONFLICT,
        )
    asked = sorted({*offer.get("offered_by", []), seat.position})
    offer["offered_by"] = asked
    created = None
    if set(asked) >= {s.position for s in rematch_players(seats)}:
        created = _make_rematch(match, seats)
        offer["match_id"] = created.pk
    lobby["rematch"] = offer
    match.lobby = lobby
    match.save(update_fields=["lobby"])
    notify_on_commit(match)
    return created, offer


def _make_rematch(match: Match, seats: list[Seat]) -> Match:
    """The new match, seated with the sides swapped, started at once (see the module docstring)."""
    from matches.services.lobby import _start, check_open_matches

    game = get_game(match.kind)
    players = rematch_players(seats)
    for s in players:
        if s.user is not None:  # the players are the human seats: each has its user
            check_open_matches(s.user)
    config = {k: v for k, v in (match.rules_config or {}).items() if k != "seat_houses"}
    has_houses = bool(game.houses(config))
    creator = next((s.user for s in players if s.user_id == match.created_by_id), players[0].user)
    assert creator is not None  # the players of a rematch are the human seats
    new = Match.objects.create(
        kind=match.kind,
        created_by=creator,
        seed=new_seed(),
        rules_config=config,
        time_control=match.time_control,
        is_public=match.is_public,
        rematch_of=match,
        rated=created_rated(match)
        and all(s.user_id is not None and s.left_at is None for s in seats),  # people only
    )
    n = len(seats)
    keep_houses = has_houses and seating_mode(match) != "random"
    for old in seats:
        human = old.user_id is not None and old.left_at is None
        position = old.position if has_houses else (old.position + 1) % n
        house = seats[(old.position + 1) % n].house if keep_houses else ""
        Seat.objects.create(
            match=new,
            position=position,
            user=old.user if human else None,
            deck_id=old.deck_id if human else None,
            ai_agent="" if human else (old.ai_agent if old.user_id is None else TAKEOVER_AGENT),
            house=house,
        )
    _start(new, game, user=creator)
    return new
