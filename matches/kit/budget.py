"""One budget clock for every searching agent of both engines: CPU seconds of the deciding thread, cut on
the wall clock at twice the budget and never after ``WALL_CAP_S``.

Why ``time.thread_time`` and not ``time.process_time``: the agents decide in Celery prefork workers (one
task per process, where the two agree) and in threads of the web process (eager Celery in tests and
development, several matches at once). There ``process_time`` counts every thread of the process, so one
AI's search would eat another's budget and play weaker the busier the server is; the CPU time of the
thread is what this decision spent, whatever else runs. The wall cap bounds the other direction: a thread
starved of CPU still answers in time.
"""

from __future__ import annotations

import time

WALL_CAP_S = 1.9  # no decision may take 2 s of wall time (the play layer's AI task expects an answer)
WALL_FACTOR = 2.0  # the wall clock stops a search at this many times its CPU budget


def cpu_now() -> float:
    """The budget clock's reading: CPU seconds of the calling thread."""
    return time.thread_time()


class Budget:
    """Anytime stop rule of one decision: ``iterations`` simulations when given (a deterministic choice),
    else ``seconds`` of CPU (``cpu_now``) or ``min(WALL_FACTOR * seconds, wall_cap_s)`` of wall time,
    whichever ends first. The search counts its simulations in ``done``."""

    __slots__ = ("iterations", "cpu_start", "wall_start", "cpu_end", "wall_end", "done")

    def __init__(self, seconds: float, iterations: int | None, *, wall_cap_s: float = WALL_CAP_S) -> None:
        self.iterations = iterations
        self.cpu_start = cpu_now()
        self.wall_start = time.perf_counter()
        self.cpu_end = self.cpu_start + seconds
        self.wall_end = self.wall_start + min(WALL_FACTOR * seconds, wall_cap_s)
        self.done = 0

    def time_left(self) -> bool:
        """Time left on both clocks (always, when counting iterations)."""
        if self.iterations is not None:
            return True
        return cpu_now() < self.cpu_end and time.perf_counter() < self.wall_end

    def spent(self) -> bool:
        """The budget is used up: all ``iterations`` done, or a clock ran out."""
        if self.iterations is not None:
            return self.done >= self.iterations
        return not self.time_left()

    def more(self) -> bool:
        """Another simulation? Like ``not spent()``, except that the first one always runs."""
        if self.iterations is not None:
            return self.done < self.iterations
        return self.done == 0 or self.time_left()

    def left(self) -> int:
        """Simulations still to come: the rest of ``iterations``, else the time left at the cost per
        simulation so far (CPU and wall, whichever ends first; 1 before the first)."""
        if self.iterations is not None:
            return max(0, self.iterations - self.done)
        if self.done == 0:
            return 1
        cpu, wall = cpu_now(), time.perf_counter()
        per_cpu = max(cpu - self.cpu_start, 1e-9) / self.done
        per_wall = max(wall - self.wall_start, 1e-9) / self.done
        return max(0, int(min((self.cpu_end - cpu) / per_cpu, (self.wall_end - wall) / per_wall)))


__all__ = ["WALL_CAP_S", "WALL_FACTOR", "Budget", "cpu_now"]
