"""Reads of the online-play layer. Every game view is built for one viewer through the engine's player_view.

Hidden information (hands, deck order, the seed, deck snapshots) leaves only through
`game.player_view(state, seat)` for that seat's own user; spectators get `player_view(state, None)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, overload

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import status

from cards.data_translations import reader_language
from config.errors import ApplicationError
from matches import chat, messages, queries, storage
from matches.clocks import SeatClock
from matches.games.kind import A, GameKind, S
from matches.games.registry import AnyGame, get_game
from matches.jsontypes import JSONObject, JSONValue
from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.shapes import (
    LegalActionItem,
    LogItem,
    MatchSummary,
    RematchSummary,
    Replay,
    ReplayFrame,
    SeatingSummary,
    SeatSummary,
    Snapshot,
    SubmitAnswer,
)
from matches.types import Viewer

LOG_TAIL = 200


def _state(match: Match) -> object:
    """The match's engine state through the per-process cache (a private copy), for its game's methods."""
    return storage.load_state(match)


def match_list(*, user: Viewer, status_filter: str | None = None, kind: str | None = None) -> QuerySet[Match]:
    """Public matches plus the caller's own, newest first."""
    qs = Match.objects.all()
    if user is not None and user.is_authenticated:
        qs = qs.filter(Q(is_public=True) | Q(seats__user=user))
    else:
        qs = qs.filter(is_public=True)
    if status_filter:
        qs = qs.filter(status=status_filter)
    if kind:
        qs = qs.filter(kind=kind)
    return (
        qs.distinct()
        .defer("state", "state_base")
        .prefetch_related(_seats_prefetch())
        .select_related("created_by")
    )


def _seats_prefetch() -> Prefetch[str, QuerySet[Seat], str]:
    """Seats with their users, without the frozen deck snapshots (server only, and large)."""
    return Prefetch("seats", queryset=Seat.objects.select_related("user").defer("deck_snapshot"))


def viewer_seat(match: Match, user: Viewer) -> Seat | None:
    """The caller's seat in the match, if any."""
    if user is None or not user.is_authenticated:
        return None
    # A player who left a running game watches it as a spectator (the AI plays their seat).
    return next((s for s in queries.seats_of(match) if s.user_id == user.pk and s.left_at is None), None)


def match_get_for_viewer(*, match_id: int, user: Viewer, invite_token: str = "") -> tuple[Match, Seat | None]:
    """The match and the caller's seat; private matches are visible to participants and invitees only.

    One query (`matches.queries`): the match without its snapshot, its seats and their users.
    """
    found = queries.match_with_seats(match_id)
    if found is None:
        raise ApplicationError(
            "not_found",
            gettext("No match #%(id)s.") % {"id": match_id},
            status_code=status.HTTP_404_NOT_FOUND,
        )
    match, seats = found
    queries.attach_seats(match, seats)
    seat = viewer_seat(match, user)
    if seat is None and not match.is_public and invite_token != match.invite_token:
        raise ApplicationError(
            "not_participant", gettext("This match is private."), status_code=status.HTTP_403_FORBIDDEN
        )
    return match, seat


class SeatNames:
    """The seated names, worked out once for all the words of one answer or log row (a seat's name is a
    property that builds a string): `by_number` {"1": name, ...} as stored with messages, and the English
    words' "Player N" labels."""

    def __init__(self, seats: Iterable[Seat]) -> None:
        named = {str(s.position + 1): s.display_name for s in seats}
        self.by_number: JSONObject = {**named}
        self._labels = [(f"Player {number}", name) for number, name in named.items()]

    @classmethod
    def of(cls, seats: Iterable[Seat] | SeatNames) -> SeatNames:
        return seats if isinstance(seats, SeatNames) else cls(seats)

    def named(self, text: str) -> str:
        """The text with each "Player N" replaced by that seat's name."""
        for label, name in self._labels:
            text = text.replace(label, name)
        return text


def _named(text: str, seats: Iterable[Seat] | SeatNames) -> str:
    """The text with each "Player N" replaced by that seat's name."""
    return SeatNames.of(seats).named(text)


