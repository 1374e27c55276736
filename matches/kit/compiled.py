"""Compiled engines (docs/speed.md): both rules engines' modules compiled by mypyc into extension modules
that sit next to their ``.py`` files (git-ignored), with pure Python as the fallback.

Python's import prefers an extension module to the ``.py`` of the same name, so a build placed in the
package is used without any change to the imports. Two things keep a build from ever running code other
than the source: ``build`` writes a stamp holding the hash of the sources it compiled, and ``activate`` (the
first line of each engine's ``__init__``) recomputes that hash at import; when it differs (a source edited
since the build), or when ``ENGINES_PURE=1`` is set, a finder placed in front of the import system loads
every module of that engine from its ``.py``. A stale build prints one line on stderr; a missing one is
silent (pure Python is the normal state of a machine without a C compiler).

Run ``python -m matches.kit.compiled build`` (``make install`` does) to build what is missing or stale: it
builds nothing, says why in one line and succeeds when ``build_skipped`` finds a reason (``ENGINES_COMPILE=0``,
``ENGINES_PURE=1``, no C compiler, no Python headers, no mypyc), and a build that fails is removed and
reported in one line, the engines staying pure; ``ENGINES_BUILD_STRICT=1`` (CI) turns both into a failure,
a deliberate switch-off excepted. ``status`` prints each engine's state, ``mode`` what the engines run as,
``clean`` removes the builds. Standard library only at import time: mypyc and setuptools are imported by
``build`` alone.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds manage.py
ENGINES = ("matches.engine", "boardgame.engine")
# Modules left to the interpreter: the package's own ``__init__`` (it runs ``activate``), and the action
# classes, whose ``kind: ClassVar[str]`` mypyc 1.19 turns into a dataclass field (mypyc issue #1122).
NOT_COMPILED = frozenset({"__init__", "actions"})
STAMP = "_compiled.stamp"
PURE_ENV = "ENGINES_PURE"
STRICT_ENV = "ENGINES_BUILD_STRICT"  # CI: a failed or impossible build fails `make install`
COMPILE_ENV = "ENGINES_COMPILE"  # 0: `make install` builds nothing (an existing current build is still used)
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


def package_dir(package: str) -> Path:
    return ROOT.joinpath(*package.split("."))


def compiled_modules(package: str) -> list[str]:
    """The engine's module names that the build compiles (sorted, so the hash is stable)."""
    return sorted(p.stem for p in package_dir(package).glob("*.py") if p.stem not in NOT_COMPILED)


def source_hash(package: str) -> str:
    """SHA-256 over the compiled modules' names and sources and the interpreter's ABI tag (the extension
    suffix): a build is current exactly when this equals its stamp."""
    digest = hashlib.sha256(_SUFFIX.encode())
    base = package_dir(package)
    for name in compiled_modules(package):
        digest.update(name.encode() + b"\0")
        digest.update((base / f"{name}.py").read_bytes())
    return digest.hexdigest()


def _stamp(package: str) -> str | None:
    try:
        return (package_dir(package) / STAMP).read_text(encoding="ascii").strip()
    except OSError:
        return None


def _built(package: str) -> bool:
    return any(package_dir(package).glob(f"*{_SUFFIX}"))


class _PureFinder(MetaPathFinder):
    """Loads the listed modules of one engine from their ``.py``, ahead of the extension modules."""

    def __init__(self, package: str) -> None:
        self.prefix = package + "."
        self.base = package_dir(package)
        self.names = frozenset(compiled_modules(package))

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.prefix):
            return None
        name = fullname[len(self.prefix) :]
        if name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, self.base / f"{name}.py")


def activate(package: str) -> bool:
    """Called first by each engine's ``__init__``: keeps the compiled modules when they match the sources,
    else makes the engine load as pure Python. Returns whether the compiled modules are used."""
    if not _built(package):
        return False
    pure = _flag(PURE_ENV)
    if not pure and _stamp(package) == source_hash(package):
        return True
    if not pure:
        sys.stderr.write(
            f"{package}: compiled modules do not match the sources (edited since the build); running pure "
            "Python until `make install` rebuilds them\n"
        )
    if not any(isinstance(f, _PureFinder) and f.prefix == package + "." for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder(package))
    return False


def is_compiled(package: str) -> bool:
    """Whether the imported engine runs compiled code (for tests and benchmarks to say which they ran)."""
    module = sys.modules.get(f"{package}.state") or sys.modules.get(f"{package}.game")
    return module is not None and isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader)


