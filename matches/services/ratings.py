"""Ratings: one update per finished rated match, written in the transaction that records the result.

Which matches count (`rated_participants`): the match was created rated (humans only, with a time
control — `refuse_unrateable` is the lobby's check), it finished (an aborted match never counts) and
every seat is a person's. A seat a person left to the AI (3+ players) still counts for that person.

Commandeer (two players) uses Glicko-2 (the `glicko2` package, Glickman's 2012 algorithm): one game is
one rating period for each player, as Lichess applies it online — each player is rated against the
opponent's rating before the game (score 1 win, 0.5 draw, 0 loss). New players start at 1500, RD 350,
volatility 0.06; a rating whose RD is above `PROVISIONAL_RD` (110, Lichess's threshold) is provisional
and shown with a "?". (glicko2 2.1.0 reproduces Glickman's worked example; its volatility step reads
mu² where step 5 has phi², which moves the volatility in the fifth decimal — left to the library.)

A rated result counts only when the game was really played between these people
(docs/play-layer.md, "Ratings: aborted games and repeated pairings"):

- every person seated made at least one move of their own (a timeout default, an automatic pass, or an
  AI playing the seat of a player who left is not their move), as Lichess aborts a game nobody started.
  Two players: a rated match that ends before both have moved (a concession at once) is *aborted* — no
  winner, no rating change (`unrated_by_first_moves`). Three or more (Westeros): the table plays on with
  an AI in the absent house's seat, the result stands, but the game is not rated;
- the same two people count at most `RATED_PAIR_MAX_GAMES` rated games against each other within
  `RATED_PAIR_WINDOW_H` hours (settings); a further game between them in that window is played unrated.
  It is decided when the match starts (`pairing_cap_reached`, the lobby card says so), and again when
  the result comes in (games played at once).

The reason a rated match was not rated is kept (`Match.lobby["unrated"]` from the start, `result["unrated"]`
at the end: `{"code", "text", ...}`) and shown with the match, its summary and the players' profiles.

Westeros (3–6 houses) uses OpenSkill's Plackett–Luce model (the `openskill` package): the houses are
ranked by the game's final standing (the winner first, then W-18.2's order and tie-breaks: castles,
land areas, supply, Iron Throne — `AnyGame.standing`); a player who left the table to the AI, or
who forfeited on time, shares the last place. The shown rating is the conservative ordinal
`1500 + 24·(mu − 3·sigma)` (24 = 200/sigma₀): a new player shows 1500 and climbs as sigma shrinks.
A rating whose sigma is above `PROVISIONAL_SIGMA` is provisional.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

import glicko2
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from openskill.models import PlackettLuce

from config.errors import ApplicationError
from matches import storage
from matches.games.kind import Result
from matches.games.registry import get_game
from matches.jsontypes import JSONObject
from matches.models import ActionLog, Match, MatchStatus, PlayerRating, RatingChange, Seat

log = logging.getLogger(__name__)

GLICKO2 = "glicko2"
OPENSKILL = "openskill"
RATING_SYSTEMS = {"commandeer": GLICKO2, "westeros": OPENSKILL}  # game kind -> rating system

GLICKO_RATING, GLICKO_RD, GLICKO_VOL = 1500.0, 350.0, 0.06  # Glickman's defaults for a new player
PROVISIONAL_RD = 110.0  # Lichess: a rating with RD above this is provisional ("?")
OPENSKILL_MODEL = PlackettLuce()  # mu 25, sigma 25/3
ORDINAL_ALPHA, ORDINAL_TARGET = 24.0, 1500.0  # shown = 1500 + 24·(mu − 3σ): a new player shows 1500
PROVISIONAL_SIGMA = 7.0  # sigma starts at 8.33; about 8 three-house or 12 six-house games bring it below


def rating_system(kind: str) -> str | None:
    """The rating system of a game kind (None: its matches are never rated)."""
    return RATING_SYSTEMS.get(kind)


def refuse_unrateable(*, kind: str, ai_seats: int, time_control: Mapping[str, object] | None) -> None:
    """The lobby's check of `"rated": true`: a 400 naming why this match cannot be rated."""
    if kind not in RATING_SYSTEMS:
        raise ApplicationError(
            "not_rateable", gettext('%(kind)s matches are not rated; untick "Rated".') % {"kind": kind}
        )
    if ai_seats > 0:
        raise ApplicationError(
            "not_rateable", gettext("A match with AI seats cannot be rated: only games between people count.")
        )
    if not time_control:
        raise ApplicationError("not_rateable", gettext("A rated match needs a time control."))


