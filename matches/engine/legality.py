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
from .messages import Msg, card, gettext_noop, listing, msg, nested, term
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
    ChooseCommander: gettext_noop("during set-up, when Commanders are chosen (C-4.1)"),
    Keep: gettext_noop("during set-up, when hands are kept or mulliganed (C-4.4)"),
    Mulligan: gettext_noop("during set-up, when hands are kept or mulliganed (C-4.4)"),
    Deploy: gettext_noop("in your own Planning phase (C-5.2)"),
    Move: gettext_noop("in your own Planning phase (C-5.2)"),
    Reinforce: gettext_noop("in your own Planning phase (C-5.2)"),
    PlayEvent: gettext_noop(
        "in your Planning phase (Planning and Ongoing events) or your Defending phase "
        "(Defensive events) (C-1.3, C-5.2, C-5.5)"
    ),
    Activate: gettext_noop(
        "in your Planning phase or your Defending phase, by the ability's timing (C-5.2, C-5.5)"
    ),
    Attack: gettext_noop("in your own Combat phase (C-5.6)"),
    Pass: gettext_noop("in a Planning, Defending or Combat phase that is yours"),
    ChooseCard: gettext_noop("to answer a card choice"),
    ChooseTarget: gettext_noop("to answer a target choice"),
    ChooseSquare: gettext_noop("to answer a square choice"),
    ChooseTrigger: gettext_noop("to answer a choice of trigger order"),
}
OVER = gettext_noop("the match is over (C-6.3)")
NOT_LISTED = gettext_noop("it is not among the legal actions now (%(situation)s)")
NOT_ON_BATTLEFIELD = gettext_noop("%(card)s is not on the battlefield")
NOT_YOUR_UNIT = gettext_noop("%(card)s is not your unit")
NOT_ON_BOARD = gettext_noop("square %(number)s is not on the board (a1–f6, C-2.1)")
OCCUPIED = gettext_noop("%(square)s is occupied (C-5.2)")


def explain(g: GameState, a: Action) -> Msg:
    """Why ``a`` is not legal now in ``g`` (or that it is legal), naming the action and the situation."""
    if not isinstance(a, Action):
        return msg(gettext_noop("not an action: %(value)s"), value=repr(a))
    head = {"action": str(a.to_json()), "description": nested(a.message(g))}
    if a.player not in (0, 1):
        return msg(gettext_noop("%(action)s (%(description)s) is illegal: player must be 0 or 1"), **head)
    if a in g.legal_actions(a.player):
        return msg(gettext_noop("%(action)s (%(description)s) is legal now"), **head)
    return msg(
        gettext_noop("%(action)s (%(description)s) is illegal: %(reason)s"),
        **head,
        reason=nested(_reason(g, a)),
    )


def situation(g: GameState) -> Msg:
    """The current situation in words (for messages); players by their index 0/1, as the engine counts."""
    if g.outcome_ is not None:
        return msg(OVER)
    cur = g.current_players()[0]
    if g.choice is not None:
        return msg(
            gettext_noop("player %(player)s must answer a '%(choice)s' choice"),
            player=cur,
            choice=term(g.choice.kind.value),
        )
    if g.step is Step.COMMANDER or g.step is Step.MULLIGAN:
        return msg(
            gettext_noop("set-up (%(step)s), player %(player)s decides"), step=term(g.step.value), player=cur
        )
    return msg(
        gettext_noop("turn %(turn)s, %(phase)s phase of player %(active)s, player %(player)s acts"),
        turn=g.turn,
        phase=term(g.phase_name()),
        active=g.active,
        player=cur,
    )


def unplayable_cards(g: GameState, player: int) -> dict[int, Msg]:
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
    # Copies are interchangeable, so ``legal_actions`` plays only the first copy of a name in hand
    # (``choices.distinct``): a second copy of a playable card is playable too and gets no reason.
    # Plays from hand or the Commander zone only: an Activate names a unit on the battlefield (its activated
    # ability, C-5.2), and its name must not excuse a copy in hand that cannot be deployed.
    played = {a.card for a in g.legal_actions(player) if isinstance(a, (Deploy, PlayEvent))}
    playable_names = {g.defs[c].name for c in played if isinstance(c, int) and c in g.defs}
    squares = board.deploy_squares(g)
    targets = sorted(g.units, key=lambda u: g.units[u].owner != player)  # own units first
    out: dict[int, Msg] = {}
    for c in cards:
        if c in played or g.defs[c].name in playable_names:
            continue
        d = g.defs[c]
        simplest: Deploy | PlayEvent
        if d.type == "unit":
            simplest = Deploy(player, c, squares[0] if squares else 0)
        else:
            target = targets[0] if d.event_type == "ongoing" and targets else None
            simplest = PlayEvent(player, c, target)
        out[c] = _reason(g, simplest)
    return out


