"""The compiled-engine switch (docs/speed.md): a build is used only while it matches its sources, a stale or
switched-off build falls back to the ``.py`` files, and a machine without a C compiler installs nothing."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from collections.abc import Iterator
from pathlib import Path

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


def test_a_current_build_is_kept(fake_engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    (compiled.package_dir(fake_engine) / compiled.STAMP).write_text(compiled.source_hash(fake_engine))
    os.environ.pop(compiled.PURE_ENV, None)
    assert compiled.activate(fake_engine) is True
    assert capsys.readouterr().err == ""
    assert not any(isinstance(f, compiled._PureFinder) for f in sys.meta_path)


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
    assert not any(isinstance(f, compiled._PureFinder) for f in sys.meta_path)


def test_the_hash_covers_every_compiled_source(fake_engine: str) -> None:
    before = compiled.source_hash(fake_engine)
    (compiled.package_dir(fake_engine) / "extra.py").write_text("X = 1\n")
    assert compiled.source_hash(fake_engine) != before
    assert compiled.compiled_modules(fake_engine) == ["extra", "rules"]


def test_no_c_compiler_means_no_build_and_success(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.setenv("CC", "no-such-c-compiler")
    assert compiled.main(["build"]) == 0
    assert "no C compiler" in capsys.readouterr().out


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
