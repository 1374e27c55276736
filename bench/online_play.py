"""Benchmark of online play over HTTP: N tables in play at once against a running ASGI server.

By default it starts the server itself (uvicorn with `--workers 2` when installed, else daphne) on
PostgreSQL (a fresh `bench_online` database, psycopg connection pool) with Redis (channel layer + Celery
broker), seeds users/decks/tokens through the ORM, warms the server up with a few untimed matches, then
keeps N tables busy for `--duration` seconds: each table's thread plays random legal actions (with an
idempotency key) as two clients would, and starts a new match when its match ends. A submit answers
with the mover's new view; when the turn passes, the other player's client reads its state with
`log_since` (a browser gets that view over its WebSocket). A second thread samples `/api/health/` 20
times a second, so the trivial endpoint's latency is measured under the same load. It reports the CPU
the server processes, PostgreSQL + Redis and the load generator spent per action (they share the same
cores), and afterwards (server stopped) the submit's own cost in-process: ms and SQL queries per submit.
Prints a table and one JSON line (with the interpreter it ran on: a profile-guided build is faster).

    .venv/bin/python bench/online_play.py                       # 16 tables for 20 s
    .venv/bin/python bench/online_play.py --matches 8 --duration 60
    .venv/bin/python bench/online_play.py --server daphne --workers 1   # one daphne process
    .venv/bin/python bench/online_play.py --url http://127.0.0.1:8000   # a server you started
      (then DATABASE_URL must name the server's database: users and decks are seeded through it)
    .venv/bin/python bench/online_play.py --root ../other-checkout  # another checkout's code, this harness
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/bench_online"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"
WARMUP_MATCHES = 4  # short untimed matches first, so one-time imports and caches are not measured
PROBE_INTERVAL_S = 0.05  # the trivial endpoint is sampled 20 times a second during the run


class Client:
    """A keep-alive HTTP/1.1 JSON client authenticated with an API token (one per thread)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        self.token = token
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                elapsed = time.perf_counter() - t0
                return resp.status, (json.loads(raw) if raw else None), elapsed
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))
    return s[k]


def prepare_database(env: dict[str, str]) -> None:
    """Create a fresh benchmark database and migrate it."""
    import psycopg

    url = urllib.parse.urlsplit(env["DATABASE_URL"])
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres", query="").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # fmt: skip


