"""Match storage: the one module that knows how a match is read and written.

It hides the plain SQL of the hot path (`config.sql`, `matches.queries`), the split snapshot
(`Match.state` / `state_base`) and the in-process cache of parsed engine states behind a few verbs:
load a match for update (`load_for_update` → `LoadedMatch`), load its state (`load_state`), save the
changes of an action (`LoadedMatch.save_changed_seats`, `remember_on_commit`).

One cache policy (`config.lru.LruCache`, as the start snapshots of `matches.models`): parsed states
keyed by (match id, version, seed) — a version never denotes two different states, so an entry can
never go stale, only be evicted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast, overload

from django.db import transaction
from django.utils.translation import gettext
from rest_framework import status

from config import sql
from config.errors import ApplicationError
from config.lru import LruCache
from matches import queries
from matches.games.kind import JSON, A, GameKind, LegalActions, Player, S
from matches.games.registry import AnyGame, get_game
from matches.models import Match, MatchStatus, Seat
from matches.types import Viewer

# Columns a write path never needs: the snapshot (read through the cache) and its start part.
SNAPSHOT_FIELDS = ("state", "state_base")
# What an action changes: the match row and the seats' clocks (never their frozen deck snapshots).
# `rated`: a rated result that does not count turns the match unrated as it ends (`services.ratings`).
MATCH_ACTION_FIELDS = ["state", "state_version", "status", "result", "finished_at", "rated"]
SEAT_ACTION_FIELDS = (
    "clock_remaining_ms",
    "clock_started_at",
    "clock_carry_ms",
    "deadline",
    "consecutive_timeouts",
    "has_moved",
)

STATE_CACHE_SIZE = 256  # parsed engine states kept per process (least recently used goes first)


def not_found(match_id: int) -> ApplicationError:
    return ApplicationError(
        "not_found", gettext("No match #%(id)s.") % {"id": match_id}, status_code=status.HTTP_404_NOT_FOUND
    )


def _seat_values(seat: Seat) -> tuple[object, ...]:
    return tuple(getattr(seat, f) for f in SEAT_ACTION_FIELDS)


@dataclass
class LoadedMatch:
    """A match row with its seats, as loaded, and what each seat's action fields were when loaded.

    `save_changed_seats` writes only the fields that changed since (a typed value instead of attributes
    pinned on model instances).
    """

    match: Match
    seats: list[Seat]
    loaded_values: dict[int, tuple[object, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, match: Match, seats: list[Seat]) -> LoadedMatch:
        return cls(match, seats, {s.position: _seat_values(s) for s in seats})

    def seat_of(self, user: Viewer) -> Seat | None:
        """The user's seat, if they sit here."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)

    def mark_saved(self, seat: Seat) -> None:
        """The seat's action fields are in the database as they are now."""
        self.loaded_values[seat.position] = _seat_values(seat)

    def save_changed_seats(self, writes: sql.Writes) -> list[Seat]:
        """An UPDATE (into `writes`) per seat whose clock/timeout fields changed, of those fields only; the
        seats whose deadline changed (they need a timer; an unchanged deadline has one already)."""
        new_deadline = []
        for s in self.seats:
            before = self.loaded_values.get(s.position)
            now = _seat_values(s)
            changed = [f for i, f in enumerate(SEAT_ACTION_FIELDS) if before is None or before[i] != now[i]]
            if changed:
                writes.update(s, changed)
                self.loaded_values[s.position] = now
            if "deadline" in changed:
                new_deadline.append(s)
        return new_deadline


def load_for_update(match_id: int) -> LoadedMatch:
    """The locked match row and its seats with their users, in one query (404 when there is none)."""
    found = queries.match_with_seats(match_id, lock=True)
    if found is None:
        raise not_found(match_id)
    match, seats = found
    queries.attach_seats(match, seats)  # `queries.seats_of(match)` is these very instances, as they change
    return LoadedMatch.of(match, seats)


