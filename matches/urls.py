"""API routes of online play (mounted under /api/)."""

from django.urls import path, re_path

from matches import apis

urlpatterns = [
    path("health/", apis.HealthApi.as_view(), name="health"),
    path("matches/", apis.MatchListCreateApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/join/", apis.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<int:match_id>/leave/", apis.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<int:match_id>/start/", apis.MatchStartApi.as_view(), name="match-start"),
    path("matches/<int:match_id>/state/", apis.MatchStateApi.as_view(), name="match-state"),
    path(
        "matches/<int:match_id>/legal-actions/",
        apis.MatchLegalActionsApi.as_view(),
        name="match-legal-actions",
    ),
    path("matches/<int:match_id>/actions/", apis.MatchActionSubmitApi.as_view(), name="match-actions"),
    path("matches/<int:match_id>/concede/", apis.MatchConcedeApi.as_view(), name="match-concede"),
    path("matches/<int:match_id>/log/", apis.MatchLogApi.as_view(), name="match-log"),
    path("matches/<int:match_id>/replay/", apis.MatchReplayApi.as_view(), name="match-replay"),
    re_path(r"^matches/.+$", apis.MatchPathNotFoundApi.as_view(), name="match-path-not-found"),
]
