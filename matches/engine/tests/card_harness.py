"""Build a position where a card's abilities trigger, run them, and check each effect's outcome (C-1.5).

Used for every card of the sample set and of the test pool: one scenario per trigger of the card; the
checks are generic per effect type but look at the real state (zones, counters, stats) afterwards.
"""

from __future__ import annotations

from typing import Any

from matches.engine import GameState, continuous
from matches.engine.actions import (
    Action,
    Activate,
    Attack,
    ChooseTarget,
    Deploy,
    PlayEvent,
    square_index,
    square_name,
)
from matches.engine.board import LINES, NEIGHBOURS_ORTHO
from matches.engine.tests.helpers import DUMMIES

SUBJECT = square_index("c3")
CONTINUOUS = {"static", "formation", "attached"}


def _pos(
    cards: dict[str, dict[str, Any]],
    board: list[dict[str, Any]],
    *,
    step: str,
    active: int,
    hand0: list[str] | None = None,
    turn: int = 5,
) -> GameState:
    data: dict[str, Any] = {
        "format": "commandeer-position",
        "version": 1,
        "turn": turn,
        "active": active,
        "first_player": 0,
        "step": step,
        "players": [
            {
                "cp": 10,
                "hand": (hand0 or []) + ["Dummy"] * 3,
                "deck": ["Dummy"] * 10,
                "energy": ["Dummy"] * 6,
            },
            {"cp": 3, "hand": ["Dummy"] * 3, "deck": ["Dummy"] * 10, "energy": ["Dummy"] * 6},
        ],
        "board": board,
    }
    return GameState.from_dict(data, catalog={**cards, **{d["name"]: d for d in DUMMIES}}, seed=7)


def _u(sq: int, card: str, owner: int, **extra: Any) -> dict[str, Any]:
    return {"square": square_name(sq), "card": card, "owner": owner, **extra}


def _free_neighbours(used: set[int]) -> list[int]:
    return [s for s in NEIGHBOURS_ORTHO[SUBJECT] if s not in used]


