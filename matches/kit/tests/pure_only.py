"""The skip for a test that cannot run against a compiled engine (docs/speed.md, "Tests both ways")."""

from __future__ import annotations

import pytest

from matches.kit.compiled import is_compiled


def pure_python_only(package: str) -> None:
    """Skip the calling test when ``package`` (an engine) runs compiled, and only then: a compiled class takes
    no interpreted subclass and no ``__class__`` swap, and compiled code calls engine functions and methods
    directly, so it never sees a function a test replaces. ``make test`` runs the engine suites a second time
    as pure Python (``ENGINES_PURE=1``), where such a test runs."""
    if is_compiled(package):
        pytest.skip("subclasses or replaces engine code: runs in the pure-Python pass (docs/speed.md)")