def seed(n_matches: int, kind: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Two users per match with API tokens (and legal decks for Commandeer), through the ORM."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    factions = ["stonehold", "tidewardens", "cinder-legion", "veilborn"]
    User = get_user_model()
    pairs = []
    run = uuid.uuid4().hex[:6]
    for i in range(n_matches):
        pair = []
        for side in (0, 1):
            user = User.objects.create_user(f"bench-{run}-{i}-{side}", password=None)
            info: dict[str, Any] = {"token": Token.objects.create(user=user).key, "deck_id": None}
            if kind == "commandeer":
                from matches.tests.commandeer_fixtures import legal_deck

                info["deck_id"] = legal_deck(user, factions[(i + side) % 4]).pk
            pair.append(info)
        pairs.append((pair[0], pair[1]))
    return pairs


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def pooled_url(url: str) -> str:
    """The database URL with psycopg's connection pool on (dj-database-url passes `pool` to OPTIONS)."""
    if (
        not url.startswith(("postgres://", "postgresql://"))
        or "pool=" in url
        or not has_module("psycopg_pool")
    ):
        return url
    return url + ("&" if "?" in url else "?") + "pool=true"


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a process and its descendants, from /proc (0.0 where unavailable)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    todo, total = [pid], 0.0
    while todo:
        cur = todo.pop()
        total += stats.get(cur, (0, 0.0))[1]
        todo += [child for child, (ppid, _) in stats.items() if ppid == cur]
    return total


def cpu_by_command(*names: str) -> float:
    """CPU seconds (user + system) of every process whose command name is one of `names` (e.g. postgres)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if not entry.name.isdigit():
            continue
        try:
            comm, rest = (entry / "stat").read_text().split(" (", 1)[1].rsplit(")", 1)
        except (OSError, ValueError):
            continue
        if comm in names:
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def start_server(env: dict[str, str], port: int, server: str, workers: int) -> subprocess.Popen[bytes]:
    """uvicorn (one port, `workers` processes) or daphne (one process on this port)."""
    if server == "uvicorn":
        cmd = ["-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
               "--no-access-log", "--log-level", "warning", "config.asgi:application"]  # fmt: skip
    else:
        cmd = ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    proc = subprocess.Popen(
        [sys.executable, *cmd], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    client = Client(f"http://127.0.0.1:{port}")
    for _ in range(300):
        try:
            if client.call("GET", "/api/health/")[0] == 200:
                time.sleep(1.0 if workers > 1 else 0)  # let every worker finish booting
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{server} did not start")


def drive_match(base: str, a: dict[str, Any], b: dict[str, Any], kind: str, max_actions: int, seed: int,
                out: dict[str, Any], deadline: float = float("inf")) -> None:  # fmt: skip
    """Create, join, start and play one match with random legal actions; record submit latencies."""
    rng = random.Random(seed)
    t_setup = time.perf_counter()
    ca, cb = Client(base, a["token"]), Client(base, b["token"])
    body: dict[str, Any] = {
        "kind": kind,
        "deck_id": a["deck_id"],
        "time_control": {"initial_s": 600, "increment_s": 10},
        "auto_start": False,  # the creator starts it (the API's default starts it when the last seat is taken)
    }
    body["rules_config"] = {"turn_limit": 30} if kind == "commandeer" else {"target": 10**6}
    status, m, _ = ca.call("POST", "/api/matches/", body)
    assert status == 201, m
    mid = m["id"]
    assert cb.call("POST", f"/api/matches/{mid}/join/", {"deck_id": b["deck_id"]})[0] == 200
    status, state, _ = ca.call("POST", f"/api/matches/{mid}/start/")
    assert status == 200, state
    out["setup"].append(time.perf_counter() - t_setup)
    out["matches"] += 1
    clients = {0: ca, 1: cb}
    seen = {0: state["state_version"], 1: -1}  # the version each player's client last saw
    holder = 0  # whose view `state` is (the creator started the match)
    applied = 0
    while applied < max_actions and time.perf_counter() < deadline:
        current = state.get("current_players") or []
        if state["status"] != "active" or not current:
            break
        who = current[0]
        mover = clients[who]
        if holder != who:  # the other player's client catches up (a browser gets this over its socket)
            query = f"?log_since={seen[who]}" if seen[who] >= 0 else ""
            status, state, _ = mover.call("GET", f"/api/matches/{mid}/state/{query}")
            holder, seen[who] = who, state["state_version"]
            if state["status"] != "active" or not state["legal_actions"]:
                continue
        choice = rng.choice(state["legal_actions"])["action"]
        status, res, elapsed = mover.call(
            "POST", f"/api/matches/{mid}/actions/",
            {"action": choice, "state_version": state["state_version"], "idempotency_key": uuid.uuid4().hex},
        )  # fmt: skip
        if status == 200:
            applied += 1
            out["submit"].append(elapsed)
            state = res["state"]  # the mover's own view after the action: no second request
            seen[who] = state["state_version"]
        else:
            out["errors"].append(status)
            holder = -1
    out["actions"] += applied


def play_until(base: str, a: dict[str, Any], b: dict[str, Any], kind: str, max_actions: int, seed: int,
               out: dict[str, Any], deadline: float) -> None:  # fmt: skip
    """One table kept busy: the same two players start a new match whenever theirs ends, until `deadline`."""
    k = 0
    while time.perf_counter() < deadline:
        drive_match(base, a, b, kind, max_actions, seed * 1000 + k, out, deadline)
        k += 1


def in_process(kind: str, actions: int, seed_: int = 1, profile: int = 0) -> dict[str, Any]:
    """Per-submit cost inside the process (no HTTP): ms and SQL queries of `action_submit`; with `profile`,
    cProfile's top `profile` functions by cumulative time over those submits, printed on stdout."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    from matches import selectors
    from matches.services.lobby import match_create, match_join, match_start
    from matches.services.notify import notify_match_changed
    from matches.services.submit import action_submit

    rng = random.Random(seed_)
    broadcast: list[float] = []  # after-commit broadcast: outside a server each call opens an event loop
    notify = notify_match_changed

    def timed_notify(match_id: int, version: int) -> None:
        t = time.perf_counter()
        notify(match_id, version)
        broadcast.append(time.perf_counter() - t)

    notify_match_changed = timed_notify  # type: ignore[assignment]
    times: list[float] = []
    cpu: list[float] = []  # this thread's CPU time: what a loaded machine disturbs least
    queries: list[int] = []
    stored: list[int] = []
    profiler = cProfile.Profile() if profile else None
    while len(times) < actions:
        a, b = seed(1, kind)[0]
        users = [Token.objects.get(key=x["token"]).user for x in (a, b)]
        body: dict[str, Any] = {"turn_limit": 30} if kind == "commandeer" else {"target": 10**6}
        m = match_create(user=users[0], kind=kind, deck_id=a["deck_id"], rules_config=body,
                                  time_control={"initial_s": 600, "increment_s": 10})  # fmt: skip
        match_join(match_id=m.pk, user=users[1], deck_id=b["deck_id"])
        match_start(match_id=m.pk, user=users[0])
        while len(times) < actions:
            match, _ = selectors.match_get_for_viewer(match_id=m.pk, user=users[0])
            if match.status != "active":
                break
            mover = users[selectors.match_snapshot(match=match, you=None)["current_players"][0]]
            match, you = selectors.match_get_for_viewer(match_id=m.pk, user=mover)
            snap = selectors.match_snapshot(match=match, you=you)
            choice = rng.choice(snap["legal_actions"])["action"]
            with CaptureQueriesContext(connection) as ctx:
                t0, c0 = time.perf_counter(), time.thread_time()
                if profiler is not None:
                    profiler.enable()
                action_submit(match_id=m.pk, user=mover, action_json=choice,
                                       state_version=snap["state_version"], idempotency_key=uuid.uuid4().hex)  # fmt: skip
                if profiler is not None:
                    profiler.disable()
                times.append(time.perf_counter() - t0)
                cpu.append(time.thread_time() - c0)
            queries.append(sum(1 for q in ctx.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")))
            row = type(match).objects.filter(pk=m.pk).values_list("state", flat=True).get()
            stored.append(len(json.dumps(row)))
    notify_match_changed = notify  # type: ignore[assignment]
    if profiler is not None:
        print(f"profile of {len(times)} submits (cumulative time; the profiler slows each call):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(profile)
    return {
        "submits": len(times),
        "broadcast_ms_p50": round(1000 * percentile(broadcast, 50), 2),
        "ms": {p: round(1000 * percentile(times, q), 2) for p, q in (("p50", 50), ("p95", 95), ("p99", 99))},
        "cpu_ms": {p: round(1000 * percentile(cpu, q), 2) for p, q in (("p50", 50), ("p95", 95))},
        "queries": {"max": max(queries), "p50": percentile([float(q) for q in queries], 50)},
        "stored_state_bytes": {"max": max(stored), "last": stored[-1]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="a running server; omitted: start daphne on PostgreSQL + Redis")
    ap.add_argument("--matches", type=int, default=int(os.environ.get("BENCH_MATCHES", 16)),
                    help="tables in play at once (16 keep 2 cores busy)")  # fmt: skip
    ap.add_argument("--actions", type=int, default=int(os.environ.get("BENCH_ACTIONS", 300)),
                    help="at most this many per match (random play ends a Commandeer match after ~100)")  # fmt: skip
    ap.add_argument("--duration", type=float, default=float(os.environ.get("BENCH_DURATION", 20)),
                    help="seconds of play: each table starts a new match when its match ends, so N matches "
                    "are always in play (0: each table plays one match, however long)")  # fmt: skip
    ap.add_argument("--kind", default="commandeer")
    ap.add_argument("--port", type=int, default=0, help="port of the server it starts (0: a free port)")
    ap.add_argument("--server", choices=["uvicorn", "daphne"], default=None,
                    help="ASGI server to start (default: uvicorn when installed, else daphne)")  # fmt: skip
    ap.add_argument("--workers", type=int, default=2, help="server processes (daphne: one port each)")
    ap.add_argument(
        "--in-process", type=int, default=60, help="submits measured in-process afterwards (0: none)"
    )
    ap.add_argument("--root", default=None,
                    help="the checkout whose code the server (and the in-process part) runs: an older commit "
                    "measured with this same harness (default: this one)")  # fmt: skip
    ap.add_argument("--profile", type=int, default=0,
                    help="print cProfile's top N functions of the in-process submits (0: no profile)")  # fmt: skip
    args = ap.parse_args()
    global ROOT
    ROOT = Path(args.root).resolve() if args.root else ROOT
    server = args.server or ("uvicorn" if has_module("uvicorn") else "daphne")

    env = dict(os.environ)
    env["DATABASE_URL"] = pooled_url(env.get("DATABASE_URL") or DEFAULT_DB)
    env.setdefault("REDIS_URL", DEFAULT_REDIS)
    if "pool=true" in env["DATABASE_URL"]:
        env["DB_CONN_MAX_AGE"] = "0"  # Django's pool replaces persistent connections
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", SECRET_KEY=env.get("SECRET_KEY", "bench-key"),
               CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="WARNING", DEBUG="0")  # fmt: skip
    if args.kind != "commandeer":
        env["MATCHES_EXTRA_GAMES"] = "matches.tests.fakegame"
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    procs: list[subprocess.Popen[bytes]] = []
    if args.url is None:
        prepare_database(env)
    pairs = seed(args.matches + WARMUP_MATCHES, args.kind)
    warmup, pairs = pairs[:WARMUP_MATCHES], pairs[WARMUP_MATCHES:]
    if args.url is None:
        bases = []
        for i in range(1 if server == "uvicorn" else max(1, args.workers)):
            port = args.port + i if args.port else free_port()
            procs.append(start_server(env, port, server, max(1, args.workers)))
            bases.append(f"http://127.0.0.1:{port}")
    else:
        bases = [args.url.rstrip("/")]
    base = bases[0]
    try:
        # Untimed warm-up: every server process imports and caches what a first request needs.
        scratch: dict[str, Any] = {"submit": [], "errors": [], "actions": 0, "setup": [], "matches": 0}
        warmers = [
            threading.Thread(target=drive_match, args=(bases[i % len(bases)], a, b, args.kind, 12, 10**6 + i, scratch))
            for i, (a, b) in enumerate(warmup)
        ]  # fmt: skip
        for t in warmers:
            t.start()
        for t in warmers:
            t.join()
        out: dict[str, Any] = {"submit": [], "errors": [], "actions": 0, "setup": [], "matches": 0}
        health: list[float] = []
        done = threading.Event()

        def probe() -> None:
            c = Client(base)
            while not done.is_set():
                health.append(c.call("GET", "/api/health/")[2])
                time.sleep(PROBE_INTERVAL_S)

        prober = threading.Thread(target=probe, daemon=True)
        cpu0 = sum(tree_cpu_s(p.pid) for p in procs)
        services0 = cpu_by_command("postgres", "redis-server")
        client0 = time.process_time()
        t0 = time.perf_counter()
        if args.duration > 0:
            target, extra = play_until, (t0 + args.duration,)
        else:
            target, extra = drive_match, ()
        threads = [
            threading.Thread(
                target=target, args=(bases[i % len(bases)], a, b, args.kind, args.actions, i, out, *extra)
            )
            for i, (a, b) in enumerate(pairs)
        ]
        prober.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        done.set()
        prober.join(5)
        server_cpu = sum(tree_cpu_s(p.pid) for p in procs) - cpu0
        client_cpu = time.process_time() - client0
        services_cpu = cpu_by_command("postgres", "redis-server") - services0
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)
    inproc = in_process(args.kind, args.in_process, profile=args.profile) if args.in_process > 0 else None
    ms = lambda xs, p: round(1000 * percentile(xs, p), 2)  # noqa: E731
    result = {
        "bench": "online_play",
        "root": ROOT.name,  # the checkout measured (`--root`)
        "kind": args.kind,
        "matches": args.matches,
        "actions": out["actions"],
        "wall_s": round(wall, 2),
        "matches_started": out["matches"],
        "setup_ms_p50": ms(out["setup"], 50),
        "actions_per_s": round(out["actions"] / wall, 1) if wall else 0,
        "submit_ms": {
            "p50": ms(out["submit"], 50),
            "p95": ms(out["submit"], 95),
            "p99": ms(out["submit"], 99),
        },
        "health_ms": {"p50": ms(health, 50), "p95": ms(health, 95), "p99": ms(health, 99)},
        "health_samples": len(health),
        "submit_p95_over_health_p95": round(percentile(out["submit"], 95) / percentile(health, 95), 2)
        if health and out["submit"]
        else None,
        "server_cpu_ms_per_action": round(1000 * server_cpu / out["actions"], 2)
        if procs and out["actions"]
        else None,
        "client_cpu_ms_per_action": round(1000 * client_cpu / out["actions"], 2) if out["actions"] else None,
        "db_redis_cpu_ms_per_action": round(1000 * services_cpu / out["actions"], 2)
        if out["actions"]
        else None,
        "in_process": inproc,
        "submit_errors": len(out["errors"]),
        "database": env["DATABASE_URL"].split("://")[0],
        "redis": bool(env.get("REDIS_URL")),
        "db_pool": "pool=true" in env["DATABASE_URL"],
        "server": f"{server} ({max(1, args.workers)} worker process(es))" if procs else base,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "python": f"{sys.executable} {platform.python_version()}",
        "http_threads": int(env.get("HTTP_THREADS", 2)),
    }
    print(
        f"online play: {args.matches} concurrent {args.kind} matches, {out['actions']} actions in {wall:.1f}s "
        f"({out['matches']} matches started; create + join + start p50 {result['setup_ms_p50']} ms)"
    )
    print(f"  throughput      {result['actions_per_s']} actions/s")
    print(f"  submit latency  p50 {result['submit_ms']['p50']} ms  p95 {result['submit_ms']['p95']} ms  "
          f"p99 {result['submit_ms']['p99']} ms")  # fmt: skip
    print(f"  /api/health/    p50 {result['health_ms']['p50']} ms  p95 {result['health_ms']['p95']} ms  "
          f"p99 {result['health_ms']['p99']} ms  (same load)")  # fmt: skip
    if result["server_cpu_ms_per_action"]:
        print(f"  server CPU      {result['server_cpu_ms_per_action']} ms per action (state read + submit + "
              f"health probes, all server processes: {2000 / result['server_cpu_ms_per_action']:.0f} actions/s "
              "would fill 2 cores)")  # fmt: skip
    if out["actions"]:
        print(f"  other CPU       load generator {result['client_cpu_ms_per_action']} ms, PostgreSQL + Redis "
              f"{result['db_redis_cpu_ms_per_action']} ms per action (they share the 2 cores)")  # fmt: skip
    print(
        f"  ratio           submit p95 / health p95 = {result['submit_p95_over_health_p95']}  (target <= 3)"
    )
    if inproc:
        print(f"  in-process      submit p50 {inproc['ms']['p50']} ms  p95 {inproc['ms']['p95']} ms "
              f"(CPU p50 {inproc['cpu_ms']['p50']} ms; of it the broadcast p50 {inproc['broadcast_ms_p50']} ms), "
              f"{inproc['queries']['max']} SQL queries max (BEGIN/COMMIT not counted), "
              f"stored state <= {inproc['stored_state_bytes']['max']} bytes")  # fmt: skip
    print(f"  server          {result['server']}, {result['http_threads']} HTTP thread(s) each, db pool "
          f"{result['db_pool']}, load avg {result['load_avg']}, {result['python']}")  # fmt: skip
    if out["errors"]:
        print(f"  submit errors   {len(out['errors'])} (status codes {sorted(set(out['errors']))})")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