class Scenario:
    """A position plus the action that makes the card's ``trigger`` abilities happen."""

    def __init__(self, card: dict[str, Any], trigger: str, cards: dict[str, dict[str, Any]]) -> None:
        self.card = card
        self.trigger = trigger
        self.cards = cards
        self.subject_owner = 0
        self.defeated_before: set[int] = set()
        self.attached_to: int | None = None
        self.defeated_unit: int | None = None
        self.attack_target: int | None = None
        self.action: Action | None = None
        self.g = self._build()

    def _build(self) -> GameState:
        c = self.card
        name = c["name"]
        t = self.trigger
        is_unit = c["type"] == "unit"
        arrow = c["arrows"][0] if is_unit and c["arrows"] else "N"
        ahead = LINES[SUBJECT][arrow][0]
        if t in ("spoil", "marking", "on_attack"):
            enemy_card = "Weakling" if t == "spoil" else "Dummy"
            used = {ahead}
            free = _free_neighbours(used)
            board = [
                _u(SUBJECT, name, 0, damage=1000),
                _u(ahead, enemy_card, 1),
                _u(free[0], "Dummy", 0, damage=1000),
                _u(free[1], "Dummy", 1, damage=1000),
            ]
            g = _pos(self.cards, board, step="combat", active=0)
            subject = g.board[SUBJECT]
            target = g.board[ahead]
            assert subject is not None and target is not None
            self.subject = subject
            if t == "spoil":
                self.defeated_unit = target
                self.defeated_before = {target}
            else:
                self.attack_target = target
            options = [
                a
                for a in g.legal_actions(0)
                if isinstance(a, Attack) and a.unit == subject and a.target == target
            ]
            assert options, f"{name}: cannot attack the unit ahead on {square_name(ahead)}"
            self.action = options[0]
            return g
        if t == "on_defeated":
            board = [
                _u(SUBJECT, name, 0),
                _u(square_index("c4"), "Brute", 1),
                _u(square_index("c2"), "Dummy", 0, damage=1000),
                _u(square_index("d3"), "Dummy", 1, damage=1000),
            ]
            g = _pos(self.cards, board, step="combat", active=1)
            subject = g.board[SUBJECT]
            assert subject is not None
            self.subject = subject
            self.defeated_before = {subject}
            brute = g.board[square_index("c4")]
            self.action = next(
                a
                for a in g.legal_actions(1)
                if isinstance(a, Attack) and a.unit == brute and a.target == subject
            )
            return g
        dmg = (
            0 if t in ("casting", "start_of_turn", "start_of_planning") else 1000
        )  # combat's end clears damage
        board = [
            _u(square_index("c2"), "Dummy", 0, damage=dmg),
            _u(square_index("c4"), "Dummy", 1, damage=dmg),
            _u(square_index("d3"), "Dummy", 1, damage=dmg),
        ]
        if not is_unit:
            self.subject = -1
            board.insert(0, _u(SUBJECT, "Dummy", 0, damage=1000))
            etype = c["event_type"]
            step, active = ("defending", 1) if etype == "defensive" else ("planning", 0)
            g = _pos(self.cards, board, step=step, active=active, hand0=[name])
            card_id = next(x for x in g.sides[0].hand if g.defs[x].name == name)
            target = None
            if etype == "ongoing":
                negative = any(e.get("amount", 0) < 0 for a in c["abilities"] for e in a["effects"])
                target = g.board[square_index("c4")] if negative else g.board[SUBJECT]
                self.attached_to = target
            self.action = PlayEvent(0, card_id, target)
            return g
        if t == "deploying":
            g = _pos(self.cards, board, step="planning", active=0, hand0=[name])
            card_id = next(x for x in g.sides[0].hand if g.defs[x].name == name)
            self.subject = card_id
            self.action = Deploy(0, card_id, SUBJECT)
            return g
        board.insert(0, _u(SUBJECT, name, 0, damage=dmg))
        if t in ("casting", "start_of_turn", "start_of_planning"):
            # player 1 ends their turn 4; player 0's turn 5 starts and the triggers run
            g = _pos(self.cards, board, step="combat", active=1, turn=4)
            self.action = next(a for a in g.legal_actions(1) if type(a).__name__ == "Pass")
        elif t == "start_of_defending":
            g = _pos(self.cards, board, step="planning", active=1, turn=4)
            self.action = next(a for a in g.legal_actions(1) if type(a).__name__ == "Pass")
        elif t in ("planning_activated", "defending_activated"):
            step, active = ("planning", 0) if t == "planning_activated" else ("defending", 1)
            g = _pos(self.cards, board, step=step, active=active)
            subject = g.board[SUBJECT]
            acts = [a for a in g.legal_actions(0) if isinstance(a, Activate) and a.card == subject]
            assert acts, f"{name}: no {t} ability usable"
            self.action = acts[0]
        else:  # continuous (static, formation): checked by comparison, no action
            g = _pos(self.cards, board, step="planning", active=0)
        subject = g.board[SUBJECT]
        assert subject is not None
        self.subject = subject
        return g


def _snapshot(g: GameState) -> dict[str, Any]:
    return {
        "units": {uid: (u.sq, u.damage, *continuous.stats(g, uid)) for uid, u in g.units.items()},
        "cp": [s.cp for s in g.sides],
        "hand": [len(s.hand) for s in g.sides],
        "deck": [len(s.deck) for s in g.sides],
        "energy": [len(s.energy) for s in g.sides],
        "log": len(g.log),
    }


def run_trigger(card: dict[str, Any], trigger: str, cards: dict[str, dict[str, Any]]) -> list[str]:
    """Run one trigger scenario; returns a list of problems (empty when every effect did what it says)."""
    sc = Scenario(card, trigger, cards)
    g = sc.g
    abilities = [ab for ab in card["abilities"] if ab["trigger"] == trigger]
    if trigger in CONTINUOUS and card["type"] == "unit":
        return _check_continuous(sc, abilities)
    before = _snapshot(g)
    chosen: list[int] = []
    assert sc.action is not None
    g.apply(sc.action)
    if trigger == "attached":
        return _check_continuous(sc, abilities, before=before)
    guard = 0
    while g.decision is not None and guard < 50:
        guard += 1
        a = g.legal_actions(g.current_players()[0])[0]
        if isinstance(a, ChooseTarget):
            chosen.append(a.target)
        g.apply(a)
    events = [ev for e in g.log[before["log"] :] for ev in e["events"]]
    if not any(ev["type"] == "trigger" and g.defs[ev["card"]].name == card["name"] for ev in events):
        return [f"{card['name']}: the {trigger} ability did not trigger"]
    return _check_effects(sc, abilities, before, events, chosen)


