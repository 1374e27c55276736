"""API token authentication: DRF's, with its lookup as one plain SQL query (see `config.sql`).

The same checks and the same errors as `rest_framework.authentication.TokenAuthentication` (which
runs `Token.objects.select_related("user").get(key=key)` on every request); the ORM compiling that
query again was the largest single cost of a state read.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from config.sql import Columns, fetch

_columns: tuple[Columns, Columns] | None = None


def _token_and_user_columns(token_model: Any) -> tuple[Columns, Columns]:
    global _columns
    if _columns is None:
        _columns = (Columns(token_model, "t"), Columns(get_user_model(), "u"))
    return _columns


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, looked up with its user in one query."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        model = self.get_model()
        tokens, users = _token_and_user_columns(model)
        using = router.db_for_read(model)
        quote = connections[using].ops.quote_name
        user_fk = model._meta.get_field("user")
        sql = (
            f"SELECT {tokens.select(using)}, {users.select(using)} "
            f"FROM {quote(tokens.table)} {quote('t')} INNER JOIN {quote(users.table)} {quote('u')} "
            f"ON {quote('u')}.{quote(users.model._meta.pk.column)} = {quote('t')}.{quote(user_fk.column)} "
            f"WHERE {quote('t')}.{quote(model._meta.pk.column)} = %s"
        )
        rows = fetch(sql, [key], using)
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = tokens.load(rows[0], 0, using)
        user = users.load(rows[0], len(tokens), using)
        token.user = user  # type: ignore[union-attr]
        if not user.is_active:  # type: ignore[union-attr]
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token
