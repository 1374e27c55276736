"""How much CPU the AI levels cost a server: per game and level, AI decisions per second per core, the mean and
95th-percentile decision time, and how many concurrent AI games one core serves; a table, then one JSON line.

Decisions are sampled (every 3rd) from seeded games played by greedy, the same positions for every level;
each level decides on them with its own budget (the engines' default `level_budget_s` times --budget-scale) through
the registry (`matches.agents.make_agent`), one fresh agent per decision as the Celery worker does after a
restart (a cached agent with a plan can only be cheaper).

Games per core assume a human takes HUMAN_S (10) seconds per decision and that the AI seats make k decisions
per human decision: Commandeer 1 (one AI opponent, turns alternate), Westeros with one human among
PLAYERS houses k = the AI houses' decisions per decision of the human's house, measured on the same greedy
games (about PLAYERS - 1). Then one game needs k * cpu_mean seconds of CPU every HUMAN_S seconds:
games/core = HUMAN_S / (k * cpu_mean). CPU time is the agents' own budget clock (`matches.kit.budget.cpu_now`,
this thread's), so the figures are per core whatever else runs on the machine; wall times are shown beside
them.

Run: ``.venv/bin/python bench/ai_throughput.py [--decisions N] [--game commandeer|westeros|both]
[--levels easy,normal,hard,greedy] [--budget-scale F] [--players P] [--human-s S]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from matches.agents import GAME_KINDS, LEVELS, check_name, level_budget_s, make_agent
from matches.kit.budget import cpu_now

EVERY = 3


def new_state(kind: str, seed: int, players: int) -> Any:
    if kind == "commandeer":
        from matches.engine.decks import default_decks
        from matches.engine.setup import new_match

        pool = list(default_decks().values())
        return new_match(pool[seed % len(pool)], pool[(seed + 1) % len(pool)], seed=seed)
    from boardgame.engine.data import load_default_game_data
    from boardgame.engine.game import new_game

    return new_game(load_default_game_data(), player_count=players, seed=seed)


def sample(kind: str, decisions: int, players: int) -> tuple[list[tuple[Any, Any]], float]:
    """(state, player) at every EVERY-th decision of seeded greedy games; and k, the other seats' decisions
    per decision of the first seat (the human's)."""
    out: list[tuple[Any, Any]] = []
    first = others = 0
    seed = 0
    while len(out) < decisions:
        state = new_state(kind, seed, players)
        human = state.current_players()[0] if kind == "commandeer" else state.players()[0]
        bots: dict[Any, Any] = {}
        n = 0
        while not state.is_terminal():
            player = state.current_players()[0]
            if n % EVERY == EVERY - 1 and len(out) < decisions:
                out.append((state.clone(), player))
            bot = bots.setdefault(player, make_agent(kind, "greedy", Random(f"{seed}:{player}")))
            state.apply_unchecked(bot.choose(state.clone(), player))
            if player == human:
                first += 1
            else:
                others += 1
            n += 1
        seed += 1
    return out, (others / first if first else 1.0)


def measure(kind: str, level: str, positions: list[tuple[Any, Any]], scale: float) -> dict[str, Any]:
    base = level_budget_s(kind, level)
    budget = None if base is None else base * scale
    cpu: list[float] = []
    wall: list[float] = []
    for i, (state, player) in enumerate(positions):
        agent = make_agent(kind, level, Random(i), budget)
        s = state.clone()
        c0, w0 = cpu_now(), time.perf_counter()
        agent.choose(s, player)
        cpu.append(cpu_now() - c0)
        wall.append(time.perf_counter() - w0)
    ordered = sorted(cpu)
    mean = statistics.fmean(cpu)
    return {
        "game": kind,
        "level": level,
        "budget_s": budget,
        "decisions": len(cpu),
        "decisions_per_s_per_core": 1 / mean if mean > 0 else float("inf"),
        "cpu_mean_ms": 1000 * mean,
        "cpu_p95_ms": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "wall_mean_ms": 1000 * statistics.fmean(wall),
        "wall_max_ms": 1000 * max(wall),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30, help="sampled decisions per game (default 30)")
    parser.add_argument("--game", choices=[*GAME_KINDS, "both"], default="both")
    parser.add_argument("--levels", default=",".join((*LEVELS, "greedy")))
    parser.add_argument("--budget-scale", type=float, default=1.0, help="times each level's budget")
    parser.add_argument("--players", type=int, default=6, help="Westeros houses (one human)")
    parser.add_argument("--human-s", type=float, default=10.0, help="a human's seconds per decision")
    parser.add_argument(
        "--move-overhead-ms", type=float, default=7.0, help="the play layer's CPU per stored AI move"
    )
    args = parser.parse_args()
    if not 1 <= args.decisions <= 100_000:
        parser.error("--decisions must be in 1..100000")
    if not 0 < args.budget_scale <= 10:
        parser.error("--budget-scale must be in (0, 10]")
    if not 0 <= args.move_overhead_ms <= 10_000:
        parser.error("--move-overhead-ms must be in 0..10000")
    if not 3 <= args.players <= 6:
        parser.error("--players must be in 3..6")
    try:
        levels = [check_name(x.strip()) for x in args.levels.split(",") if x.strip()]
    except ValueError as exc:
        parser.error(str(exc))
    kinds = GAME_KINDS if args.game == "both" else (args.game,)
    rows = []
    for kind in kinds:
        positions, k = sample(kind, args.decisions, args.players)
        if kind == "commandeer":
            k = 1.0  # one AI opponent: it answers each human decision with about one of its own
        for level in levels:
            row = measure(kind, level, positions, args.budget_scale)
            row["ai_decisions_per_human_decision"] = round(k, 2)
            per_move_s = (row["cpu_mean_ms"] + args.move_overhead_ms) / 1000
            row["games_per_core"] = args.human_s / (k * per_move_s) if per_move_s > 0 else None
            rows.append(row)
    head = f"{'game':<11}{'level':<8}{'budget s':>9}{'dec/s/core':>11}{'mean ms':>9}{'p95 ms':>9}"
    head += f"{'wall ms':>9}{'max wall':>9}{'k':>6}{'games/core':>11}"
    print(head)
    for r in rows:
        budget = "-" if r["budget_s"] is None else f"{r['budget_s']:.3f}"
        print(
            f"{r['game']:<11}{r['level']:<8}{budget:>9}{r['decisions_per_s_per_core']:>11.1f}"
            f"{r['cpu_mean_ms']:>9.3f}{r['cpu_p95_ms']:>9.3f}{r['wall_mean_ms']:>9.3f}{r['wall_max_ms']:>9.2f}"
            f"{r['ai_decisions_per_human_decision']:>6}{r['games_per_core'] or 0:>11.1f}"
        )
    print(
        f"(games/core: a human takes {args.human_s:g} s per decision; the AI makes k decisions per human one, "
        f"each also costing {args.move_overhead_ms:g} ms of play layer; Westeros: 1 human among {args.players})"
    )
    print(json.dumps({"bench": "ai_throughput", "human_s": args.human_s, "budget_scale": args.budget_scale,
                      "move_overhead_ms": args.move_overhead_ms, "rows": rows}))  # fmt: skip


if __name__ == "__main__":
    main()
