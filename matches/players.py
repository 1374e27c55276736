"""Reads of players' public records: profiles (games and results per kind, ratings and their history,
recent finished games, public decks) and leaderboards. Public facts only: never an e-mail, never a
running game; a game is named (its id, time, link) only to a viewer who may open it (public, the viewer sat
in it, or staff): of another's private game a profile shows the rating change, never the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.urls import reverse
from django.utils.translation import gettext
from rest_framework import status

from config.errors import ApplicationError
from matches.games.registry import game_kinds, get_game
from matches.models import Match, MatchStatus, PlayerRating, RatingChange, Seat
from matches.selectors import unrated_reason
from matches.services import ratings
from matches.summary import replay_url
from matches.types import Viewer

if TYPE_CHECKING:
    from matches.player_pages import RatingChart

SHORT_REASONS = {  # how a listed game ended, in a few words
    "concede": "by concession",
    "timeout": "on time",
    "six_defeated": "six defeated",
    "no_units": "no units left",
    "turn_limit": "turn limit",
    "concession": "by concession",
    "seven_castles": "seven castles",
    "round_limit": "after the last round",
    "aborted": "aborted: no first move",
}
HISTORY_POINTS = 100  # rating history points per kind on a profile (the latest)
RECENT_GAMES = 20  # recent finished games on a profile
PUBLIC_DECKS = 50
MAX_USERNAME = 150


class RatingOut(TypedDict):
    kind: str
    system: str | None
    rating: int
    deviation: float  # OpenSkill's sigma or Glicko-2's deviation, rounded
    provisional: bool
    games: int
    wins: int
    losses: int
    draws: int


class LeaderboardRow(RatingOut):
    rank: int
    username: str


class PublicDeck(TypedDict):
    id: int
    name: str
    faction: str
    url: str
    updated_at: str


class RatingPoint(TypedDict):
    match: int | None  # None: a match the viewer may not open
    before: int
    rating: int
    at: str | None


class KindRecord(TypedDict):
    kind: str
    label: str
    games: int
    rated_games: int
    unrated_games: int
    wins: int
    losses: int
    draws: int
    rating: RatingOut | None
    history: list[RatingPoint]
    chart: NotRequired[RatingChart | None]  # added by the profile page (player_pages), never by the API


class Opponent(TypedDict):
    name: str
    username: str | None  # None: an AI seat


class RecentGame(TypedDict):
    id: int
    kind: str
    label: str
    finished_at: str | None
    outcome: str
    reason: str
    reason_label: str
    rated: bool
    unrated_reason: str
    rating_delta: int | None
    place: int | None
    players: int
    opponents: list[Opponent]
    replay_url: str


class Profile(TypedDict):
    username: str
    joined: str
    kinds: list[KindRecord]
    recent_games: list[RecentGame]
    public_decks: list[PublicDeck]


def _not_found(username: str) -> ApplicationError:
    return ApplicationError(
        "not_found",
        gettext("No player named %(name)s.") % {"name": repr(username[:MAX_USERNAME])},
        status_code=status.HTTP_404_NOT_FOUND,
    )


def player_get(*, username: str) -> User:
    """The active user with this user name (a 404 naming it otherwise)."""
    if not username or len(username) > MAX_USERNAME:
        raise _not_found(username)
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise _not_found(username)
    return user


def rated_kinds() -> list[str]:
    """The game kinds with a leaderboard, in the registry's order."""
    return [k for k in game_kinds() if ratings.rating_system(k) is not None]


def kind_label(kind: str) -> str:
    return get_game(kind).label


def rating_out(r: PlayerRating | None, kind: str) -> RatingOut:
    """A rating as shown: rounded, with its provisional flag ("?") and deviation."""
    if r is None:
        r = ratings.new_rating(0, kind)
    system = ratings.rating_system(kind)
    return {
        "kind": kind,
        "system": system,
        "rating": round(r.rating),
        "deviation": round(r.sigma if system == ratings.OPENSKILL else r.deviation, 2),
        "provisional": ratings.is_provisional(r),
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "draws": r.draws,
    }


