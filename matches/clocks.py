"""Match clocks as values with an injected "now" (docs/style.md 8): time controls, bank, deadlines.

A time control is Fischer (`initial_s` bank + `increment_s` added when the seat's turn passes on),
correspondence (`per_move_s` granted afresh each time the seat must act), or per decision with a bank
(`per_move_s` afresh each decision plus a `bank_s` reserve that only the overrun draws on — the
Westeros live control "3 min per decision + bank"). A clock runs while
its seat is among the engine's current players; the deadline is stored on the seat row so a sweep can
enforce it after any restart.

Decision (taking a decision back): a seat that had finished its part of a simultaneous step and takes it
back (a Westeros house reopening its orders, W-5.1) resumes the decision it left: no new period, and the
increment its finish earned is taken back (`SeatClock.start(resume=True)`). Time it waited is not charged.
So a decision earns one increment (or one period) however often it is finished and reopened.

Decision (grace): a Fischer seat whose bank is empty still gets `increment_s` (at least
`MIN_GRACE_S`) each time it must act again, so a timeout costs that one turn (the default action is
taken) and three timeouts in a row forfeit, rather than every later turn timing out at once.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from datetime import datetime, timedelta
from typing import TypedDict, cast

from django.utils.translation import gettext

MIN_GRACE_S = 5
TIMEOUTS_TO_FORFEIT = 3  # consecutive timeouts of one seat that lose the match
# Only deadlines this close get an eta task: a worker holds it unacknowledged until its eta, so the horizon
# (plus the timer's grace) stays below Redis' visibility timeout (CELERY_VISIBILITY_TIMEOUT_S), or Redis would
# hand it to a second worker meanwhile. Further deadlines rest on the stored deadline and the beat's sweep.
EAGER_TIMER_HORIZON = timedelta(minutes=3)


class TimeControlJSON(TypedDict, total=False):
    """A time control as stored (`Match.time_control`) and sent: Fischer or per move (+ bank)."""

    initial_s: int
    increment_s: int
    per_move_s: int | None
    bank_s: int


class TimeControlPreset(TypedDict):
    label: str  # English; the lobby shows it translated (pages.TIME_CONTROL_LABELS)
    value: TimeControlJSON
    kinds: tuple[str, ...]  # the games it is offered for


@dataclass(frozen=True)
class TimeControl:
    """How much time a seat has: Fischer (initial + increment) or correspondence (per move)."""

    # Fischer: the bank each seat starts with (5 s to a day).
    initial_s: int = field(default=300, metadata={"min": 5, "max": 86400})
    # Fischer: added when the seat's turn passes on (up to an hour).
    increment_s: int = field(default=10, metadata={"min": 0, "max": 3600})
    # Correspondence / per decision: the period granted afresh each time the seat must act (5 s to 14 days).
    per_move_s: int | None = field(default=None, metadata={"min": 5, "max": 14 * 86400, "null": True})
    # Per decision: the reserve only an overrun of `per_move_s` draws on (up to a day; with per_move_s only).
    bank_s: int = field(default=0, metadata={"min": 0, "max": 86400})

    @classmethod
    def from_json(cls, data: Mapping[str, object] | None) -> TimeControl:
        """Parse `{"initial_s", "increment_s"}` or `{"per_move_s"[, "bank_s"]}`; ValueError naming the field.

        Strict: every value is an integer (never a bool or a float such as 1e400) within its field's
        bounds (the metadata above, which the API's serializer is generated from too).
        """
        data = data or {}
        if not isinstance(data, dict):
            raise ValueError(gettext("time_control must be an object"))
        try:  # every action parses its match's stored control: answered from the cache after the first
            key = tuple((k, v, type(v)) for k, v in data.items())  # 300.0 == 300: the type is part of it
            hit = _PARSED.get(key)
        except TypeError:  # an unhashable value (a list): not cacheable, and refused below
            key, hit = None, None
        if hit is not None:
            return hit
        parsed = cls._parse(data)
        if key is not None and len(_PARSED) < _PARSED_SIZE:
            _PARSED[key] = parsed
        return parsed

    @classmethod
    def _parse(cls, data: Mapping[str, object]) -> TimeControl:
        by_name = _fields_by_name()
        unknown = set(data) - set(by_name)
        if unknown:
            raise ValueError(
                gettext("unknown time control fields: %(fields)s")
                % {"fields": ", ".join(sorted(map(str, unknown)))}
            )
        for name, value in data.items():
            meta = by_name[name].metadata
            if value is None and meta.get("null"):
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(gettext("%(name)s must be an integer number of seconds") % {"name": name})
            if not meta["min"] <= value <= meta["max"]:
                raise ValueError(
                    gettext("%(name)s must be from %(min)s to %(max)s seconds")
                    % {"name": name, "min": meta["min"], "max": meta["max"]}
                )
        return cls._checked(cast("TimeControlJSON", data))  # every key and value checked above

    @classmethod
    def _checked(cls, data: TimeControlJSON) -> TimeControl:
        if data.get("per_move_s") is not None:
            return cls(
                initial_s=0, increment_s=0, per_move_s=data["per_move_s"], bank_s=data.get("bank_s") or 0
            )
        if data.get("bank_s"):
            raise ValueError(gettext("bank_s goes with per_move_s (a bank of a per-decision clock)"))
        return cls(initial_s=data.get("initial_s", 300), increment_s=data.get("increment_s", 10))

    def to_json(self) -> TimeControlJSON:
        if self.per_move_s is not None:
            return {"per_move_s": self.per_move_s, **({"bank_s": self.bank_s} if self.bank_s else {})}
        return {"initial_s": self.initial_s, "increment_s": self.increment_s}

    @property
    def correspondence(self) -> bool:
        """A fresh period each move and nothing else (a timeout takes nothing away)."""
        return self.per_move_s is not None and not self.bank_s

    def initial_ms(self) -> int:
        """The stored clock at the start: the bank (per decision + bank), the period, or the Fischer bank."""
        if self.per_move_s is not None:
            return 1000 * (self.bank_s or self.per_move_s)
        return 1000 * self.initial_s

    def allowance_ms(self, remaining_ms: int) -> int:
        """Time granted when a seat starts to act: its bank, a fresh period (+ bank left), or the grace."""
        if self.per_move_s is not None:
            return 1000 * self.per_move_s + (max(0, remaining_ms) if self.bank_s else 0)
        if remaining_ms > 0:
            return remaining_ms
        return 1000 * max(self.increment_s, MIN_GRACE_S)


_PARSED: dict[
    tuple[tuple[str, object, type], ...], TimeControl
] = {}  # stored controls seen (few distinct: the lobby's presets)
_PARSED_SIZE = 1024


@functools.cache
def _fields_by_name() -> dict[str, Field[object]]:
    return {f.name: f for f in fields(TimeControl)}


@dataclass
class SeatClock:
    """One seat's clock: bank left and, while the seat must act, when it started and its deadline.

    `carry_ms` is what the last stop leaves for a resumed decision: on a Fischer clock the increment that
    stop added, on a per-decision clock the time used on the decision so far.
    """

    remaining_ms: int
    started_at: datetime | None = None
    deadline: datetime | None = None
    carry_ms: int = 0

    @property
    def running(self) -> bool:
        return self.started_at is not None

    def start(self, tc: TimeControl, now: datetime, *, resume: bool = False) -> None:
        """Seat must act from `now`: fix the deadline (no-op while already running). With `resume`, the seat
        takes back a decision it had finished (see the module's "taking a decision back")."""
        if self.running:
            return
        if not resume:
            self.carry_ms = 0
            allowance = tc.allowance_ms(self.remaining_ms)
        elif tc.per_move_s is not None:  # the rest of the period, then the bank (if any)
            allowance = max(0, 1000 * tc.per_move_s - self.carry_ms) + (self.remaining_ms if tc.bank_s else 0)
        else:  # Fischer: the increment of the finish is taken back
            self.remaining_ms = max(0, self.remaining_ms - self.carry_ms)
            self.carry_ms = 0
            allowance = self.remaining_ms
        self.started_at = now
        self.deadline = now + timedelta(milliseconds=allowance)

    def stop(self, tc: TimeControl, now: datetime) -> None:
        """Seat's turn passed on: charge the time used, add the increment, clear the deadline."""
        if not self.running:
            return
        assert self.deadline is not None and self.started_at is not None
        used = int((now - self.started_at).total_seconds() * 1000)
        if tc.per_move_s is not None:
            period = 1000 * tc.per_move_s
            before, self.carry_ms = self.carry_ms, self.carry_ms + used  # used on this decision so far
            if tc.bank_s:  # only the overrun of the period draws on the bank, once
                overrun = max(0, self.carry_ms - period) - max(0, before - period)
                self.remaining_ms = max(0, self.remaining_ms - overrun)
            else:
                self.remaining_ms = period
        else:
            left = int((self.deadline - now).total_seconds() * 1000)
            self.carry_ms = 1000 * tc.increment_s
            self.remaining_ms = max(0, left) + self.carry_ms
        self.started_at = None
        self.deadline = None

    def restart(self, tc: TimeControl, now: datetime) -> None:
        """After a timeout the seat acts again (still its turn): the bank is spent, grant the allowance again."""
        self.remaining_ms = self.remaining_ms if tc.correspondence else 0
        self.started_at = None
        self.deadline = None
        self.start(tc, now)

    def left_ms(self, now: datetime) -> int:
        """Time left as of `now` (running clocks count down)."""
        if self.deadline is None:
            return self.remaining_ms
        return max(0, int((self.deadline - now).total_seconds() * 1000))

    def expired(self, now: datetime) -> bool:
        return self.deadline is not None and self.deadline <= now


# The lobby's time controls, per game: Commandeer is turn based (Fischer, or correspondence per move);
# Westeros decides per phase step, several houses at once (per decision with a bank, or correspondence per
# step). The first of each game is its default. A game not named here (test games) is offered all of them.
TIME_CONTROL_PRESETS: tuple[TimeControlPreset, ...] = (
    {
        "label": "5 min + 10 s per turn",
        "value": {"initial_s": 300, "increment_s": 10},
        "kinds": ("commandeer",),
    },
    {
        "label": "15 min + 15 s per turn",
        "value": {"initial_s": 900, "increment_s": 15},
        "kinds": ("commandeer",),
    },
    {"label": "Correspondence: 1 day per move", "value": {"per_move_s": 86400}, "kinds": ("commandeer",)},
    {"label": "Correspondence: 3 days per move", "value": {"per_move_s": 259200}, "kinds": ("commandeer",)},
    {
        "label": "Live: 3 min per decision + 10 min bank",
        "value": {"per_move_s": 180, "bank_s": 600},
        "kinds": ("westeros",),
    },
    {
        "label": "Quick: 20 s per decision + 1 min bank",
        "value": {"per_move_s": 20, "bank_s": 60},
        "kinds": ("westeros",),
    },
    {"label": "Correspondence: 1 day per phase step", "value": {"per_move_s": 86400}, "kinds": ("westeros",)},
    {
        "label": "Correspondence: 3 days per phase step",
        "value": {"per_move_s": 259200},
        "kinds": ("westeros",),
    },
)


def time_control_choices(kind: str) -> list[TimeControlPreset]:
    """The lobby's time controls of a game kind (its default first)."""
    named = [p for p in TIME_CONTROL_PRESETS if kind in p["kinds"]]
    return named or list(TIME_CONTROL_PRESETS)
