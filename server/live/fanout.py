"""The one path a change takes to the sockets, live or behind the table: a frame per seat and
format, however many sockets share it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from server.campaigns.acting import Acting
from server.campaigns.codec import Recorded
from server.campaigns.head import Head
from server.live.builders import accepted, sync_message, update_message
from server.live.frames import Frames
from server.live.outbox import Frame
from server.live.watcher import Watcher


class Fanout:
    """Queues changes and syncs for watchers; ``pushed(n)`` counts the frames each queues (one
    per watching socket)."""

    __slots__ = ("_pushed",)

    def __init__(self, pushed: Callable[[int], None]) -> None:
        self._pushed = pushed

    def send(
        self,
        before: Head,
        after: Head,
        recorded: Sequence[Recorded[Any]],
        watchers: Sequence[Watcher],
        acting: Acting | None = None,
    ) -> None:
        """Queue the change from ``before`` to ``after`` (the events ``recorded``) for each of
        ``watchers`` as its seat may see it. The socket whose action caused it (``acting``)
        gets it as its ``accepted`` answer instead."""
        self._pushed(len(watchers))
        built: dict[tuple[str | None, Frames], Frame] = {}
        answering = None if acting is None else acting.socket
        for watcher in watchers:
            seat = watcher.seat
            if watcher.number == answering:
                assert acting is not None
                change = update_message(before, after, recorded, seat)
                watcher.outbox.put(watcher.frames.encode(accepted(acting.command_id, change)))
                continue
            key = (seat, watcher.frames)
            frame = built.get(key)
            if frame is None:
                update = update_message(before, after, recorded, seat)
                frame = built[key] = watcher.frames.encode(update)
            watcher.outbox.put(frame)

    def resync(self, head: Head, watchers: Sequence[Watcher], reason: str | None) -> None:
        """Queue a ``sync`` to ``head`` for each of ``watchers``, built once per seat and
        format."""
        self._pushed(len(watchers))
        built: dict[tuple[str | None, Frames], Frame] = {}
        for watcher in watchers:
            key = (watcher.seat, watcher.frames)
            frame = built.get(key)
            if frame is None:
                frame = built[key] = watcher.frames.encode(sync_message(head, watcher.seat, reason))
            watcher.outbox.put(frame)
