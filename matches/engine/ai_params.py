"""The Commandeer AI's tunables in one value: the levels' budgets, the search's constants per level, the
easy level's blunder rate and the numbers of the greedy policy and the static evaluations (``policy.py``).

Agents take it as ``params=`` (``agents.make_agent``); None means ``DEFAULT_PARAMS``. A bench that varies a
tunable builds another value (``dataclasses.replace``) and hands it to the agents it makes; nothing changes
a module global at run time (treat the value and its dicts as read-only). The defaults are the values the levels were tuned with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matches.kit.agentbase import AgentBase, picklable_by_fields


@dataclass(frozen=True)
class PlanSearchParams:
    """One searching level (``search.PlanSearchAgent``)."""

    replies: int  # opponent turns sampled per simulation (the opponent plays the best of them for itself)
    noise: float = 0.35  # chance per decision that a generated plan departs from greedy
    width: int = 16  # distinct candidate plans per search
    first: int = 14  # of which at most this many start with each of the best first actions (greedy score)
    replan: float = 0.4  # budget share of a decision that has a plan in hand (0: replay the plan unchecked)
    own_turn_after: bool = False  # simulations also play our next turn (greedy) before scoring
    per_action: bool = False  # search each decision's actions (flat, halving) instead of keeping a turn plan


@dataclass(frozen=True)
class PolicyWeights:
    """The greedy policy's scores and the static evaluations' weights (``policy.py``; Health and Power in
    the engine's units, 1000 a point)."""

    # evaluate / evaluate_position (C-6.1: the Defeated-zone race)
    defeated: float = 8000.0  # per card in the opponent's Defeated zone more than in ours
    hand: float = 300.0  # per card in hand more than the opponent
    energy: float = 500.0  # per Energy card more than the opponent
    on_board: float = 1500.0  # a unit on the battlefield is worth this more than its stats
    race: float = 1500.0  # times (Defeated cards beyond ``defeated_to_lose - 3``) squared
    strike_first: float = 0.5  # share of the worth of enemy units the side to move can defeat at once
    value_scale: float = 12000.0  # ``search.value``: tanh(evaluation / this) into [0, 1]
    # one-ply greedy scores (``policy.scored``)
    deploy: float = 3000.0
    deploy_edge: float = -2000.0  # onto an edge square (C-2.3)
    threatened_square: float = 2500.0  # a square an enemy unit can attack next turn
    deploy_facing_enemy: float = 1500.0  # per arrow pointing at an adjacent enemy (C-1.2)
    attack_defeats: float = 20000.0  # an attack that defeats its target (C-5.7)
    attack: float = 1000.0  # any other attack
    move: float = -500.0  # a move that gains no safety
    reinforce: float = 1500.0  # Reinforce (C-5.2) with a short hand or no Energy
    reinforce_full_hand: float = 200.0
    reinforce_hand_below: int = 4  # a hand shorter than this is short
    reinforce_no_unit: float = 4000.0  # dig for a unit to deploy (C-5.4)
    other: float = 100.0  # added to the change of ``evaluate`` one ply on (events, abilities, choices)
    noisy_top: int = 3  # ``noisy_choice`` picks among this many best actions
    noisy_floor: float = -10000.0  # ... that score above this (not suicidal)


@dataclass(frozen=True)
class CommandeerAIParams:
    """Every tunable of the Commandeer agents (see the module text)."""

    # CPU seconds per searched decision, by level (``matches.kit.budget``; the play layer scales them by
    # AI_BUDGET_SCALE). A decision with one legal action, a set-up rule of thumb or the next step of a
    # turn plan costs nothing.
    level_budget_s: dict[str, float] = field(
        default_factory=lambda: {
            "random": 0.0,
            "greedy": 0.0,
            "easy": 0.0,
            "normal": 0.06,
            "hard": 0.3,
            "flatmc": 0.3,
        }
    )
    easy_blunder: float = 0.35  # share of easy's decisions with a choice played at random
    normal: PlanSearchParams = PlanSearchParams(replies=1)
    hard: PlanSearchParams = PlanSearchParams(replies=2, own_turn_after=True, per_action=True)
    rollout_cap: int = 400  # actions per simulation (a turn is far fewer; a guard only)
    policy: PolicyWeights = PolicyWeights()

    def search(self, level: str) -> PlanSearchParams:
        """The search constants of ``level`` (``hard``'s for any level but ``normal``)."""
        return self.normal if level == "normal" else self.hard


picklable_by_fields(PlanSearchParams, PolicyWeights, CommandeerAIParams)  # the benches' worker processes
DEFAULT_PARAMS = CommandeerAIParams()
DEFAULT_WEIGHTS = DEFAULT_PARAMS.policy


class CommandeerAgentBase(AgentBase[CommandeerAIParams]):
    """The kit's agent base with the Commandeer defaults (``params=None`` means ``DEFAULT_PARAMS``)."""

    def default_params(self) -> CommandeerAIParams:
        return DEFAULT_PARAMS


__all__ = [
    "DEFAULT_PARAMS",
    "DEFAULT_WEIGHTS",
    "CommandeerAgentBase",
    "CommandeerAIParams",
    "PlanSearchParams",
    "PolicyWeights",
]