def describe_action(
    game: GameKind[S, A],
    state: S,
    action: A,
    viewer: int | None,
    seats: Iterable[Seat] | SeatNames,
    *,
    timed_out: int | None = None,
) -> str:
    """The engine's plain words for this viewer, with "Player N" replaced by the seated names; `timed_out`:
    the seat whose clock ran out, this action being its default (`describe_timeout`)."""
    if timed_out is not None:
        return _named(str(game.describe_timeout(state, action, viewer, timed_out)), seats)
    return _named(str(game.describe(state, action, viewer)), seats)


def describe_for_reader(
    game: GameKind[S, A],
    state: S,
    action: A,
    viewer: int | None,
    seats: Iterable[Seat] | SeatNames,
    language: str | None = None,
) -> str:
    """`describe_action` in the reader's language (default: the active one), from the game's message where
    it has one."""
    language = language or reader_language()
    names = SeatNames.of(seats)
    if language != "en":
        message = game.describe_message(state, action, viewer)
        text = _rendered(message, {"game": game.kind, "names": names.by_number}, language)
        if text is not None:
            return text
    return describe_action(game, state, action, viewer, names)


def log_messages(
    game: GameKind[S, A],
    state: S,
    action: A,
    seats: Iterable[Seat],
    names: SeatNames | None = None,
    *,
    timed_out: int | None = None,
) -> JSONObject:
    """The log row's words as messages per viewer (`describe_message`, rendered per reader by `_log_item`),
    with the game and the seated names (`names`: theirs, worked out already); {} for a game without
    messages."""

    def one(viewer: int | None) -> JSONObject | None:
        if timed_out is not None:
            return game.describe_timeout_message(state, action, viewer, timed_out)
        return game.describe_message(state, action, viewer)

    spectator = one(None)
    if spectator is None:
        return {}
    out: JSONObject = {str(s.position): one(s.position) for s in seats}
    out["spectator"] = spectator
    out["game"] = game.kind
    seated: JSONObject = dict((names or SeatNames(seats)).by_number)
    out["names"] = seated
    return out


def _named_in(text: str, names: JSONObject, language: str) -> str:
    """`_named` for a text in `language`: each seat's label ("ผู้เล่น 1", "玩家 1") replaced by its name."""
    for number, english in names.items():
        name = messages.seat_name(str(english), language)  # "AI (hard)": its level in the language
        label = messages.player_label(int(number), language)
        if language == "th":  # Thai writes a name set in Latin letters apart from the word before it
            text = re.sub(rf"(?<=[\u0e00-\u0e7f]){re.escape(label)}", " " + label, text)
        text = text.replace(label, str(name))
    return text


def _rendered(message: JSONValue, stored: JSONObject, language: str) -> str | None:
    """A stored message in `language`, with the seated names; None when it cannot be rendered (the
    English words stored with it are shown instead)."""
    if not isinstance(message, dict):
        return None
    try:
        text = messages.render(message, language, game=str(stored.get("game") or messages.COMMANDEER))
    except (ValueError, KeyError, TypeError):
        return None
    names = stored.get("names")
    return _named_in(text, names if isinstance(names, dict) else {}, language)


def words_for(descriptions: JSONObject, stored: JSONObject, key: str, language: str) -> str:
    """One log row's words for one viewer ("0", "1", …, "spectator") in `language`: its stored message
    rendered, else the English stored with it (a row written before messages, a game without them)."""
    message = stored.get(key, stored.get("spectator"))
    text = _rendered(message, stored, language) if language != "en" else None
    return text or str(descriptions.get(key) or descriptions.get("spectator") or "")


def consequences_for(
    game: GameKind[S, A], state: S, basis: object, seats: Iterable[Seat], names: SeatNames | None = None
) -> dict[str, list[JSONObject]]:
    """What the action just applied to `state` caused, per viewer ({"0": [...], ..., "spectator": [...]}),
    each list as that viewer may see it (`AnyGame.consequences_by_viewer`), with the seated names."""
    seats = list(seats)
    viewers: list[int | None] = [*(s.position for s in seats), None]
    caused = game.consequences_by_viewer(state, viewers, basis)
    names = names or SeatNames(seats)
    return {
        "spectator" if viewer is None else str(viewer): [
            {**c, "text": names.named(str(c["text"]))} for c in items
        ]
        for viewer, items in zip(viewers, caused, strict=True)
    }


