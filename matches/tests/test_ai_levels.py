"""AI levels on the platform: the registry, thinking outside the match lock, the agent cache, the
greedy fallback when a search fails or runs out of time, and the AI task's time slices."""

from __future__ import annotations

import random
import time
from typing import Any
from unittest import mock

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection
from django.db.models import F

from matches import agents, tasks
from matches.games.registry import get_game
from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.services import ai_seats
from matches.services.ai_seats import ai_action_submit
from matches.services.lobby import match_create
from matches.services.submit import action_submit
from matches.tests.fakegame import CountingGame

pytestmark = pytest.mark.django_db


class FakeAgent:
    """A searching agent stand-in: records where it was asked, optionally sleeps or raises."""

    made = 0

    def __init__(
        self, rng: random.Random, *, sleep_s: float = 0.0, error: BaseException | None = None
    ) -> None:
        FakeAgent.made += 1
        self.rng = rng
        self.sleep_s, self.error = sleep_s, error
        self.calls: list[
            int
        ] = []  # how deep in atomic blocks (the test's own is one): 1 = no match lock held

    def choose(self, game: CountingGame, state: Any, player: int) -> Any:
        self.calls.append(len(connection.atomic_blocks))
        if self.sleep_s:
            time.sleep(self.sleep_s)
        if self.error is not None:
            raise self.error
        return game.legal_actions(state, player)[0]


class Levels:
    """Patches the counting game so its AI seats are played by FakeAgents (greedy: the first legal action)."""

    def __init__(self, **agent_kwargs: Any) -> None:
        self.agent_kwargs = agent_kwargs
        self.instances: list[FakeAgent] = []
        self.fallbacks = 0

    def make_ai(self, game: CountingGame, agent: str, rng: random.Random) -> FakeAgent:
        made = FakeAgent(rng, **self.agent_kwargs)
        self.instances.append(made)
        return made

    def ai_action(
        self, game: CountingGame, state: Any, player: int, *, rng: Any, agent: str, instance: Any = None
    ) -> Any:
        if agent == agents.FALLBACK_AGENT:
            self.fallbacks += 1
            return game.legal_actions(state, player)[-1]
        return instance.choose(game, state, player)

    def __enter__(self) -> Levels:
        ai_seats.forget_agents()
        levels = self
        self._patches = [
            mock.patch.object(CountingGame, "make_ai", lambda g, a, r: levels.make_ai(g, a, r)),
            mock.patch.object(CountingGame, "ai_action", lambda g, *a, **k: levels.ai_action(g, *a, **k)),
        ]
        for p in self._patches:
            p.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        for p in self._patches:
            p.stop()
        ai_seats.forget_agents()


def ai_to_move(alice: Any, *, agent: str = "hard", both_ai: bool = False) -> Match:
    """A counting match against the `agent` AI where the AI must move now (no AI task has run)."""
    with mock.patch.object(tasks.ai_move, "delay"):
        match = match_create(user=alice, kind="counting", vs_ai=True, ai_agent=agent)
        match.refresh_from_db()
        if match.state["turn"] == 0:
            action_submit(match_id=match.pk, user=alice, action_json={"type": "add", "n": 1}, state_version=0)
    if both_ai:
        Seat.objects.filter(match=match, position=0).update(ai_agent=agent)
    return Match.objects.get(pk=match.pk)


def test_the_registry_names_levels_and_baselines_and_refuses_others() -> None:
    assert agents.LEVELS == ("easy", "normal", "hard") and agents.DEFAULT_AGENT == "normal"
    assert set(agents.AGENT_NAMES) == set(agents.LEVELS) | {"random", "greedy", "flatmc"}
    assert agents.TAKEOVER_AGENT == "normal" and "greedy" in agents.AGENT_NAMES  # stored matches keep working
    with pytest.raises(ValueError, match="unknown agent 'wizard'; choose one of easy, normal, hard"):
        agents.make_agent("commandeer", "wizard", random.Random(1))
    with pytest.raises(ValueError, match="no AI agents for game kind 'chess'"):
        agents.make_agent("chess", "greedy", random.Random(1))
    with pytest.raises(ValueError, match="budget_s must be in"):
        agents.make_agent("commandeer", "greedy", random.Random(1), -1.0)
    with pytest.raises(ValueError, match="iterations must be in"):
        agents.make_agent("commandeer", "greedy", random.Random(1), iterations=0)


