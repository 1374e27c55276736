"""The Westeros AI's tunables in one value: the levels' budgets and the share of a budget per kind of
decision, the search's constants per level, the greedy level's scores (`heuristics.greedy_score`), the
static evaluation's weights and seat constants (`heuristics.evaluate`) and the house-card draw.

Agents take it as ``params=`` (`agents.make_agent`); None means `DEFAULT_PARAMS`. A bench that varies a
tunable (``--seat-prior off``) builds another value (``dataclasses.replace``) and hands it to the agents it
makes; nothing changes a module global at run time (treat the value and its dicts as read-only). The
defaults are the values the levels were tuned and fitted with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matches.kit.agentbase import AgentBase, picklable_by_fields


@dataclass(frozen=True)
class WesterosSearchParams:
    """One searching level (`search.SearchAgent`)."""

    max_candidates: int = 8  # actions simulated per decision (best first by `greedy_score`)
    plan_candidates: int = 10  # order plans simulated per Planning phase (W-5.1)
    horizon_rounds: int = 1  # rollouts stop at the Planning phase this many rounds on
    max_rollout_decisions: int = 260  # a rollout's guard
    noise: float = 0.6  # the rollout policy's noise (and the resampled orders' of the other houses)


@dataclass(frozen=True)
class GreedyWeights:
    """The one-step scores of `heuristics.greedy_score` (the greedy level and the search's prior)."""

    remove_order: float = -100.0  # W-5.1: rollouts never take a placed order back
    march_order_near_target: float = 4.0  # a March order next to a castle another house holds
    march_order: float = 1.0
    march_plus_one: float = 0.5  # added for the +1 March token
    defense_order_castle: float = 2.5
    defense_order: float = 0.5
    consolidate_order: float = 1.5  # plus the area's crowns
    support_order: float = 2.0
    other_order: float = 1.0
    march_per_unit: float = 0.3
    march_takes_land: float = 3.0  # into land another house (or nobody) controls
    march_takes_castle: float = 5.0  # ... with a castle or stronghold
    march_into_neutral: float = 2.0  # against a neutral force (W-11)
    combat_won: float = 2.0  # units and modifiers alone reach the defence (ties counted as won)
    combat_lost: float = -6.0
    end_march_leaving_power: float = 1.0  # W-7.3: leave a Power token behind
    end_march: float = 0.5
    support_own_side: float = 10.0
    card_swords: float = 0.5  # per sword icon of a house card, added to its strength
    card_fortifications: float = 0.3
    muster: dict[str, float] = field(
        default_factory=lambda: {"knight": 3.0, "siege_engine": 2.0, "footman": 2.5, "ship": 1.5}
    )
    consolidate_muster: float = 2.0  # a Consolidate Power ★ used to muster (W-8.3)
    consolidate: float = 1.0
    raid_consolidate: float = 2.0  # a Raid on a Consolidate Power order (W-8.1)
    raid: float = 1.0
    choose: dict[str, dict[str, float]] = field(
        default_factory=lambda: {
            "blade": {"use": 1.0},
            "tyrion": {"cancel": 1.0},
            "aeron": {"keep": 1.0},
            "muster_done": {"done": -1.0},
            "throne_of_blades": {"mustering": 1.0},
            "dark_wings": {"collect_power": 1.0},
            "raven": {"look": 0.5},
            "port_takeover": {"replace": 1.0},
            "renly": {"none": -1.0},
            "cersei": {"none": -1.0},
        }
    )
    tie: float = 0.05  # the greedy level picks at random among actions this close to the best
    wins_the_game: float = 12.0  # the rollout policy's bonus for the castle that ends the game (W-18.1)


@dataclass(frozen=True)
class WesterosAIParams:
    """Every tunable of the Westeros agents (see the module text)."""

    # CPU seconds per decision at weight 1 (`kind_weight` scales it per kind of decision; forced decisions
    # take none). flatmc gets hard's budget: the baseline is compared at equal budget.
    level_budget_s: dict[str, float] = field(
        default_factory=lambda: {
            "random": 0.0,
            "greedy": 0.0,
            "easy": 0.0,
            "normal": 0.06,
            "hard": 0.25,
            "flatmc": 0.25,
        }
    )
    # Share of the level's budget per kind of decision: spend where it matters (orders are one search per
    # round).
    kind_weight: dict[str, float] = field(
        default_factory=lambda: {
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
    )
    other_kind_weight: float = 0.5  # a kind of decision `kind_weight` does not name
    easy_blunder: float = 0.25  # share of easy's decisions with a choice played at random
    normal: WesterosSearchParams = WesterosSearchParams(max_candidates=5, plan_candidates=5)
    hard: WesterosSearchParams = WesterosSearchParams()
    # Bids simulated when there are more than `max_candidates` (plus all of the house's Power, W-14.2).
    bid_spread: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15)
    # House cards (`search.SearchAgent._house_card`): a card's weight is its equilibrium share plus
    # card_floor, times e per card_temperature its simulations score below the best card's (in chances).
    card_floor: float = 0.01
    card_temperature: float = 0.01
    log_floor: float = 0.005  # the objective's floor: a simulation another house won scores log(0.005)
    flatmc_max_decisions: int = 3000  # flatmc's rollouts to the end of the game: a guard
    greedy: GreedyWeights = field(default_factory=GreedyWeights)
    # The static evaluation: each house's score is a weighted sum of `heuristics.FEATURES` (in this
    # order) and `heuristics.evaluate` a softmax of the scores, a house's chance to win. The weights are
    # fitted (`bench/westeros_eval_fit.py`) as a conditional logit of the eventual winner on the features
    # at the start of each Planning phase (where the search's rollouts stop), over 3,000 six-house tables of
    # the rollout policy and the greedy level, with a per-house constant in the fit so the seats' own
    # strength does not leak into the features (the constants are left out here: the evaluation reads the
    # position, not the seat). On 800 other tables the fitted evaluation predicts the winner with a log
    # loss of 1.34-1.36 (uniform 1.79); the hand-set one it replaced scored 1.87, worse than a uniform
    # guess, because it was far too sure. Iron Throne came out slightly negative (-0.08) and is held at 0.
    eval_weights: dict[str, float] = field(
        default_factory=lambda: {
            "castles": 0.383,  # W-18: castles and strongholds controlled
            "castles_over_4": -0.151,  # the castles beyond four ...
            "castles_over_5": 0.395,  # ... and beyond five: one capture from the W-18.1 win
            "castles_progress": 0.358,  # castles times the share of the game played (round / last round)
            "castles_last_rounds": 0.138,  # castles in the last two rounds (W-18.2)
            "lands": 0.043,
            "supply": 0.058,
            "power": 0.049,
            "army": 0.188,  # UNIT_VALUE of the units, routed ones at half
            "iron_throne": 0.0,  # position on each influence track, 1 at the top, 0 at the bottom (W-13)
            "fiefdoms": 0.367,  # the Valyrian Steel Blade and every combat tie (W-9.6, W-9.8)
            "kings_court": 0.325,  # the star orders (W-5.2) and the Messenger Raven
            "cards": 0.043,  # printed strength of the house cards in hand
            "castles_at_risk": -0.251,  # own castles another house's army can take next round
            "castles_in_reach": 0.195,  # other houses' castles an own army can take next round
        }
    )
    # Seat constants of the evaluation, added to each house's score so that the evaluation's chances at
    # the start of a six-house game match who won the 100 hard tables of the AI without them (Greyjoy 46,
    # Stark 19, Martell 16, Tyrell 10, Baratheon 5, Lannister 4): c(h) = ln(share won / `evaluate` at the
    # start). Every house's search then reads the Greyjoy seat as the one to stop. On by default: with
    # them every house of a hard table wins at least 8% (docs/westeros-engine.md, "Seat balance");
    # ``--seat-prior on|off`` in `bench/westeros_balance.py` and `bench/ai_strength.py` compares. Measured
    # for six houses only; other player counts get none.
    seat_prior: dict[int, dict[str, float]] = field(
        default_factory=lambda: {
            6: {
                "greyjoy": 0.74,
                "stark": 0.18,
                "martell": -0.04,
                "tyrell": -0.25,
                "lannister": -1.27,
                "baratheon": -1.31,
            },
        }
    )
    seat_prior_on: bool = True

    def search(self, level: str) -> WesterosSearchParams:
        """The search constants of ``level`` (``hard``'s for any level but ``normal``)."""
        return self.normal if level == "normal" else self.hard

    def max_budget_factor(self) -> float:
        """The most one decision may take, in level budgets (an order plan: 2.4)."""
        return max(self.kind_weight.values())


picklable_by_fields(WesterosSearchParams, GreedyWeights, WesterosAIParams)  # the benches' worker processes
DEFAULT_PARAMS = WesterosAIParams()


class WesterosAgentBase(AgentBase[WesterosAIParams]):
    """The kit's agent base with the Westeros defaults (``params=None`` means `DEFAULT_PARAMS`)."""

    def default_params(self) -> WesterosAIParams:
        return DEFAULT_PARAMS


__all__ = [
    "DEFAULT_PARAMS",
    "GreedyWeights",
    "WesterosAIParams",
    "WesterosAgentBase",
    "WesterosSearchParams",
]
