"""The lobby: create, join, leave and start a match, concede it; AI seats at creation; double submits.

Written like every write (docs/style.md 10): lock the match row, check, change, act after commit.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from rest_framework import status

from config.errors import ApplicationError
from matches import storage
from matches.agents import AGENT_NAMES, DEFAULT_AGENT
from matches.clocks import SeatClock, TimeControl
from matches.games.kind import Result
from matches.games.registry import AnyGame, get_game
from matches.jsontypes import JSONObject
from matches.messages import CANCELLED, CONCEDED, play_message
from matches.models import IdempotencyRecord, Match, MatchStatus, Seat, new_seed, remember_base
from matches.services.ai_seats import hand_seat_to_ai
from matches.services.notify import after_change_on_commit, notify_on_commit
from matches.services.ratings import pairing_cap_reached, refuse_unrateable
from matches.services.seating import (
    assign_houses,
    check_not_kicked,
    house_at_join,
    match_leave_running,
    seating_mode,
)
from matches.services.submit import (
    check_same_request,
    finish,
    game_over,
    not_participant,
    request_hash,
    store_clock,
)

MAX_OPEN_MATCHES = 20  # default of settings.MATCHES_MAX_OPEN_PER_USER: seats in waiting or running matches

logger = logging.getLogger(__name__)


def max_open_matches() -> int:
    """How many open (waiting or running) matches one user may sit in at once (a setting)."""
    from django.conf import settings

    return int(getattr(settings, "MATCHES_MAX_OPEN_PER_USER", MAX_OPEN_MATCHES))


def check_open_matches(user: User) -> None:
    """Refuse a new seat to a user who already sits in the most open matches allowed (409 naming the limit).

    Without a bound one request per match keeps a worker busy for days (a 14-day clock each).
    """
    limit = max_open_matches()
    count = Seat.objects.filter(  # a game the user left (the AI plays on) is no longer theirs
        user=user, match__status__in=(MatchStatus.WAITING, MatchStatus.ACTIVE), left_at__isnull=True
    ).count()
    if count >= limit:
        raise ApplicationError(
            "too_many_open_matches",
            gettext(
                "You already have %(count)s open matches (at most %(limit)s): finish, concede or leave one first."
            )
            % {"count": count, "limit": limit},
            extra={"open_matches": count, "limit": limit},
            status_code=status.HTTP_409_CONFLICT,
        )


@transaction.atomic
def match_create(
    *,
    user: User,
    kind: str,
    deck_id: int | None = None,
    is_public: bool = True,
    time_control: JSONObject | None = None,
    vs_ai: bool = False,
    ai_agent: str = DEFAULT_AGENT,
    rules_config: JSONObject | None = None,
    create_digest: str = "",
    starter_deck_id: int | None = None,
    rematch_of: Match | None = None,
    rated: bool = False,
    spectator_chat: bool = False,
    auto_start: bool = False,
) -> Match:
    """Open a match with the creator in seat 0; `vs_ai` fills the other seats with AIs and starts at once.

    `create_digest` marks the request it answers (`seats.match_create_with_ai` finds a double submit by it).
    `is_public` holds for AI matches too: a public one is listed and anyone may watch it.
    `starter_deck_id`: a starter deck (`decks.services.starter_deck_copy`) copied into the creator's account
    and played (a new account has no deck yet).
    """
    if starter_deck_id is not None:
        deck_id = _starter_copy(user=user, starter_deck_id=starter_deck_id)
    game = get_game(kind)
    try:
        tc = TimeControl.from_json(time_control)
    except (ValueError, TypeError) as exc:
        raise ApplicationError("invalid_time_control", str(exc)) from None
    if vs_ai and ai_agent not in AGENT_NAMES:
        raise ApplicationError(
            "invalid",
            gettext("Unknown AI agent '%(agent)s'; choose one of %(agents)s.")
            % {"agent": ai_agent, "agents": ", ".join(AGENT_NAMES)},
        )
    try:
        config = game.check_config(rules_config or {})
    except (ValueError, TypeError) as exc:
        raise ApplicationError("invalid_rules_config", str(exc)) from None
    if rated:  # only games between people, with a time control (services.ratings)
        refuse_unrateable(
            kind=kind, ai_seats=game.seat_count(config) - 1 if vs_ai else 0, time_control=tc.to_json()
        )
    game.seat_deck_check(user=user, deck_id=deck_id)
    check_open_matches(user)
    match = Match.objects.create(
        kind=kind,
        created_by=user,
        seed=new_seed(),
        rules_config=config,
        time_control=tc.to_json(),
        is_public=is_public,
        create_digest=create_digest,
        rematch_of=rematch_of,
        rated=rated,
        spectator_chat=spectator_chat,
        auto_start=auto_start,
    )
    seats = [Seat.objects.create(match=match, position=0, user=user, deck_id=deck_id)]
    chosen = config.get("house", "")
    seats[0].house = house_at_join(
        match, [], chosen if isinstance(chosen, str) and chosen != "random" else ""
    )
    if seats[0].house:
        seats[0].save(update_fields=["house"])
    if vs_ai:
        for pos in range(1, game.seat_count(config)):
            seats.append(_ai_seat(match, pos, ai_agent, seats))
        _start(match, game, user=user)
    return match


def _ai_seat(match: Match, position: int, agent: str, seats: list[Seat]) -> Seat:
    """An AI seat added at creation; in "choose" seating it takes the first free house (W-1.1)."""
    house = house_at_join(match, seats, "") if seating_mode(match) == "choose" else ""
    seat = Seat.objects.create(match=match, position=position, ai_agent=agent, house=house)
    seats.append(seat)
    return seat


def _starter_copy(*, user: User, starter_deck_id: int) -> int:
    """Copy a starter deck into the user's account (once: an existing copy of the same name is reused)."""
    from decks import selectors as deck_selectors
    from decks import services as deck_services
    from decks.models import Deck

    starter = (
        deck_selectors.deck_queryset()
        .filter(pk=starter_deck_id, owner__username=STARTER_OWNER, visibility="public")
        .first()
    )
    if starter is None:
        raise ApplicationError(
            "invalid_deck",
            gettext("Deck #%(id)s is not a starter deck.") % {"id": starter_deck_id},
            extra={"deck_id": starter_deck_id},
        )
    own = Deck.objects.filter(owner=user, name=starter.name).order_by("-id").first()
    if own is not None and deck_selectors.deck_legality(own).valid:
        return own.pk
    entries = deck_selectors.deck_entries(starter)
    copy = deck_services.deck_create(
        owner=user,
        name=starter.name,
        faction=starter.faction.slug if starter.faction else None,
        commander=starter.commander.slug if starter.commander else None,
        notes=starter.notes,
        cards=[(card.slug, count) for card, count in entries],
    )
    return copy.pk


