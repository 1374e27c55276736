"""Page routes of players' records: profiles and leaderboards (mounted at the site root)."""

from django.urls import path

from matches import player_pages

urlpatterns = [
    path("players/", player_pages.leaderboard_index, name="players"),
    path("players/<str:username>/", player_pages.profile, name="player-profile"),
    path("leaderboard/", player_pages.leaderboard_index, name="leaderboard-index"),
    path("leaderboard/<str:kind>/", player_pages.leaderboard, name="leaderboard"),
]
