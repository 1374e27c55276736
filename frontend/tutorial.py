"""The interactive tutorials: a lesson's state at a step, the learner's progress, and one step forward.

The state is never stored: it is the lesson's prepared position replayed through the real engine up to the
learner's step (a dozen actions at most), so progress is one small number — on the server for a signed-in
player (`TutorialProgress`), in the session for anyone else. A tutorial is no match: nothing is rated,
listed in a lobby or shown on a profile.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from cards.data_translations import reader_language
from config.errors import ApplicationError
from frontend import tutorial_westeros
from frontend.models import TutorialProgress
from frontend.tutorial_lessons import COMMANDEER, LEARNER, Chapter, Lesson, Move, Step
from matches import messages
from matches.engine import GameState, IllegalActionError, action_from_json, load_card_file
from matches.engine.actions import Action
from matches.engine.decks import load_sample
from matches.games.registry import (
    get_game,
)  # the match pages' view: each card's text in the reader's language

LESSONS: dict[str, Lesson] = {
    COMMANDEER.game: COMMANDEER,
    tutorial_westeros.WESTEROS.game: tutorial_westeros.WESTEROS,
}
SESSION_KEY = "tutorials"  # {game: step} for a visitor who is not signed in
_ID_KEYS = ("card", "unit", "target")  # the keys of an action that hold a card instance id


class LessonError(Exception):
    """A lesson's script does not fit the engine (a move matches no legal action, or several): a bug in
    `tutorial_lessons`, caught by its tests, never the learner's doing."""


def lesson_get(game: str) -> Lesson:
    lesson = LESSONS.get(game)
    if lesson is None:
        raise ApplicationError(
            "unknown_tutorial",
            gettext("There is no tutorial for “%(game)s”; there is one for: %(games)s.")
            % {"game": game[:40], "games": ", ".join(sorted(LESSONS))},
            status_code=404,
        )
    return lesson


@functools.cache
def _catalog() -> dict[str, Any]:
    """The sample card set (a file of the repository): the lessons name its cards."""
    data = load_sample()
    if data is None:
        raise LessonError("the sample card set is missing")
    return load_card_file(data)


# ---- the engine side: moves by card name, automatic passes, replay ----------------------------------------


def named(state: GameState, action: Action) -> dict[str, Any]:
    """An action's JSON with card names in place of instance ids (as the lessons write moves)."""
    data = dict(action.to_json())
    for key in _ID_KEYS:
        if isinstance(data.get(key), int):
            data[key] = state.card_name(data[key])
    return data


def legal_move(state: GameState, player: int, move: Move) -> Action:
    """The one legal action of `player` that `move` describes (docs/style.md 3: legality is the engine's)."""
    found = [
        a for a in state.legal_actions(player) if all(named(state, a).get(k) == v for k, v in move.items())
    ]
    if len(found) != 1:
        options = [named(state, a) for a in state.legal_actions(player)]
        raise LessonError(f"{move} matches {len(found)} legal actions of player {player}: {options}")
    return found[0]


def _forced_pass(state: GameState, player: int) -> Action | None:
    """Ending the phase when it is the player's only move (Concede aside, C-6.4), else None."""
    moves = [a for a in state.legal_actions(player) if a.to_json()["type"] != "concede"]
    if len(moves) == 1 and moves[0].to_json()["type"] == "pass":
        return moves[0]
    return None


def _run(state: GameState, queue: list[Move]) -> None:
    """Play on until the learner has a real choice: forced passes of either side, the opponent's scripted
    moves. Stops, too, when the opponent has a choice the script does not cover (the end of a chapter)."""
    while not state.is_terminal():
        player = state.current_players()[0]
        forced = _forced_pass(state, player)
        if forced is not None:
            state.apply(forced)
        elif player == LEARNER or not queue:
            return
        else:
            state.apply(legal_move(state, player, queue.pop(0)))


def _chapter_state(chapter: Chapter, done: int) -> GameState:
    """The chapter's state once its first `done` steps are made; after its last move nothing runs on, so
    the learner sees the board their last move left."""
    state = GameState.from_dict(chapter.position, catalog=_catalog(), seed=0)
    queue = list(chapter.opponent)
    _run(state, queue)
    last_move = max((i for i, s in enumerate(chapter.steps) if s.move is not None), default=-1)
    for index, step in enumerate(chapter.steps[:done]):
        if step.move is not None:
            state.apply(legal_move(state, LEARNER, step.move))
            if index < last_move:
                _run(state, queue)
    return state


