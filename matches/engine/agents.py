"""Bots for Commandeer: ``RandomAgent`` and a one-ply ``GreedyAgent``. Both choose only from legal_actions.

Bots take an injected ``rng`` (STYLE.md §1) and never concede.
"""

from __future__ import annotations

from random import Random

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
from .state import LINES, ROTATE, GameState, Reason


def _candidates(state: GameState, player: int) -> list[Action]:
    """Legal actions without Concede (the engine lists Concede last)."""
    acts = state.legal_actions(player)
    if acts and isinstance(acts[-1], Concede):
        acts.pop()
    return acts


class RandomAgent:
    """Uniformly random among the legal actions (concession excluded)."""

    name = "random"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, player: int) -> Action:
        acts = _candidates(state, player)
        return acts[self.rng.randrange(len(acts))] if acts else Concede(player)


def evaluate(state: GameState, player: int) -> float:
    """Static value of a state for ``player``: material on the board and the Defeated-zone race (C-6.1)."""
    out = state.outcome()
    if out is not None:
        if out.winner is None:
            return 0.0
        return 1e9 if out.winner == player else -1e9
    score = 0.0
    for uid, u in state.units.items():
        d = state.defs[uid]
        worth = d.power + d.health - 2 * u.damage
        score += worth if u.owner == player else -worth
    me, opp = state.sides[player], state.sides[1 - player]
    score += 8000.0 * (len(opp.defeated) - len(me.defeated))
    score += 300.0 * (len(me.hand) - len(opp.hand)) + 500.0 * (len(me.energy) - len(opp.energy))
    return score


class GreedyAgent:
    """One-ply heuristic: defeat units, place safely (no edges, out of enemy arrows), spend CP well."""

    name = "greedy"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, player: int) -> Action:
        acts = _candidates(state, player)
        if not acts:
            return Concede(player)
        if len(acts) == 1:
            return acts[0]
        special = self._setup_or_card_choice(state, player, acts)
        if special is not None:
            return special
        threat = self._threatened(state, player)
        best: list[Action] = []
        best_score = float("-inf")
        base = None
        for a in acts:
            if isinstance(a, Deploy):
                s = self._deploy_score(state, a, threat)
            elif isinstance(a, Attack):
                s = self._attack_score(state, a)
            elif isinstance(a, Move):
                s = self._move_score(state, a, threat)
            elif isinstance(a, Pass):
                s = self._pass_score(state, player)
            elif isinstance(a, Reinforce):
                side = state.sides[player]
                s = 1500.0 if len(side.hand) < 4 or not side.energy else 200.0
                if not any(u.owner == player for u in state.units.values()):
                    s = 4000.0  # dig for a unit to deploy (C-5.4)
            else:
                if base is None:
                    base = evaluate(state, player)
                g = state.clone()
                g.apply_unchecked(a)
                s = evaluate(g, player) - base + 100.0
            if s > best_score:
                best_score, best = s, [a]
            elif s == best_score:
                best.append(a)
        return best[self.rng.randrange(len(best))]

    def _setup_or_card_choice(self, state: GameState, player: int, acts: list[Action]) -> Action | None:
        """Take the strongest Commander (C-4.1); mulligan hands without an early unit (C-4.4);
        bottom/discard/Energy the least useful card."""
        by_name = {d.name: d for d in state.defs.values()} if isinstance(acts[0], ChooseCommander) else {}
        commanders = [
            (a, by_name[a.name]) for a in acts if isinstance(a, ChooseCommander) and a.name in by_name
        ]
        if commanders:
            return max(commanders, key=lambda ad: (ad[1].power + ad[1].health, ad[1].name))[0]
        if any(isinstance(a, Keep) for a in acts):
            side = state.sides[player]
            cheap = [
                c
                for c in side.hand
                if state.defs[c].is_unit
                and state.defs[c].command_cost <= 2
                and state.defs[c].energy_cost == 0
            ]
            mull = [a for a in acts if isinstance(a, Mulligan)]
            return mull[0] if (not cheap and mull) else next(a for a in acts if isinstance(a, Keep))
        cards = [a for a in acts if isinstance(a, ChooseCard)]
        if cards and state.choice is not None:
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

    @staticmethod
    def _threatened(state: GameState, player: int) -> set[int]:
        """Squares an enemy unit could attack next turn (adjacent along its arrows, or any along a line if ranged)."""
        out: set[int] = set()
        for uid, u in state.units.items():
            if u.owner == player:
                continue
            ranged = state.has_range(uid)
            for a in state.arrows_of(uid):
                line = LINES[u.sq][a]
                if line:
                    out.update(line if ranged else line[:1])
        return out

    @staticmethod
    def _deploy_score(state: GameState, a: Deploy, threat: set[int]) -> float:
        d = state.defs[a.card]
        health = d.health - state._edge[a.square]
        if health <= 0:
            return -50000.0  # would be defeated at once (C-2.3)
        score = 3000.0 + d.power + health
        if state._edge[a.square]:
            score -= 2000.0
        if a.square in threat:
            score -= 2500.0
        # squares from which it can attack an enemy next turn are worth more
        for arrow in d.arrows:
            if state.config.rotate_second_player_arrows and a.player != state.first:
                arrow = ROTATE[arrow]
            line = LINES[a.square][arrow]
            if line:
                t = state.board[line[0]]
                if t is not None and state.units[t].owner != a.player:
                    score += 1500.0
        return score

    @staticmethod
    def _attack_score(state: GameState, a: Attack) -> float:
        power, _, ranged = state.stats(a.unit)
        if ranged and a.target in state.marks:
            power += state.config.marking_bonus * state.marks[a.target]
        t = state.units[a.target]
        _, health, _ = state.stats(a.target)
        d = state.defs[a.target]
        if t.damage + power >= health:
            return 20000.0 + d.power + d.health
        return 1000.0 + power

    @staticmethod
    def _move_score(state: GameState, a: Move, threat: set[int]) -> float:
        u = state.units[a.unit]
        d = state.defs[a.unit]
        here = state._edge[u.sq] + (2500 if u.sq in threat else 0)
        there = state._edge[a.square] + (2500 if a.square in threat else 0)
        if d.health + u.hmod + u.thmod - state._edge[a.square] <= u.damage:
            return -50000.0
        return float(here - there) - 500.0

    @staticmethod
    def _pass_score(state: GameState, player: int) -> float:
        if (
            state.outcome() is None
            and state.step.value == "planning"
            and not any(u.owner == player for u in state.units.values())
        ):
            return -1e8  # passing now would lose at once (C-5.4)
        return 0.0


Agent = RandomAgent | GreedyAgent
AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, rng: Random) -> Agent:
    """Agent by name (``random``, ``greedy``)."""
    try:
        return AGENTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None


def play_match(
    state: GameState, agents: list[RandomAgent | GreedyAgent], *, max_actions: int = 100000
) -> int:
    """Play to the end with agents[player]; returns the number of actions applied."""
    n = 0
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply_unchecked(agents[p].choose(state, p))
        n += 1
        if n >= max_actions:
            raise RuntimeError("match did not terminate")
    return n


__all__ = ["AGENTS", "GreedyAgent", "RandomAgent", "Reason", "evaluate", "make_agent", "play_match"]