def _creator_name(match: Match, seats: list[Seat]) -> str:
    """The creator's name: from their seat when they sit (no query), else from the user row."""
    if not match.created_by_id:
        return ""
    seat = next((s for s in seats if s.user_id == match.created_by_id), None)
    if seat is not None and seat.user is not None:
        return seat.user.get_username()
    return match.created_by.get_username() if match.created_by is not None else ""


def seats_summary(match: Match, *, you: Seat | None, now: datetime | None = None) -> list[SeatSummary]:
    """Who sits where, clocks and timeouts (public facts only)."""
    now = now or timezone.now()
    out: list[SeatSummary] = []
    for s in queries.seats_of(match):
        clock = SeatClock(s.clock_remaining_ms, s.clock_started_at, s.deadline)
        out.append(
            {
                "position": s.position,
                "name": messages.seat_name(s.display_name),
                "is_ai": s.is_ai,
                "is_you": you is not None and s.pk == you.pk,
                "clock_ms": clock.left_ms(now)
                if match.status == MatchStatus.ACTIVE
                else s.clock_remaining_ms,
                "running": clock.running and match.status == MatchStatus.ACTIVE,
                "deadline": s.deadline.isoformat() if s.deadline else None,
                "consecutive_timeouts": s.consecutive_timeouts,
                "house": s.house,
                "left": s.left_at is not None,
            }
        )
        if out[-1]["is_you"]:
            out[-1]["auto_pass"] = s.auto_pass  # the viewer's own preference only
    return out


# The lobby's words for a result's reason (the adapters' `text` says more where it is stored).
REASON_LABELS = {
    "six_defeated": _("six cards defeated"),
    "no_units": _("no units left"),
    "turn_limit": _("turn limit"),
    "concession": _("concession"),
    "concede": _("concession"),
    "timeout": _("lost on time"),
    "seven_castles": _("seven castles"),
    "round_limit": _("end of round 10"),
    "cancelled": _("cancelled"),
    "aborted": _("abandoned"),
    "internal_error": _("stopped by a server error"),
}


REASON_TEXTS = {  # the game-over summary's words for a result's reason
    "concede": _("concession"),
    "timeout": _("time forfeit (three timeouts in a row)"),
    "aborted": _("aborted: a player never made a first move"),
    "cancelled": _("cancelled before the start"),
    "internal_error": _("stopped by a server error"),
    "seven_castles": _("seven castles held (W-18.1)"),
    "round_limit": _("most castles after the last round (W-18.2)"),
}


def _sentence(words: str) -> str:
    """A label as a sentence: its first letter capitalised (Thai and Chinese have no capitals)."""
    return words[:1].upper() + words[1:]


def _unknown(reason: str) -> str:
    """A reason no table names (a future engine's): its slug in words, as it stands."""
    return reason.replace("_", " ")


def reason_text(result: JSONObject) -> str:
    """Why a finished match ended, as a sentence (the game-over summary and the table's banner), in the
    reader's language; `result` as `reader_result` gives it (its `text` already in that language)."""
    reason = str(result.get("reason", ""))
    text = str(result.get("text") or "")
    if reason in ("concede", "timeout", "aborted", "cancelled", "internal_error") and text:
        return text  # the service's own words: "bob conceded.", "alice ran out of time 3 turns in a row."
    words = REASON_TEXTS.get(reason)
    return _sentence(str(words) if words is not None else text or _unknown(reason))


