"""One error taxonomy for the API: every error answers {"code", "message", "extra"} (docs/style.md 11).

A backing service out of reach (Redis as cache, channel layer or broker) is `503 service_unavailable` with
`Retry-After`, never a 500: the request may be sent again once Redis is back, and the processes reconnect
by themselves (redis-py and kombu open a new connection on the next call). Pages answer the site's 503
page the same way (frontend/errors.py, through handler500).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response

log = logging.getLogger(__name__)

# Seconds a client is asked to wait (Retry-After) when Redis is out of reach: a restart or a failover
# takes a few seconds.
RETRY_AFTER_S = 5


class ApplicationError(Exception):
    """A domain error with a stable code, a plain message and an HTTP status."""

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(
        self, code: str, message: str, *, extra: dict[str, Any] | None = None, status_code: int | None = None
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra or {}
        if status_code is not None:
            self.status_code = status_code


class RequestTooLarge(exceptions.APIException):
    """A request body over the upload limit (DATA_UPLOAD_MAX_MEMORY_SIZE): 413, before it is read."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"

    def __init__(self, limit: int | None = None):
        self.extra = {"limit": limit} if limit else {}
        if limit:
            message = gettext("The request body is larger than the limit of %(limit)s bytes.") % {
                "limit": limit
            }
        else:
            message = gettext("The request body is larger than the limit.")
        super().__init__(message)


class BadInput(exceptions.ParseError):
    """A 400 for input that cannot be read (JSON, characters, sizes) naming the field or parameter."""

    def __init__(self, code: str, message: str, extra: dict[str, Any]):
        super().__init__(message, code=code)
        self.extra = extra


def bad_json(code: str, message: str, *, field: str | None = None) -> BadInput:
    """The parser's refusal of a body: code e.g. json_too_deep, invalid_character, non_finite_number."""
    return BadInput(code, message, {"field": field} if field else {})


def character_problem(problem: str) -> str:
    """`config.text.unstorable_character`'s description (pure Python, English) in the active language."""
    code = problem[problem.rfind("(") + 1 : -1] if problem.endswith(")") else problem
    if problem.startswith("a NUL character"):
        return gettext("a NUL character (%(code)s)") % {"code": code}
    if problem.startswith("a lone surrogate"):
        return gettext("a lone surrogate (%(code)s)") % {"code": code}
    return problem


def error_body(code: str, message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The API's error shape (docs/style.md 11), for answers made outside DRF views (middleware, handlers)."""
    return {"code": code, "message": message, "extra": extra or {}}


def suspicious_to_api(exc: SuspiciousOperation | BadRequest) -> exceptions.APIException:
    """Django's refusals of a request (too big, too many fields) as API errors with their own codes."""
    if isinstance(exc, RequestDataTooBig):
        return RequestTooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        return BadInput(
            "too_many_fields",
            gettext("The request has more than %(limit)s fields.") % {"limit": limit},
            {"limit": limit},
        )
    if isinstance(exc, TooManyFilesSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        return BadInput(
            "too_many_files",
            gettext("The request has more than %(limit)s files.") % {"limit": limit},
            {"limit": limit},
        )
    return BadInput("bad_request", str(exc) or gettext("The request cannot be read."), {})


def _unavailable_types() -> tuple[type[BaseException], ...]:
    """Errors that say a backing service cannot be reached now (not that a request is wrong)."""
    import redis.exceptions
    from kombu.exceptions import OperationalError

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OperationalError)


def service_unavailable(exc: BaseException | None) -> bool:
    """Whether `exc`, or an error it was raised from or while handling, is a service out of reach."""
    kinds, seen = _unavailable_types(), 0
    while exc is not None and seen < 10:
        if isinstance(exc, kinds):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def unavailable_message() -> str:
    return gettext("The service is unavailable for a moment: try again in a few seconds.")


def service_unavailable_response(exc: BaseException) -> Response:
    """The API's 503 for a service out of reach: the error shape, and Retry-After."""
    log.warning("A backing service is unavailable: %s: %s", type(exc).__name__, exc)
    body = error_body("service_unavailable", unavailable_message(), {"retry_after": RETRY_AFTER_S})
    return Response(
        body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": str(RETRY_AFTER_S)}
    )


def _flatten(detail: Any) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_flatten(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return "; ".join(_flatten(v) for v in detail)
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler answering the error shape; Django's own refusals get their API codes."""
    from rest_framework.views import exception_handler  # not at import: DRF's views import the parser

    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.code, exc.message, exc.extra), status=exc.status_code)
    if service_unavailable(exc):
        return service_unavailable_response(exc)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, SuspiciousOperation | BadRequest):
        exc = suspicious_to_api(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        code, message, extra = "invalid", _flatten(exc.detail), {"fields": exc.detail}
    else:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else getattr(exc, "default_code", "error")
        message = _flatten(getattr(exc, "detail", str(exc)))
        extra = dict(getattr(exc, "extra", {}))
    response.data = error_body(code, message, extra)
    return response