def state_at(lesson: Lesson, step: int) -> tuple[GameState, Chapter, int]:
    """The state the learner sees at `step` (0 … number of steps; the last is the finished lesson), its
    chapter and that chapter's index."""
    steps = lesson.steps()
    if step >= len(steps):
        last = len(lesson.chapters) - 1
        chapter = lesson.chapters[last]
        return _chapter_state(chapter, len(chapter.steps)), chapter, last
    chapter_index, within, _step = steps[step]
    chapter = lesson.chapters[chapter_index]
    return _chapter_state(chapter, within), chapter, chapter_index


def expected_action(state: GameState, step: Step) -> Action | None:
    return None if step.move is None else legal_move(state, LEARNER, step.move)


def highlight(state: GameState, action: Action | None) -> list[str]:
    """The page elements to click, in order, for `action`: the match page's tokens (`c:<card id>`,
    `s:<square>`), or `button:<type>` for an action made with a button (Reinforce, end the phase)."""
    if action is None:
        return []
    data = action.to_json()
    kind = data["type"]
    if kind == "deploy":
        return [f"c:{data['card']}", f"s:{data['square']}"]
    if kind in ("play_event", "choose_card"):
        return [f"c:{data['card']}"]
    if kind == "choose_target":
        return [f"c:{data['target']}"]
    if kind == "attack":
        return [f"c:{data['unit']}", f"c:{data['target']}"]
    if kind == "move":
        return [f"c:{data['unit']}", f"s:{data['square']}"]
    return [f"button:{kind}"]


# ---- progress -------------------------------------------------------------------------------------------


def progress_get(request: Any, game: str) -> int:
    """The learner's step: the signed-in player's row, else this browser session's (also for a player who
    signs in half-way: the session survives the login, so they go on where they were)."""
    total = len(lesson_get(game).steps())
    row = (
        TutorialProgress.objects.filter(user=request.user, game=game).first()
        if request.user.is_authenticated
        else None
    )
    if row is not None:
        # a finished lesson stays finished when a later version of it has more steps
        step: object = total if row.finished_at is not None else row.step
    else:
        stored = request.session.get(SESSION_KEY, {})
        step = stored.get(game, 0) if isinstance(stored, dict) else 0
    return step if isinstance(step, int) and 0 <= step <= total else 0


def progress_set(request: Any, game: str, step: int) -> None:
    total = len(lesson_get(game).steps())
    if request.user.is_authenticated:
        TutorialProgress.objects.update_or_create(
            user=request.user,
            game=game,
            defaults={"step": step, "finished_at": timezone.now() if step >= total else None},
        )
    else:
        stored = request.session.get(SESSION_KEY)
        stored = dict(stored) if isinstance(stored, dict) else {}
        stored[game] = step  # one number per lesson: the session stays small
        request.session[SESSION_KEY] = stored


# ---- what the page shows, and one step forward ----------------------------------------------------------


def seat_names() -> dict[int, str]:
    """The sides as the log names them: the factions of the lesson's decks (docs/glossary.md)."""
    return {LEARNER: gettext("Cinder Legion"), 1 - LEARNER: gettext("Stonehold Clans")}


def _happened(lesson: Lesson, step: int, state: GameState) -> list[str]:
    """The log since the previous step, in the reader's language (the engine's messages, as a match's log
    shows them): the learner's move and everything the opponent and the rules did after it."""
    steps = lesson.steps()
    if step == 0 or steps[step - 1][0] != (steps[step][0] if step < len(steps) else steps[-1][0]):
        return []  # the first step of a chapter: a new position, nothing happened in it yet
    before, _chapter, _index = state_at(lesson, step - 1)
    language = reader_language()
    lines = []
    for entry in state.log_view(LEARNER, before.log_length):
        message = entry.get("message")
        if isinstance(message, dict) and not str(message.get("key", "")).startswith("Player %(player)s"):
            # "Deploy X to c3" names nobody: a sentence of its player, as the match log writes it (the
            # engine's `action_sentence` key)
            message = {
                "key": "Player %(player)s: %(action)s",
                "params": {"player": entry["player"] + 1, "action": {"msg": message}},
            }
        text = messages.render(message, language) if message else str(entry.get("text", ""))
        for seat, name in seat_names().items():
            label = messages.player_label(seat + 1, language)
            if language == "th":  # Thai sets a name apart from the word before it, as the match log does
                text = re.sub(rf"(?<=[\u0e00-\u0e7f]){re.escape(label)}", " " + label, text)
            text = text.replace(label, name)
        lines.append(text)
    return lines


