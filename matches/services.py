"""Writes of the online-play layer: create/join/leave/start, submit actions, concede, enforce clocks, AI moves.

Every write follows STYLE.md 10 — lock the match row (`select_for_update`), check, apply through the
game's engine, append to the log, save the state, and only after commit notify the players and
schedule timers/AI (`transaction.on_commit`). Game rules never appear here: `matches.games` adapters
hold them, so Commandeer and Westeros share this file.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from rest_framework import status

from config import sql
from config.errors import ApplicationError
from matches import queries
from matches.clocks import EAGER_TIMER_HORIZON, TIMEOUTS_TO_FORFEIT, SeatClock, TimeControl
from matches.games import GameAdapter, cached_state, get_game, remember_state
from matches.models import (
    ActionLog,
    IdempotencyRecord,
    Match,
    MatchStatus,
    Seat,
    new_seed,
    remember_base,
)
from matches.selectors import describe_action

log = logging.getLogger(__name__)

AI_AGENTS = ("greedy", "random")


# ---- errors ---------------------------------------------------------------------------------------
def _not_found(match_id: int) -> ApplicationError:
    return ApplicationError("not_found", f"No match #{match_id}.", status_code=status.HTTP_404_NOT_FOUND)


def _not_participant(match_id: int) -> ApplicationError:
    return ApplicationError(
        "not_participant", f"You are not seated in match #{match_id}.", status_code=status.HTTP_403_FORBIDDEN
    )


def _game_over(match: Match) -> ApplicationError:
    return ApplicationError(
        "game_over",
        f"Match #{match.pk} is {match.get_status_display().lower()}; it accepts no further action.",
        extra={"status": match.status, "result": match.result},
        status_code=status.HTTP_409_CONFLICT,
    )


def state_key(match: Match) -> tuple[int, int, int]:
    """Cache key of a match's stored state: a version never denotes two different states."""
    return (match.pk, match.state_version, match.seed)


def load_state(match: Match, game: GameAdapter) -> Any:
    """The match's engine state through the per-process cache (always a private copy)."""
    return cached_state(game, key=state_key(match), data=lambda: stored_state(match))


def stored_state(match: Match) -> Any:
    """The full snapshot of a match row: one query for the (deferred) state, joined with its start part
    (`Match.from_db`)."""
    if "state" in match.__dict__:
        return match.state
    return queries.match_state(match.pk)


# Columns a write path never needs: the snapshot (read through the cache) and its start part.
SNAPSHOT_FIELDS = ("state", "state_base")
# What an action changes: the match row and the seats' clocks (never their frozen deck snapshots).
MATCH_ACTION_FIELDS = ["state", "state_version", "status", "result", "finished_at"]
SEAT_ACTION_FIELDS = [
    "clock_remaining_ms",
    "clock_started_at",
    "deadline",
    "consecutive_timeouts",
    "has_moved",
]


def _lock_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The locked match row and its seats with their users, in one query (`matches.queries`)."""
    found = queries.match_with_seats(match_id, lock=True)
    if found is None:
        raise _not_found(match_id)
    match, seats = found
    queries.attach_seats(match, seats)  # `queries.seats_of(match)` is these very instances, as they change
    for s in seats:
        s._action_fields_loaded = _seat_action_values(s)  # type: ignore[attr-defined]
    return match, seats


def _seats(match: Match) -> list[Seat]:
    """The match's seats with their users, without the (large, frozen) deck snapshots."""
    seats = list(
        Seat.objects.filter(match=match).select_related("user").defer("deck_snapshot").order_by("position")
    )
    for s in seats:
        s._action_fields_loaded = _seat_action_values(s)  # type: ignore[attr-defined]
    return seats


def _seat_action_values(seat: Seat) -> tuple[Any, ...]:
    return tuple(getattr(seat, f) for f in SEAT_ACTION_FIELDS)


def _save_changed_seats(seats: list[Seat], writes: sql.Writes) -> list[Seat]:
    """An UPDATE (into `writes`) per seat whose clock/timeout fields changed, of those fields only; the
    seats whose deadline changed (they need a timer; an unchanged deadline has one already)."""
    new_deadline = []
    for s in seats:
        before = getattr(s, "_action_fields_loaded", None)
        now = _seat_action_values(s)
        changed = [f for i, f in enumerate(SEAT_ACTION_FIELDS) if before is None or before[i] != now[i]]
        if changed:
            writes.update(s, changed)
            s._action_fields_loaded = now  # type: ignore[attr-defined]
        if "deadline" in changed:
            new_deadline.append(s)
    return new_deadline


