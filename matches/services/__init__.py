"""Writes of the online-play layer, by topic (like Zulip's `zerver/actions/<topic>.py`); callers import each
topic module directly (`from matches.services.submit import action_submit`), so this package re-exports
nothing and importing one topic never loads the others.

- `lobby`: create, join, leave, start, concede; AI seats at creation; double submits.
- `seating`: houses at an unstarted table (choose, random, draft), kick, fill with AI, leaving a running game.
- `rematch`: a finished match's rematch (offer, accept, sides swapped).
- `submit`: the move pipeline — lock, check the version, apply, append to the log, idempotency keys.
- `timeouts`: deadlines, clock enforcement, timeout defaults, the sweep's work lists.
- `ai_seats`: AI moves and the one function that hands a seat to the AI.
- `failures`: back-off and abort of a match whose AI/clock task keeps failing.
- `notify`: after-commit notifications and the broadcast thread.
- `ratings`, `chat`, `emails`: rating updates at the end of a match, table chat, your-turn e-mails.

Reads of stored states (`load_state`, `stored_state`, `StateUnloadable`) live in `matches.storage`, the one
module that hides the SQL, the snapshots and the state cache.

Every write follows docs/style.md 10 — lock the match row, check, apply through the game's engine, append to
the log, save, and only after commit notify the players and schedule timers/AI. Game rules never appear
here: `matches.games` adapters delegate to the engines, so Commandeer and Westeros share these modules.
"""
