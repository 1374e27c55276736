"""The conformance suite of the game interface (``matches.interface.Game``), one for every engine.

Seeded random playouts; at sampled states every member of the interface is checked against the others:

- a running game has someone to act, and a current player has a legal action; a terminal one has an
  outcome (its winner a player) and nobody with a legal action;
- ``to_dict``/``from_dict`` round-trip through JSON text, the decision step survives them and ``clone``;
- a clone is independent: acting on it leaves the original as it was; checking a state changes nothing;
- checked and unchecked apply agree; an action that was legal and no longer is gets refused
  (``ValueError``) and explained; the timeout default is a legal action and never a concession;
- views hide secrets: ``determinize(p)`` resamples what ``p`` cannot see (the samples do vary) and leaves
  ``p``'s view, the spectator's view and ``p``'s legal actions as they were, for every player; a sample
  round-trips and plays on with checked actions;
- determinism under a seed: the same seed deals the same game, the same ``rng`` the same sample, and the
  game's actions replayed (through their JSON) from the seed reproduce the final state exactly.

An engine takes part with an ``EngineCase`` (tests/test_game_conformance.py). Pure Python, no Django, no
pytest: a failed check raises ``AssertionError`` naming the case, the seed and the step.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from matches.interface import Game

MAX_STEPS = 4000  # every game of either engine ends well before this (C-6.5 turn limit, W-3.1 ten rounds)


@dataclass(frozen=True)
class EngineCase:
    """One engine (or one set-up of it) under the suite."""

    name: str
    new: Callable[[int], Game[Any, Any]]  # a new game dealt from a seed
    load: Callable[[Mapping[str, Any]], Game[Any, Any]]  # the engine's ``from_dict``
    action_from_json: Callable[[Any], Any]  # an action from its ``to_json()``
    every: int = 1  # check every n-th state (the last one always)
    # A concession (Commandeer's Concede): never a timeout default, and taken by the playouts only when
    # nothing else is legal (it would end most random games in their first turns).
    concedes: Callable[[Any], bool] = lambda _action: False
    max_steps: int = MAX_STEPS


@dataclass
class Tally:
    """What the playouts met, so the suite can insist that each check was exercised."""

    games: int = 0
    states: int = 0
    terminal: int = 0
    secret: int = 0  # legal actions that were secret
    explained: int = 0  # stale actions refused and explained
    determinized: int = 0
    varied: int = 0  # determinizations that changed a hidden part
    seen: dict[str, int] = field(default_factory=dict)


def snap(state: Game[Any, Any]) -> dict[str, Any]:
    """A state's snapshot (``to_dict``), compared as a value."""
    return state.to_dict()


def _without_rng(state: Game[Any, Any]) -> dict[str, Any]:
    """The snapshot less the RNG state: what ``determinize`` must vary besides reseeding."""
    return {k: v for k, v in state.to_dict().items() if k not in ("rng", "seed_hidden")}


