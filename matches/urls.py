"""API routes of online play (mounted under /api/)."""

from django.urls import path, re_path

from matches import apis, chat_apis, ratings_api

urlpatterns = [
    path("health/", apis.HealthApi.as_view(), name="health"),
    path("matches/", apis.MatchListCreateApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/join/", apis.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<int:match_id>/leave/", apis.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<int:match_id>/start/", apis.MatchStartApi.as_view(), name="match-start"),
    path("matches/<int:match_id>/house/", apis.MatchHouseApi.as_view(), name="match-house"),
    path("matches/<int:match_id>/kick/", apis.MatchKickApi.as_view(), name="match-kick"),
    path("matches/<int:match_id>/fill-ai/", apis.MatchFillAiApi.as_view(), name="match-fill-ai"),
    path("matches/<int:match_id>/rematch/", apis.MatchRematchApi.as_view(), name="match-rematch"),
    path("matches/<int:match_id>/state/", apis.MatchStateApi.as_view(), name="match-state"),
    path(
        "matches/<int:match_id>/legal-actions/",
        apis.MatchLegalActionsApi.as_view(),
        name="match-legal-actions",
    ),
    path("matches/<int:match_id>/actions/", apis.MatchActionSubmitApi.as_view(), name="match-actions"),
    path("matches/<int:match_id>/concede/", apis.MatchConcedeApi.as_view(), name="match-concede"),
    path(
        "matches/<int:match_id>/seat/", apis.MatchSeatPreferencesApi.as_view(), name="match-seat-preferences"
    ),
    path("matches/<int:match_id>/log/", apis.MatchLogApi.as_view(), name="match-log"),
    path("matches/<int:match_id>/replay/", apis.MatchReplayApi.as_view(), name="match-replay"),
    path("matches/<int:match_id>/chat/", chat_apis.MatchChatApi.as_view(), name="match-chat"),
    path("chat/mutes/", chat_apis.ChatMutesApi.as_view(), name="chat-mutes"),
    path("chat/mutes/<str:username>/", chat_apis.ChatMuteApi.as_view(), name="chat-mute"),
    path("matches/<int:match_id>/summary/", ratings_api.MatchSummaryApi.as_view(), name="match-summary"),
    path("players/<str:username>/", ratings_api.PlayerProfileApi.as_view(), name="player-profile-api"),
    path("leaderboard/<str:kind>/", ratings_api.LeaderboardApi.as_view(), name="leaderboard-api"),
    re_path(r"^matches/.+$", apis.MatchPathNotFoundApi.as_view(), name="match-path-not-found"),
]