# A reason of ``unplayable_cards`` as the sentence shown on the card itself (the card is named by the
# card, so its costs say "Needs …"; the others as a sentence).
_HINTS = {
    gettext_noop("%(card)s needs %(cost)s CP and you have %(have)s (C-5.2)"): gettext_noop(
        "Needs %(cost)s CP and you have %(have)s (C-5.2)."
    ),
    gettext_noop("%(card)s needs %(cost)s Energy and you have %(have)s (C-5.3)"): gettext_noop(
        "Needs %(cost)s Energy and you have %(have)s (C-5.3)."
    ),
    gettext_noop("a %(action)s is only possible %(place)s; now: %(situation)s"): gettext_noop(
        "A %(action)s is only possible %(place)s; now: %(situation)s."
    ),
    gettext_noop("your Commander is played only after it is revealed (C-4.5)"): gettext_noop(
        "Your Commander is played only after it is revealed (C-4.5)."
    ),
    gettext_noop("no square is free for a deploy (C-2.2, C-5.2)"): gettext_noop(
        "No square is free for a deploy (C-2.2, C-5.2)."
    ),
    OVER: gettext_noop("The match is over (C-6.3)."),
}


def card_hint(reason: Msg) -> Msg:
    """``reason`` (of ``unplayable_cards``) as the sentence on the card: "Needs 3 CP and you have 2 (C-5.2)."."""
    hint = _HINTS.get(reason.key)
    if hint is None:  # the reason names a card or a square first: a sentence as it is, "C2" capitalised
        if reason.key.startswith("%(square)s"):
            reason = Msg(reason.key, {**reason.params, "square": str(reason.params["square"]).upper()})
        return msg(gettext_noop("%(reason)s."), reason=nested(reason))
    return Msg(hint, {k: v for k, v in reason.params.items() if f"%({k})s" in hint})


def _reason(g: GameState, a: Action) -> Msg:
    if g.outcome_ is not None:
        return msg(OVER)
    if isinstance(a, Concede):  # always legal while the match runs
        return msg(OVER)
    cur = g.current_players()
    if a.player not in cur:
        return msg(
            gettext_noop("player %(player)s is not to act now: player %(current)s acts (%(situation)s)"),
            player=a.player,
            current=cur[0],
            situation=nested(situation(g)),
        )
    dec = g.decision
    if dec is not None:
        wanted = ANSWER_OF_DECISION.get(dec["kind"])
        if not isinstance(a, wanted or ()):
            return msg(
                gettext_noop("player %(player)s must first answer the pending '%(choice)s' choice"),
                player=a.player,
                choice=term(dec["kind"]),
            )
        if isinstance(a, ChooseCard):
            zone = dec["zone"]
            if a.card not in g.sides[a.player].zone(zone):
                return msg(
                    gettext_noop(
                        "%(card)s is not in your %(zone)s zone, where the '%(choice)s' choice is made"
                    ),
                    card=_card(g, a.card),
                    zone=term(zone),
                    choice=term(dec["kind"]),
                )
            return msg(
                gettext_noop("choose another copy of %(card)s: copies are interchangeable"),
                card=_card(g, a.card),
            )
        if isinstance(a, ChooseTarget):
            return msg(
                gettext_noop("%(card)s is not a legal target: choose one of %(options)s"),
                card=_card(g, a.target),
                options=listing([_card(g, i) for i in dec["options"]]),
            )
        if isinstance(a, ChooseSquare):
            return msg(
                gettext_noop("%(square)s is not a legal square: choose one of %(options)s"),
                square=square_name(a.square),
                options=listing([square_name(s) for s in dec["options"]]),
            )
        if isinstance(a, ChooseTrigger):
            return msg(
                gettext_noop("no triggered ability number %(number)s: choose one of %(options)s"),
                number=a.index,
                options=str(dec["options"]),
            )
    step = g.step.value
    allowed = STEP_ACTIONS.get(step, ())
    if not isinstance(a, allowed):
        return msg(
            gettext_noop("a %(action)s is only possible %(place)s; now: %(situation)s"),
            action=term(a.kind),
            place=nested(Msg(ACTION_PLACE.get(type(a), gettext_noop("elsewhere")))),
            situation=nested(situation(g)),
        )
    if isinstance(a, ChooseCommander):
        return msg(gettext_noop("%(name)s is not a Legendary unit of your deck (C-4.1)"), name=repr(a.name))
    if isinstance(a, Mulligan):
        return msg(
            gettext_noop("no more mulligans: %(count)s taken, the limit is reached (C-4.4)"),
            count=g.sides[a.player].mulligans,
        )
    if isinstance(a, Deploy | PlayEvent):
        return _card_play_reason(g, a)
    if isinstance(a, Move):
        return _move_reason(g, a)
    if isinstance(a, Reinforce):
        side = g.sides[a.player]
        if side.cp < 1:
            return msg(gettext_noop("Reinforce costs 1 CP and you have %(have)s (C-5.2)"), have=side.cp)
        return msg(gettext_noop("your deck is empty, so there is nothing to draw (C-5.2 Decision)"))
    if isinstance(a, Activate):
        return _activate_reason(g, a)
    if isinstance(a, Attack):
        return _attack_reason(g, a)
    return msg(NOT_LISTED, situation=nested(situation(g)))