def reader_result(result: JSONObject | None, kind: str = messages.COMMANDEER) -> JSONObject | None:
    """A stored result as the reader sees it: `text` in their language when the engine's message is stored
    with it (the English text as stored otherwise), the raw message left out."""
    if not result:
        return result
    out = {k: v for k, v in result.items() if k != "message"}
    message = result.get("message")
    language = reader_language()
    if isinstance(message, dict) and language != "en":
        out["text"] = _rendered(message, {"game": kind}, language) or out.get("text")
    if isinstance(out.get("winner_name"), str):  # stored as the seat's title: "AI (normal)" → "AI（普通）"
        out["winner_name"] = messages.seat_name(str(out["winner_name"]), language)
    return out


def result_line(match: Match, seats: list[Seat]) -> str:
    """A finished match's result in plain words, in the reader's language: who won and why (the adapter's
    outcome text, else a label); a Westeros winner by their house's name in that language."""
    result = reader_result(match.result, match.kind) or {}
    if not result:
        return ""
    reason = str(result.get("reason", ""))
    label = REASON_LABELS.get(reason)
    why = str(result.get("text") or (label if label is not None else _unknown(reason)))
    winner = result.get("winner")
    title = next((s.title for s in seats if s.position == winner), None) if winner is not None else None
    name = messages.seat_name(title) if title is not None else None
    if name is None or why.lower().startswith(name.lower()):
        return _sentence(why)
    if reason in ("seven_castles", "round_limit"):
        return gettext("%(name)s won (%(reason)s)") % {"name": name, "reason": label}
    return gettext("%(name)s won — %(reason)s") % {"name": name, "reason": why}


def seating_summary(match: Match, seats: list[Seat]) -> SeatingSummary | None:
    """The table's seating before the start (houses: W-1.1) and the players the creator removed."""
    game = get_game(match.kind)
    houses = game.houses(match.rules_config)
    kicked = [k.get("name", "") for k in (match.lobby or {}).get("kicked", [])]
    if not houses and not kicked:
        return None
    config = match.rules_config or {}
    mode = "random" if config.get("house") == "random" else config.get("seating") or "choose"
    humans = sorted((s for s in seats if not s.is_ai), key=lambda s: (s.joined_at, s.pk))
    picking = next((s.position for s in humans if not s.house), None) if mode == "draft" else None
    return {
        "mode": mode if houses else "",
        "houses": houses,
        "free": [h for h in houses if h not in {s.house for s in seats}],
        "kicked": kicked,
        "picking": picking,
    }


def rematch_possible(match: Match) -> bool:
    """A finished match, or one aborted after its start because a player never moved (they may try again;
    a game called off by the server, or before the start, is not replayed)."""
    if match.status == MatchStatus.FINISHED:
        return True
    return (
        match.status == MatchStatus.ABORTED
        and match.started_at is not None
        and (match.result or {}).get("reason") == "aborted"
    )


def rematch_summary(match: Match, seats: list[Seat]) -> RematchSummary | None:
    """A finished match's rematch: who asked (positions and names), the new match's id once made."""
    offer = (match.lobby or {}).get("rematch")
    if not rematch_possible(match):
        return None
    offer = offer or {}
    asked = list(offer.get("offered_by", []))
    names = {s.position: messages.seat_name(s.display_name) for s in seats}
    players = [s.position for s in seats if s.user_id is not None and s.left_at is None]
    return {
        "offered_by": asked,
        "offered_by_names": [names.get(p, "?") for p in asked],
        "players": players,
        "match_id": offer.get("match_id"),
    }


def unrated_reason(match: Match) -> JSONObject | None:
    """Why a match created rated is (or was) played unrated (`services.ratings`): its result's reason,
    else the one decided at its start; None otherwise."""
    found = (match.result or {}).get("unrated") or (match.lobby or {}).get("unrated")
    return found if isinstance(found, dict) else None


