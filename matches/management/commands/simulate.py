"""``manage.py simulate commandeer|westeros``: seeded bot-vs-bot matches; prints ONE JSON object."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.agents import AGENT_NAMES, make_agent


class Command(BaseCommand):
    help = "Play seeded bot matches (commandeer or westeros) and print a JSON summary."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=["commandeer", "westeros"])
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--agents",
            default="random,random",
            help=f"comma-separated agent names ({', '.join(AGENT_NAMES)})",
        )
        parser.add_argument("--decks", nargs=2, metavar="FILE", help="two deck JSON files (commandeer)")
        parser.add_argument("--players", type=int, default=3, help="number of players (westeros)")
        parser.add_argument(
            "--budget",
            type=float,
            default=None,
            help="seconds of thought per decision of the searching agents (default: each level's own, "
            "times AI_BUDGET_SCALE)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        agents = [a.strip() for a in opts["agents"].split(",") if a.strip()]
        unknown = [a for a in agents if a not in AGENT_NAMES]
        if unknown:
            raise CommandError(f"unknown agent(s) {', '.join(unknown)}; choose from {', '.join(AGENT_NAMES)}")
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        budget = opts["budget"]
        if budget is not None and not 0 < budget <= 600:
            raise CommandError("--budget must be in (0, 600] seconds")
        with agents_from_registry(opts["kind"], budget):
            if opts["kind"] == "commandeer":
                result = self._commandeer(opts, agents)
            else:
                result = self._westeros(opts, agents)
        self.stdout.write(json.dumps(result))

    def _commandeer(self, opts: dict[str, Any], agents: list[str]) -> dict[str, Any]:
        from matches.engine.decks import load_deck_file
        from matches.engine.simulate import run

        try:
            decks = [load_deck_file(f) for f in opts["decks"]] if opts["decks"] else None
            return run(opts["games"], opts["seed"], agents, decks)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc

    def _westeros(self, opts: dict[str, Any], agents: list[str]) -> dict[str, Any]:
        try:
            module = importlib.import_module("boardgame.engine.simulate")
        except ImportError as exc:
            raise CommandError(
                f"the westeros engine simulator is not available (boardgame.engine.simulate): {exc}"
            ) from exc
        runner = getattr(module, "run", None)
        if runner is None:
            raise CommandError("boardgame.engine.simulate has no run(players, games, seed, agents) function")
        try:
            result: dict[str, Any] = runner(
                players=opts["players"], games=opts["games"], seed=opts["seed"], agents=agents
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        return result


@contextmanager
def agents_from_registry(kind: str, budget_s: float | None) -> Iterator[None]:
    """Let the engine's simulator build its bots through `matches.agents.make_agent` (levels' budgets scaled
    by AI_BUDGET_SCALE, or `budget_s`), not its own constructor: one way to make an agent."""
    try:
        module = importlib.import_module(
            "matches.engine.simulate" if kind == "commandeer" else "boardgame.engine.simulate"
        )
    except ImportError:  # reported by the command itself
        yield
        return

    def build(name: str, rng: Random) -> Any:
        return make_agent(kind, name, rng, budget_s)

    before = getattr(module, "make_agent", None)
    module.make_agent = build  # type: ignore[attr-defined]
    try:
        yield
    finally:
        if before is None:
            del module.make_agent
        else:
            module.make_agent = before  # type: ignore[attr-defined]
