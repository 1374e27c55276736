"""kombu's filesystem transport (the broker of `make run` without Redis) with messages written atomically.

kombu's `filesystem` transport creates a message file under its final name, then writes it; a worker
polling the folder can take the file in between and read it empty, and the JSONDecodeError stops the
worker's consumer: the worker exits and `make run` with it. A 5-minute soak of 10 AI matches
(`bench/soak.py`) hit that after two minutes once the worker polled every 0.1 s. Here a message is
written under a name no reader picks up (`….msg.part`) and renamed into place, which is atomic.
Used as `filesystem-atomic://` (registered by config.celery).
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):  # type: ignore[misc]
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        """Write the message beside its final name, then rename it: a reader sees all of it or nothing."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"  # `_get` takes only names ending in ".<queue>.msg"
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):  # type: ignore[misc]
    Channel = Channel