def _card(g: GameState, c: int) -> dict[str, str]:
    return card(g.card_name(c))


def _squares(squares: list[int]) -> dict[str, Any]:
    return listing([square_name(s) for s in squares])


def _card_play_reason(g: GameState, a: Deploy | PlayEvent) -> Msg:
    side = g.sides[a.player]
    d = g.defs.get(a.card)
    if d is None:
        return msg(gettext_noop("there is no card #%(number)s in this match"), number=a.card)
    name = card(d.name)
    if a.card == side.commander and not side.revealed:
        return msg(gettext_noop("your Commander is played only after it is revealed (C-4.5)"))
    if a.card not in side.hand and a.card != side.commander:
        return msg(gettext_noop("%(card)s is not in your hand or Commander zone"), card=name)
    if isinstance(a, Deploy) and d.type != "unit":
        return msg(gettext_noop("%(card)s is an event: play it, do not deploy it (C-1.3)"), card=name)
    if isinstance(a, PlayEvent):
        if d.type != "event":
            return msg(gettext_noop("%(card)s is a unit: deploy it to a square (C-5.2)"), card=name)
        wanted = "defensive" if g.step.value == "defending" else ("planning", "ongoing")
        if d.event_type not in wanted:
            return msg(
                gettext_noop("%(card)s is a %(type)s event, not playable in the %(phase)s phase (C-1.3)"),
                card=name,
                type=term(str(d.event_type)),
                phase=term(g.phase_name()),
            )
    if d.command_cost > side.cp:
        return msg(
            gettext_noop("%(card)s needs %(cost)s CP and you have %(have)s (C-5.2)"),
            card=name,
            cost=d.command_cost,
            have=side.cp,
        )
    if d.energy_cost > len(side.energy):
        return msg(
            gettext_noop("%(card)s needs %(cost)s Energy and you have %(have)s (C-5.3)"),
            card=name,
            cost=d.energy_cost,
            have=len(side.energy),
        )
    if isinstance(a, Deploy):
        squares = board.deploy_squares(g)
        if not 0 <= a.square < len(g.board):
            return msg(NOT_ON_BOARD, number=a.square)
        if not squares:
            return msg(gettext_noop("no square is free for a deploy (C-2.2, C-5.2)"))
        if g.board[a.square] is not None:
            return msg(OCCUPIED, square=square_name(a.square))
        if not g.units:
            key = gettext_noop(
                "%(square)s is not a start square c3, d3, c4 or d4 (C-2.2); free squares: %(free)s"
            )
        else:
            key = gettext_noop("%(square)s is not adjacent to a unit (C-5.2); free squares: %(free)s")
        return msg(key, square=square_name(a.square), free=_squares(squares))
    if d.event_type == "ongoing":
        if a.target is None or a.target not in g.units:
            return msg(
                gettext_noop("%(card)s is an Ongoing event: attach it to a unit on the battlefield (C-1.3)"),
                card=name,
            )
        return msg(
            gettext_noop(
                "%(card)s attaches only to your own units (C-1.3, RulesConfig.ongoing_attach_any_unit)"
            ),
            card=name,
        )
    if a.target is not None:
        return msg(
            gettext_noop("%(card)s is not an Ongoing event: it takes no unit to attach to (C-1.3)"), card=name
        )
    return msg(
        gettext_noop("%(card)s cannot be played now (%(situation)s)"),
        card=name,
        situation=nested(situation(g)),
    )