def source_of(obj: type | ModuleType) -> str:
    """The source text of a module or a top-level class, compiled or not: ``inspect.getsource`` finds no
    source for an extension module, so for a compiled one this reads the ``.py`` beside it (the file the
    build compiled: the stamp guarantees they match). Raises OSError when there is none."""
    import ast
    import inspect

    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        pass
    module = obj if isinstance(obj, ModuleType) else sys.modules.get(obj.__module__)
    origin = getattr(module, "__file__", None)
    if origin is None:
        raise OSError(f"no source for {obj!r}")
    path = Path(origin)
    path = path.with_name(path.name.split(".", 1)[0] + ".py")
    if not path.exists():
        raise OSError(f"no source for {obj!r}: {path.name} is missing")
    text = path.read_text(encoding="utf-8")
    if isinstance(obj, ModuleType):
        return text
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == obj.__qualname__:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            return "".join(text.splitlines(keepends=True)[first - 1 : node.end_lineno])
    raise OSError(f"class {obj.__qualname__} not found in {path.name}")


def docstring_of(cls: type) -> str | None:
    """A class's docstring, compiled or not (mypyc leaves a compiled class's ``__doc__`` empty)."""
    import ast

    if cls.__doc__:
        return cls.__doc__
    try:
        node = ast.parse(source_of(cls).lstrip()).body[0]
    except OSError:
        return None
    return ast.get_docstring(node, clean=False) if isinstance(node, ast.ClassDef) else None


def compiler_available() -> str | None:
    """Why a build is impossible here (no C compiler, no Python headers), or None when it can run."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def clean(package: str) -> None:
    """Remove the engine's build (extension modules and stamp)."""
    base = package_dir(package)
    for path in [*base.glob(f"*{_SUFFIX}"), base / STAMP]:
        path.unlink(missing_ok=True)


