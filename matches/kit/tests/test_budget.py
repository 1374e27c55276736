"""The one budget clock (``matches.kit.budget``): this thread's CPU, twice the budget on the wall, one cap."""

from __future__ import annotations

import threading
import time

import pytest

from boardgame.engine import search as westeros_search
from matches.engine import search as commandeer_search
from matches.kit.budget import WALL_CAP_S, Budget, cpu_now
from matches.kit.compiled import source_of


def _spin(seconds: float) -> None:
    """Burn ``seconds`` of this thread's CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_another_threads_work_does_not_spend_this_threads_budget() -> None:
    """The web process decides in threads: a search next door must not eat this decision's budget (it
    would with ``process_time``, which counts every thread of the process)."""
    c0, p0 = cpu_now(), time.process_time()
    other = threading.Thread(target=_spin, args=(0.25,))
    other.start()
    other.join()  # waiting costs this thread no CPU
    assert time.process_time() - p0 >= 0.25  # the process did spend it ...
    assert cpu_now() - c0 < 0.1  # ... this thread did not


def test_the_budget_counts_the_cpu_of_its_own_thread() -> None:
    budget = Budget(0.05, None)
    assert budget.time_left() and not budget.spent()
    _spin(0.06)
    assert not budget.time_left() and budget.spent()


def test_the_wall_clock_stops_at_twice_the_budget_and_never_after_the_cap() -> None:
    short = Budget(0.1, None)
    assert short.wall_end - short.wall_start == pytest.approx(0.2)
    long = Budget(30.0, None)
    assert long.wall_end - long.wall_start == pytest.approx(WALL_CAP_S) and WALL_CAP_S == 1.9
    waiting = Budget(0.02, None)
    time.sleep(0.05)  # asleep: no CPU spent, but the wall cap (0.04 s) has passed
    assert waiting.spent()


def test_iterations_replace_the_clock_and_the_first_simulation_always_runs() -> None:
    fixed = Budget(0.0, 3)
    assert fixed.time_left() and fixed.more() and fixed.left() == 3
    fixed.done = 3
    assert fixed.spent() and not fixed.more() and fixed.left() == 0
    none = Budget(0.0, None)
    assert none.spent() and none.more() and none.left() == 1  # the first one runs even at zero budget
    none.done = 1
    assert not none.more()


def test_both_engines_search_with_the_kits_budget_and_no_clock_of_their_own() -> None:
    assert vars(commandeer_search)["Budget"] is Budget and vars(westeros_search)["Budget"] is Budget
    for module in (commandeer_search, westeros_search):
        source = source_of(module)  # the .py file, also when the engine is compiled
        assert "process_time" not in source and "thread_time" not in source, module.__name__
        assert "1.9" not in source, module.__name__  # the wall cap is defined once, in the kit
