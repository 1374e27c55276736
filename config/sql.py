"""Plain SQL for the few reads on the hot path of online play, with model instances back.

Every submitted action and every state read needs the caller's API token with its user, and the match
with its seats and their users. Through the ORM those reads cost 1-2 ms of CPU each, nearly all of it
in compiling the same query again (on the benchmark machine: token 1.2 ms, match + prefetched seats
3.7 ms, seats with users 1.9 ms, `bench/online_play.py`); as SQL written once they cost 0.2-0.4 ms.

The SELECT lists come from the models' metadata (table and column names, quoted by the backend), and
the rows come back through the documented `Model.from_db` with the same database converters the ORM
applies (JSON decoding, SQLite's dates and booleans), so callers get ordinary model instances: deferred
columns load on access, `save(update_fields=...)` works. Tests compare every column with the ORM's on
SQLite and PostgreSQL (`matches/tests/test_sql_reads.py`).
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
        return cursor.fetchall()


def insert(instance: Model, using: str | None = None) -> None:
    """INSERT a new instance as `save()` would (fields' `pre_save`, e.g. auto_now_add) and set its key.

    For append-only rows on the hot path; no signals are sent (the models written this way have none).
    """
    using = using or router.db_for_write(type(instance), instance=instance)
    connection = connections[using]
    meta = instance._meta
    fields = [f for f in meta.concrete_fields if not (f.primary_key and f.db_returning)]
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    pk = meta.pk
    with connection.cursor() as cursor:
        if pk.db_returning and connection.features.can_return_columns_from_insert:
            cursor.execute(f"{sql} RETURNING {quote(pk.column)}", values)
            key = cursor.fetchone()[0]
        else:
            cursor.execute(sql, values)
            key = connection.ops.last_insert_id(cursor, meta.db_table, pk.column) if pk.db_returning else None
    if key is not None:
        setattr(instance, pk.attname, key)
    instance._state.adding = False
    instance._state.db = using


def update(instance: Model, fields: Sequence[str], using: str | None = None) -> None:
    """UPDATE these fields of a saved instance by primary key, as `save(update_fields=...)` would."""
    using = using or router.db_for_write(type(instance), instance=instance)
    connection = connections[using]
    meta = instance._meta
    targets = [meta.get_field(name) for name in fields]
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in targets]  # type: ignore[union-attr]
    quote = connection.ops.quote_name
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in targets)} "  # type: ignore[union-attr]
        f"WHERE {quote(meta.pk.column)} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, meta.pk.get_db_prep_value(instance.pk, connection)])
