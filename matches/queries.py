"""The match with its seats and their users in one query: the read of every action and state read.

See `config.sql` for why these reads are SQL (the ORM's prefetch costs several times more CPU;
`bench/online_play.py` measures it). The submit path takes it with `lock=True`: the match row is locked
(`SELECT ... FOR UPDATE OF` the match only) before anything is checked (docs/style.md 10).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connections, router

from config.sql import Columns, fetch
from matches.models import ActionLog, Match, Seat

# Never on these paths: the snapshot (read through the state cache), its start part, the deck as played.
MATCH_COLUMNS = Columns(Match, "m", exclude=("state", "state_base"))
# The same row with its snapshot (`Match.from_db` joins the start part): the version and the state it names,
# read by one statement, for a reader whose cached state turned out to be of another version.
MATCH_STATE_COLUMNS = Columns(Match, "m", exclude=("state_base",))
SEAT_COLUMNS = Columns(Seat, "s", exclude=("deck_snapshot",))
_users: Columns | None = None


def _user_columns() -> Columns:
    global _users
    if _users is None:
        user_model = get_user_model()
        _users = Columns(user_model, "u", only=(user_model.USERNAME_FIELD,))
    return _users


def match_with_seats(
    match_id: int, *, lock: bool = False, with_state: bool = False
) -> tuple[Match, list[Seat]] | None:
    """The match (without its snapshot) and its seats by position, each with its user (id and name).

    None when there is no such match. With `lock`, inside a transaction, the match row stays locked
    until it ends (backends without row locks, SQLite, serialise writers anyway). With `with_state`, the
    match carries its snapshot too, read by the same statement as its version (`Match.state`).
    """
    using = router.db_for_write(Match) if lock else router.db_for_read(Match)
    connection = connections[using]
    users = _user_columns()
    quote = connection.ops.quote_name
    match_columns = MATCH_STATE_COLUMNS if with_state else MATCH_COLUMNS
    sql = (
        f"SELECT {match_columns.select(using)}, {SEAT_COLUMNS.select(using)}, {users.select(using)} "
        f"FROM {quote(Match._meta.db_table)} {quote('m')} "
        f"LEFT OUTER JOIN {quote(Seat._meta.db_table)} {quote('s')} ON {quote('s')}.{quote('match_id')} = {quote('m')}.{quote('id')} "
        f"LEFT OUTER JOIN {quote(users.table)} {quote('u')} ON {quote('u')}.{quote(users.model._meta.pk.column)} = {quote('s')}.{quote('user_id')} "
        f"WHERE {quote('m')}.{quote('id')} = %s ORDER BY {quote('s')}.{quote('position')}"
    )  # fmt: skip
    if lock and connection.features.has_select_for_update:
        sql += (
            f" FOR UPDATE OF {quote('m')}" if connection.features.has_select_for_update_of else " FOR UPDATE"
        )
    rows = fetch(sql, [match_id], using)
    if not rows:
        return None
    match = match_columns.load(rows[0], 0, using)
    assert isinstance(match, Match)
    seats: list[Seat] = []
    seat_start = len(match_columns)
    user_start = seat_start + len(SEAT_COLUMNS)
    for row in rows:
        seat = SEAT_COLUMNS.load(row, seat_start, using)
        if seat is None:  # a match nobody sits at (LEFT JOIN: one row of NULLs)
            continue
        assert isinstance(seat, Seat)
        seat.match = match
        seat.user = users.load(row, user_start, using) if seat.user_id is not None else None  # type: ignore[assignment]
        seats.append(seat)
    return match, seats


def attach_seats(match: Match, seats: list[Seat]) -> None:
    """Keep the seats read with the match on it, for `seats_of` (the selectors of the hot path).

    In the declared `Match.seats_loaded`, not a prefetch: building the `prefetch_related`-style queryset
    that `match.seats.all()` would answer from costs more per request than the read itself.
    """
    match.seats_loaded = seats


def seats_of(match: Match) -> list[Seat]:
    """The match's seats by position: those read with it (`attach_seats`), else `match.seats.all()`
    (prefetched by list views, else one query)."""
    return match.seats_loaded if match.seats_loaded is not None else list(match.seats.all())


# The snapshot with the version it is (`Match.from_db` joins the split snapshot): one row, one statement.
STATE_COLUMNS = Columns(Match, "m", only=("state", "seed", "state_version"))


class VersionedState(NamedTuple):
    """A stored snapshot and the version (and seed) of the row it was read from, by one statement."""

    state: Any
    version: int
    seed: int


def match_state(match_id: int) -> VersionedState | None:
    """The match's full engine snapshot with its version (None when there is no such match).

    The version comes from the same row read: a reader compares it with the version it holds, never
    labels the snapshot with a version read by another statement (another process may commit between).
    """
    using = router.db_for_read(Match)
    quote = connections[using].ops.quote_name
    rows = fetch(
        f"SELECT {STATE_COLUMNS.select(using)} FROM {quote(Match._meta.db_table)} {quote('m')} "
        f"WHERE {quote('m')}.{quote('id')} = %s",
        [match_id],
        using,
    )
    match = STATE_COLUMNS.load(rows[0], 0, using) if rows else None
    if match is None:
        return None
    assert isinstance(match, Match)
    return VersionedState(match.state, match.state_version, match.seed)


LOG_COLUMNS = Columns(ActionLog, "l")


def log_entries(
    match_id: int, *, since: int = 0, limit: int | None = None, until: int | None = None
) -> list[ActionLog]:
    """The match's log entries after version `since` (up to `until`), oldest first; with `limit`, only the
    last `limit`."""
    using = router.db_for_read(ActionLog)
    quote = connections[using].ops.quote_name
    version = f"{quote('l')}.{quote('version')}"
    sql = (
        f"SELECT {LOG_COLUMNS.select(using)} FROM {quote(ActionLog._meta.db_table)} {quote('l')} "
        f"WHERE {quote('l')}.{quote('match_id')} = %s AND {version} > %s"
    )
    params: list[Any] = [match_id, since]
    if until is not None:
        sql += f" AND {version} <= %s"
        params.append(until)
    if limit is not None:
        sql += f" ORDER BY {version} DESC LIMIT %s"
        params.append(limit)
        rows = list(reversed(fetch(sql, params, using)))
    else:
        rows = fetch(sql + f" ORDER BY {version}", params, using)
    return [LOG_COLUMNS.load(row, 0, using) for row in rows]  # type: ignore[misc]