def test_the_budget_scale_is_bounded(settings: Any) -> None:
    settings.AI_BUDGET_SCALE = 0.0
    assert agents.budget_scale() == agents.AI_BUDGET_SCALE_BOUNDS[0]
    settings.AI_BUDGET_SCALE = 1e6
    assert agents.budget_scale() == agents.AI_BUDGET_SCALE_BOUNDS[1]


def test_the_ai_thinks_before_it_locks_the_match_and_the_move_is_stored(alice: Any) -> None:
    match = ai_to_move(alice)
    outside = len(connection.atomic_blocks)  # the test's transaction
    with Levels() as levels:
        result = ai_action_submit(match_id=match.pk)
    assert result is not None and result.state_version == match.state_version + 1
    assert levels.instances[0].calls == [
        outside
    ]  # no transaction of its own, so no row lock, while it searched
    entry = ActionLog.objects.get(match=match, version=result.state_version)
    assert entry.source == ActionLog.Source.AI and entry.seat == 1


def test_a_move_thought_on_a_state_that_changed_meanwhile_is_dropped_and_thought_again(alice: Any) -> None:
    match = ai_to_move(alice)
    bumped = []

    class Interfering(FakeAgent):
        def choose(self, game: CountingGame, state: Any, player: int) -> Any:
            if not bumped:  # someone else changes the match while the AI thinks (once)
                Match.objects.filter(pk=match.pk).update(state_version=F("state_version") + 1)
                bumped.append(True)
            return super().choose(game, state, player)

    with (
        Levels() as levels,
        mock.patch.object(levels, "make_ai", lambda g, a, r: _made(levels, Interfering(r))),
    ):
        result = ai_action_submit(match_id=match.pk)
    assert result is not None and result.state_version == match.state_version + 2
    assert len(levels.instances) == 2  # the first agent's plan assumed its dropped move: a fresh one
    assert ActionLog.objects.filter(match=match, version=match.state_version + 1).count() == 0