def public_decks_of(user: User) -> list[PublicDeck]:
    """A user's public decks (the deck app's selector when it has one; else its public visibility)."""
    from decks import selectors as deck_selectors

    picker = getattr(deck_selectors, "public_decks", None)
    if picker is not None:
        decks = list(picker(owner=user)[:PUBLIC_DECKS])
    else:
        from decks.models import Deck, Visibility

        decks = list(
            Deck.objects.filter(owner=user, visibility=Visibility.PUBLIC)
            .select_related("faction")
            .order_by("-updated_at", "-id")[:PUBLIC_DECKS]
        )
    return [
        {
            "id": d.pk,
            "name": d.name,
            "faction": d.faction.name if getattr(d, "faction", None) else "",
            "url": reverse("deck-shared", args=[d.share_id]),
            "updated_at": d.updated_at.isoformat(),
        }
        for d in decks
    ]


def _visible_matches(viewer: Viewer | None) -> Q:
    """Matches a viewer may open: public ones, the viewer's own, and every match for staff."""
    if viewer is not None and viewer.is_authenticated:
        if viewer.is_staff:
            return Q()
        return Q(match__is_public=True) | Q(match_id__in=Seat.objects.filter(user=viewer).values("match_id"))
    return Q(match__is_public=True)


def _outcome(position: int, result: Mapping[str, object] | None) -> str:
    winner = (result or {}).get("winner")
    if winner is None:
        return "draw"
    return "win" if winner == position else "loss"


def player_profile(*, username: str, viewer: Viewer | None = None) -> Profile:
    """Everything the profile page and GET /api/players/<username>/ show."""
    user = player_get(username=username)
    own = {r.kind: r for r in PlayerRating.objects.filter(user=user)}
    records: dict[str, Counter[str]] = {}
    rows = Seat.objects.filter(user=user, match__status=MatchStatus.FINISHED).values_list(
        "match__kind", "position", "match__result", "match__rated"
    )
    for kind, position, result, is_rated in rows.iterator(chunk_size=2000):
        counter = records.setdefault(kind, Counter())
        counter[_outcome(position, result)] += 1
        counter["rated" if is_rated else "unrated"] += 1
    kinds: list[KindRecord] = []
    for kind in game_kinds():
        counts = records.get(kind, Counter())
        rated = ratings.rating_system(kind) is not None
        if not counts and kind not in own:
            continue
        kinds.append(
            {
                "kind": kind,
                "label": kind_label(kind),
                "games": counts["win"] + counts["loss"] + counts["draw"],
                # apart, so "Games 3" never sits beside "Rated: 1 game" unexplained (AI games are unrated)
                "rated_games": counts["rated"],
                "unrated_games": counts["unrated"],
                "wins": counts["win"],
                "losses": counts["loss"],
                "draws": counts["draw"],
                "rating": rating_out(own.get(kind), kind) if rated and kind in own else None,
                "history": rating_history(user, kind, viewer=viewer) if kind in own else [],
            }
        )
    return {
        "username": user.get_username(),
        "joined": user.date_joined.date().isoformat(),
        "kinds": kinds,
        "recent_games": recent_games(user, viewer=viewer),
        "public_decks": public_decks_of(user),
    }


def rating_history(
    user: User, kind: str, *, viewer: Viewer | None = None, limit: int = HISTORY_POINTS
) -> list[RatingPoint]:
    """The latest `limit` rating changes of a user in one kind, oldest first.

    Every change is a point (the curve stays whole and true); the match and its time only for a match the
    viewer may open (`_visible_matches`): of a private match another viewer sees the rating, not the game.
    """
    changes = RatingChange.objects.filter(user=user, kind=kind)
    rows = list(
        changes.annotate(
            visible=Case(
                When(
                    Q(match_id__in=changes.filter(_visible_matches(viewer)).values("match_id")), then=Value(1)
                ),
                default=Value(0),
                output_field=IntegerField(),
            )
        )
        .order_by("-created_at", "-id")
        .values("match_id", "before", "after", "created_at", "visible")[:limit]
    )
    rows.reverse()
    return [
        {
            "match": r["match_id"] if r["visible"] else None,
            "before": round(r["before"]),
            "rating": round(r["after"]),
            "at": r["created_at"].isoformat() if r["visible"] else None,
        }
        for r in rows
    ]


