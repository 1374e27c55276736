"""The viewer's language: the signed-in user's saved one, else the `django_language` cookie, else the browser's
Accept-Language (docs/i18n.md).

`LanguageMiddleware` replaces Django's LocaleMiddleware (it keeps its response half: `Vary` and
`Content-Language`). `set_language` is the switcher's endpoint: a plain form POST (with CSRF) that works
without JavaScript; it keeps the choice in the cookie and, for a signed-in user, in their settings.
An unknown code is never a 500: the cookie's is ignored, the switcher and the API answer 400 naming the
allowed codes.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog

from config.errors import error_body


def codes() -> list[str]:
    """The site's language codes, as settings.LANGUAGES lists them (en, th, zh-hans)."""
    return [code for code, _name in settings.LANGUAGES]


def normalize(code: object) -> str | None:
    """`code` as one of the site's codes (case-insensitive, `_` for `-`), or None when it is not one."""
    if not isinstance(code, str) or len(code) > 20:
        return None
    wanted = code.strip().lower().replace("_", "-")
    return wanted if wanted in codes() else None


def unknown_language_message(code: object) -> str:
    """The 400 message for a code that is not the site's: it names the allowed ones."""
    shown = code[:20] if isinstance(code, str) else repr(code)[:20]
    return _("“%(code)s” is not a language of this site; choose one of: %(allowed)s.") % {
        "code": shown,
        "allowed": ", ".join(codes()),
    }


LANGUAGE_CACHE_S = 3600


def language_cache_key(user_id: int) -> str:
    return f"user-language:{user_id}"


def saved_language(user: Any) -> str:
    """The language a signed-in user chose in their settings ('' when none, or not signed in).

    Read on every request, so it is kept in the cache (set again on every change: `preferences.settings_update`),
    and the database is asked only on a miss — or while the cache is out of reach, which costs one query.
    """
    if user is None or not user.is_authenticated:
        return ""
    key = language_cache_key(user.pk)
    try:
        cached = cache.get(key)
    except Exception:  # Redis out of reach: the database still answers
        cached = None
    if cached is not None:
        return normalize(cached) or ""
    from frontend.models import UserSettings

    saved = UserSettings.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    language = normalize(saved) or ""
    try:
        cache.set(key, language, LANGUAGE_CACHE_S)
    except Exception:
        pass
    return language


class LanguageMiddleware(LocaleMiddleware):
    """Activates the viewer's language for the request: user's setting > cookie > Accept-Language."""

    def process_request(self, request: HttpRequest) -> None:
        language = ""
        if not request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
            language = saved_language(getattr(request, "user", None))
        # Django's resolution ignores a cookie that is not one of settings.LANGUAGES.
        language = language or translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


def remember_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """At sign-in, read the user's saved language into the cache: every request after it finds it there."""
    saved_language(user)


def _next_url(request: HttpRequest) -> str:
    """Where to go back to: the form's `next`, else the page it came from, if on this site; else home."""
    for candidate in (request.POST.get("next", ""), request.META.get("HTTP_REFERER", "")):
        if candidate and url_has_allowed_host_and_scheme(
            candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return candidate
    return "/"


def set_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=False,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher: POST `language` (and `next`); keeps the choice, then goes back to the page, now in it."""
    raw = request.POST.get("language", "")
    language = normalize(raw)
    if language is None:
        from frontend.errors import error_page

        message = unknown_language_message(raw)
        if request.headers.get("accept", "").startswith("application/json"):
            return JsonResponse(error_body("invalid_language", message, {"allowed": codes()}), status=400)
        return error_page(request, 400, ValueError(message))
    if request.user.is_authenticated:
        from frontend import preferences

        preferences.settings_update(user=request.user, language=language)
    translation.activate(language)
    response = HttpResponseRedirect(_next_url(request))
    set_cookie(response, language)
    return response


# --- The JavaScript catalogue ------------------------------------------------------------------------------
# The project's apps only (not the admin's strings); config/locale comes with LOCALE_PATHS.
CATALOG_PACKAGES = ["cards", "decks", "matches", "boardgame", "frontend"]
_catalogs: dict[str, tuple[bytes, str]] = {}  # language -> (script, digest): built once per process


def catalog(language: str) -> tuple[bytes, str]:
    """The catalogue script of one language and a digest of it (for its URL and ETag)."""
    if language not in _catalogs:
        with translation.override(language):
            request = HttpRequest()
            request.method = "GET"
            response = JavaScriptCatalog.as_view(packages=CATALOG_PACKAGES)(request)
        body = response.content
        _catalogs[language] = (body, hashlib.sha256(body).hexdigest()[:12])
    return _catalogs[language]


def javascript_catalog(request: HttpRequest, language: str = "") -> HttpResponse:
    """GET /jsi18n/ (the request's language) or /jsi18n/<code>/: Django's catalogue, cached per language.

    The pages load /jsi18n/<code>/?v=<digest>, which browsers may keep for a year: a new catalogue has a
    new digest, so a new URL.
    """
    if language:
        chosen = normalize(language)
        if chosen is None:
            message = unknown_language_message(language)
            return JsonResponse(error_body("invalid_language", message, {"allowed": codes()}), status=400)
    else:
        chosen = translation.get_language()
    body, digest = catalog(chosen)
    if request.headers.get("if-none-match") == f'"{digest}"':
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["ETag"] = f'"{digest}"'
    if language and request.GET.get("v") == digest:
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response["Cache-Control"] = "public, max-age=300"
    response["Content-Language"] = chosen
    return response


def context(request: HttpRequest) -> dict[str, Any]:
    """Template context: the switcher's languages and the catalogue's URL for the active language."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    _body, digest = catalog(language)
    return {
        "site_languages": [(code, name) for code, name in settings.LANGUAGES],
        "jsi18n_url": f"/jsi18n/{language}/?v={digest}",
    }
