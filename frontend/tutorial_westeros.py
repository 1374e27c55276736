"""The Westeros tutorial: a guided first round for Stark on a prepared 3-house position, played by the real
`boardgame/engine` (docs/westeros-position.md) — orders, the Messenger Raven, a Raid, a March into a combat
with house cards, Consolidate Power, then the next round's Westeros cards (the learner chooses what Dark
Wings, Dark Words does) and a wildling bid.

As in the Commandeer lesson, every move (the learner's and the scripted Lannister's and Baratheon's) is
matched against the engine's `legal_actions()` (docs/style.md 3); a learner's decision with one legal move
that no step asks for (choosing the only March order, W-6.2) is made by itself. The state is never stored:
it is the position replayed to the learner's step.
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import gettext_lazy as _

from boardgame.engine import GameData, WesterosState
from boardgame.engine.actions import Action
from boardgame.engine.data import load_default_game_data
from boardgame.engine.position import from_position
from frontend.tutorial_lessons import Chapter, Lesson, Move, Step

LEARNER_HOUSE = "stark"

_POSITION: dict[str, Any] = {
    "houses": ["stark", "lannister", "baratheon"],
    "seed": 1,
    "start": "planning",
    "round": 1,
    "threat": 4,
    "units": {
        "winterfell": ["stark", "footman", "knight"],
        "white_harbor": ["stark", "footman"],
        "the_shivering_sea": ["stark", "ship"],
        "moat_cailin": ["lannister", "footman"],
        "lannisport": ["lannister", "footman"],
        "the_narrow_sea": ["baratheon", "ship"],
        "dragonstone": ["baratheon", "footman"],
    },
    # Stark holds the Messenger Raven (top of the King's Court, W-1.9); the Blade is Baratheon's, out of
    # the combat, so the combat asks no one about it.
    "tracks": {
        "iron_throne": ["baratheon", "lannister", "stark"],
        "fiefdoms": ["baratheon", "lannister", "stark"],
        "kings_court": ["stark", "lannister", "baratheon"],
    },
    # Round 2 turns up Last Days of Summer and Dark Wings, Dark Words (+2 threat each, W-4.1) and Wildlings
    # Attack (W-4.5). Dark Wings asks the Raven's holder, Stark, what it does (W-4.4): the learner's
    # decision on a Westeros card. Then the wildlings come at strength 8 with Skinchanger Scout, the card
    # the Raven shows.
    "westeros_top": ["last_days_of_summer", "dark_wings_dark_words", "wildlings_attack"],
    "wildling_top": ["skinchanger_scout"],
}

_OPPONENTS: tuple[Move, ...] = (
    {"player": "lannister", "type": "place_order", "area": "moat_cailin", "token": "defense_plus_one"},
    {"player": "lannister", "type": "place_order", "area": "lannisport", "token": "consolidate_power"},
    {"player": "lannister", "type": "finish_orders"},
    {"player": "baratheon", "type": "place_order", "area": "the_narrow_sea", "token": "consolidate_power"},
    {"player": "baratheon", "type": "place_order", "area": "dragonstone", "token": "defense_plus_two"},
    {"player": "baratheon", "type": "finish_orders"},
    {"player": "lannister", "type": "play_house_card", "card": "ser_kevan_lannister"},
    {"player": "lannister", "type": "bid", "amount": 2},
    {"player": "baratheon", "type": "bid", "amount": 1},
)

_STEPS = (
    Step(
        _(
            "You are House Stark. Every round starts with Planning: you put one order face down on every area "
            "with your units (W-5.1). Click Winterfell, then choose March +1 ★: your footman and knight will "
            "attack Moat Cailin."
        ),
        _(
            "A March order moves the area's units; its +1 is added to your strength in the combat it starts "
            "(W-7.1.6)."
        ),
        {"type": "place_order", "area": "winterfell", "token": "march_plus_one"},
    ),
    Step(
        _("Click White Harbor and choose Consolidate Power: its footman gathers power tokens instead."),
        _("Consolidate Power gives 1 power token, plus 1 for each crown in the area (W-7.5.1)."),
        {"type": "place_order", "area": "white_harbor", "token": "consolidate_power"},
    ),
    Step(
        _(
            "Click The Shivering Sea and choose Raid: your ship can remove the Baratheon order in The Narrow "
            "Sea next to it."
        ),
        _("A Raid removes one enemy Support, Raid or Consolidate Power order next to it (W-7.2.1)."),
        {"type": "place_order", "area": "the_shivering_sea", "token": "raid"},
    ),
    Step(
        _("Every area of yours has an order. Press “Done” to lock your orders in."),
        _(
            "When every house is done, all orders are turned face up together (W-5.4): Lannister defends "
            "Moat Cailin, Baratheon gathers power at sea."
        ),
        {"type": "finish_orders"},
    ),
    Step(
        _(
            "You hold the Messenger Raven, the top of the King's Court track (W-5.5): you may swap one of "
            "your orders or look at the top wildling card. Look at the card."
        ),
        _("Only you saw it: Skinchanger Scout. Whoever bids most against it gets their bid back."),
        {"type": "choose", "decision": "raven", "option": "look"},
    ),
    Step(
        _("Leave the card on top of the wildling deck: you know what the next attack brings."),
        _("The Action phase begins: Raids first, then Marches, then Consolidate Power (W-6.1)."),
        {"type": "choose", "decision": "raven_bury", "option": "top"},
    ),
    Step(
        _("Resolve your Raid: click The Narrow Sea to remove Baratheon's Consolidate Power."),
        _(
            "Raiding a Consolidate Power order pillages it: you take 1 power token and Baratheon loses one "
            "(W-7.2.3)."
        ),
        {"type": "resolve_raid", "area": "the_shivering_sea", "target": "the_narrow_sea"},
    ),
    Step(
        _(
            "Now your March (W-7.1): click Moat Cailin to move the footman and the knight there. A Lannister "
            "footman holds it, so this starts a combat (W-9)."
        ),
        _(
            "The strength of each side: units (a footman 1, a knight 2), order bonuses — your March +1, "
            "Lannister's Defense +1 — and then a house card (W-9.3)."
        ),
        {"type": "march_move", "units": ["footman", "knight"], "dest": "moat_cailin"},
    ),
    Step(
        _("Both sides choose a house card in secret (W-9.4). Play Eddard Stark: strength 4 and 2 swords."),
        _(
            "Eddard's 4 beats Ser Kevan Lannister's 1: you win 8 to 3. Each sword kills one loser's unit "
            "(W-9.9), so the Lannister footman dies and Moat Cailin is yours. A played card waits in your "
            "discard pile until all seven are used (W-17.2)."
        ),
        {"type": "play_house_card", "card": "eddard_stark"},
    ),
    Step(
        _("Last come the Consolidate Power orders: click White Harbor to gather your power tokens."),
        _(
            "The round ends and round 2 begins with the Westeros phase: the top card of each of the three "
            "Westeros decks is turned up, and each wildling icon on them raises the threat by 2 (W-4.1). "
            "Last Days of Summer and Dark Wings, Dark Words carry one each: the threat rises from 4 to 8."
        ),
        {"type": "resolve_consolidate", "area": "white_harbor", "muster": False},
    ),
    Step(
        _(
            "The cards are resolved in deck order, and Last Days of Summer does nothing. Dark Wings, Dark "
            "Words lets the holder of the Messenger Raven — you — choose what happens (W-4.4): a Clash of "
            "Kings, power tokens for every house, or nothing. Power tokens pay for bids: choose “Collect "
            "power tokens”."
        ),
        _(
            "Every house gains 1 power token for each crown in the land areas it controls, ports not "
            "counted (W-15.2): you gain 1 for Winterfell, Baratheon 1 for Dragonstone, Lannister none. "
            "Then Wildlings Attack makes the wildlings come now (W-4.5)."
        ),
        {"type": "choose", "decision": "dark_wings", "option": "collect_power"},
        focus=("westeros-card-dark_wings_dark_words",),
    ),
    Step(
        _(
            "Every house bids power tokens in secret against the wildlings' strength 8 (W-16.3). Bid 5: "
            "with the others' bids that makes 8, and you know Skinchanger Scout gives the top bidder their "
            "bid back."
        ),
        _(
            "Bids of 5, 2 and 1 make 8: the Night's Watch hold (W-16.4), the threat drops to 0 (W-16.5), and "
            "as the highest bidder you take your 5 power tokens back (W-16.7). That is a round of Westeros."
        ),
        {"type": "bid", "amount": 5},
    ),
)

WESTEROS = Lesson(
    game="westeros",
    title=_("Learn to play Westeros"),
    chapters=(
        Chapter(
            title=_("Your first round as House Stark"), position=_POSITION, steps=_STEPS, opponent=_OPPONENTS
        ),
    ),
)


class ScriptError(Exception):
    """The script does not fit the engine (a move matches no legal action, or several): a lesson bug."""


@functools.cache
def game_data() -> GameData:
    """The repository's Westeros data files: the lesson is written for exactly these cards and areas."""
    return load_default_game_data()


