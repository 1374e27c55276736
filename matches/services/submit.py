"""The move pipeline: lock, check seat/turn/version/legality, apply through the engine, append to the log,
save, notify on commit — and idempotency keys (a retried request gets the first answer).

`advance` is the one place an action is applied to a stored match (players, AI seats and timeout
defaults all go through it); `finish` ends a match and stops the clocks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, TypeAlias, TypedDict

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import status

from config import sql
from config.errors import ApplicationError
from matches import storage
from matches.clocks import SeatClock, TimeControl
from matches.games.kind import (  # S: the engine state, A: its action
    A,
    GameKind,
    LegalActions,
    Player,
    Result,
    S,
)
from matches.games.registry import get_game
from matches.jsontypes import JSONObject, JSONValue
from matches.losing import avoidable_loss
from matches.messages import LOST_ON_TIME, LOST_ON_TIME_IN_A_ROW, auto_pass, play_message, render
from matches.models import ActionLog, IdempotencyRecord, Match, MatchStatus, Seat
from matches.selectors import SeatNames, consequences_for, describe_action, log_messages, reader_result
from matches.services.notify import after_change_on_commit
from matches.services.ratings import rate_finished_match


def not_participant(match_id: int) -> ApplicationError:
    return ApplicationError(
        "not_participant",
        gettext("You are not seated in match #%(id)s.") % {"id": match_id},
        status_code=status.HTTP_403_FORBIDDEN,
    )


def _closed_text(match: Match) -> str:
    """Why a match that is not in play takes no action, in the reader's language."""
    if match.status == MatchStatus.FINISHED:
        return gettext("Match #%(id)s is finished; it accepts no further action.") % {"id": match.pk}
    if match.status == MatchStatus.ABORTED:
        return gettext("Match #%(id)s is aborted; it accepts no further action.") % {"id": match.pk}
    return gettext("Match #%(id)s is waiting for players; it accepts no further action.") % {"id": match.pk}


def game_over(match: Match) -> ApplicationError:
    return ApplicationError(
        "game_over",
        _closed_text(match),
        extra={"status": match.status, "result": reader_result(match.result, match.kind)},
        status_code=status.HTTP_409_CONFLICT,
    )


class SubmitJSON(TypedDict):
    """A submission's answer as stored in its idempotency record (`SubmitResult.to_json`)."""

    state_version: int
    status: str
    result: JSONObject | None
    current_players: list[int]


@dataclass(frozen=True)
class SubmitResult(Generic[S, A]):
    """The answer to a submission (`to_json()` is stored as the idempotency record's response).

    A freshly applied action also carries, outside its JSON, what the caller's new snapshot is built
    from without another query (`selectors.submit_snapshot`): the match and seats as saved, the new
    engine state and the new log entry.
    """

    state_version: int
    status: str
    result: JSONObject | None
    current_players: list[int] = field(default_factory=list)
    replayed: bool = False
    match: Match | None = field(default=None, compare=False, repr=False)
    seats: list[Seat] | None = field(default=None, compare=False, repr=False)
    state: S | None = field(default=None, compare=False, repr=False)
    entry: ActionLog | None = field(default=None, compare=False, repr=False)
    entries: list[ActionLog] = field(default_factory=list, compare=False, repr=False)  # with automatic passes
    legal: LegalActions[S, A] | None = field(default=None, compare=False, repr=False)  # at `state`

    def to_json(self) -> SubmitJSON:
        return {
            "state_version": self.state_version,
            "status": self.status,
            # Stored for a replayed request too: the language-independent English text, no raw message.
            "result": {k: v for k, v in self.result.items() if k != "message"}
            if self.result
            else self.result,
            "current_players": list(self.current_players),
        }


# The answer of a submit to a match whose game the registry names at run time (`registry.AnyGame`).
AnySubmitResult: TypeAlias = "SubmitResult[Any, Any]"


