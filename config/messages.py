"""Compile the translation catalogues (`make messages`): every locale/**/*.po under the apps and config.

With GNU gettext's msgfmt on the PATH (CI installs Debian's `gettext`), Django's `compilemessages` does it
and checks each file's placeholders (msgfmt --check-format). Without it, so that `make run` works on a
machine without gettext, polib writes the same `.mo` files. `.mo` files are build products (git-ignored).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("config", "cards", "decks", "matches", "boardgame", "frontend")


def po_files() -> list[Path]:
    """The project's catalogues (never the virtualenv's)."""
    # An app's own locale folder and those of packages inside it (the engines': matches/engine/locale).
    return sorted(path for app in APPS for path in (ROOT / app).rglob("locale/*/LC_MESSAGES/*.po"))


def compile_with_polib(paths: list[Path]) -> None:
    import polib

    for path in paths:
        catalogue = polib.pofile(str(path))
        catalogue.save_as_mofile(str(path.with_suffix(".mo")))


def main() -> int:
    paths = po_files()
    if not paths:
        print("messages: no catalogues to compile")
        return 0
    if shutil.which("msgfmt") and os.environ.get("MESSAGES_COMPILER", "") != "polib":
        # Compiling needs no secret: the development settings, whatever the environment says.
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev"}
        for app in APPS:  # one app at a time: compilemessages would also walk into .venv from the root
            if (ROOT / app / "locale").is_dir():
                subprocess.run(
                    [sys.executable, str(ROOT / "manage.py"), "compilemessages", "--verbosity", "0"],
                    cwd=ROOT / app,
                    env=env,
                    check=True,
                )
        print(f"messages: {len(paths)} catalogues compiled with msgfmt")
    else:
        compile_with_polib(paths)
        print(f"messages: {len(paths)} catalogues compiled with polib (GNU gettext's msgfmt not found)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
