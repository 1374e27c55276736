"""`make run`'s filesystem broker never hands a worker a message that is still being written.

kombu's own filesystem transport creates the message file under its final name before writing it; a
worker polling in between read it empty and its consumer died on the JSONDecodeError (seen
under bench/soak.py). The reader below runs at exactly that moment, in the middle of the writer's `_put`.
"""

from __future__ import annotations

import json
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from kombu import Connection

import config.celery  # noqa: F401 - registers the filesystem-atomic transport
from config import broker


def _connection(url: str, folder: Path) -> Connection:
    return Connection(url, transport_options={"data_folder_in": str(folder), "data_folder_out": str(folder)})


def _read_during_write(url: str, module: Any, folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Put one message; while it is being written, another channel tries to take it."""
    writer, reader = _connection(url, folder), _connection(url, folder)
    seen: list[Any] = []
    original = module.str_to_bytes

    def write_slowly(text: str) -> bytes:
        try:
            seen.append(reader.default_channel._get("q"))
        except Empty:
            seen.append("nothing yet")
        except json.JSONDecodeError as error:
            seen.append(error)
        return original(text)

    monkeypatch.setattr(module, "str_to_bytes", write_slowly)
    writer.default_channel._put("q", {"body": "hello"})
    monkeypatch.setattr(module, "str_to_bytes", original)
    try:
        seen.append(reader.default_channel._get("q"))  # after the write: the whole message
    except Empty:
        seen.append("lost")
    writer.release()
    reader.release()
    return seen


def test_kombu_s_own_transport_shows_the_half_written_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The defect this module exists for (if kombu fixes it, this test says so and the module can go)."""
    from kombu.transport import filesystem

    seen = _read_during_write("filesystem://", filesystem, tmp_path, monkeypatch)
    assert isinstance(seen[0], json.JSONDecodeError) and seen[1] == "lost"  # a crash, and a lost task


def test_a_message_is_taken_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _read_during_write("filesystem-atomic://", broker, tmp_path, monkeypatch)
    assert seen == ["nothing yet", {"body": "hello"}]
    assert list(tmp_path.iterdir()) == []  # nothing left behind, no partial file


def test_make_run_uses_the_atomic_transport() -> None:
    from django.conf import settings

    if settings.REDIS_URL:
        pytest.skip("REDIS_URL is set: the broker is Redis")
    assert settings.CELERY_BROKER_URL == "filesystem-atomic://"
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] <= 0.1
