"""Hidden information (C-8): which actions are secret, what a player has seen, and determinization.

One source for "what is secret" in Commandeer: ``action_is_secret`` decides for a live action (the play
layer's adapter asks ``GameState.secret_action``) and for a logged one (``GameState.log_view``).
``determinize`` builds, for search, a full state consistent with everything one player can know.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING, Any

from .actions import (
    Action,
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    ChooseTarget,
    Concede,
    Deploy,
    Move,
    PlayEvent,
)

if TYPE_CHECKING:
    from .cards import CardDef
    from .state import GameState

# C-4.4 / C-8: the cards a player puts on the bottom of the deck after a mulligan stay secret.
SECRET_DECISIONS = frozenset({"bottom"})
# Pending card choices whose options (the hand) only their owner may see in a view (C-8).
PRIVATE_CHOICES = frozenset({"bottom", "discard", "reinforce_energy"})


def action_is_secret(action: Action, decision_kind: str | None) -> bool:
    """Whether the action's content is hidden from the other player (C-8).

    A Commander choice is secret until the Commander is revealed (C-4.1, C-4.5); a card put on the
    bottom after a mulligan is secret for good (C-4.4). ``decision_kind`` is the kind of the decision
    the action answers (None when none is pending).
    """
    if isinstance(action, ChooseCommander):
        return True
    return isinstance(action, ChooseCard) and decision_kind in SECRET_DECISIONS


def _card_ids(values: Iterable[Any], out: set[int]) -> None:
    for v in values:
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            out.add(v)
        elif isinstance(v, list):
            _card_ids(v, out)


def action_cards(action: Action) -> list[int]:
    """The card ids an action names (cards, units, targets)."""
    if isinstance(action, PlayEvent):
        return [action.card] if action.target is None else [action.card, action.target]
    if isinstance(action, Deploy | ChooseCard | Activate):
        return [action.card]
    if isinstance(action, Move):
        return [action.unit]
    if isinstance(action, Attack):
        return [action.unit, action.target]
    if isinstance(action, ChooseTarget):
        return [action.target]
    return []


def cards_seen_by(g: GameState, player: int) -> set[int]:
    """Card ids the log has shown to ``player`` (events and actions they may see, as ``log_view``).

    Card ids are dealt at random (``new_match``), so a seen id names one known card: one that went back
    to a hidden zone (a unit returned to its owner's hand) is still known to be there. A state loaded
    from a snapshot without its log (``to_dict(log=False)``) has forgotten these sightings.
    """
    known = g.seen_override[player]
    seen: set[int] = set(known) if known is not None else set()
    for e in g.log:
        for ev in e["events"]:
            if ev.get("secret") and ev.get("player") != player:
                continue
            _card_ids((ev.get(k) for k in ("card", "target", "cards")), seen)
        action = e["action"]
        if action is None or (e["player"] != player and action_is_secret(action, e["decision"])):
            continue
        seen.update(action_cards(action))
    return seen


def _own_bottom_count(g: GameState, player: int) -> int:
    """How many cards at the bottom of ``player``'s deck they put there themselves (C-4.4, known order).

    The k-th mulligan shuffles the deck and then bottoms k cards; draws take from the top only, so the
    bottomed cards stay at the bottom for the rest of the match.
    """
    side = g.sides[player]
    if side.mulligans == 0:
        return 0
    done = side.mulligans
    dec = g.decision
    if dec is not None and dec["kind"] == "bottom" and dec["player"] == player:
        done -= dec["count"]
    return max(0, min(done, len(side.deck)))


def determinize(
    g: GameState,
    player: int,
    rng: Random,
    *,
    opponent_deck_known: bool = True,
    seen: set[int] | frozenset[int] | None = None,
    catalog: Mapping[str, CardDef] | None = None,
) -> GameState:
    """A full state consistent with everything ``player`` can know, every hidden part resampled by ``rng``.

    Kept: the player's own hand and deck contents, every public zone, the board, the pending decision
    and trigger queue, and the opponent's cards the player has seen go back into the hand
    (``cards_seen_by``). Resampled: the opponent's other hand cards, deck and face-down Commander (their
    hidden cards shuffled together and re-dealt in the same counts, a face-down Commander being one of
    their hidden Legendary units, C-4.1), the order of the player's own deck above the cards they
    bottomed themselves, and the engine's RNG (reseeded from ``rng``). Canonical: each hidden pool is
    sorted before ``rng`` shuffles it, so states that ``player`` cannot tell apart give the same result
    for the same ``rng``; the result keeps ``player``'s sightings (``seen_override``) for the next
    determinization. ``seen`` (``cards_seen_by(g, player)``, computed once by a caller that
    determinizes often) saves reading the log again. The log is left out (it holds
    hidden card ids); ``log_length`` stays, so ``player_view(player)`` is unchanged.

    ``opponent_deck_known`` (default True) is the assumption that the opponent's deck list is known, so
    their hidden cards are exactly their deck list minus what is public. False: the hidden cards are
    drawn from ``catalog`` (default: the sample card set), from the cards of the opponent's faction
    (C-3.4; a faction at random while none of their cards has been public) that their public cards leave
    room for under C-3.2 / C-3.3, a face-down Commander being one of its Legendary units (C-4.1).
    """
    if player not in (0, 1):
        raise ValueError(f"determinize: player must be 0 or 1, not {player!r}")
    if seen is None:
        seen = cards_seen_by(g, player)
    out = g.clone()
    out.rng = Random(rng.getrandbits(64))
    opp = 1 - player
    if not opponent_deck_known:
        _invent_hidden_cards(out, opp, seen, rng, catalog)

    # Canonical: every hidden pool is sorted before it is shuffled, so the result depends only on what
    # ``player`` can know and on ``rng`` (two states with the same view give the same determinization).
    side = out.sides[opp]
    hidden_commander = side.commander is not None and not side.revealed
    pool = [c for c in side.hand if c not in seen] + list(side.deck)
    if hidden_commander:
        assert side.commander is not None
        pool.append(side.commander)
    pool.sort()
    rng.shuffle(pool)
    legends = [c for c in pool if out.is_legendary_unit(c)] if hidden_commander else []
    if legends:
        side.commander = legends[rng.randrange(len(legends))]
        pool.remove(side.commander)
    hand = []
    for c in side.hand:
        hand.append(c if c in seen else pool.pop())
    side.hand = hand
    side.deck = pool

    own = out.sides[player]
    k = _own_bottom_count(g, player)
    upper = sorted(own.deck[k:])
    rng.shuffle(upper)
    own.deck = own.deck[:k] + upper

    out.seen_override = [None, None]
    out.seen_override[player] = frozenset(seen)
    out.log = []
    out.log_start = g.log_length
    return out


@lru_cache(maxsize=1)
def _sample_catalog() -> tuple[CardDef, ...]:
    from .cards import load_card_file
    from .decks import load_sample

    data = load_sample()
    if data is None:
        return ()
    return tuple(sorted(load_card_file(data).values(), key=lambda d: d.name))


def _invent_hidden_cards(
    out: GameState,
    opp: int,
    seen: set[int] | frozenset[int],
    rng: Random,
    catalog: Mapping[str, CardDef] | None,
) -> None:
    """Give the opponent's hidden cards (hand cards not seen, deck, face-down Commander) definitions drawn
    from their faction's catalog cards, within C-3.2 / C-3.3 given their public cards."""
    side = out.sides[opp]
    hidden = sorted(
        [c for c in side.hand if c not in seen]
        + list(side.deck)
        + ([side.commander] if side.commander is not None and not side.revealed else [])
    )
    if not hidden:
        return
    hidden_set = set(hidden)
    cards = (
        tuple(sorted(catalog.values(), key=lambda d: d.name)) if catalog is not None else _sample_catalog()
    )
    known = [out.defs[c] for c, o in sorted(out.owners.items()) if o == opp and c not in hidden_set]
    factions = sorted({d.faction for d in cards})
    if not factions:
        raise ValueError("opponent_deck_known=False needs a card catalog (the sample card set is missing)")
    known_factions = sorted({d.faction for d in known} & set(factions))
    faction = known_factions[0] if known_factions else factions[rng.randrange(len(factions))]
    pool = [d for d in cards if d.faction == faction]
    used: dict[str, int] = {}
    for d in known:
        used[d.name] = used.get(d.name, 0) + 1
    copies: list[CardDef] = []
    for d in pool:
        limit = 1 if (d.legendary and d.type == "unit") or d.unique else 4  # C-3.2, C-3.3
        copies.extend([d] * max(0, limit - used.get(d.name, 0)))
    rng.shuffle(copies)
    drawn: list[CardDef] = []
    if side.commander is not None and not side.revealed:  # C-4.1: a Legendary unit
        legends = [d for d in copies if d.legendary and d.type == "unit"]
        legend = legends[0] if legends else next((d for d in pool if d.legendary and d.type == "unit"), None)
        if legend is not None:
            drawn.append(legend)
            if legend in copies:
                copies.remove(legend)
    while len(drawn) < len(hidden):
        drawn.append(copies.pop() if copies else pool[rng.randrange(len(pool))])
    defs = dict(out.defs)
    order = list(hidden)
    rng.shuffle(order)
    for cid, d in zip(order, drawn, strict=True):
        defs[cid] = d
    out.defs = defs
    out.cards_json = None
    out.cards_source = None
    out.cont_cache = None