def _expected_units(sc: Scenario, target: str, before: dict[str, Any], chosen: list[int]) -> list[int] | None:
    """Which units an effect should hit, from the position before (None = player target)."""
    g = sc.g
    owners = {uid: g.owners[uid] for uid in before["units"]}
    alive = [uid for uid in before["units"] if uid not in sc.defeated_before]
    if sc.subject >= 0 and sc.subject not in before["units"] and sc.subject in g.units:
        alive.append(sc.subject)  # deployed by the action
        owners[sc.subject] = 0
    anchor = sc.subject if sc.subject >= 0 else sc.attached_to
    anchor_sq = (
        None if anchor is None else (before["units"][anchor][0] if anchor in before["units"] else SUBJECT)
    )
    if target == "self":
        return [anchor] if anchor is not None else []
    if target == "attached_unit":
        return [sc.attached_to] if sc.attached_to is not None else []
    if target == "attack_target":
        return [sc.attack_target] if sc.attack_target is not None else []
    if target == "defeated_unit":
        return [sc.defeated_unit] if sc.defeated_unit is not None else []
    if target.startswith("chosen_"):
        return chosen[:1] if chosen else None  # single option: checked through the events below
    squares = {uid: before["units"][uid][0] if uid in before["units"] else SUBJECT for uid in alive}
    if target in ("adjacent_enemy_units", "adjacent_friendly_units"):
        want_enemy = target == "adjacent_enemy_units"
        return [
            u
            for u in alive
            if u != anchor
            and anchor_sq is not None
            and squares[u] in NEIGHBOURS_ORTHO[anchor_sq]
            and (owners[u] != 0) == want_enemy
        ]
    if target == "all_enemy_units":
        return [u for u in alive if owners[u] != 0]
    if target == "all_friendly_units":
        return [u for u in alive if owners[u] == 0]
    if target == "all_other_friendly_units":
        return [u for u in alive if owners[u] == 0 and u != anchor]
    return None


def _where(g: GameState, uid: int) -> str:
    if uid in g.units:
        return "board"
    side = g.sides[g.owners[uid]]
    for z in ("hand", "defeated", "removed", "retired", "deck", "energy"):
        if uid in side.zone(z):
            return z
    return "?"


