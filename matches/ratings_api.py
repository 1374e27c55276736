"""REST API of players' records: profiles, leaderboards and the end-of-game summary of a match.

Thin views over `matches.players` and `matches.summary`; the shapes are documented by the serializers
here (`matches/tests/test_ratings_api.py` checks the answers' keys against them).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import players, selectors, summary
from matches.api_types import ObjectField, ResultOut
from matches.apis import MatchApiView, errors


class RatingOut(serializers.Serializer[object]):
    """A rating as shown: Glicko-2 (Commandeer) or the OpenSkill ordinal (Westeros)."""

    kind = serializers.CharField()
    system = serializers.ChoiceField(choices=["glicko2", "openskill"])
    rating = serializers.IntegerField()
    deviation = serializers.FloatField(help_text=_("Glicko-2 RD, or OpenSkill sigma"))
    provisional = serializers.BooleanField(help_text=_('Too few games to be sure: shown with a "?"'))
    games = serializers.IntegerField(min_value=0, help_text=_("Rated games"))
    wins = serializers.IntegerField(min_value=0)
    losses = serializers.IntegerField(min_value=0)
    draws = serializers.IntegerField(min_value=0)


class HistoryPointOut(serializers.Serializer[object]):
    match = serializers.IntegerField(
        allow_null=True, help_text=_("Null: a private match the viewer may not open (the rating point stays)")
    )
    before = serializers.IntegerField()
    rating = serializers.IntegerField(help_text=_("The rating after this match"))
    at = serializers.DateTimeField(allow_null=True, help_text=_("Null with `match`"))


class KindRecordOut(serializers.Serializer[object]):
    """One game kind on a profile: every finished game's result, and the rating of rated ones."""

    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    games = serializers.IntegerField(min_value=0, help_text=_("Finished games, rated or not"))
    rated_games = serializers.IntegerField(min_value=0, help_text=_("Of `games`, the rated ones"))
    unrated_games = serializers.IntegerField(
        min_value=0, help_text=_("Of `games`, the unrated ones (AI, private)")
    )
    wins = serializers.IntegerField(min_value=0)
    losses = serializers.IntegerField(min_value=0)
    draws = serializers.IntegerField(min_value=0, help_text=_("Games without a winner"))
    rating = RatingOut(allow_null=True)
    history = HistoryPointOut(many=True, help_text=_("The latest rating changes, oldest first"))


class OpponentOut(serializers.Serializer[object]):
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True, help_text=_("Null for an AI seat"))


class RecentGameOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    finished_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.ChoiceField(
        choices=["win", "loss", "draw", "aborted"],
        help_text=_("aborted: a player never moved (no rating change)"),
    )
    reason = serializers.CharField()
    reason_label = serializers.CharField(help_text=_("How it ended, in a few words"))
    rated = serializers.BooleanField()
    unrated_reason = serializers.CharField(
        allow_blank=True,
        help_text=_("Why a game created rated did not count (no first move, repeated pairing)"),
    )
    rating_delta = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True, help_text=_("Final place in a rated game (1 = first)"))
    players = serializers.IntegerField(min_value=1, help_text=_("Seats at the table"))
    opponents = OpponentOut(many=True)
    replay_url = serializers.CharField()


