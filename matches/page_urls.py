"""Page routes of the online-play layer (lobby, match pages, replays), mounted at /play/."""

from django.urls import path

from matches import pages

urlpatterns = [
    path("", pages.lobby, name="match-lobby"),
    path("<int:match_id>/", pages.match_page, name="match-page"),
    path("<int:match_id>/replay/", pages.replay, name="match-replay-page"),
    path("join/<str:token>/", pages.invite, name="match-invite"),
]