def _check_effects(
    sc: Scenario,
    abilities: list[dict[str, Any]],
    before: dict[str, Any],
    events: list[dict[str, Any]],
    chosen: list[int],
) -> list[str]:
    g = sc.g
    name = sc.card["name"]
    problems: list[str] = []
    effects = [e for ab in abilities for e in ab["effects"]]
    leaves = {"defeat", "return_to_hand", "remove_from_game", "move"}
    chosen_iter = iter(chosen)
    for eff in effects:
        kind, target = eff["effect"], eff["target"]
        where = f"{name}: {kind} -> {target}"
        if target in ("controller", "opponent"):
            p = 0 if target == "controller" else 1
            evs = [ev for ev in events if ev.get("player") == p]
            if kind == "draw":
                drawn = [c for ev in evs if ev["type"] == "draw" for c in ev["cards"]]
                if len(drawn) < min(eff["count"], before["deck"][p]):
                    problems.append(f"{where}: drew {len(drawn)}")
            elif kind == "gain_energy":
                got = [ev["card"] for ev in evs if ev["type"] == "energy"]
                if len(got) < eff["count"] or any(c not in g.sides[p].energy for c in got):
                    problems.append(f"{where}: energy {got}")
            elif kind == "discard":
                gone = [ev["card"] for ev in evs if ev["type"] == "discard"]
                if len(gone) < min(eff["count"], before["hand"][p]) or any(
                    c not in g.sides[p].retired for c in gone
                ):
                    problems.append(f"{where}: discarded {gone}")
            elif kind == "retire_energy":
                gone = [ev["card"] for ev in evs if ev["type"] == "retire_energy"]
                if len(gone) < min(eff["count"], before["energy"][p]) or any(
                    c not in g.sides[p].retired for c in gone
                ):
                    problems.append(f"{where}: retired {gone}")
            elif kind == "gain_cp":
                if not any(ev["type"] == "cp" and ev["amount"] == eff["amount"] for ev in evs):
                    problems.append(f"{where}: no CP gained")
                elif g.sides[p].cp < eff["amount"]:
                    problems.append(f"{where}: cp {g.sides[p].cp}")
            elif kind == "lose_cp":
                # loses up to the amount: all of it, or down to 0 CP (the opponent has none outside their turn)
                lost = [ev for ev in evs if ev["type"] == "cp" and ev["amount"] <= 0]
                if not lost or (lost[0]["amount"] != -eff["amount"] and g.sides[p].cp != 0):
                    problems.append(f"{where}: CP loss {lost}")
            continue
        if target.startswith("chosen_"):
            units = [next(chosen_iter, None)]
            if units[0] is None:  # a single legal option was taken automatically: find it in the events
                hit = [
                    ev.get("card")
                    for ev in events
                    if ev["type"] not in ("trigger", "attack", "deploy", "event")
                    and isinstance(ev.get("card"), int)
                    and ev.get("card") in g.defs
                    and g.defs[ev["card"]].is_unit
                ]
                units = hit[:1]
        else:
            exp = _expected_units(sc, target, before, chosen)
            units = list(exp or [])
        if not units:
            problems.append(f"{where}: no unit was affected")
            continue
        others_leave = any(e["effect"] in leaves for e in effects if e is not eff)
        for uid in units:
            if uid is None:
                continue
            loc = _where(g, uid)
            old = before["units"].get(uid)
            if kind == "deal_damage":
                if loc == "defeated":
                    continue
                if (
                    loc == "board"
                    and old is not None
                    and g.units[uid].damage - old[1] < eff["amount"]
                    and not any(e["effect"] == "heal" for e in effects)
                ):
                    problems.append(f"{where}: damage {old[1]} -> {g.units[uid].damage}")
            elif kind == "heal":
                if (
                    loc == "board"
                    and old is not None
                    and g.units[uid].damage > max(0, old[1] - eff["amount"])
                    and not any(e["effect"] == "deal_damage" for e in effects)
                ):
                    problems.append(f"{where}: damage {old[1]} -> {g.units[uid].damage}")
            elif kind in ("modify_power", "modify_health"):
                if loc != "board" or old is None:
                    if loc == "board" or others_leave or loc == "defeated":
                        continue
                    problems.append(f"{where}: unit is in {loc}")
                    continue
                i = 2 if kind == "modify_power" else 3
                now = continuous.stats(g, uid)[i - 2]
                same_kind = sum(e["amount"] for e in effects if e["effect"] == kind and e["target"] == target)
                if now != max(0, old[i] + same_kind) and not others_leave:
                    problems.append(f"{where}: {old[i]} -> {now}")
            elif kind == "defeat":
                if loc != "defeated":
                    problems.append(f"{where}: unit is in {loc}")
            elif kind == "return_to_hand":
                if loc != "hand":
                    problems.append(f"{where}: unit is in {loc}")
            elif kind == "remove_from_game":
                if loc != "removed":
                    problems.append(f"{where}: unit is in {loc}")
            elif kind == "move":
                if loc == "board" and old is not None and g.units[uid].sq == old[0]:
                    problems.append(f"{where}: unit did not move")
            elif kind == "grant_range_attack":
                if loc == "board" and not continuous.has_range(g, uid):
                    problems.append(f"{where}: no Range Attack")
    return problems


def _check_continuous(
    sc: Scenario, abilities: list[dict[str, Any]], before: dict[str, Any] | None = None
) -> list[str]:
    """Static / formation / attached: the target's stats with the ability versus without it."""
    g = sc.g
    name = sc.card["name"]
    problems: list[str] = []
    if sc.trigger == "formation":
        x = max(ab["x"] for ab in abilities)
        # grow a connected group of friendly Dummies from the subject until it has x units
        group = {SUBJECT}
        frontier = [SUBJECT]
        adds = []
        while len(group) < x and frontier:
            sq = frontier.pop(0)
            for s in NEIGHBOURS_ORTHO[sq]:
                if len(group) >= x:
                    break
                if s in group or g.board[s] is not None or g.edge[s]:
                    continue
                group.add(s)
                frontier.append(s)
                adds.append(s)
        base_board = [
            {"square": square_name(u.sq), "card": g.defs[uid].name, "owner": u.owner}
            for uid, u in g.units.items()
        ]
        with_group = _pos(sc.cards, base_board + [_u(s, "Dummy", 0) for s in adds], step="planning", active=0)
        # without: the same extra units far away (isolated, not on edges)
        far = [
            s
            for s in (square_index(n) for n in ("e5", "b5", "e2", "d5", "b2"))
            if s not in {u.sq for u in g.units.values()}
        ]
        alone_board = [b for b in base_board if b["owner"] == 1 or b["square"] == "c3"]
        alone = _pos(
            sc.cards,
            alone_board + [_u(far[i % len(far)], "Dummy", 0) for i in range(min(len(far), 1))],
            step="planning",
            active=0,
        )
        return _compare(name, abilities, with_group, alone, with_group.board[SUBJECT])
    if sc.trigger == "static":
        base_board = [
            {"square": square_name(u.sq), "card": g.defs[uid].name, "owner": u.owner}
            for uid, u in g.units.items()
        ]
        without = [b if b["square"] != "c3" else {**b, "card": "Dummy"} for b in base_board]
        return _compare(
            name,
            abilities,
            _pos(sc.cards, base_board, step="planning", active=0),
            _pos(sc.cards, without, step="planning", active=0),
            SUBJECT_ID_FROM_BOARD,
        )
    # attached: before/after playing the Ongoing event
    assert before is not None and sc.attached_to is not None
    while g.decision is not None:
        g.apply(g.legal_actions(g.current_players()[0])[0])
    uid = sc.attached_to
    if uid not in g.units:
        return problems
    if not any(g.defs[e].name == name for e in g.units[uid].attached):
        return [f"{name}: not attached"]
    for ab in abilities:
        for eff in ab["effects"]:
            tgt = (
                [uid]
                if eff["target"] in ("attached_unit", "self")
                else _adjacent_or_all(g, eff["target"], uid)
            )
            for t in tgt:
                if t not in before["units"] or t not in g.units:
                    continue
                problems += _stat_check(
                    name,
                    eff,
                    before["units"][t],
                    (g.units[t].sq, g.units[t].damage, *continuous.stats(g, t)),
                    abilities,
                )
    return problems