def legal_move(state: WesterosState, house: str, move: Move) -> Action:
    """The one legal action of `house` that `move` describes (docs/style.md 3)."""
    wanted = {k: v for k, v in move.items() if k != "player"}
    found = [a for a in state.legal_actions(house) if all(a.to_json().get(k) == v for k, v in wanted.items())]
    if len(found) != 1:
        options = [a.to_json() for a in state.legal_actions(house)]
        raise ScriptError(f"{move} matches {len(found)} legal actions of {house}: {options[:20]}")
    return found[0]


def _matches(state: WesterosState, action: Action, move: Move | None) -> bool:
    return move is not None and all(action.to_json().get(k) == v for k, v in move.items())


def _own(move: Move) -> Move:
    return {k: v for k, v in move.items() if k != "player"}


def _run(state: WesterosState, queue: list[Move], next_move: Move | None) -> None:
    """Play on until the learner has the step's choice to make: the scripted houses' moves, and any house's
    only legal move (the learner's too, unless it is the move the next step teaches)."""
    while not state.is_terminal():
        progressed = False
        for house in state.current_players():
            moves = state.legal_actions(house)
            if house == LEARNER_HOUSE:
                if len(moves) == 1 and not _matches(state, moves[0], next_move):
                    state.apply(moves[0])
                    progressed = True
                    break
                continue
            if len(moves) == 1 and not (queue and _matches(state, moves[0], _own(queue[0]))):
                state.apply(moves[0])
            elif queue and queue[0]["player"] == house:
                state.apply(legal_move(state, house, queue.pop(0)))
            else:
                continue
            progressed = True
            break
        if not progressed:
            return