def decision_view(dec: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """A pending decision as ``viewer`` may see it: a private card choice shows only kind, player, count."""
    view: dict[str, Any] = {"kind": dec["kind"], "player": dec["player"]}
    if "count" in dec:
        view["count"] = dec["count"]
    if dec["player"] == viewer or dec["kind"] not in PRIVATE_CHOICES:
        view.update({k: v for k, v in dec.items() if k not in ("kind", "player")})
    return view


class Information:
    """What one player may know of a match, and nothing else: the agents' only window on it (C-8).

    An agent gets this object, never the state: ``view()`` (``player_view``), ``legal_actions()`` (the
    player's own, Concede left out) and ``determinize(rng)`` samples (full states consistent with the
    view, in simulation mode). Two states with the same view give the same answers for the same ``rng``
    (``determinize`` is canonical), so an agent's choice cannot depend on what its player cannot see.
    """

    __slots__ = ("_state", "_seen", "_view", "_legal", "player", "opponent_deck_known")

    def __init__(self, state: GameState, player: int, *, opponent_deck_known: bool = True) -> None:
        self._state = state
        self.player = player
        self.opponent_deck_known = opponent_deck_known
        self._seen: frozenset[int] | None = None
        self._view: dict[str, Any] | None = None
        self._legal: list[Action] | None = None

    def view(self) -> dict[str, Any]:
        """``player_view(player)`` (cached; do not mutate)."""
        if self._view is None:
            self._view = self._state.player_view(self.player)
        return self._view

    def legal_actions(self) -> list[Action]:
        """The player's legal actions without Concede (a copy)."""
        if self._legal is None:
            acts = self._state.legal_actions(self.player)
            self._legal = [a for a in acts if not isinstance(a, Concede)]
        return list(self._legal)

    def determinize(self, rng: Random) -> GameState:
        """A full state consistent with the view, hidden parts drawn by ``rng``, in simulation mode."""
        if self._seen is None:
            self._seen = frozenset(cards_seen_by(self._state, self.player))
        g = determinize(
            self._state, self.player, rng, seen=self._seen, opponent_deck_known=self.opponent_deck_known
        )
        g.event_log = False
        return g