def match_summary(match: Match, *, you: Seat | None) -> MatchSummary:
    """Lobby card of a match: no game state at all."""
    seats = queries.seats_of(match)
    data: MatchSummary = {
        "id": match.pk,
        "kind": match.kind,
        "status": match.status,
        "is_public": match.is_public,
        "rated": match.rated,
        "unrated_reason": str((unrated_reason(match) or {}).get("text", "")),
        "auto_start": match.auto_start,
        "created_by": _creator_name(match, seats),
        "created_at": match.created_at.isoformat(),
        "time_control": match.time_control,
        "state_version": match.state_version,
        "result": reader_result(match.result, match.kind),
        "seats": seats_summary(match, you=you),
        "seats_needed": get_game(match.kind).seat_count(match.rules_config),
        "you": you.position if you else None,
        "result_text": result_line(match, seats),
        "result_reason": reason_text(reader_result(match.result, match.kind) or {}) if match.result else "",
        "seating": seating_summary(match, seats),
        "rematch": rematch_summary(match, seats),
        "rematch_of": match.rematch_of_id,
    }
    if you is not None and match.created_by_id == you.user_id:
        data["invite_token"] = match.invite_token
    return data


def _log_entry(entry: ActionLog, you: Seat | None, language: str | None = None) -> LogItem:
    """One log line as the viewer may read it (see `_log_item`)."""
    return _log_item(
        entry.version,
        entry.seat,
        entry.source,
        entry.action,
        entry.descriptions,
        entry.created_at,
        entry.consequences,
        entry.messages,
        you=you,
        language=language,
    )