def build(package: str, jobs: int = 2) -> None:
    """Compile the engine with mypyc in place (extension modules next to the sources) and write the stamp.
    Intermediate C and object files go to var/engines-build (git-ignored, removed by ``make clean``)."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    expected = source_hash(package)
    base = package_dir(package)
    work = ROOT / "var" / "engines-build" / package
    paths = [str((base / f"{name}.py").relative_to(ROOT)) for name in compiled_modules(package)]
    work.mkdir(parents=True, exist_ok=True)
    config = work / "mypy.ini"  # not pyproject's: its Django plugins are for the play layer
    config.write_text("[mypy]\n", encoding="ascii")
    clean(package)  # never leave half a group beside a new one
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        extensions = mypycify(
            ["--config-file", str(config), *paths],
            opt_level="2",
            target_dir=str(work / "c"),
            group_name=f"{package}._native",
        )
        dist = Distribution({"name": package, "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = True
        cmd.build_temp = str(work / "temp")
        cmd.build_lib = str(work / "lib")
        cmd.parallel = jobs
        dist.run_command("build_ext")
    finally:
        os.chdir(cwd)
    if source_hash(package) != expected:
        clean(package)
        raise SystemExit(f"{package}: the sources changed during the build; run it again")
    (base / STAMP).write_text(expected + "\n", encoding="ascii")


def _state(package: str) -> str:
    if not _built(package):
        return "not built"
    return "current" if _stamp(package) == source_hash(package) else "stale"


def build_skipped() -> str | None:
    """Why ``build`` compiles nothing on this machine (the engines then run as pure Python), or None when it
    compiles: switched off (``ENGINES_COMPILE=0``, ``ENGINES_PURE=1``), no C compiler, no Python headers, or
    no mypyc (an install without the ``dev`` extra)."""
    if os.environ.get(COMPILE_ENV, "").strip() == "0":
        return f"{COMPILE_ENV}=0 is set"
    if _flag(PURE_ENV):
        return f"{PURE_ENV} is set"
    reason = compiler_available()
    if reason:
        return reason
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed"
    return None


def _log(package: str) -> Path:
    return ROOT / "var" / "engines-build" / f"{package}.log"


def _failed_marker(package: str) -> Path:
    """Holds the source hash of a build that failed: the same sources are not tried again on every `make
    install` (a mypyc error does not go away by itself) until they change, ``clean`` runs, or under
    ``ENGINES_BUILD_STRICT``."""
    return ROOT / "var" / "engines-build" / f"{package}.failed"


def failed_before(package: str) -> bool:
    try:
        return _failed_marker(package).read_text(encoding="ascii").strip() == source_hash(package)
    except OSError:
        return False


def report(package: str, returncode: int, strict: bool) -> bool:
    """One line on how the build of ``package`` went; under ``ENGINES_BUILD_STRICT`` a failure also shows
    the end of its log. Returns whether ``build`` fails."""
    log = _log(package)
    if returncode == 0:
        _failed_marker(package).unlink(missing_ok=True)
        print(f"engines: {package} compiled", flush=True)
        return False
    _failed_marker(package).parent.mkdir(parents=True, exist_ok=True)
    _failed_marker(package).write_text(source_hash(package) + "\n", encoding="ascii")
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    # the last line naming an error (mypyc's type errors come before its SystemExit), else the last line
    texts = [line.strip() for line in lines if line.strip()]
    errors = [text for text in texts if "error" in text.lower()] or texts
    last = errors[-1] if errors else f"exit status {returncode}"
    where = log.relative_to(ROOT) if log.is_relative_to(ROOT) else log
    print(
        f"engines: building {package} failed ({last[:200]}); it runs as pure Python (log: {where})",
        file=sys.stderr,
        flush=True,
    )
    if strict:
        print("\n".join(lines[-40:]), file=sys.stderr)
    return strict


def build_one(package: str) -> int:
    """Build one engine in this process; on failure remove what it left and name the error last."""
    try:
        build(package)
    except (Exception, SystemExit) as exc:  # mypyc reports a type error by SystemExit
        clean(package)
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    pure = _flag(PURE_ENV)
    if command == "status":
        for package in ENGINES:
            print(f"{package}: {_state(package)}{' (ENGINES_PURE is set: not used)' if pure else ''}")
        return 0
    if command == "mode":  # what the engines run as here: compiled, pure, or partial (one engine only)
        current = [_state(package) == "current" and not pure for package in ENGINES]
        print("compiled" if all(current) else "partial" if any(current) else "pure")
        return 0
    if command == "clean":
        for package in ENGINES:
            clean(package)
            _failed_marker(package).unlink(missing_ok=True)
        return 0
    if command == "build-one":  # one engine, in this process (``build`` runs one such process per engine)
        return build_one(argv[1])
    if command != "build":
        print("usage: python -m matches.kit.compiled [build|status|mode|clean]", file=sys.stderr)
        return 2
    strict = _flag(STRICT_ENV)
    reason = build_skipped()
    if reason:
        # Under ENGINES_BUILD_STRICT only a deliberate switch-off may leave the engines pure.
        failed = strict and not reason.startswith((COMPILE_ENV, PURE_ENV))
        kept = not pure and all(_state(package) == "current" for package in ENGINES)
        runs_as = "the build on disk, which matches the sources" if kept else "pure Python"
        print(
            f"engines: {reason}, no build; they run as {runs_as}", file=sys.stderr if failed else sys.stdout
        )
        return 1 if failed else 0
    stale = [package for package in ENGINES if _state(package) != "current"]
    for package in [p for p in stale if failed_before(p) and not strict]:
        stale.remove(package)
        print(
            f"engines: building {package} failed for these sources before (log: "
            f"{_log(package).relative_to(ROOT)}); it runs as pure Python (`python -m matches.kit.compiled "
            "clean` tries again)"
        )
    if not stale:
        return 0
    print(
        f"engines: compiling {', '.join(stale)} with mypyc (a few minutes, once per source change; "
        f"{COMPILE_ENV}=0 skips it)",
        flush=True,
    )
    # One process per engine, side by side: the two C compilations are independent and take most of the time.
    # Their output (mypyc's notes, the compiler's) goes to var/engines-build/<engine>.log.
    started = time.monotonic()
    runs: dict[str, subprocess.Popen[bytes]] = {}
    for package in stale:
        _log(package).parent.mkdir(parents=True, exist_ok=True)
        with _log(package).open("wb") as log:
            runs[package] = subprocess.Popen(
                [sys.executable, "-m", "matches.kit.compiled", "build-one", package],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
    outcomes = [report(p, run.wait(), strict) for p, run in runs.items()]
    print(f"engines: the build took {(time.monotonic() - started) / 60:.1f} minutes", flush=True)
    return 1 if any(outcomes) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