def _seat_of(seats: list[Seat], user: Any) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in seats if s.user_id == user.pk), None)


# ---- lobby ----------------------------------------------------------------------------------------
MAX_OPEN_MATCHES = 20  # default of settings.MATCHES_MAX_OPEN_PER_USER: seats in waiting or running matches


def max_open_matches() -> int:
    """How many open (waiting or running) matches one user may sit in at once (a setting)."""
    from django.conf import settings

    return int(getattr(settings, "MATCHES_MAX_OPEN_PER_USER", MAX_OPEN_MATCHES))


def check_open_matches(user: Any) -> None:
    """Refuse a new seat to a user who already sits in the most open matches allowed (409 naming the limit).

    Without a bound one request per match keeps a worker busy for days (issue 11: a 14-day clock each).
    """
    limit = max_open_matches()
    count = Seat.objects.filter(
        user=user, match__status__in=(MatchStatus.WAITING, MatchStatus.ACTIVE)
    ).count()
    if count >= limit:
        raise ApplicationError(
            "too_many_open_matches",
            f"You already have {count} open matches (at most {limit}): finish, concede or leave one first.",
            extra={"open_matches": count, "limit": limit},
            status_code=status.HTTP_409_CONFLICT,
        )


@transaction.atomic
def match_create(
    *,
    user: Any,
    kind: str,
    deck_id: int | None = None,
    is_public: bool = True,
    time_control: dict[str, Any] | None = None,
    vs_ai: bool = False,
    ai_agent: str = "greedy",
    rules_config: dict[str, Any] | None = None,
    create_digest: str = "",
) -> Match:
    """Open a match with the creator in seat 0; `vs_ai` fills the other seats with AIs and starts at once.

    `create_digest` marks the request it answers (`seats.match_create_with_ai` finds a double submit by it).
    """
    game = get_game(kind)
    try:
        tc = TimeControl.from_json(time_control)
    except (ValueError, TypeError) as exc:
        raise ApplicationError("invalid_time_control", str(exc)) from None
    if vs_ai and ai_agent not in AI_AGENTS:
        raise ApplicationError(
            "invalid", f"Unknown AI agent '{ai_agent}'; choose one of {', '.join(AI_AGENTS)}."
        )
    try:
        config = game.check_config(rules_config or {})
    except (ValueError, TypeError) as exc:
        raise ApplicationError("invalid_rules_config", str(exc)) from None
    game.seat_deck_check(user=user, deck_id=deck_id)
    check_open_matches(user)
    match = Match.objects.create(
        kind=kind,
        created_by=user,
        seed=new_seed(),
        rules_config=config,
        time_control=tc.to_json(),
        is_public=is_public and not vs_ai,
        create_digest=create_digest,
    )
    Seat.objects.create(match=match, position=0, user=user, deck_id=deck_id)
    if vs_ai:
        for pos in range(1, game.seat_count(config)):
            Seat.objects.create(match=match, position=pos, ai_agent=ai_agent)
        _start(match, game, user=user)
    return match


@transaction.atomic
def match_join(*, match_id: int, user: Any, deck_id: int | None = None, invite_token: str = "") -> Seat:
    """Take the first free seat of a waiting match (private matches need the invite token)."""
    match, seats = _lock_with_seats(match_id)
    if _seat_of(seats, user) is not None:
        raise ApplicationError("already_seated", "You already have a seat in this match.", status_code=409)
    if not match.is_public and invite_token != match.invite_token:
        raise ApplicationError(
            "not_invited", "This match is private: join through its invite link.", status_code=403
        )
    if match.status != MatchStatus.WAITING:
        raise ApplicationError("match_started", "This match has already started.", status_code=409)
    game = get_game(match.kind)
    free = sorted(set(range(game.seat_count(match.rules_config))) - {s.position for s in seats})
    if not free:
        raise ApplicationError("match_full", "Every seat of this match is taken.", status_code=409)
    game.seat_deck_check(user=user, deck_id=deck_id)
    check_open_matches(user)
    try:
        with transaction.atomic():
            seat = Seat.objects.create(match=match, position=free[0], user=user, deck_id=deck_id)
    except IntegrityError:
        raise ApplicationError("match_full", "That seat was just taken.", status_code=409) from None
    _notify_on_commit(match)
    return seat


