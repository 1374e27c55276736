"""How strong the AI levels are: seeded games between agents of both games, a table of results with 95%
confidence intervals and the cost of each decision, then one JSON line.

Each engine names its match-ups and plays one seeded game of one (``matches.engine.arena`` for
Commandeer, ``boardgame.engine.arena`` for Westeros): Commandeer swaps seats and rotates the starter deck
pairs; Westeros puts one house of the subject level against five of the other, every seat in turn on
the same deals. The score counts a win 1, a draw 1/2; the interval is Wilson's score interval at 95%.
Decision times are the subject agent's wall milliseconds per decision.

Run: ``.venv/bin/python bench/ai_strength.py [--game commandeer|westeros|both] [--games N] [--jobs J]
[--matchup "hard vs greedy" ...] [--budget-scale F] [--seed S] [--seat-prior on|off]
[--opponent-budget-factor F] [--subject-search "replies=3,width=24"]``. ``--seat-prior`` switches
the Westeros evaluation's seat constants (``WesterosAIParams.seat_prior_on``) in the parameters handed to every
agent of the table; its default is the engine's default.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardgame.engine.ai_params import DEFAULT_PARAMS as WESTEROS_DEFAULTS

ARENAS = {"commandeer": "matches.engine.arena", "westeros": "boardgame.engine.arena"}


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% score interval of a proportion `score / n` (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def subject_params(search: dict[str, Any]) -> Any:
    """The Commandeer tunables with the ``hard`` level's search constants changed by `search`
    (``--subject-search``); None (the defaults) when it changes nothing."""
    from matches.engine.ai_params import DEFAULT_PARAMS

    if not search:
        return None
    return replace(DEFAULT_PARAMS, hard=replace(DEFAULT_PARAMS.hard, **search))


def parse_search(text: str) -> dict[str, Any]:
    """``"replies=3,width=24"`` → the `PlanSearchParams` fields it names, typed as their defaults."""
    from dataclasses import fields

    from matches.engine.ai_params import PlanSearchParams

    types = {f.name: type(getattr(PlanSearchParams(replies=1), f.name)) for f in fields(PlanSearchParams)}
    out: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, _, value = item.partition("=")
        if name not in types or not value:
            raise ValueError(f"--subject-search: {item!r} is not FIELD=VALUE of {sorted(types)}")
        kind = types[name]
        out[name] = (value.lower() in ("1", "true", "yes", "on")) if kind is bool else kind(value)
    return out


def _play(args: tuple[str, str, str, int, int, float, bool, float, dict[str, Any]]) -> dict[str, Any]:
    game, subject, opponent, index, seed, scale, seat_prior, factor, search = args
    arena = importlib.import_module(ARENAS[game])
    if game == "westeros":
        params = replace(WESTEROS_DEFAULTS, seat_prior_on=seat_prior)
        return dict(arena.play_one(subject, opponent, index, seed, scale, params=params))
    return dict(
        arena.play_one(
            subject,
            opponent,
            index,
            seed,
            scale,
            opponent_budget_factor=factor,
            subject_params=subject_params(search),
        )
    )


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_matchup(
    pool: ProcessPoolExecutor | None,
    game: str,
    label: str,
    games: int,
    seed: int,
    scale: float,
    seat_prior: bool,
    factor: float = 1.0,
    search: dict[str, Any] | None = None,
) -> dict[str, Any]:
    arena = importlib.import_module(ARENAS[game])
    subject, opponent = arena.MATCHUPS[label]
    jobs = [(game, subject, opponent, i, seed, scale, seat_prior, factor, search or {}) for i in range(games)]
    start = time.perf_counter()
    results = list(pool.map(_play, jobs)) if pool is not None else [_play(j) for j in jobs]
    seconds = time.perf_counter() - start
    score = sum(r["score"] for r in results)
    wins = sum(1 for r in results if r["score"] == 1.0)
    draws = sum(1 for r in results if r["score"] == 0.5)
    times = [ms for r in results for ms in r["decision_ms"]]
    low, high = wilson(score, games)
    by_label: Counter[str] = Counter(r["label"] for r in results)
    label_wins: Counter[str] = Counter(r["winner_label"] for r in results if r.get("winner_label"))
    subject_wins: Counter[str] = Counter(r["label"] for r in results if r["score"] == 1.0)
    return {
        "game": game,
        "matchup": label,
        "games": games,
        "wins": wins,
        "draws": draws,
        "score": round(score / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
        "decisions": len(times),
        "ms_mean": round(statistics.fmean(times), 2) if times else 0.0,
        "ms_p95": round(percentile(times, 0.95), 2),
        "ms_max": round(max(times), 2) if times else 0.0,
        "winners": {k: label_wins[k] for k in sorted(by_label | label_wins)},
        # the subject's wins in each of its seats (Westeros: house) or decks (Commandeer), of the games there
        "subject_by_seat": {k: f"{subject_wins[k]}/{by_label[k]}" for k in sorted(by_label)},
        "seat_prior": seat_prior,
        "opponent_budget_factor": factor,
        "subject_search": search or {},
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=["commandeer", "westeros", "both"], default="both")
    parser.add_argument("--games", type=int, default=20, help="games per match-up (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)"
    )
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply every level's budget by F")
    parser.add_argument("--matchup", action="append", help="only these match-ups (repeatable)")
    parser.add_argument(
        "--seat-prior",
        choices=["on", "off"],
        default="on" if WESTEROS_DEFAULTS.seat_prior_on else "off",
        help="Westeros: the evaluation's seat constants (WesterosAIParams.seat_prior); default: the engine's",
    )
    parser.add_argument(
        "--opponent-budget-factor",
        type=float,
        default=1.0,
        help="Commandeer: multiply the opponent's budget alone by F (old/new engine speed: the opponent searches "
        "as many simulations as the slower engine would at the same budget; docs/speed.md)",
    )
    parser.add_argument(
        "--subject-search",
        default="",
        help='Commandeer: the subject\'s hard search constants changed, e.g. "replies=3,width=24" (PlanSearchParams '
        "fields; the opponent keeps the defaults): does a search shape spend more simulations to advantage?",
    )
    args = parser.parse_args()
    try:
        search = parse_search(args.subject_search)
    except ValueError as exc:
        parser.error(str(exc))
    if search and args.game != "commandeer":
        parser.error("--subject-search is for --game commandeer")
    if args.opponent_budget_factor <= 0 or (args.opponent_budget_factor != 1.0 and args.game != "commandeer"):
        parser.error("--opponent-budget-factor must be positive and is for --game commandeer")
    if args.games < 1 or args.jobs < 1 or args.budget_scale <= 0:
        parser.error("--games and --jobs must be at least 1 and --budget-scale positive")
    games = ["commandeer", "westeros"] if args.game == "both" else [args.game]
    rows: list[dict[str, Any]] = []
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for game in games:
            arena = importlib.import_module(ARENAS[game])
            labels = args.matchup or list(arena.MATCHUPS)
            unknown = [m for m in labels if m not in arena.MATCHUPS]
            if unknown:
                parser.error(f"unknown match-up(s) for {game}: {unknown}; choose from {list(arena.MATCHUPS)}")
            for label in labels:
                row = run_matchup(
                    pool,
                    game,
                    label,
                    args.games,
                    args.seed,
                    args.budget_scale,
                    args.seat_prior == "on",
                    args.opponent_budget_factor,
                    search,
                )
                rows.append(row)
                print(
                    f"{game:10} {label:28} {row['games']:4} games  score {row['score']:.3f}"
                    f"  95% [{row['ci95'][0]:.3f}, {row['ci95'][1]:.3f}]  wins {row['wins']:3} draws {row['draws']:3}"
                    f"  ms/decision mean {row['ms_mean']:7.1f} p95 {row['ms_p95']:7.1f} max {row['ms_max']:7.1f}"
                    f"  ({row['seconds']} s)",
                    flush=True,
                )
                if row["winners"]:
                    print(f"{'':10} {'':28} winners by seat/deck: {row['winners']}", flush=True)
                    print(
                        f"{'':10} {'':28} the subject's wins by its seat/deck: {row['subject_by_seat']}",
                        flush=True,
                    )
    finally:
        if pool is not None:
            pool.shutdown()
    print(
        json.dumps(
            {
                "bench": "ai_strength",
                "budget_scale": args.budget_scale,
                "seed": args.seed,
                "seat_prior": args.seat_prior == "on",
                "rows": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
