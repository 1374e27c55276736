"""What one submit costs, counted: the calls at the game boundary, the state loads and serialisations, SQL.

Plays random legal actions of Commandeer (two seats) and Westeros (three houses, every seat a person) through
the HTTP API in-process (Django's test client: the view, the service, the response's JSON), as the
benchmark's players do (`bench/online_play.py`): the mover submits and reads its new view from the answer;
when the turn passes, the next mover's client reads its view with `log_since`. For each request it counts:

- the game boundary (`GameKind` methods of the game's class): `legal_actions` (per seat), `load` (a stored
  snapshot parsed into an engine state), `dump` (a state serialised to its snapshot), `clone`,
  `player_view`, `current_players`, the log words (`describe`, `describe_message`) and `consequences`;
- the state reads of `matches.storage` (`load_state`: cache hit or parse);
- the JSON encodings of the snapshot column (`config.jsoncodec.dumps`);
- the SQL statements sent (BEGIN/COMMIT/SAVEPOINT left out);
- the calls to the cache (Redis in production: a round trip each; a call made inside another counts too).

Prints, per game, the mean count per submit and per state read, and a cProfile of the submits with
`--profile N`. Runs against `DATABASE_URL` (migrated first; users and matches are added to it, never
deleted); any checkout's code with `--root DIR` (the counts of an older commit).

    .venv/bin/python bench/submit_profile.py --submits 60
    .venv/bin/python bench/submit_profile.py --root ../other-checkout --profile 25
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

BOUNDARY = (
    "legal_actions",
    "load",
    "dump",
    "clone",
    "player_view",
    "current_players",
    "describe",
    "describe_message",
    "consequences",
    "consequences_by_viewer",
)

# The cache calls that reach the cache server (Redis in production): one round trip each.
CACHE_CALLS = ("get", "get_many", "set", "set_many", "add", "delete", "delete_many", "incr", "touch")


@contextmanager
def counting(counts: Counter[str], *, on: bool = True) -> Iterator[None]:
    """Count calls of the game classes' boundary methods, storage's state reads and the snapshot's encodings."""
    if not on:
        yield
        return
    from config import jsoncodec
    from matches import storage
    from matches.games.registry import get_game

    patched: list[tuple[object, str, object | None]] = []  # (owner, name, its own attribute or None)

    def wrap(owner: object, name: str, label: str) -> None:
        original = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[label] += 1
            if name == "legal_actions":  # (self, state, player)
                counts[f"legal_actions of seat {args[2]}"] += 1
            return original(*args, **kwargs)

        patched.append((owner, name, vars(owner).get(name)))
        setattr(owner, name, counted)

    for kind in ("commandeer", "westeros"):
        cls = type(get_game(kind))
        for name in BOUNDARY:
            if hasattr(cls, name):  # an older checkout may lack one
                wrap(cls, name, name)
    from django.core.cache import caches

    backend = caches["default"]  # this thread's client: the test client runs every request in this thread
    for name in CACHE_CALLS:
        wrap(backend, name, f"cache.{name} (a round trip to the cache)")
    wrap(storage, "load_state", "storage.load_state")
    wrap(storage, "parse_state", "storage.parse_state (a snapshot parsed)")
    wrap(jsoncodec, "dumps", "jsoncodec.dumps (snapshot encoded)")
    try:
        yield
    finally:
        for owner, name, own in reversed(patched):
            if own is None:
                delattr(owner, name)  # it was inherited
            else:
                setattr(owner, name, own)


@contextmanager
def sql_counted(counts: Counter[str]) -> Iterator[None]:
    """Count the SQL statements sent (an execute wrapper: no debug cursor, which would cost time itself)."""
    from django.db import connection

    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not sql.lstrip().upper().startswith(skip):
            counts["SQL statements"] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield


def users(n: int) -> list[Any]:
    from django.contrib.auth import get_user_model

    run = uuid.uuid4().hex[:6]
    return [get_user_model().objects.create_user(f"profile-{run}-{i}", password=None) for i in range(n)]


def new_match(kind: str) -> tuple[int, list[Any]]:
    from matches.services.lobby import match_create, match_join, match_start

    if kind == "commandeer":
        from matches.tests.commandeer_fixtures import legal_deck

        people = users(2)
        decks = [legal_deck(u, f).pk for u, f in zip(people, ("stonehold", "tidewardens"), strict=True)]
        m = match_create(user=people[0], kind=kind, deck_id=decks[0], rules_config={"turn_limit": 30},
                         time_control={"initial_s": 600, "increment_s": 10})  # fmt: skip
        match_join(match_id=m.pk, user=people[1], deck_id=decks[1])
    else:
        people = users(3)
        m = match_create(user=people[0], kind=kind, rules_config={"player_count": 3},
                         time_control={"initial_s": 600, "increment_s": 10})  # fmt: skip
        for u in people[1:]:
            match_join(match_id=m.pk, user=u)
    match_start(match_id=m.pk, user=people[0])
    from matches.models import Seat

    by_seat = {s.position: s.user for s in Seat.objects.filter(match_id=m.pk).select_related("user")}
    return m.pk, [by_seat[i] for i in sorted(by_seat)]