STARTER_OWNER = "starter"  # the account `manage.py starter_decks` publishes the starter decks under


@transaction.atomic
def match_join(
    *, match_id: int, user: User, deck_id: int | None = None, invite_token: str = "", house: str = ""
) -> Seat:
    """Take the first free seat of a waiting match (private matches need the invite token).

    `house` (Westeros): the house the joiner picks, free and in the set-up of the player count (W-1.1);
    see `services.seating` for the seating modes.
    """
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    if loaded.seat_of(user) is not None:
        raise ApplicationError(
            "already_seated", gettext("You already have a seat in this match."), status_code=409
        )
    if not match.is_public and invite_token != match.invite_token:
        raise ApplicationError(
            "not_invited", gettext("This match is private: join through its invite link."), status_code=403
        )
    if match.status != MatchStatus.WAITING:
        raise ApplicationError("match_started", gettext("This match has already started."), status_code=409)
    check_not_kicked(match, user)
    game = get_game(match.kind)
    free = sorted(set(range(game.seat_count(match.rules_config))) - {s.position for s in seats})
    if not free:
        raise ApplicationError("match_full", gettext("Every seat of this match is taken."), status_code=409)
    picked = house_at_join(match, seats, house)
    game.seat_deck_check(user=user, deck_id=deck_id)
    check_open_matches(user)
    try:
        with transaction.atomic():
            seat = Seat.objects.create(
                match=match, position=free[0], user=user, deck_id=deck_id, house=picked
            )
    except IntegrityError:
        raise ApplicationError("match_full", gettext("That seat was just taken."), status_code=409) from None
    if match.auto_start and len(free) == 1:
        _auto_start(match, game, user=user)
    if match.status == MatchStatus.WAITING:  # a start notifies by itself (after_change_on_commit)
        notify_on_commit(match)
    return seat


def _auto_start(match: Match, game: AnyGame, *, user: Any) -> None:
    """Start a match whose last seat was just taken (its creator chose so, the default). A start refused
    now (a deck no longer legal, C-3) keeps the seat taken and the match waiting for a manual start,
    which names the problem; the join itself succeeds."""
    try:
        with transaction.atomic():
            _start(match, game, user=user)
    except ApplicationError as exc:
        logger.info("match %s did not start by itself: %s", match.pk, exc.message)
        match.refresh_from_db()


