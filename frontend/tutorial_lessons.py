"""The interactive tutorials' scripts: a prepared position per chapter, the learner's expected moves and the
scripted opponent's moves, with the words shown before and after each step.

A lesson never simulates a rule: its positions are loaded by the real engine (`matches/engine`, the position
format of docs/commandeer-position.md) and every move — the learner's and the opponent's — is matched
against the engine's `legal_actions()` (docs/style.md 3), so each rule a step explains is the rule as the
engine plays it. `frontend/tests/test_tutorial.py` plays every lesson to its end and checks what each step
claims (the CP spent, the Power a Formation gives, the defeat, the win).

A move is written with card *names* instead of instance ids (`{"type": "deploy", "card": "Flamebrand
Recruit", "square": "c3"}`); `frontend/tutorial.py` finds the one legal action that matches it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

Move = dict[str, Any]


@dataclass(frozen=True)
class Step:
    """One step: the instruction, the move the learner makes (None: read, then "Next") and what happened.

    `focus` names page elements the step's words point at (a data-testid: "count-defeated-1"; in the
    Westeros lesson "westeros-card-<id>", a card of the round shown with its text).
    """

    instruction: str | Promise
    explanation: str | Promise
    move: Move | None = None
    focus: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chapter:
    """A prepared position, the steps played from it, and the opponent's moves in the order they come.

    The opponent's queue is consumed whenever it has a real choice; a phase in which its only legal move is
    to end the phase ends by itself (for the learner too), so the script names only the moves that matter.
    """

    title: str | Promise
    position: dict[str, Any]
    steps: tuple[Step, ...]
    opponent: tuple[Move, ...] = field(default=())


@dataclass(frozen=True)
class Lesson:
    game: str
    title: str | Promise
    chapters: tuple[Chapter, ...]

    def steps(self) -> list[tuple[int, int, Step]]:
        """Every step of the lesson in order: (chapter index, index in the chapter, step)."""
        return [(c, i, s) for c, ch in enumerate(self.chapters) for i, s in enumerate(ch.steps)]


LEARNER = 0  # the learner is the first player (C-4.2): their rank 1 is at the bottom of the board (C-2.1)


def _position(turn: int, players: list[dict[str, Any]], board: list[dict[str, Any]]) -> dict[str, Any]:
    """A hand-written position at the start of the learner's turn (the loader runs the start of the turn:
    the CP gain of C-5.1 / C-4.6)."""
    return {
        "format": "commandeer-position",
        "version": 1,
        "turn": turn,
        "active": LEARNER,
        "first_player": LEARNER,
        "step": "turn_start",
        "players": players,
        "board": board,
    }


# ---- Commandeer: the first turns of a match, then its last turn ------------------------------------------

_FIRST_TURNS = _position(
    1,
    [
        {
            "cp": 0,
            "hand": ["Flamebrand Recruit", "Heat Shimmer", "Warband Veteran"],
            "deck": ["Kindling Adept", "Cinder Hound", "Ember Spearwall", "Battle Fury"],
        },
        {"cp": 0, "hand": ["Clay Golem", "Shale Skirmisher"], "deck": ["Pebble Sentry", "Granite Pikeman"]},
    ],
    [],
)

_LAST_TURN = _position(
    9,
    [
        {
            "cp": 0,
            "hand": ["Ashfoot Skirmisher", "Battle Fury"],
            "deck": ["Cinder Hound", "Ember Whelp", "Magma Brute"],
            "energy": ["Pyre Archer"],
            "retired": ["Heat Shimmer", "Cinder Hound"],
            "defeated": ["Flamebrand Recruit", "Kindling Adept", "Cinder Hound"],
        },
        {
            "cp": 0,
            "hand": ["Clay Golem"],
            "deck": ["Pebble Sentry", "Granite Pikeman"],
            "energy": ["Tremor"],
            "defeated": [
                "Clay Golem",
                "Granite Pikeman",
                "Pebble Sentry",
                "Shale Skirmisher",
                "Quarry Shieldbearer",
            ],
        },
    ],
    [
        {"square": "c3", "card": "Ember Spearwall", "owner": 0},
        {"square": "e3", "card": "Flamebrand Recruit", "owner": 0},
        {"square": "c4", "card": "Pebble Sentry", "owner": 1},
        {"square": "e4", "card": "Clay Golem", "owner": 1},
    ],
)

COMMANDEER = Lesson(
    game="commandeer",
    title=_("Learn to play Commandeer"),
    chapters=(
        Chapter(
            title=_("Your first turns"),
            position=_FIRST_TURNS,
            steps=(
                Step(
                    instruction=_(
                        "Welcome! You command the Cinder Legion at the bottom of the battlefield; the "
                        "Stonehold Clans sit at the top. Each unit shows its Power (⚔) and Health (♥) and "
                        "attacks along its arrows (C-1.1, C-1.2). You win when six enemy cards lie in your "
                        "opponent's Defeated zone (C-6.1)."
                    ),
                    explanation=_("Let's start: it is your first turn."),
                    focus=("board", "hand"),
                ),
                Step(
                    instruction=_(
                        "Deploy your first unit. In your first turn you have 2 Command Points (CP) (C-4.6). "
                        "Flamebrand Recruit costs 2 CP — the left number on the card. Click it, then the "
                        "highlighted square C3: the first unit of a match goes on one of the four middle "
                        "squares (C-2.2)."
                    ),
                    move={"type": "deploy", "card": "Flamebrand Recruit", "square": "c3"},
                    explanation=_(
                        "Deploying paid the Recruit's Command cost: 2 CP (C-5.2). With no CP left there was "
                        "nothing more to do, so your turn went on to its end. Then the opponent gained 3 CP "
                        "and deployed Clay Golem and Shale Skirmisher. Every later unit goes on an empty "
                        "square next to a unit already on the battlefield (C-5.2)."
                    ),
                ),
                Step(
                    instruction=_(
                        "Before the opponent attacks, it is your Defending phase (C-5.5): you may play "
                        "Defensive events. Click Heat Shimmer in your hand — it costs 0 CP and 0 Energy."
                    ),
                    move={"type": "play_event", "card": "Heat Shimmer"},
                    explanation=_("Heat Shimmer is being played: now it needs a target."),
                ),
                Step(
                    instruction=_(
                        "Click Clay Golem: it will have 1000 less Power until the end of this turn."
                    ),
                    move={"type": "choose_target", "target": "Clay Golem"},
                    explanation=_(
                        "Then the opponent attacked your Recruit with both units: 1000 + 1500 damage, less "
                        "than its 4000 Health, so it stayed. Damage adds up during a Combat phase and is all "
                        "removed when it ends (C-5.7, C-5.8). Now it is your turn again and you gained "
                        "3 CP (C-5.1)."
                    ),
                ),
                Step(
                    instruction=_(
                        "Reinforce for 1 CP: draw 2 cards, then put 1 card from your hand into your Energy "
                        "zone (C-5.2). Click Reinforce."
                    ),
                    move={"type": "reinforce"},
                    explanation=_("You drew Kindling Adept and Cinder Hound."),
                ),
                Step(
                    instruction=_(
                        "Click Cinder Hound to put it into your Energy zone. Energy pays a card's Energy "
                        "cost, the right number on the card (C-5.3)."
                    ),
                    move={"type": "choose_card", "card": "Cinder Hound"},
                    explanation=_("Cinder Hound is now in your Energy zone, and you have 2 CP left."),
                ),
                Step(
                    instruction=_(
                        "Kindling Adept costs 2 CP and 1 Energy. Click it in your hand, then square D3 "
                        "next to your Recruit."
                    ),
                    move={"type": "deploy", "card": "Kindling Adept", "square": "d3"},
                    explanation=_(
                        "You paid 2 CP, and the card in your Energy zone went to your Retired zone (C-5.3). "
                        "Your Planning phase is over; the opponent had their Defending phase, and now your "
                        "Combat phase begins."
                    ),
                ),
                Step(
                    instruction=_(
                        "Attack (C-5.6)! Each of your units may attack once, along one of its arrows, and "
                        "hits the enemy unit on the next square that way. Flamebrand Recruit's up-right "
                        "arrow (↗) points at Shale Skirmisher: click the Recruit, then Shale Skirmisher."
                    ),
                    move={"type": "attack", "unit": "Flamebrand Recruit", "target": "Shale Skirmisher"},
                    explanation=_(
                        "2500 damage: not yet its 4000 Health. The damage stays on the unit until the end of "
                        "this Combat phase (C-5.7)."
                    ),
                ),
                Step(
                    instruction=_(
                        "Finish it: Kindling Adept's up arrow (↑) points at Shale Skirmisher too. Click "
                        "Kindling Adept, then Shale Skirmisher."
                    ),
                    move={"type": "attack", "unit": "Kindling Adept", "target": "Shale Skirmisher"},
                    explanation=_(
                        "1500 more makes 4000 damage, as much as its Health: Shale Skirmisher is defeated "
                        "and goes to the opponent's Defeated zone (C-5.7). Six cards there and they lose "
                        "(C-6.1)."
                    ),
                ),
                Step(
                    instruction=_(
                        "Well done: you have deployed units, paid CP and Energy, reinforced, defended and "
                        "attacked. Next, the last turn of a match, won with a Formation."
                    ),
                    explanation=_("Many turns later…"),
                    focus=("count-defeated-1",),
                ),
            ),
            # Two units deployed next to the learner's Recruit, then both attack it (C-5.2, C-5.6).
            opponent=(
                {"type": "deploy", "card": "Clay Golem", "square": "c4"},
                {"type": "deploy", "card": "Shale Skirmisher", "square": "d4"},
                {"type": "attack", "unit": "Clay Golem", "target": "Flamebrand Recruit"},
                {"type": "attack", "unit": "Shale Skirmisher", "target": "Flamebrand Recruit"},
            ),
        ),
        Chapter(
            title=_("The last turn"),
            position=_LAST_TURN,
            steps=(
                Step(
                    instruction=_(
                        "Many turns later. Your opponent has 5 cards in their Defeated zone: one more and "
                        "you win (C-6.1). Pebble Sentry has 4500 Health, but your Ember Spearwall has only "
                        "3000 Power."
                    ),
                    explanation=_("Ember Spearwall has Formation 3 — let's use it."),
                    focus=("count-defeated-1", "square-c3"),
                ),
                Step(
                    instruction=_(
                        "Formation 3 (C-7.6): Ember Spearwall gets +1500 Power while 3 or more of your units "
                        "are joined side by side. Deploy Ashfoot Skirmisher (1 CP) on D3, between your two "
                        "units."
                    ),
                    move={"type": "deploy", "card": "Ashfoot Skirmisher", "square": "d3"},
                    explanation=_("Your three units form one group: Ember Spearwall now has 4500 Power."),
                ),
                Step(
                    instruction=_(
                        "You still have 2 CP, but you need nothing more this turn. End your Planning phase: "
                        "CP you do not spend are lost (C-5.4)."
                    ),
                    move={"type": "pass"},
                    explanation=_(
                        "The opponent's Defending phase passed without an event. Your Combat phase begins."
                    ),
                ),
                Step(
                    instruction=_("Attack Pebble Sentry: click Ember Spearwall, then Pebble Sentry."),
                    move={"type": "attack", "unit": "Ember Spearwall", "target": "Pebble Sentry"},
                    explanation=_(
                        "4500 damage defeats Pebble Sentry: the sixth card in your opponent's Defeated zone. "
                        "You win (C-6.1)! A player also loses with no unit on the battlefield at the end of "
                        "their Planning or End phase (C-6.2), and after 30 turns each the player with fewer "
                        "Defeated cards wins (C-6.5)."
                    ),
                ),
            ),
        ),
    ),
)
