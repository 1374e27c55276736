"""Capacity of the production topology (deploy/cluster.py): one web process against two, in the same run.

It starts the cluster (nginx, two uvicorn processes, a `celery` and an `ai` worker, one beat) on a fresh
PostgreSQL database and a private redis-server, then measures two phases through the proxy:

1. one web process (web2 stopped: nginx sends everything to web1), 2. both web processes.

In each phase: N tables of two people play Commandeer with random legal actions as fast as the server
answers (`bench/online_play.py`'s players), K tables play against the `normal` AI (a person's random moves;
the AI's moves on the `ai` worker), and S spectator WebSockets sit on a match. It prints actions/s, AI
decisions/s, the sockets each web process holds and what they cost in memory, and the resident memory
(RSS) of every process; then the two-to-one ratio, and one JSON line. The machine's other load (load
average) is printed too: on a shared machine the absolute figures move, the ratio much less.

    .venv/bin/python bench/cluster.py                          # 12 + 2 tables, 200 sockets, 20 s a phase
    .venv/bin/python bench/cluster.py --tables 24 --duration 60 --sockets 1000

Needs DATABASE_URL (a PostgreSQL server: a database `bench_cluster` is created on it), nginx and redis-server.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.online_play import Client, play_until, seed, tree_cpu_s  # noqa: E402
from deploy.cluster import Cluster, RedisServer, drop_database, fresh_database  # noqa: E402


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its descendants (a Celery worker's pool children), in KB."""
    total, todo = 0, [pid]
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    while todo:
        cur = todo.pop()
        try:
            for line in Path(f"/proc/{cur}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
        todo += children.get(cur, [])
    return total


def established(port: int) -> int:
    """TCP connections in state ESTABLISHED whose local port is `port` (IPv4)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
            count += 1
    return count


def ai_decisions(db_url: str) -> int:
    import psycopg

    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT count(*) FROM matches_actionlog WHERE source = 'ai'").fetchone()
    return int(row[0]) if row else 0


def play_vs_ai(
    base: str, player: dict[str, Any], until: float, rng: random.Random, out: dict[str, Any]
) -> None:
    """A person against the `normal` AI: their random legal moves; a new match when one ends."""
    c = Client(base, player["token"])
    mid = None
    while time.monotonic() < until:
        if mid is None:
            body = {"kind": "commandeer", "deck_id": player["deck_id"], "vs_ai": True, "ai_agent": "normal",
                    "rules_config": {"turn_limit": 30}}  # fmt: skip
            status, m, _ = c.call("POST", "/api/matches/", body)
            if status not in (200, 201):
                out["errors"].append((status, (m or {}).get("code")))
                time.sleep(1)
                continue
            mid = m["id"]
        status, snap, _ = c.call("GET", f"/api/matches/{mid}/state/")
        if status != 200 or snap["status"] != "active":
            mid = None
            continue
        if 0 in snap["current_players"] and snap["legal_actions"]:
            action = rng.choice(snap["legal_actions"])["action"]
            body = {
                "action": action,
                "state_version": snap["state_version"],
                "idempotency_key": os.urandom(8).hex(),
            }
            status, res, _ = c.call("POST", f"/api/matches/{mid}/actions/", body)
            if status != 200:
                out["errors"].append((status, (res or {}).get("code")))
        else:
            time.sleep(0.1)


def open_sockets(base: str, match_id: int, n: int, stack: contextlib.ExitStack) -> list[Any]:
    """`n` spectator sockets on one match through the proxy, each once its first snapshot arrived."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
    from websockets.exceptions import ConnectionClosed

    socks = []
    for _ in range(n):
        ws = stack.enter_context(connect(url, origin=base, open_timeout=10, max_size=2**22))  # type: ignore[arg-type]
        try:
            ws.recv(timeout=10)  # the first snapshot: the consumer has joined its groups
        except ConnectionClosed:  # refused (e.g. a cap on sockets per viewer): not held, so not counted
            continue
        socks.append(ws)
    return socks


def phase(cluster: Cluster, name: str, pairs: list[Any], ai_players: list[Any], spectate: int,
          sockets: int, duration: float, db_url: str) -> dict[str, Any]:  # fmt: skip
    webs = [n for n in cluster.procs if n.startswith("web") and cluster.procs[n].alive()]
    ports = {n: cluster.web_ports[int(n[3:]) - 1] for n in webs}
    conn0 = {n: established(p) for n, p in ports.items()}
    rss0 = {n: rss_kb(cluster.procs[n].pid or 0) for n in webs}
    closer = contextlib.ExitStack()
    socks = open_sockets(cluster.url, spectate, sockets, closer)
    refused = sockets - len(socks)
    time.sleep(1)
    held = {n: established(p) - conn0[n] for n, p in ports.items()}
    rss1 = {n: rss_kb(cluster.procs[n].pid or 0) for n in webs}
    # Memory per socket only where enough sockets landed for the difference to mean something.
    per_socket_kb = {n: round((rss1[n] - rss0[n]) / held[n], 1) if held[n] >= 20 else None for n in webs}
    out: dict[str, Any] = {"submit": [], "errors": [], "actions": 0, "setup": [], "matches": 0}
    ai_out: dict[str, Any] = {"errors": []}
    ai0 = ai_decisions(db_url)
    cpu0 = {n: tree_cpu_s(p.pid) for n, p in cluster.procs.items() if p.alive() and p.pid}
    t0 = time.perf_counter()
    deadline = t0 + duration
    threads = [
        threading.Thread(target=play_until, args=(cluster.url, a, b, "commandeer", 300, i, out, deadline))
        for i, (a, b) in enumerate(pairs)
    ]
    threads += [
        threading.Thread(target=play_vs_ai, args=(cluster.url, p, time.monotonic() + duration, random.Random(i), ai_out))
        for i, p in enumerate(ai_players)
    ]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    ai1 = ai_decisions(db_url)
    cpu = {n: tree_cpu_s(cluster.procs[n].pid or 0) - c for n, c in cpu0.items()}
    web_cpu = sum(c for n, c in cpu.items() if n.startswith("web"))
    ai_cpu = sum(c for n, c in cpu.items() if n.startswith("worker-ai"))
    still_open = sum(1 for s in socks if s.close_code is None)
    closer.close()
    rss = {n: rss_kb(p.pid or 0) // 1024 for n, p in cluster.procs.items() if p.alive()}
    return {
        "phase": name,
        "web_processes": len(webs),
        "actions_per_s": round(out["actions"] / wall, 1),
        "ai_decisions_per_s": round((ai1 - ai0) / wall, 1),
        # CPU per unit of work: what the sizing model uses (independent of what else loads the machine).
        "web_cpu_ms_per_action": round(1000 * web_cpu / out["actions"], 2) if out["actions"] else None,
        "ai_cpu_ms_per_decision": round(1000 * ai_cpu / (ai1 - ai0), 1) if ai1 > ai0 else None,
        "nginx_cpu_ms_per_action": round(1000 * cpu.get("nginx", 0.0) / out["actions"], 2)
        if out["actions"]
        else None,
        "submit_ms_p95": round(1000 * sorted(out["submit"])[int(0.95 * (len(out["submit"]) - 1))], 1)
        if out["submit"]
        else None,
        "errors": len(out["errors"]) + len(ai_out["errors"]),
        "error_codes": sorted({str(e) for e in out["errors"] + ai_out["errors"]})[:10],
        "sockets_per_process": held,
        "sockets_refused": refused,
        "sockets_open_at_end": still_open,
        "kb_per_socket": per_socket_kb,
        "rss_mb": rss,
        "wall_s": round(wall, 1),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=12, help="tables of two people playing at once")
    ap.add_argument("--ai-tables", type=int, default=2, help="tables of a person against the AI")
    ap.add_argument("--sockets", type=int, default=200, help="spectator WebSockets held open in each phase")
    ap.add_argument("--duration", type=float, default=20, help="seconds of play per phase")
    args = ap.parse_args()
    pg = os.environ.get("DATABASE_URL")
    if not pg:
        raise SystemExit("bench/cluster.py needs DATABASE_URL (a PostgreSQL server)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    db_url = fresh_database(pg, "bench_cluster")
    redis = RedisServer(tmp / "redis").start()
    env = {k: v for k, v in os.environ.items() if not k.endswith("REDIS_URL")}
    env.update(DATABASE_URL=db_url, REDIS_URL=redis.url(0))
    extra = {"SIGNUP_RATE": "100000/hour", "MATCHES_CREATE_RATE": "100000/min", "LOG_LEVEL": "WARNING",
             "AI_BUDGET_SCALE": os.environ.get("AI_BUDGET_SCALE", "1.0"), "MATCHES_MAX_OPEN_PER_USER": "1000"}  # fmt: skip
    cluster = Cluster(env, var_dir=tmp / "var", extra_env=extra, echo=lambda line: None)
    results = []
    try:
        cluster.start()
        # Players and decks through the ORM (bench/online_play.seed), on the cluster's database.
        os.environ.update(DATABASE_URL=db_url, DJANGO_SETTINGS_MODULE="config.settings.test", REDIS_URL="")
        os.environ.setdefault("SECRET_KEY", "bench-cluster")
        n_pairs = args.tables + args.ai_tables + 1
        pairs = seed(n_pairs, "commandeer")
        humans, ai_players, watch = pairs[: args.tables], [p[0] for p in pairs[args.tables : -1]], pairs[-1]
        c = Client(cluster.url, watch[0]["token"])
        status, m, _ = c.call("POST", "/api/matches/", {"kind": "commandeer", "deck_id": watch[0]["deck_id"],
                                                        "vs_ai": True, "ai_agent": "easy"})  # fmt: skip
        assert status == 201, m
        cluster.stop_process("web2")  # phase 1: nginx finds web2 refusing and sends everything to web1
        results.append(
            phase(
                cluster, "one web process", humans, ai_players, m["id"], args.sockets, args.duration, db_url
            )
        )
        cluster.start_process("web2")
        # nginx left web2 out for fail_timeout (5 s) after its last refused connection: wait that out, so
        # the second phase's sockets and requests are spread over both processes.
        time.sleep(6)
        for _ in range(20):  # completed requests put web2 back in rotation in each nginx worker (a
            Client(cluster.url).call("GET", "/healthz")  # WebSocket only completes when it closes)
        results.append(
            phase(
                cluster, "two web processes", humans, ai_players, m["id"], args.sockets, args.duration, db_url
            )
        )
    finally:
        cluster.stop()
        redis.stop()
        drop_database(db_url)
    shutil.rmtree(tmp, ignore_errors=True)  # kept (with every process's log) only when the run failed
    one, two = results
    ratio = round(two["actions_per_s"] / one["actions_per_s"], 2) if one["actions_per_s"] else None
    print(f"cluster capacity: {args.tables} tables of two people + {args.ai_tables} against the AI, "
          f"{args.sockets} spectator sockets, {args.duration:.0f} s a phase, {os.cpu_count()} cores")  # fmt: skip
    for r in results:
        print(f"  {r['phase']:<18} {r['actions_per_s']:>7} actions/s  {r['ai_decisions_per_s']:>6} AI decisions/s  "
              f"submit p95 {r['submit_ms_p95']} ms  errors {r['errors']}  load avg {r['load_avg']}")  # fmt: skip
        print(f"  {'':<18} sockets per process {r['sockets_per_process']} (open at the end: "
              f"{r['sockets_open_at_end']}, refused: {r['sockets_refused']}), KB per socket {r['kb_per_socket']}")  # fmt: skip
        print(f"  {'':<18} CPU: web {r['web_cpu_ms_per_action']} ms per action (all web processes), nginx "
              f"{r['nginx_cpu_ms_per_action']} ms per action, ai worker {r['ai_cpu_ms_per_decision']} ms per AI decision")  # fmt: skip
        print(f"  {'':<18} RSS MB {r['rss_mb']}")
    print(f"  ratio two/one web processes: {ratio}x actions/s")
    print(json.dumps({"bench": "cluster", "tables": args.tables, "ai_tables": args.ai_tables,
                      "sockets": args.sockets, "duration_s": args.duration, "cores": os.cpu_count(),
                      "ratio_actions_two_over_one": ratio, "phases": results,
                      "database": urllib.parse.urlsplit(pg).scheme}))  # fmt: skip


if __name__ == "__main__":
    main()
