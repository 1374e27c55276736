"""``manage.py relog_messages``: give log rows stored before messages existed their messages, so they read
in every reader's language (docs/play-layer.md, "Texts in the reader's language").

Each match with such rows is replayed from its start snapshot (`selectors.replay_states`); every row gets
the messages its action has on the state it was applied to (per viewer, as `services.submit` stores them
now), and its consequences their messages where the replay finds the same items. The English words stored
with the rows are left as they are. A match that cannot be replayed is named and skipped.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from matches.games.registry import get_game
from matches.messages import auto_pass
from matches.models import ActionLog, Match, Seat
from matches.selectors import consequences_for, log_messages, replay_start


def relog_match(match: Match) -> int:
    """Fill the messages of `match`'s rows that have none; how many rows were filled."""
    game = get_game(match.kind)
    seats = list(Seat.objects.filter(match=match).order_by("position"))
    state = replay_start(match)
    filled = 0
    with transaction.atomic():
        for entry in ActionLog.objects.filter(match=match).order_by("version").select_for_update():
            action = game.action_from_json(entry.action)
            if entry.messages:
                state = game.apply(state, action)
                continue
            timed_out = entry.seat if entry.source == ActionLog.Source.TIMEOUT else None
            found = log_messages(game, state, action, seats, timed_out=timed_out)
            if found and entry.source == ActionLog.Source.AUTO:
                found = {k: auto_pass(v) if k.isdigit() or k == "spectator" else v for k, v in found.items()}
            basis = game.consequences_basis(state)
            state = game.apply(state, action)
            if not found:
                continue
            # The log stays append-only for what happened (`ActionLog.save` refuses): this backfill only adds
            # the messages derived from the row's own action, and only to a row that has none.
            caused = _with_messages(entry.consequences or {}, consequences_for(game, state, basis, seats))
            ActionLog.objects.filter(pk=entry.pk, messages={}).update(messages=found, consequences=caused)
            filled += 1
    return filled


def _with_messages(stored: dict[str, Any], replayed: dict[str, Any]) -> dict[str, Any]:
    """The stored consequences, each item given the replayed item's message where both lists agree."""
    out: dict[str, Any] = {}
    for key, items in stored.items():
        again = replayed.get(key)
        if not isinstance(items, list) or not isinstance(again, list) or len(again) != len(items):
            out[key] = items
            continue
        out[key] = [
            {**item, "message": new["message"]}
            if isinstance(item, dict) and "message" in new and item.get("kind") == new.get("kind")
            else item
            for item, new in zip(items, again, strict=True)
        ]
    return out


class Command(BaseCommand):
    help = "Give log rows stored without messages their messages (replaying each match)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--match", type=int, action="append", help="only this match (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = Match.objects.filter(actions__messages={}).distinct().order_by("pk")
        if options.get("match"):
            matches = matches.filter(pk__in=options["match"])
        rows = 0
        for match in matches:
            try:
                rows += relog_match(match)
            except Exception as exc:  # one unreplayable match must not stop the others
                self.stderr.write(f"match {match.pk}: not replayed ({type(exc).__name__}: {exc})")
        self.stdout.write(f"relog_messages: {rows} rows given messages")
