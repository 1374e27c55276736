"""Fit the Westeros AI's static evaluation (`WesterosAIParams.eval_weights`) to who goes on to win.

Plays six-house tables in which each house is the search's rollout policy (`heuristics.policy_step`) or,
with probability ``--greedy-share``, the greedy level; at the start of every Planning
phase (where the search's rollouts stop and `evaluate` is read) it records `heuristics.house_features` of
every house, and at the end the winner. The evaluation is a conditional logit, P(house h wins) = softmax over
houses of w . features(h), so the weights are fitted by maximum likelihood (Adam on the mean log loss, a
little L2), with a per-house constant that is fitted and then dropped: the seats' own strength (Greyjoy wins
most policy tables) must not be read into the features that go with a seat at the start (Greyjoy holds the
top of the Fiefdoms track in round 1).

Prints the log loss (lower is better; a uniform guess is ln 6 = 1.792) of the weights in the engine and of
the fitted ones on other tables, per round, the fitted weights as Python, then one JSON line.

Run: ``.venv/bin/python bench/westeros_eval_fit.py [--games 3000] [--test-games 800] [--seed 100000]
[--jobs 2] [--greedy-share 0.3]`` (about 3 minutes on 2 cores; needs numpy, a dev dependency).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from random import Random
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardgame.engine.agents import GreedyAgent
from boardgame.engine.ai_params import DEFAULT_PARAMS
from boardgame.engine.config import RulesConfig
from boardgame.engine.data import HOUSE_ORDER, GameData, load_default_game_data
from boardgame.engine.game import WesterosState, new_game
from boardgame.engine.heuristics import (
    FEATURES,
    house_features,
    planning_phases,
    policy_step,
)

_DATA: list[GameData] = []


def play_table(args: tuple[int, float]) -> dict[str, Any]:
    """One table: the features of every house at each Planning phase, and the winner."""
    seed, greedy_share = args
    if not _DATA:
        _DATA.append(load_default_game_data())
    st = new_game(_DATA[0], player_count=6, seed=seed, config=RulesConfig(event_log=False))
    rng = Random(seed * 7919 + 1)
    greedy = {
        h: GreedyAgent(Random(seed * 31 + i)) for i, h in enumerate(st.houses) if rng.random() < greedy_share
    }

    def step(st: WesterosState) -> None:
        assert st.pending is not None
        p = st.pending.players[0]
        if p in greedy:
            st.apply_unchecked(greedy[p].choose(st, p))
        else:
            policy_step(st, rng, 0.6)

    samples = []
    for at in planning_phases(st, step):
        f = house_features(at)
        samples.append((at.round, [list(f[h]) for h in at.houses]))
    return {"houses": list(st.houses), "winner": st.winner, "samples": samples}


def tables(seed: int, n: int, greedy_share: float, jobs: int) -> list[dict[str, Any]]:
    args = [(seed + i, greedy_share) for i in range(n)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(play_table, args, chunksize=max(1, n // (8 * jobs))))
    return [play_table(a) for a in args]


def arrays(results: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X (samples, houses, features), seat one-hots (samples, houses, houses), winner index, round."""
    xs, seats, ys, rounds = [], [], [], []
    for g in results:
        if g["winner"] is None:
            continue
        onehot = [[1.0 if h == s else 0.0 for s in HOUSE_ORDER] for h in g["houses"]]
        for rnd, feats in g["samples"]:
            xs.append(feats)
            seats.append(onehot)
            ys.append(g["houses"].index(g["winner"]))
            rounds.append(rnd)
    return np.array(xs, float), np.array(seats, float), np.array(ys), np.array(rounds)


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    s = x @ w
    s = s - s.max(axis=1, keepdims=True)
    lse = np.log(np.exp(s).sum(axis=1))
    return float(-(s[np.arange(len(y)), y] - lse).mean())


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 3000, lr: float = 0.05) -> np.ndarray:
    """Maximum likelihood of the conditional logit (standardized features, Adam), weights on the raw scale."""
    n, _h, f = x.shape
    flat = x.reshape(-1, f)
    sd = flat.std(axis=0) + 1e-9
    z = (x - flat.mean(axis=0)) / sd  # a shift common to every house cancels in the softmax
    target = np.zeros(x.shape[:2])
    target[np.arange(n), y] = 1.0
    w, m, v = np.zeros(f), np.zeros(f), np.zeros(f)
    for t in range(1, steps + 1):
        s = z @ w
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = -np.einsum("nh,nhf->f", target - p, z) / n + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w / sd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--test-games", type=int, default=800)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--greedy-share", type=float, default=0.3)
    a = parser.parse_args()
    start = time.perf_counter()
    train = arrays(tables(a.seed, a.games, a.greedy_share, a.jobs))
    test = arrays(tables(a.seed + 1_000_000, a.test_games, a.greedy_share, a.jobs))
    played = time.perf_counter() - start
    k = len(FEATURES)
    w = fit(np.concatenate([train[0], train[1][:, :, 1:]], axis=2), train[2])
    fitted, seat = w[:k], w[k:]
    engine = np.array([DEFAULT_PARAMS.eval_weights[f] for f in FEATURES])
    x, _seats, y, rounds = test
    print(f"{a.games} + {a.test_games} tables (greedy share {a.greedy_share}) in {played:.0f} s; "
          f"{len(train[2])} training and {len(y)} test positions")  # fmt: skip
    rows = {"uniform": math.log(6), "engine": log_loss(engine, x, y), "fitted": log_loss(fitted, x, y)}
    print(
        f"test log loss: uniform {rows['uniform']:.4f}  engine {rows['engine']:.4f}  fitted {rows['fitted']:.4f}"
    )
    per_round = {}
    for r in sorted(set(rounds.tolist())):
        m = rounds == r
        per_round[r] = (log_loss(engine, x[m], y[m]), log_loss(fitted, x[m], y[m]))
        print(
            f"  round {r:2}: {int(m.sum()):5} positions  engine {per_round[r][0]:.4f}  fitted {per_round[r][1]:.4f}"
        )
    print(
        "seat constants (dropped):",
        {h: round(float(c), 3) for h, c in zip(HOUSE_ORDER[1:], seat, strict=True)},
    )
    print("eval_weights = {  # WesterosAIParams")
    for f, c in zip(FEATURES, fitted, strict=True):
        print(f'    "{f}": {c:.3f},')
    print("}")
    print(json.dumps({"bench": "westeros_eval_fit", "games": a.games, "test_games": a.test_games, "seed": a.seed,
                      "greedy_share": a.greedy_share, "log_loss": {k2: round(v2, 4) for k2, v2 in rows.items()},
                      "fitted": {f: round(float(c), 4) for f, c in zip(FEATURES, fitted, strict=True)}}))  # fmt: skip


if __name__ == "__main__":
    main()