SUBJECT_ID_FROM_BOARD = -99


def _adjacent_or_all(g: GameState, target: str, anchor: int) -> list[int]:
    owner = 0
    units = g.units
    if target == "all_enemy_units":
        return [t for t, u in units.items() if u.owner != owner]
    if target == "all_friendly_units":
        return [t for t, u in units.items() if u.owner == owner]
    if target == "all_other_friendly_units":
        return [t for t, u in units.items() if u.owner == owner and t != anchor]
    if target in ("adjacent_enemy_units", "adjacent_friendly_units"):
        want_enemy = target == "adjacent_enemy_units"
        sq = units[anchor].sq
        return [
            t for t, u in units.items() if u.sq in NEIGHBOURS_ORTHO[sq] and (u.owner != owner) == want_enemy
        ]
    return []


def _stat_check(
    name: str,
    eff: dict[str, Any],
    old: tuple[Any, ...],
    new: tuple[Any, ...],
    abilities: list[dict[str, Any]],
) -> list[str]:
    kind = eff["effect"]
    if kind == "grant_range_attack":
        return [] if new[4] else [f"{name}: {kind} not in effect"]
    i = 2 if kind == "modify_power" else 3
    total = sum(
        e["amount"]
        for ab in abilities
        for e in ab["effects"]
        if e["effect"] == kind and e["target"] == eff["target"]
    )
    if new[i] != max(0, old[i] + total):
        return [f"{name}: {kind} -> {eff['target']}: {old[i]} -> {new[i]} (expected {old[i] + total})"]
    return []


def _compare(
    name: str, abilities: list[dict[str, Any]], on: GameState, off: GameState, subject: int | None
) -> list[str]:
    """Every unit the continuous ability targets in ``on`` has the bonus compared with ``off``."""
    problems: list[str] = []
    subj = on.board[SUBJECT]
    assert subj is not None
    for ab in abilities:
        for eff in ab["effects"]:
            tgt = (
                [subj]
                if eff["target"] in ("self", "attached_unit")
                else _adjacent_or_all(on, eff["target"], subj)
            )
            if not tgt:
                problems.append(f"{name}: {eff['effect']} -> {eff['target']}: no unit in the scenario")
            for t in tgt:
                card = on.defs[t].name
                # the same card in the "off" position (same square if there, else any unit of that card)
                match = [
                    u
                    for u, x in off.units.items()
                    if off.defs[u].name == card
                    and x.owner == on.units[t].owner
                    and (t == subj or x.sq == on.units[t].sq)
                ]
                if t == subj:
                    old = (
                        SUBJECT,
                        0,
                        on.defs[t].power,
                        on.defs[t].health - on.edge[SUBJECT],
                        "range_attack" in on.defs[t].keywords,
                    )
                elif match:
                    old = (0, 0, *continuous.stats(off, match[0]))
                else:
                    old = (0, 0, on.defs[t].power, on.defs[t].health - on.edge[on.units[t].sq], False)
                problems += _stat_check(name, eff, old, (0, 0, *continuous.stats(on, t)), abilities)
    return problems


def triggers_of(card: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for ab in card["abilities"]:
        if ab["trigger"] not in seen:
            seen.append(ab["trigger"])
    return seen
