"""Guards every request before a view sees it, and keeps every error under /api/ in the API's JSON shape.

`InputGuardMiddleware` refuses, with a 400 naming the parameter:
- a path or query string holding a character PostgreSQL cannot store (NUL; a lone surrogate cannot
  survive Django's decoding of the URL), which once reached the database as a lookup and failed there
  with a 500 (`/api/cards/a%00b/`, `/decks/shared/a%00b/`, `?search=%00`);
- under /api/, a query string with more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS, and (413) a declared
  body over DATA_UPLOAD_MAX_MEMORY_SIZE, so neither reaches Django's HTML "Bad Request (400)".

Cookies whose value holds NUL (a quoted cookie's `\\000` escape) are dropped. Request bodies are
checked by the parser (config/parsers.py). Outside /api/ a refusal is the site's 400 page (handler400);
under /api/ it is `{"code", "message", "extra"}`. Any other error answer under /api/ that is not JSON
already (the resolver's 404 for `/api/decks/null%2Cnull/`, a 405 of a plain Django view, a 500 page when
DEBUG is off) is rewritten to that shape with the same status and headers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, get_resolver, resolve
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from config.errors import character_problem, error_body, unavailable_message
from config.text import unstorable_character

API_PREFIX = "/api/"
logger = logging.getLogger(__name__)

# Codes of the JSON answers made here for error pages that are not JSON (same codes as DRF's).
_STATUS_CODES = {
    400: ("bad_request", gettext_noop("The request cannot be read.")),
    401: ("not_authenticated", gettext_noop("Authentication credentials were not provided.")),
    403: ("permission_denied", gettext_noop("You do not have permission to perform this action.")),
    404: ("not_found", gettext_noop("Nothing is found at this address.")),
    405: ("method_not_allowed", gettext_noop("This method is not allowed here.")),
    413: ("request_too_large", gettext_noop("The request body is too large.")),
    415: ("unsupported_media_type", gettext_noop("The request's content type is not supported.")),
    429: ("throttled", gettext_noop("Too many requests.")),
    503: ("service_unavailable", ""),  # the message: config.errors.unavailable_message
}
# Headers of the original answer that a client needs (which methods, how to authenticate, when to retry).
_KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After", "Vary")


class InputGuard(Exception):
    """A request refused before its view: status, code, message and the parameter it names."""

    def __init__(self, status: int, code: str, message: str, extra: dict[str, Any]):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def _path_refusal(path: str) -> InputGuard | None:
    problem = unstorable_character(path)
    if problem is None:
        return None
    name = "path"
    try:  # name the path parameter when the address resolves (`share_id`, `slug`...)
        match = resolve(path)
        name = next(
            (k for k, v in match.kwargs.items() if isinstance(v, str) and unstorable_character(v)), name
        )
    except Resolver404:
        pass
    return InputGuard(
        400,
        "invalid_character",
        gettext("The path parameter %(name)s contains %(problem)s.")
        % {"name": name, "problem": character_problem(problem)},
        {"parameter": name},
    )


def _query_refusal(request: HttpRequest, api: bool) -> InputGuard | None:
    raw = request.META.get("QUERY_STRING", "")
    if not raw:
        return None
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    if api and limit is not None and raw.count("&") + 1 > limit:  # Django's own count (parse_qsl)
        return InputGuard(
            400,
            "too_many_fields",
            gettext("The query string has more than %(limit)s fields.") % {"limit": limit},
            {"limit": limit},
        )
    if "%00" not in raw and "\x00" not in raw:
        return None
    for key, values in request.GET.lists():
        for text in (key, *values):
            problem = unstorable_character(text)
            if problem:
                return InputGuard(
                    400,
                    "invalid_character",
                    gettext("The query parameter %(name)s contains %(problem)s.")
                    % {"name": repr(key), "problem": character_problem(problem)},
                    {"parameter": key},
                )
    return None


def _body_refusal(request: HttpRequest) -> InputGuard | None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return InputGuard(400, "bad_request", gettext("The Content-Length header is not a number."), {})
    if limit is not None and declared > limit:
        return InputGuard(
            413,
            "request_too_large",
            gettext("The request body is larger than the limit of %(limit)s bytes.") % {"limit": limit},
            {"limit": limit},
        )
    return None


def _drop_unstorable_cookies(request: HttpRequest) -> None:
    """Forget cookies whose value the database cannot store: a quoted cookie may carry `\\000`, which
    Django decodes to NUL, and a session id with NUL failed the session lookup (a 500 on every page).
    A cookie is not input a user types, so it is treated as absent rather than refused."""
    raw = request.META.get("HTTP_COOKIE", "")
    if "\\" not in raw and "\x00" not in raw:
        return
    for name, value in list(request.COOKIES.items()):
        if unstorable_character(name) or unstorable_character(value):
            del request.COOKIES[name]


def _as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """An error answer under /api/ in the API's JSON shape (DRF's own answers are left as they are)."""
    status = response.status_code
    if status < 400 or hasattr(response, "accepted_renderer"):
        return response
    if response.get("Content-Type", "").startswith("application/json"):
        return response
    if status >= 500 and settings.DEBUG:  # the developer's traceback page
        return response
    code, message = _STATUS_CODES.get(status, ("server_error" if status >= 500 else "error", ""))
    extra: dict[str, Any] = {}
    if status == 404:
        message = gettext("Nothing is found at %(path)s.") % {"path": request.path}
    elif status == 503:  # Redis out of reach (frontend/errors.py): the client may try again
        message = unavailable_message()
        if response.get("Retry-After", "").isdigit():
            extra["retry_after"] = int(response["Retry-After"])
    elif status >= 500:
        message = gettext("The server failed to answer this request; it has been logged.")
    elif message:
        message = gettext(message)
    json = JsonResponse(error_body(code, message or f"HTTP {status}.", extra), status=status)
    for header in _KEPT_HEADERS:
        if header in response:
            json[header] = response[header]
    return json


class InputGuardMiddleware:
    """Refuse unstorable characters in paths and query strings; bound /api/ query and body sizes; keep
    /api/ errors JSON. Cheap on the hot path: a few substring checks of strings already in hand."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path_info.startswith(API_PREFIX)
        _drop_unstorable_cookies(request)
        # Before LanguageMiddleware: a refusal speaks the cookie's or the browser's language.
        with translation.override(translation.get_language_from_request(request)):
            refusal = _path_refusal(request.path_info) or _query_refusal(request, api)
            if refusal is None and api:
                refusal = _body_refusal(request)
        if refusal is not None:
            if not api:  # the site's 400 page (handler400), without a logged traceback per request
                logger.info("Refused %s: %s", request.path_info.encode("unicode_escape"), refusal.message)
                handler = get_resolver().resolve_error_handler(400)
                return handler(request, exception=BadRequest(refusal.message))
            return JsonResponse(
                error_body(refusal.code, refusal.message, refusal.extra), status=refusal.status
            )
        response = self.get_response(request)
        return _as_json(request, response) if api else response
