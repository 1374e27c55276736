"""Search agents for Westeros houses: determinized Monte Carlo over the house's candidate decisions.

`SearchAgent` (levels normal and hard): each simulation draws a sample of the hidden parts
(`Information.determinize`, W-20), replaces the other houses' face-down orders by orders the rollout policy
would give, applies one candidate, plays the rest of the round and the next Westeros phase with a noisy
greedy policy for every house and scores the result with a static evaluation (castles, land, supply,
power, units, tracks, cards; `heuristics.evaluate`, the house's chance to win); a candidate's value is
the mean log of that chance (`objective`). Candidates share samples (common random numbers) and
the worse half is dropped after rounds 2, 4, 8, ... (successive halving). Planning orders (W-5.1) are
searched as whole plans, one per house per round, and kept while the state matches.

`FlatMCAgent` (level flatmc, the issue's baseline): every legal action, greedy rollouts to the end of
the game, the win rate.

Budgets are CPU seconds of this thread (load from other processes does not weaken the AI), with a wall
cap at twice the budget and never above `WALL_CAP_S`; `iterations` replaces the clock with a fixed number
of simulations so that a choice is deterministic.
"""

from __future__ import annotations

import math
import time
from random import Random
from typing import TYPE_CHECKING

from .actions import Action, Bid, FinishOrders, PlaceOrder, PlayHouseCard
from .agentbase import AgentBase
from .card_choice import card_mix, draw
from .heuristics import (
    evaluate,
    greedy_score,
    plan_orders,
    resample_hidden_orders,
    rollout,
)
from .information import Information
from .structures import PendingKind

if TYPE_CHECKING:
    from .game import WesterosState

WALL_CAP_S = 1.9
# House cards (`SearchAgent._house_card`): a card's weight is its equilibrium share plus CARD_FLOOR, times
# e per CARD_TEMPERATURE its simulations score below the best card's (scores are win chances).
CARD_FLOOR = 0.01
CARD_TEMPERATURE = 0.01
# Share of the level's budget per kind of decision: spend where it matters (orders are one search per round).
KIND_WEIGHT: dict[str, float] = {
    "orders": 2.4,
    "march_move": 1.2,
    "march_select": 0.8,
    "house_card": 1.2,
    "bid": 1.0,
    "raven": 0.6,
    "support": 0.5,
    "muster": 0.5,
    "raid": 0.5,
    "consolidate": 0.3,
    "choose": 0.5,
}


LOG_FLOOR = 0.005  # the objective's floor: a simulation another house won scores log(0.005)


def objective(chance: float) -> float:
    """What the search maximises, the mean over its simulations of the log of the house's chance to win
    (`evaluate`). The plain chance gives a house far behind almost nothing to tell its candidates apart by
    (its gradient is p(1 - p): 0.03 for a house at 3%, 0.24 for a leader at 40%), so only the leaders'
    searches saw their choices; the log gives every house the same reading of its own position (1 - p)
    and counts a gain against another house by that house's chance (a leader's loss weighs most)."""
    return math.log(max(chance, LOG_FLOOR))


class Clock:
    """A decision's budget: CPU seconds of this thread, wall at most twice that (and `WALL_CAP_S`), or a
    fixed number of simulations."""

    def __init__(self, budget_s: float, iterations: int | None) -> None:
        self.iterations = iterations
        self.budget = budget_s
        self.wall = min(2.0 * budget_s, WALL_CAP_S)
        self.cpu0 = time.thread_time()
        self.wall0 = time.perf_counter()
        self.done = 0

    def spent(self) -> bool:
        if self.iterations is not None:
            return self.done >= self.iterations
        return time.thread_time() - self.cpu0 >= self.budget or time.perf_counter() - self.wall0 >= self.wall


Candidate = tuple[Action, ...]


def by_prior(info: Information, legal: list[Action]) -> list[Action]:
    """`legal` best first by the one-step prior (`greedy_score` on the house's view), ties in the engine's
    order: the order the searches try actions in, so a short budget and equal scores go to the prior."""
    obs = info.observed()
    prior = [greedy_score(obs, info.house, a) for a in legal]
    return [legal[i] for i in sorted(range(len(legal)), key=lambda i: (-prior[i], i))]


