"""Seat balance of the Westeros AI: tables of 3-6 houses (six by default) where every house plays the same
level, and how often each house wins (with Wilson 95% intervals), how many castles it holds at the end and
how long games last.

The issue's target: in six-house tables of ``hard`` AIs every house wins at least 8% (par 16.7%); for other
sizes the bench prints the same line at half of par (3 houses: 16.7%, 4: 12.5%, 5: 10%). Level ``policy``
is the search's rollout policy alone (`heuristics.policy_step`: order plans and `policy_action`, with noise):
it costs no search, so a thousand tables take minutes, and the search's tables inherit its imbalance.

Run: ``.venv/bin/python bench/westeros_balance.py [--level policy|greedy|hard|...] [--players 3-6]
[--games N] [--seed S] [--jobs J] [--budget-scale F] [--seat-prior on|off] [--log FILE]``. Table ``i`` is dealt with
seed ``seed + i``; with ``--log`` every table is written down as it ends and a run stopped half way resumes
where it stopped (lines of another level, table size, budget scale or seat prior are left alone).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ai_strength import wilson
from boardgame.engine.agents import AGENTS
from boardgame.engine.ai_params import DEFAULT_PARAMS
from boardgame.engine.config import RulesConfig
from boardgame.engine.data import GameData, load_default_game_data
from boardgame.engine.game import new_game
from boardgame.engine.heuristics import policy_step

_DATA: list[GameData] = []  # loaded once per process


def play_table(args: tuple[str, int, float, float, bool, int]) -> dict[str, Any]:
    level, seed, scale, noise, seat_prior, players = args
    if not _DATA:
        _DATA.append(load_default_game_data())
    params = replace(DEFAULT_PARAMS, seat_prior_on=seat_prior)
    st = new_game(_DATA[0], player_count=players, seed=seed, config=RulesConfig(event_log=False))
    rng = Random(seed * 7919 + 1)
    agents = {}
    if level != "policy":
        budget = params.level_budget_s.get(level, 0.0) * scale
        agents = {
            h: AGENTS[level](Random(seed * 31 + i), budget, params=params) for i, h in enumerate(st.houses)
        }
    decisions = 0
    while not st.is_terminal():
        assert st.pending is not None
        p = st.pending.players[0]
        if level == "policy":
            policy_step(st, rng, noise, params)
        else:
            st.apply_unchecked(agents[p].choose(st, p))
        decisions += 1
    ctl = st.controls()
    castles = Counter(ctl[a] for a in st.data.castle_areas if ctl[a] is not None)
    return {"seed": seed, "players": players, "houses": list(st.houses), "winner": st.winner, "rounds": st.round,
            "castles": dict(castles), "decisions": decisions}  # fmt: skip


def load_log(
    path: Path, level: str, scale: float, seat_prior: bool = False, players: int = 6
) -> dict[int, dict[str, Any]]:
    """Tables already played into `path` (one JSON line each) at this level, table size (lines without one
    are six-house tables), budget scale and evaluation (with or without the seat constants), by seed."""
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            r = json.loads(line)
            same = (
                r.get("level") == level and r.get("budget_scale") == scale and r.get("players", 6) == players
            )
            if same and bool(r.get("seat_prior", False)) == seat_prior:
                done[r["seed"]] = r
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="policy", choices=["policy", *sorted(AGENTS)])
    parser.add_argument(
        "--players", type=int, default=6, choices=range(3, 7), help="houses at the table (W-1.1)"
    )
    parser.add_argument("--games", type=int, default=int(os.environ.get("BALANCE_GAMES", "200")))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--budget-scale", type=float, default=1.0)
    parser.add_argument("--noise", type=float, default=0.6, help="the policy's noise (level policy)")
    parser.add_argument(
        "--seat-prior",
        choices=["on", "off"],
        default="on" if DEFAULT_PARAMS.seat_prior_on else "off",
        help="the evaluation's seat constants (WesterosAIParams.seat_prior); default: the engine's",
    )
    parser.add_argument(
        "--log",
        type=Path,
        help="a JSON-lines file: every table is appended as it ends, and tables it already holds (same level "
        "budget scale and seat prior) are not played again, so a long run can be stopped and resumed",
    )
    a = parser.parse_args()
    prior = a.seat_prior == "on"
    done = load_log(a.log, a.level, a.budget_scale, prior, a.players) if a.log else {}
    seeds = [a.seed + i for i in range(a.games)]
    jobs = [(a.level, s, a.budget_scale, a.noise, prior, a.players) for s in seeds if s not in done]
    start = time.perf_counter()
    by_seed = {s: done[s] for s in seeds if s in done}
    if a.log:  # one table at a time, each written down as it ends
        with ProcessPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(play_table, j) for j in jobs]
            for f in as_completed(futures):
                r = f.result()
                by_seed[r["seed"]] = r
                with a.log.open("a") as out:
                    line = {"level": a.level, "budget_scale": a.budget_scale, "seat_prior": prior, **r}
                    out.write(json.dumps(line) + "\n")
                print(f"table {r['seed']}: {r['winner']} in round {r['rounds']} ({len(by_seed)}/{len(seeds)})",
                      file=sys.stderr, flush=True)  # fmt: skip
    elif a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            for r in pool.map(play_table, jobs, chunksize=max(1, a.games // (8 * a.jobs))):
                by_seed[r["seed"]] = r
    else:
        for j in jobs:
            r = play_table(j)
            by_seed[r["seed"]] = r
    results = [by_seed[s] for s in seeds]
    seconds = time.perf_counter() - start
    houses = sorted(
        {h for r in results for h in r.get("houses", [])}
        | {h for r in results for h in r["castles"]}
        | {r["winner"] for r in results if r["winner"]}
    )
    wins = Counter(r["winner"] for r in results)
    n = len(results)
    print(f"{a.level} tables of {a.players} houses: {n} games, seed {a.seed}, budget scale {a.budget_scale}, "
          f"seat prior {a.seat_prior}, {seconds:.0f} s")  # fmt: skip
    print(f"{'house':<10} {'wins':>5} {'share':>6}  95% interval    castles at end")
    rows = {}
    for h in houses:
        low, high = wilson(wins[h], n)
        held = sum(r["castles"].get(h, 0) for r in results) / n
        rows[h] = {"wins": wins[h], "share": round(wins[h] / n, 4), "ci95": [round(low, 4), round(high, 4)],
                   "castles": round(held, 2)}  # fmt: skip
        print(f"{h:<10} {wins[h]:>5} {wins[h] / n:>6.3f}  [{low:.3f}, {high:.3f}]  {held:.2f}")
    rounds = sum(r["rounds"] for r in results) / n
    low_share = min((rows[h]["share"] for h in houses), default=0.0)
    target = 0.08 if a.players == 6 else round(0.5 / a.players, 4)  # the 8% at six: about half of par
    print(
        f"mean rounds {rounds:.2f}; lowest share {low_share:.3f} (par {1 / a.players:.3f}, target >= {target})"
    )
    print(json.dumps({"bench": "westeros_balance", "level": a.level, "players": a.players, "games": n, "seed": a.seed,
                      "budget_scale": a.budget_scale, "seat_prior": prior, "seconds": round(seconds, 1),
                      "houses": rows, "mean_rounds": round(rounds, 2),
                      "lowest_share": low_share, "target": target}))  # fmt: skip


if __name__ == "__main__":
    main()
