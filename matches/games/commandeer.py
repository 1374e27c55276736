"""Commandeer TCG as a game kind (matches.engine): decks from the deck builder, validated again at match
start (C-3); the engine's words per viewer, with the board seen from each seat (C-2.1)."""

from __future__ import annotations

import json
import random
from typing import Any

from django.utils.translation import gettext

from cards.services import card_to_dict
from config.errors import ApplicationError
from decks import selectors as deck_selectors
from matches.engine import GameState, RulesConfig, build_deck, card_from_dict, load_card_file, new_match
from matches.engine import action_from_json as commandeer_action_from_json
from matches.engine.actions import (
    Action,
    Attack,
    Concede,
    Keep,
    Pass,
    action_sentence,
    secret_message,
    timeout_message,
    timeout_secret,
)
from matches.engine.board import ROTATE
from matches.engine.cards import CardDef, factions_of
from matches.engine.consequences import consequences as commandeer_consequences
from matches.engine.consequences import squares_before
from matches.engine.decks import SAMPLE_CARDS
from matches.engine.messages import Msg, term
from matches.games.kind import JSON, GameKind, Player, Result, SummaryFacts
from matches.jsontypes import JSONValue


class CommandeerGame(GameKind[GameState, Action]):
    """Commandeer TCG (matches.engine): decks from the deck builder, validated again at match start (C-3)."""

    kind = "commandeer"
    label = "Commandeer TCG"
    players = 2
    needs_deck = True
    auto_pass = True

    # -- decks (the only place that meets the decks/cards apps, through their selectors/services)
    def _deck(self, *, user: Any, deck_id: int | None, with_cards: bool = False) -> deck_selectors.PlayDeck:
        """The seat's deck checked by the one validator (C-3); with its card JSON when `with_cards` (start)."""
        if deck_id is None:
            raise ApplicationError(
                "invalid_deck", gettext("Choose a deck to take a seat in a Commandeer match.")
            )
        try:
            deck = deck_selectors.deck_play_get(user=user, deck_id=deck_id, with_cards=with_cards)
        except ApplicationError:
            raise ApplicationError(
                "invalid_deck",
                gettext("Deck #%(id)s does not exist or is not yours to play.") % {"id": deck_id},
                extra={"deck_id": deck_id},
            ) from None
        verdict = deck.legality
        if not verdict.valid:
            errors = [i.to_dict() for i in verdict.errors]
            raise ApplicationError(
                "invalid_deck",
                gettext("Deck '%(name)s' is not legal: %(problems)s")
                % {"name": deck.name, "problems": "; ".join(e["message"] for e in errors)},
                extra={"deck_id": deck_id, "errors": errors, "rules": sorted({e["rule"] for e in errors})},
            )
        return deck

    def seat_deck_check(self, *, user: Any, deck_id: int | None) -> None:
        self._deck(user=user, deck_id=deck_id)

    def seat_deck_snapshot(self, *, user: Any, deck_id: int | None) -> JSON:
        """The deck validated again (C-3) and frozen as card JSON, one entry per copy.

        The copies of a card share one dict (JSON data nobody mutates; the engine copies what it
        keeps), so the engine parses each distinct card once (`card_from_dict_cached`).
        """
        deck = self._deck(user=user, deck_id=deck_id, with_cards=True)
        cards: list[JSONValue] = []
        for card, count in deck.cards:
            cards.extend([card] * count)
        return {"cards": cards, "commander": deck.commander, "deck_id": deck.pk, "name": deck.name}

    def _catalog(self) -> dict[str, CardDef]:
        """Card definitions for AI decks: the card database, or the sample set when it is empty."""
        rows = [card_to_dict(c) for c in deck_selectors.card_queryset()]
        if rows:
            out: dict[str, CardDef] = {}
            for row in rows:
                try:
                    out[row["name"]] = card_from_dict(row)
                except (ValueError, KeyError, TypeError):
                    continue
            return out
        return load_card_file(json.loads(SAMPLE_CARDS.read_text()))

    def ai_deck_snapshot(self, *, rng: random.Random, opponent: JSON | None) -> JSON:
        catalog = self._catalog()
        factions = sorted(factions_of(catalog))
        rng.shuffle(factions)
        for faction in factions:
            try:
                deck = build_deck(catalog, faction)
            except ValueError:
                continue
            return {**deck, "name": f"AI {faction} deck"}
        raise ApplicationError("invalid_deck", gettext("No faction has enough cards for an AI deck."))

    # -- state
    def check_config(self, config: JSON) -> JSON:
        return RulesConfig.from_dict(dict(config)).to_dict() if config else {}

    def config_classes(self) -> tuple[type, ...]:
        return (RulesConfig,)

    def new_state(self, *, decks: list[JSON], seed: int, config: JSON) -> GameState:
        engine_decks = [{"cards": d["cards"], "commander": d.get("commander")} for d in decks]
        try:
            return new_match(*engine_decks, seed=seed, config=RulesConfig.from_dict(config or None))
        except ValueError as exc:
            raise ApplicationError(
                "invalid_deck", gettext("The engine refused a deck: %(problem)s") % {"problem": exc}
            ) from None

    def load(self, data: JSON) -> GameState:
        return GameState.from_dict(data)

    def dump(self, state: GameState) -> JSON:
        return state.to_dict(log=False)  # the action log holds the history; keeps snapshots small

    # -- rules
    def legal_actions(self, state: GameState, player: Player) -> list[Action]:
        """The engine's legal actions without Concede (conceding has its own endpoint, C-6.4)."""
        return [a for a in state.legal_actions(player) if not isinstance(a, Concede)]

    def action_from_json(self, data: object) -> Action:
        return commandeer_action_from_json(data)

    def action_to_json(self, action: Action) -> JSON:
        return dict(action.to_json())

    def describe(self, state: GameState, action: Action, viewer: Player | None) -> str:
        return self._describe_message(state, action, viewer).english()

    def _describe_message(self, state: GameState, action: Action, viewer: Player | None) -> Msg:
        """The action as a sentence naming its player, as `viewer` may read it (C-8): a secret choice
        only as "a choice was made"; an attack's direction as this viewer sees the board (C-2.1)."""
        if viewer != action.player and self.action_is_secret(state, action):
            return secret_message(action, sentence=True)
        what = action.message(state)
        if isinstance(action, Attack):
            what = Msg(
                what.key, {**what.params, "direction": term(_seen_direction(state, action.direction, viewer))}
            )
        return action_sentence(action, what)

    def describe_message(self, state: GameState, action: Action, viewer: Player | None) -> JSON:
        return self._describe_message(state, action, viewer).to_json()

    def describe_timeout(self, state: GameState, action: Action, viewer: Player | None, seat: Player) -> str:
        return self._timeout_message(state, action, viewer).english()

    def describe_timeout_message(
        self, state: GameState, action: Action, viewer: Player | None, seat: Player
    ) -> JSON:
        return self._timeout_message(state, action, viewer).to_json()

    def _timeout_message(self, state: GameState, action: Action, viewer: Player | None) -> Msg:
        """The default named as the documented one ("Player 2's time ran out — automatic pass: …";
        `timeout_action`: keep the hand, no Commander, end the phase, else the first legal choice)."""
        if (
            not isinstance(action, Pass | Keep)
            and viewer != action.player
            and self.action_is_secret(state, action)
        ):
            return timeout_secret(action)
        what = action.message(state)
        if isinstance(action, Attack):
            what = Msg(
                what.key, {**what.params, "direction": term(_seen_direction(state, action.direction, viewer))}
            )
        return timeout_message(action, what, state.phase_name(), state.decision, state.card_name)

    def consequences_basis(self, state: GameState) -> dict[int, str]:
        return squares_before(state)

    def consequences(self, state: GameState, viewer: Player | None, basis: object = None) -> list[JSON]:
        """The engine's events of the entry just logged, as `viewer` may see them (the engine's own
        per-viewer filter, as in `log_view`: drawn and bottomed cards only to their owner, C-8)."""
        # Each item keeps the engine's `message` (stored, rendered per reader by the selectors).
        found = commandeer_consequences(state, viewer, basis if isinstance(basis, dict) else None)
        return [dict(c) for c in found]

    def timeout_loss(self, state: GameState, outcome: Result, seat: Player) -> bool:
        """C-5.4/C-5.10 (C-6.2): the automatic pass of a seat without a unit loses — on time."""
        return outcome.reason == "no_units" and outcome.winner not in (None, seat)

    def outcome(self, state: GameState) -> Result:
        out = state.outcome()
        if out is None:
            return Result(winner=None, reason="unknown", text="unknown")
        message = out.message()
        return Result(
            winner=out.winner, reason=out.reason.value, text=message.english(), message=message.to_json()
        )

    def summary_facts(self, state: GameState) -> SummaryFacts:
        """Turns played and each side's cards in the Defeated zone (C-6.1: six lose the match)."""
        return {
            "turns": state.turn,
            "turns_label": "turns",
            "by_round": False,
            "seats": {p: {"defeated": len(side.defeated)} for p, side in enumerate(state.sides)},
        }

    def player_view(self, state: GameState, player: Player | None) -> JSON:
        """The engine's view plus the public card facts of every card named in it (for the page)."""
        view = state.player_view(player)
        names: set[str] = set()

        def walk(x: Any) -> None:
            if isinstance(x, dict):
                if isinstance(x.get("card"), str):
                    names.add(x["card"])
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        walk(view)
        by_name = {d.name: d for d in state.defs.values()}
        from cards.art import art_by_name
        from cards.selectors import card_texts

        known = [n for n in names if n in by_name]
        local, art = card_texts(known), art_by_name(known)
        view["catalog"] = {
            n: {**card_facts(by_name[n], local.get(n)), "art": art.get(n)}
            for n in sorted(names)
            if n in by_name
        }
        if player is not None and view["players"][player].get("hand") is not None:
            view["unplayable"] = _unplayable(state, player)
        return view