@transaction.atomic
def match_leave(*, match_id: int, user: User) -> None:
    """Give up a seat before the start (the creator leaving cancels the match); leave a running game of 3+
    seats (an AI plays the seat on: `seating.match_leave_running`)."""
    loaded = storage.load_for_update(match_id)
    match = loaded.match
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    if match.status == MatchStatus.ACTIVE:
        match_leave_running(match_id=match_id, user=user)
        return
    if match.status != MatchStatus.WAITING:
        raise ApplicationError(
            "match_started", gettext("The match has started: concede instead of leaving."), status_code=409
        )
    if match.created_by_id == user.pk:
        match.status = MatchStatus.ABORTED
        text, message = play_message(CANCELLED)
        match.result = {"winner": None, "reason": "cancelled", "text": text, "message": message}
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "result", "finished_at"])
    else:
        seat.delete()
    notify_on_commit(match)


@transaction.atomic
def match_start(*, match_id: int, user: User) -> Match:
    """Start a waiting match whose seats are all taken; every deck is validated again now (C-3)."""
    loaded = storage.load_for_update(match_id)
    match = loaded.match
    if loaded.seat_of(user) is None:
        raise not_participant(match_id)
    if match.status != MatchStatus.WAITING:
        raise ApplicationError("match_started", gettext("This match has already started."), status_code=409)
    _start(match, get_game(match.kind), user=user)
    return match


def _start(match: Match, game: AnyGame, *, user: User) -> None:
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("position"))
    needed = game.seat_count(match.rules_config)
    if len(seats) < needed:
        open_seats = needed - len(seats)
        raise ApplicationError(
            "seats_open",
            ngettext("%(count)s seat still open.", "%(count)s seats still open.", open_seats)
            % {"count": open_seats},
            status_code=409,
        )
    assign_houses(match, game, seats)
    rng = random.Random(match.seed ^ 0x5EED)
    decks: list[JSONObject] = []
    for seat in seats:
        if seat.is_ai:
            seat.deck_snapshot = game.ai_deck_snapshot(rng=rng, opponent=decks[0] if decks else None)
        else:
            seat.deck_snapshot = game.seat_deck_snapshot(user=seat.user, deck_id=seat.deck_id)
        decks.append(seat.deck_snapshot)
    state = game.new_state(decks=decks, seed=match.seed, config=match.rules_config)
    now = timezone.now()
    tc = TimeControl.from_json(match.time_control)
    current = set(game.current_players(state))
    for seat in seats:
        clock = SeatClock(remaining_ms=tc.initial_ms())
        if seat.position in current:
            clock.start(tc, now)
        store_clock(seat, clock)
        seat.save()
    snapshot = game.dump(state)
    match.state_base = snapshot  # written once: later saves store only what differs from it
    match.state = snapshot
    match.state_version = 0
    match.status = MatchStatus.ACTIVE
    match.started_at = now
    if match.rated:  # the players learn now, not at the end, that this pairing is played unrated
        repeated = pairing_cap_reached(match.kind, [s.user_id for s in seats if s.user_id is not None])
        if repeated is not None:
            match.rated = False
            match.lobby = {**(match.lobby or {}), "unrated": repeated}
    match.save()
    remember_base(match.pk, match.seed, snapshot)  # keyed by the secret seed too: harmless if rolled back
    storage.remember_on_commit(match, game, state)
    after_change_on_commit(match, seats=seats)


@transaction.atomic
def match_concede(*, match_id: int, user: User) -> Match:
    """Concede (C-6.4): the other player wins at once; with 3+ players an AI takes the seat over."""
    loaded = storage.load_for_update(match_id)
    match, seats = loaded.match, loaded.seats
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise game_over(match)
    if seat.is_ai:
        raise ApplicationError("conceded", gettext("You have already conceded this match."), status_code=409)
    others = [s.position for s in seats if s.position != seat.position]
    if len(others) > 1:  # 3+ players: the game goes on, an AI takes over the conceding seat
        hand_seat_to_ai(loaded, seat, stop_clock=False)
        return match
    text, message = play_message(CONCEDED, name=seat.display_name)
    finish(
        match,
        seats,
        Result(winner=others[0], reason="concede", text=text, message=message),
        timezone.now(),
    )
    match.save()
    for s in seats:
        s.save()
    after_change_on_commit(match)
    return match


DEDUPE_WINDOW = timedelta(seconds=10)  # a second identical "create" this soon is the same click again
KEYED_DEDUPE_WINDOW = timedelta(days=1)  # a client's Idempotency-Key names one match this long


