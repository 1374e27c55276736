"""The end-of-game summary of an ended match: result and reason, turns or rounds, each player's time,
the game's own facts (Commandeer: cards in each Defeated zone; Westeros: castles and supply per house,
round by round), rating changes and the replay link.

Computed once from the stored log (the start snapshot replayed action by action, as the replay does)
and kept in `MatchSummary`; every viewer gets the same public facts, so one copy serves all.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TypedDict, cast

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext
from rest_framework import status

from config.errors import ApplicationError
from matches import selectors
from matches.games.kind import Result, SummaryFacts
from matches.games.registry import AnyGame, get_game
from matches.jsontypes import JSONObject, JSONValue
from matches.messages import seat_name
from matches.models import Match, MatchStatus, MatchSummary, RatingChange, Seat
from matches.services.ratings import rating_system

SUMMARY_VERSION = 4  # bump to recompute stored summaries when their shape changes


class SummaryPlayer(TypedDict):
    position: int
    name: str
    username: str | None
    is_ai: bool
    time_used_ms: int
    moves: int
    place: int | None
    facts: JSONObject  # the game's own facts of this seat (summary_facts)


class SummaryRound(TypedDict):
    round: JSONValue  # the game's turn counter at the round's start, or "final"
    seats: dict[str, JSONObject]  # seat position (as a JSON key) -> that seat's facts


class SummaryRatingChange(TypedDict):
    position: int
    username: str
    place: int
    before: int
    after: int
    delta: int
    system: str | None


class Summary(TypedDict):
    """The stored (and served) end-of-game summary; SUMMARY_VERSION names this shape."""

    version: int
    match: int
    kind: str
    status: str
    rated: bool
    result: JSONObject
    winner: int | None
    reason: str
    reason_text: str
    turns: JSONValue
    turns_label: JSONValue
    started_at: str | None
    finished_at: str | None
    duration_ms: int
    players: list[SummaryPlayer]
    rounds: list[SummaryRound]
    ratings: list[SummaryRatingChange]
    replay_url: str


def replay_url(match: Match) -> str:
    name = "westeros-replay" if match.kind == "westeros" else "match-replay-page"
    return reverse(name, args=[match.pk])


def _ms(a: datetime, b: datetime | None) -> int:
    return 0 if b is None else max(0, int((b - a).total_seconds() * 1000))


def compute_summary(match: Match) -> Summary:
    """Replay the match's log once: time used per seat (a seat's time runs from when it must act until it
    acts, as its clock does), the game's facts at the start of each round (by-round games) and at the end."""
    game = get_game(match.kind)
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("position"))
    used = {s.position: 0 for s in seats}
    moves = {s.position: 0 for s in seats}
    waiting: dict[int, datetime] = {}
    rounds: list[SummaryRound] = []
    facts: SummaryFacts | None = None  # the game's summary_facts of the last state
    final_state: object = None
    last_turn: JSONValue = None
    start = match.started_at
    for entry, state in selectors.replay_states(match):
        at = entry.created_at if entry is not None else start
        if entry is not None:
            if entry.seat in waiting:
                used[entry.seat] = used.get(entry.seat, 0) + _ms(waiting.pop(entry.seat), at)
            moves[entry.seat] = moves.get(entry.seat, 0) + 1
        current = set() if game.is_terminal(state) else set(game.current_players(state))
        for p in list(waiting):
            if p not in current:  # no longer asked (e.g. a step closed by another's action)
                used[p] = used.get(p, 0) + _ms(waiting.pop(p), at)
        for p in current:
            if at is not None:
                waiting.setdefault(p, at)
        facts = game.summary_facts(state)
        final_state = state
        if facts.get("by_round") and facts["turns"] != last_turn:
            rounds.append({"round": facts["turns"], "seats": _json_keys(facts["seats"])})
        last_turn = facts["turns"]
    end = match.finished_at
    for p, since in waiting.items():  # a clock still running at the end (time forfeit, concession)
        if end is not None:
            used[p] = used.get(p, 0) + _ms(since, end)
    result = match.result or {}  # the stored JSON, shown as it is
    ended = Result.from_json(match.result)  # read typed at the storage edge
    reason = ended.reason if ended else ""
    final = _json_keys(facts["seats"] if facts is not None else {})
    places = _places(game, final_state, [s.position for s in seats], ended)
    players: list[SummaryPlayer] = [
        {
            "position": s.position,
            "name": s.display_name if s.user is None else s.user.get_username(),
            "username": s.user.get_username() if s.user else None,
            "is_ai": s.is_ai,
            "time_used_ms": used.get(s.position, 0),
            "moves": moves.get(s.position, 0),
            "place": places.get(s.position),
            "facts": final.get(str(s.position), {}),
        }
        for s in seats
    ]
    return {
        "version": SUMMARY_VERSION,
        "match": match.pk,
        "kind": match.kind,
        "status": match.status,
        "rated": match.rated,
        "result": result,
        "winner": ended.winner if ended else None,
        "reason": reason,
        "reason_text": selectors.reason_text(result),
        "turns": facts["turns"] if facts is not None else 0,
        "turns_label": facts["turns_label"] if facts is not None else "turns",
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "duration_ms": _ms(match.started_at, end) if match.started_at and end else 0,
        "players": players,
        "rounds": rounds + ([SummaryRound(round="final", seats=final)] if rounds else []),
        "ratings": _rating_changes(match),
        "replay_url": replay_url(match),
    }


