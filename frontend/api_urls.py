"""API routes of the frontend app (under /api/): the signed-in user's notification settings and games."""

from django.urls import path

from frontend import apis

urlpatterns = [
    path("me/settings/", apis.MeSettingsApi.as_view(), name="me-settings"),
    path("me/games/", apis.MyGamesApi.as_view(), name="me-games"),
    path("me/turns/", apis.MyTurnsApi.as_view(), name="me-turns"),
]