@transaction.atomic
def match_leave(*, match_id: int, user: Any) -> None:
    """Give up a seat before the start (the creator leaving cancels the match)."""
    match, seats = _lock_with_seats(match_id)
    seat = _seat_of(seats, user)
    if seat is None:
        raise _not_participant(match_id)
    if match.status != MatchStatus.WAITING:
        raise ApplicationError(
            "match_started", "The match has started: concede instead of leaving.", status_code=409
        )
    if match.created_by_id == user.pk:
        match.status = MatchStatus.ABORTED
        match.result = {"winner": None, "reason": "cancelled", "text": "The creator cancelled the match."}
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "result", "finished_at"])
    else:
        seat.delete()
    _notify_on_commit(match)


@transaction.atomic
def match_start(*, match_id: int, user: Any) -> Match:
    """Start a waiting match whose seats are all taken; every deck is validated again now (C-3)."""
    match, seats = _lock_with_seats(match_id)
    if _seat_of(seats, user) is None:
        raise _not_participant(match_id)
    if match.status != MatchStatus.WAITING:
        raise ApplicationError("match_started", "This match has already started.", status_code=409)
    _start(match, get_game(match.kind), user=user)
    return match


def _start(match: Match, game: GameAdapter, *, user: Any) -> None:
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("position"))
    needed = game.seat_count(match.rules_config)
    if len(seats) < needed:
        raise ApplicationError("seats_open", f"{needed - len(seats)} seat(s) still open.", status_code=409)
    rng = random.Random(match.seed ^ 0x5EED)
    decks: list[dict[str, Any]] = []
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
        _store_clock(seat, clock)
        seat.save()
    snapshot = game.dump(state)
    match.state_base = snapshot  # written once: later saves store only what differs from it
    match.state = snapshot
    match.state_version = 0
    match.status = MatchStatus.ACTIVE
    match.started_at = now
    match.save()
    remember_base(match.pk, match.seed, snapshot)  # keyed by the secret seed too: harmless if rolled back
    key = state_key(match)
    transaction.on_commit(lambda: remember_state(game, key=key, state=state))
    _after_change_on_commit(match, seats=seats)


# ---- actions --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SubmitResult:
    """The answer to a submission (`to_json()` is stored as the idempotency record's response).

    A freshly applied action also carries, outside its JSON, what the caller's new snapshot is built
    from without another query (`selectors.submit_snapshot`): the match and seats as saved, the new
    engine state and the new log entry.
    """

    state_version: int
    status: str
    result: dict[str, Any] | None
    current_players: list[int] = field(default_factory=list)
    replayed: bool = False
    match: Match | None = field(default=None, compare=False, repr=False)
    seats: list[Seat] | None = field(default=None, compare=False, repr=False)
    state: Any = field(default=None, compare=False, repr=False)
    entry: ActionLog | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "state_version": self.state_version,
            "status": self.status,
            "result": self.result,
            "current_players": list(self.current_players),
        }


def _request_hash(action_json: Any) -> str:
    return hashlib.sha256(json.dumps(action_json, sort_keys=True, default=str).encode()).hexdigest()


class _KeyAlreadyUsed(Exception):
    """Raised inside the submit transaction to roll it back: the idempotency key has a record already."""


def action_submit(
    *,
    match_id: int,
    user: Any,
    action_json: Any,
    state_version: int,
    idempotency_key: str | None = None,
) -> SubmitResult:
    """Apply one player action: lock, check seat/turn/version/legality, apply, log, save, notify on commit.

    A retried request with the same idempotency key returns the first answer and applies nothing. The
    key is looked up only off the happy path: a retry of an applied action always arrives at a stale
    version (or after the match ended), and a key reused at the current version is caught by the
    record's unique constraint, which rolls the whole submission back.
    """
    digest = _request_hash(action_json)
    try:
        return _action_submit(match_id, user, action_json, state_version, idempotency_key, digest)
    except _KeyAlreadyUsed:
        replay = _replay_of(match_id, user, idempotency_key, digest)
        assert replay is not None  # the unique constraint named a committed record
        return replay


def _replay_of(match_id: int, user: Any, key: str | None, digest: str) -> SubmitResult | None:
    """The first answer to this idempotency key, if any (409 when the key named another action)."""
    if not key:
        return None
    record = (
        IdempotencyRecord.objects.filter(user=user, match_id=match_id, key=key)
        .only("request_hash", "response")
        .first()
    )
    if record is None:
        return None
    if record.request_hash != digest:
        raise ApplicationError(
            "idempotency_key_reused",
            "This idempotency key was already used for a different action.",
            status_code=409,
        )
    return SubmitResult(**record.response, replayed=True)


