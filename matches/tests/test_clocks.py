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


# ---- a decision taken back (W-5.1 orders reopened): it resumes, it earns no new time --------------------


def test_a_fischer_decision_taken_back_earns_its_increment_once() -> None:
    tc = TimeControl(initial_s=300, increment_s=10)
    clock = SeatClock(remaining_ms=tc.initial_ms())
    clock.start(tc, T0)
    clock.stop(tc, T0 + timedelta(seconds=30))  # Ready: 270 s left + the increment
    assert clock.remaining_ms == 280_000
    for k in range(5):  # reopened and readied again five times, 2 s each, waiting between
        at = T0 + timedelta(seconds=100 + 10 * k)
        clock.start(tc, at, resume=True)
        assert clock.deadline == at + timedelta(milliseconds=270_000 - 2000 * k)  # no increment to spend
        clock.stop(tc, at + timedelta(seconds=2))
    assert clock.remaining_ms == 300_000 - 30_000 - 5 * 2000 + 10_000  # one increment for the decision
    clock.start(tc, T0 + timedelta(seconds=500))  # the next decision: the bank as it is
    assert clock.deadline == T0 + timedelta(seconds=500, milliseconds=clock.remaining_ms)


def test_a_decision_with_a_bank_taken_back_resumes_its_period_and_charges_the_overrun_once() -> None:
    tc = TimeControl.from_json({"per_move_s": 20, "bank_s": 60})
    clock = SeatClock(remaining_ms=tc.initial_ms())
    clock.start(tc, T0)
    assert clock.deadline == T0 + timedelta(seconds=80)
    clock.stop(tc, T0 + timedelta(seconds=15))
    assert clock.remaining_ms == 60_000  # within the period: the bank untouched
    clock.start(tc, T0 + timedelta(seconds=100), resume=True)
    assert clock.deadline == T0 + timedelta(seconds=100 + 5 + 60)  # the 5 s left of the period, then the bank
    clock.stop(tc, T0 + timedelta(seconds=110))  # 25 s on this decision in all: 5 s over the period
    assert clock.remaining_ms == 55_000
    clock.start(tc, T0 + timedelta(seconds=120), resume=True)
    clock.stop(tc, T0 + timedelta(seconds=121))  # 1 s more, all of it from the bank
    assert clock.remaining_ms == 54_000
    clock.start(tc, T0 + timedelta(seconds=200))  # the next decision: a fresh period
    assert clock.deadline == T0 + timedelta(seconds=200 + 20 + 54)


def test_a_correspondence_decision_taken_back_keeps_its_period() -> None:
    tc = TimeControl.from_json({"per_move_s": 86400})
    clock = SeatClock(remaining_ms=tc.initial_ms())
    clock.start(tc, T0)
    clock.stop(tc, T0 + timedelta(hours=20))
    clock.start(tc, T0 + timedelta(hours=21), resume=True)
    assert clock.deadline == T0 + timedelta(hours=25)  # the 4 hours left of that day
    clock.stop(tc, T0 + timedelta(hours=22))
    clock.start(tc, T0 + timedelta(hours=30))
    assert clock.deadline == T0 + timedelta(hours=54)  # the next decision: a fresh day
