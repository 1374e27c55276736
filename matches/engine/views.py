"""What a player may see (C-8): the player view and the event log view, built from allow-lists."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import combat, continuous
from .actions import describe_action, resolve_label, secret_message, square_name
from .board import Unit
from .information import action_is_secret, decision_view
from .messages import Msg, gettext_noop
from .steps import PHASE_OF, Step

if TYPE_CHECKING:
    from .state import GameState


def ref(st: GameState, c: int) -> dict[str, Any]:
    """A card reference as the position and views write it."""
    return {"id": c, "card": st.defs[c].name}


def unit_json(st: GameState, u: Unit, cont: dict[int, list[int]], public: bool) -> dict[str, Any]:
    """A unit as the position (``public=False``: every counter) or a view (``public``: current stats) writes it."""
    out: dict[str, Any] = {
        "square": square_name(u.sq),
        "id": u.id,
        "card": st.defs[u.id].name,
        "owner": u.owner,
        "damage": u.damage,
    }
    if public:
        power, health, ranged = continuous.stats(st, u.id, cont)
        out.update(
            power=power,
            health=health,
            range_attack=ranged,
            arrows=list(combat.arrows_of(st, u.id)),
            attacked=u.attacked,
            attached=[{**ref(st, e), "owner": st.owners[e]} for e in u.attached],
            power_mod=u.pmod,
            health_mod=u.hmod,
            turn_power_mod=u.tpmod,
            turn_health_mod=u.thmod,
            marks=st.marks.get(u.id, 0),
        )
    else:
        out.update(
            power_mod=u.pmod,
            health_mod=u.hmod,
            turn_power_mod=u.tpmod,
            turn_health_mod=u.thmod,
            range_perm=u.range_perm,
            range_turn=u.range_turn,
            attacked=u.attacked,
            hit_turn=u.hit_turn,
            entered=u.entered,
            attached=[{**ref(st, e), "owner": st.owners[e]} for e in u.attached],
        )
    return out


def player_view(st: GameState, player: int | None) -> dict[str, Any]:
    """What ``player`` may see (C-8); ``None`` is a spectator (no hands at all). JSON-ready."""
    cont = continuous.bonuses(st)
    players = []
    for i, side in enumerate(st.sides):
        pub: dict[str, Any] = {
            "cp": side.cp,
            "hand_count": len(side.hand),
            "deck_count": len(side.deck),
            "energy": [ref(st, c) for c in side.energy],
            "retired": [ref(st, c) for c in side.retired],
            "defeated": [ref(st, c) for c in side.defeated],
            "removed": [ref(st, c) for c in side.removed],
            "mulligans": side.mulligans,
        }
        if player == i:
            pub["hand"] = [ref(st, c) for c in side.hand]
        if side.commander is None:
            pub["commander"] = None
        elif side.revealed or player == i:
            pub["commander"] = {**ref(st, side.commander), "revealed": side.revealed}
        else:
            pub["commander"] = {"face_down": True}
        players.append(pub)
    dec = st.decision
    dview = decision_view(dec, player) if dec is not None else None
    return {
        "format": "commandeer-view",
        "viewer": player,
        "turn": st.turn,
        "active": st.active,
        "first_player": st.first if st.step not in (Step.COMMANDER,) else None,
        "step": st.step.value,
        "phase": PHASE_OF[st.step],
        "current_players": st.current_players(),
        "outcome": st.outcome_.to_json() if st.outcome_ else None,
        "turn_limit": st.config.turn_limit,
        "board": [unit_json(st, st.units[uid], cont, True) for uid in board_order(st)],
        "players": players,
        "limbo": [ref(st, c) for c in st.limbo],
        "decision": dview,
        "triggers": [
            {"source": ref(st, t.source), "ability": t.ability, "controller": t.controller}
            for t in st.triggers
        ],
        "log_length": st.log_length,
    }


def board_order(st: GameState) -> list[int]:
    """Units on the battlefield in square order (a1 first)."""
    return [c for c in st.board if c is not None]


def log_view(st: GameState, player: int | None, start: int = 0) -> list[dict[str, Any]]:
    """The event log from ``start`` as ``player`` may see it: drawn and bottomed cards only to their owner.
    Each entry's ``text`` is its ``message`` (JSON of a ``Msg``) in English.

    A state loaded from a snapshot saved with ``to_dict(log=False)`` only holds the entries made since.
    """
    out = []
    for e in st.log[max(0, start - st.log_start) :]:
        if e["action"] is None:
            setup = Msg(gettext_noop("Match set-up"))
            out.append(
                {
                    "n": e["n"],
                    "player": None,
                    "action": None,
                    "text": setup.english(),
                    "message": setup.to_json(),
                    "events": events_view(st, e["events"], player),
                }
            )
            continue
        own = e["player"] == player
        if not own and action_is_secret(e["action"], e["decision"]):
            action: dict[str, Any] = {"type": e["action"].kind, "player": e["player"]}
            what = secret_message(e["action"], sentence=False)
        else:
            action = e["action"].to_json()
            ctx: dict[str, Any] = {"kind": e["decision"]} if e["decision"] else {}
            if "for" in e:
                ctx["for"] = e["for"]
            what = describe_action(e["action"], st.card_name, ctx or None, e.get("phase"))
            if "label" in e:
                what = resolve_label(e["label"])
        events = events_view(st, e["events"], player)
        out.append(
            {
                "n": e["n"],
                "player": e["player"],
                "action": action,
                "text": what.english(),
                "message": what.to_json(),
                "events": events,
            }
        )
    return out


def events_view(st: GameState, evs: list[dict[str, Any]], player: int | None) -> list[dict[str, Any]]:
    """Events as ``player`` may see them (secret cards only to their owner)."""
    events = []
    for ev in evs:
        ev_out = {k: v for k, v in ev.items() if k != "secret"}
        if ev.get("secret") and ev.get("player") != player:
            if "cards" in ev_out:
                ev_out["count"] = len(ev_out.pop("cards"))
            ev_out.pop("card", None)
        else:
            if "cards" in ev_out:
                ev_out["cards"] = [ref(st, c) for c in ev_out["cards"]]
            for key in ("card", "target"):
                if isinstance(ev_out.get(key), int):
                    ev_out[key] = ref(st, ev_out[key])
        events.append(ev_out)
    return events
