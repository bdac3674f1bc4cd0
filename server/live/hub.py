"""Live fan-out: every change to a watched campaign's head, pushed to the sockets that watch it.

The hub listens to the process's heads repository
(:class:`~server.campaigns.repository.HeadRepository`), which tells it of every new version
exactly once and in order, whether it came from a commit made here (delivered with no store round
trip) or from another process through the store's change feed (one connection per process,
however many campaigns are watched). Watched heads are pinned in the repository, so
none is evicted while a socket needs its next version.

The hub keeps one :class:`~server.live.table.Table` per campaign in use here, and nothing else
per campaign: its watchers, its joins, its feed subscription, its audience behind the table and
who is connected to it.

Each watcher gets one frame per change (:class:`~server.live.fanout.Fanout`): an ``update`` with
the new events as its seat may see them, a JSON Patch from its previous view to the new one and
its legal actions; the socket whose action caused the change
(:class:`~server.campaigns.acting.Acting`) gets that same content as its ``accepted`` answer
instead. Frames are built once per seat and format, however many sockets share them.

Sockets that ask for it in their ``hello`` are also told who is connected (``presence``) each
time a socket joins or leaves, on this process or, through the feed, on another one
(:mod:`server.live.presence`).

Spectators of a campaign with a spectator delay take the same path, behind the table
(:mod:`server.live.audience`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec

from server.campaigns.acting import Acting
from server.campaigns.codec import Recorded
from server.campaigns.delay import delayed
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.head import Head
from server.campaigns.repository import CHECK_BATCH, HeadRepository
from server.live.audience import RESYNC
from server.live.fanout import Fanout
from server.live.frames import Frames
from server.live.outbox import Frame, Outbox
from server.live.presence import REFRESH_S, Roster, Sharing
from server.live.spectators import Spectators
from server.live.table import Table
from server.live.watcher import Watcher
from server.ops import logs
from server.store.base import StoredEvent
from server.store.feed import ChangeFeed

log = logging.getLogger("tabletale.fanout")

AUDIT_PER_SECOND = 500
"""At most this many watched campaigns checked against the store a second by the audit: up to
2,500 watched campaigns are each checked every 5 s (the default period), 10,000 every 20 s."""


def audit_period(every: float, watched: int) -> float:
    """Seconds between two checks of one watched campaign."""
    return max(every, watched / AUDIT_PER_SECOND)


class Hub:
    def __init__(
        self,
        heads: HeadRepository,
        feed: ChangeFeed,
        *,
        spectators: Spectators | None = None,
        pushed: Callable[[int], None] = lambda frames: None,
        presence_refresh_s: float = REFRESH_S,
    ) -> None:
        """``spectators``: the spectator delay's view of ``heads`` (a new one on the wall clock
        by default); ``pushed(n)`` counts the frames each change queues (one per watching
        socket); ``presence_refresh_s``: see :mod:`server.live.presence`."""
        self._heads = heads
        self.spectators = spectators or Spectators(heads, clock=wall_clock_ms)
        self._feed = feed
        self._fanout = Fanout(pushed)
        self._presence = Sharing(feed, self._here, self._tell, refresh_s=presence_refresh_s)
        self._tables: dict[str, Table] = {}
        """The one map by campaign: every campaign in use here, or being let go of."""
        self._background: set[asyncio.Task[None]] = set()
        self._follower: asyncio.Task[None] | None = None
        heads.listen(self)

    def table(self, campaign_id: str) -> Table | None:
        """``campaign_id``'s table here, if it is in use (or being let go of)."""
        return self._tables.get(campaign_id)

    def _watched(self) -> list[str]:
        """The campaigns some socket here watches."""
        return [cid for cid, table in self._tables.items() if table.watchers]

    def start(self, *, audit_every: float = 0.0) -> None:
        """Begin following the store's change feed (once the event loop runs); with
        ``audit_every`` seconds, also check every watched head against the store that often."""
        self._follower = asyncio.create_task(
            self._feed.follow(self._deliver, self._resumed, self._shared)
        )
        self._presence.start(self._watched)
        if audit_every > 0:
            auditing = asyncio.create_task(self._audit(audit_every))
            self._background.add(auditing)
            auditing.add_done_callback(self._background.discard)

    async def _audit(self, every: float) -> None:
        """A store whose history moved back under a quiet campaign (a Redis restored from an
        older append-only file while nobody acted) tells no process; this check finds it, and
        the repository resynchronises the campaign's sockets.

        Every watched campaign is checked once a period: ``every`` seconds, or longer where
        that would take more than :data:`AUDIT_PER_SECOND` checks a second. The checks are
        spread over the period a batch at a time, so a process watching ten thousand quiet
        campaigns neither spends a share of a core on them nor stalls its players in a burst.
        """
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            pinned = self._heads.pinned()
            period = audit_period(every, len(pinned))
            for start in range(0, len(pinned), CHECK_BATCH):
                try:
                    await self._heads.check(pinned[start : start + CHECK_BATCH])
                except Exception as error:
                    log.warning("Checking watched campaigns against the store failed: %s", error)
                due = started + period * min(1.0, (start + CHECK_BATCH) / len(pinned))
                await asyncio.sleep(max(0.0, due - loop.time()))  # pacing the checks
            await asyncio.sleep(max(0.0, started + period - loop.time()))  # the audit's period

    async def close(self) -> None:
        tasks = list(self._background)
        if self._follower is not None:
            tasks.append(self._follower)
        tasks += [t.behind.task for t in self._tables.values() if t.behind is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._presence.close()
        await self._feed.close()

    # -- joining and leaving --------------------------------------------------------------

    async def join(
        self,
        campaign_id: str,
        seat: str | None,
        frames: Frames,
        outbox: Outbox,
        *,
        name: str | None = None,
        presence: bool = False,
        creating: Awaitable[object] | None = None,
    ) -> tuple[Watcher, Head]:
        """Start pushing ``campaign_id``'s changes to ``outbox`` (held until the caller releases
        it with its welcome); returns the head the first pushed change will follow.

        ``creating``: the creation of ``campaign_id`` by this process, run while the feed is
        watched. Nobody holds its tokens before both are done, so nobody else can append to it
        before the feed hears it: its head as created here (with what the feed brings after) is
        current, and the read that catches a watched head up is left out.
        """
        self._heads.pin(campaign_id)
        table = self._tables.get(campaign_id)
        if table is None:
            table = self._tables[campaign_id] = Table(campaign_id)
        table.joining += 1
        try:
            await self._follow(table, creating)
        except BaseException:
            self._heads.unpin(campaign_id)
            table.joining -= 1
            unwatching = self._unwatch_if_unused(table)
            if unwatching is not None:
                await asyncio.shield(unwatching)
            raise
        # No await from here on: the head read now is the one the next change starts from.
        table.joining -= 1
        head = self._heads.cached(campaign_id)
        assert head is not None  # pinned
        watcher = Watcher(campaign_id, seat, frames, outbox, name=name, presence=presence)
        outbox.hold()
        table.watchers.append(watcher)
        if seat is None and delayed(head.facts.attrs) and head.outcome == "running":
            try:
                head = await table.join_behind(watcher, self._heads, self.spectators, self._fanout)
            except BaseException:
                outbox.release()
                await self.leave(watcher)
                raise
        return watcher, head

    async def _follow(self, table: Table, creating: Awaitable[object] | None) -> None:
        """Watch the table's feed and have its head caught up with what the feed does not
        cover (see :meth:`join`)."""
        campaign_id = table.campaign_id
        if creating is None:
            await self._watch(table)
            await self._heads.head(campaign_id)  # caught up once the feed covers what follows
            return
        creation = asyncio.ensure_future(creating)
        try:
            await self._watch(table)
        finally:
            await creation  # done already, most often: then it costs no turn
        if self._heads.cached(campaign_id) is None:  # not the head it created
            await self._heads.head(campaign_id)

    def showing(self, watcher: Watcher) -> Head | None:
        """The head ``watcher`` has been shown: the campaign's cached head, or for a socket
        behind the table, the head its audience was shown last."""
        if watcher.behind:
            table = self._tables.get(watcher.campaign_id)
            behind = None if table is None else table.behind
            return None if behind is None else behind.shown
        return self._heads.cached(watcher.campaign_id)

    async def _watch(self, table: Table) -> None:
        """Subscribe to the feed once per campaign; later joiners wait for the same answer."""
        watching = table.watching
        if watching is None:
            watching = asyncio.ensure_future(self._subscribe(table.campaign_id, table.unwatching))
            table.watching = watching
        try:
            await asyncio.shield(watching)
        except BaseException:
            if table.watching is watching and watching.done():
                table.watching = None
            raise

    async def leave(self, watcher: Watcher) -> None:
        """Stop pushing to ``watcher``, and wait until its campaign's feed is let go of when no
        other socket here watches it."""
        unwatching = self.drop(watcher)
        if unwatching is not None:
            await asyncio.shield(unwatching)

    def drop(self, watcher: Watcher) -> asyncio.Future[None] | None:
        """Stop pushing to ``watcher`` now (nothing more is queued for it once this returns);
        the campaign's feed is let go of in the background when no other socket here watches
        it (the future that does it, if any)."""
        campaign_id = watcher.campaign_id
        table = self._tables.get(campaign_id)
        if table is None or not table.remove(watcher):
            return None
        self._heads.unpin(campaign_id)
        table.tell(lambda: self._presence.everyone(campaign_id))
        self._presence.left(campaign_id, watched=bool(table.watchers))
        return self._unwatch_if_unused(table)

    async def _subscribe(self, campaign_id: str, leaving: asyncio.Future[None] | None) -> None:
        # After an unsubscription still under way, or it would undo this subscription.
        if leaving is not None:
            await leaving
        await self._feed.watch(campaign_id)

    def _unwatch_if_unused(self, table: Table) -> asyncio.Future[None] | None:
        """Let go of the table's feed when no socket here watches or joins it: the future that
        does it (a join that follows waits for it), or None. A table left idle is forgotten."""
        if table.in_use or table.watching is None:
            self._forget_if_idle(table)
            return None
        table.watching = None
        campaign_id = table.campaign_id
        unwatching = asyncio.ensure_future(self._unsubscribe(campaign_id))
        table.unwatching = unwatching
        self._background.add(unwatching)  # cancelled if the hub closes first
        unwatching.add_done_callback(self._background.discard)

        def done(_: asyncio.Future[None]) -> None:
            if table.unwatching is unwatching:
                table.unwatching = None
            self._forget_if_idle(table)

        unwatching.add_done_callback(done)
        return unwatching

    def _forget_if_idle(self, table: Table) -> None:
        if table.idle and self._tables.get(table.campaign_id) is table:
            del self._tables[table.campaign_id]

    async def _unsubscribe(self, campaign_id: str) -> None:
        try:
            await self._feed.unwatch(campaign_id)
        except Exception as error:  # an unsubscribe that fails leaves a harmless subscription
            log.warning("Could not stop watching %s: %s", campaign_id, error)

    # -- presence -------------------------------------------------------------------------

    def announce(self, campaign_id: str) -> None:
        """A socket has joined ``campaign_id`` here (its welcome is sent): tell the sockets that
        asked who is connected, and the other processes that watch it."""
        self._tell(campaign_id)
        self._presence.joined(campaign_id)

    def _here(self, campaign_id: str) -> Roster:
        table = self._tables.get(campaign_id)
        return Roster() if table is None else table.roster()

    def _tell(self, campaign_id: str) -> None:
        """Tell the sockets here that asked who is connected to ``campaign_id`` now."""
        table = self._tables.get(campaign_id)
        if table is not None:
            table.tell(lambda: self._presence.everyone(campaign_id))

    def _shared(self, campaign_id: str, origin: str, data: bytes, ask: bool) -> None:
        table = self._tables.get(campaign_id)
        if table is not None and table.watchers:  # else joining (it asks once in) or gone
            self._presence.heard(campaign_id, origin, data, ask)

    def tell_seats(self, campaign_id: str, message: msgspec.Struct) -> None:
        """Send ``message``, which is not an event (a rewind proposal, a rewind's banner:
        :mod:`server.lineage.proposals`), to the seated sockets here that watch
        ``campaign_id``."""
        table = self._tables.get(campaign_id)
        if table is None:
            return
        built: dict[Frames, Frame] = {}
        for watcher in table.watchers:
            if watcher.seat is None:
                continue
            frame = built.get(watcher.frames)
            if frame is None:
                frame = built[watcher.frames] = watcher.frames.encode(message)
            watcher.outbox.put(frame)

    # -- what the repository tells -------------------------------------------------------

    def advanced(
        self,
        before: Head,
        after: Head,
        recorded: Sequence[Recorded[Any]],
        origin: Acting | None,
    ) -> None:
        table = self._tables.get(after.facts.id)
        if table is None:
            return
        if table.behind is not None:
            table.behind.woken()  # its spectators may see more now
        if table.watchers:
            self._fanout.send(before, after, recorded, table.live(), origin)

    def reset(self, head: Head) -> None:
        table = self._tables.get(head.facts.id)
        if table is None:
            return
        if table.behind is not None:
            table.behind.woken(resync=True)
        self._fanout.resync(head, table.live(), RESYNC)

    # -- the change feed ------------------------------------------------------------------

    def _deliver(self, campaign_id: str, stored: list[StoredEvent]) -> None:
        pending = self._heads.changed(campaign_id, stored)
        if pending is not None:
            self._spawn(campaign_id, pending)

    async def _resumed(self) -> None:
        await self._heads.catch_up_pinned()
        self._presence.resumed(self._watched())

    def _spawn(self, campaign_id: str, work: Awaitable[None]) -> None:
        async def run() -> None:
            logs.campaign_id.set(campaign_id)  # in this task's own context
            try:
                await work
            except Exception as error:
                log.warning("Catching a watched campaign up failed: %s", error)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
