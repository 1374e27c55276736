"""Seed a fresh database for the browser tests: sample cards, users alice/bob/carol, one legal deck each.

Run as `python -m tests.browser.seed_browser` with DJANGO_SETTINGS_MODULE and DATABASE_URL set.
"""

from __future__ import annotations

import django


def main() -> None:
    django.setup()
    from django.contrib.auth import get_user_model

    from matches.tests.commandeer_fixtures import legal_deck

    User = get_user_model()
    for name, faction in (("alice", "stonehold"), ("bob", "tidewardens"), ("carol", "cinder-legion")):
        user = User.objects.create_user(name, password=f"pw-{name}-123")
        legal_deck(user, faction)


if __name__ == "__main__":
    main()