def lock_match(match_id: int) -> Match | None:
    """The locked match row without its snapshot (None when there is none)."""
    return Match.objects.select_for_update().defer(*SNAPSHOT_FIELDS).filter(pk=match_id).first()


def read_match(match_id: int) -> Match | None:
    """The match row without its snapshot and without a lock (a read to think on; check its version later)."""
    return Match.objects.defer(*SNAPSHOT_FIELDS).filter(pk=match_id).first()


def load_seats(match: Match) -> LoadedMatch:
    """The match with its seats and their users, without the (large, frozen) deck snapshots."""
    seats = list(
        Seat.objects.filter(match=match).select_related("user").defer("deck_snapshot").order_by("position")
    )
    return LoadedMatch.of(match, seats)


# ---- engine states ---------------------------------------------------------------------------------
# Each entry is the state of the game its match's kind names (`load_state` reads it back as that game's `S`).
_STATE_CACHE: LruCache[tuple[int, int, int], object] = LruCache(STATE_CACHE_SIZE)


class StateUnloadable(ApplicationError):
    """A stored match whose snapshot today's engine refuses (e.g. rules settings that are no longer valid)."""

    def __init__(self, match_id: int, problem: BaseException) -> None:
        super().__init__(
            "state_unloadable",
            f"This match's stored state cannot be loaded: {problem}",
            extra={"match_id": match_id},
            status_code=status.HTTP_410_GONE,
        )


def state_key(match: Match) -> tuple[int, int, int]:
    """Cache key of a match's stored state: a version never denotes two different states."""
    return (match.pk, match.state_version, match.seed)


def _cache_put(key: tuple[int, int, int], state: object) -> None:
    _STATE_CACHE.put(key, state)


def clear_state_cache() -> None:
    """Forget every parsed state and the legal actions computed in them (a cold process; tests)."""
    _STATE_CACHE.clear()
    _LEGAL_CACHE.clear()


def parse_state(match_id: int, game: GameKind[S, A], data: Callable[[], JSON]) -> S:
    """`game.load` of a stored snapshot, or a clear 410 (`StateUnloadable`) when today's engine refuses it."""
    try:
        return game.load(data())
    except ApplicationError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        raise StateUnloadable(match_id, exc) from None


@overload
def load_state(match: Match, game: GameKind[S, A]) -> S: ...


@overload
def load_state(match: Match) -> object: ...


def load_state(match: Match, game: AnyGame | None = None) -> object:
    """The match's engine state (of `game`, by default the one the match's kind names), parsed once per (match, version, seed) in this process.

    The state is always the one `match.state_version` names. A `match` read without its snapshot may be
    behind the row by the time the snapshot is read (another process, or this one's AI worker, committed
    in between): then `match` is brought up to date in place, from one statement that reads the match,
    its seats and its snapshot together (`refresh_with_state`), and the caller gets that version's state.
    A cache entry is only ever stored under the version its state was read with.

    Every caller gets a private clone (cheap: engines share immutable card/map data), so a request never
    sees another thread's work in progress.
    """
    return _load_state(match, game or get_game(match.kind))


def _load_state(match: Match, game: GameKind[S, A]) -> S:
    cached = _STATE_CACHE.get(state_key(match))
    # put under this match's key by its own game (the kind never changes): that game's state
    state = _read_state(match, game) if cached is None else cast("S", cached)
    return game.clone(state)


def _read_state(match: Match, game: GameKind[S, A]) -> S:
    """Parse and cache the snapshot `match.state_version` names (see `load_state`)."""
    if "state" in match.__dict__:  # read with the row (or just computed): the state this version names
        state = parse_state(match.pk, game, lambda: match.state)
        _cache_put(state_key(match), state)
        return state
    stored = queries.match_state(match.pk)
    if stored is None:
        raise not_found(match.pk)
    parsed = parse_state(match.pk, game, lambda: stored.state)
    _cache_put((match.pk, stored.version, stored.seed), parsed)  # the version it was read with
    if stored.version == match.state_version and stored.seed == match.seed:
        return parsed
    refresh_with_state(match)
    cached = _STATE_CACHE.get(state_key(match))
    return cast("S", cached) if cached is not None else _read_state(match, game)