def payload(lesson: Lesson, step: int) -> dict[str, Any]:
    """Everything the tutorial page shows at `step`: the learner's view of the board (their own hand
    only, C-8), the instruction, the element(s) to click, and what the previous step did."""
    if lesson.game == tutorial_westeros.WESTEROS.game:
        return tutorial_westeros.payload(lesson, step)
    steps = lesson.steps()
    state, chapter, chapter_index = state_at(lesson, step)
    finished = step >= len(steps)
    current = None if finished else steps[step][2]
    action = None if current is None else expected_action(state, current)
    previous = steps[step - 1][2] if step > 0 else None
    outcome = state.outcome()
    return {
        "game": lesson.game,
        "title": str(lesson.title),
        "step": step,
        "total": len(steps),
        "finished": finished,
        "chapter": {"index": chapter_index, "count": len(lesson.chapters), "title": str(chapter.title)},
        "instruction": str(current.instruction) if current else None,
        "explanation": str(previous.explanation) if previous and previous.explanation else None,
        "happened": _happened(lesson, step, state),
        "expect": dict(action.to_json()) if action else None,
        "highlight": highlight(state, action),
        "focus": list(current.focus) if current else [],
        "winner": outcome.winner if outcome else None,
        "view": get_game("commandeer").player_view(state, LEARNER),
    }


def advance(request: Any, *, game: str, step: int, action: Any) -> dict[str, Any]:
    """Make the learner's move of `step` (an action's JSON, or None on a step that only asks to read on)
    and answer the next step's payload. A step already made (a double click) answers the current one."""
    lesson = lesson_get(game)
    with transaction.atomic():
        current = progress_get(request, game)
        if step != current:
            return payload(lesson, current)
        steps = lesson.steps()
        if current >= len(steps):
            raise ApplicationError(
                "tutorial_finished", gettext("This tutorial is finished: restart it to play it again.")
            )
        if lesson.game == tutorial_westeros.WESTEROS.game:
            board = tutorial_westeros.state_at(lesson, current)
            wanted_move = tutorial_westeros.expected_action(board, steps[current][2])
            if wanted_move is not None:
                _refuse(tutorial_westeros.check_move(board, wanted_move, action))
        else:
            state, _chapter, _index = state_at(lesson, current)
            wanted = expected_action(state, steps[current][2])
            if wanted is None and action is not None:
                raise ApplicationError(
                    "not_this_step", gettext("This step asks you to read on, not to make a move.")
                )
            if wanted is not None:
                _check_move(state, wanted, action)
        progress_set(request, game, current + 1)
    return payload(lesson, current + 1)


def _check_move(state: GameState, wanted: Action, sent: Any) -> None:
    """The learner's move must be this step's: the engine says why another one is not legal at all."""
    try:
        given = action_from_json(sent)
    except (ValueError, TypeError, KeyError) as exc:
        raise ApplicationError(
            "invalid_action", gettext("Not an action: %(reason)s") % {"reason": str(exc)[:200]}
        ) from None
    if given.to_json() == wanted.to_json():
        return
    try:
        state.clone().apply(given)
    except IllegalActionError as exc:
        reason = str(exc)[:300]
        raise ApplicationError(
            "illegal_action", gettext("That move is not legal: %(reason)s") % {"reason": reason}
        ) from None
    raise ApplicationError(
        "not_this_step",
        gettext("That move is legal, but this step asks for another one: follow the highlight."),
    )


def _refuse(reason: str | None) -> None:
    """The Westeros runner's verdict on a sent move as the same errors as the Commandeer one's."""
    if reason is None:
        return
    kind, _sep, detail = reason.partition(":")
    if kind == "invalid":
        raise ApplicationError("invalid_action", gettext("Not an action: %(reason)s") % {"reason": detail})
    if kind == "illegal":
        raise ApplicationError(
            "illegal_action", gettext("That move is not legal: %(reason)s") % {"reason": detail}
        )
    raise ApplicationError(
        "not_this_step",
        gettext("That move is legal, but this step asks for another one: follow the highlight."),
    )


def restart(request: Any, *, game: str) -> dict[str, Any]:
    lesson = lesson_get(game)
    progress_set(request, game, 0)
    return payload(lesson, 0)
