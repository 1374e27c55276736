"""`Result`, the typed end of a match: stored as the same JSON `Match.result` always held (ResultOut's keys),
converted only at the storage edge."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from matches.games.kind import Result
from matches.models import Seat
from matches.services.submit import lost_on_time


def test_a_games_result_is_stored_with_the_keys_it_has_and_read_back_equal() -> None:
    ended = Result(winner=1, reason="six_defeated", text="six cards in the Defeated zone (C-6.1)")
    stored = ended.to_json()
    assert stored == {"winner": 1, "reason": "six_defeated", "text": "six cards in the Defeated zone (C-6.1)"}
    assert Result.from_json(stored) == ended
    assert Result(winner=None, reason="unknown").to_json() == {"winner": None, "reason": "unknown"}
    assert Result.from_json(None) is None and Result.from_json({}) is None


def test_a_loss_on_time_keeps_the_rules_reason_apart_and_names_the_loser() -> None:
    seat = cast(Seat, SimpleNamespace(title="bob", position=1))
    stored: dict[str, Any] = lost_on_time(0, seat, rules_reason="no_units").to_json()
    assert stored == {
        "winner": 0,
        "reason": "timeout",
        "text": "bob lost on time",
        "loser": 1,
        "rules_reason": "no_units",
        "message": {"key": "%(name)s lost on time", "params": {"name": "bob"}},  # read in each language
    }
    forfeit = lost_on_time(None, seat, in_a_row=3)
    assert forfeit.to_json() == {
        "winner": None,
        "reason": "timeout",
        "text": "bob lost on time (out of time 3 turns in a row)",
        "loser": 1,
        "message": {
            "key": "%(name)s lost on time (out of time %(turns)s turns in a row)",
            "params": {"name": "bob", "turns": 3},
        },
    }
    assert Result.from_json(forfeit.to_json()) == forfeit
