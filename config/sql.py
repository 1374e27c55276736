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

from django.db import connections
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
