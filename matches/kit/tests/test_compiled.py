"""The compiled-engine switch (docs/speed.md): a build is used only while it matches its sources, a stale or
switched-off build falls back to the ``.py`` files, and a machine without a C compiler installs nothing."""

from __future__ import annotations

import contextlib
import importlib
import importlib.machinery
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from matches.kit import compiled

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def fake_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package ``fakepkg.engine`` whose module ``rules`` has a ``.py`` and a "compiled" file next to it that
    is not a loadable extension: importing the extension would fail, so a passing import proves the ``.py``
    was chosen."""
    base = tmp_path / "fakepkg" / "engine"
    base.mkdir(parents=True)
    (tmp_path / "fakepkg" / "__init__.py").write_text("")
    (base / "__init__.py").write_text("")
    (base / "rules.py").write_text("VALUE = 'pure'\n")
    (base / f"rules{SUFFIX}").write_bytes(b"not an extension module")
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    yield "fakepkg.engine"
    for name in [m for m in sys.modules if m.startswith("fakepkg")]:
        del sys.modules[name]


def _pure_finder_for(package: str) -> bool:
    """Whether ``activate`` put a finder for ``package`` in front of the import system (under ENGINES_PURE=1
    the real engines have theirs there too)."""
    return any(isinstance(f, compiled._PureFinder) and f.prefix == package + "." for f in sys.meta_path)


def test_a_current_build_is_kept(fake_engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    (compiled.package_dir(fake_engine) / compiled.STAMP).write_text(compiled.source_hash(fake_engine))
    os.environ.pop(compiled.PURE_ENV, None)
    assert compiled.activate(fake_engine) is True
    assert capsys.readouterr().err == ""
    assert not _pure_finder_for(fake_engine)


def test_a_stale_build_falls_back_to_the_sources_with_one_line(
    fake_engine: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (compiled.package_dir(fake_engine) / compiled.STAMP).write_text(compiled.source_hash(fake_engine))
    (compiled.package_dir(fake_engine) / "rules.py").write_text(
        "VALUE = 'edited'\n"
    )  # edited after the build
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    assert compiled.activate(fake_engine) is False
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "do not match the sources" in err
    assert importlib.import_module("fakepkg.engine.rules").VALUE == "edited"


def test_the_pure_switch_loads_the_sources_silently(
    fake_engine: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (compiled.package_dir(fake_engine) / compiled.STAMP).write_text(compiled.source_hash(fake_engine))
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.activate(fake_engine) is False
    assert capsys.readouterr().err == ""
    assert importlib.import_module("fakepkg.engine.rules").VALUE == "pure"


def test_without_a_build_nothing_is_changed(fake_engine: str) -> None:
    (compiled.package_dir(fake_engine) / f"rules{SUFFIX}").unlink()
    assert compiled.activate(fake_engine) is False
    assert not _pure_finder_for(fake_engine)


def test_the_hash_covers_every_compiled_source(fake_engine: str) -> None:
    before = compiled.source_hash(fake_engine)
    (compiled.package_dir(fake_engine) / "extra.py").write_text("X = 1\n")
    assert compiled.source_hash(fake_engine) != before
    assert compiled.compiled_modules(fake_engine) == ["extra", "rules"]


def _no_compiler(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This process as on a machine without a C compiler: no CC, and a PATH with nothing on it."""
    empty = tmp_path / "empty-bin"
    empty.mkdir(exist_ok=True)
    for name in ("CC", compiled.PURE_ENV, compiled.COMPILE_ENV, compiled.STRICT_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(empty))


def test_the_build_decision_names_why_it_builds_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _no_compiler(monkeypatch, tmp_path)
    assert (compiled.build_skipped() or "").startswith("no C compiler")
    monkeypatch.setenv("CC", str(tmp_path / "no-such-c-compiler"))
    assert (compiled.build_skipped() or "").startswith("no C compiler")
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.build_skipped() == "ENGINES_PURE is set"
    monkeypatch.setenv(compiled.COMPILE_ENV, "0")  # `make install ENGINES_COMPILE=0`
    assert compiled.build_skipped() == "ENGINES_COMPILE=0 is set"


def _engine_files() -> dict[Path, int]:
    return {
        path: path.stat().st_mtime_ns
        for package in compiled.ENGINES
        for path in compiled.package_dir(package).iterdir()
        if path.is_file()
    }


