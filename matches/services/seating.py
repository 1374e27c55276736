"""Seats and houses at an unstarted table, and leaving a running one.

A game whose seats pick a side (Westeros: a house, W-1.1; `AnyGame.houses`) is seated in one of three
modes, chosen by the creator (`rules_config["seating"]`):

- "choose" (default): every player picks a free house when joining (none named: the first free one in
  set-up order) and may change it until the start; AI houses take the first free ones when added.
- "random": nobody picks; every seat's house is drawn at the start with the match's seeded RNG (the old
  `house: "random"` means the same).
- "draft": players pick in join order, each from the houses left: a player may pick once every player who
  joined before them has picked; a pick is final. AI houses take what is left at the start (seeded draw).

At the start (`assign_houses`) every seat's house is fixed and written to `rules_config["seat_houses"]`,
which the adapter hands the engine (seat i plays `seat_houses[i]`).

The creator may remove a player from an unstarted table (`match_kick`: the player sees why and cannot come
back to it) and fill every empty seat with AI houses of one level (`match_fill_ai`). A player who leaves a
running game of 3+ seats (`match_leave_running`) has their seat handed to the AI (`hand_seat_to_ai`,
level TAKEOVER_AGENT): the seat keeps their name, marked "(AI, left)"; they may still watch. Leaving a
running 2-seat game is conceding (C-6.4).
"""

from __future__ import annotations

import random

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import status

from config.errors import ApplicationError
from matches import storage
from matches.agents import LEVELS, TAKEOVER_AGENT
from matches.games.registry import AnyGame, get_game
from matches.messages import house_name, seat_names
from matches.models import Match, MatchStatus, Seat
from matches.services.ai_seats import hand_seat_to_ai
from matches.services.notify import notify_on_commit
from matches.services.submit import game_over, not_participant

SEATING_MODES = ("choose", "random", "draft")


def seating_mode(match: Match) -> str:
    """How the match's seats get their houses ("" for a game without houses)."""
    config = match.rules_config or {}
    if not get_game(match.kind).houses(config):
        return ""
    if config.get("house") == "random":
        return "random"
    mode = config.get("seating") or "choose"
    return mode if mode in SEATING_MODES else "choose"


def kicked_user_ids(match: Match) -> set[int]:
    return {int(k["user_id"]) for k in (match.lobby or {}).get("kicked", []) if "user_id" in k}


def check_not_kicked(match: Match, user: User) -> None:
    if user.pk in kicked_user_ids(match):
        raise ApplicationError(
            "kicked",
            gettext("The creator removed you from this table: you cannot join it again."),
            status_code=status.HTTP_403_FORBIDDEN,
        )


def _taken(seats: list[Seat], *, but: Seat | None = None) -> set[str]:
    return {s.house for s in seats if s.house and (but is None or s.pk != but.pk)}


def _check_house(game: AnyGame, match: Match, seats: list[Seat], house: str, *, seat: Seat | None) -> str:
    """`house` if it is in this player count's set-up and free (W-1.1), else a 400 naming the choices."""
    houses = game.houses(match.rules_config)
    count = game.seat_count(match.rules_config)
    if house not in houses:
        raise ApplicationError(
            "invalid_house",
            gettext(
                "'%(house)s' is not a house of a %(count)s-player game: choose one of %(houses)s (W-1.1)."
            )
            % {"house": house[:40], "count": count, "houses": ", ".join(houses)},
            extra={"houses": houses},
        )
    taken = _taken(seats, but=seat)
    if house in taken:
        free = [h for h in houses if h not in taken]
        raise ApplicationError(
            "house_taken",
            (
                gettext("House %(house)s is already taken: choose one of %(free)s.")
                % {"house": house_name(house), "free": ", ".join(free)}
                if free
                else gettext("House %(house)s is already taken: none is left.") % {"house": house_name(house)}
            ),
            extra={"free": free},
        )
    return house


