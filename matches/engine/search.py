"""Search agents for Commandeer: determinized flat Monte Carlo (``FlatMCAgent``, the baseline) and the
turn-plan search of the ``normal`` and ``hard`` levels (``PlanSearchAgent``).

Both see the match only through ``Information`` (C-8): every simulation runs on a determinized sample in
simulation mode (no event log). Budgets are ``matches.kit.budget.Budget``: CPU seconds of the deciding
thread, cut on the wall clock at twice the budget and ``WALL_CAP_S``; ``iterations`` replaces the clock by a
fixed number of simulations, so a choice is a pure function of the view and the agent's ``rng``. Every
constant is in the agent's ``params`` (``ai_params.CommandeerAIParams``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any

from matches.kit.budget import Budget

from .actions import (
    Action,
    ChooseCommander,
    Concede,
    Keep,
    Mulligan,
    Reinforce,
)
from .ai_params import DEFAULT_PARAMS, CommandeerAgentBase, CommandeerAIParams, PolicyWeights
from .information import Information
from .policy import (
    WIN,
    evaluate,
    evaluate_position,
    greedy_choice,
    noisy_choice,
    scored,
    setup_or_card_choice,
)

if TYPE_CHECKING:
    from .state import GameState


def value(
    state: GameState,
    player: int,
    static: Callable[[GameState, int, PolicyWeights], float] = evaluate,
    w: PolicyWeights = DEFAULT_PARAMS.policy,
) -> float:
    """A static evaluation squashed into [0, 1] (a win 1, a loss 0) for averaging."""
    e = static(state, player, w)
    if e >= WIN:
        return 1.0
    if e <= -WIN:
        return 0.0
    return 0.5 + 0.5 * math.tanh(e / w.value_scale)


def acting(g: GameState) -> int:
    return g.current_players()[0]


def legal(g: GameState, player: int) -> list[Action]:
    acts = g.legal_actions(player)
    if acts and isinstance(acts[-1], Concede):
        acts.pop()
    return acts


def play_greedy_until(
    g: GameState, player: int, turn0: int, rng: Random, params: CommandeerAIParams = DEFAULT_PARAMS
) -> None:
    """Both players greedy until ``player``'s next turn starts (after ``turn0``) or the match ends."""
    for _ in range(params.rollout_cap):
        if g.outcome_ is not None or (g.turn > turn0 and g.active == player):
            return
        p = acting(g)
        g.apply_unchecked(greedy_choice(g, p, legal(g, p), rng, params.policy))


def is_setup(acts: list[Action]) -> bool:
    return isinstance(acts[0], ChooseCommander | Keep | Mulligan)


class FlatMCAgent(CommandeerAgentBase):
    """Determinized flat Monte Carlo: each legal action is tried in turn on a fresh determinization and
    followed by greedy play of both players to our next turn; the best mean value wins (the issue's
    baseline, not offered in the lobby)."""

    name = "flatmc"

    def choose(self, state: GameState, player: int) -> Action:
        info = Information(state, player, opponent_deck_known=self.opponent_deck_known)
        acts = info.legal_actions()
        if not acts:
            return Concede(player)
        if len(acts) == 1:
            return acts[0]
        budget = Budget(self.budget_s, self.iterations)
        w = self.params.policy
        if is_setup(acts):
            return greedy_choice(info.determinize(self.rng), player, acts, self.rng, w)
        totals = [0.0] * len(acts)
        counts = [0] * len(acts)
        i = 0
        while budget.more():
            k = i % len(acts)
            g = info.determinize(self.rng)
            turn0 = g.turn
            g.apply_unchecked(acts[k])
            play_greedy_until(g, player, turn0, self.rng, self.params)
            totals[k] += value(g, player, w=w)
            counts[k] += 1
            i += 1
            budget.done += 1
        best = max(range(len(acts)), key=lambda j: (totals[j] / counts[j] if counts[j] else -1.0, -j))
        return acts[best]


@dataclass
class _Plan:
    actions: tuple[Action, ...]
    total: float = 0.0
    visits: int = 0


