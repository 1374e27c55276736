"""Benchmark of the Commandeer engine: full random-vs-random matches per second on one core, median
microseconds of legal_actions and apply, the cost of clone, the same clone and apply in simulation mode
(``GameState.simulation()``: no event log, what the AI's search uses), and a final JSON line.

Run: ``.venv/bin/python bench/commandeer_engine.py [--games N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from matches.engine import new_match
from matches.engine.agents import RandomAgent
from matches.engine.decks import SAMPLE_CARDS_RELATIVE, default_decks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    decks = list(default_decks().values())
    if not decks:
        raise SystemExit(f"{SAMPLE_CARDS_RELATIVE} is missing")
    n = len(decks)

    # 1) throughput: whole matches, agents included
    actions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(args.games):
        g = new_match(decks[i % n], decks[(i + 1 + i // n) % n], seed=args.seed + i)
        bots = [RandomAgent(Random(i * 2)), RandomAgent(Random(i * 2 + 1))]
        while not g.is_terminal():
            p = g.current_players()[0]
            g.apply_unchecked(bots[p].choose(g, p))
            actions += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    matches_per_second = args.games / seconds

    # 2) per-call timings on positions met in play
    la_times: list[float] = []
    ap_times: list[float] = []
    cl_times: list[float] = []
    sim_cl_times: list[float] = []
    sim_ap_times: list[float] = []
    clock = time.perf_counter
    for i in range(max(20, args.games // 10)):
        g = new_match(decks[i % n], decks[(i + 1) % n], seed=10_000 + i)
        sim = g.simulation()
        rng = Random(i)
        while not g.is_terminal():
            p = g.current_players()[0]
            t0 = clock()
            acts = g.legal_actions(p)
            t1 = clock()
            la_times.append(t1 - t0)
            real = acts[:-1] or acts
            a = real[rng.randrange(len(real))]
            if len(cl_times) < 5000:
                t0 = clock()
                g.clone()
                cl_times.append(clock() - t0)
            t0 = clock()
            g.apply_unchecked(a)
            ap_times.append(clock() - t0)
            if len(sim_cl_times) < 5000:
                t0 = clock()
                sim.clone()
                sim_cl_times.append(clock() - t0)
            t0 = clock()
            sim.apply_unchecked(a)
            sim_ap_times.append(clock() - t0)

    result = {
        "bench": "commandeer_engine",
        "games": args.games,
        "matches_per_second": round(matches_per_second, 1),
        "matches_per_cpu_second": round(args.games / cpu_seconds, 1) if cpu_seconds else None,
        "actions_per_second": round(actions / seconds, 1),
        "average_actions": round(actions / args.games, 1),
        "legal_actions_median_us": round(statistics.median(la_times) * 1e6, 1),
        "apply_median_us": round(statistics.median(ap_times) * 1e6, 1),
        "clone_median_us": round(statistics.median(cl_times) * 1e6, 1),
        "sim_apply_median_us": round(statistics.median(sim_ap_times) * 1e6, 1),
        "sim_clone_median_us": round(statistics.median(sim_cl_times) * 1e6, 1),
        "target_matches_per_second": 100,
    }
    print(f"random-vs-random matches/s (one core, wall clock): {result['matches_per_second']}")
    print(f"random-vs-random matches per CPU second: {result['matches_per_cpu_second']}")
    print(f"actions/s: {result['actions_per_second']}  (avg {result['average_actions']} actions per match)")
    print(f"legal_actions median: {result['legal_actions_median_us']} µs")
    print(f"apply median: {result['apply_median_us']} µs")
    print(f"clone median: {result['clone_median_us']} µs")
    print(
        f"simulation mode (no event log): apply median {result['sim_apply_median_us']} µs, clone median "
        f"{result['sim_clone_median_us']} µs"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
