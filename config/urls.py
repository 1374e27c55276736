"""URL map: admin, API (with OpenAPI schema and docs) and pages."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("cards.urls")),
    path("api/", include("decks.urls")),
    path("api/", include("matches.urls")),
    path("api/westeros/", include("boardgame.urls")),
    path("play/", include("matches.page_urls")),
    path("", include("frontend.urls")),
]
