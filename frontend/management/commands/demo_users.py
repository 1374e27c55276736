"""Create the local demo accounts (a staff curator and a player) and print their credentials."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_ACCOUNTS = (("admin", True), ("player", False))


class Command(BaseCommand):
    help = "Create demo accounts 'admin' (staff) and 'player' once; print their credentials (kept in var/)."

    def handle(self, *args: Any, **options: Any) -> None:
        store = settings.VAR_DIR / "demo-credentials.json"
        known: dict[str, str] = json.loads(store.read_text()) if store.exists() else {}
        user_model = get_user_model()
        for username, staff in DEMO_ACCOUNTS:
            user = user_model.objects.filter(username=username).first()
            if user is None:
                password = secrets.token_urlsafe(9)
                user_model.objects.create_user(
                    username=username, password=password, is_staff=staff, is_superuser=staff
                )
                known[username] = password
            elif username not in known:
                known[username] = "(set before; reset with: python manage.py changepassword " + username + ")"
        store.write_text(json.dumps(known, indent=2))
        store.chmod(0o600)
        self.stdout.write("Demo accounts (local only):")
        for username, staff in DEMO_ACCOUNTS:
            role = "staff, Django admin at /admin/" if staff else "player"
            self.stdout.write(f"  {username:<7} password: {known[username]}   ({role})")
