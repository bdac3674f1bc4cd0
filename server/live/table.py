"""One watched campaign on this process: the sockets watching it, the joins under way, its feed
subscription, its audience behind the table and who is connected to it here.

The hub (:mod:`server.live.hub`) keeps one :class:`Table` per campaign in use and nothing else
per campaign. A table is *in use* from the moment a socket starts joining until the last socket
has left and no join is under way; the feed keeps the campaign while it is. A table that is not
in use stays in the hub only while its subscription is being let go of, so that a join that
follows waits for that first (:attr:`Table.unwatching`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from server.campaigns.head import Head
from server.campaigns.repository import HeadRepository
from server.live.audience import Audience
from server.live.builders import presence_message
from server.live.fanout import Fanout
from server.live.frames import Frames
from server.live.outbox import Frame
from server.live.presence import Roster, Seated
from server.live.spectators import Spectators
from server.live.watcher import Watcher


class Table:
    __slots__ = ("behind", "campaign_id", "joining", "unwatching", "watchers", "watching")

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        self.watchers: list[Watcher] = []
        self.joining = 0
        """Joins under way (each counted until it has its watcher, or has failed)."""
        self.watching: asyncio.Future[None] | None = None
        """The feed subscription (later joiners wait for the same answer), once asked for."""
        self.unwatching: asyncio.Future[None] | None = None
        """The unsubscription under way, if any: a new subscription waits for it, or it would
        undo that subscription."""
        self.behind: Audience | None = None
        """The audience behind the table: the spectators of a delayed campaign, if any here."""

    @property
    def in_use(self) -> bool:
        return bool(self.watchers) or self.joining > 0

    @property
    def idle(self) -> bool:
        """Not in use, with no subscription held or being let go of: the hub forgets it."""
        return not self.in_use and self.watching is None and self.unwatching is None

    def live(self) -> Sequence[Watcher]:
        """The watchers shown every change as it happens (all but the audience behind)."""
        if self.behind is None:
            return self.watchers
        return [watcher for watcher in self.watchers if not watcher.behind]

    def remove(self, watcher: Watcher) -> bool:
        """Take ``watcher`` out (and out of the audience behind); False if it was not here."""
        if watcher not in self.watchers:
            return False
        self.watchers.remove(watcher)
        if watcher.behind:
            self._leave_behind(watcher)
        return True

    # -- the audience behind the table ----------------------------------------------------

    async def join_behind(
        self, watcher: Watcher, heads: HeadRepository, spectators: Spectators, fanout: Fanout
    ) -> Head:
        """Add ``watcher`` (one of :attr:`watchers`) to the audience behind the table, starting
        one if there is none; returns the head its welcome shows."""
        watcher.behind = True
        audience = self.behind
        if audience is None:
            audience = Audience(
                self.campaign_id, heads, spectators, fanout, failed=self._lost_behind
            )
            self.behind = audience
        return await audience.join(watcher)

    def _leave_behind(self, watcher: Watcher) -> None:
        audience = self.behind
        if audience is not None and audience.leave(watcher):
            self._lost_behind(audience)

    def _lost_behind(self, audience: Audience) -> None:
        # Only the table's own audience: one that failed may have been followed by a new one.
        if self.behind is audience:
            self.behind = None
            audience.stop()

    # -- who is connected -----------------------------------------------------------------

    def roster(self) -> Roster:
        """This process's part of who is connected (:mod:`server.live.presence`)."""
        watchers = self.watchers
        seated = [Seated(w.seat, w.name, w.joined_ms) for w in watchers if w.seat is not None]
        return Roster(tuple(seated), sum(1 for w in watchers if w.seat is None))

    def tell(self, everyone: Callable[[], Roster]) -> None:
        """Tell the sockets here that asked who is connected (``everyone()``, over every
        process), one frame per format."""
        listeners = [watcher for watcher in self.watchers if watcher.presence]
        if not listeners:
            return
        message = presence_message(everyone())
        built: dict[Frames, Frame] = {}
        for watcher in listeners:
            frame = built.get(watcher.frames)
            if frame is None:
                frame = built[watcher.frames] = watcher.frames.encode(message)
            watcher.outbox.put(frame)
