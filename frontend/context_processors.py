"""Template context every page's header needs."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def turns_waiting(request: HttpRequest) -> dict[str, Any]:
    """`turns_waiting`: how many games wait for the signed-in user's move, so the header's "My games" badge
    is in the page's first paint (js/your_turn.js keeps it current after that). A callable: the one query
    runs only when a template reads it (base.html, once per page), never for an anonymous visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def count() -> int:
        from matches.my_games import waiting_match_ids

        return len(waiting_match_ids(user=user))

    return {"turns_waiting": count}