def refresh_with_state(match: Match) -> None:
    """Bring `match` (and the seats read with it, if any) up to the row as it is now, its snapshot included,
    from one statement: its version and its state can never belong to two different commits."""
    found = queries.match_with_seats(match.pk, with_state=True)
    if found is None:
        raise not_found(match.pk)
    fresh, seats = found
    for name in queries.MATCH_STATE_COLUMNS.attnames:
        setattr(match, name, getattr(fresh, name))
    if match.seats_loaded is not None:
        for seat in seats:
            seat.match = match
        queries.attach_seats(match, seats)


def stored_state(match: Match) -> JSON:
    """The full snapshot of the version `match` holds (`load_state`'s consistent read; not a clone, do not
    mutate it)."""
    game = get_game(match.kind)
    return game.dump(load_state(match, game))


def remember_state(game: GameKind[S, A], match: Match, state: S) -> None:
    """Put a freshly computed state in the cache now (a clone: the caller may keep mutating its own)."""
    _cache_put(state_key(match), game.clone(state))


def remember_on_commit(match: Match, game: GameKind[S, A], state: S) -> None:
    """Put the state in the cache once the transaction that saved it commits."""
    key = state_key(match)
    transaction.on_commit(lambda: _cache_put(key, game.clone(state)))


# ---- legal actions ---------------------------------------------------------------------------------
LEGAL_CACHE_SIZE = 1024  # (match, version, seat) answers kept per process (least recently used goes first)
_LEGAL_CACHE: LruCache[tuple[int, int, int, int], Sequence[object]] = LruCache(LEGAL_CACHE_SIZE)


class SharedLegalActions:
    """This process's legal actions of one match (`KnownLegalActions`), by (match id, version, seed, seat).

    An answer about a committed version is shared at once. One about a version the running transaction made
    (the automatic-pass check and the answer of a submit) is held until that transaction commits: a version
    rolled back (a reused idempotency key, a failed write) may be made again as another state.
    """

    def __init__(self, match: Match) -> None:
        self.match = match
        self.key = (match.pk, match.seed)
        self.committed = match.state_version  # the row was read: this version is committed
        self._held: list[tuple[int, Player, Sequence[object]]] = []

    def get(self, version: int, player: Player) -> Sequence[object] | None:
        return _LEGAL_CACHE.get((self.key[0], version, self.key[1], player))

    def put(self, version: int, player: Player, actions: Sequence[object]) -> None:
        if version <= self.committed:
            _LEGAL_CACHE.put((self.key[0], version, self.key[1], player), actions)
            return
        self._held.append((version, player, actions))
        if len(self._held) == 1:  # outside a transaction, `on_commit` calls back at once
            transaction.on_commit(self._on_commit)

    def _on_commit(self) -> None:
        self.committed = max(self.committed, self.match.state_version)  # what the transaction saved
        held, self._held = self._held, []
        for version, player, actions in held:
            if version <= self.committed:  # a later version than the one saved: never stored, dropped
                _LEGAL_CACHE.put((self.key[0], version, self.key[1], player), actions)


def legal_actions(match: Match, game: GameKind[S, A]) -> LegalActions[S, A]:
    """Legal actions at this match's versions, shared with this process's other requests (`LegalActions`):
    what the view a player read, or the answer to their last move, computed serves their next submit."""
    return LegalActions(game, SharedLegalActions(match))


def ai_seat_must_act(match: Match) -> bool:
    """True when an AI seat is among the current players of an active match."""
    if match.status != MatchStatus.ACTIVE or match.started_at is None:
        return False
    game = get_game(match.kind)
    current = set(game.current_players(load_state(match, game)))
    return Seat.objects.filter(match=match, position__in=current).exclude(ai_agent="").exists()
