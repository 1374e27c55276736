"""The clock value: Fischer bank + increment, correspondence per move, grace after a spent bank."""

from datetime import UTC, datetime, timedelta

import pytest

from matches.clocks import MIN_GRACE_S, SeatClock, TimeControl

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_fischer_clock_charges_time_used_and_adds_increment() -> None:
    tc = TimeControl(initial_s=300, increment_s=10)
    clock = SeatClock(remaining_ms=tc.initial_ms())
    clock.start(tc, T0)
    assert clock.deadline == T0 + timedelta(seconds=300)
    clock.stop(tc, T0 + timedelta(seconds=30))
    assert clock.remaining_ms == 280_000
    assert clock.deadline is None


def test_start_while_running_keeps_the_deadline() -> None:
    tc = TimeControl(initial_s=60, increment_s=0)
    clock = SeatClock(remaining_ms=60_000)
    clock.start(tc, T0)
    clock.start(tc, T0 + timedelta(seconds=20))
    assert clock.deadline == T0 + timedelta(seconds=60)
    assert clock.left_ms(T0 + timedelta(seconds=20)) == 40_000


def test_correspondence_grants_a_fresh_period_each_move() -> None:
    tc = TimeControl.from_json({"per_move_s": 86400})
    clock = SeatClock(remaining_ms=tc.initial_ms())
    clock.start(tc, T0)
    clock.stop(tc, T0 + timedelta(hours=20))
    clock.start(tc, T0 + timedelta(hours=21))
    assert clock.deadline == T0 + timedelta(hours=45)


def test_spent_bank_gets_the_grace_allowance() -> None:
    tc = TimeControl(initial_s=60, increment_s=0)
    clock = SeatClock(remaining_ms=0)
    clock.start(tc, T0)
    assert clock.deadline == T0 + timedelta(seconds=MIN_GRACE_S)


def test_expired_only_after_the_deadline() -> None:
    tc = TimeControl(initial_s=10, increment_s=0)
    clock = SeatClock(remaining_ms=10_000)
    clock.start(tc, T0)
    assert not clock.expired(T0 + timedelta(seconds=9))
    assert clock.expired(T0 + timedelta(seconds=10))


@pytest.mark.parametrize("bad", [{"initial_s": 0}, {"per_move_s": 1}, {"initial_s": "x"}])
def test_out_of_range_time_controls_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        TimeControl.from_json(bad)