def play(
    kind: str,
    submits: int,
    rng: random.Random,
    *,
    count: bool = True,
    profiler: cProfile.Profile | None = None,
    warmup: int = 0,
) -> dict[str, Any]:
    """`submits` random submits through the API after `warmup` untimed ones (one-time imports and caches):
    the counts per submit and per state read (with `count`: the counting wrappers cost time, so a timed
    run goes without them), this thread's CPU time per request, and the profile of the submits."""
    from django.test import Client
    from rest_framework.authtoken.models import Token

    per_submit: Counter[str] = Counter()
    per_read: Counter[str] = Counter()
    seats_asked = done = reads = 0
    cpu_submit: list[float] = []
    cpu_read: list[float] = []
    while done < warmup + submits:
        match_id, people = new_match(kind)
        clients = [
            Client(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=u)[0].key}") for u in people
        ]  # token authentication, as the benchmark's players
        holder, state = -1, None
        seen = dict.fromkeys(range(len(people)), -1)  # the version each player's client last saw
        while done < warmup + submits:
            measured = done >= warmup
            if state is None or holder not in state["current_players"]:
                current = (state or {}).get("current_players")
                who = current[0] if current else 0
                since = f"?log_since={seen[who]}" if seen[who] >= 0 else ""
                counts: Counter[str] = Counter()
                with counting(counts, on=count), sql_counted(counts):
                    c0 = time.thread_time()
                    r = clients[who].get(f"/api/matches/{match_id}/state/{since}")
                    c1 = time.thread_time()
                if measured:
                    per_read.update(counts)
                    cpu_read.append(c1 - c0)
                    reads += 1
                state, holder = r.json(), who
                seen[who] = state["state_version"]
            if state["status"] != "active" or not state["legal_actions"]:
                break
            choice = rng.choice(state["legal_actions"])["action"]
            body = {
                "action": choice,
                "state_version": state["state_version"],
                "idempotency_key": uuid.uuid4().hex,
            }
            counts = Counter()
            with counting(counts, on=count), sql_counted(counts):
                if profiler is not None and measured:
                    profiler.enable()
                c0 = time.thread_time()
                r = clients[holder].post(
                    f"/api/matches/{match_id}/actions/", body, content_type="application/json"
                )
                c1 = time.thread_time()
                if profiler is not None and measured:
                    profiler.disable()
            assert r.status_code == 200, r.content[:300]
            done += 1
            state = r.json()["state"]
            seen[holder] = state["state_version"]
            if not measured:
                continue
            cpu_submit.append(c1 - c0)
            counts["state versions moved"] = state["state_version"] - body["state_version"]
            seats = [k for k in counts if k.startswith("legal_actions of seat")]
            counts["legal_actions: most calls for one seat"] = max((counts[k] for k in seats), default=0)
            per_submit.update(Counter({k: v for k, v in counts.items() if k not in seats}))
            seats_asked += len(seats)
    n = max(1, submits)
    out: dict[str, Any] = {
        "submits": submits,
        "state_reads": reads,
        "cpu_ms_per_submit": {
            "p50": ms(cpu_submit, 50),
            "mean": round(1000 * statistics.fmean(cpu_submit), 2),
        },
        "cpu_ms_per_state_read": {
            "p50": ms(cpu_read, 50),
            "mean": round(1000 * statistics.fmean(cpu_read), 2),
        }
        if cpu_read
        else None,
    }
    if count:
        out["per_submit"] = {k: round(v / n, 2) for k, v in sorted(per_submit.items())}
        out["per_submit"]["seats whose legal actions were asked"] = round(seats_asked / n, 2)
        out["per_state_read"] = {k: round(v / max(1, reads), 2) for k, v in sorted(per_read.items())}
    else:
        out["sql_per_submit"] = round(per_submit["SQL statements"] / n, 2)
    return out


def ms(values: list[float], p: float) -> float:
    s = sorted(values)
    return round(1000 * s[max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))], 2) if s else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--submits", type=int, default=60, help="submits per game")
    ap.add_argument("--games", default="commandeer,westeros")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=10, help="submits of each game left out of the profile")
    ap.add_argument("--profile", type=int, default=0, help="print cProfile's top N functions (0: none)")
    ap.add_argument("--profile-out", default="", help="also write each game's profile to FILE.<game>")
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="the checkout to run")
    args = ap.parse_args()
    root = Path(args.root).resolve()
    os.chdir(root)
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=root, check=True, capture_output=True
    )
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    out: dict[str, Any] = {"bench": "submit_profile", "root": root.name}
    for kind in args.games.split(","):
        profiler = cProfile.Profile() if args.profile else None
        rng = random.Random(args.seed)
        counted = play(kind, args.submits, rng, warmup=args.warmup)
        timed = play(kind, args.submits, rng, profiler=profiler, count=False, warmup=args.warmup)
        out[kind] = {**counted, **{k: v for k, v in timed.items() if k.startswith("cpu_")}}
        print(f"{kind}: {args.submits} submits, {counted['state_reads']} state reads by the next mover")
        for label, value in counted["per_submit"].items():
            print(f"  per submit      {label:48} {value}")
        for label, value in counted["per_state_read"].items():
            print(f"  per state read  {label:48} {value}")
        read = timed["cpu_ms_per_state_read"] or {}
        print(
            f"  CPU ms (this thread, uncounted run): submit p50 {timed['cpu_ms_per_submit']['p50']} mean "
            f"{timed['cpu_ms_per_submit']['mean']}; state read p50 {read.get('p50')} mean {read.get('mean')}"
        )
        if profiler is not None:
            if args.profile_out:
                profiler.dump_stats(f"{args.profile_out}.{kind}")
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(args.profile)
            print(text.getvalue())
    print(json.dumps(out))


if __name__ == "__main__":
    main()