def request_hash(body: object) -> str:
    """The fingerprint of a request body stored with its idempotency key (a retry must send the same body)."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def check_same_request(record: IdempotencyRecord, digest: str) -> None:
    """A key's first request and this one must be the same request: else 409 `idempotency_key_reused`
    (the key cannot name two different requests; the client must make a new key for a new request)."""
    if record.request_hash != digest:
        raise ApplicationError(
            "idempotency_key_reused",
            gettext(
                "This Idempotency-Key was already used for a different request; "
                "send a new key for a new request."
            ),
            extra={"key": record.key},
            status_code=status.HTTP_409_CONFLICT,
        )


class _KeyAlreadyUsed(Exception):
    """Raised inside the submit transaction to roll it back: the idempotency key has a record already."""


def action_submit(
    *,
    match_id: int,
    user: User,
    action_json: JSONValue,
    state_version: int,
    idempotency_key: str | None = None,
    guard: bool = False,
) -> AnySubmitResult:
    """Apply one player action: lock, check seat/turn/version/legality, apply, log, save, notify on commit.

    With `guard`, an action that would lose the match at once while another legal action would not is
    refused (409 `loses_at_once`, nothing applied) so the page can ask the player first (`matches.losing`).

    A retried request with the same idempotency key returns the first answer and applies nothing. The
    key is looked up only off the happy path: a retry of an applied action always arrives at a stale
    version (or after the match ended), and a key reused at the current version is caught by the
    record's unique constraint, which rolls the whole submission back.
    """
    digest = request_hash(action_json)
    try:
        return _action_submit(match_id, user, action_json, state_version, idempotency_key, digest, guard)
    except _KeyAlreadyUsed:
        replay = _replay_of(match_id, user, idempotency_key, digest)
        assert replay is not None  # the unique constraint named a committed record
        return replay


def refuse_avoidable_loss(
    game: GameKind[S, A], state: S, seat: Player, action: A, actions: list[A], action_json: JSONValue
) -> None:
    """409 `loses_at_once` when `action` ends the match at once with `seat` losing and another legal action
    does not: the words say why in the reader's language, with the rule's number (C-6.2, C-6.1, …)."""
    lost = avoidable_loss(game, state, seat, action, actions)
    if lost is None:
        return
    reason = render(lost.message, game=game.kind) if lost.message else (lost.text or lost.reason)
    raise ApplicationError(
        "loses_at_once",
        gettext("This move loses the match at once: %(reason)s.") % {"reason": reason.rstrip(".。")},
        extra={"action": action_json, "reason": reason, "winner": lost.winner},
        status_code=status.HTTP_409_CONFLICT,
    )


# How many others' moves a view may be behind and still be good (five AI houses placing their orders).
MAX_OVERTAKEN = 60


def overtaken_only_by_simultaneous_moves(match: Match, seat: Seat, since: int) -> bool:
    """True when every move stored after version `since` is another seat's move of a simultaneous step
    (W-3.3: the others' face-down orders, bids and cards). Such a step cannot end while this seat still owes
    its part, and the others' choices are hidden from it, so its view is as good as the current one: a
    player's order is not refused because an AI house placed one meanwhile, nor an AI house's because a
    player did (`ai_seats`). The action is still checked against the current state's legal actions (a
    Ready taken back after the reveal is refused)."""
    types = get_game(match.kind).simultaneous_action_types
    gap = match.state_version - since
    if not types or since < 0 or not 0 < gap <= MAX_OVERTAKEN:
        return False
    moves = list(ActionLog.objects.filter(match_id=match.pk, version__gt=since).values_list("seat", "action"))
    return len(moves) == gap and all(
        s != seat.position and isinstance(a, dict) and a.get("type") in types for s, a in moves
    )


def _replay_of(match_id: int, user: User, key: str | None, digest: str) -> AnySubmitResult | None:
    """The first answer to this idempotency key, if any (409 when the key named another action)."""
    if not key:
        return None
    record = (
        IdempotencyRecord.objects.filter(user=user, match_id=match_id, key=key)
        .only("key", "request_hash", "response")
        .first()
    )
    if record is None:
        return None
    check_same_request(record, digest)
    return SubmitResult(**record.response, replayed=True)


@transaction.atomic
def _action_submit(
    match_id: int,
    user: User,
    action_json: JSONValue,
    state_version: int,
    key: str | None,
    digest: str,
    guard: bool = False,
) -> AnySubmitResult:
    loaded = storage.load_for_update(match_id)
    match = loaded.match
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    if seat.is_ai:
        raise ApplicationError(
            "conceded", gettext("You conceded: an AI plays this seat now."), status_code=409
        )
    if match.status != MatchStatus.ACTIVE or state_version != match.state_version:
        replay = _replay_of(match_id, user, key, digest)
        if replay is not None:
            return replay
    if match.status != MatchStatus.ACTIVE:
        if match.status == MatchStatus.WAITING:
            raise ApplicationError("not_started", gettext("The match has not started yet."), status_code=409)
        raise game_over(match)
    if state_version != match.state_version and not overtaken_only_by_simultaneous_moves(
        match, seat, state_version
    ):
        raise ApplicationError(
            "stale_state",
            gettext("Your view is at version %(yours)s; the match is at %(current)s. Reload and retry.")
            % {"yours": state_version, "current": match.state_version},
            extra={"state_version": match.state_version},
            status_code=status.HTTP_409_CONFLICT,
        )
    game = get_game(match.kind)
    state = storage.load_state(match, game)
    # A seat that owes no decision may still have an out-of-turn action (a Westeros house taking its
    # Ready back, W-5.1): `legal_actions` says so; without one, it is not the seat's turn.
    legal = storage.legal_actions(match, game)
    actions = legal.of(state, match.state_version, seat.position)
    current = legal.current(state, match.state_version)
    if seat.position not in current and not actions:
        raise ApplicationError(
            "not_your_turn",
            gettext("It is not your turn to act."),
            extra={"current_players": current},
            status_code=status.HTTP_409_CONFLICT,
        )
    try:
        action = game.action_from_json(action_json)
    except (ValueError, KeyError, TypeError) as exc:
        raise ApplicationError(
            "illegal_action",
            gettext("Malformed action: %(problem)s") % {"problem": exc},
            extra={"action": action_json},
        ) from None
    if action not in actions:
        raise ApplicationError(
            "illegal_action",
            game.illegal_reason(state, seat.position, action),
            extra={"action": action_json},
        )
    if guard:
        refuse_avoidable_loss(game, state, seat.position, action, actions, action_json)
    seat.consecutive_timeouts = 0
    seat.has_moved = True
    writes = sql.Writes()
    result = advance(
        loaded, game, state, seat, action, source=ActionLog.Source.PLAYER, writes=writes, legal=legal
    )
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


def advance(
    loaded: storage.LoadedMatch,
    game: GameKind[S, A],
    state: S,
    seat: Seat,
    action: A,
    *,
    source: str,
    now: datetime | None = None,
    after_commit: bool = True,
    writes: sql.Writes | None = None,
    legal: LegalActions[S, A] | None = None,
) -> SubmitResult[S, A]:
    """Apply a checked action for `seat`, append the log, move the clocks, finish if terminal, save.

    The log row, the match and the changed seats are written together (`config.sql.Writes`); given
    `writes`, they are added to it and the caller runs it (with writes of its own). `after_commit=False`
    leaves the cache update and the broadcast to the caller (a run of timeout defaults is broadcast
    once, see `clock_enforce`). The automatic passes the action leads to (`auto_pass_action`) follow
    at once, each with its own log row, so a correspondence player need not open the page to pass.
    `legal` carries who acts and the legal actions already computed (the result keeps it for the answer's
    snapshot).
    """
    now = now or timezone.now()
    legal = legal or LegalActions(game)
    match, seats = loaded.match, loaded.seats
    timed_out = source == ActionLog.Source.TIMEOUT
    batch = writes if writes is not None else sql.Writes()
    # a finished decision taken back (W-5.1)
    out_of_turn = seat.position not in legal.current(state, match.state_version)
    state, entry = _apply_logged(match, seats, game, state, seat, action, source, batch)
    auto = _auto_passes(match, seats, game, state, batch, legal)
    state = auto.state
    entries = [entry, *auto.entries]
    match.state = game.dump(state)
    current: set[int] = set()
    if game.is_terminal(state):
        outcome = game.outcome(state)
        if timed_out and game.timeout_loss(state, outcome, seat.position):
            outcome = lost_on_time(outcome.winner, seat, rules_reason=outcome.reason)
        finish(match, seats, outcome, now, state=state)
    else:
        current = set(legal.current(state, match.state_version))
        move_clocks(
            match, game, seats, state, now, taken_back=seat.position if out_of_turn else None, current=current
        )
    batch.update(match, storage.MATCH_ACTION_FIELDS)
    new_deadline = loaded.save_changed_seats(batch)
    if writes is None:
        batch.run()
    if after_commit:
        storage.remember_on_commit(match, game, state)
        wake_ai = source != ActionLog.Source.AI and any(s.is_ai and s.position in current for s in seats)
        after_change_on_commit(match, seats=seats, wake_ai=wake_ai, timers_for=new_deadline)
    return SubmitResult(
        match.state_version,
        match.status,
        match.result,
        sorted(current),
        match=match,
        seats=seats,
        state=state,
        entry=entries[-1],
        entries=entries,
        legal=legal,
    )


def _apply_logged(
    match: Match, seats: list[Seat], game: GameKind[S, A], state: S, seat: Seat, action: A, source: str,
    batch: sql.Writes,
) -> tuple[S, ActionLog]:  # fmt: skip
    """Apply one checked action and add its log row (plain words and consequences per viewer) to `batch`;
    the new state."""
    timed_out = source == ActionLog.Source.TIMEOUT
    names = SeatNames(seats)

    def words(viewer: int | None) -> str:
        return describe_action(
            game, state, action, viewer, names, timed_out=seat.position if timed_out else None
        )

    texts = {str(s.position): words(s.position) for s in seats}
    texts["spectator"] = words(None)
    if source == ActionLog.Source.AUTO:  # every reader (log, replay, e-mail) sees that nobody chose it
        texts = {k: f"{v.rstrip('.')} (automatic pass: nothing else to do)." for k, v in texts.items()}
    descriptions: JSONObject = {**texts, "secret": game.action_is_secret(state, action)}
    messages = log_messages(game, state, action, seats, names, timed_out=seat.position if timed_out else None)
    if messages and source == ActionLog.Source.AUTO:
        messages = {k: auto_pass(v) if k.isdigit() or k == "spectator" else v for k, v in messages.items()}
    action_json = game.action_to_json(action)
    basis = game.consequences_basis(state)
    state = game.apply(state, action)
    match.state_version += 1
    entry = ActionLog(
        match=match,
        version=match.state_version,
        seat=seat.position,
        source=source,
        action=action_json,
        descriptions=descriptions,
        messages=messages,
        consequences=consequences_for(game, state, basis, seats, names),
    )
    batch.insert(entry)  # the hot path's writes are plain SQL (config.sql), as its reads
    return state, entry


AUTO_PASS_LIMIT = 8  # at most this many automatic passes follow one action (a turn has four phases)


def auto_pass_action(
    game: GameKind[S, A], state: S, seat: Seat, *, version: int = -1, legal: LegalActions[S, A] | None = None
) -> A | None:
    """The phase's Pass when it is the ONLY legal action of a human seat that wants automatic passes, else None.

    A seat with anything else to do (a Defensive event, an attack, a card to choose) is never passed for.
    `legal` (with the state's `version`) reuses legal actions computed for this state.
    """
    if not game.auto_pass or seat.is_ai or not seat.auto_pass or game.is_terminal(state):
        return None
    legal = legal or LegalActions(game)
    if seat.position not in legal.current(state, version):
        return None
    actions = legal.of(state, version, seat.position)
    if len(actions) != 1 or game.action_to_json(actions[0]).get("type") != "pass":
        return None
    return actions[0]


@dataclass
class _AutoPasses(Generic[S]):
    state: S
    entries: list[ActionLog]


def _auto_passes(
    match: Match,
    seats: list[Seat],
    game: GameKind[S, A],
    state: S,
    batch: sql.Writes,
    legal: LegalActions[S, A],
) -> _AutoPasses[S]:
    """Apply the automatic passes now due (logged with source `auto`, not as the player's choice)."""
    entries: list[ActionLog] = []
    for _ in range(AUTO_PASS_LIMIT):
        version = match.state_version
        found = next(
            (
                (s, a)
                for s in seats
                if (a := auto_pass_action(game, state, s, version=version, legal=legal)) is not None
            ),
            None,
        )
        if found is None:
            break
        passer, action = found
        state, entry = _apply_logged(match, seats, game, state, passer, action, ActionLog.Source.AUTO, batch)
        entries.append(entry)
    return _AutoPasses(state, entries)


def lost_on_time(winner: Player | None, seat: Seat, *, in_a_row: int = 0, rules_reason: str = "") -> Result:
    """The result of `seat` losing on time: reason "timeout", whatever the game's rules called the end
    its timeout default left behind (`rules_reason`, kept apart); `in_a_row`: lost by that many timeouts in
    a row."""
    if in_a_row:
        text, message = play_message(LOST_ON_TIME_IN_A_ROW, name=seat.title, turns=in_a_row)
    else:
        text, message = play_message(LOST_ON_TIME, name=seat.title)
    kept = rules_reason if rules_reason not in ("", "timeout") else None
    return Result(
        winner=winner, reason="timeout", text=text, loser=seat.position, rules_reason=kept, message=message
    )


def load_clock(seat: Seat) -> SeatClock:
    return SeatClock(seat.clock_remaining_ms, seat.clock_started_at, seat.deadline, seat.clock_carry_ms)


def store_clock(seat: Seat, clock: SeatClock) -> None:
    seat.clock_remaining_ms = clock.remaining_ms
    seat.clock_started_at = clock.started_at
    seat.deadline = clock.deadline
    seat.clock_carry_ms = clock.carry_ms


def move_clocks(
    match: Match,
    game: GameKind[S, A],
    seats: list[Seat],
    state: S,
    now: datetime,
    *,
    taken_back: int | None = None,
    current: Collection[int] | None = None,
) -> None:
    """Stop the clocks of seats that no longer act; start those that must act now. `taken_back`: the seat
    whose out-of-turn action made it act again (it reopened a decision it had finished): its clock resumes
    that decision (`SeatClock.start(resume=True)`), so finishing and reopening earns no time. `current`:
    the seats that act in `state`, when the caller knows them already."""
    tc = TimeControl.from_json(match.time_control)
    current = set(game.current_players(state) if current is None else current)
    for s in seats:
        clock = load_clock(s)
        if s.position in current:
            clock.start(tc, now, resume=s.position == taken_back)
        else:
            clock.stop(tc, now)
        store_clock(s, clock)


def finish(
    match: Match,
    seats: list[Seat],
    result: Result,
    now: datetime,
    *,
    aborted: bool = False,
    state: object = None,
) -> None:
    """End the match (every way a match ends comes here): status, result, clocks stopped — and, for a
    finished rated match, the ratings, in the same transaction (`services.ratings`)."""
    match.status = MatchStatus.ABORTED if aborted else MatchStatus.FINISHED
    names = {s.position: s.title for s in seats}  # Westeros: the house first (Seat.title)
    if result.winner is not None and result.winner_name is None:
        result = replace(result, winner_name=names.get(result.winner, ""))
    match.result = result.to_json()  # the storage edge: Match.result is JSON
    match.finished_at = now
    for s in seats:
        s.clock_started_at = None
        s.deadline = None
    if not aborted:
        rate_finished_match(match, seats, state=state)


@transaction.atomic
def seat_preferences_update(*, match_id: int, user: User, auto_pass: bool) -> Seat:
    """Set the caller's own seat preference; turning automatic passes on passes at once when it is due."""
    loaded = storage.load_for_update(match_id)
    seat = loaded.seat_of(user)
    if seat is None:
        raise not_participant(match_id)
    seat.auto_pass = auto_pass
    Seat.objects.filter(pk=seat.pk).update(auto_pass=auto_pass)
    match = loaded.match
    if auto_pass and match.status == MatchStatus.ACTIVE and match.started_at is not None:
        game = get_game(match.kind)
        state = storage.load_state(match, game)
        action = auto_pass_action(game, state, seat)
        if action is not None:
            advance(loaded, game, state, seat, action, source=ActionLog.Source.AUTO)
    return seat