def _unplayable(state: GameState, player: Player) -> dict[str, str]:
    """Why each card of the viewer's hand (and their Commander) cannot be played now, by card id, in the
    engine's own words (``GameState.unplayable_messages``, the reasons ``explain_illegal`` gives), as sentences
    shown on the card itself: "Needs 3 CP and you have 2 (C-5.2)." rather than repeating its name; in the
    reader's language (the card's name, where a hint names one, as the reader reads it)."""
    from cards.data_translations import reader_language
    from matches import messages
    from matches.engine.legality import card_hint

    language = reader_language()
    hints = {str(cid): card_hint(m) for cid, m in state.unplayable_messages(player).items()}
    if language == "en":
        return {cid: m.english() for cid, m in hints.items()}
    return {cid: messages.render(m.to_json(), language) for cid, m in hints.items()}  # the reader's language


def _seen_direction(state: GameState, direction: str, viewer: Player | None) -> str:
    """An engine direction as `viewer` sees the board: squares and arrows are named from the first
    player's seat (C-2.1, C-1.2); the other player's board is drawn turned 180° (own side at the
    bottom), so N/S and E/W swap for them. Spectators see the first player's orientation."""
    if viewer is None or viewer == state.first:
        return direction
    return ROTATE.get(direction, direction)


def card_facts(d: Any, local: dict[str, Any] | None = None) -> JSON:
    """Public facts of a card definition (card database data, no game state), keyed by its English name
    (the engine's and the share codes'), with `display_name` and `display_rules_text` in the viewer's
    language (`local`, from `cards.selectors.card_texts`) and `untranslated` naming what is shown in English.
    A card the database does not hold (the sample set) reads in English, marked so for a non-English viewer."""
    from cards.data_translations import reader_language

    raw = dict(getattr(d, "raw", {}) or {})
    keys = ("type", "faction", "command_cost", "energy_cost", "power", "health", "arrows", "legendary",
            "unique", "event_type", "keywords", "rules_text")  # fmt: skip
    facts = {k: raw.get(k) for k in keys}
    name, rules_text = raw.get("name") or getattr(d, "name", ""), raw.get("rules_text") or ""
    if local is None:
        english = reader_language() == "en"
        marked = [f for f, text in (("name", name), ("rules_text", rules_text)) if text and not english]
        local = {"name": name, "rules_text": rules_text, "untranslated": marked}
    facts["display_name"] = local["name"] or name  # never empty: the English name at worst
    facts["display_rules_text"] = local["rules_text"]
    facts["untranslated"] = [f for f in local["untranslated"] if f in ("name", "rules_text")]
    return facts
