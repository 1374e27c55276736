"""Create a Commandeer match between alice (stonehold) and bob in a rigged position, for the match-log
browser tests; prints its id. Run with DJANGO_SETTINGS_MODULE and DATABASE_URL set, after seed_browser:

    python -m tests.browser.seed_match_log deploy            # alice to deploy Stonehide Ram next to bob's unit
    python -m tests.browser.seed_match_log timeout           # the same, no unit of alice's, a 5 s clock
    python -m tests.browser.seed_match_log forfeit           # alice has a unit, 2 timeouts already, a 5 s clock
    python -m tests.browser.seed_match_log trap              # alice has no unit (ending Planning loses, C-6.2), 10 min
    python -m tests.browser.seed_match_log setup             # just started: each player chooses a Commander (C-4.1)
    python -m tests.browser.seed_match_log waiting           # alice created it, bob joined, not started
"""

from __future__ import annotations

import sys

import django


def main(mode: str) -> None:
    django.setup()
    from django.contrib.auth import get_user_model

    from decks.models import Deck
    from matches.clocks import TIMEOUTS_TO_FORFEIT
    from matches.models import Match, Seat
    from matches.services.lobby import match_create, match_join, match_start
    from matches.tests.rigging import rig_deploying_position

    User = get_user_model()
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    deck_a = Deck.objects.filter(owner=alice, faction__slug="stonehold").first()
    deck_b = Deck.objects.filter(owner=bob).first()
    assert deck_a is not None and deck_b is not None
    clock = (
        {"initial_s": 600, "increment_s": 10} if mode in ("deploy", "trap", "setup") else {"per_move_s": 5}
    )
    match = match_create(user=alice, kind="commandeer", deck_id=deck_a.pk, time_control=clock)
    match_join(match_id=match.pk, user=bob, deck_id=deck_b.pk)
    if mode == "waiting":
        print(match.pk)
        return
    match_start(match_id=match.pk, user=alice)
    if mode == "setup":
        print(match.pk)
        return
    rig_deploying_position(Match.objects.get(pk=match.pk), own_unit=mode not in ("timeout", "trap"))
    if mode == "forfeit":
        Seat.objects.filter(match=match, position=0).update(consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1)
    print(match.pk)


if __name__ == "__main__":
    main(sys.argv[1])