class SearchAgent(AgentBase):
    """Determinized Monte Carlo with successive halving and cut-off rollouts (see the module text)."""

    name = "hard"
    max_candidates = 8
    plan_candidates = 10
    horizon_rounds = 1
    max_rollout_decisions = 260
    noise = 0.6

    def __init__(
        self,
        rng: Random,
        budget_s: float | None = None,
        *,
        iterations: int | None = None,
        opponent_deck_known: bool = True,  # Commandeer's switch: nothing to know in Westeros
    ) -> None:
        super().__init__(rng, budget_s, iterations=iterations, opponent_deck_known=opponent_deck_known)
        self._plan: tuple[tuple[object, ...], list[PlaceOrder]] | None = None

    # ------------------------------------------------------------------------------------------ entry
    def choose(self, state: WesterosState, house: str) -> Action:
        return self.decide(Information(state, house))

    def decide(self, info: Information) -> Action:
        legal = info.legal_actions()
        if len(legal) == 1:  # forced: no search
            return legal[0]
        view = info.view()
        kind = view["pending"]["kind"]
        weight = KIND_WEIGHT.get(kind, 0.5)
        iters = None if self.iterations is None else max(1, int(self.iterations * weight))
        clock = Clock(self.budget_s * weight, iters)
        if kind == PendingKind.ORDERS.value:
            return self._orders(info, legal, clock)
        cands = self.candidates(info, legal)
        if len(cands) == 1:
            return cands[0][0]
        combat = info.observed().combat
        if kind == PendingKind.HOUSE_CARD.value and combat is not None and not combat.neutral:
            return self._house_card(info, cands, clock)
        return self._search(info, cands, clock)[0]

    # ------------------------------------------------------------------------------------------ house cards
    def _house_card(self, info: Information, cands: list[Candidate], clock: Clock) -> Action:
        """W-9.4: both cards are chosen face down, so the choice is drawn, not the same reply to the same
        position every time (the side choosing first would read it). A card's weight is its share of the
        house's equilibrium mix (`card_choice.card_mix`) plus `CARD_FLOOR`, times e for every
        `CARD_TEMPERATURE` its simulations score below the best card's: a card the mix favours but the
        rest of the game rates low gives way to the search's choice. The simulations draw the opponent's
        face-down card from the opponent's mix (`_simulate`)."""
        mix = card_mix(info.observed(), info.house)
        scored = self.search_values(info, cands, clock, log=False)  # CARD_TEMPERATURE reads chances
        if not scored:
            return cands[0][0]
        top = max(v for _i, v in scored)
        weights: dict[str, float] = {}
        for i, v in scored:
            a = cands[i][0]
            assert isinstance(a, PlayHouseCard)
            weights[a.card] = (mix.get(a.card, 0.0) + CARD_FLOOR) * math.exp((v - top) / CARD_TEMPERATURE)
        total = sum(weights.values())
        return PlayHouseCard(info.house, draw({c: w / total for c, w in weights.items()}, self.rng))

    # ------------------------------------------------------------------------------------------ orders
    def _orders(self, info: Information, legal: list[Action], clock: Clock) -> Action:
        """W-5.1: the whole plan is searched once; each call returns its next token while the plan holds."""
        house = info.house
        key = info.key()
        if self._plan is not None:
            pkey, rest = self._plan
            if pkey == key:
                while rest and rest[0] not in legal:
                    rest.pop(0)
                if rest:
                    nxt = rest.pop(0)
                    self._plan = (self._next_key(key, nxt), rest)
                    return nxt
            self._plan = None
        if not any(isinstance(a, PlaceOrder) for a in legal):
            return next(a for a in legal if isinstance(a, FinishOrders))
        obs = info.observed()
        areas = sorted({a.area for a in legal if isinstance(a, PlaceOrder)})
        plans: list[Candidate] = []
        seen: set[Candidate] = set()
        gen = Random(self.rng.getrandbits(64))
        tries = 0
        while len(plans) < self.plan_candidates and tries < self.plan_candidates * 4:
            noise = 0.0 if tries == 0 else 0.4 + 1.6 * gen.random()
            plan = tuple(PlaceOrder(house, a, t) for a, t in plan_orders(obs, house, areas, gen, noise))
            tries += 1
            if plan and plan not in seen:
                seen.add(plan)
                plans.append(plan)
        if not plans:
            return legal[0]
        best = self._search(info, plans, clock) if len(plans) > 1 else plans[0]
        todo: list[PlaceOrder] = [a for a in best if isinstance(a, PlaceOrder)]
        first = todo.pop(0)
        self._plan = (self._next_key(key, first), todo)
        return first

    @staticmethod
    def _next_key(key: tuple[object, ...], placed: Action) -> tuple[object, ...]:
        assert isinstance(placed, PlaceOrder)
        own = key[3]
        assert isinstance(own, tuple)
        return (*key[:3], tuple(sorted((*own, (placed.area, placed.token)))))

    # ------------------------------------------------------------------------------------------ candidates
    def candidates(self, info: Information, legal: list[Action]) -> list[Candidate]:
        """Legal actions worth simulating, best first by the one-step prior (`greedy_score`): all of them
        when few, else the best `max_candidates` (bids: a spread of amounts, W-14.2 / W-16.3). The order
        matters: a short budget simulates the first ones, and equal scores go to the earlier candidate."""
        if isinstance(legal[0], Bid) and len(legal) > self.max_candidates:
            power = max(a.amount for a in legal if isinstance(a, Bid))
            keep = sorted({0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, power} & set(range(power + 1)))
            return [(Bid(info.house, n),) for n in keep]
        return [(a,) for a in by_prior(info, legal)[: self.max_candidates]]

    # ------------------------------------------------------------------------------------------ search
    def _simulate(self, info: Information, cand: Candidate, sample_seed: int) -> float:
        me = info.house
        st = info.determinize(Random(sample_seed))
        r = Random(sample_seed ^ 0x9E3779B97F4A7C15)
        resample_hidden_orders(st, me, r, self.noise)
        pend = st.pending
        if pend is not None and pend.kind is PendingKind.HOUSE_CARD and pend.chosen and st.combat is not None:
            for h in pend.chosen:  # W-9.4: the face-down card as the opponent would draw it
                if h != me:
                    pend.chosen[h] = draw(card_mix(st, h), r)
        for a in cand:
            if st.pending is None or st.winner is not None:
                break
            st.apply_unchecked(a)
        if (
            st.pending is not None
            and st.pending.kind is PendingKind.ORDERS
            and me in st.pending.players
            and any(isinstance(a, FinishOrders) for a in st.legal_actions(me))
        ):
            st.apply_unchecked(FinishOrders(me))
        return rollout(
            st,
            me,
            r,
            horizon_rounds=self.horizon_rounds,
            max_decisions=self.max_rollout_decisions,
            noise=self.noise,
        )

    def _search(self, info: Information, cands: list[Candidate], clock: Clock) -> Candidate:
        """The candidate whose simulations score best (`search_values`)."""
        scored = self.search_values(info, cands, clock)
        if not scored:
            return cands[0]
        return cands[max(scored, key=lambda iv: (iv[1], -iv[0]))[0]]

    def search_values(
        self, info: Information, cands: list[Candidate], clock: Clock, *, log: bool = True
    ) -> list[tuple[int, float]]:
        """Successive halving over `cands`; every candidate of a round meets the same sample. The surviving
        candidates' indexes and mean scores (those simulated at all if none survived with a sample)."""
        alive = list(range(len(cands)))
        sums = [0.0] * len(cands)
        counts = [0] * len(cands)
        rounds = 0
        while not clock.spent():
            seed = self.rng.getrandbits(63)
            vals: dict[int, float] = {}
            for i in alive:
                if vals and clock.spent():
                    break
                vals[i] = self._simulate(info, cands[i], seed)
                clock.done += 1
            if len(vals) < len(alive) and rounds > 0:
                break  # an incomplete round would compare candidates on different samples
            for i, v in vals.items():
                sums[i] += objective(v) if log else v
                counts[i] += 1
            rounds += 1
            if len(alive) > 2 and rounds & (rounds - 1) == 0 and rounds >= 2:
                alive.sort(key=lambda i: -sums[i] / max(1, counts[i]))
                alive = alive[: max(2, (len(alive) + 1) // 2)]
        seen = [i for i in alive if counts[i]] or [i for i in range(len(cands)) if counts[i]]
        return [(i, sums[i] / counts[i]) for i in sorted(seen)]


class NormalAgent(SearchAgent):
    """Less time, fewer candidates, a noisier guess at the others' orders."""

    name = "normal"
    max_candidates = 5
    plan_candidates = 5


class FlatMCAgent(AgentBase):
    """The issue's baseline: every legal action, greedy rollouts to the end of the game, the win rate
    (determinized; one sample per simulation, round robin over the actions in the greedy order)."""

    name = "flatmc"

    def choose(self, state: WesterosState, house: str) -> Action:
        info = Information(state, house)
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        clock = Clock(self.budget_s, self.iterations)
        legal = by_prior(info, legal)  # a short budget falls back on the greedy choice
        sums = [0.0] * len(legal)
        counts = [0] * len(legal)
        i = 0
        while not clock.spent():
            k = i % len(legal)
            st = info.determinize(Random(self.rng.getrandbits(63)))
            r = Random(self.rng.getrandbits(63))
            st.apply_unchecked(legal[k])
            n = 0
            while st.winner is None and st.pending is not None and n < 3000:
                p = st.pending.players[0]
                acts = st.legal_actions(p)
                if len(acts) == 1:
                    st.apply_unchecked(acts[0])
                else:
                    scored = [(greedy_score(st, p, a), a) for a in acts]
                    top = max(v for v, _a in scored)
                    st.apply_unchecked(r.choice([a for v, a in scored if v >= top - 0.05]))
                n += 1
            sums[k] += evaluate(st, house) if st.winner is None else (1.0 if st.winner == house else 0.0)
            counts[k] += 1
            clock.done += 1
            i += 1
        if not any(counts):
            return legal[0]
        best = max(range(len(legal)), key=lambda j: (sums[j] / counts[j] if counts[j] else -math.inf, -j))
        return legal[best]
