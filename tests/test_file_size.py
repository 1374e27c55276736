"""No source file over 800 lines (docs/style.md, "As it grows"): a file that long holds several topics, and
is split by topic (a package with one module per topic), never by re-export layers. Tests and migrations
are exempt: a test file follows its subject, a migration is generated."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 800
EXEMPT_PARTS = {"tests", "migrations"}


def _tracked_sources() -> list[str]:
    """The repository's tracked Python files (from git, so untracked scratch files do not count)."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [p for p in out.split("\0") if p and not EXEMPT_PARTS & set(Path(p).parts)]


def _too_long(paths: list[str], root: Path = ROOT) -> dict[str, int]:
    found = {}
    for rel in paths:
        path = root / rel
        if path.exists():  # a file deleted in the work tree but not yet in the index
            count = len(path.read_text(encoding="utf-8").splitlines())
            if count > MAX_LINES:
                found[rel] = count
    return found


def test_no_source_file_is_over_800_lines() -> None:
    sources = _tracked_sources()
    assert "matches/services/submit.py" in sources  # the listing found the project's files
    assert not any("migrations" in p or p.startswith("tests/") for p in sources)
    assert _too_long(sources) == {}, f"split these by topic (at most {MAX_LINES} lines each)"


def test_the_size_check_sees_a_long_file(tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "full.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert _too_long(["long.py", "full.py"], tmp_path) == {"long.py": MAX_LINES + 1}