def test_a_move_in_a_simultaneous_step_stands_when_only_others_moved_meanwhile_w_3_3(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """W-3.3: orders are placed all at once. A player placing (and taking back) orders while an AI house
    thinks does not change the AI's decision: its move is applied, not thought again (which a quick player
    could otherwise make happen until the AI's clock ran out)."""
    with mock.patch.object(tasks.ai_move, "delay"):
        match = match_create(
            user=alice, kind="westeros", vs_ai=True, ai_agent="greedy", rules_config={"player_count": 3}
        )
    game = get_game("westeros")
    state = game.load(Match.objects.get(pk=match.pk).state)
    assert set(game.current_players(state)) == {0, 1, 2}  # W-5.1: every house assigns orders at once
    place = next(a for a in game.legal_actions(state, 0) if type(a).__name__ == "PlaceOrder")
    thought_on: list[int] = []
    real = type(game).ai_action

    def interfering(self: Any, st: Any, position: int, **kw: Any) -> Any:
        thought_on.append(position)
        if len(thought_on) == 1:  # alice places an order while the AI thinks
            m = Match.objects.get(pk=match.pk)
            action_submit(
                match_id=m.pk,
                user=alice,
                action_json=game.action_to_json(place),
                state_version=m.state_version,
            )
        return real(self, st, position, **kw)

    version = Match.objects.get(pk=match.pk).state_version
    with mock.patch.object(type(game), "ai_action", interfering):
        result = ai_action_submit(match_id=match.pk)
    assert result is not None and result.state_version == version + 2
    assert thought_on == [1]  # thought once: the move stood
    log = list(ActionLog.objects.filter(match=match, version__gt=version).values_list("seat", "source"))
    assert log == [(0, "player"), (1, "ai")]


def test_a_move_in_a_simultaneous_step_is_dropped_when_its_own_seat_moved_meanwhile(alice: Any) -> None:
    """Two AI tasks thinking for one house: the move of the second was thought before the first's was applied,
    so it is dropped (and thought again), not applied on top of it."""
    with mock.patch.object(tasks.ai_move, "delay"):
        match = match_create(
            user=alice, kind="westeros", vs_ai=True, ai_agent="greedy", rules_config={"player_count": 3}
        )
    version = Match.objects.get(pk=match.pk).state_version
    choice = ai_seats._think(match.pk, None)
    assert choice is not None and choice.position == 1
    assert ai_action_submit(match_id=match.pk) is not None  # the other task's move for house 1
    assert ai_seats._apply(match.pk, choice) is None
    assert list(
        ActionLog.objects.filter(match=match, version__gt=version).values_list("seat", flat=True)
    ) == [1]


def _made(levels: Levels, agent: FakeAgent) -> FakeAgent:
    levels.instances.append(agent)
    return agent


def test_a_seat_keeps_its_agent_between_decisions_and_the_match_end_forgets_it(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = ai_to_move(alice, both_ai=True)

    def move() -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return ai_action_submit(match_id=match.pk)

    with Levels() as levels:
        assert move() is not None
        assert move() is not None
        assert move() is not None
        assert len(levels.instances) == 2  # one per seat, kept across its decisions
        while move() is not None:
            pass
        assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
        assert not any(key[0] == match.pk for key in ai_seats._AGENTS._data)


@pytest.mark.parametrize(
    "error", [SoftTimeLimitExceeded(), RuntimeError("search blew up")], ids=["soft-time-limit", "raises"]
)
def test_a_failing_or_overlong_search_falls_back_to_the_greedy_move(
    alice: Any, error: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    match = ai_to_move(alice)
    with Levels(error=error) as levels:
        result = ai_action_submit(match_id=match.pk)
    assert result is not None and levels.fallbacks == 1
    assert "playing the greedy move instead" in caplog.text
    match.refresh_from_db()
    assert match.task_failures == 0 and match.status == MatchStatus.ACTIVE


def test_an_illegal_search_answer_falls_back_to_the_greedy_move(alice: Any) -> None:
    match = ai_to_move(alice)

    class Cheater(FakeAgent):
        def choose(self, game: CountingGame, state: Any, player: int) -> Any:
            return {"type": "add", "n": 7}

    with Levels() as levels, mock.patch.object(levels, "make_ai", lambda g, a, r: Cheater(r)):
        result = ai_action_submit(match_id=match.pk)
    assert result is not None and levels.fallbacks == 1
    entry = ActionLog.objects.get(match=match, version=result.state_version)
    assert entry.action != {"type": "add", "n": 7}


def test_a_slow_ai_task_plays_one_slice_then_queues_the_rest(alice: Any, monkeypatch: Any) -> None:
    match = ai_to_move(alice, both_ai=True)
    monkeypatch.setattr(tasks, "AI_TASK_SLICE_S", 0.05)
    with Levels(sleep_s=0.03), mock.patch.object(tasks.ai_move, "delay") as queued:
        moves = tasks.ai_move(match.pk, match.state_version)
    assert 1 <= moves <= 3  # not the whole game in one task
    after = Match.objects.get(pk=match.pk)
    queued.assert_called_once_with(match.pk, after.state_version)
    assert after.status == MatchStatus.ACTIVE


def test_the_ai_task_has_celery_time_limits_above_its_slice() -> None:
    assert tasks.ai_move.soft_time_limit == tasks.AI_SOFT_TIME_LIMIT_S > tasks.AI_TASK_SLICE_S
    assert tasks.ai_move.time_limit == tasks.AI_TIME_LIMIT_S > tasks.AI_SOFT_TIME_LIMIT_S
    from django.conf import settings

    assert settings.CELERY_TASK_ROUTES["matches.tasks.ai_move"] == {"queue": "ai"}


def test_the_worker_of_make_run_consumes_both_queues() -> None:
    from pathlib import Path

    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text()
    worker = next(line for line in procfile.splitlines() if line.startswith("worker:"))
    assert "-Q celery,ai" in worker


def test_the_api_offers_the_levels_and_refuses_an_unknown_one(alice: Any, client: Any) -> None:
    client.force_login(alice)
    bad = client.post(
        "/api/matches/",
        {"kind": "counting", "vs_ai": True, "ai_agent": "wizard"},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "ai_agent" in str(bad.json())
    schema = client.get("/api/schema/?format=json")
    if schema.status_code == 200:
        assert all(name in schema.content.decode() for name in agents.AGENT_NAMES)


def test_the_seat_shows_the_level(alice: Any) -> None:
    match = ai_to_move(alice)
    seat = Seat.objects.get(match=match, position=1)
    assert seat.display_name == "AI (hard)"


def test_an_agent_is_out_of_the_cache_while_it_thinks_so_no_two_threads_share_it(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = ai_to_move(alice, both_ai=True)
    seen: list[bool] = []

    class Watching(FakeAgent):
        def choose(self, game: CountingGame, state: Any, player: int) -> Any:
            seen.append(any(agent is self for agent in ai_seats._AGENTS._data.values()))
            return super().choose(game, state, player)

    with Levels() as levels, mock.patch.object(levels, "make_ai", lambda g, a, r: _made(levels, Watching(r))):
        for _ in range(4):
            with django_capture_on_commit_callbacks(execute=True):
                assert ai_action_submit(match_id=match.pk) is not None
    assert seen == [False] * 4 and len(levels.instances) == 2  # taken out, put back after each stored move


def test_the_sweep_wakes_a_waiting_ai_once_per_wait_not_every_second(alice: Any) -> None:
    """A searching AI may wait behind others on the `ai` queue: one more task, not one a second."""
    from datetime import timedelta

    from django.utils import timezone

    match = ai_to_move(alice)
    Seat.objects.filter(match=match, position=1).update(
        clock_started_at=timezone.now() - timedelta(seconds=10)
    )
    with mock.patch.object(tasks.ai_move, "delay") as queued:
        for _ in range(5):
            tasks.sweep_deadlines()
    queued.assert_called_once_with(match.pk, None)


def test_simulate_takes_a_budget_and_refuses_a_bad_one() -> None:
    import json
    from io import StringIO

    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="--budget must be in"):
        call_command("simulate", "commandeer", "--games", "1", "--budget", "-1", stdout=StringIO())
    out = StringIO()
    call_command(
        "simulate", "commandeer", "--games", "1", "--agents", "greedy,random", "--budget", "0.01", stdout=out
    )
    assert json.loads(out.getvalue())["games"] == 1


def test_a_budget_scale_outside_its_bounds_stops_the_process_with_one_line(monkeypatch: Any) -> None:
    from config.settings.base import env_float

    monkeypatch.setenv("AI_BUDGET_SCALE", "0")
    with pytest.raises(SystemExit, match=r"AI_BUDGET_SCALE='0' is out of range \(expected 0.01..10.0\)"):
        env_float("AI_BUDGET_SCALE", 1.0, 0.01, 10.0)
    monkeypatch.setenv("AI_BUDGET_SCALE", "fast")
    with pytest.raises(SystemExit, match="is not a number"):
        env_float("AI_BUDGET_SCALE", 1.0, 0.01, 10.0)
    monkeypatch.setenv("AI_BUDGET_SCALE", "0.05")
    assert env_float("AI_BUDGET_SCALE", 1.0, 0.01, 10.0) == 0.05


def test_the_lobby_page_offers_the_three_levels_with_normal_chosen(alice: Any, client: Any) -> None:
    client.force_login(alice)
    page = client.get("/play/").content.decode()
    assert 'data-testid="ai-level"' in page
    assert '<option value="normal" selected' in page and "Easy — for learning the game" in page
    assert 'value="hard"' in page and "Hard — searches" in page
    assert 'value="greedy"' not in page and 'value="flatmc"' not in page  # baselines are not offered


def test_an_agent_overrunning_twice_its_budget_is_logged(
    alice: Any, caplog: pytest.LogCaptureFixture
) -> None:
    ai_seats._check_budget("commandeer", "greedy", 5.0, 7)  # no budget: nothing to overrun
    with mock.patch.object(ai_seats, "level_budget_s", return_value=0.5):
        ai_seats._check_budget("commandeer", "hard", 1.1, 7)
        assert "took" not in caplog.text
        ai_seats._check_budget("commandeer", "hard", 1.5, 7)
    assert "AI hard of match 7 took 1.50s for a budget of 0.50s" in caplog.text
    caplog.clear()
    with mock.patch.object(ai_seats, "level_budget_s", return_value=0.25):  # a Westeros order plan: 2.4 x
        ai_seats._check_budget("westeros", "hard", 0.78, 7)
        assert "took" not in caplog.text
        ai_seats._check_budget("westeros", "hard", 1.5, 7)
    assert "AI hard of match 7 took 1.50s for a budget of 0.60s" in caplog.text
