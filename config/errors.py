"""One error taxonomy for the API: every error answers {"code", "message", "extra"} (STYLE.md 11)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A domain error with a stable code, a plain message and an HTTP status."""

    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(
        self, code: str, message: str, *, extra: dict[str, Any] | None = None, status_code: int | None = None
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra or {}
        if status_code is not None:
            self.status_code = status_code


def _flatten(detail: Any) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_flatten(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return "; ".join(_flatten(v) for v in detail)
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(
            {"code": exc.code, "message": exc.message, "extra": exc.extra}, status=exc.status_code
        )
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        code, message, extra = "invalid", _flatten(exc.detail), {"fields": exc.detail}
    else:
        code = getattr(exc, "default_code", "error")
        message = _flatten(getattr(exc, "detail", str(exc)))
        extra = {}
    response.data = {"code": code, "message": message, "extra": extra}
    return response
