"""Legal actions (C-4, C-5.2, C-5.5, C-5.6, C-6.4) and why an action is illegal, from the same rules code.

``legal_actions`` is the single source of truth (docs/style.md 3): the functions ``legal_*`` list what the
player to act may do. ``explain`` words for a player why an action is not among them.

``explain`` names the first reason it finds, from the general (the match is over, not your turn, a
pending choice, the wrong phase) to the particular (the card is not in your hand, the CP or Energy it
lacks, no legal square, not along an arrow). It reads the same helpers ``legal_actions`` uses
(``deploy_squares``, ``move_squares``, ``attack_options``, activation limits), so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import board, combat, continuous
from .actions import (
    Action,
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    ChooseSquare,
    ChooseTarget,
    ChooseTrigger,
    Concede,
    Deploy,
    Keep,
    Move,
    Mulligan,
    Pass,
    PlayEvent,
    Reinforce,
    square_name,
)
from .board import Side
from .cards import CardDef
from .choices import distinct
from .pending import CARD_CHOICES, Decision, DecisionKind
from .steps import Step

if TYPE_CHECKING:
    from .state import GameState

# Which action answers which pending decision kind.
ANSWER_OF_DECISION: dict[str, type[Action]] = {
    "bottom": ChooseCard,
    "pay_energy": ChooseCard,
    "reinforce_energy": ChooseCard,
    "discard": ChooseCard,
    "retire_energy": ChooseCard,
    "target": ChooseTarget,
    "move_square": ChooseSquare,
    "order": ChooseTrigger,
}

# Which actions each input step accepts (C-4 set-up, C-5.2 Planning, C-5.5 Defending, C-5.6 Combat).
STEP_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "commander": (ChooseCommander,),
    "mulligan": (Keep, Mulligan),
    "planning": (Deploy, PlayEvent, Move, Reinforce, Activate, Pass),
    "defending": (PlayEvent, Activate, Pass),
    "combat": (Attack, Pass),
}

# Where each action is allowed, in words (for "only in …" messages).
ACTION_PLACE: dict[type[Action], str] = {
    ChooseCommander: "during set-up, when Commanders are chosen (C-4.1)",
    Keep: "during set-up, when hands are kept or mulliganed (C-4.4)",
    Mulligan: "during set-up, when hands are kept or mulliganed (C-4.4)",
    Deploy: "in your own Planning phase (C-5.2)",
    Move: "in your own Planning phase (C-5.2)",
    Reinforce: "in your own Planning phase (C-5.2)",
    PlayEvent: "in your Planning phase (Planning and Ongoing events) or your Defending phase "
    "(Defensive events) (C-1.3, C-5.2, C-5.5)",
    Activate: "in your Planning phase or your Defending phase, by the ability's timing (C-5.2, C-5.5)",
    Attack: "in your own Combat phase (C-5.6)",
    Pass: "in a Planning, Defending or Combat phase that is yours",
    ChooseCard: "to answer a card choice",
    ChooseTarget: "to answer a target choice",
    ChooseSquare: "to answer a square choice",
    ChooseTrigger: "to answer a choice of trigger order",
}


def explain(g: GameState, a: Action) -> str:
    """Why ``a`` is not legal now in ``g`` (or that it is legal), naming the action and the situation."""
    if not isinstance(a, Action):
        return f"not an action: {a!r}"
    head = f"{a.to_json()} ({a.describe(g)})"
    if a.player not in (0, 1):
        return f"{head} is illegal: player must be 0 or 1"
    if a in g.legal_actions(a.player):
        return f"{head} is legal now"
    return f"{head} is illegal: {_reason(g, a)}"


def unplayable_cards(g: GameState, player: int) -> dict[int, str]:
    """Why each card ``player`` could play from hand or the Commander zone cannot be played now, by card
    id (a hint for a player's hand: ``legal_actions`` decides, so a card some legal action plays gets no
    reason). Only while ``player`` has the move in the Planning or Defending phase with no choice open,
    where cards are played (C-5.2, C-5.5). The reason is ``explain``'s for the simplest play of the card:
    a unit to a free square, an event on its own or, Ongoing, onto a unit (own units first, C-1.3)."""
    if player not in g.current_players() or g.decision is not None:
        return {}
    if g.step.value not in ("planning", "defending"):
        return {}
    side = g.sides[player]
    cards = list(side.hand) + ([side.commander] if side.commander is not None else [])
    playable = {getattr(a, "card", None) for a in g.legal_actions(player)}
    squares = board.deploy_squares(g)
    targets = sorted(g.units, key=lambda u: g.units[u].owner != player)  # own units first
    out: dict[int, str] = {}
    for card in cards:
        if card in playable:
            continue
        d = g.defs[card]
        simplest: Deploy | PlayEvent
        if d.type == "unit":
            simplest = Deploy(player, card, squares[0] if squares else 0)
        else:
            target = targets[0] if d.event_type == "ongoing" and targets else None
            simplest = PlayEvent(player, card, target)
        out[card] = _reason(g, simplest)
    return out


def _reason(g: GameState, a: Action) -> str:
    if g.outcome_ is not None:
        return "the match is over (C-6.3)"
    if isinstance(a, Concede):  # always legal while the match runs
        return "the match is over (C-6.3)"
    cur = g.current_players()
    if a.player not in cur:
        return f"player {a.player} is not to act now: player {cur[0]} acts ({g.situation()})"
    dec = g.decision
    if dec is not None:
        wanted = ANSWER_OF_DECISION.get(dec["kind"])
        if not isinstance(a, wanted or ()):
            return f"player {a.player} must first answer the pending '{dec['kind']}' choice"
        if isinstance(a, ChooseCard):
            zone = dec["zone"]
            if a.card not in g.sides[a.player].zone(zone):
                return f"{g.card_name(a.card)} is not in your {zone} zone, where the '{dec['kind']}' choice is made"
            return f"choose another copy of {g.card_name(a.card)}: copies are interchangeable"
        if isinstance(a, ChooseTarget):
            return f"{g.card_name(a.target)} is not a legal target: choose one of {_names(g, dec['options'])}"
        if isinstance(a, ChooseSquare):
            squares = ", ".join(square_name(s) for s in dec["options"])
            return f"{square_name(a.square)} is not a legal square: choose one of {squares}"
        if isinstance(a, ChooseTrigger):
            return f"no triggered ability number {a.index}: choose one of {dec['options']}"
    step = g.step.value
    allowed = STEP_ACTIONS.get(step, ())
    if not isinstance(a, allowed):
        return f"a {a.kind} is only possible {ACTION_PLACE.get(type(a), 'elsewhere')}; now: {g.situation()}"
    if isinstance(a, ChooseCommander):
        return f"{a.name!r} is not a Legendary unit of your deck (C-4.1)"
    if isinstance(a, Mulligan):
        return f"no more mulligans: {g.sides[a.player].mulligans} taken, the limit is reached (C-4.4)"
    if isinstance(a, Deploy | PlayEvent):
        return _card_play_reason(g, a)
    if isinstance(a, Move):
        return _move_reason(g, a)
    if isinstance(a, Reinforce):
        side = g.sides[a.player]
        if side.cp < 1:
            return f"Reinforce costs 1 CP and you have {side.cp} (C-5.2)"
        return "your deck is empty, so there is nothing to draw (C-5.2 Decision)"
    if isinstance(a, Activate):
        return _activate_reason(g, a)
    if isinstance(a, Attack):
        return _attack_reason(g, a)
    return f"it is not among the legal actions now ({g.situation()})"


def _names(g: GameState, ids: list[int]) -> str:
    return ", ".join(g.card_name(i) for i in ids)


def _card_play_reason(g: GameState, a: Deploy | PlayEvent) -> str:
    side = g.sides[a.player]
    d = g.defs.get(a.card)
    if d is None:
        return f"there is no card #{a.card} in this match"
    if a.card == side.commander and not side.revealed:
        return "your Commander is played only after it is revealed (C-4.5)"
    if a.card not in side.hand and a.card != side.commander:
        return f"{d.name} is not in your hand or Commander zone"
    if isinstance(a, Deploy) and d.type != "unit":
        return f"{d.name} is an event: play it, do not deploy it (C-1.3)"
    if isinstance(a, PlayEvent):
        if d.type != "event":
            return f"{d.name} is a unit: deploy it to a square (C-5.2)"
        wanted = "defensive" if g.step.value == "defending" else ("planning", "ongoing")
        if d.event_type not in wanted:
            return f"{d.name} is a {d.event_type} event, not playable in the {g.phase_name()} phase (C-1.3)"
    if d.command_cost > side.cp:
        return f"{d.name} needs {d.command_cost} CP and you have {side.cp} (C-5.2)"
    if d.energy_cost > len(side.energy):
        return f"{d.name} needs {d.energy_cost} Energy and you have {len(side.energy)} (C-5.3)"
    if isinstance(a, Deploy):
        squares = board.deploy_squares(g)
        if not 0 <= a.square < len(g.board):
            return f"square {a.square} is not on the board (a1–f6, C-2.1)"
        if not squares:
            return "no square is free for a deploy (C-2.2, C-5.2)"
        if g.board[a.square] is not None:
            return f"{square_name(a.square)} is occupied (C-5.2)"
        where = "a start square c3, d3, c4 or d4 (C-2.2)" if not g.units else "adjacent to a unit (C-5.2)"
        return f"{square_name(a.square)} is not {where}; free squares: {_squares(squares)}"
    if d.event_type == "ongoing":
        if a.target is None or a.target not in g.units:
            return f"{d.name} is an Ongoing event: attach it to a unit on the battlefield (C-1.3)"
        return f"{d.name} attaches only to your own units (C-1.3, RulesConfig.ongoing_attach_any_unit)"
    if a.target is not None:
        return f"{d.name} is not an Ongoing event: it takes no unit to attach to (C-1.3)"
    return f"{d.name} cannot be played now ({g.situation()})"


def _squares(squares: list[int]) -> str:
    return ", ".join(square_name(s) for s in squares)


def _move_reason(g: GameState, a: Move) -> str:
    side = g.sides[a.player]
    if side.cp < 1:
        return f"a move costs 1 CP and you have {side.cp} (C-5.2)"
    u = g.units.get(a.unit)
    if u is None:
        return f"{g.card_name(a.unit)} is not on the battlefield"
    if u.owner != a.player:
        return f"{g.card_name(a.unit)} is not your unit"
    squares = board.move_squares(g, a.unit)
    if not squares:
        return f"{g.card_name(a.unit)} has no legal square to move to (C-5.2)"
    if not 0 <= a.square < len(g.board):
        return f"square {a.square} is not on the board (a1–f6, C-2.1)"
    if g.board[a.square] is not None:
        return f"{square_name(a.square)} is occupied (C-5.2)"
    return (
        f"{square_name(a.square)} is not adjacent to another card (C-5.2); "
        f"{g.card_name(a.unit)} may move to {_squares(squares)}"
    )


def _activate_reason(g: GameState, a: Activate) -> str:
    u = g.units.get(a.card)
    if u is None:
        return f"{g.card_name(a.card)} is not on the battlefield"
    if u.owner != a.player:
        return f"{g.card_name(a.card)} is not your unit"
    d = g.defs[a.card]
    if not 0 <= a.ability < len(d.abilities):
        return f"{d.name} has no ability number {a.ability + 1}"
    ab = d.abilities[a.ability]
    timing = "defending_activated" if g.step.value == "defending" else "planning_activated"
    if ab["trigger"] != timing:
        return (
            f"ability {a.ability + 1} of {d.name} is not usable in the {g.phase_name()} phase (C-5.2, C-5.5)"
        )
    if not continuous.ability_condition_holds(g, a.card, ab):
        return f"ability {a.ability + 1} of {d.name} is usable only while Formation {ab['x']} holds (C-7.6)"
    limit = 1 if ab.get("once_per_turn", True) else g.config.activation_limit_per_turn
    if g.used.get((a.card, a.ability), 0) >= limit:
        return f"ability {a.ability + 1} of {d.name} was already used {limit} time(s) this turn"
    cost = ab.get("cost") or {}
    side = g.sides[a.player]
    if side.cp < cost.get("cp", 0):
        return f"it costs {cost['cp']} CP and you have {side.cp}"
    if len(side.energy) < cost.get("energy", 0):
        return f"it costs {cost['energy']} Energy and you have {len(side.energy)}"
    return f"it is not among the legal actions now ({g.situation()})"


def _attack_reason(g: GameState, a: Attack) -> str:
    u = g.units.get(a.unit)
    if u is None:
        return f"{g.card_name(a.unit)} is not on the battlefield"
    if u.owner != a.player:
        return f"{g.card_name(a.unit)} is not your unit"
    if u.attacked:
        return f"{g.card_name(a.unit)} has already attacked this turn (C-5.6)"
    if a.direction not in combat.arrows_of(g, a.unit):
        arrows = ", ".join(combat.arrows_of(g, a.unit)) or "none"
        return f"{g.card_name(a.unit)} has no arrow {a.direction} (its arrows: {arrows}, C-1.2)"
    if a.target not in g.units:
        return f"{g.card_name(a.target)} is not on the battlefield"
    if g.units[a.target].owner == a.player and g.config.only_enemy_targets:
        return "only enemy units may be attacked (C-5.6 Decision)"
    reach = "along the line of" if continuous.has_range(g, a.unit) else "on the square next to it at"
    return f"{g.card_name(a.target)} is not {reach} arrow {a.direction} (C-5.6, C-7.1)"


# ---------------------------------------------------------------------------------------------- legal actions
_ACTION_CACHE: dict[tuple[Any, ...], Action] = {}


def _interned(kind: type[Move] | type[Deploy], p: int, x: int, sq: int) -> Action:
    """An interned Move or Deploy (actions are values; the planning phase lists hundreds of them)."""
    key = (kind, p, x, sq)
    a = _ACTION_CACHE.get(key)
    if a is None:
        if len(_ACTION_CACHE) > 200_000:
            _ACTION_CACHE.clear()
        a = _ACTION_CACHE[key] = kind(p, x, sq)
    return a


def legal_current(st: GameState) -> list[Action]:
    """The legal actions of the player to act now (Concede aside): the answers to the pending decision
    (``LEGAL_ANSWERS``), else the actions of the current input step (``LEGAL_IN_STEP``)."""
    dec = st.choice
    if dec is not None:
        return LEGAL_ANSWERS[dec.kind](st, dec)
    in_step = LEGAL_IN_STEP.get(st.step)
    return in_step(st) if in_step is not None else []


def _card_answers(st: GameState, dec: Decision) -> list[Action]:
    assert dec.zone is not None
    p = dec.player
    return [ChooseCard(p, c) for c in distinct(st.sides[p].zone(dec.zone), st.defs)]


def _target_answers(st: GameState, dec: Decision) -> list[Action]:
    return [ChooseTarget(dec.player, t) for t in dec.options or []]


def _square_answers(st: GameState, dec: Decision) -> list[Action]:
    return [ChooseSquare(dec.player, s) for s in dec.options or []]


def _order_answers(st: GameState, dec: Decision) -> list[Action]:
    return [ChooseTrigger(dec.player, i) for i in dec.options or []]


# The legal answers to each kind of pending decision.
LEGAL_ANSWERS: dict[DecisionKind, Callable[[GameState, Decision], list[Action]]] = {
    **{kind: _card_answers for kind in CARD_CHOICES},
    DecisionKind.TARGET: _target_answers,
    DecisionKind.MOVE_SQUARE: _square_answers,
    DecisionKind.ORDER: _order_answers,
}


def _legal_commander(st: GameState) -> list[Action]:
    """C-4.1: no Commander, or one of the Legendary units of the deck (one action per name)."""
    p = st.setup_player
    names = sorted({st.defs[c].name for c in st.sides[p].deck if st.is_legendary_unit(c)})
    choices: list[Action] = [ChooseCommander(p, None)]
    return choices + [ChooseCommander(p, n) for n in names]


def _legal_mulligan(st: GameState) -> list[Action]:
    """C-4.4: keep, or mulligan while the limit allows."""
    p = st.setup_player
    acts: list[Action] = [Keep(p)]
    if st.sides[p].mulligans < min(st.config.max_mulligans, st.config.opening_hand - 1):
        acts.append(Mulligan(p))
    return acts


def _payable(st: GameState, side: Side, d: CardDef) -> bool:
    return side.cp >= d.command_cost and len(side.energy) >= d.energy_cost


def _legal_planning(st: GameState) -> list[Action]:
    """C-5.2: the active player's Planning actions."""
    p = st.active
    side = st.sides[p]
    defs = st.defs
    acts: list[Action] = []
    squares: list[int] | None = None
    seen: set[str] = set()
    candidates = list(side.hand)
    if side.commander is not None and side.revealed:
        candidates.append(side.commander)
    for c in candidates:
        d = defs[c]
        if d.name in seen:
            continue
        seen.add(d.name)
        if not _payable(st, side, d):
            continue
        if d.type == "unit":
            if squares is None:
                squares = board.deploy_squares(st)
            acts.extend([_interned(Deploy, p, c, s) for s in squares])
        elif d.event_type == "planning":
            acts.append(PlayEvent(p, c, None))
        elif d.event_type == "ongoing":
            for uid in sorted(st.units):
                if st.config.ongoing_attach_any_unit or st.units[uid].owner == p:
                    acts.append(PlayEvent(p, c, uid))
    if side.cp >= 1:
        counts = board.neighbour_counts(st)
        for uid in sorted(st.units):
            if st.units[uid].owner == p:
                acts.extend([_interned(Move, p, uid, s) for s in board.move_squares(st, uid, counts)])
        if side.deck or not st.config.reinforce_needs_card_in_deck:
            acts.append(Reinforce(p))
    acts.extend(_legal_activations(st, p, "planning_activated"))
    acts.append(Pass(p))
    return acts


