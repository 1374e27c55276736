"""Your-turn e-mails: a correspondence move waits on a player who has been away.

`your_turn_emails_send` (run by the periodic task `matches.tasks.send_your_turn_emails`) finds every seat
whose correspondence clock runs (the engine made it a current player: the seat's stored deadline is set),
whose user has an e-mail address, has not turned these e-mails off and has not been seen for
NOTIFY_ABSENT_AFTER_S (frontend.preferences), and sends one e-mail per (match, seat, deadline).

At most once: the `YourTurnEmail` row is inserted in the transaction that sends the mail. A second
worker (or a retry) that gets there meanwhile waits for that transaction and then hits the unique
constraint; a mail server that fails rolls the row back, so the next run tries again. Live clocks
(Fischer, per decision + bank) get no e-mails: the player is at the table or the game is lost anyway.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from frontend import preferences
from frontend.language import saved_language
from frontend.time_spans import TIME_SPANS
from matches import selectors
from matches.clocks import TimeControl
from matches.games.registry import get_game
from matches.models import ActionLog, Match, MatchStatus, Seat, YourTurnEmail

log = logging.getLogger(__name__)

MAX_EMAILS_PER_RUN = 200  # the rest waits for the next run (a minute later)
MAX_CANDIDATES = 2000  # seats looked at per run, soonest deadline first


@dataclass(frozen=True)
class YourTurn:
    """What one e-mail says: the game, the opponents, the time left and where to play."""

    match_id: int
    position: int
    deadline: datetime
    user_id: int
    username: str
    to: str
    game: str
    opponents: list[str]
    time_left: str
    last_move: str
    match_url: str
    unsubscribe_url: str
    settings_url: str


def human_duration(delta: timedelta) -> str:
    """'23 hours', '2 days 4 hours', '12 minutes', 'less than a minute'."""
    seconds = int(delta.total_seconds())
    if seconds < 60:
        return gettext("less than a minute")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60

    def unit(n: int, word: str) -> str:
        return str(TIME_SPANS[word] % {"num": n})

    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour") + (f" {unit(minutes, 'minute')}" if minutes and hours < 3 else "")
    return unit(minutes, "minute")


def _is_correspondence(match: Match) -> bool:
    try:
        return TimeControl.from_json(match.time_control).correspondence
    except ValueError:
        return False


def waiting_seats(*, now: datetime) -> list[Seat]:
    """Seats of running correspondence matches whose move is waiting and whose player should hear of it."""
    already = YourTurnEmail.objects.filter(
        match_id=OuterRef("match_id"), position=OuterRef("position"), deadline=OuterRef("deadline")
    )
    seats = list(
        Seat.objects.filter(
            match__status=MatchStatus.ACTIVE,
            match__time_control__has_key="per_move_s",  # narrowed to correspondence below
            clock_started_at__isnull=False,
            deadline__gt=now,
            user__isnull=False,
            ai_agent="",
        )
        .exclude(user__email="")
        .exclude(Exists(already))
        .select_related("match", "user")
        .defer("deck_snapshot", "match__state", "match__state_base")
        .order_by("deadline")[:MAX_CANDIDATES]
    )
    seats = [s for s in seats if _is_correspondence(s.match)]
    if not seats:
        return []
    user_ids = {s.user_id for s in seats if s.user_id is not None}
    skip = preferences.email_off_user_ids(user_ids) | preferences.present_user_ids(user_ids, now=now)
    return [s for s in seats if s.user_id not in skip]


def describe(seat: Seat, *, now: datetime) -> YourTurn:
    """The facts of one e-mail (absolute links from SITE_URL)."""
    match = seat.match
    others = Seat.objects.filter(match_id=match.pk).exclude(pk=seat.pk).select_related("user")
    site = settings.SITE_URL
    assert seat.deadline is not None and seat.user is not None and seat.user_id is not None
    token = preferences.unsubscribe_token(seat.user_id)
    # The last move in the words this player may read (the log's per-viewer messages, in the active
    # language: the recipient's), else the stored English.
    last = (
        ActionLog.objects.filter(match_id=match.pk)
        .order_by("-version")
        .values_list("descriptions", "messages")
        .first()
    )
    descriptions, stored = (last[0], last[1]) if last else ({}, {})
    last_move = selectors.words_for(
        descriptions if isinstance(descriptions, dict) else {},
        stored if isinstance(stored, dict) else {},
        str(seat.position),
        translation.get_language() or settings.LANGUAGE_CODE,
    )[:300]
    return YourTurn(
        match_id=match.pk,
        position=seat.position,
        deadline=seat.deadline,
        user_id=seat.user_id,
        username=seat.user.get_username(),
        to=seat.user.email,
        game=f"{get_game(match.kind).label} #{match.pk}",
        opponents=[s.display_name for s in others.defer("deck_snapshot")],
        time_left=human_duration(seat.deadline - now),
        last_move=last_move,
        match_url=site + reverse("match-page", args=[match.pk]),
        unsubscribe_url=site + reverse("unsubscribe", args=[token]),
        settings_url=site + reverse("user-settings"),
    )


def build_message(turn: YourTurn) -> EmailMultiAlternatives:
    """Plain text and HTML, with RFC 8058 one-click unsubscribe headers."""
    context = {"turn": turn}
    message = EmailMultiAlternatives(
        subject=gettext("Your turn in %(game)s") % {"game": turn.game},
        body=render_to_string("matches/emails/your_turn.txt", context),
        to=[turn.to],
        headers={
            "List-Unsubscribe": f"<{turn.unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(render_to_string("matches/emails/your_turn.html", context), "text/html")
    return message


def your_turn_email_send(*, seat: Seat, now: datetime) -> bool:
    """Send this seat's e-mail for its current deadline unless one was sent; True when sent now. It is written
    in the recipient's language (their setting; the site's default without one)."""
    with translation.override(saved_language(seat.user) or settings.LANGUAGE_CODE):
        return _send(seat=seat, now=now)


def _send(*, seat: Seat, now: datetime) -> bool:
    turn = describe(seat, now=now)
    with transaction.atomic():
        # Re-check: the move may have been made since the seat was read (then its deadline changed).
        if not Seat.objects.filter(
            pk=seat.pk, deadline=turn.deadline, clock_started_at__isnull=False
        ).exists():
            return False
        try:
            with transaction.atomic():
                YourTurnEmail.objects.create(
                    match_id=turn.match_id,
                    position=turn.position,
                    deadline=turn.deadline,
                    user_id=turn.user_id,
                )
        except IntegrityError:  # sent already (another worker, or a retried task)
            return False
        build_message(turn).send()  # raises on a mail server error: the row is rolled back, tried again
    return True


def your_turn_emails_send(*, now: datetime | None = None, limit: int = MAX_EMAILS_PER_RUN) -> int:
    """Send the e-mails due now (at most `limit`); the number sent. A mail that fails is logged and retried
    on the next run."""
    now = now or timezone.now()
    sent = 0
    for seat in waiting_seats(now=now)[:limit]:
        try:
            sent += your_turn_email_send(seat=seat, now=now)
        except Exception:
            log.warning(
                "your-turn e-mail for match %s seat %s failed", seat.match_id, seat.position, exc_info=True
            )
    return sent
