"""Without Redis (`make run` on a laptop) a change made in another process still reaches the page.

The in-memory channel layer cannot carry a Celery worker's broadcast to the web process, so the
consumer watches the match's version itself; here the broadcast is switched off to stand for that.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import override_settings

from matches import consumers
from matches.models import Match
from matches.services import notify
from matches.tests.test_consumer import _submit, _turn_user, connect

pytestmark = pytest.mark.django_db(transaction=True)

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@async_to_sync
async def _watch_a_change_whose_broadcast_never_arrives(started: Match, alice: Any, bob: Any) -> None:
    comm = await connect(started.pk, alice)
    assert (await comm.receive_json_from(timeout=5))["match"]["state_version"] == 0
    me = await sync_to_async(_turn_user)(started.pk, alice, bob)
    await sync_to_async(_submit)(started.pk, me, {"type": "add", "n": 2})
    update = await comm.receive_json_from(timeout=4 * consumers.LOCAL_POLL_SECONDS)
    assert update["match"]["state_version"] == 1
    assert "hand" in update["match"]["view"]
    assert await comm.receive_nothing(timeout=2 * consumers.LOCAL_POLL_SECONDS)  # no repeats
    await comm.disconnect()


def test_a_change_from_another_process_reaches_the_page_with_the_in_memory_layer(
    started: Match, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notify, "notify_match_changed", lambda match_id, version: None)
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        from channels.layers import channel_layers

        channel_layers.backends.clear()
        try:
            _watch_a_change_whose_broadcast_never_arrives(started, alice, bob)
        finally:
            channel_layers.backends.clear()