def _draft_turn(seats: list[Seat], seat: Seat) -> Seat | None:
    """The first player (join order) before `seat` who has not picked yet, or None when `seat` may pick."""
    humans = sorted(
        (s for s in seats if not s.is_ai), key=lambda s: (s.joined_at or timezone.now(), s.pk or 0)
    )
    for other in humans:
        if other.pk == seat.pk:
            return None
        if not other.house:
            return other
    return None


def house_at_join(match: Match, seats: list[Seat], house: str) -> str:
    """The house a joiner takes (checked), or "" (random mode; draft without a pick yet)."""
    game = get_game(match.kind)
    mode = seating_mode(match)
    if not mode:
        if house:
            raise ApplicationError("invalid_house", gettext("This game has no houses to choose."))
        return ""
    if mode == "random":
        if house:
            raise ApplicationError(
                "invalid_house",
                gettext("Houses are drawn at random at the start of this match: join without one."),
            )
        return ""
    if mode == "draft":
        if house:
            waiting = [s for s in seats if not s.is_ai and not s.house]
            if waiting:
                raise ApplicationError(
                    "not_your_pick",
                    gettext("Draft: %(name)s picks first; join, then pick when it is your turn.")
                    % {"name": seat_names([waiting[0].display_name])},
                    status_code=status.HTTP_409_CONFLICT,
                )
            return _check_house(game, match, seats, house, seat=None)
        return ""
    if house:
        return _check_house(game, match, seats, house, seat=None)
    free = [h for h in game.houses(match.rules_config) if h not in _taken(seats)]
    return free[0] if free else ""


@transaction.atomic
def match_pick_house(*, match_id: int, user: User, house: str) -> Seat:
    """Pick (choose mode: or change) the caller's house before the start (W-1.1)."""
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    if match.status != MatchStatus.WAITING:
        raise ApplicationError(
            "match_started", gettext("Houses are fixed once the match has started."), status_code=409
        )
    mode = seating_mode(match)
    if not mode:
        raise ApplicationError("invalid_house", gettext("This game has no houses to choose."))
    if mode == "random":
        raise ApplicationError(
            "invalid_house",
            gettext("Houses are drawn at random at the start of this match."),
            status_code=409,
        )
    game = get_game(match.kind)
    if mode == "draft":
        if seat.house:
            raise ApplicationError(
                "already_picked",
                gettext("Draft: you picked House %(house)s; picks are final.")
                % {"house": house_name(seat.house)},
                status_code=409,
            )
        first = _draft_turn(seats, seat)
        if first is not None:
            raise ApplicationError(
                "not_your_pick",
                gettext("Draft: %(name)s picks before you (join order).")
                % {"name": seat_names([first.display_name])},
                status_code=status.HTTP_409_CONFLICT,
            )
    seat.house = _check_house(game, match, seats, house, seat=seat)
    seat.save(update_fields=["house"])
    notify_on_commit(match)
    return seat


def _must_be_creator(match: Match, user: User, action: str) -> None:
    """`action`: "kick" (remove a player) or "fill_ai" (add AI players)."""
    kick = action == "kick"
    if match.created_by_id != user.pk:
        raise ApplicationError(
            "not_creator",
            gettext("Only the table's creator may remove players.")
            if kick
            else gettext("Only the table's creator may add AI players."),
            status_code=status.HTTP_403_FORBIDDEN,
        )
    if match.status != MatchStatus.WAITING:
        raise ApplicationError(
            "match_started",
            gettext("The match has started: you can no longer remove players.")
            if kick
            else gettext("The match has started: you can no longer add AI players."),
            status_code=409,
        )


@transaction.atomic
def match_kick(*, match_id: int, user: User, position: int) -> None:
    """The creator removes the player (or AI) of seat `position` from an unstarted table.

    A removed player sees why (the match's `kicked` list names them) and cannot join this table again.
    """
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    _must_be_creator(match, user, "kick")
    seat = next((s for s in seats if s.position == position), None)
    if seat is None:
        raise ApplicationError(
            "no_such_seat",
            gettext("Seat %(number)s is empty.") % {"number": position + 1},
            extra={"position": position},
        )
    if seat.user_id == user.pk:
        raise ApplicationError(
            "invalid", gettext("You cannot remove yourself: leave (cancel) the table instead.")
        )
    if seat.user_id is not None and not seat.is_ai:
        lobby = dict(match.lobby or {})
        kicked = [k for k in lobby.get("kicked", []) if k.get("user_id") != seat.user_id]
        lobby["kicked"] = [*kicked, {"user_id": seat.user_id, "name": seat.display_name}][-50:]
        match.lobby = lobby
        match.save(update_fields=["lobby"])
    seat.delete()
    notify_on_commit(match)


