"""The site's error pages (400, 403, 404, 429, 500, 503, CSRF failure): branded, with the navigation.

Set as Django's handlers in config/urls.py. They never show internals: a 404 or 403 shows the message
its view raised (our own words, e.g. "This match is private."), never the URL patterns Django tried.
Under /api/, config.middleware.InputGuardMiddleware rewrites any error that is not JSON already (these
pages included) into the API's error shape `{"code", "message", "extra"}`: one place for that.
An error that says Redis is out of reach (config.errors.service_unavailable) is the 503 page with
Retry-After, not the 500 page: nothing is wrong with the request, and it works again once Redis is back.
"""

from __future__ import annotations

import logging
import sys

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.urls import Resolver404
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from config.errors import RETRY_AFTER_S, service_unavailable

log = logging.getLogger(__name__)

_PAGES = {
    400: (gettext_lazy("Bad request"), gettext_lazy("The request could not be understood.")),
    403: (gettext_lazy("Not allowed"), gettext_lazy("You do not have permission to see this page.")),
    404: (gettext_lazy("Page not found"), gettext_lazy("There is nothing at this address.")),
    429: (
        gettext_lazy("Too many requests"),
        gettext_lazy("Too many requests from your address: try again later."),
    ),
    500: (
        gettext_lazy("Something went wrong"),
        gettext_lazy("An error on our side stopped this page. It has been logged."),
    ),
}


def _message(exception: BaseException | None, default: str | Promise) -> str | Promise:
    """The view's own message, if it raised one in words; never a resolver's list of tried patterns."""
    if exception is None or isinstance(exception, Resolver404) or not exception.args:
        return default
    first = exception.args[0]
    return str(first) if isinstance(first, (str, Promise)) and str(first) else default


def error_page(
    request: HttpRequest, status: int, exception: BaseException | None = None, hint: str = ""
) -> HttpResponse:
    """The page for one status (under /api/ the middleware turns it into the JSON error)."""
    title, default = _PAGES[status]
    message = _message(exception, default)
    context = {"status": status, "title": title, "message": message, "hint": hint}
    return render(request, "errors/error.html", context, status=status)


def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return error_page(request, 400, exception)


def permission_denied(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return error_page(request, 403, exception)


def page_not_found(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return error_page(request, 404, exception)


def service_unavailable_page(request: HttpRequest) -> HttpResponse:
    """The 503 page, with Retry-After: Redis is out of reach for a moment."""
    response = render(
        request,
        "errors/error.html",
        {
            "status": 503,
            "title": gettext("Back in a moment"),
            "message": gettext("The site cannot reach one of its services right now."),
            "hint": gettext("Reload the page in a few seconds."),
        },
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page (the 503 page when Redis is out of reach); if even that cannot render (a broken
    template, the database down), plain text."""
    if service_unavailable(sys.exc_info()[1]):  # handler500 runs inside Django's `except`
        try:
            return service_unavailable_page(request)
        except Exception:
            log.exception("The 503 page itself failed to render")
            response = HttpResponse("Service unavailable", content_type="text/plain", status=503)
            response["Retry-After"] = str(RETRY_AFTER_S)
            return response
    try:
        return error_page(request, 500)
    except Exception:
        log.exception("The 500 page itself failed to render")
        return HttpResponseServerError(_("Server error"), content_type="text/plain")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a stale form (e.g. after logging in elsewhere) rather than Django's bare page."""
    return error_page(
        request,
        403,
        PermissionError(_("This form has expired or was sent from another site.")),
        _("Go back, reload the page and try again."),
    )