def _log_item(
    version: int,
    seat: int,
    source: str,
    action: JSONValue,
    descriptions: JSONObject,
    created_at: datetime,
    consequences: JSONObject | None = None,
    stored_messages: JSONObject | None = None,
    *,
    you: Seat | None,
    language: str | None = None,
) -> LogItem:
    """One log line as the viewer may read it, in `language` (default: the active one); the raw action only
    when nothing in it is hidden from them.

    `consequences`: what the action caused, stored per viewer; a viewer without a list of their own
    (a seat added later) gets the spectator's. `stored_messages`: the same words as messages, rendered in
    the reader's language; a row without them (stored before) shows its English words.
    """
    key = str(you.position) if you is not None else "spectator"
    caused = consequences or {}
    mine = caused.get(key)
    words = descriptions.get(key) or descriptions.get("spectator", "")
    text = words if isinstance(words, str) else ""
    listed = mine if isinstance(mine, list) else caused.get("spectator") or []
    found = [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
    stored = stored_messages or {}
    language = language or reader_language()
    if language != "en":  # English is stored as it reads
        mine_message = stored.get(key) if key in stored else stored.get("spectator")
        text = _rendered(mine_message, stored, language) or text
        found = [{**c, "text": _rendered(c.get("message"), stored, language) or c.get("text")} for c in found]
    item: LogItem = {
        "version": version,
        "seat": seat,
        "source": source,
        "text": text,
        "created_at": created_at.isoformat(),
        "consequences": [{k: v for k, v in c.items() if k != "message"} for c in found],
    }
    if (you is not None and you.position == seat) or not descriptions.get("secret"):
        item["action"] = action
    return item


def match_log(
    *, match: Match, you: Seat | None, since: int = 0, limit: int | None = None, until: int | None = None
) -> list[LogItem]:
    """The match log in plain words for this viewer (the last `limit` entries after version `since`, up to
    version `until`: a snapshot's log ends at the version its state is)."""
    entries = queries.log_entries(match.pk, since=since, limit=limit, until=until)
    language = reader_language()
    return [_log_entry(e, you, language) for e in entries]


def legal_actions_for(
    match: Match, you: Seat | None, state: object = None, actions: Sequence[object] | None = None
) -> list[LegalActionItem]:
    """The caller's legal actions with plain-word descriptions: their decision, or what they may do out of
    turn (a Westeros house taking its Ready back); empty when they have nothing to do. `actions`: the
    engine's legal actions for `you` in `state`, when the caller computed them already (a submit).

    Without `state`, the match's own state is read and its legal actions are this process's shared answer
    (`storage.legal_actions`: computed once per version and seat); a `state` given without `actions` is
    asked directly (it may be no stored version)."""
    if you is None or match.status != MatchStatus.ACTIVE or match.started_at is None:
        return []
    game = get_game(match.kind)
    if state is None:
        state = _state(match)  # may bring `match` up to a newer version (`storage.load_state`)
        if match.status != MatchStatus.ACTIVE:
            return []
        you = _same_seat(match, you) or you
        actions = storage.legal_actions(match, game).of(state, match.state_version, you.position)
    names = SeatNames(queries.seats_of(match))
    language = reader_language()
    return [
        {
            "action": game.action_to_json(a),
            "description": describe_for_reader(game, state, a, you.position, names, language),
        }
        for a in (game.legal_actions(state, you.position) if actions is None else actions)
    ]


def match_snapshot(
    *,
    match: Match,
    you: Seat | None,
    log_tail: int = LOG_TAIL,
    log_since: int | None = None,
    state: object = None,
    new_entries: list[ActionLog] | None = None,
    user: Viewer | None = None,
    actions: Sequence[object] | None = None,
    current: list[int] | None = None,
) -> Snapshot:
    """Everything one viewer's page shows: seats/clocks, their own view, their legal actions, the log.

    The log is the last `log_tail` entries, or with `log_since` only those after that version (at most
    `log_tail`; `"log_since"` in the answer tells the client to append them to the log it holds, not to
    replace it; nothing is read when the viewer is up to date). A caller that holds the state and the
    new log entries already (the submit path, whose match has its seats attached) passes them and
    nothing is read at all. `chat` lists the chat channels this viewer may read and write (`user`: the
    signed-in caller without a seat, who may write in the spectator chat; seated callers need not pass it).
    `actions`: the viewer's engine legal actions in `state`, when the caller holds them (a submit);
    `current`: the seats that act in `state`, likewise. Without `state`, the match's own state is read and
    the viewer's legal actions are this process's shared answer (`storage.legal_actions`).
    """
    if state is None and match.started_at is not None:
        # First the state: reading it may bring `match` (and its seats) up to a version committed since
        # `match` was read, so that the summary, the view and the log below all describe one version.
        state = _state(match)
        you = _same_seat(match, you)
        if you is not None and match.status == MatchStatus.ACTIVE:
            legal = storage.legal_actions(match, get_game(match.kind))
            actions = legal.of(state, match.state_version, you.position)
            current = legal.current(state, match.state_version)
    summary = match_summary(match, you=you)
    server_time = timezone.now().isoformat()
    if match.started_at is None or state is None:
        return {
            **summary,
            "server_time": server_time,
            "log_since": log_since,
            "view": None,
            "current_players": [],
            "legal_actions": [],
            "log": [],
            "chat": chat.chat_state(match=match, you=you, user=user),
        }
    game = get_game(match.kind)
    chat_state = chat.chat_state(match=match, you=you, user=user, state=state)
    if match.status != MatchStatus.ACTIVE:
        current = []
    elif current is None:
        current = game.current_players(state)
    view = view_for_reader(match.kind, state, game.player_view(state, you.position if you else None))
    legal_actions = legal_actions_for(match, you, state, actions)
    if new_entries is not None:
        language = reader_language()
        log = [_log_entry(e, you, language) for e in new_entries][-log_tail:]
    elif log_since is not None and log_since >= match.state_version:
        log = []
    else:
        log = match_log(match=match, you=you, since=log_since or 0, limit=log_tail, until=match.state_version)
    return {
        **summary,
        "server_time": server_time,
        "log_since": log_since,
        "chat": chat_state,
        "current_players": current,
        "view": view,
        "legal_actions": legal_actions,
        "log": log,
    }


def view_for_reader(kind: str, state: object, view: JSONObject) -> JSONObject:
    """A seat's view with the engine's own log (Westeros: the table's event list) in the reader's language;
    an event whose words read back as no message keeps its English words."""
    language = reader_language()
    log = view.get("log")
    if language == "en" or kind != messages.WESTEROS or not isinstance(log, list) or not log:
        return view
    from boardgame.engine import WesterosState
    from matches.games.westeros import westeros_event_messages

    if not isinstance(state, WesterosState):
        return view
    stored: JSONObject = {"game": kind}
    events: list[JSONValue] = []
    for event, message in zip(log, westeros_event_messages(state, log), strict=True):
        text = _rendered(message, stored, language) if message is not None else None
        events.append({**event, "text": text} if text and isinstance(event, dict) else event)
    return {**view, "log": events}


def _same_seat(match: Match, you: Seat | None) -> Seat | None:
    """The viewer's seat among the match's seats as now read (the same seat, its clock as now)."""
    if you is None:
        return None
    return next((s for s in queries.seats_of(match) if s.pk == you.pk), you)


def submit_snapshot(result: SubmitAnswer[S, A], *, you: Seat) -> Snapshot:
    """The submitter's snapshot right after their action, built from what the submit holds (no query).

    Its log is the new entries (`log_since` = the version the action was made at).
    """
    assert result.match is not None and result.state is not None  # a fresh answer, not a replayed one
    # the action and the automatic passes that followed it
    entries = result.entries or ([result.entry] if result.entry is not None else [])
    legal = result.legal if result.status == MatchStatus.ACTIVE else None
    # Who acts and the legal actions the submit computed for this state (its automatic-pass check asks the
    # same; the answers are shared with the process's next requests once the action is committed).
    actions = legal.of(result.state, result.state_version, you.position) if legal is not None else None
    current = legal.current(result.state, result.state_version) if legal is not None else None
    return match_snapshot(
        actions=actions,
        current=current,
        match=result.match,
        you=you,
        log_since=entries[0].version - 1,
        state=result.state,
        new_entries=entries,
    )


@overload
def replay_start(match: Match, game: GameKind[S, A]) -> S: ...


# Without its game: the state of the game the match's kind names, which the registry knows at run time only
# (a caller that knows the game reads it as that game's state: the Westeros pages read its map data).
@overload
def replay_start(match: Match) -> Any: ...


def replay_start(match: Match, game: AnyGame | None = None) -> object:
    """The engine state the match STARTED with: its stored start snapshot (`Match.state_base`), of `game`
    (by default the one the match's kind names).

    Never rebuilt from the curated database (an admin's later edit of a card or of the Westeros map
    must not change a finished match's replay); only a match saved before start snapshots existed is
    rebuilt from its seed and its seats' frozen deck snapshots.
    """
    game = game or get_game(match.kind)
    base = match.snapshot_base()
    if isinstance(base, dict):
        return storage.parse_state(match.pk, game, lambda: base)
    seats = list(Seat.objects.filter(match=match).order_by("position"))  # with their deck snapshots
    return game.new_state(decks=[s.deck_snapshot for s in seats], seed=match.seed, config=match.rules_config)


def replay_states(match: Match) -> Iterator[tuple[ActionLog | None, object]]:
    """(log entry, state after it) for every recorded version, starting with (None, the start state); the
    states of the game the match's kind names."""
    game = get_game(match.kind)
    state = replay_start(match, game)
    yield None, state
    for entry in ActionLog.objects.filter(match=match).order_by("version"):
        state = game.apply(state, game.action_from_json(entry.action))
        yield entry, state


def match_replay(*, match: Match, you: Seat | None) -> Replay:
    """A finished match step by step: its start snapshot and log replayed, each frame as this viewer may see it."""
    if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED) or match.started_at is None:
        raise ApplicationError(
            "not_finished",
            gettext("A replay is available once the match has ended."),
            status_code=status.HTTP_409_CONFLICT,
        )
    game = get_game(match.kind)
    viewer = you.position if you else None
    frames: list[ReplayFrame] = []
    for entry, state in replay_states(match):
        view = view_for_reader(match.kind, state, game.player_view(state, viewer))
        if entry is None:
            frames.append(
                {
                    "version": 0,
                    "text": gettext("The match begins."),
                    "seat": None,
                    "consequences": [],
                    "view": view,
                }
            )
        else:
            frames.append({**_log_entry(entry, you), "view": view})
    return {
        "id": match.pk,
        "kind": match.kind,
        "result": reader_result(match.result, match.kind),
        "seats": seats_summary(match, you=you),
        "you": viewer,
        "frames": frames,
    }
