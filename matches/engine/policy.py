"""Move scoring for the Commandeer bots: the static evaluation and the one-ply greedy policy.

Everything here reads a FULL state, so an agent calls it only on a determinized sample
(``information.Information.determinize``), never on the real match (C-8): the hidden cards it sees are
sampled, not peeked at. The search (``search.py``) uses the same policy inside its simulations.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from . import combat, continuous
from .actions import (
    Action,
    Attack,
    ChooseCard,
    ChooseCommander,
    Concede,
    Deploy,
    Keep,
    Move,
    Mulligan,
    Pass,
    Reinforce,
)
from .ai_params import DEFAULT_WEIGHTS, PolicyWeights
from .board import LINES, ROTATE
from .steps import Step

if TYPE_CHECKING:
    from .state import GameState

WIN = 1e9


def candidates(state: GameState, player: int) -> list[Action]:
    """Legal actions without Concede (the engine lists Concede last)."""
    acts = state.legal_actions(player)
    if acts and isinstance(acts[-1], Concede):
        acts.pop()
    return acts


def evaluate(state: GameState, player: int, w: PolicyWeights = DEFAULT_WEIGHTS) -> float:
    """Static value of a state for ``player``: material on the board and the Defeated-zone race (C-6.1)."""
    out = state.outcome_
    if out is not None:
        if out.winner is None:
            return 0.0
        return WIN if out.winner == player else -WIN
    score = 0.0
    defs = state.defs
    for uid, u in state.units.items():
        d = defs[uid]
        worth = d.power + d.health - 2 * u.damage
        score += worth if u.owner == player else -worth
    me, opp = state.sides[player], state.sides[1 - player]
    score += w.defeated * (len(opp.defeated) - len(me.defeated))
    score += w.hand * (len(me.hand) - len(opp.hand)) + w.energy * (len(me.energy) - len(opp.energy))
    return score


def setup_or_card_choice(state: GameState, player: int, acts: list[Action]) -> Action | None:
    """Take the strongest Commander (C-4.1); mulligan hands without an early unit (C-4.4);
    bottom/discard/Energy the least useful card (C-4.4, C-5.2, C-5.9). None: not such a decision."""
    first = acts[0]
    if isinstance(first, ChooseCommander):
        by_name = {d.name: d for d in state.defs.values()}
        commanders = [
            (a, by_name[a.name]) for a in acts if isinstance(a, ChooseCommander) and a.name in by_name
        ]
        if commanders:
            return max(commanders, key=lambda ad: (ad[1].power + ad[1].health, ad[1].name))[0]
    if isinstance(first, Keep | Mulligan):
        side = state.sides[player]
        cheap = [
            c
            for c in side.hand
            if state.defs[c].is_unit and state.defs[c].command_cost <= 2 and state.defs[c].energy_cost == 0
        ]
        mull = [a for a in acts if isinstance(a, Mulligan)]
        return mull[0] if (not cheap and mull) else next(a for a in acts if isinstance(a, Keep))
    if isinstance(first, ChooseCard) and state.choice is not None:
        cards = [a for a in acts if isinstance(a, ChooseCard)]
        kind = state.choice.kind
        if kind == "pay_energy" or kind == "retire_energy":
            return cards[0]
        units_on_board = any(u.owner == player for u in state.units.values())

        def usefulness(a: ChooseCard) -> float:
            d = state.defs[a.card]
            cost = d.command_cost + d.energy_cost
            if d.is_unit:
                early = not units_on_board and d.command_cost <= 3 and d.energy_cost == 0
                return (d.power + d.health) / 1000.0 - cost + (20.0 if early else 0.0)
            return 3.0 - cost

        return min(cards, key=lambda a: (usefulness(a), a.card))
    return None


def threatened(state: GameState, player: int) -> set[int]:
    """Squares an enemy unit could attack next turn (adjacent along its arrows, or any along a line if ranged)."""
    out: set[int] = set()
    for uid, u in state.units.items():
        if u.owner == player:
            continue
        ranged = continuous.has_range(state, uid)
        for a in combat.arrows_of(state, uid):
            line = LINES[u.sq][a]
            if line:
                out.update(line if ranged else line[:1])
    return out


def _deploy_score(state: GameState, a: Deploy, threat: set[int], w: PolicyWeights) -> float:
    d = state.defs[a.card]
    health = d.health - state.edge[a.square]
    if health <= 0:
        return -50000.0  # would be defeated at once (C-2.3)
    score = w.deploy + d.power + health
    if state.edge[a.square]:
        score += w.deploy_edge
    if a.square in threat:
        score -= w.threatened_square
    # squares from which it can attack an enemy next turn are worth more (C-5.6, arrows C-1.2)
    for arrow in d.arrows:
        if state.config.rotate_second_player_arrows and a.player != state.first:
            arrow = ROTATE[arrow]
        line = LINES[a.square][arrow]
        if line:
            t = state.board[line[0]]
            if t is not None and state.units[t].owner != a.player:
                score += w.deploy_facing_enemy
    return score


def _attack_score(state: GameState, a: Attack, w: PolicyWeights) -> float:
    power, _, ranged = continuous.stats(state, a.unit)
    if ranged and a.target in state.marks:
        power += state.config.marking_bonus * state.marks[a.target]  # C-7.4
    t = state.units[a.target]
    _, health, _ = continuous.stats(state, a.target)
    d = state.defs[a.target]
    if t.damage + power >= health:  # C-5.7
        return w.attack_defeats + d.power + d.health
    return w.attack + power


def _move_score(
    state: GameState, a: Move, threat: set[int], here: dict[int, float], w: PolicyWeights
) -> float:
    u = state.units[a.unit]
    d = state.defs[a.unit]
    h = here.get(a.unit)
    if h is None:
        h = here[a.unit] = state.edge[u.sq] + (w.threatened_square if u.sq in threat else 0.0)
    there = state.edge[a.square] + (w.threatened_square if a.square in threat else 0.0)
    if d.health + u.hmod + u.thmod - state.edge[a.square] <= u.damage:
        return -50000.0
    return h - there + w.move


def _pass_score(state: GameState, player: int) -> float:
    if (
        state.outcome_ is None
        and state.step is Step.PLANNING
        and not any(u.owner == player for u in state.units.values())
    ):
        return -1e8  # passing now would lose at once (C-5.4)
    return 0.0


def scored(
    state: GameState, player: int, acts: list[Action], w: PolicyWeights = DEFAULT_WEIGHTS
) -> list[tuple[float, Action]]:
    """The greedy score of each action (higher is better): defeat units, place safely (no edges, out of
    enemy arrows), spend CP well; other actions by the change of ``evaluate`` one ply on."""
    threat: set[int] | None = None
    here: dict[int, float] = {}
    out: list[tuple[float, Action]] = []
    base: float | None = None
    side = state.sides[player]
    for a in acts:
        kind = type(a)
        if kind is Move:  # the most numerous by far: scored first
            if threat is None:
                threat = threatened(state, player)
            s = _move_score(state, a, threat, here, w)  # type: ignore[arg-type]
        elif kind is Deploy:
            if threat is None:
                threat = threatened(state, player)
            s = _deploy_score(state, a, threat, w)  # type: ignore[arg-type]
        elif isinstance(a, Attack):
            s = _attack_score(state, a, w)
        elif isinstance(a, Pass):
            s = _pass_score(state, player)
        elif isinstance(a, Reinforce):
            short = len(side.hand) < w.reinforce_hand_below or not side.energy
            s = w.reinforce if short else w.reinforce_full_hand
            if not any(u.owner == player for u in state.units.values()):
                s = w.reinforce_no_unit  # dig for a unit to deploy (C-5.4)
        else:
            if base is None:
                base = evaluate(state, player, w)
            g = state.clone()
            g.event_log = False
            g.apply_unchecked(a)
            s = evaluate(g, player, w) - base + w.other
        out.append((s, a))
    return out


def greedy_choice(
    state: GameState, player: int, acts: list[Action], rng: Random, w: PolicyWeights = DEFAULT_WEIGHTS
) -> Action:
    """The one-ply greedy choice among ``acts`` (ties broken by ``rng``)."""
    if len(acts) == 1:
        return acts[0]
    special = setup_or_card_choice(state, player, acts)
    if special is not None:
        return special
    best: list[Action] = []
    best_score = float("-inf")
    for s, a in scored(state, player, acts, w):
        if s > best_score:
            best_score, best = s, [a]
        elif s == best_score:
            best.append(a)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def noisy_choice(
    state: GameState,
    player: int,
    acts: list[Action],
    rng: Random,
    noise: float,
    w: PolicyWeights = DEFAULT_WEIGHTS,
) -> Action:
    """Greedy, except that with probability ``noise`` one of the three best non-suicidal actions is taken
    at random: varied but sensible turn plans for the search."""
    if len(acts) == 1 or rng.random() >= noise:
        return greedy_choice(state, player, acts, rng, w)
    special = setup_or_card_choice(state, player, acts)
    if special is not None:
        return special
    ranked = sorted(scored(state, player, acts, w), key=lambda sa: -sa[0])
    top = [a for s, a in ranked[: w.noisy_top] if s > w.noisy_floor] or [ranked[0][1]]
    return top[rng.randrange(len(top))]


def evaluate_position(state: GameState, player: int, w: PolicyWeights = DEFAULT_WEIGHTS) -> float:
    """The search's static value for ``player``: ``evaluate`` with each unit at its current Power and
    Health (modifiers, continuous abilities, the C-2.3 edge reduction), the C-6.1 race weighted more as
    a player nears six Defeated cards, and the enemy units the side to move could defeat at once."""
    out = state.outcome_
    if out is not None:
        if out.winner is None:
            return 0.0
        return WIN if out.winner == player else -WIN
    cont = continuous.bonuses(state)
    score = 0.0
    power: dict[int, int] = {}
    health: dict[int, int] = {}
    worth: dict[int, float] = {}
    for uid, u in state.units.items():
        p, h, _ = continuous.stats(state, uid, cont)
        power[uid], health[uid] = p, h - u.damage
        v = p + max(0, h - u.damage) + w.on_board  # a unit on the battlefield is worth more than its stats
        worth[uid] = v
        score += v if u.owner == player else -v
    me, opp = state.sides[player], state.sides[1 - player]
    lose = state.config.defeated_to_lose
    nd_me, nd_opp = len(me.defeated), len(opp.defeated)
    score += w.defeated * (nd_opp - nd_me) + w.race * (
        max(0, nd_opp - lose + 3) ** 2 - max(0, nd_me - lose + 3) ** 2
    )
    score += w.hand * (len(me.hand) - len(opp.hand)) + w.energy * (len(me.energy) - len(opp.energy))
    # the side to move strikes first: enemy units one of its units can defeat with one attack (C-5.6, C-5.7)
    mover = state.active
    if state.step in (Step.TURN_START, Step.START_CP, Step.PLANNING, Step.COMBAT):
        killable: set[int] = set()
        board, units = state.board, state.units
        for uid, u in units.items():
            if u.owner != mover or u.attacked:
                continue
            ranged = continuous.has_range(state, uid)
            for a in combat.arrows_of(state, uid):
                line = LINES[u.sq][a]
                for s in line if ranged else line[:1]:
                    t = board[s]
                    if t is not None and units[t].owner != mover and power[uid] >= health[t]:
                        killable.add(t)
        bonus = w.strike_first * sum(w.defeated + worth[t] for t in killable)
        score += bonus if mover == player else -bonus
    return score


__all__ = [
    "candidates",
    "evaluate",
    "evaluate_position",
    "greedy_choice",
    "noisy_choice",
    "scored",
    "setup_or_card_choice",
    "threatened",
]
