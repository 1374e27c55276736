"""Reads of the "my games" page (/play/mine/): a player's matches of every game, those waiting for them first.

No game state is loaded: a seat's clock runs exactly while the engine lists it among the current players
(services.submit.move_clocks), so `Seat.clock_started_at` says "waiting for you" for both games. Three
queries in all: the player's seats with their matches, then the other seats of those matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from matches.clocks import TimeControl
from matches.games.registry import get_game
from matches.jsontypes import JSONObject
from matches.messages import seat_name
from matches.models import Match, MatchStatus, Seat
from matches.selectors import reader_result

RECENT_FINISHED = 20


@dataclass
class MyGame:
    id: int
    kind: str
    game: str
    status: str
    url: str
    opponents: list[str]
    your_turn: bool = False
    deadline: datetime | None = None
    time_left_ms: int | None = None
    correspondence: bool = False
    started_at: datetime | None = None
    created_at: datetime | None = None
    finished_at: datetime | None = None
    outcome: str = ""  # won / lost / draw / aborted
    result_text: str = ""
    replay_url: str = ""
    seats_needed: int = 0
    seated: int = 0

    def as_dict(self) -> JSONObject:
        out = {k: v for k, v in self.__dict__.items()}
        for key in ("deadline", "started_at", "created_at", "finished_at"):
            out[key] = out[key].isoformat() if out[key] else None
        return out


@dataclass
class MyGames:
    your_turn: list[MyGame] = field(default_factory=list)
    running: list[MyGame] = field(default_factory=list)
    open: list[MyGame] = field(default_factory=list)
    finished: list[MyGame] = field(default_factory=list)

    def as_dict(self) -> dict[str, list[JSONObject]]:
        return {k: [g.as_dict() for g in v] for k, v in self.__dict__.items()}


def _outcome(match: Match, position: int) -> tuple[str, str]:
    """(won/lost/draw/aborted, the result's words in the reader's language)."""
    result = reader_result(match.result, match.kind) or {}
    if match.status == MatchStatus.ABORTED:
        return "aborted", str(result.get("text") or gettext("The match was called off."))
    winner = result.get("winner")
    text = str(result.get("text") or "")
    if winner is None:
        return "draw", text or gettext("Draw.")
    return ("won" if winner == position else "lost"), text


def _urls(match: Match) -> tuple[str, str]:
    if match.kind == "westeros" and match.status != MatchStatus.WAITING:
        return reverse("westeros-game", args=[match.pk]), reverse("westeros-replay", args=[match.pk])
    return reverse("match-page", args=[match.pk]), reverse("match-replay-page", args=[match.pk])


def my_games(*, user: User, now: datetime | None = None) -> MyGames:
    """The user's games: waiting for them (soonest deadline first), their other running games (newest
    first), open tables they sit at, and their last RECENT_FINISHED finished ones."""
    now = now or timezone.now()
    base = (
        Seat.objects.filter(user=user)
        .select_related("match")
        .defer("deck_snapshot", "match__state", "match__state_base")
    )
    current = list(base.filter(match__status__in=[MatchStatus.ACTIVE, MatchStatus.WAITING]))
    done = list(
        base.filter(match__status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED])
        .exclude(Q(match__status=MatchStatus.ABORTED) & Q(match__started_at__isnull=True))
        .order_by("-match__finished_at", "-match_id")[:RECENT_FINISHED]
    )
    mine = current + done
    others: dict[int, list[Seat]] = {}
    for s in (
        Seat.objects.filter(match_id__in=[s.match_id for s in mine])
        .exclude(user=user)
        .select_related("user")
        .defer("deck_snapshot")
        .order_by("match_id", "position")
    ):
        others.setdefault(s.match_id, []).append(s)
    out = MyGames()
    for seat in mine:
        match = seat.match
        url, replay_url = _urls(match)
        try:
            correspondence = TimeControl.from_json(match.time_control).correspondence
        except ValueError:
            correspondence = False
        game = MyGame(
            id=match.pk,
            kind=match.kind,
            game=get_game(match.kind).label,
            status=match.status,
            url=url,
            opponents=[
                seat_name(s.title) for s in others.get(match.pk, [])
            ],  # Westeros: "Lannister (AI, hard)"
            correspondence=correspondence,
            started_at=match.started_at,
            created_at=match.created_at,
            finished_at=match.finished_at,
            seated=1 + len(others.get(match.pk, [])),
        )
        if match.status == MatchStatus.ACTIVE:
            game.your_turn = seat.clock_started_at is not None
            if game.your_turn and seat.deadline is not None:
                game.deadline = seat.deadline
                game.time_left_ms = max(0, int((seat.deadline - now).total_seconds() * 1000))
            (out.your_turn if game.your_turn else out.running).append(game)
        elif match.status == MatchStatus.WAITING:
            try:
                game.seats_needed = get_game(match.kind).seat_count(match.rules_config)
            except Exception:  # an odd stored config: the page still lists the table
                game.seats_needed = 0
            out.open.append(game)
        else:
            game.outcome, game.result_text = _outcome(match, seat.position)
            game.replay_url = replay_url
            out.finished.append(game)
    far = datetime.max.replace(tzinfo=now.tzinfo)
    out.your_turn.sort(key=lambda g: (g.deadline or far, g.id))
    out.running.sort(key=lambda g: (g.started_at or now, g.id), reverse=True)
    out.open.sort(key=lambda g: (g.created_at or now, g.id), reverse=True)
    return out


def waiting_match_ids(*, user: User, limit: int = 100) -> list[int]:
    """The running matches waiting for the user's move, soonest deadline first (one query; the header's badge)."""
    return list(
        Seat.objects.filter(user=user, clock_started_at__isnull=False, match__status=MatchStatus.ACTIVE)
        .order_by("deadline", "match_id")
        .values_list("match_id", flat=True)[:limit]
    )