@transaction.atomic
def match_fill_ai(*, match_id: int, user: User, agent: str) -> list[Seat]:
    """The creator fills every empty seat with an AI of level `agent` (choose mode: with the first free houses)."""
    if agent not in LEVELS:
        raise ApplicationError(
            "invalid",
            gettext("Unknown AI level '%(level)s'; choose one of %(levels)s.")
            % {"level": agent[:20], "levels": ", ".join(LEVELS)},
        )
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    _must_be_creator(match, user, "fill_ai")
    if match.rated:  # a rated match is for people only (services.ratings)
        raise ApplicationError(
            "not_rateable",
            gettext("This match is rated: only people can take its seats, not the AI."),
            status_code=409,
        )
    game = get_game(match.kind)
    free = sorted(set(range(game.seat_count(match.rules_config))) - {s.position for s in seats})
    if not free:
        raise ApplicationError("match_full", gettext("Every seat of this match is taken."), status_code=409)
    houses = [h for h in game.houses(match.rules_config) if h not in _taken(seats)]
    choose = seating_mode(match) == "choose"
    made = []
    for position in free:
        house = houses.pop(0) if choose and houses else ""
        made.append(Seat.objects.create(match=match, position=position, ai_agent=agent, house=house))
    notify_on_commit(match)
    return made


def assign_houses(match: Match, game: AnyGame, seats: list[Seat]) -> None:
    """Fix every seat's house at the start (W-1.1) and hand them to the engine in `rules_config`.

    random: a seeded draw for every seat; choose/draft: the picks, and the houses left drawn with the
    seeded RNG for the seats without one (AI houses). A player who has not picked in a draft holds the start.
    """
    houses = game.houses(match.rules_config)
    if not houses:
        return
    mode = seating_mode(match)
    rng = random.Random(match.seed ^ 0x40_5E)
    if mode == "random":
        order = list(houses)
        rng.shuffle(order)
        for seat, house in zip(seats, order, strict=False):
            seat.house = house
    else:
        unpicked = [s for s in seats if not s.is_ai and not s.house]
        if unpicked and mode == "draft":
            raise ApplicationError(
                "houses_open",
                gettext("Draft: %(names)s must pick a house first.")
                % {"names": seat_names([s.display_name for s in unpicked])},
                status_code=409,
            )
        left = [h for h in houses if h not in _taken(seats)]
        rng.shuffle(left)
        for seat in seats:
            if not seat.house:
                seat.house = left.pop()
    match.rules_config = {**(match.rules_config or {}), "seat_houses": [s.house for s in seats]}


@transaction.atomic
def match_leave_running(*, match_id: int, user: User) -> Match:
    """Leave a running game of 3+ seats: the AI plays the seat on under the player's name, marked "(AI, left)".

    The leaver can no longer act (their seat is an AI seat) but may still watch. In a 2-seat game leaving
    is conceding (C-6.4): 409 pointing at Concede.
    """
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise game_over(match)
    if seat.left_at is not None:
        raise ApplicationError("already_left", gettext("You have already left this game."), status_code=409)
    if len(seats) < 3:
        raise ApplicationError(
            "match_started",
            gettext("The match has started: concede instead of leaving (C-6.4)."),
            status_code=409,
        )
    seat.left_at = timezone.now()
    seat.save(update_fields=["left_at"])
    if not seat.is_ai:
        hand_seat_to_ai(loaded, seat, agent=TAKEOVER_AGENT, stop_clock=False)
    else:
        notify_on_commit(match)
    return match