def test_without_a_c_compiler_the_build_says_so_in_one_line_and_succeeds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`make install` (so `make run`) on a machine without a C compiler: nothing is built or removed and the
    install goes on; under ENGINES_BUILD_STRICT (CI) the same machine fails the install instead."""
    _no_compiler(monkeypatch, tmp_path)
    before = _engine_files()
    assert compiled.main(["build"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("engines: no C compiler") and out.out.count("\n") == 1 and out.err == ""
    assert ", no build; they run as " in out.out
    monkeypatch.setenv(compiled.STRICT_ENV, "1")
    assert compiled.main(["build"]) == 1
    assert capsys.readouterr().err.startswith("engines: no C compiler")
    assert _engine_files() == before


def test_make_install_builds_the_engines_by_default() -> None:
    """`make install` depends on `engines`, whose recipe is the build above (ENGINES_COMPILE=0 opts out in it)."""
    text = (compiled.ROOT / "Makefile").read_text(encoding="utf-8")
    install = re.search(r"^install:(.*)$", text, re.M)
    assert install and "engines" in install.group(1).split()
    engines = re.search(r"^engines:.*\n((?:\t.*\n)+)", text, re.M)
    assert engines and "-m matches.kit.compiled build" in engines.group(1)


def test_a_failed_build_leaves_pure_python_with_one_line(
    fake_engine: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A C compiler that fails (here ``false``): nothing of the build is left, the parent's report is one
    line naming the error and the log, and the same sources are not tried again until they change; under
    ENGINES_BUILD_STRICT the report fails the install and shows the log."""
    false = shutil.which("false")
    if false is None or compiled.compiler_available() == "no Python headers (Python.h)":
        pytest.skip("needs `false` and Python's headers to get as far as the C compiler")
    base = compiled.package_dir(fake_engine)
    (base / f"rules{SUFFIX}").unlink()
    (base / "rules.py").write_text("VALUE: str = 'pure'\n")
    monkeypatch.setenv("CC", false)
    log = compiled._log(fake_engine)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as stream, contextlib.redirect_stderr(stream):
        assert compiled.build_one(fake_engine) == 1
    assert not list(base.glob(f"*{SUFFIX}")) and not (base / compiled.STAMP).exists()
    capsys.readouterr()
    assert compiled.report(fake_engine, 1, strict=False) is False
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "failed" in err and "runs as pure Python" in err and log.name in err
    assert compiled.failed_before(fake_engine)
    assert compiled.report(fake_engine, 1, strict=True) is True
    assert capsys.readouterr().err.count("\n") > 1  # the line, then the end of the log
    (base / "rules.py").write_text("VALUE: str = 'edited'\n")
    assert not compiled.failed_before(fake_engine)


# A seeded game of each engine, searching levels included (fixed iterations, so no clock decides), reduced
# to a digest of its final snapshot: run here and in other processes, the digests must be equal.
SEEDED_GAMES = """
import hashlib, json
from random import Random
from boardgame.engine import load_default_game_data, new_game
from boardgame.engine.agents import make_agent as westeros_agent
from matches.engine import new_match
from matches.engine.agents import make_agent as commandeer_agent
from matches.engine.decks import default_decks

def play(g, agents, decisions):
    for _ in range(decisions):
        if g.is_terminal():
            break
        p = g.current_players()[0]
        g.apply(agents[p].choose(g, p))
    return hashlib.sha256(json.dumps(g.to_dict(), sort_keys=True).encode()).hexdigest()

decks = [d for _, d in sorted(default_decks().items())]
c = new_match(decks[0], decks[1], seed=11)
c_agents = {0: commandeer_agent("greedy", Random(0)), 1: commandeer_agent("hard", Random(1), iterations=3)}
w = new_game(load_default_game_data(), player_count=6, seed=11)
w_agents = {
    h: westeros_agent("hard", Random(i), iterations=2) if i == 0 else westeros_agent("greedy", Random(i))
    for i, h in enumerate(w.players())
}
digests = {"commandeer": play(c, c_agents, 400), "westeros": play(w, w_agents, 400)}
"""


def _seeded_games_here() -> dict[str, str]:
    namespace: dict[str, Any] = {}
    exec(SEEDED_GAMES, namespace)
    return cast(dict[str, str], namespace["digests"])


def _copy_engines(to: Path, *, with_build: bool) -> None:
    """The engines' sources (no tests) and the data they read, as a fresh clone has them; ``with_build``
    also copies the extension modules and stamps of this tree's build."""
    skip = ["tests", "__pycache__", "*.mo"]
    if not with_build:
        skip += [f"*{SUFFIX}", compiled.STAMP]
    root = compiled.ROOT
    for package in ("matches", "boardgame"):
        (to / package).mkdir(parents=True)
        shutil.copy(root / package / "__init__.py", to / package / "__init__.py")
    for folder in ("matches/engine", "matches/kit", "boardgame/engine", "boardgame/data"):
        shutil.copytree(root / folder, to / folder, ignore=shutil.ignore_patterns(*skip))
    sample = to / "cards" / "data" / "sample_cards.json"
    sample.parent.mkdir(parents=True)
    shutil.copy(root / "cards" / "data" / "sample_cards.json", sample)


