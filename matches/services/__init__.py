"""Writes of the online-play layer, by topic (like Zulip's `zerver/actions/<topic>.py`).

- `lobby`: create, join, leave, start, concede; AI seats at creation; double submits.
- `seating`: houses at an unstarted table (choose, random, draft), kick, fill with AI, leaving a running game.
- `rematch`: a finished match's rematch (offer, accept, sides swapped).
- `submit`: the move pipeline — lock, check the version, apply, append to the log, idempotency keys.
- `timeouts`: deadlines, clock enforcement, timeout defaults, the sweep's work lists.
- `ai_seats`: AI moves and the one function that hands a seat to the AI.
- `failures`: back-off and abort of a match whose AI/clock task keeps failing.
- `notify`: after-commit notifications and the broadcast thread.
- `storage`: the one module that hides the SQL, the snapshots and the state cache.

Every write follows docs/style.md 10 — lock the match row, check, apply through the game's engine, append to
the log, save, and only after commit notify the players and schedule timers/AI. Game rules never appear
here: `matches.games` adapters delegate to the engines, so Commandeer and Westeros share these modules.
"""

from matches.agents import AGENT_NAMES, TAKEOVER_AGENT
from matches.services.ai_seats import (
    ai_action_submit,
    ai_seat_must_act,
    hand_over_timed_out_seats,
    hand_seat_to_ai,
)
from matches.services.failures import (
    INTERNAL_ERROR_TEXT,
    TASK_BACKOFF_S,
    TASK_MAX_FAILURES,
    task_backoff_s,
    task_failed,
    task_succeeded,
)
from matches.services.lobby import (
    MAX_OPEN_MATCHES,
    check_open_matches,
    create_digest,
    match_concede,
    match_create,
    match_create_once,
    match_create_with_ai,
    match_join,
    match_leave,
    match_start,
    max_open_matches,
    recent_duplicate,
)
from matches.services.notify import match_group, notify_match_changed
from matches.services.rematch import match_rematch
from matches.services.seating import (
    SEATING_MODES,
    match_fill_ai,
    match_kick,
    match_leave_running,
    match_pick_house,
    seating_mode,
)
from matches.services.submit import SubmitResult, action_submit, seat_preferences_update
from matches.services.timeouts import (
    TIMEOUT_MAX_ACTIONS,
    clock_enforce,
    expired_match_ids,
    stalled_ai_match_ids,
    stalled_ai_seats,
    timeout_step,
)
from matches.storage import StateUnloadable, load_state, state_key, stored_state

__all__ = [
    "AGENT_NAMES",
    "INTERNAL_ERROR_TEXT",
    "MAX_OPEN_MATCHES",
    "SEATING_MODES",
    "TAKEOVER_AGENT",
    "TASK_BACKOFF_S",
    "TASK_MAX_FAILURES",
    "TIMEOUT_MAX_ACTIONS",
    "StateUnloadable",
    "SubmitResult",
    "seat_preferences_update",
    "action_submit",
    "ai_action_submit",
    "ai_seat_must_act",
    "check_open_matches",
    "clock_enforce",
    "create_digest",
    "expired_match_ids",
    "hand_over_timed_out_seats",
    "hand_seat_to_ai",
    "load_state",
    "match_concede",
    "match_create",
    "match_create_once",
    "match_create_with_ai",
    "match_fill_ai",
    "match_group",
    "match_join",
    "match_kick",
    "match_leave",
    "match_leave_running",
    "match_pick_house",
    "match_rematch",
    "match_start",
    "max_open_matches",
    "notify_match_changed",
    "recent_duplicate",
    "seating_mode",
    "stalled_ai_match_ids",
    "stalled_ai_seats",
    "state_key",
    "stored_state",
    "task_backoff_s",
    "task_failed",
    "task_succeeded",
    "timeout_step",
]
