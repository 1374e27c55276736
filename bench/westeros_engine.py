"""Benchmark of the Westeros engine: full 6-player random games per second on one core.

Prints games/s, median microseconds of `legal_actions` and `apply`, and, in simulation mode (the event log
off, as the AI's search runs), the median microseconds of `clone`, `apply_unchecked` and `determinize`;
then one JSON line.
Usage: python bench/westeros_engine.py [games] [seed]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from boardgame.engine.config import RulesConfig
from boardgame.engine.data import load_default_game_data
from boardgame.engine.game import new_game


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    data = load_default_game_data()
    config = RulesConfig(event_log=False)
    # 1) throughput: whole games, nothing timed inside
    t0 = time.perf_counter()
    decisions = 0
    for g in range(games):
        st = new_game(data, player_count=6, seed=seed + g, config=config)
        rng = Random(seed + g)
        while not st.is_terminal():
            p = st.current_players()[0]
            st.apply_unchecked(rng.choice(st.legal_actions(p)))
            decisions += 1
    secs = time.perf_counter() - t0
    # 2) per-call timings on a few more games
    la: list[float] = []
    ap: list[float] = []
    pc = time.perf_counter
    for g in range(max(2, games // 5)):
        st = new_game(data, player_count=6, seed=10_000 + g, config=config)
        rng = Random(g)
        while not st.is_terminal():
            p = st.current_players()[0]
            t = pc()
            acts = st.legal_actions(p)
            la.append(pc() - t)
            a = rng.choice(acts)
            t = pc()
            st.apply(a)
            ap.append(pc() - t)
    # 3) simulation mode (event_log=False, what the AI's search does): clone, unchecked apply, determinize
    cl: list[float] = []
    au: list[float] = []
    de: list[float] = []
    for g in range(max(2, games // 5)):
        st = new_game(data, player_count=6, seed=20_000 + g, config=config)
        rng = Random(g)
        while not st.is_terminal():
            p = st.current_players()[0]
            a = rng.choice(st.legal_actions(p))
            t = pc()
            c = st.clone()
            cl.append(pc() - t)
            if len(cl) % 10 == 0:
                t = pc()
                st.determinize(p, rng)
                de.append(pc() - t)
            t = pc()
            c.apply_unchecked(a)
            au.append(pc() - t)
            st = c
    result = {
        "bench": "westeros_engine",
        "players": 6,
        "games": games,
        "games_per_second": round(games / secs, 2),
        "decisions_per_game": round(decisions / games, 1),
        "decisions_per_second": round(decisions / secs, 1),
        "legal_actions_median_us": round(statistics.median(la) * 1e6, 1),
        "apply_checked_median_us": round(statistics.median(ap) * 1e6, 1),
        "sim_clone_median_us": round(statistics.median(cl) * 1e6, 1),
        "sim_apply_unchecked_median_us": round(statistics.median(au) * 1e6, 1),
        "sim_determinize_median_us": round(statistics.median(de) * 1e6, 1),
    }
    print(f"6-player random games per second: {result['games_per_second']}")
    print(f"decisions per game: {result['decisions_per_game']}  per second: {result['decisions_per_second']}")
    print(f"median legal_actions: {result['legal_actions_median_us']} us")
    print(f"median apply (checked): {result['apply_checked_median_us']} us")
    print(
        f"simulation mode (no event log): median clone {result['sim_clone_median_us']} us, apply_unchecked "
        f"{result['sim_apply_unchecked_median_us']} us, determinize {result['sim_determinize_median_us']} us"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