def _legal_activations(st: GameState, p: int, trigger: str) -> list[Action]:
    """``p``'s activated abilities usable now with ``trigger`` timing (C-5.2, C-5.5, C-7.6 Formation X)."""
    acts: list[Action] = []
    side = st.sides[p]
    for uid in sorted(st.units):
        u = st.units[uid]
        if u.owner != p:
            continue
        d = st.defs[uid]
        for idx in d.by_trigger.get(trigger, ()):
            ab = d.abilities[idx]
            used = st.used.get((uid, idx), 0)
            limit = 1 if ab.get("once_per_turn", True) else st.config.activation_limit_per_turn
            if used >= limit:
                continue
            if "x" in ab and not continuous.formation_holds(st, p, ab["x"]):  # C-7.6 "usable"
                continue
            cost = ab.get("cost") or {}
            if side.cp < cost.get("cp", 0) or len(side.energy) < cost.get("energy", 0):
                continue
            acts.append(Activate(p, uid, idx))
    return acts


def _legal_defending(st: GameState) -> list[Action]:
    """C-5.5: the defending player's Defensive events and activated abilities."""
    p = 1 - st.active
    side = st.sides[p]
    acts: list[Action] = []
    for c in distinct(side.hand, st.defs):
        d = st.defs[c]
        if d.event_type == "defensive" and _payable(st, side, d):
            acts.append(PlayEvent(p, c, None))
    acts.extend(_legal_activations(st, p, "defending_activated"))
    acts.append(Pass(p))
    return acts


def _legal_combat(st: GameState) -> list[Action]:
    """C-5.6: the active player's attacks."""
    p = st.active
    acts: list[Action] = []
    for uid in sorted(st.units):
        u = st.units[uid]
        if u.owner != p or u.attacked:
            continue
        acts.extend(Attack(p, uid, a, t) for a, t in combat.attack_options(st, uid))
    acts.append(Pass(p))
    return acts


# The actions of each input step (C-4 set-up, C-5.2 Planning, C-5.5 Defending, C-5.6 Combat).
LEGAL_IN_STEP: dict[Step, Callable[[GameState], list[Action]]] = {
    Step.PLANNING: _legal_planning,
    Step.COMBAT: _legal_combat,
    Step.DEFENDING: _legal_defending,
    Step.COMMANDER: _legal_commander,
    Step.MULLIGAN: _legal_mulligan,
}