def _move_reason(g: GameState, a: Move) -> Msg:
    side = g.sides[a.player]
    if side.cp < 1:
        return msg(gettext_noop("a move costs 1 CP and you have %(have)s (C-5.2)"), have=side.cp)
    u = g.units.get(a.unit)
    if u is None:
        return msg(NOT_ON_BATTLEFIELD, card=_card(g, a.unit))
    if u.owner != a.player:
        return msg(NOT_YOUR_UNIT, card=_card(g, a.unit))
    squares = board.move_squares(g, a.unit)
    if not squares:
        return msg(gettext_noop("%(card)s has no legal square to move to (C-5.2)"), card=_card(g, a.unit))
    if not 0 <= a.square < len(g.board):
        return msg(NOT_ON_BOARD, number=a.square)
    if g.board[a.square] is not None:
        return msg(OCCUPIED, square=square_name(a.square))
    return msg(
        gettext_noop("%(square)s is not adjacent to another card (C-5.2); %(card)s may move to %(free)s"),
        square=square_name(a.square),
        card=_card(g, a.unit),
        free=_squares(squares),
    )


def _activate_reason(g: GameState, a: Activate) -> Msg:
    u = g.units.get(a.card)
    if u is None:
        return msg(NOT_ON_BATTLEFIELD, card=_card(g, a.card))
    if u.owner != a.player:
        return msg(NOT_YOUR_UNIT, card=_card(g, a.card))
    d = g.defs[a.card]
    name = card(d.name)
    if not 0 <= a.ability < len(d.abilities):
        return msg(gettext_noop("%(card)s has no ability number %(number)s"), card=name, number=a.ability + 1)
    ab = d.abilities[a.ability]
    number = a.ability + 1
    timing = "defending_activated" if g.step.value == "defending" else "planning_activated"
    if ab["trigger"] != timing:
        return msg(
            gettext_noop(
                "ability %(number)s of %(card)s is not usable in the %(phase)s phase (C-5.2, C-5.5)"
            ),
            number=number,
            card=name,
            phase=term(g.phase_name()),
        )
    if not continuous.ability_condition_holds(g, a.card, ab):
        return msg(
            gettext_noop("ability %(number)s of %(card)s is usable only while Formation %(x)s holds (C-7.6)"),
            number=number,
            card=name,
            x=ab["x"],
        )
    limit = 1 if ab.get("once_per_turn", True) else g.config.activation_limit_per_turn
    if g.used.get((a.card, a.ability), 0) >= limit:
        return msg(
            gettext_noop("ability %(number)s of %(card)s was already used %(limit)s time(s) this turn"),
            number=number,
            card=name,
            limit=limit,
        )
    cost = ab.get("cost") or {}
    side = g.sides[a.player]
    if side.cp < cost.get("cp", 0):
        return msg(gettext_noop("it costs %(cost)s CP and you have %(have)s"), cost=cost["cp"], have=side.cp)
    if len(side.energy) < cost.get("energy", 0):
        return msg(
            gettext_noop("it costs %(cost)s Energy and you have %(have)s"),
            cost=cost["energy"],
            have=len(side.energy),
        )
    return msg(NOT_LISTED, situation=nested(situation(g)))


def _attack_reason(g: GameState, a: Attack) -> Msg:
    u = g.units.get(a.unit)
    if u is None:
        return msg(NOT_ON_BATTLEFIELD, card=_card(g, a.unit))
    if u.owner != a.player:
        return msg(NOT_YOUR_UNIT, card=_card(g, a.unit))
    if u.attacked:
        return msg(gettext_noop("%(card)s has already attacked this turn (C-5.6)"), card=_card(g, a.unit))
    arrows = combat.arrows_of(g, a.unit)
    if a.direction not in arrows:
        return msg(
            gettext_noop("%(card)s has no arrow %(direction)s (its arrows: %(arrows)s, C-1.2)"),
            card=_card(g, a.unit),
            direction=term(a.direction),
            arrows=listing([term(x) for x in arrows]) if arrows else term("none"),
        )
    if a.target not in g.units:
        return msg(NOT_ON_BATTLEFIELD, card=_card(g, a.target))
    if g.units[a.target].owner == a.player and g.config.only_enemy_targets:
        return msg(gettext_noop("only enemy units may be attacked (C-5.6 Decision)"))
    if continuous.has_range(g, a.unit):
        key = gettext_noop("%(target)s is not along the line of arrow %(direction)s (C-5.6, C-7.1)")
    else:
        key = gettext_noop("%(target)s is not on the square next to it at arrow %(direction)s (C-5.6, C-7.1)")
    return msg(key, target=_card(g, a.target), direction=term(a.direction))


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