def is_provisional(rating: PlayerRating) -> bool:
    if rating_system(rating.kind) == OPENSKILL:
        return rating.sigma > PROVISIONAL_SIGMA
    return rating.deviation > PROVISIONAL_RD


def new_rating(user_id: int, kind: str) -> PlayerRating:
    """A player's rating before their first rated game of `kind`."""
    if rating_system(kind) == OPENSKILL:
        mu, sigma = OPENSKILL_MODEL.mu, OPENSKILL_MODEL.sigma
        return PlayerRating(user_id=user_id, kind=kind, rating=_ordinal(mu, sigma), mu=mu, sigma=sigma)
    return PlayerRating(
        user_id=user_id, kind=kind, rating=GLICKO_RATING, deviation=GLICKO_RD, volatility=GLICKO_VOL
    )


def _ordinal(mu: float, sigma: float) -> float:
    return float(
        OPENSKILL_MODEL.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=ORDINAL_ALPHA, target=ORDINAL_TARGET)
    )


@dataclass(frozen=True)
class Placed:
    """A rated player and their final place (1 = first; equal places share a number)."""

    user_id: int
    position: int
    place: int


# ---- the math: the libraries do it -----------------------------------------------------------------
def glicko2_game(
    a: tuple[float, float, float], b: tuple[float, float, float], score_a: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """One game as one Glicko-2 rating period for each player: ((rating, RD, vol) of a, of b) after it."""
    pa, pb = glicko2.Player(*a), glicko2.Player(*b)
    pa.update_player([b[0]], [b[1]], [score_a])
    pb.update_player([a[0]], [a[1]], [1.0 - score_a])
    return (pa.rating, pa.rd, pa.vol), (pb.rating, pb.rd, pb.vol)


def openskill_game(players: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """One Plackett–Luce update of a free-for-all: (mu, sigma) per player, `places` 1 = first."""
    teams = [[OPENSKILL_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = OPENSKILL_MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


# ---- which matches count and the final standing ------------------------------------------------------
def rated_participants(match: Match, seats: list[Seat]) -> bool:
    """Whether this ended match changes ratings (see the module docstring)."""
    return (
        match.rated
        and match.status == MatchStatus.FINISHED
        and match.kind in RATING_SYSTEMS
        and bool(match.time_control)
        and (len(seats) == 2 if RATING_SYSTEMS[match.kind] == GLICKO2 else len(seats) >= 2)
        and all(s.user_id is not None for s in seats)
    )


def final_places(match: Match, seats: list[Seat], standing: list[list[int]] | None) -> list[Placed]:
    """Every seat's place: the game's standing (best first, groups share a place), else the result's winner
    (the others share second; no winner: all share first). Seats that left to the AI and the result's
    `loser` (a forfeit on time) share the last place."""
    result = Result.from_json(match.result)  # the stored result, read at the storage edge
    positions = [s.position for s in seats]
    out = {result.loser if result else None} | {s.position for s in seats if s.is_ai}
    if standing is None:
        winner = result.winner if result else None
        standing = [[winner], [p for p in positions if p != winner]] if winner in positions else [positions]
    groups = [[p for p in g if p not in out] for g in standing]
    groups = [g for g in groups if g]
    last = [p for p in positions if p in out]
    if last:
        groups.append(last)
    place_of: dict[int, int] = {}
    place = 1
    for group in groups:
        for p in group:
            place_of[p] = place
        place += len(group)
    by_position = {s.position: s for s in seats}
    return [Placed(by_position[p].user_id, p, place_of[p]) for p in positions if p in place_of]  # type: ignore[arg-type]


# ---- which rated results count: first moves, repeated pairings ---------------------------------------
NO_FIRST_MOVE = "no_first_move"
REPEATED_PAIRING = "repeated_pairing"


def pairing_limit() -> tuple[int, timedelta]:
    """(most rated games of one pair, the window they are counted in): settings `RATED_PAIR_MAX_GAMES`
    (1..100, default 5) and `RATED_PAIR_WINDOW_H` (1..720 hours, default 24), bounded again here."""
    games = min(100, max(1, int(getattr(settings, "RATED_PAIR_MAX_GAMES", 5))))
    hours = min(720.0, max(1.0, float(getattr(settings, "RATED_PAIR_WINDOW_H", 24.0))))
    return games, timedelta(hours=hours)


def seats_without_own_move(match: Match, seats: list[Seat]) -> list[Seat]:
    """The people seated who never made a move of their own. A person's seat that is theirs still and has
    moved is sure (`Seat.has_moved`, set by their submits); a seat an AI took over is judged by the log."""
    people = [s for s in seats if s.user_id is not None]
    unsure = [s for s in people if not (s.has_moved and not s.is_ai)]
    if not unsure:
        return []
    logged = set(
        ActionLog.objects.filter(
            match_id=match.pk, source=ActionLog.Source.PLAYER, seat__in=[s.position for s in unsure]
        ).values_list("seat", flat=True)
    )
    return [s for s in unsure if s.position not in logged]


def pairing_cap_reached(kind: str, user_ids: list[int], *, now: datetime | None = None) -> JSONObject | None:
    """The first pair of these players that already has the most rated games of `kind` the window allows,
    as the reason a new game between them is unrated (`{"code", "text", "games", "hours"}`); else None.
    One query: the rated games of these players in the window, with who played in each."""
    limit, window = pairing_limit()
    people = sorted({u for u in user_ids if u is not None})
    if len(people) < 2:
        return None
    since = (now or timezone.now()) - window
    recent = RatingChange.objects.filter(kind=kind, created_at__gte=since, user_id__in=people)
    together: dict[int, set[int]] = defaultdict(set)
    for match_id, user_id in recent.values_list("match_id", "user_id"):
        together[match_id].add(user_id)
    for a, b in combinations(people, 2):
        games = sum(1 for users in together.values() if a in users and b in users)
        if games >= limit:
            user_model = get_user_model()
            names = dict(
                user_model.objects.filter(pk__in=(a, b)).values_list("pk", user_model.USERNAME_FIELD)
            )
            hours = round(window.total_seconds() / 3600)
            return {
                "code": REPEATED_PAIRING,
                "text": gettext(
                    "Unrated: %(a)s and %(b)s have played %(games)d rated games together in the last "
                    "%(hours)d hours (at most %(limit)d count)."
                )
                % {
                    "a": names.get(a, "?"),
                    "b": names.get(b, "?"),
                    "games": games,
                    "hours": hours,
                    "limit": limit,
                },
                "games": games,
                "hours": hours,
            }
    return None


def unrated_by_first_moves(match: Match, seats: list[Seat]) -> bool:
    """A rated result that comes before every person made a first move does not count: two players, the
    match is aborted (no winner); three or more, the result stands, unrated. True when so (the match's
    status and result are changed here, before they are saved)."""
    missing = seats_without_own_move(match, seats)
    if not missing:
        return False
    names = ", ".join(s.display_name for s in missing)
    reason = {
        "code": NO_FIRST_MOVE,
        "text": gettext("Unrated: %(names)s never made a move of their own.") % {"names": names},
        "positions": [s.position for s in missing],
    }
    match.rated = False  # created rated, played unrated: the reason says why
    if len(seats) == 2:
        before = str((match.result or {}).get("text") or "")
        match.status = MatchStatus.ABORTED
        match.result = {
            "winner": None,
            "reason": "aborted",
            "text": gettext("Aborted before both players had moved: %(before)s No rating change.")
            % {"before": before or gettext("the game ended.")},
            "unrated": reason,
        }
    else:
        match.result = {**(match.result or {}), "unrated": reason}
    return True


# ---- the write ---------------------------------------------------------------------------------------
def rate_finished_match(match: Match, seats: list[Seat], *, state: Any = None) -> list[RatingChange]:
    """Apply a finished rated match to its players' ratings, once (called by `submit.finish`).

    `state` is the final engine state when the caller holds it (else it is loaded from the match when a
    game of 3+ seats needs its standing). A result that does not count (see the module docstring) changes
    no rating: the match is aborted, or its result says why it is unrated.

    Runs inside the transaction that records the result; the rating rows are locked in user order, and
    a match already rated (a second finish racing this one) is left alone — `RatingChange`'s unique
    (match, user) makes that certain even without the match lock.
    """
    started_unrated = (match.lobby or {}).get("unrated")
    if started_unrated and not (match.result or {}).get("unrated"):
        match.result = {**(match.result or {}), "unrated": started_unrated}  # the result says why, too
    if not rated_participants(match, seats):
        return []
    assert transaction.get_connection().in_atomic_block, (
        "a rating changes with the result, in one transaction"
    )
    if RatingChange.objects.filter(match=match).exists():
        return []
    if unrated_by_first_moves(match, seats):
        return []
    standing = None
    if len(seats) > 2:  # a two-player result is its winner; a free-for-all is ranked by the game
        game = get_game(match.kind)
        try:
            standing = game.standing(state if state is not None else storage.load_state(match, game))
        except Exception:  # a snapshot today's engine refuses must not stop the match from ending
            log.exception("match %s: no final standing; ranked by its result alone", match.pk)
    placed = final_places(match, seats, standing)
    kind = match.kind
    user_ids = sorted({p.user_id for p in placed})
    PlayerRating.objects.bulk_create([new_rating(u, kind) for u in user_ids], ignore_conflicts=True)
    ratings = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(kind=kind, user_id__in=user_ids)
        .order_by("user_id")
    }
    # Counted after the players' rating rows are locked: two games of one pair ending at once are counted
    # one after the other, so the limit holds for them too.
    repeated = pairing_cap_reached(kind, user_ids)
    if repeated is not None:
        match.rated = False
        match.result = {**(match.result or {}), "unrated": repeated}
        return []
    before = {u: r.rating for u, r in ratings.items()}
    scores = _apply(kind, placed, ratings)
    best = min(p.place for p in placed)
    for p in placed:
        r = ratings[p.user_id]
        r.games += 1
        if all(q.place == p.place for q in placed):
            r.draws += 1
        elif p.place == best and sum(q.place == best for q in placed) == 1:
            r.wins += 1
        elif p.place == best:
            r.draws += 1
        else:
            r.losses += 1
        r.save()
    changes = [
        RatingChange(
            match=match,
            user_id=p.user_id,
            kind=kind,
            position=p.position,
            place=p.place,
            score=scores[p.user_id],
            before=before[p.user_id],
            after=ratings[p.user_id].rating,
            deviation_after=ratings[p.user_id].sigma
            if rating_system(kind) == OPENSKILL
            else ratings[p.user_id].deviation,
        )
        for p in placed
    ]
    return RatingChange.objects.bulk_create(changes)


def _apply(kind: str, placed: list[Placed], ratings: dict[int, PlayerRating]) -> dict[int, float]:
    """Update the rating rows in memory; the score of each player (1 win, 0.5 draw, 0 loss; share beaten)."""
    scores = {
        p.user_id: sum(
            1.0 if p.place < q.place else 0.5 if p.place == q.place else 0.0 for q in placed if q is not p
        )
        / max(1, len(placed) - 1)
        for p in placed
    }
    if rating_system(kind) == GLICKO2 and len(placed) == 2:
        a, b = placed
        ra, rb = ratings[a.user_id], ratings[b.user_id]
        new_a, new_b = glicko2_game(
            (ra.rating, ra.deviation, ra.volatility),
            (rb.rating, rb.deviation, rb.volatility),
            scores[a.user_id],
        )
        ra.rating, ra.deviation, ra.volatility = new_a
        rb.rating, rb.deviation, rb.volatility = new_b
        return scores
    rows = [ratings[p.user_id] for p in placed]
    after = openskill_game([(r.mu, r.sigma) for r in rows], [p.place for p in placed])
    for r, (mu, sigma) in zip(rows, after, strict=True):
        r.mu, r.sigma, r.rating = mu, sigma, _ordinal(mu, sigma)
    return scores
