"""The audience behind the table: a delayed campaign's spectator sockets on this process, shown
the campaign as the spectator delay lets them see it (:mod:`server.campaigns.delay`).

An audience keeps the head its spectators were shown last. Its task moves them on when the view
(:mod:`server.live.spectators`) lets them see more, woken by new moves (:meth:`Audience.woken`)
and, for a delay in seconds, when the next move comes due; each move on goes out through the same
:class:`~server.live.fanout.Fanout` as a live change, from the head shown before to the one shown
now. The campaign's :class:`~server.live.table.Table` holds at most one audience, from its first
spectator's join to its last spectator's leave.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from server.campaigns.head import Head
from server.campaigns.repository import HeadRepository
from server.live.fanout import Fanout
from server.live.spectators import Spectators
from server.live.watcher import Watcher

log = logging.getLogger("tabletale.fanout")

BEHIND_PAGE = 256
"""Spectators behind the table shown more new versions than this at once get one ``sync``."""

RETRY_S = 1.0
"""How long moving an audience on waits after a failure (a store outage)."""

RESYNC = "The campaign's stored history changed; this is the store's version of it."


class Audience:
    """A delayed campaign's spectator sockets here, and the head they were shown last.

    ``failed(audience)`` is called when the audience could not show its first head: the sockets
    waiting for their welcome get the error, and the next spectator to come starts a new one.
    """

    __slots__ = (
        "_fanout",
        "_heads",
        "_resync",
        "_spectators",
        "_wake",
        "campaign_id",
        "failed",
        "joining",
        "ready",
        "shown",
        "task",
        "watchers",
    )

    def __init__(
        self,
        campaign_id: str,
        heads: HeadRepository,
        spectators: Spectators,
        fanout: Fanout,
        *,
        failed: Callable[[Audience], None],
    ) -> None:
        self.campaign_id = campaign_id
        self._heads = heads
        self._spectators = spectators
        self._fanout = fanout
        self.failed = failed
        self.watchers: list[Watcher] = []
        self.joining = 0
        self.shown: Head | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._resync = False
        self._wake = asyncio.Event()
        spectators.keep(campaign_id)
        self.task = asyncio.create_task(self._move_on())

    async def join(self, watcher: Watcher) -> Head:
        """Add ``watcher`` once the audience has its first head; returns the head its welcome
        shows, which the first update it gets follows."""
        self.joining += 1
        try:
            await asyncio.shield(self.ready)
        finally:
            self.joining -= 1
        # No await from here on: the audience's next move on starts from ``shown``.
        assert self.shown is not None
        self.watchers.append(watcher)
        return self.shown

    def leave(self, watcher: Watcher) -> bool:
        """Take ``watcher`` out; True once no socket watches or joins (time to :meth:`stop`)."""
        if watcher in self.watchers:
            self.watchers.remove(watcher)
        return not self.watchers and not self.joining

    def stop(self) -> None:
        self._spectators.release(self.campaign_id)
        if self.task is not asyncio.current_task():
            self.task.cancel()

    def woken(self, *, resync: bool = False) -> None:
        """The campaign moved (``resync``: its stored history changed): its spectators may see
        more now."""
        if resync:
            self._resync = True
        self._wake.set()

    async def _move_on(self) -> None:
        """Show the spectators each version as the delay lets them see it, until stopped."""
        cid = self.campaign_id
        heads = self._heads
        while True:
            self._wake.clear()
            try:
                head = heads.cached(cid) or await heads.head(cid)
                shown = await self._spectators.head_for(head, None)
                if self.shown is None:
                    self.shown = shown
                    self.ready.set_result(None)
                else:
                    await self._show(shown)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not self.ready.done():
                    self.ready.set_exception(error)
                    self.failed(self)
                    return
                log.warning("Showing campaign %s to its spectators failed: %s", cid, error)
                await asyncio.sleep(RETRY_S)  # a store outage: try again a little later
                continue
            assert self.shown is not None
            timeout = self._spectators.until_due(head, self.shown)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def _show(self, shown: Head) -> None:
        """Deliver what happened between what the spectators were shown and ``shown``."""
        before = self.shown
        assert before is not None
        if self._resync or shown.version < before.version:
            self._resync = False
            self.shown = shown
            self._fanout.resync(shown, self.watchers, RESYNC)
        elif shown.version - before.version > BEHIND_PAGE:
            self.shown = shown
            self._fanout.resync(shown, self.watchers, None)
        elif shown.version > before.version:
            recorded = await self._heads.events(self.campaign_id, before.version, shown.version)
            self.shown = shown
            self._fanout.send(before, shown, recorded, self.watchers)
