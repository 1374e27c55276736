"""One read per move: what a submit through the API computes and reads, counted at the game boundary.

A seat's legal actions at a version are computed once per process (the view a player read, or the answer to
their last move, serves their next submit), who acts once per version, the state is read once (from the
cache) and serialised once, and the request sends a fixed number of SQL statements. A version made by a
transaction that rolled back never lends its answers to the version made again. Counted with spies on the
game kind's class (`GameKind` methods) and `CaptureQueriesContext`; `bench/submit_profile.py` prints the same
counts for random play of both games.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from boardgame.engine.log_messages import event_message
from boardgame.engine.views import log_view
from config.errors import ApplicationError
from matches import storage
from matches.games.registry import get_game
from matches.games.westeros import _card_ids, _printed_names
from matches.models import Match, Seat
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.tests.commandeer_fixtures import legal_deck

pytestmark = pytest.mark.django_db

COUNTED = ("legal_actions", "current_players", "load", "dump", "clone", "player_view")


@contextmanager
def spied(kind: str) -> Iterator[Counter[str]]:
    """Calls of the game kind's boundary methods (`legal_actions` also per seat) and of storage's state reads."""
    cls = type(get_game(kind))
    calls: Counter[str] = Counter()
    saved = {name: vars(cls).get(name) for name in COUNTED}

    def spy(name: str) -> Any:
        original = getattr(cls, name)

        def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            if name == "legal_actions":
                calls[f"legal_actions of seat {args[1]}"] += 1
            return original(self, *args, **kwargs)

        return counted

    plain_dump = cls.dump

    def digest(state: Any) -> str:
        """The state as stored, as a short digest (to tell which state legal actions were asked of)."""
        return hashlib.sha256(
            json.dumps(plain_dump(get_game(kind), state), sort_keys=True).encode()
        ).hexdigest()[:16]

    for name in COUNTED:
        setattr(cls, name, spy(name))
    legal = cls.legal_actions

    def legal_at(self: Any, state: Any, player: int) -> Any:
        calls[f"legal_actions at {digest(state)} of seat {player}"] += 1
        return legal(self, state, player)

    cls.legal_actions = legal_at  # type: ignore[method-assign]
    read, parse = storage.load_state, storage.parse_state

    def load_state(*args: Any, **kwargs: Any) -> Any:
        calls["storage.load_state"] += 1
        return read(*args, **kwargs)

    def parse_state(*args: Any, **kwargs: Any) -> Any:
        calls["storage.parse_state"] += 1
        return parse(*args, **kwargs)

    storage.load_state, storage.parse_state = load_state, parse_state  # type: ignore[assignment]
    try:
        yield calls
    finally:
        storage.load_state, storage.parse_state = read, parse  # type: ignore[assignment]
        for name, own in saved.items():
            if own is None:
                delattr(cls, name)
            else:
                setattr(cls, name, own)


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _sql(ctx: CaptureQueriesContext) -> list[str]:
    """Statements of the play layer: transaction bookkeeping left out, and what other apps cache across
    requests (the presence middleware's write, the card catalog's picture URLs the first time a card shows)."""
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].upper().startswith(skip)
        and not any(t in q["sql"] for t in ("usersettings", "cards_"))
    ]


def _westeros(alice: Any, bob: Any, carol: Any) -> Match:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


def _commandeer(alice: Any, bob: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk, rules_config={"turn_limit": 6})
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


def _submit(
    client: APIClient, match: Match, snap: dict[str, Any], action: dict[str, Any], key: str = ""
) -> Any:
    body: dict[str, Any] = {"action": action, "state_version": snap["state_version"]}
    if key:
        body["idempotency_key"] = key
    return client.post(f"/api/matches/{match.pk}/actions/", body, format="json")


def test_each_submit_of_a_seat_placing_its_orders_computes_legal_actions_once(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """W-5.1: a house places its orders one by one. Its membership check reuses the legal actions the answer
    to its last order (or the view it read) computed; the answer computes the new state's once."""
    match = _westeros(alice, bob, carol)
    game = get_game(match.kind)
    mover = next(s for s in Seat.objects.filter(match=match) if s.user_id == alice.pk)
    client = _client(alice)
    rng = random.Random(5)
    with django_capture_on_commit_callbacks(execute=True):
        snap = client.get(f"/api/matches/{match.pk}/state/").json()
    placed = 0
    while placed < 6:
        # an order placed, or taken back once all are placed: the house still places orders
        placing = [a for a in snap["legal_actions"] if a["action"]["type"] == "place_order"]
        choice = rng.choice(
            placing or [a for a in snap["legal_actions"] if a["action"]["type"] == "remove_order"]
        )
        with spied(match.kind) as calls, django_capture_on_commit_callbacks(execute=True):
            r = _submit(client, match, snap, choice["action"])
        assert r.status_code == 200, r.json()
        snap = r.json()["state"]
        assert calls["legal_actions"] == 1, calls  # the new state's, for the answer; none before the move
        assert calls[f"legal_actions of seat {mover.position}"] == 1
        assert calls["current_players"] <= 2, calls  # once per version: before the move, after it
        assert (calls["storage.load_state"], calls["storage.parse_state"]) == (1, 0), calls  # from the cache
        assert (calls["load"], calls["dump"], calls["clone"], calls["player_view"]) == (0, 1, 2, 1), calls
        # The shared answer is the engine's own for the state as stored now.
        stored = game.load(Match.objects.get(pk=match.pk).state)
        engine = [game.action_to_json(a) for a in game.legal_actions(stored, mover.position)]
        assert [a["action"] for a in snap["legal_actions"]] == engine
        placed += 1