def check_state(case: EngineCase, g: Game[Any, Any], rng: Random, tally: Tally) -> None:
    """Every check of one state (see the module text); ``rng`` picks the actions and samples tried."""
    where = f"{case.name}"
    players = list(g.players())
    current = g.current_players()
    assert set(current) <= set(players), f"{where}: current players {current} are not players {players}"
    before = snap(g)
    tally.states += 1

    # serialisation round-trips through JSON text (what a stored match holds); the decision step survives
    # it and clone
    text = json.dumps(before, sort_keys=True)
    loaded = case.load(json.loads(text))
    assert json.dumps(snap(loaded), sort_keys=True) == text, f"{where}: to_dict/from_dict changed the state"
    step = g.decision_step()
    assert hash(step) == hash(loaded.decision_step()) and step == loaded.decision_step()
    assert step == g.clone().decision_step()
    assert snap(g.clone()) == before, f"{where}: a clone differs from its original"

    if g.is_terminal():
        tally.terminal += 1
        out = g.outcome()
        assert out is not None, f"{where}: a terminal state has no outcome"
        assert out.winner is None or out.winner in players, f"{where}: winner {out.winner} is not a player"
        assert current == [] or all(g.legal_actions(p) == [] for p in players)
        return
    assert g.outcome() is None, f"{where}: a running game has an outcome"
    assert current, f"{where}: a running game has nobody to act"
    assert any(g.legal_actions(p) for p in current), f"{where}: no current player has a legal action"

    for p in current:
        legal = g.legal_actions(p)
        if not legal:
            continue
        timeout = g.timeout_action(p)
        assert timeout in legal, f"{where}: the timeout default of {p} is not legal"
        assert not case.concedes(timeout), f"{where}: the timeout default of {p} concedes"
        tally.secret += sum(1 for a in legal if g.secret_action(a))
        a = rng.choice(legal)
        kind = type(a).__name__
        tally.seen[kind] = tally.seen.get(kind, 0) + 1
        checked, unchecked = g.clone(), g.clone()
        checked.apply(a)
        unchecked.apply_unchecked(a)
        assert snap(checked) == snap(unchecked), f"{where}: apply and apply_unchecked disagree on {a}"
        if not any(a in checked.legal_actions(q) for q in checked.players()):
            try:
                checked.clone().apply(a)
            except ValueError:
                pass
            else:
                raise AssertionError(f"{where}: the stale action {a} was applied again")
            reason = checked.explain_illegal(a)
            assert isinstance(reason, str) and reason.strip(), f"{where}: {a} refused without a reason"
            tally.explained += 1

    # views hide secrets: a sample of what a player cannot see changes nothing the player or a spectator
    # sees (the players to act and one other, in turn over the states)
    spectator = g.player_view(None)
    for i, p in enumerate(dict.fromkeys([*current, rng.choice(players)])):
        view = g.player_view(p)
        seed = rng.random()
        d = g.determinize(p, Random(seed))
        if i == 0:
            assert snap(d) == snap(g.determinize(p, Random(seed))), f"{where}: determinize is not seeded"
        assert d.player_view(p) == view, f"{where}: determinize changed what {p} sees"
        assert d.player_view(None) == spectator, f"{where}: determinize for {p} changed the spectator's view"
        assert d.legal_actions(p) == g.legal_actions(p), f"{where}: determinize changed {p}'s options"
    for p in current:
        if not g.legal_actions(p):
            continue
        plain = _without_rng(g)
        varied = False
        for k in range(3):
            d = g.determinize(p, Random(rng.random()))
            varied = varied or _without_rng(d) != plain
            if k == 0:
                assert snap(case.load(snap(d))) == snap(d), f"{where}: a sample does not round-trip"
            walk = d.clone()
            for _ in range(3 + k):
                if walk.is_terminal():
                    break
                movers = [q for q in walk.current_players() if walk.legal_actions(q)]
                walk.apply(rng.choice(walk.legal_actions(rng.choice(movers))))
        tally.determinized += 1
        tally.varied += varied
    assert snap(g) == before, f"{where}: checking a state (and acting on its clones) changed it"


def play_seeded(case: EngineCase, seed: int, tally: Tally) -> None:
    """One seeded random playout, checking every ``case.every``-th state and the end, then its replay."""
    rng = Random(seed)
    g = case.new(seed)
    assert snap(case.new(seed)) == snap(g), f"{case.name}: seed {seed} deals two different games"
    actions: list[Any] = []
    for step in range(case.max_steps):
        if step % case.every == 0 or g.is_terminal():
            try:
                check_state(case, g, rng, tally)
            except AssertionError as exc:
                raise AssertionError(f"seed {seed}, step {step}: {exc}") from exc
        if g.is_terminal():
            break
        movers = [p for p in g.current_players() if g.legal_actions(p)]
        legal = g.legal_actions(rng.choice(movers))
        action = rng.choice([a for a in legal if not case.concedes(a)] or legal)
        g.apply(action)
        actions.append(json.loads(json.dumps(action.to_json())))
    else:
        raise AssertionError(f"{case.name} seed {seed} did not end in {case.max_steps} actions")
    again = case.new(seed)
    for i, data in enumerate(actions):
        try:
            again.apply(case.action_from_json(data))
        except ValueError as exc:
            raise AssertionError(
                f"{case.name} seed {seed}: the replay does not reproduce the game (action {i}: {exc})"
            ) from exc
    assert snap(again) == snap(g), f"{case.name} seed {seed}: the replay does not reproduce the game"
    tally.games += 1


def run(case: EngineCase, games: int, *, first_seed: int = 1000) -> Tally:
    """``games`` seeded playouts of ``case``; fails unless every kind of check was exercised."""
    tally = Tally()
    for i in range(games):
        play_seeded(case, first_seed + i, tally)
    assert tally.games == tally.terminal == games, f"{case.name}: not every game was checked at its end"
    assert tally.determinized > 0, f"{case.name}: no state was determinized"
    assert tally.varied > 0, f"{case.name}: determinize never resampled a hidden part"
    assert tally.secret > 0, f"{case.name}: no action was ever secret"
    assert tally.explained > 0, f"{case.name}: no stale action was explained"
    return tally


__all__ = ["MAX_STEPS", "EngineCase", "Tally", "check_state", "play_seeded", "run", "snap"]
