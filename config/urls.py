"""URL map: admin, API (with OpenAPI schema and docs) and pages.

The docs pages load Swagger UI and ReDoc from the drf-spectacular-sidecar package (static files), never
from a CDN, so /api/docs/ and /api/redoc/ work offline; Swagger UI's script is served from its own URL
(no inline script, for a Content-Security-Policy).
"""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from cards import art_views
from config import health
from frontend import language

urlpatterns = [
    # Load-balancer probes: liveness, and readiness (database and Redis reachable): config/health.py
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    # Languages (frontend/language.py): the switcher's POST and the JavaScript catalogue, per language.
    path("i18n/setlang/", language.set_language, name="set-language"),
    path("jsi18n/", language.javascript_catalog, name="javascript-catalog"),
    path("jsi18n/<str:language>/", language.javascript_catalog, name="javascript-catalog-language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's start-up script as a file of its own (the split view): the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path(
        "api/redoc/",
        # ReDoc builds its search index in a worker made from its own bundle's text (a blob: URL): allowed
        # on this page alone, where the site's scripts and the API schema are all there is.
        csp_update({"worker-src": ["'self'", "blob:"]})(
            SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")
        ),
        name="api-redoc",
    ),
    path("api/", include("cards.urls")),
    path("api/", include("decks.urls")),
    path("api/", include("matches.urls")),
    path("api/westeros/", include("boardgame.urls")),
    path("api/", include("frontend.api_urls")),
    path("play/", include("matches.page_urls")),
    path("", include("matches.player_page_urls")),  # /players/<username>/, /leaderboard/<kind>/
    # Card art (cards/art_views.py): a card's placeholder drawing, and uploads kept on this site's disk.
    path("cards/<slug:slug>/art.svg", art_views.placeholder, name="card-art-placeholder"),
    path("cards/<slug:slug>/art/<str:size>/", art_views.current, name="card-art-current"),
    re_path(r"^media/(?P<path>.+)$", art_views.media, name="media"),
    path("", include("frontend.urls")),
]

# The site's error pages, with its navigation (JSON under /api/): frontend/errors.py
handler400 = "frontend.errors.bad_request"
handler403 = "frontend.errors.permission_denied"
handler404 = "frontend.errors.page_not_found"
handler500 = "frontend.errors.server_error"