def state_at(lesson: Lesson, done: int) -> WesterosState:
    """The state once the first `done` steps are made (one chapter); after the last move the script plays
    on to the learner's next real decision (the next round's orders), never into a defeat."""
    chapter = lesson.chapters[0]
    state = from_position(game_data(), dict(chapter.position))
    queue = list(chapter.opponent)
    moves = [s.move for s in chapter.steps]
    _run(state, queue, moves[0] if moves else None)
    for index, move in enumerate(moves[:done]):
        if move is not None:
            state.apply(legal_move(state, LEARNER_HOUSE, move))
        _run(state, queue, moves[index + 1] if index + 1 < len(moves) else None)
    return state


def highlight(action: Action | None) -> list[str]:
    """What to click for `action`: `area:<id>` on the map, then `button:<type>` in the panel."""
    if action is None:
        return []
    data = action.to_json()
    kind = data["type"]
    area = {
        "place_order": "area",
        "resolve_raid": "target",
        "march_move": "dest",
        "resolve_consolidate": "area",
    }
    if kind in area:
        return [f"area:{data[area[kind]]}"] + (["button:place_order"] if kind == "place_order" else [])
    return [f"button:{kind}"]


def expected_action(state: WesterosState, step: Step) -> Action | None:
    return None if step.move is None else legal_move(state, LEARNER_HOUSE, step.move)


def happened(before: WesterosState, state: WesterosState) -> list[str]:
    """The log between two steps as Stark may read it (W-20), in the reader's language (the match log's
    messages)."""
    from cards.data_translations import reader_language
    from matches import messages
    from matches.games.registry import get_game

    language = reader_language()
    lines = []
    for item in get_game("westeros").consequences(state, 0, before.log_length):
        message = item.get("message")
        lines.append(
            messages.render(message, language, game=messages.WESTEROS) if message else str(item["text"])
        )
    return lines


def payload(lesson: Lesson, step: int) -> dict[str, Any]:
    """What the Westeros tutorial page shows at `step`: Stark's view (their own hand and orders only, W-20),
    the instruction, what to click, and what the previous step did."""
    from matches.games.registry import get_game

    steps = lesson.steps()
    state = state_at(lesson, step)
    finished = step >= len(steps)
    current = None if finished else steps[step][2]
    action = None if current is None else expected_action(state, current)
    previous = steps[step - 1][2] if step > 0 else None
    return {
        "game": lesson.game,
        "title": str(lesson.title),
        "step": step,
        "total": len(steps),
        "finished": finished,
        "chapter": {"index": 0, "count": 1, "title": str(lesson.chapters[0].title)},
        "instruction": str(current.instruction) if current else None,
        "explanation": str(previous.explanation) if previous and previous.explanation else None,
        "happened": happened(state_at(lesson, step - 1), state) if step > 0 else [],
        "expect": dict(action.to_json()) if action else None,
        "highlight": highlight(action),
        "focus": list(current.focus) if current else [],
        "winner": None,
        "view": get_game("westeros").player_view(state, 0),
    }


def check_move(state: WesterosState, wanted: Action, sent: Any) -> str | None:
    """None when `sent` is this step's move; else why not (the engine's reason when it is not legal)."""
    from boardgame.engine import action_from_json

    try:
        given = action_from_json(sent)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return f"invalid:{str(exc)[:200]}"
    if given.to_json() == wanted.to_json():
        return None
    try:
        state.clone().apply(given)
    except ValueError as exc:
        return f"illegal:{str(exc)[:300]}"
    return "other"