class PlanSearchAgent(CommandeerAgentBase):
    """Turn-plan search (determinized, open-loop): the ``normal`` level; ``hard`` sets ``per_action`` and
    searches each decision's actions instead (``_search_actions``) with the same simulation.

    A *segment* is a run of our own consecutive decisions (the Planning phase up to Pass, a Combat phase,
    a Defending phase, a chain of choices). A plan for it is cut after the first action that draws a
    hidden card (Reinforce, C-5.2), since the rest depends on the draw. Candidates: the plan in hand, the
    greedy plan, the best ``first`` first actions by the greedy score each completed greedily, and noisy
    greedy plans, up to ``width``. Sequential halving with common random numbers simulates the surviving
    plans on the same determinized worlds: replay the plan, finish the segment greedily, let the
    opponent reply with the best for them of ``replies`` sampled turns (a min node: the opponent model
    is stronger than greedy), play on to the start of our next turn (with ``own_turn_after``: through
    our next turn, greedily, to the opponent's) and score it with ``evaluate_position``. The best plan
    is kept and executed decision by decision while the view stays the one it expected; each such
    decision still checks it against its alternatives with ``replan`` of the budget, and any surprise
    (a draw, an unexpected choice) starts a fresh search.
    """

    name = "hard"

    def __init__(
        self,
        rng: Random,
        budget_s: float | None = None,
        *,
        iterations: int | None = None,
        opponent_deck_known: bool = True,
        params: CommandeerAIParams | None = None,
    ) -> None:
        super().__init__(
            rng, budget_s, iterations=iterations, opponent_deck_known=opponent_deck_known, params=params
        )
        level = self.params.search(self.name)  # the level's constants (``ai_params.PlanSearchParams``)
        self.replies = level.replies
        self.noise = level.noise
        self.width = level.width
        self.first = level.first
        self.replan = level.replan
        self.own_turn_after = level.own_turn_after
        self.per_action = level.per_action
        self.weights = self.params.policy
        self.rollout_cap = self.params.rollout_cap
        self.plan: list[tuple[Action, dict[str, Any]]] = []  # (action, view expected before it)
        self.searches = 0

    # -- the turn plan ---------------------------------------------------------------------------

    def _from_plan(self, info: Information, acts: list[Action]) -> tuple[Action, ...] | None:
        """The rest of the turn plan when its next action is legal and the view is the one it expected."""
        if not self.plan:
            return None
        action, view = self.plan[0]
        if action in acts and view == info.view():
            return tuple(a for a, _ in self.plan)
        self.plan = []
        return None

    def choose(self, state: GameState, player: int) -> Action:
        info = Information(state, player, opponent_deck_known=self.opponent_deck_known)
        acts = info.legal_actions()
        if not acts:
            return Concede(player)
        planned = self._from_plan(info, acts)
        if len(acts) == 1:
            if planned is not None:
                self.plan.pop(0)
            return acts[0]
        if is_setup(acts):  # C-4.1 Commander, C-4.4 mulligan: by rule of thumb
            g = info.determinize(self.rng)
            special = setup_or_card_choice(g, player, acts)
            return special if special is not None else greedy_choice(g, player, acts, self.rng, self.weights)
        if self.per_action:
            return self._search_actions(info, acts, player)
        if planned is not None and self.replan == 0.0:
            self.plan.pop(0)
            return planned[0]
        # a plan in hand is checked against the alternatives of this decision with a smaller budget
        return self._search(info, acts, player, planned)

    # -- search ----------------------------------------------------------------------------------

    def _segment(
        self, g: GameState, player: int, prefix: tuple[Action, ...] | None, rng: Random
    ) -> tuple[Action, ...]:
        """Play our segment on ``g``: replay ``prefix`` (while legal) or sample a new plan (noisy greedy),
        then finish the segment greedily. Returns the plan (cut after a draw) when sampling, else ``prefix``."""
        plan: list[Action] = []
        recording = prefix is None
        i = 0
        for _ in range(self.rollout_cap):
            if g.outcome_ is not None or acting(g) != player:
                break
            acts = legal(g, player)
            if prefix is not None and i < len(prefix) and prefix[i] in acts:
                a = prefix[i]
                i += 1
            else:
                if prefix is not None:
                    i = len(prefix)  # off the plan: finish greedily
                if recording:
                    a = noisy_choice(g, player, acts, rng, self.noise, self.weights)
                else:
                    a = greedy_choice(g, player, acts, rng, self.weights)
            if recording:
                plan.append(a)
                if isinstance(a, Reinforce):  # C-5.2 draws hidden cards: the rest of the plan waits
                    recording = False
            g.apply_unchecked(a)
        return tuple(plan) if prefix is None else prefix

    def _opponent_turns(self, g: GameState, player: int, turn0: int, rng: Random) -> GameState:
        """Play on to ``player``'s next turn; at the opponent's turn, the best for the opponent of
        ``replies`` sampled continuations (the first one pure greedy). Returns the final state."""
        for _ in range(self.rollout_cap):
            if g.outcome_ is not None or (g.turn > turn0 and g.active == player):
                return g
            p = acting(g)
            if p != player and g.active == p and self.replies > 1:
                best: GameState | None = None
                best_v = 2.0
                for r in range(self.replies):
                    h = g.clone()
                    for _ in range(self.rollout_cap):
                        if h.outcome_ is not None or (h.turn > turn0 and h.active == player):
                            break
                        q = acting(h)
                        acts = legal(h, q)
                        if q == p and r > 0:
                            h.apply_unchecked(noisy_choice(h, q, acts, rng, self.noise, self.weights))
                        else:
                            h.apply_unchecked(greedy_choice(h, q, acts, rng, self.weights))
                    v = value(h, player, evaluate_position, self.weights)
                    if v < best_v:
                        best, best_v = h, v
                assert best is not None
                return best
            g.apply_unchecked(greedy_choice(g, p, legal(g, p), rng, self.weights))
        return g

    def _simulate(self, world: GameState, player: int, plan: tuple[Action, ...], seed: int) -> float:
        """One simulation of ``plan`` on ``world`` (its random choices seeded by ``seed``: every plan meets
        the same opponent on the same world, common random numbers)."""
        g = world.clone()
        rng = Random(seed)
        turn0 = g.turn
        self._segment(g, player, plan, rng)
        end = self._opponent_turns(g, player, turn0, rng)
        if self.own_turn_after and end.outcome_ is None:
            t1 = end.turn  # our next turn, greedy, to the start of the opponent's turn after it
            for _ in range(self.rollout_cap):
                # ``is_terminal()``, not ``outcome_``: the test above narrowed ``outcome_`` to None and a
                # build by mypyc trusts that narrowing after the moves below (docs/speed.md).
                if end.is_terminal() or end.turn > t1:
                    break
                q = acting(end)
                end.apply_unchecked(greedy_choice(end, q, legal(end, q), rng, self.weights))
        return value(end, player, evaluate_position, self.weights)

    def _search(
        self, info: Information, acts: list[Action], player: int, planned: tuple[Action, ...] | None
    ) -> Action:
        """Candidates: the plan in hand, the greedy plan, the ``first`` best first actions by the greedy
        score each completed greedily, and noisy greedy plans, up to ``width``. Then sequential halving:
        every surviving plan is simulated on the same worlds, the worse half dropped after each round."""
        self.searches += 1
        if planned is None:
            budget = Budget(self.budget_s, self.iterations)
        else:
            budget = Budget(
                self.budget_s * self.replan,
                None if self.iterations is None else max(1, int(self.iterations * self.replan)),
            )
        rng = self.rng
        worlds: list[tuple[GameState, int]] = []

        def world(k: int) -> tuple[GameState, int]:
            while len(worlds) <= k:
                worlds.append((info.determinize(rng), rng.getrandbits(48)))
            return worlds[k]

        plans: dict[tuple[Action, ...], _Plan] = {}
        if planned is not None:
            plans[planned] = _Plan(planned)
        w0 = world(0)[0]
        greedy = self._greedy_plan(w0, player, None)
        if greedy and greedy[0] in acts:
            plans.setdefault(greedy, _Plan(greedy))
        ranked = sorted(scored(w0, player, acts, self.weights), key=lambda sa: -sa[0])
        for _, a in ranked[: self.first]:
            if len(plans) >= self.width:
                break
            if any(p[0] == a for p in plans):
                continue
            plan = self._greedy_plan(w0, player, a)
            if plan:
                plans.setdefault(plan, _Plan(plan))
        for attempt in range(3 * self.width):
            if len(plans) >= self.width or not budget.time_left():
                break
            w, _ = world(attempt % 4)
            plan = self._segment(w.clone(), player, None, rng)
            if plan and plan[0] in acts and plan not in plans:
                plans[plan] = _Plan(plan)
        if not plans:
            return greedy_choice(world(0)[0], player, acts, rng, self.weights)
        best = self._halve(list(plans.values()), player, world, budget)
        self._adopt(info, player, best.actions)
        action, _ = self.plan.pop(0)
        return action

    def _search_actions(self, info: Information, acts: list[Action], player: int) -> Action:
        """Each decision on its own: every legal action is simulated on the same fresh determinized worlds
        (common random numbers: a new world and seed per round), its segment finished greedily, the
        opponent replying by the best for them of ``replies`` sampled turns, scored by
        ``evaluate_position`` (``_simulate``); sequential halving (``_halve``), the best mean wins."""
        self.searches += 1
        self.plan = []
        budget = Budget(self.budget_s, self.iterations)
        rng = self.rng

        def fresh(_round: int) -> tuple[GameState, int]:  # a new world and seed every round
            return info.determinize(rng), rng.getrandbits(48)

        return self._halve([_Plan((a,)) for a in acts], player, fresh, budget).actions[0]

    def _halve(
        self,
        alive: list[_Plan],
        player: int,
        world: Callable[[int], tuple[GameState, int]],
        budget: Budget,
    ) -> _Plan:
        """Sequential halving (Karnin, Koren and Somekh 2013) on the budget: every round simulates the
        surviving candidates on one ``world(k)`` (the same world and seed for all: common random numbers).
        After a first round, which measures what a simulation costs, the simulations left are shared
        equally among the halvings still to come, each candidate of a halving taking its share before the
        worse half is dropped; the last two share what is left. So a larger budget looks longer at every
        stage, not only at the final pair. The best mean wins."""
        k = 0

        def one_round() -> bool:
            nonlocal k
            w, seed = world(k)
            k += 1
            for c in alive:
                if not budget.more():
                    return False
                c.total += self._simulate(w, player, c.actions, seed)
                c.visits += 1
                budget.done += 1
            return True

        def mean(c: _Plan) -> float:
            return c.total / c.visits if c.visits else 0.0

        if len(alive) > 1:
            one_round()
        while len(alive) > 1 and budget.more():
            halvings = math.ceil(math.log2(len(alive)))
            rounds = budget.left() // (halvings * len(alive))
            if len(alive) == 2:
                rounds = max(1, rounds)
            for _ in range(rounds):
                if not one_round():
                    break
            if len(alive) > 2:
                alive.sort(key=lambda c: -mean(c))
                alive = alive[: (len(alive) + 1) // 2]
        return max(alive, key=lambda c: (c.visits > 0, mean(c)))

    def _greedy_plan(self, world: GameState, player: int, first: Action | None) -> tuple[Action, ...]:
        """The greedy plan for our segment on ``world`` (after ``first``, if given), cut after a draw."""
        g = world.clone()
        plan: list[Action] = []
        for _ in range(self.rollout_cap):
            if g.outcome_ is not None or acting(g) != player:
                break
            if first is not None and not plan:
                a = first
            else:
                a = greedy_choice(g, player, legal(g, player), self.rng, self.weights)
            plan.append(a)
            g.apply_unchecked(a)
            if isinstance(a, Reinforce):
                break
        return tuple(plan)

    def _adopt(self, info: Information, player: int, actions: tuple[Action, ...]) -> None:
        """Keep ``actions`` as the turn plan with the view expected before each (replayed on a sample)."""
        g = info.determinize(self.rng)
        self.plan = []
        for a in actions:
            if g.outcome_ is not None or acting(g) != player or a not in legal(g, player):
                break
            self.plan.append((a, g.player_view(player) if self.plan else info.view()))
            g.apply_unchecked(a)
