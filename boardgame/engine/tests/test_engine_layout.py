"""The engine's shape (docs/style.md "Shape as it grows"): modules by rule area under ~800 lines, dispatch
through enum-keyed tables (no handler names built from strings), views from an allow-list (W-20)."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

from boardgame.engine import dispatch
from boardgame.engine.agents import RandomAgent
from boardgame.engine.game import STATE_FIELDS, new_game
from boardgame.engine.views import HIDDEN_FIELDS, MASKED_FIELDS, PENDING_MASKED, PENDING_PUBLIC, PUBLIC_FIELDS

from .conftest import _DATA

ENGINE = Path(dispatch.__file__).resolve().parent
SOURCES = {p.name: p.read_text(encoding="utf-8") for p in sorted(ENGINE.glob("*.py"))}


def test_no_engine_module_is_over_800_lines() -> None:
    long = {name: src.count("\n") for name, src in SOURCES.items() if src.count("\n") > 800}
    assert long == {}


def test_no_handler_is_found_by_a_name_built_from_a_string() -> None:
    for name, src in SOURCES.items():
        assert not re.search(r"getattr\([^)]*\+", src), name


def test_dispatch_tables_cover_every_kind_task_and_decision() -> None:
    assert set(dispatch.LEGAL) == set(dispatch.DO) == set(dispatch.PendingKind)
    assert set(dispatch.TASKS) == set(dispatch.Task)
    assert set(dispatch.DECISIONS) == set(dispatch.Decision)


def test_every_kind_task_and_decision_named_in_the_rules_is_an_enum_member() -> None:
    src = "\n".join(SOURCES.values())
    asked = set(re.findall(r"\.ask\(\s*PendingKind\.(\w+)", src))
    tasks = set(re.findall(r"Step\(\s*Task\.(\w+)", src))
    chosen = set(re.findall(r"\.choose\(\s*[^,()]+(?:\([^()]*\))?,\s*Decision\.(\w+)", src))
    assert asked and tasks and chosen
    assert asked <= {k.name for k in dispatch.PendingKind}
    assert tasks <= {t.name for t in dispatch.Task}
    assert chosen <= {d.name for d in dispatch.Decision}
    # no kind, task or decision is named by a bare string any more (records of structures.py)
    assert not re.search(r"\.ask\(\s*\"", src) and not re.search(r"\{\"t\": \"", src)
    assert not re.search(r"\.choose\(\s*[^,()]+(?:\([^()]*\))?,\s*\"", src)


def test_no_module_reaches_into_another_objects_private_names() -> None:
    """docs/style.md §18: helpers other modules need are public (`st.add_unit`, `combat.card_options`); `self._x`
    inside its own class and a module's own private functions stay private. The engine's tests too."""
    tests = {
        f"tests/{p.name}": p.read_text(encoding="utf-8")
        for p in sorted((ENGINE / "tests").glob("*.py"))
        if p.name != Path(__file__).name  # this file names the one exception below
    }
    found = {
        f"{name}: {m.group(0)}"
        for name, src in {**SOURCES, **tests}.items()
        for line in src.splitlines()
        if not line.lstrip().startswith("#")
        for m in re.finditer(r"\b(?!self\b|cls\b)[A-Za-z_]\w*\)?\._[a-z]\w*", line.split("#")[0])
    }
    assert found <= {"game.py: st._setup"}  # new_game sets up the state it creates (game.py's own)


def test_every_state_field_is_classified_for_the_view_w_20() -> None:
    fields = [*PUBLIC_FIELDS, *MASKED_FIELDS, *HIDDEN_FIELDS]
    assert sorted(fields) == sorted(STATE_FIELDS) and len(set(fields)) == len(fields)


def test_every_pending_key_of_a_game_is_classified_for_the_view_w_20() -> None:
    st = new_game(_DATA, player_count=4, seed=11)
    agents = {h: RandomAgent(Random(i)) for i, h in enumerate(st.houses)}
    keys: set[str] = set()
    while not st.is_terminal() and st.round <= 4:
        assert st.pending is not None
        keys |= set(st.pending.to_json())
        p = st.current_players()[0]
        st.apply(agents[p].choose(st, p))
    assert {"kind", "players", "bids"} <= keys
    assert keys <= set(PENDING_PUBLIC) | set(PENDING_MASKED)


def test_the_rules_never_change_a_queued_step_in_place() -> None:
    """Clones share agenda steps (structures.Step are values): a rule pushes a new step, never assigns to one."""
    for name, src in SOURCES.items():
        assert not re.search(r"\b(task|step|eff|e|waiting|bt)\.\w+\s*(\+|-)?=(?!=)", src), name
        assert not re.search(r"agenda\[-?\d+\]\.\w+\s*(\+|-)?=(?!=)", src), name