def _run(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _clean_env(path: str) -> dict[str, str]:
    drop = {
        "CC",
        "PYTHONPATH",
        compiled.PURE_ENV,
        compiled.COMPILE_ENV,
        compiled.STRICT_ENV,
        "ENGINES_EXPECT",
    }
    return {
        **{k: v for k, v in os.environ.items() if k not in drop},
        "PATH": path,
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def test_a_machine_without_a_c_compiler_installs_and_plays_the_same_games(tmp_path: Path) -> None:
    """A fresh clone on a machine without a C compiler: `make install`'s build step (the Makefile's
    `engines` recipe) builds nothing, says why in one line and succeeds; the engines import from their
    sources and play the same seeded games, move for move, as this process plays them (compiled in the
    main pass of `make test`, pure Python in the second)."""
    clone = tmp_path / "clone"
    _copy_engines(clone, with_build=False)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    env = _clean_env(str(empty))
    build = _run(clone, env, "-m", "matches.kit.compiled", "build")
    assert build.returncode == 0, build.stderr
    assert build.stdout.startswith("engines: no C compiler"), build.stdout
    assert build.stdout.endswith(", no build; they run as pure Python\n") and build.stdout.count("\n") == 1
    assert not list(clone.rglob(f"*{SUFFIX}")) and not (clone / "var").exists()
    assert _run(clone, env, "-m", "matches.kit.compiled", "mode").stdout == "pure\n"
    play = _run(
        clone,
        env,
        "-c",
        SEEDED_GAMES
        + "import matches.engine.state as s, boardgame.engine.game as g, json\n"
        + "print(json.dumps({'files': [s.__file__, g.__file__], 'digests': digests}))",
    )
    assert play.returncode == 0 and play.stderr == "", play.stderr
    result = json.loads(play.stdout)
    assert all(Path(f).is_relative_to(clone) and f.endswith(".py") for f in result["files"]), result["files"]
    assert result["digests"] == _seeded_games_here()


def test_an_engine_edited_after_its_build_runs_from_its_source(tmp_path: Path) -> None:
    """This tree's build copied beside the sources, then one source edited: the edited engine imports from
    its ``.py`` files (with one line saying so), the other engine keeps its compiled modules."""
    if not all(compiled._state(p) == "current" for p in compiled.ENGINES):
        pytest.skip("no current build here (a machine without a C compiler, or ENGINES_COMPILE=0)")
    clone = tmp_path / "clone"
    _copy_engines(clone, with_build=True)
    state = clone / "matches" / "engine" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nEDITED_AFTER_THE_BUILD = True\n")
    env = _clean_env(os.environ.get("PATH", ""))
    probe = _run(
        clone,
        env,
        "-c",
        "import matches.engine.state as s, boardgame.engine.game as g\n"
        "from matches.kit.compiled import is_compiled\n"
        "print(s.EDITED_AFTER_THE_BUILD, is_compiled('matches.engine'), is_compiled('boardgame.engine'))",
    )
    assert probe.stdout == "True False True\n", probe.stderr
    assert probe.stderr.count("\n") == 1 and probe.stderr.startswith(
        "matches.engine: compiled modules do not"
    )


def test_the_engines_run_in_the_mode_the_suite_expects() -> None:
    """``make test`` runs the engine suites twice, with ENGINES_EXPECT=compiled and =pure; a build that
    failed or was skipped would otherwise test pure Python twice without anyone noticing."""
    expect = os.environ.get("ENGINES_EXPECT")
    if not expect:
        pytest.skip("ENGINES_EXPECT is not set (make test sets it)")
    import boardgame.engine.game  # noqa: F401
    import matches.engine.state  # noqa: F401

    for package in compiled.ENGINES:
        assert compiled.is_compiled(package) is (expect == "compiled"), package


def test_sources_and_class_docstrings_read_the_same_compiled_or_not() -> None:
    """``source_of`` and ``docstring_of`` give the ``.py`` file's text either way (the game settings' API
    help is made from the comments in ``RulesConfig``, which a compiled module does not carry)."""
    from boardgame.engine import search as westeros_search
    from boardgame.engine.config import RulesConfig as WesterosConfig
    from matches.engine.config import RulesConfig as CommandeerConfig

    for cls in (CommandeerConfig, WesterosConfig):
        path = compiled.package_dir(cls.__module__.rsplit(".", 1)[0]) / "config.py"
        text = compiled.source_of(cls)
        assert text.startswith("@dataclass") and "\nclass RulesConfig:\n" in text and text in path.read_text()
        doc = compiled.docstring_of(cls)
        assert doc and f'"""{doc}"""' in text
    search_py = compiled.package_dir("boardgame.engine") / "search.py"
    assert compiled.source_of(westeros_search) == search_py.read_text(encoding="utf-8")
