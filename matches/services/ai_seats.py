"""AI seats: the AI's moves (through the same pipeline as players) and the ONE way a seat is handed to the AI.

A seat becomes an AI seat when its player concedes a game of 3+ seats, never made a first move while
others play on, or is about to time out for the last time (`hand_seat_to_ai`). Every AI move is made by
`ai_action_submit` in a Celery task (`matches.tasks.ai_move`), thought out before the match is locked.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError
from config.lru import LruCache
from matches import storage
from matches.agents import FALLBACK_AGENT, TAKEOVER_AGENT, level_budget_s, max_budget_factor
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.games.registry import get_game
from matches.models import ActionLog, MatchStatus, Seat
from matches.services.failures import task_succeeded
from matches.services.notify import after_change_on_commit
from matches.services.submit import AnySubmitResult, advance, overtaken_only_by_simultaneous_moves
from matches.storage import ai_seat_must_act

log = logging.getLogger(__name__)

__all__ = [
    "TAKEOVER_AGENT",
    "ai_action_submit",
    "forget_agents",
    "ai_seat_must_act",
    "hand_over_timed_out_seats",
    "hand_seat_to_ai",
]


def hand_seat_to_ai(
    loaded: storage.LoadedMatch, seat: Seat, *, agent: str = TAKEOVER_AGENT, stop_clock: bool = True
) -> None:
    """Let the AI `agent` play `seat` from now on, and wake it after commit.

    The seat's timeout count starts again; with `stop_clock` its running clock is stopped too (a seat
    taken over on a timeout: the AI gets a fresh allowance when it must act). A conceding seat keeps its
    clock running (the AI moves at once).
    """
    seat.ai_agent = agent
    fields = ["ai_agent"]
    if stop_clock:
        seat.consecutive_timeouts = 0
        seat.clock_started_at = None
        seat.deadline = None
        fields += ["consecutive_timeouts", "clock_started_at", "deadline"]
    seat.save(update_fields=fields)
    loaded.mark_saved(seat)
    after_change_on_commit(loaded.match, seats=loaded.seats, wake_ai=True)


def ai_action_submit(*, match_id: int, expected_version: int | None = None) -> AnySubmitResult | None:
    """Let the first AI seat that must act make one move through the same path as players; None if none must.

    The move is thought out WITHOUT the match lock (a search may take its level's whole budget, and a row
    lock held that long would block every player, on SQLite every write); then the match is locked, its
    `state_version` compared with the one thought on, the move checked against `legal_actions` like a
    player's, applied and stored before anyone hears of it. When the version changed, the move stands if only
    others moved since, within a simultaneous step (W-3.3: a player placing, taking back or readying orders
    while the AI thinks; `overtaken_only_by_simultaneous_moves`, as for a player's move) and it is still
    legal; else it is dropped and thought again on the new state, at most AI_STALE_RETRIES times. Without
    this, a player acting quickly in such a step makes the AI think again until its clock runs out.
    """
    for _ in range(AI_STALE_RETRIES + 1):
        choice = _think(match_id, expected_version)
        if choice is None:
            return None
        result = _apply(match_id, choice)
        if result is not None:
            return result
        expected_version = None  # the world moved while we thought: think again on what is there now
    return None


@dataclass(frozen=True)
class AiChoice:
    """A move thought out for `position` on the state of `version`, by `agent` (or the fallback's)."""

    position: int
    agent: str
    version: int
    action: Any
    fell_back: bool
    instance: Any = None  # the seat's agent, put back in this process's cache once the move is committed


def _think(match_id: int, expected_version: int | None) -> AiChoice | None:
    """The move of the first AI seat that must act, computed on an unlocked read; None if none must act."""
    match = storage.read_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        forget_agents(match_id)
        return None
    if expected_version is not None and match.state_version != expected_version:
        return None
    game = get_game(match.kind)
    state = storage.load_state(match, game)
    current = game.current_players(state)
    seat = (
        Seat.objects.filter(match_id=match_id, position__in=current)
        .exclude(ai_agent="")
        .order_by("position")
        .values_list("position", "ai_agent")
        .first()
    )
    if seat is None:
        return None
    position, agent = seat
    key = f"{match.seed}:{match.state_version}:{position}"
    rng = random.Random(key)
    instance = _agent_for(game, match_id, position, agent, rng)
    try:
        started = time.monotonic()
        action = game.ai_action(state, position, rng=rng, agent=agent, instance=instance)
        _check_budget(match.kind, agent, time.monotonic() - started, match_id)
        if action not in game.legal_actions(state, position):
            raise ApplicationError("illegal_action", game.illegal_reason(state, position, action))
        return AiChoice(position, agent, match.state_version, action, False, instance)
    except Exception as exc:  # includes Celery's SoftTimeLimitExceeded: the game must not stall
        if agent == FALLBACK_AGENT:
            raise
        log.warning(
            "AI %s of match %s seat %s failed (%s: %s); playing the %s move instead",
            agent,
            match_id,
            position,
            type(exc).__name__,
            exc,
            FALLBACK_AGENT,
            exc_info=not isinstance(exc, SoftTimeLimitExceeded),
        )
    state = storage.load_state(match, game)  # the failed search may have left its state half-way
    action = game.ai_action(state, position, rng=random.Random(key), agent=FALLBACK_AGENT)
    return AiChoice(position, agent, match.state_version, action, fell_back=True)


@transaction.atomic
def _apply(match_id: int, choice: AiChoice) -> AnySubmitResult | None:
    """Lock, check the seat's decision is still the one thought on, check legality, apply; None: stale."""
    match = storage.lock_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        forget_agents(match_id)
        return None
    game = get_game(match.kind)
    state = storage.load_state(match, game)
    loaded = storage.load_seats(match)
    legal = storage.legal_actions(match, game)
    seat = next((s for s in loaded.seats if s.position == choice.position), None)
    if (
        seat is None
        or seat.ai_agent != choice.agent
        or seat.position not in legal.current(state, match.state_version)
    ):
        return None
    moved_on = match.state_version != choice.version
    if moved_on and not overtaken_only_by_simultaneous_moves(match, seat, choice.version):
        return None  # the agent is not put back: its plan assumed this move was played
    if choice.action not in legal.of(
        state, match.state_version, seat.position
    ):  # the same check as for players
        if moved_on:
            return None
        raise ApplicationError("illegal_action", game.illegal_reason(state, seat.position, choice.action))
    seat.has_moved = True
    seat.consecutive_timeouts = 0
    result = advance(loaded, game, state, seat, choice.action, source=ActionLog.Source.AI, legal=legal)
    task_succeeded(match)
    if result.status != MatchStatus.ACTIVE:
        forget_agents(match_id)
    elif choice.instance is not None:
        key, instance = (match_id, choice.position, choice.agent), choice.instance
        transaction.on_commit(lambda: _AGENTS.put(key, instance))
    return result


# ---- the agents of this worker process ---------------------------------------------------------------
AI_AGENT_CACHE_SIZE = 128  # (match, seat, agent) instances kept per process, least recently used first out
AI_OVERRUN_SLACK_S = 0.25  # beyond twice its budget, an agent's decision is logged as an overrun
AI_STALE_RETRIES = 3  # thinking again after the match moved on under us, before leaving it to the next wake


_AGENTS: LruCache[tuple[int, int, str], Any] = LruCache(AI_AGENT_CACHE_SIZE)


def _agent_for(game: Any, match_id: int, position: int, agent: str, rng: random.Random) -> Any | None:
    """This process's agent for the seat, taken out of the cache while it thinks (two threads never share
    one; `_apply` puts it back once its move is committed), else a new one; its rng reseeded for this decision,
    so a move depends on the match seed, version and seat as it always did, not on which worker thinks it."""
    instance = _AGENTS.pop((match_id, position, agent))
    if instance is None:
        instance = game.make_ai(agent, rng)
    elif isinstance(getattr(instance, "rng", None), random.Random):
        instance.rng.setstate(rng.getstate())
    return instance


def _check_budget(kind: str, agent: str, took_s: float, match_id: int) -> None:
    """Log an agent that overran its budget (an agent keeps within twice it on the wall clock; the budget of
    the game's largest kind of decision, a Westeros order plan's 2.4 level budgets)."""
    try:
        budget = level_budget_s(kind, agent)
        budget = None if budget is None else budget * max_budget_factor(kind)
    except ValueError:  # a game without agents of its own (test games)
        return
    if budget is not None and took_s > 2 * budget + AI_OVERRUN_SLACK_S:
        log.warning("AI %s of match %s took %.2fs for a budget of %.2fs", agent, match_id, took_s, budget)


def forget_agents(match_id: int | None = None) -> None:
    """Drop this process's agents of a match (it ended or moved on), or of every match."""
    if match_id is None:
        _AGENTS.clear()
    else:
        _AGENTS.drop_where(lambda key: key[0] == match_id)


@transaction.atomic
def hand_over_timed_out_seats(*, match_id: int, now: datetime | None = None) -> list[int]:
    """An AI takes over a human seat about to time out for the TIMEOUTS_TO_FORFEIT-th time in a row.

    Only in games of 3+ seats (one absent house must not end the game for the others); two-seat games
    keep the forfeit of `clock_enforce`. The seat's running clock is stopped (the AI gets a fresh
    allowance when it must act) and the AI is woken after commit. Idempotent: a seat already handed
    over, or not expired, is left alone. Returns the positions handed over.
    """
    now = now or timezone.now()
    match = storage.lock_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        return []
    game = get_game(match.kind)
    if game.seat_count(match.rules_config) < 3:
        return []
    loaded = storage.load_seats(match)
    handed: list[int] = []
    for seat in loaded.seats:
        expired = seat.deadline is not None and seat.deadline <= now
        if not expired or seat.is_ai or not seat.has_moved:
            continue
        if seat.consecutive_timeouts + 1 < TIMEOUTS_TO_FORFEIT:
            continue
        hand_seat_to_ai(loaded, seat)
        handed.append(seat.position)
    return handed