def create_digest(*, user: User, idempotency_key: str | None, settings: JSONObject) -> str:
    """What identifies a create request: the client's Idempotency-Key, else the creator and every setting."""
    if idempotency_key:
        text = json.dumps(["key", user.pk, idempotency_key])
    else:
        text = json.dumps(["settings", user.pk, settings], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def recent_duplicate(*, user: User, digest: str, keyed: bool, now: datetime | None = None) -> Match | None:
    """The match this create request already made (a double click, a retry), if still open and recent.

    A client's retry with the same Idempotency-Key gets its match back whatever became of it; without a
    key, a match that has already ended is no double click: the player asks for a new game (a quick loss,
    then "Play against the AI" again)."""
    now = now or timezone.now()
    since = now - (KEYED_DEDUPE_WINDOW if keyed else DEDUPE_WINDOW)
    found = (
        Match.objects.defer("state", "state_base")
        .filter(created_by=user, create_digest=digest, created_at__gte=since)
        .exclude(status=MatchStatus.ABORTED, result__reason="cancelled")
    )
    if not keyed:
        found = found.exclude(status__in=(MatchStatus.FINISHED, MatchStatus.ABORTED))
    return found.order_by("-id").first()


@transaction.atomic
def match_create_once(
    *,
    user: User,
    kind: str,
    ai_seats: int = 0,
    ai_agent: str = DEFAULT_AGENT,
    idempotency_key: str | None = None,
    **create: Any,
) -> tuple[Match, bool]:
    """`match_create_with_ai`, but a double submit creates ONE match: (the match, created?).

    The same settings again within DEDUPE_WINDOW, or the same Idempotency-Key within a day, return the
    first match (and False). The creator's user row is locked first, so two simultaneous requests of
    one user are decided one after the other (PostgreSQL; SQLite serialises writers anyway).

    A key is stored with the fingerprint of its request's settings, as the actions endpoint stores its
    keys (`IdempotencyRecord`, `submit.check_same_request`): the same key with other settings is a 409
    `idempotency_key_reused`, never the first match passed off as the answer to another request.
    """
    settings = {"kind": kind, "ai_seats": ai_seats, "ai_agent": ai_agent, **create}
    digest = create_digest(user=user, idempotency_key=idempotency_key, settings=settings)
    fingerprint = request_hash(["create", settings])  # never equal to an action's: the two cannot mix
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    found = recent_duplicate(user=user, digest=digest, keyed=bool(idempotency_key))
    if found is not None:
        if idempotency_key:
            record = IdempotencyRecord.objects.filter(user=user, match=found, key=idempotency_key).first()
            if record is not None:  # none: a match made before keys kept their request's fingerprint
                check_same_request(record, fingerprint)
        return found, False
    match = match_create_with_ai(
        user=user, kind=kind, ai_seats=ai_seats, ai_agent=ai_agent, create_digest=digest, **create
    )
    if idempotency_key:
        IdempotencyRecord.objects.create(
            user=user,
            match=match,
            key=idempotency_key,
            request_hash=fingerprint,
            response={"match": match.pk},
        )
    return match, True


@transaction.atomic
def match_create_with_ai(
    *, user: User, kind: str, ai_seats: int, ai_agent: str = DEFAULT_AGENT, **create: Any
) -> Match:
    """Create a match whose last `ai_seats` seats are AI houses; when no seat is left open it starts at once."""
    game = get_game(kind)
    if create.get("rated") and ai_seats > 0:
        refuse_unrateable(kind=kind, ai_seats=ai_seats, time_control=create.get("time_control") or {})
    match = match_create(user=user, kind=kind, ai_agent=ai_agent, **create)
    if ai_seats <= 0 or match.status != MatchStatus.WAITING:
        return match
    seats = game.seat_count(match.rules_config)
    if ai_seats > seats - 1:
        raise ApplicationError(
            "invalid",
            ngettext(
                "At most %(count)s AI seat fits a %(seats)s-seat match (one is yours).",
                "At most %(count)s AI seats fit a %(seats)s-seat match (one is yours).",
                seats - 1,
            )
            % {"count": seats - 1, "seats": seats},
        )
    Match.objects.select_for_update().get(pk=match.pk)
    taken = list(Seat.objects.filter(match=match))
    for position in range(seats - ai_seats, seats):
        _ai_seat(match, position, ai_agent, taken)
    if ai_seats == seats - 1:
        return match_start(match_id=match.pk, user=user)
    return match
