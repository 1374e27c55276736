"""API routes of the frontend app (under /api/): the signed-in user's notification settings and games, and the
interactive tutorials (anyone)."""

from django.urls import path

from frontend import apis, tutorial_views

urlpatterns = [
    path("me/settings/", apis.MeSettingsApi.as_view(), name="me-settings"),
    path("me/games/", apis.MyGamesApi.as_view(), name="me-games"),
    path("me/turns/", apis.MyTurnsApi.as_view(), name="me-turns"),
    path("tutorials/<slug:game>/", tutorial_views.TutorialApi.as_view(), name="tutorial-api"),
    path(
        "tutorials/<slug:game>/restart/", tutorial_views.TutorialRestartApi.as_view(), name="tutorial-restart"
    ),
]