# Ended games a profile lists: finished ones, and those aborted because a player never moved (shown as
# "aborted": no winner, no rating change).
LISTED_ENDS = Q(match__status=MatchStatus.FINISHED) | Q(
    match__status=MatchStatus.ABORTED, match__started_at__isnull=False, match__result__reason="aborted"
)


def recent_games(user: User, *, viewer: Viewer | None = None, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """The user's latest ended games the viewer may open, each with its opponents, result and replay."""
    seat_rows = list(
        Seat.objects.filter(user=user)
        .filter(LISTED_ENDS)
        .filter(_visible_matches(viewer))
        .select_related("match")
        .order_by("-match__finished_at", "-match_id")[:limit]
    )
    match_ids = [s.match_id for s in seat_rows]
    others: dict[int, list[Seat]] = {}
    for s in Seat.objects.filter(match_id__in=match_ids).select_related("user").order_by("position"):
        others.setdefault(s.match_id, []).append(s)
    changes = {
        c.match_id: c
        for c in RatingChange.objects.filter(user=user, match_id__in=match_ids).only(
            "match_id", "before", "after", "place"
        )
    }
    out: list[RecentGame] = []
    for seat in seat_rows:
        match: Match = seat.match
        change = changes.get(match.pk)
        out.append(
            {
                "id": match.pk,
                "kind": match.kind,
                "label": kind_label(match.kind),
                "finished_at": match.finished_at.isoformat() if match.finished_at else None,
                "outcome": "aborted"
                if match.status == MatchStatus.ABORTED
                else _outcome(seat.position, match.result),
                "reason": (match.result or {}).get("reason", ""),
                "reason_label": SHORT_REASONS.get(
                    (match.result or {}).get("reason", ""),
                    str((match.result or {}).get("reason", "")).replace("_", " "),
                ),
                "rated": match.rated,
                "unrated_reason": str((unrated_reason(match) or {}).get("text", "")),
                "rating_delta": round(change.after) - round(change.before) if change else None,
                "place": change.place if change else None,
                "players": len(others.get(match.pk, [])),
                "opponents": [
                    {
                        "name": o.display_name,
                        "username": o.user.get_username() if o.user and not o.is_ai else None,
                    }
                    for o in others.get(match.pk, [])
                    if o.position != seat.position
                ],
                "replay_url": replay_url(match),
            }
        )
    return out


def leaderboard(kind: str) -> QuerySet[PlayerRating]:
    """Players with at least one rated game of `kind`: established ratings first (highest first), then
    provisional ones (marked "?"), as Lichess keeps provisional players off its ranked list."""
    system = ratings.rating_system(kind)
    if system is None:
        raise ApplicationError(
            "not_found",
            gettext("No leaderboard for %(kind)s; the rated game kinds are %(kinds)s.")
            % {"kind": repr(kind[:40]), "kinds": ", ".join(rated_kinds())},
            status_code=status.HTTP_404_NOT_FOUND,
        )
    unsure = (
        Q(sigma__gt=ratings.PROVISIONAL_SIGMA)
        if system == ratings.OPENSKILL
        else Q(deviation__gt=ratings.PROVISIONAL_RD)
    )
    return (
        PlayerRating.objects.filter(kind=kind, games__gte=1, user__is_active=True)
        .select_related("user")
        .annotate(unsure=Case(When(unsure, then=Value(1)), default=Value(0), output_field=IntegerField()))
        .order_by("unsure", "-rating", "user__username")
    )


def leaderboard_row(r: PlayerRating, rank: int) -> LeaderboardRow:
    return {"rank": rank, "username": r.user.get_username(), **rating_out(r, r.kind)}