class PublicDeckOut(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    faction = serializers.CharField()
    url = serializers.CharField()
    updated_at = serializers.DateTimeField()


class ProfileOut(serializers.Serializer[object]):
    """A player's public record (no e-mail, no running game)."""

    username = serializers.CharField()
    joined = serializers.DateField()
    kinds = KindRecordOut(many=True)
    recent_games = RecentGameOut(many=True, help_text=_("Finished games you may open, newest first"))
    public_decks = PublicDeckOut(many=True)

    class Meta:
        ref_name = "PlayerProfile"


class LeaderboardRowOut(RatingOut):
    rank = serializers.IntegerField(min_value=1)
    username = serializers.CharField()


class LeaderboardPageOut(serializers.Serializer[object]):
    count = serializers.IntegerField(min_value=0)
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = LeaderboardRowOut(many=True)

    class Meta:
        ref_name = "LeaderboardPage"


class SummaryPlayerOut(serializers.Serializer[object]):
    position = serializers.IntegerField(min_value=0)
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    is_ai = serializers.BooleanField()
    time_used_ms = serializers.IntegerField(
        min_value=0, help_text=_("Time spent deciding (as the clock counts)")
    )
    moves = serializers.IntegerField(min_value=0)
    place = serializers.IntegerField(min_value=1, allow_null=True, help_text=_("Final place (null: aborted)"))
    facts = ObjectField(help_text=_('Commandeer: {"defeated"}; Westeros: {"house", "castles", "supply"}'))


class SummaryRoundOut(serializers.Serializer[object]):
    round = serializers.JSONField(help_text=_('The round number at its start, or "final"'))
    seats = ObjectField(help_text=_('{seat: {"house", "castles", "supply"}}'))


class SummaryRatingOut(serializers.Serializer[object]):
    position = serializers.IntegerField(min_value=0)
    username = serializers.CharField()
    place = serializers.IntegerField(min_value=1)
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()
    system = serializers.CharField(allow_null=True)


class SummaryOut(serializers.Serializer[object]):
    """The end-of-game summary of an ended match (the same public facts for every viewer)."""

    version = serializers.IntegerField()
    match = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    rated = serializers.BooleanField()
    result = ResultOut(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    reason_text = serializers.CharField(help_text=_("Why the match ended, in plain words"))
    turns = serializers.IntegerField(min_value=0)
    turns_label = serializers.CharField(help_text=_('"turns" (Commandeer) or "rounds" (Westeros)'))
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    duration_ms = serializers.IntegerField(min_value=0)
    players = SummaryPlayerOut(many=True)
    rounds = SummaryRoundOut(
        many=True, help_text=_("Westeros: castles and supply at the start of each round")
    )
    ratings = SummaryRatingOut(many=True, help_text=_("Rating changes of a rated match"))
    replay_url = serializers.CharField()

    class Meta:
        ref_name = "MatchEndSummary"


class PlayerProfileApi(APIView):
    """A player's public profile: games and results per kind, ratings and history, recent games, decks."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        description=_(
            "A player's public profile: games and results per kind, ratings and history, recent games, decks."
        ),
        responses={200: ProfileOut, **errors(404)},
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(players.player_profile(username=username, viewer=request.user))


class LeaderboardPagination(PageNumberPagination):
    page_size = 50
    max_page_size = 100
    page_size_query_param = "page_size"


class LeaderboardApi(APIView):
    """The rated players of a game kind, established ratings first, provisional ones after (marked)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        description=_(
            "The rated players of a game kind, established ratings first, provisional ones after (marked)."
        ),
        parameters=[
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1},
                description=_("Page number; past the last one: 404"),
            ),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1, "maximum": 100},
                description=_("Rows per page (50)"),
            ),
        ],
        responses={200: LeaderboardPageOut, **errors(404)},
    )
    def get(self, request: Request, kind: str) -> Response:
        qs = players.leaderboard(kind)
        paginator = LeaderboardPagination()
        page = paginator.paginate_queryset(qs, request, view=self) or []
        first = (paginator.page.start_index() if paginator.page else 1) if page else 1
        rows = [players.leaderboard_row(r, first + i) for i, r in enumerate(page)]
        return paginator.get_paginated_response(rows)


class MatchSummaryApi(MatchApiView):
    """The end-of-game summary of an ended match: result, turns, time per player, the game's facts."""

    @extend_schema(
        description=_(
            "The end-of-game summary of an ended match: result, turns, time per player, the game's facts."
        ),
        responses={200: SummaryOut, **errors(403, 404, 409)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match, _you = selectors.match_get_for_viewer(match_id=match_id, user=request.user)
        return Response(summary.match_game_summary(match=match))