@transaction.atomic
def _action_submit(
    match_id: int, user: Any, action_json: Any, state_version: int, key: str | None, digest: str
) -> SubmitResult:
    match, seats = _lock_with_seats(match_id)
    seat = _seat_of(seats, user)
    if seat is None:
        raise _not_participant(match_id)
    if seat.is_ai:
        raise ApplicationError("conceded", "You conceded: an AI plays this seat now.", status_code=409)
    if match.status != MatchStatus.ACTIVE or state_version != match.state_version:
        replay = _replay_of(match_id, user, key, digest)
        if replay is not None:
            return replay
    if match.status != MatchStatus.ACTIVE:
        if match.status == MatchStatus.WAITING:
            raise ApplicationError("not_started", "The match has not started yet.", status_code=409)
        raise _game_over(match)
    if state_version != match.state_version:
        raise ApplicationError(
            "stale_state",
            f"Your view is at version {state_version}; the match is at {match.state_version}. Reload and retry.",
            extra={"state_version": match.state_version},
            status_code=status.HTTP_409_CONFLICT,
        )
    game = get_game(match.kind)
    state = load_state(match, game)
    if seat.position not in game.current_players(state):
        raise ApplicationError(
            "not_your_turn",
            "It is not your turn to act.",
            extra={"current_players": game.current_players(state)},
            status_code=status.HTTP_409_CONFLICT,
        )
    try:
        action = game.action_from_json(action_json)
    except (ValueError, KeyError, TypeError) as exc:
        raise ApplicationError(
            "illegal_action", f"Malformed action: {exc}", extra={"action": action_json}
        ) from None
    legal = game.legal_actions(state, seat.position)
    if action not in legal:
        raise ApplicationError(
            "illegal_action",
            game.illegal_reason(state, seat.position, action),
            extra={"action": action_json},
        )
    seat.consecutive_timeouts = 0
    seat.has_moved = True
    writes = sql.Writes()
    result = _advance(match, game, seats, state, seat, action, source=ActionLog.Source.PLAYER, writes=writes)
    if key:
        writes.insert(
            IdempotencyRecord(user=user, match=match, key=key, request_hash=digest, response=result.to_json())
        )
    try:  # no savepoint needed: an error leaves this atomic block at once and rolls it all back
        writes.run()  # the log row, the match, the seats and the key: one statement on PostgreSQL
    except IntegrityError as exc:
        if _names_the_key_constraint(exc):
            raise _KeyAlreadyUsed from None
        raise
    return result


def _names_the_key_constraint(exc: IntegrityError) -> bool:
    """Whether a unique violation is the idempotency key's (PostgreSQL names the constraint, SQLite the table)."""
    text = str(exc)
    return "idempotency_unique_key" in text or IdempotencyRecord._meta.db_table in text


def _advance(
    match: Match,
    game: GameAdapter,
    seats: list[Seat],
    state: Any,
    seat: Seat,
    action: Any,
    *,
    source: str,
    now: datetime | None = None,
    after_commit: bool = True,
    writes: sql.Writes | None = None,
) -> SubmitResult:
    """Apply a checked action for `seat`, append the log, move the clocks, finish if terminal, save.

    The log row, the match and the changed seats are written together (`config.sql.Writes`); given
    `writes`, they are added to it and the caller runs it (with writes of its own). `after_commit=False`
    leaves the cache update and the broadcast to the caller (a run of timeout defaults is broadcast
    once, see `clock_enforce`).
    """
    now = now or timezone.now()

    def words(viewer: int | None) -> str:
        return describe_action(game, state, action, viewer, seats)

    descriptions: dict[str, Any] = {str(s.position): words(s.position) for s in seats}
    descriptions["spectator"] = words(None)
    descriptions["secret"] = game.action_is_secret(state, action)
    action_json = game.action_to_json(action)
    state = game.apply(state, action)
    match.state_version += 1
    entry = ActionLog(
        match=match,
        version=match.state_version,
        seat=seat.position,
        source=source,
        action=action_json,
        descriptions=descriptions,
    )
    batch = writes if writes is not None else sql.Writes()
    batch.insert(entry)  # the hot path's writes are plain SQL (config.sql), as its reads
    match.state = game.dump(state)
    current: set[int] = set()
    if game.is_terminal(state):
        _finish(match, seats, game.outcome(state), now)
    else:
        _move_clocks(match, game, seats, state, now)
        current = set(game.current_players(state))
    batch.update(match, MATCH_ACTION_FIELDS)
    new_deadline = _save_changed_seats(seats, batch)
    if writes is None:
        batch.run()
    if after_commit:
        _remember_on_commit(match, game, state)
        wake_ai = source != ActionLog.Source.AI and any(s.is_ai and s.position in current for s in seats)
        _after_change_on_commit(match, seats=seats, wake_ai=wake_ai, timers_for=new_deadline)
    return SubmitResult(
        match.state_version,
        match.status,
        match.result,
        sorted(current),
        match=match,
        seats=seats,
        state=state,
        entry=entry,
    )