def _places(game: AnyGame, state: object, positions: list[int], result: Result | None) -> dict[int, int]:
    """Each seat's final place (1 = first): the game's standing (3+ seats, W-18), else the winner first;
    a seat that forfeited on time (`loser`) is last. An aborted match has no places."""
    if result is not None and result.reason in ("aborted", "cancelled", "internal_error"):
        return {}
    standing = game.standing(state) if len(positions) > 2 and state is not None else None
    winner = result.winner if result else None
    if standing is None:
        standing = [[winner], [p for p in positions if p != winner]] if winner in positions else [positions]
    loser = result.loser if result else None
    groups = [[p for p in g if p != loser] for g in standing]
    groups = [g for g in groups if g] + ([[loser]] if loser in positions else [])
    out: dict[int, int] = {}
    place = 1
    for group in groups:
        out.update(dict.fromkeys(group, place))
        place += len(group)
    return out


def _json_keys(seats: Mapping[int, Mapping[str, JSONValue]]) -> dict[str, JSONObject]:
    return {str(k): dict(v) for k, v in seats.items()}


def _rating_changes(match: Match) -> list[SummaryRatingChange]:
    changes = RatingChange.objects.filter(match=match).select_related("user").order_by("place", "position")
    system = rating_system(match.kind)
    return [
        {
            "position": c.position,
            "username": c.user.get_username(),
            "place": c.place,
            "before": round(c.before),
            "after": round(c.after),
            "delta": round(c.after) - round(c.before),
            "system": system,
        }
        for c in changes
    ]


def match_game_summary(*, match: Match) -> Summary:
    """The stored summary of an ended match, computed on the first request (409 while it is running)."""
    if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED) or match.started_at is None:
        raise ApplicationError(
            "not_finished",
            gettext("The summary is available once the match has ended."),
            status_code=status.HTTP_409_CONFLICT,
        )
    stored = MatchSummary.objects.filter(match=match).values_list("data", flat=True).first()
    if isinstance(stored, dict) and stored.get("version") == SUMMARY_VERSION:
        return _for_reader(cast("Summary", stored), match.kind)  # this version's shape
    data = compute_summary(match)
    try:
        with transaction.atomic():
            MatchSummary.objects.update_or_create(match=match, defaults={"data": data})
    except IntegrityError:  # another request stored it first: the same facts
        pass
    return _for_reader(data, match.kind)


def _for_reader(data: Summary, kind: str) -> Summary:
    """The stored (language-independent) summary with its result's words in the reader's language."""
    result = selectors.reader_result(data.get("result"), kind) or {}
    players: list[
        SummaryPlayer
    ] = [  # an AI seat's level in the reader's language ("AI (hard)" → "AI（困难）")
        {**p, "name": seat_name(p["name"])} for p in data.get("players") or []
    ]
    return {**data, "players": players, "result": result, "reason_text": selectors.reason_text(result)}