def test_the_next_mover_reads_and_submits_on_the_legal_actions_the_last_submit_computed(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Commandeer: when the turn passes, the submit's automatic-pass check computes the next mover's legal
    actions; their view and their own submit use them, nothing is computed twice for a state and seat."""
    match = _commandeer(alice, bob)
    game = get_game(match.kind)
    clients = {0: _client(alice), 1: _client(bob)}
    asked: Counter[str] = Counter()  # "legal_actions at <state> of seat <seat>" -> computations, all requests
    snap: dict[str, Any] = {}
    holder, rng, submits, reads = -1, random.Random(3), 0, 0
    while submits < 30 and snap.get("status", "active") == "active":
        with spied(match.kind) as calls, django_capture_on_commit_callbacks(execute=True):
            if not snap or holder not in snap["current_players"]:
                who = snap["current_players"][0] if snap else 0
                with CaptureQueriesContext(connection) as ctx:
                    snap = clients[who].get(f"/api/matches/{match.pk}/state/").json()
                assert len(_sql(ctx)) <= 2, _sql(ctx)  # the match with its seats and users, the log tail
                holder, reads = who, reads + 1
            else:
                version = snap["state_version"]
                before = game.load(Match.objects.get(pk=match.pk).state)
                choice = rng.choice(snap["legal_actions"])["action"]
                with CaptureQueriesContext(connection) as ctx:
                    r = _submit(clients[holder], match, snap, choice, key=f"k{submits}")
                assert r.status_code == 200, r.json()
                # The lock read, then one write (PostgreSQL: one statement; SQLite: one per row).
                rows = r.json()["state_version"] - version
                assert len(_sql(ctx)) <= (2 if connection.vendor == "postgresql" else 5 + rows), _sql(ctx)
                # The membership check asked nothing: the view (or the last answer) had the legal actions.
                digest = hashlib.sha256(json.dumps(game.dump(before), sort_keys=True).encode()).hexdigest()[
                    :16
                ]
                assert calls[f"legal_actions at {digest} of seat {holder}"] == 0, calls
                snap, submits = r.json()["state"], submits + 1
        asked.update({k: n for k, n in calls.items() if k.startswith("legal_actions at ")})
    assert submits >= 10 and reads >= 3
    assert asked and max(asked.values()) == 1, [k for k, n in asked.items() if n > 1]


def _a_move_after_which_the_mover_acts_again(match: Match, users: dict[int, Any]) -> tuple[int, Any]:
    """Play first legal actions until the seat to move has an action after which it acts again."""
    game = get_game(match.kind)
    for _ in range(40):
        match.refresh_from_db()
        state = game.load(match.state)
        mover = game.current_players(state)[0]
        for a in game.legal_actions(state, mover):
            after = game.apply(game.clone(state), a)
            if not game.is_terminal(after) and mover in game.current_players(after):
                return mover, a
        first = game.legal_actions(state, mover)[0]
        action_submit(
            match_id=match.pk,
            user=users[mover],
            action_json=game.action_to_json(first),
            state_version=match.state_version,
        )
    raise AssertionError("no such move in 40 plies")


def test_a_version_rolled_back_lends_no_legal_actions_to_the_version_made_again(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A key reused at the current version rolls the whole submit back, after its automatic-pass check
    computed the next version's legal actions: those answers are never shared. The same submit with a new
    key shares them once it commits."""
    match = _commandeer(alice, bob)
    game = get_game(match.kind)
    users = {0: alice, 1: bob}
    mover, first = _a_move_after_which_the_mover_acts_again(match, users)
    match.refresh_from_db()
    user = users[mover]

    def later_answers() -> list[tuple[int, int, int, int]]:
        return [k for k in storage._LEGAL_CACHE._data if k[0] == match.pk and k[1] > match.state_version]

    with django_capture_on_commit_callbacks(execute=True):
        action_submit(
            match_id=match.pk,
            user=user,
            action_json=game.action_to_json(first),
            state_version=match.state_version,
            idempotency_key="same",
        )
    match.refresh_from_db()
    state = game.load(match.state)
    second = game.action_to_json(game.legal_actions(state, mover)[-1])
    with spied(match.kind) as calls, django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(ApplicationError) as refused:
            action_submit(
                match_id=match.pk,
                user=user,
                action_json=second,
                state_version=match.state_version,
                idempotency_key="same",
            )
    assert refused.value.code == "idempotency_key_reused"
    match.refresh_from_db()
    assert Match.objects.get(pk=match.pk).state_version == match.state_version  # nothing applied
    assert calls["legal_actions"] >= 1  # the automatic-pass check asked the rolled-back version
    assert later_answers() == []
    with django_capture_on_commit_callbacks(execute=True):
        action_submit(
            match_id=match.pk,
            user=user,
            action_json=second,
            state_version=match.state_version,
            idempotency_key="new",
        )
    assert later_answers() != []  # committed: shared


def test_westeros_consequences_for_every_viewer_at_once_equal_each_viewers_own_w_20(
    alice: Any, bob: Any, carol: Any
) -> None:
    """The batched consequences share each event's words between the viewers who see it, and each viewer
    still gets exactly what `log_view` shows their house (private events only to their addressees)."""
    match = _westeros(alice, bob, carol)
    game = get_game(match.kind)
    state = game.load(match.state)
    rng = random.Random(11)
    checked = private = 0
    for _ in range(60):
        current = game.current_players(state)
        if game.is_terminal(state) or not current:
            break
        basis = game.consequences_basis(state)
        seat = rng.choice(current)
        state = game.apply(state, rng.choice(game.legal_actions(state, seat)))
        viewers: list[int | None] = [0, 1, 2, None]
        batched = game.consequences_by_viewer(state, viewers, basis)
        names = _card_ids(state)
        for viewer, items in zip(viewers, batched, strict=True):
            house = game.engine_player(state, viewer) if viewer is not None else None
            events = log_view(state, house, basis)
            expected = []
            for e in events:
                item: dict[str, Any] = {
                    "text": _printed_names(state, str(e["text"])).rstrip(".") + ".",
                    "kind": "event",
                    "square": None,
                    "amount": None,
                }
                message = event_message(e, names)
                if message is not None:
                    item["message"] = message.to_json()
                expected.append(item)
            assert items == expected == game.consequences(state, viewer, basis)
            private += sum(1 for e in state.log[basis - state.log_start :] if "to" in e)
            checked += len(items)
    assert checked > 20 and private > 0