def _remember_on_commit(match: Match, game: GameAdapter, state: Any) -> None:
    key = state_key(match)
    transaction.on_commit(lambda: remember_state(game, key=key, state=state))


def _load_clock(seat: Seat) -> SeatClock:
    return SeatClock(seat.clock_remaining_ms, seat.clock_started_at, seat.deadline)


def _store_clock(seat: Seat, clock: SeatClock) -> None:
    seat.clock_remaining_ms = clock.remaining_ms
    seat.clock_started_at = clock.started_at
    seat.deadline = clock.deadline


def _move_clocks(match: Match, game: GameAdapter, seats: list[Seat], state: Any, now: datetime) -> None:
    """Stop the clocks of seats that no longer act; start those that must act now."""
    tc = TimeControl.from_json(match.time_control)
    current = set(game.current_players(state))
    for s in seats:
        clock = _load_clock(s)
        if s.position in current:
            clock.start(tc, now)
        else:
            clock.stop(tc, now)
        _store_clock(s, clock)


def _finish(
    match: Match, seats: list[Seat], result: dict[str, Any], now: datetime, *, aborted: bool = False
) -> None:
    match.status = MatchStatus.ABORTED if aborted else MatchStatus.FINISHED
    winner = result.get("winner")
    names = {s.position: s.display_name for s in seats}
    result = {**result}
    if winner is not None and "winner_name" not in result:
        result["winner_name"] = names.get(winner, "")
    match.result = result
    match.finished_at = now
    for s in seats:
        s.clock_started_at = None
        s.deadline = None


