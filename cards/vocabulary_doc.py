"""Generate the vocabulary tables of docs/card-abilities.md from matches/engine/vocabulary.py.

Run ``manage.py ability_docs`` after changing the vocabulary; a test fails while the doc is stale.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cards.describe import describe_ability, describe_effect
from matches.engine.vocabulary import (
    CONTINUOUS_TARGETS,
    EFFECTS,
    KEYWORDS,
    PARAM_KINDS,
    TARGET_TRIGGERS,
    TARGETS,
    TRIGGER_KEYWORDS,
    TRIGGERS,
)

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "card-abilities.md"
BEGIN = "<!-- BEGIN GENERATED VOCABULARY: manage.py ability_docs -->"
END = "<!-- END GENERATED VOCABULARY -->"
_EXAMPLE_VALUES: dict[str, Any] = {"amount": 1000, "signed_amount": 1000, "count": 1, "duration": "turn"}
_PREFERRED_TARGETS = ("chosen_enemy_unit", "controller", "self")
_FRIENDLY_EFFECTS = {"heal", "modify_power", "modify_health", "grant_range_attack"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _example_ability(trigger: str) -> dict[str, Any]:
    spec = TRIGGERS[trigger]
    if spec.continuous:
        target = "attached_unit" if trigger == "attached" else "self"
        effect: dict[str, Any] = {"effect": "modify_power", "target": target, "amount": 1000}
    elif "event" in spec.card_types:
        effect = {"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 1000}
    else:
        effect = {"effect": "draw", "target": "controller", "count": 1}
    ability: dict[str, Any] = {"trigger": trigger, "effects": [effect]}
    if trigger == "formation":
        ability["x"] = 3
    if spec.activated:
        ability["cost"] = {"cp": 1}
    return ability


def _example_effect(name: str) -> dict[str, Any]:
    spec = EFFECTS[name]
    preferred = ("chosen_friendly_unit",) if name in _FRIENDLY_EFFECTS else _PREFERRED_TARGETS
    target = next(t for t in (*preferred, *sorted(spec.targets)) if t in spec.targets)
    return {"effect": name, "target": target} | {p: _EXAMPLE_VALUES[kind] for p, kind in spec.params.items()}


def render_tables() -> str:
    """The generated part of docs/card-abilities.md (Markdown tables, deterministic)."""
    out: list[str] = []
    out.append("### Triggers\n")
    out.append("| trigger | cards | kind | rule | when it happens | example (plain words) |")
    out.append("|---|---|---|---|---|---|")
    for name, spec in TRIGGERS.items():
        kind = "activated (costs allowed)" if spec.activated else "continuous" if spec.continuous else "event"
        if name in TRIGGER_KEYWORDS:
            kind += f"; needs keyword `{TRIGGER_KEYWORDS[name]}`"
        if name == "formation":
            kind += "; needs `x`"
        elif spec.activated:
            kind += "; optional `x` (usable only while Formation X holds, C-7.6)"
        example = describe_ability(_example_ability(name))
        cards = ", ".join(sorted(spec.card_types))
        out.append(
            f"| `{name}` | {cards} | {kind} | {spec.rule or '—'} | {_cell(spec.doc)} | {_cell(example)} |"
        )
    out.append("\n### Effects\n")
    out.append("| effect | parameters | targets | under a continuous trigger | what it does | example |")
    out.append("|---|---|---|---|---|---|")
    for name, spec in EFFECTS.items():
        params = ", ".join(f"`{p}` ({kind})" for p, kind in spec.params.items()) or "—"
        targets = "player targets" if spec.targets <= {"controller", "opponent"} else "unit targets"
        example = _example_effect(name)
        sentence = describe_effect(example) + "."
        pairs = ", ".join(f'"{k}": {v!r}'.replace("'", '"') for k, v in example.items())
        out.append(
            f"| `{name}` | {params} | {targets} | {'yes' if spec.continuous_ok else 'no'} | "
            f"{_cell(spec.doc)} | `{{{pairs}}}` → {_cell(sentence)} |"
        )
    out.append("\n### Targets\n")
    out.append("| target | who | only under | continuous OK |")
    out.append("|---|---|---|---|")
    for name, doc in TARGETS.items():
        only = ", ".join(f"`{t}`" for t in sorted(TARGET_TRIGGERS.get(name, ()))) or "any trigger"
        out.append(f"| `{name}` | {_cell(doc)} | {only} | {'yes' if name in CONTINUOUS_TARGETS else 'no'} |")
    out.append("\n### Parameter kinds\n")
    out.append("| kind | allowed values |")
    out.append("|---|---|")
    for kind, text in PARAM_KINDS.items():
        out.append(f"| {kind} | {_cell(text)} |")
    out.append("\n### Keywords\n")
    out.append("| code | meaning | ability trigger it goes with |")
    out.append("|---|---|---|")
    for code, text in KEYWORDS.items():
        trigger = next((f"`{t}`" for t, k in TRIGGER_KEYWORDS.items() if k == code), "— (no ability needed)")
        out.append(f"| `{code}` | {_cell(text)} | {trigger} |")
    return "\n".join(out) + "\n"


def render_document(current: str) -> str:
    """``current`` with the text between the markers replaced by freshly generated tables."""
    head, rest = current.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{render_tables()}{END}{tail}"
