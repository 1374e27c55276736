"""Both engines against an older commit's, in one run on one interpreter: random Commandeer actions per
second and random 6-player Westeros games per second, for the old commit's code, this tree compiled (when
built: ``python -m matches.kit.compiled build``) and this tree as pure Python (``ENGINES_PURE=1``).

The old commit is extracted with ``git archive <rev> | tar -x`` into a temporary folder. Each round runs the
same seeded workload once per side, each in a fresh process, in a rotating order, so that the load of a
shared machine falls on all sides alike; a side's rate is counted in CPU seconds of its process (time
spent waiting for a core is not the engine's). The ratios are reported per round and as a geometric mean
with its 95% interval (Student's t over the rounds' log ratios).

``--game search`` (or ``all``) measures what the hard AI's budget buys: on positions of seeded random
Commandeer matches (every 7th decision with a choice), a fresh ``hard`` agent runs 24 simulations; the rate
is simulations per CPU-second of the searches alone. Its ratio is the ``--opponent-budget-factor`` of
``bench/ai_strength.py`` (old / new) that gives a ``hard`` opponent the simulations the old engine affords.

Run: ``.venv/bin/python bench/compare.py [--rev a90302e] [--rounds 5] [--games 40] [--westeros 4]
[--search 6] [--game commandeer|westeros|search|both|all]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs inside the tree under test (its own folder first on sys.path); uses only what both the old and the
# new engines offer: new_match / RandomAgent / default_decks and new_game with the event log off.
WORKER = r"""
import json, sys, time
from random import Random
sys.path.insert(0, ".")
kind, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if kind == "commandeer":
    from matches.engine import new_match
    from matches.engine.agents import RandomAgent
    from matches.engine.decks import default_decks
    decks = list(default_decks().values())
    n = len(decks)
    count = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(games):
        g = new_match(decks[i % n], decks[(i + 1 + i // n) % n], seed=seed + i)
        bots = [RandomAgent(Random(i * 2)), RandomAgent(Random(i * 2 + 1))]
        while not g.is_terminal():
            p = g.current_players()[0]
            g.apply_unchecked(bots[p].choose(g, p))
            count += 1
elif kind == "search":
    # The hard AI's search (what its budget buys): on positions of seeded random matches, every 7th
    # decision, a fresh `hard` agent runs a fixed number of simulations; the count is simulations.
    from matches.engine import new_match
    from matches.engine.agents import HardAgent, RandomAgent
    from matches.engine.decks import default_decks
    decks = list(default_decks().values())
    n = len(decks)
    count = 0
    cpu_total = 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(games):
        g = new_match(decks[i % n], decks[(i + 1 + i // n) % n], seed=seed + i)
        bots = [RandomAgent(Random(i * 2)), RandomAgent(Random(i * 2 + 1))]
        k = 0
        while not g.is_terminal():
            p = g.current_players()[0]
            k += 1
            if k % 7 == 0 and len(g.legal_actions(p)) > 1:
                t = time.process_time()
                HardAgent(Random(k), None, iterations=24).choose(g.clone(), p)
                cpu_total += time.process_time() - t
                count += 24
            g.apply_unchecked(bots[p].choose(g, p))
else:
    from boardgame.engine.config import RulesConfig
    from boardgame.engine.data import load_default_game_data
    from boardgame.engine.game import new_game
    data = load_default_game_data()
    config = RulesConfig(event_log=False)
    count = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for g in range(games):
        st = new_game(data, player_count=6, seed=seed + g, config=config)
        rng = Random(seed + g)
        while not st.is_terminal():
            p = st.current_players()[0]
            st.apply_unchecked(rng.choice(st.legal_actions(p)))
        count += 1
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
if kind == "search":
    cpu = cpu_total  # only the searches count, not the random play between them
compiled = None
try:
    from matches.kit.compiled import is_compiled
    compiled = is_compiled("boardgame.engine" if kind == "westeros" else "matches.engine")
except ImportError:
    pass
print(json.dumps({"count": count, "cpu": cpu, "wall": wall, "compiled": compiled}))
"""

# Student's t, two-sided 95%, by degrees of freedom (1..10, then the normal's 1.96 is close enough).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}


def run(tree: Path, kind: str, games: int, seed: int, pure: bool) -> dict[str, float]:
    env = {**os.environ, "ENGINES_PURE": "1" if pure else "0"}
    out = subprocess.run(
        [sys.executable, "-c", WORKER, kind, str(games), str(seed)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def interval(ratios: list[float]) -> tuple[float, float, float]:
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return math.exp(mean), math.nan, math.nan
    half = T95.get(len(logs) - 1, 1.96) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rev", default="a90302e")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="Commandeer random matches per side and round")
    parser.add_argument("--westeros", type=int, default=4, help="Westeros 6-player games per side and round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--search",
        type=int,
        default=6,
        help="Commandeer matches whose positions the hard AI searches (24 simulations each), per side and round",
    )
    parser.add_argument(
        "--game",
        choices=["commandeer", "westeros", "search", "both", "all"],
        default="both",
        help="both: the two engines' random play; search: the hard AI's simulations per CPU-second; all: the three",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        old = Path(tmp)
        archive = subprocess.run(
            ["git", "archive", args.rev], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        sides = {"old": (old, False), "compiled": (ROOT, False), "pure": (ROOT, True)}
        print(f"load average at start: {os.getloadavg()}; python {sys.version.split()[0]}; rev {args.rev}")
        report: dict[str, object] = {"bench": "compare", "rev": args.rev, "rounds": args.rounds}
        for kind, games, unit in (
            ("commandeer", args.games, "actions"),
            ("westeros", args.westeros, "games"),
            ("search", args.search, "simulations"),
        ):
            if args.game not in ("both", kind) and not (args.game == "all" and games):
                continue
            rates: dict[str, list[float]] = {name: [] for name in sides}
            order = list(sides)
            compiled_flag = None
            for r in range(args.rounds):
                for name in order[r % 3 :] + order[: r % 3]:
                    tree, pure = sides[name]
                    result = run(tree, kind, games, args.seed + 1000 * r, pure)
                    rates[name].append(result["count"] / result["cpu"])
                    if name == "compiled":
                        compiled_flag = result["compiled"]
                line = "  ".join(f"{name} {rates[name][-1]:,.1f}" for name in sides)
                print(f"{kind} round {r + 1}: {unit}/CPU-s  {line}")
            summary: dict[str, object] = {"compiled_build_used": compiled_flag}
            for name in sides:
                summary[f"{name}_{unit}_per_s"] = round(statistics.median(rates[name]), 1)
            for name in ("compiled", "pure"):
                ratios = [n / o for n, o in zip(rates[name], rates["old"], strict=True)]
                mean, low, high = interval(ratios)
                summary[f"{name}_vs_old"] = [round(mean, 2), round(low, 2), round(high, 2)]
                print(
                    f"{kind}: {name} / old = {mean:.2f}x (95% interval {low:.2f}–{high:.2f}, {len(ratios)} rounds)"
                )
            print(f"{kind}: compiled build used: {compiled_flag}")
            report[kind] = summary
        print(f"load average at end: {os.getloadavg()}")
        print(json.dumps(report))


if __name__ == "__main__":
    main()
