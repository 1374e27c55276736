"""Data for the card-art browser tests; run after seed_browser with DJANGO_SETTINGS_MODULE and DATABASE_URL:

python -m tests.browser.seed_card_art staff     # a staff user "curator" who may upload card art
python -m tests.browser.seed_card_art board     # a match between alice and bob with a crowded board; prints its id
"""

from __future__ import annotations

import sys
from typing import Any

import django

# Squares filled with units: alice's (seat 0, the first player) on ranks 1-3, bob's on ranks 4-6.
ALICE_SQUARES = ("a1", "b1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "e2", "f2")
BOB_SQUARES = ("a6", "b6", "c6", "d6", "e6", "f6", "a5", "b5", "c5", "e5", "f5", "b4")


def staff() -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("curator", password="pw-curator-123", is_staff=True)
    user.is_superuser = True  # the card admin's add/change permissions
    user.save()
    print(user.pk)


def board() -> None:
    """A match in alice's Planning phase with as many units of both decks on the board as they hold, each
    card at most twice: neighbours of one faction whose names share their first word (the labels must still
    tell them apart)."""
    from django.contrib.auth import get_user_model

    from decks.models import Deck
    from matches.games.registry import get_game
    from matches.models import Match
    from matches.services.lobby import match_create, match_join, match_start
    from matches.tests.rigging import rig_deploying_position

    User = get_user_model()
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    deck_a = Deck.objects.filter(owner=alice, faction__slug="stonehold").first()
    deck_b = Deck.objects.filter(owner=bob).first()
    assert deck_a is not None and deck_b is not None
    match = match_create(
        user=alice, kind="commandeer", deck_id=deck_a.pk, time_control={"initial_s": 3600, "increment_s": 10}
    )
    match_join(match_id=match.pk, user=bob, deck_id=deck_b.pk)
    match_start(match_id=match.pk, user=alice)
    match = rig_deploying_position(Match.objects.get(pk=match.pk), own_unit=True)
    game = get_game("commandeer")
    data = game.load(match.state).to_dict(log=False)
    cards = data["cards"]
    taken = {u["square"] for u in data["board"]}

    def fill(side: dict[str, Any], owner: int, squares: tuple[str, ...]) -> None:
        copies: dict[str, int] = {}
        free = [s for s in squares if s not in taken]
        for ref in list(side["deck"]):
            if not free:
                return
            facts = cards[ref["card"]]
            if facts["type"] != "unit" or copies.get(ref["card"], 0) >= 2:
                continue
            copies[ref["card"]] = copies.get(ref["card"], 0) + 1
            side["deck"].remove(ref)
            data["board"].append({"square": free.pop(0), **ref, "owner": owner})

    fill(data["players"][0], 0, ALICE_SQUARES)
    fill(data["players"][1], 1, BOB_SQUARES)
    data["units_deployed"] = len(data["board"])
    snapshot = game.dump(game.load(data))
    Match.objects.filter(pk=match.pk).update(state=snapshot, state_base=snapshot)
    print(match.pk)


if __name__ == "__main__":
    django.setup()
    {"staff": staff, "board": board}[sys.argv[1]]()
