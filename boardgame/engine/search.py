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

Budgets are `matches.kit.budget.Budget`: CPU seconds of the deciding thread, with a wall cap at twice the
budget and never above `WALL_CAP_S`; `iterations` replaces the clock with a fixed number of simulations so
that a choice is deterministic. Every constant is in the agent's `params` (`ai_params.WesterosAIParams`).
"""

from __future__ import annotations

import math
from random import Random
from typing import TYPE_CHECKING

from matches.kit.budget import Budget

from .actions import Action, Bid, FinishOrders, PlaceOrder, PlayHouseCard
from .ai_params import DEFAULT_PARAMS, WesterosAgentBase, WesterosAIParams
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


def objective(chance: float, floor: float = DEFAULT_PARAMS.log_floor) -> float:
    """What the search maximises, the mean over its simulations of the log of the house's chance to win
    (`evaluate`). The plain chance gives a house far behind almost nothing to tell its candidates apart by
    (its gradient is p(1 - p): 0.03 for a house at 3%, 0.24 for a leader at 40%), so only the leaders'
    searches saw their choices; the log gives every house the same reading of its own position (1 - p)
    and counts a gain against another house by that house's chance (a leader's loss weighs most). Chances
    below ``floor`` (`WesterosAIParams.log_floor`) count as ``floor``."""
    return math.log(max(chance, floor))


Candidate = tuple[Action, ...]


def by_prior(
    info: Information, legal: list[Action], params: WesterosAIParams = DEFAULT_PARAMS
) -> list[Action]:
    """`legal` best first by the one-step prior (`greedy_score` on the house's view), ties in the engine's
    order: the order the searches try actions in, so a short budget and equal scores go to the prior."""
    obs = info.observed()
    prior = [greedy_score(obs, info.house, a, params.greedy) for a in legal]
    return [legal[i] for i in sorted(range(len(legal)), key=lambda i: (-prior[i], i))]


class SearchAgent(WesterosAgentBase):
    """Determinized Monte Carlo with successive halving and cut-off rollouts (see the module text)."""

    name = "hard"

    def __init__(
        self,
        rng: Random,
        budget_s: float | None = None,
        *,
        iterations: int | None = None,
        opponent_deck_known: bool = True,  # Commandeer's switch: nothing to know in Westeros
        params: WesterosAIParams | None = None,
    ) -> None:
        super().__init__(
            rng, budget_s, iterations=iterations, opponent_deck_known=opponent_deck_known, params=params
        )
        level = self.params.search(self.name)  # the level's constants (`ai_params.WesterosSearchParams`)
        self.max_candidates = level.max_candidates
        self.plan_candidates = level.plan_candidates
        self.horizon_rounds = level.horizon_rounds
        self.max_rollout_decisions = level.max_rollout_decisions
        self.noise = level.noise
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
        weight = self.params.kind_weight.get(kind, self.params.other_kind_weight)
        iters = None if self.iterations is None else max(1, int(self.iterations * weight))
        clock = Budget(self.budget_s * weight, iters)
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
    def _house_card(self, info: Information, cands: list[Candidate], clock: Budget) -> Action:
        """W-9.4: both cards are chosen face down, so the choice is drawn, not the same reply to the same
        position every time (the side choosing first would read it). A card's weight is its share of the
        house's equilibrium mix (`card_choice.card_mix`) plus `card_floor`, times e for every
        `card_temperature` its simulations score below the best card's: a card the mix favours but the
        rest of the game rates low gives way to the search's choice. The simulations draw the opponent's
        face-down card from the opponent's mix (`_simulate`)."""
        mix = card_mix(info.observed(), info.house)
        scored = self.search_values(info, cands, clock, log=False)  # card_temperature reads chances
        if not scored:
            return cands[0][0]
        top = max(v for _i, v in scored)
        floor, temperature = self.params.card_floor, self.params.card_temperature
        weights: dict[str, float] = {}
        for i, v in scored:
            a = cands[i][0]
            assert isinstance(a, PlayHouseCard)
            weights[a.card] = (mix.get(a.card, 0.0) + floor) * math.exp((v - top) / temperature)
        total = sum(weights.values())
        return PlayHouseCard(info.house, draw({c: w / total for c, w in weights.items()}, self.rng))

    # ------------------------------------------------------------------------------------------ orders
    def _orders(self, info: Information, legal: list[Action], clock: Budget) -> Action:
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
            keep = sorted({*self.params.bid_spread, power} & set(range(power + 1)))
            return [(Bid(info.house, n),) for n in keep]
        return [(a,) for a in by_prior(info, legal, self.params)[: self.max_candidates]]

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
            params=self.params,
        )

    def _search(self, info: Information, cands: list[Candidate], clock: Budget) -> Candidate:
        """The candidate whose simulations score best (`search_values`)."""
        scored = self.search_values(info, cands, clock)
        if not scored:
            return cands[0]
        return cands[max(scored, key=lambda iv: (iv[1], -iv[0]))[0]]

    def search_values(
        self, info: Information, cands: list[Candidate], clock: Budget, *, log: bool = True
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
                sums[i] += objective(v, self.params.log_floor) if log else v
                counts[i] += 1
            rounds += 1
            if len(alive) > 2 and rounds & (rounds - 1) == 0 and rounds >= 2:
                alive.sort(key=lambda i: -sums[i] / max(1, counts[i]))
                alive = alive[: max(2, (len(alive) + 1) // 2)]
        seen = [i for i in alive if counts[i]] or [i for i in range(len(cands)) if counts[i]]
        return [(i, sums[i] / counts[i]) for i in sorted(seen)]


class NormalAgent(SearchAgent):
    """Less time, fewer candidates (`WesterosAIParams.normal`)."""

    name = "normal"


class FlatMCAgent(WesterosAgentBase):
    """The issue's baseline: every legal action, greedy rollouts to the end of the game, the win rate
    (determinized; one sample per simulation, round robin over the actions in the greedy order)."""

    name = "flatmc"

    def choose(self, state: WesterosState, house: str) -> Action:
        info = Information(state, house)
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        clock = Budget(self.budget_s, self.iterations)
        legal = by_prior(info, legal, self.params)  # a short budget falls back on the greedy choice
        g, tie = self.params.greedy, self.params.greedy.tie
        sums = [0.0] * len(legal)
        counts = [0] * len(legal)
        i = 0
        while not clock.spent():
            k = i % len(legal)
            st = info.determinize(Random(self.rng.getrandbits(63)))
            r = Random(self.rng.getrandbits(63))
            st.apply_unchecked(legal[k])
            n = 0
            while st.winner is None and st.pending is not None and n < self.params.flatmc_max_decisions:
                p = st.pending.players[0]
                acts = st.legal_actions(p)
                if len(acts) == 1:
                    st.apply_unchecked(acts[0])
                else:
                    scored = [(greedy_score(st, p, a, g), a) for a in acts]
                    top = max(v for v, _a in scored)
                    st.apply_unchecked(r.choice([a for v, a in scored if v >= top - tie]))
                n += 1
            sums[k] += (
                evaluate(st, house, self.params)
                if st.winner is None
                else (1.0 if st.winner == house else 0.0)
            )
            counts[k] += 1
            clock.done += 1
            i += 1
        if not any(counts):
            return legal[0]
        best = max(range(len(legal)), key=lambda j: (sums[j] / counts[j] if counts[j] else -math.inf, -j))
        return legal[best]
