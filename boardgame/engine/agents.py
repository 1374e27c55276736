"""Westeros agents: they only ever pick among `legal_actions` (STYLE 3) and take an injected rng."""

from __future__ import annotations

from random import Random

from .actions import (
    Action,
    Bid,
    Choose,
    DeclareSupport,
    EndMarch,
    MarchMove,
    Muster,
    PlaceOrder,
    PlayHouseCard,
    ResolveConsolidate,
    ResolveRaid,
)
from .game import WesterosState


class RandomAgent:
    """Uniformly random legal action."""

    name = "random"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, state: WesterosState, player: str) -> Action:
        return self.rng.choice(state.legal_actions(player))


class GreedyAgent:
    """One-step heuristic: takes castles, supports itself, bids what it can afford."""

    name = "greedy"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, state: WesterosState, player: str) -> Action:
        scored = [(self._score(state, player, a), a) for a in state.legal_actions(player)]
        top = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s >= top - 0.05])

    def _score(self, st: WesterosState, p: str, a: Action) -> float:
        data = st.data
        if isinstance(a, PlaceOrder):
            area = data.areas[a.area]
            near_target = any(
                data.kind(n) == "land" and data.areas[n]["castle"] != "none" and st.control(n) != p
                for n in data.adj[a.area]
            )
            tok = a.token
            if tok.startswith("march"):
                return (4.0 if near_target else 1.0) + (0.5 if tok == "march_plus_one" else 0)
            if tok.startswith("defense"):
                return 2.5 if area["castle"] != "none" else 0.5
            if tok.startswith("consolidate"):
                return 1.5 + int(area.get("crowns", 0))
            if tok.startswith("support"):
                return 2.0
            return 1.0
        if isinstance(a, MarchMove):
            dest = data.areas[a.dest]
            s = len(a.units) * 0.3
            if dest["kind"] == "land" and st.control(a.dest) != p:
                s += 3.0 + (5.0 if dest["castle"] != "none" else 0.0)
            if a.dest in st.neutral:
                s += 2.0
            enemy = st.units.get(a.dest)
            hostile_garrison = a.dest in st.garrisons and dest.get("home_house") != p
            if (enemy is not None and enemy["house"] != p) or hostile_garrison:
                castle = dest["castle"] != "none"
                mine = sum(
                    4 if (u == "siege_engine" and castle) else {"knight": 2}.get(u, 1) for u in a.units
                )
                if st.march is not None:
                    mine += int(data.tokens[st.march.token]["strength_modifier"])
                theirs = st.garrisons.get(a.dest, 0) if hostile_garrison else 0
                if enemy is not None and enemy["house"] != p:
                    theirs += sum({"knight": 2, "siege_engine": 0}.get(u, 1) for u in enemy["units"])
                    o = st.orders.get(a.dest)
                    if o and o[1].startswith("defense"):
                        theirs += int(data.tokens[o[1]]["strength_modifier"])
                s += 2.0 if mine >= theirs else -6.0
            return s
        if isinstance(a, EndMarch):
            return 1.0 if a.leave_power_token else 0.5
        if isinstance(a, DeclareSupport):
            return 10.0 if a.side == p else 0.0
        if isinstance(a, PlayHouseCard):
            info = data.house_cards[a.card]
            return float(info["strength"] + info["swords"] * 0.5 + info["fortifications"] * 0.3)
        if isinstance(a, Bid):
            power = st.power[p]
            want = (st.threat // max(1, len(st.houses))) + 1 if st.step == "wildling_attack" else power // 2
            return -abs(a.amount - min(power, want))
        if isinstance(a, Muster):
            return {"knight": 3.0, "siege_engine": 2.0, "footman": 2.5, "ship": 1.5}[a.unit]
        if isinstance(a, ResolveConsolidate):
            return 2.0 if a.muster else 1.0
        if isinstance(a, ResolveRaid):
            if a.target is None:
                return 0.0
            o = st.orders.get(a.target)
            return 2.0 if o and o[1].startswith("consolidate") else 1.0
        if isinstance(a, Choose):
            prefs = {
                "blade": {"use": 1.0},
                "tyrion": {"cancel": 1.0},
                "aeron": {"keep": 1.0},
                "muster_done": {"done": -1.0},
                "throne_of_blades": {"mustering": 1.0},
                "dark_wings": {"collect_power": 1.0},
                "raven": {"look": 0.5},
                "port_takeover": {"replace": 1.0},
                "renly": {"none": -1.0},
                "cersei": {"none": -1.0},
            }
            return prefs.get(a.decision, {}).get(a.option, 0.0)
        return 0.0


AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, rng: Random) -> RandomAgent | GreedyAgent:
    try:
        return AGENTS[name](rng)
    except KeyError as exc:
        raise ValueError(f"unknown agent {name!r}; choose from {sorted(AGENTS)}") from exc
