"""API token authentication: DRF's, with its lookup as one plain SQL query (see `config.sql`), and expiry.

The same checks and the same errors as `rest_framework.authentication.TokenAuthentication` (which
runs `Token.objects.select_related("user").get(key=key)` on every request); the ORM compiling that
query again was the largest single cost of a state read. A token older than `API_TOKEN_TTL` seconds
is refused (a comparison with the `created` column the query already reads: no extra cost); asking
for a token again (`/api/auth/token/`) replaces an expired one, `POST /api/auth/logout/` deletes it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

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
        if token_expired(token):
            raise exceptions.AuthenticationFailed(_("Token expired: ask /api/auth/token/ for a new one."))
        return user, token


def token_expired(token: Any) -> bool:
    """Whether a token is older than API_TOKEN_TTL seconds (0: tokens never expire)."""
    ttl = settings.API_TOKEN_TTL
    return bool(ttl) and token.created < timezone.now() - timedelta(seconds=ttl)


def token_for(user: Any) -> Token:
    """The user's API token: the current one, or a new one when there is none or it has expired."""
    token, created = Token.objects.get_or_create(user=user)
    if not created and token_expired(token):
        token.delete()
        token = Token.objects.create(user=user)
    return token