@transaction.atomic
def match_concede(*, match_id: int, user: Any) -> Match:
    """Concede (C-6.4): the other player wins at once; with 3+ players an AI takes the seat over."""
    match, seats = _lock_with_seats(match_id)
    seat = _seat_of(seats, user)
    if seat is None:
        raise _not_participant(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise _game_over(match)
    if seat.is_ai:
        raise ApplicationError("conceded", "You have already conceded this match.", status_code=409)
    others = [s.position for s in seats if s.position != seat.position]
    if len(others) > 1:  # 3+ players: the game goes on, an AI takes over the conceding seat
        seat.ai_agent = "greedy"
        seat.save(update_fields=["ai_agent"])
        _after_change_on_commit(match, seats=seats, wake_ai=True)
        return match
    _finish(
        match,
        seats,
        {"winner": others[0], "reason": "concede", "text": f"{seat.display_name} conceded."},
        timezone.now(),
    )
    match.save()
    for s in seats:
        s.save()
    _after_change_on_commit(match)
    return match


# ---- clocks ---------------------------------------------------------------------------------------
@transaction.atomic
def clock_enforce(*, match_id: int, now: datetime | None = None) -> list[str]:
    """Enforce every passed deadline of a match; idempotent (a moved-on match has no passed deadline).

    Per expired seat: a seat that never moved is handed to the AI in a game of 3+ seats with another
    person seated (`_hand_over_absent_seat`), else aborts the match (no result); the third timeout in a row
    forfeits; otherwise the game's documented default (`timeout_action`) is taken for it, again and again
    until the seat owes nothing more in the current step (`timeout_step`, at most TIMEOUT_MAX_ACTIONS):
    one timeout is one missed decision step, counted once.
    Returns what was done, for logs and tests.
    """
    now = now or timezone.now()
    match = Match.objects.select_for_update().defer(*SNAPSHOT_FIELDS).filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return []
    done: list[str] = []
    for _ in range(10):  # a default action may hand the turn to another expired seat
        seats = _seats(match)
        expired = [s for s in seats if _load_clock(s).expired(now)]
        if not expired or match.status != MatchStatus.ACTIVE:
            break
        seat = expired[0]
        game = get_game(match.kind)
        if not seat.has_moved and _hand_over_absent_seat(match, seats, seat):
            done.append(f"ai:{seat.position}")
            continue
        if not seat.has_moved:
            _finish(
                match,
                seats,
                {
                    "winner": None,
                    "reason": "aborted",
                    "text": f"{seat.display_name} never made a first move.",
                },
                now,
                aborted=True,
            )
            match.save()
            for s in seats:
                s.save()
            _after_change_on_commit(match)
            done.append(f"abort:{seat.position}")
            break
        seat.consecutive_timeouts += 1
        if seat.consecutive_timeouts >= TIMEOUTS_TO_FORFEIT:
            others = [s.position for s in seats if s.position != seat.position]
            _finish(
                match,
                seats,
                {
                    "winner": others[0] if len(others) == 1 else None,
                    "reason": "timeout",
                    "text": f"{seat.display_name} ran out of time {TIMEOUTS_TO_FORFEIT} turns in a row.",
                },
                now,
            )
            match.save()
            for s in seats:
                s.save()
            _after_change_on_commit(match)
            done.append(f"forfeit:{seat.position}")
            break
        tc = TimeControl.from_json(match.time_control)
        clock = _load_clock(seat)
        clock.remaining_ms = 0 if not tc.correspondence else clock.remaining_ms
        clock.started_at = None
        clock.deadline = None
        _store_clock(seat, clock)
        applied = _timeout_defaults(match, game, seats, seat, now)
        done.append(f"timeout:{seat.position}@{match.state_version}" + (f"x{applied}" if applied > 1 else ""))
    if done:
        task_succeeded(match)
    return done


TAKEOVER_AGENT = "greedy"  # the AI that takes over a house whose player is gone (3+ seats)


def _hand_over_absent_seat(match: Match, seats: list[Seat], seat: Seat) -> bool:
    """In a game of 3+ seats an AI takes over a seat that never moved, so the others play on.

    Two-seat games keep the Lichess-style abort (no result); so does a game where no other person is
    seated (nobody would be left to play with). The AI is woken after commit. True when handed over.
    """
    others = [s for s in seats if s.position != seat.position and not s.is_ai]
    if len(seats) < 3 or not others:
        return False
    seat.ai_agent = TAKEOVER_AGENT
    seat.consecutive_timeouts = 0
    seat.clock_started_at = None
    seat.deadline = None
    seat.save(update_fields=["ai_agent", "consecutive_timeouts", "clock_started_at", "deadline"])
    seat._action_fields_loaded = _seat_action_values(seat)  # type: ignore[attr-defined]
    _after_change_on_commit(match, seats=seats, wake_ai=True)
    return True


# The most default actions one timeout may take (a Westeros Planning step needs one per area + finish).
TIMEOUT_MAX_ACTIONS = 200


def timeout_step(game: GameAdapter, state: Any) -> Any:
    """The decision step a timeout completes, or None when one default action completes it.

    The adapter's `timeout_step(state)` when it has one; else the state's `decision_step()` (the game
    interface: Westeros names the round and the pending kind, as Planning asks every house for an order
    per area, W-5.1); else the pending step of a simultaneous-decision engine without it (`pending["kind"]`
    with the round); else None (Commandeer: one default, e.g. Pass, ends the phase).
    """
    hook = getattr(game, "timeout_step", None)
    if callable(hook):
        return hook(state)
    decision_step = getattr(state, "decision_step", None)
    if callable(decision_step):
        return decision_step()
    pending = getattr(state, "pending", None)
    if isinstance(pending, dict) and pending.get("kind"):
        return (getattr(state, "round", None), pending["kind"])
    return None


def _timeout_defaults(match: Match, game: GameAdapter, seats: list[Seat], seat: Seat, now: datetime) -> int:
    """Take the game's timeout default for `seat` until it owes nothing more in this step; returns how many.

    Each default goes through the same check as a player's move (`legal_actions`) and is logged with
    its own version; the viewers hear of it once, after commit, as for one action.
    """
    state = load_state(match, game)
    step = timeout_step(game, state)
    applied = 0
    while applied < TIMEOUT_MAX_ACTIONS:
        action = game.timeout_action(state, seat.position)
        if action not in game.legal_actions(state, seat.position):  # the same check as for players
            raise ApplicationError("illegal_action", game.illegal_reason(state, seat.position, action))
        _advance(
            match,
            game,
            seats,
            state,
            seat,
            action,
            source=ActionLog.Source.TIMEOUT,
            now=now,
            after_commit=False,
        )
        applied += 1
        state = game.load(match.state)  # `_advance` mutated its copy; continue from the saved snapshot
        if (
            step is None
            or match.status != MatchStatus.ACTIVE
            or seat.position not in game.current_players(state)
            or timeout_step(game, state) != step
        ):
            break
    _remember_on_commit(match, game, state)
    current = set(game.current_players(state)) if match.status == MatchStatus.ACTIVE else set()
    _after_change_on_commit(match, seats=seats, wake_ai=any(s.is_ai and s.position in current for s in seats))
    return applied


def _not_backing_off(now: datetime, *, slack_s: float = 0.0) -> Q:
    """Seats of matches whose failing task is not waiting out its back-off (`task_failed`), give or take
    `slack_s` (the AI task retries itself at the end of its back-off; the sweep steps in only later)."""
    return Q(match__task_retry_at__isnull=True) | Q(
        match__task_retry_at__lte=now - timedelta(seconds=slack_s)
    )


def expired_match_ids(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Active matches with a passed deadline (the sweep's work list), except those backing off a failure."""
    now = now or timezone.now()
    return list(
        Seat.objects.filter(_not_backing_off(now), match__status=MatchStatus.ACTIVE, deadline__lte=now)
        .values_list("match_id", flat=True)
        .distinct()[:limit]
    )


def stalled_ai_match_ids(*, now: datetime | None = None, after_s: float = 5.0, limit: int = 100) -> list[int]:
    """Active matches whose AI seat has had to act for `after_s` seconds (its wake-up task was lost).

    A match whose AI task failed is left to that task's own retry until `after_s` past its back-off, so a
    failing AI is never re-queued every second (issue 11: 294 failures of one match in five minutes).
    """
    now = now or timezone.now()
    return list(
        Seat.objects.filter(
            _not_backing_off(now, slack_s=after_s),
            match__status=MatchStatus.ACTIVE,
            clock_started_at__lte=now - timedelta(seconds=after_s),
        )
        .exclude(ai_agent="")
        .values_list("match_id", flat=True)
        .distinct()[:limit]
    )


# ---- failing tasks ----------------------------------------------------------------------------------
TASK_MAX_FAILURES = 5  # failures in a row of a match's AI/clock task before the match is aborted
TASK_BACKOFF_S = (2, 4, 8, 16, 32)  # the wait before the n-th retry (the last value repeats)
INTERNAL_ERROR_TEXT = (
    "internal error: the server could not go on with this match (no result)."  # page: "Aborted — ..."
)


def task_backoff_s(failures: int) -> int:
    """Seconds to wait after the `failures`-th failure in a row (1, 2, ...) before trying again."""
    return TASK_BACKOFF_S[min(max(failures, 1), len(TASK_BACKOFF_S)) - 1]


@transaction.atomic
def task_failed(*, match_id: int, error: BaseException, now: datetime | None = None) -> int | None:
    """Record a failure of the match's AI or clock task: the back-off (s) before its retry, or None when
    there is nothing more to try (no such active match, or the TASK_MAX_FAILURES-th failure in a row, which
    aborts the match: status aborted, reason "internal_error", no winner, the error kept for staff).

    Needs no engine (the engine may be what fails): the match row and the seats' clocks only.
    """
    now = now or timezone.now()
    match = Match.objects.select_for_update().defer(*SNAPSHOT_FIELDS).filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return None
    match.task_failures += 1
    match.task_error = f"{now.isoformat()} {type(error).__name__}: {error}"[:2000]
    if match.task_failures < TASK_MAX_FAILURES:
        delay = task_backoff_s(match.task_failures)
        match.task_retry_at = now + timedelta(seconds=delay)
        match.save(update_fields=["task_failures", "task_error", "task_retry_at"])
        return delay
    seats = _seats(match)
    _finish(
        match,
        seats,
        {"winner": None, "reason": "internal_error", "text": INTERNAL_ERROR_TEXT},
        now,
        aborted=True,
    )
    match.task_retry_at = None
    match.save(
        update_fields=["status", "result", "finished_at", "task_failures", "task_error", "task_retry_at"]
    )
    for seat in seats:
        seat.save(update_fields=["clock_started_at", "deadline"])
    log.error("match %s aborted after %s task failures: %s", match_id, match.task_failures, match.task_error)
    _after_change_on_commit(match, seats=seats, wake_ai=False)
    return None


def task_succeeded(match: Match) -> None:
    """Clear the failure count of a match whose task just worked (a no-op, no query, when it had none)."""
    if match.task_failures or match.task_retry_at is not None:
        Match.objects.filter(pk=match.pk).update(task_failures=0, task_retry_at=None)
        match.task_failures, match.task_retry_at = 0, None


# ---- AI seats -------------------------------------------------------------------------------------
@transaction.atomic
def ai_action_submit(*, match_id: int, expected_version: int | None = None) -> SubmitResult | None:
    """Let the first AI seat that must act make one move through the same path as players; None if none must."""
    match = Match.objects.select_for_update().defer(*SNAPSHOT_FIELDS).filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return None
    if expected_version is not None and match.state_version != expected_version:
        return None
    game = get_game(match.kind)
    state = load_state(match, game)
    seats = _seats(match)
    current = set(game.current_players(state))
    seat = next((s for s in seats if s.is_ai and s.position in current), None)
    if seat is None:
        return None
    rng = random.Random(f"{match.seed}:{match.state_version}:{seat.position}")
    action = game.ai_action(state, seat.position, rng=rng, agent=seat.ai_agent)
    if action not in game.legal_actions(state, seat.position):  # the same check as for players
        raise ApplicationError("illegal_action", game.illegal_reason(state, seat.position, action))
    seat.has_moved = True
    seat.consecutive_timeouts = 0
    result = _advance(match, game, seats, state, seat, action, source=ActionLog.Source.AI)
    task_succeeded(match)
    return result


def ai_seat_must_act(match: Match) -> bool:
    """True when an AI seat is among the current players of an active match."""
    if match.status != MatchStatus.ACTIVE or match.started_at is None:
        return False
    game = get_game(match.kind)
    current = set(game.current_players(load_state(match, game)))
    return Seat.objects.filter(match=match, position__in=current).exclude(ai_agent="").exists()


# ---- after commit -----------------------------------------------------------------------------------
def _notify_on_commit(match: Match) -> None:
    match_id, version = match.pk, match.state_version
    transaction.on_commit(lambda: notify_match_changed(match_id, version))


def _after_change_on_commit(
    match: Match,
    *,
    seats: list[Seat] | None = None,
    wake_ai: bool | None = None,
    timers_for: list[Seat] | None = None,
) -> None:
    """After commit: tell every connected viewer, arm timers for near deadlines, wake the AI.

    `timers_for`: only these seats' deadlines are new (an action that leaves a running clock alone
    arms no second timer for it; the beat sweep backs every deadline up anyway); default: every seat's.
    """
    match_id, version = match.pk, match.state_version
    active = match.status == MatchStatus.ACTIVE
    if seats is None:
        seats = _seats(match)
    timed = seats if timers_for is None else timers_for
    deadlines = [s.deadline for s in timed if s.deadline is not None] if active else []
    if wake_ai is None:
        wake_ai = ai_seat_must_act(match)
    wake_ai = active and wake_ai

    def run() -> None:
        notify_match_changed(match_id, version)
        from matches import tasks

        horizon = timezone.now() + EAGER_TIMER_HORIZON
        for deadline in deadlines:
            if deadline is not None and deadline <= horizon:
                tasks.enforce_deadline.apply_async(args=[match_id], eta=deadline)
        if wake_ai:
            tasks.ai_move.delay(match_id, version)

    transaction.on_commit(run)


def match_group(match_id: int) -> str:
    """Channel-layer group of a match's live viewers (messages carry no game data, only the version)."""
    return f"match-{match_id}"


def notify_match_changed(match_id: int, version: int) -> None:
    """Wake every consumer of the match; each then sends its own user THEIR view (never another's hand).

    With a networked channel layer (Redis) the message is handed to this process's broadcast loop and
    the caller does not wait for it: the action is committed already, the message carries only the
    version, and a failure is logged (clients resync on reconnect). The in-memory layer of tests and
    single-process development belongs to the caller's event loop, so it is sent through it and awaited.
    """
    from asgiref.sync import async_to_sync
    from channels.layers import InMemoryChannelLayer, get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    group, message = match_group(match_id), {"type": "match.changed", "version": version}
    try:
        if isinstance(layer, InMemoryChannelLayer):
            async_to_sync(layer.group_send)(group, message)
            return
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _broadcast_loop())
        sent.add_done_callback(lambda f: _broadcast_failed(f, match_id, version))
    except Exception:  # a broadcast failure must not fail the committed action; clients resync on reconnect
        log.exception("broadcast of match %s v%s failed", match_id, version)


_broadcaster: tuple[asyncio.AbstractEventLoop, threading.Thread] | None = None
_broadcaster_lock = threading.Lock()


def _broadcast_loop() -> asyncio.AbstractEventLoop:
    """This process's event loop for channel-layer messages (one thread, started on first use and after fork)."""
    global _broadcaster
    with _broadcaster_lock:
        if _broadcaster is None or not _broadcaster[1].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="match-broadcast", daemon=True)
            thread.start()
            _broadcaster = (loop, thread)
        return _broadcaster[0]


def _broadcast_failed(sent: Future[Any], match_id: int, version: int) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        log.error("broadcast of match %s v%s failed: %r", match_id, version, sent.exception())
