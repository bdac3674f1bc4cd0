"""One socket's place in a campaign's fan-out."""

from __future__ import annotations

from server.campaigns.acting import socket_number
from server.campaigns.fresh import wall_clock_ms
from server.live.frames import Frames
from server.live.outbox import Outbox


class Watcher:
    """A socket watching a campaign: its seat (None for a spectator), its frames' format and its
    outbox. ``number`` is its own in this process: an action it sends names it
    (:class:`~server.campaigns.acting.Acting`), so that it gets the change as its answer."""

    __slots__ = (
        "behind",
        "campaign_id",
        "frames",
        "joined_ms",
        "name",
        "number",
        "outbox",
        "presence",
        "seat",
    )

    def __init__(
        self,
        campaign_id: str,
        seat: str | None,
        frames: Frames,
        outbox: Outbox,
        *,
        name: str | None = None,
        presence: bool = False,
    ) -> None:
        self.campaign_id = campaign_id
        self.seat = seat
        self.frames = frames
        self.outbox = outbox
        self.name = name
        self.presence = presence
        """Whether this socket is told who is connected."""
        self.number = socket_number()
        self.joined_ms = wall_clock_ms()
        self.behind = False
        """Whether this socket watches behind the table (a delayed campaign's spectator)."""
