"""The declared turn structure (C-4 set-up, C-5 phases; docs/style.md 6): the steps a match walks, which of them
wait for a player's action, and the phase each belongs to. Data only, so every rule module may read it."""

from __future__ import annotations

from enum import StrEnum


class Step(StrEnum):
    """Where the match is in C-4 set-up and the C-5 turn (declared turn structure)."""

    COMMANDER = "commander"
    MULLIGAN = "mulligan"
    TURN_START = "turn_start"
    START_CP = "start_cp"
    PLANNING = "planning"
    PLANNING_END = "planning_end"
    DEFENDING_START = "defending_start"
    DEFENDING = "defending"
    COMBAT = "combat"
    COMBAT_END = "combat_end"
    END = "end"
    END_CHECK = "end_check"
    OVER = "over"


INPUT_STEPS = frozenset({Step.COMMANDER, Step.MULLIGAN, Step.PLANNING, Step.DEFENDING, Step.COMBAT})


PHASE_OF = {
    Step.COMMANDER: "setup",
    Step.MULLIGAN: "setup",
    Step.TURN_START: "planning",
    Step.START_CP: "planning",
    Step.PLANNING: "planning",
    Step.PLANNING_END: "planning",
    Step.DEFENDING_START: "defending",
    Step.DEFENDING: "defending",
    Step.COMBAT: "combat",
    Step.COMBAT_END: "combat",
    Step.END: "end",
    Step.END_CHECK: "end",
    Step.OVER: "over",
}
