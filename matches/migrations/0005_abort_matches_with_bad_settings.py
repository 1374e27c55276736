"""Abort the open matches whose settings today's strict settings checks refuse.

Before, `rules_config` was taken with any type and value (`{"board_layout": ["x"] * 36}` answered 500 to
every action and the match was stuck; `{"opening_hand": "x"}` made its AI task fail in a loop). Such a
match can never be played: it is aborted (no result), as a failing task would abort it, with the reason
"invalid_settings". Finished matches are left as they are. Uses the game adapters of this version; when
they cannot be imported (a much later code base), it does nothing.
"""

from django.db import migrations
from django.utils import timezone

OPEN = ("waiting", "active")


def abort_bad_settings(apps, schema_editor) -> None:
    try:
        from matches.clocks import TimeControl
        from matches.games.registry import get_game
    except ImportError:  # pragma: no cover - a later code base without these modules
        return
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    for match in Match.objects.filter(status__in=OPEN).only("id", "kind", "rules_config", "time_control"):
        try:
            get_game(match.kind).check_config(match.rules_config or {})
            TimeControl.from_json(match.time_control or {})
        except Exception as exc:  # any refusal: the match cannot be played
            Match.objects.filter(pk=match.pk).update(
                status="aborted",
                finished_at=timezone.now(),
                result={
                    "winner": None,
                    "reason": "invalid_settings",
                    "text": f"invalid settings: {str(exc)[:200]} (no result).",
                },
            )
            Seat.objects.filter(match_id=match.pk).update(clock_started_at=None, deadline=None)


class Migration(migrations.Migration):
    dependencies = [("matches", "0004_task_failures_create_digest")]

    operations = [migrations.RunPython(abort_bad_settings, migrations.RunPython.noop)]
