"""Plain SQL for the few reads and writes on the hot path of online play, with model instances.

Every submitted action and every state read needs the caller's API token with its user, and the match
with its seats and their users. Through the ORM most of the CPU of those reads goes into compiling the
same query again; as SQL written once they cost several times less (measure with `bench/online_play.py`).

The SELECT lists come from the models' metadata (table and column names, quoted by the backend), and
the rows come back through the documented `Model.from_db` with the same database converters the ORM
applies (JSON decoding, SQLite's dates and booleans), so callers get ordinary model instances: deferred
columns load on access, `save(update_fields=...)` works. Tests compare every column with the ORM's on
SQLite and PostgreSQL (`matches/tests/test_sql_reads.py`).

The writes (`Writes`, `insert`, `update`) apply the fields' `pre_save` and database preparation as
`save()` does. An action's writes go to PostgreSQL as one statement instead of one round trip each
(the gain, with orjson in `config/jsoncodec.py`, is measured by `bench/online_play.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model


class Columns:
    """Some concrete fields of one model under a table alias: their SELECT list and rows back into instances."""

    def __init__(
        self,
        model: type[Model],
        alias: str,
        *,
        exclude: Sequence[str] = (),
        only: Sequence[str] | None = None,
    ) -> None:
        self.model = model
        self.alias = alias
        self.fields = [
            f
            for f in model._meta.concrete_fields
            if f.name not in exclude
            and f.attname not in exclude
            and (only is None or f.primary_key or f.name in only or f.attname in only)
        ]
        self.attnames = [f.attname for f in self.fields]
        self._pk_index = next(i for i, f in enumerate(self.fields) if f.primary_key)
        self._converters: dict[str, list[tuple[int, list[Any], Any]]] = {}

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    def __len__(self) -> int:
        return len(self.fields)

    def select(self, using: str) -> str:
        """`"alias"."column", ...` for this backend."""
        quote = connections[using].ops.quote_name
        return ", ".join(f"{quote(self.alias)}.{quote(f.column)}" for f in self.fields)

    def _converters_for(self, using: str) -> list[tuple[int, list[Any], Any]]:
        found = self._converters.get(using)
        if found is None:
            connection = connections[using]
            found = []
            for i, f in enumerate(self.fields):
                col = f.get_col(self.alias)
                convs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
                if convs:
                    found.append((i, convs, col))
            self._converters[using] = found
        return found

    def load(self, row: Sequence[Any], start: int, using: str) -> Model | None:
        """The instance whose columns begin at `row[start]` (None when its primary key is NULL: outer join)."""
        values = list(row[start : start + len(self.fields)])
        if values[self._pk_index] is None:
            return None
        connection = connections[using]
        for i, convs, col in self._converters_for(using):
            for conv in convs:
                values[i] = conv(values[i], col, connection)
        return self.model.from_db(using, self.attnames, values)


def fetch(sql: str, params: Sequence[Any], using: str = "default") -> list[tuple[Any, ...]]:
    """Rows of one parameterised query."""
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


class Writes:
    """INSERTs and UPDATEs of model instances sent as one statement, as `save()` would write them.

    For the hot path of online play, where every action appends a log row and updates the match and the
    seats whose clocks moved: on PostgreSQL they go as one statement of data-modifying CTEs (`WITH w0 AS
    (INSERT ...), w1 AS (UPDATE ...) SELECT ...`), one round trip instead of one each; elsewhere (SQLite)
    one after the other. Either way they run inside the caller's transaction and an error (a unique
    constraint, say) leaves it to be rolled back. Fields' `pre_save` applies (auto_now_add...), new rows
    get their primary keys; no signals are sent (the models written this way have none). The parts of
    one statement see the database as it was before it, so they must touch different rows (they do: a
    new log row, the match, each seat once).
    """

    def __init__(self, using: str | None = None) -> None:
        self.using = using
        # (SQL, params, the instance an INSERT saves, whether the database gives it its key)
        self._parts: list[tuple[str, list[Any], Model | None, bool]] = []

    def __len__(self) -> int:
        return len(self._parts)

    def _connection(self, instance: Model) -> Any:
        using = self.using or router.db_for_write(type(instance), instance=instance)
        if self.using is None:
            self.using = using
        elif using != self.using:
            raise ValueError(f"one batch of writes goes to one database ({self.using}), not {using}")
        return connections[using]

    def insert(self, instance: Model) -> Writes:
        connection = self._connection(instance)
        meta = instance._meta
        fields = [
            f for f in meta.concrete_fields if not (f.primary_key and getattr(f, "db_returning", False))
        ]
        values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
        quote = connection.ops.quote_name
        sql = (
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))})"
        )
        awaits_key = bool(getattr(meta.pk, "db_returning", False))
        if awaits_key and connection.features.can_return_columns_from_insert:
            sql += f" RETURNING {quote(meta.pk.column)}"
        self._parts.append((sql, values, instance, awaits_key))
        return self

    def update(self, instance: Model, fields: Sequence[str]) -> Writes:
        """UPDATE these fields of a saved instance by primary key, as `save(update_fields=...)` would."""
        connection = self._connection(instance)
        meta = instance._meta
        targets = [meta.get_field(name) for name in fields]
        values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in targets]  # type: ignore[union-attr]
        quote = connection.ops.quote_name
        sql = (
            f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in targets)} "  # type: ignore[union-attr]
            f"WHERE {quote(meta.pk.column)} = %s"
        )
        self._parts.append((sql, [*values, meta.pk.get_db_prep_value(instance.pk, connection)], None, False))
        return self

    def run(self) -> None:
        """Send the writes (one statement on PostgreSQL) and set the new rows' keys."""
        if not self._parts:
            return
        assert self.using is not None
        connection = connections[self.using]
        parts, self._parts = self._parts, []
        with connection.cursor() as cursor:
            if connection.vendor != "postgresql" or len(parts) == 1:
                for sql, params, instance, awaits_key in parts:
                    cursor.execute(sql, params)
                    if instance is not None:
                        self._saved(instance, self._key(instance, cursor, connection) if awaits_key else None)
                return
            quote = connection.ops.quote_name
            ctes = ", ".join(f"{quote(f'w{i}')} AS ({part[0]})" for i, part in enumerate(parts))
            keyed = [i for i, part in enumerate(parts) if part[3]]
            select = ", ".join(f"(SELECT * FROM {quote(f'w{i}')})" for i in keyed) or "1"
            cursor.execute(f"WITH {ctes} SELECT {select}", [p for part in parts for p in part[1]])
            keys = dict(zip(keyed, cursor.fetchone(), strict=False))
            for i, (_, _, instance, _) in enumerate(parts):
                if instance is not None:
                    self._saved(instance, keys.get(i))

    @staticmethod
    def _key(instance: Model, cursor: Any, connection: Any) -> Any:
        meta = instance._meta
        if connection.features.can_return_columns_from_insert:
            return cursor.fetchone()[0]
        return connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)

    def _saved(self, instance: Model, key: Any) -> None:
        if key is not None:
            setattr(instance, instance._meta.pk.attname, key)
        instance._state.adding = False
        instance._state.db = self.using


def insert(instance: Model, using: str | None = None) -> None:
    """INSERT a new instance as `save()` would (fields' `pre_save`, e.g. auto_now_add) and set its key."""
    Writes(using).insert(instance).run()


def update(instance: Model, fields: Sequence[str], using: str | None = None) -> None:
    """UPDATE these fields of a saved instance by primary key, as `save(update_fields=...)` would."""
    Writes(using).update(instance, fields).run()
