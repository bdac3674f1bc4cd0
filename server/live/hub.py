"""Live fan-out: every change to a watched campaign's head, pushed to the sockets that watch it.

The hub listens to the process's heads repository
(:class:`~server.campaigns.repository.HeadRepository`), which tells it of every new version
exactly once and in order, whether it came from a commit made here (delivered with no store round
trip) or from another process through the store's change feed (one connection per process,
however many campaigns are watched). Watched heads are pinned in the repository, so
none is evicted while a socket needs its next version.

Each watcher gets one frame per change: an ``update`` with the new events as its seat may see
them, a JSON Patch from its previous view to the new one and its legal actions; the socket whose
action caused the change gets that same content as its ``accepted`` answer instead. Frames are
built once per seat and format, however many sockets share them.

Sockets that ask for it in their ``hello`` are also told who is connected (``presence``) each
time a socket joins or leaves, on this process or, through the feed, on another one
(:mod:`server.live.presence`).

Spectators of a campaign with a spectator delay take the same path, behind the table: such a
campaign has an *audience behind* (:class:`_Behind`) with the head its spectators were shown last.
One task per such campaign moves it on when the view (:mod:`server.live.spectators`) lets them
see more, woken by new moves and, for a delay in seconds, when the next move comes due; each move
on is sent by the same :meth:`Hub._send` as a live change, from the head shown before to
the one shown now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec

from projections.log import SeenEvent, seen
from projections.patch import diff
from server.campaigns.codec import Recorded
from server.campaigns.delay import delayed
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.head import Head
from server.campaigns.repository import CHECK_BATCH, HeadRepository
from server.live.frames import Frames
from server.live.outbox import Frame, Outbox
from server.live.presence import REFRESH_S, Roster, Seated, Sharing
from server.live.spectators import Spectators
from server.ops import logs
from server.protocol.messages import Accepted, Presence, Present, Sync, Update
from server.store.base import StoredEvent
from server.store.feed import ChangeFeed

log = logging.getLogger("tabletale.fanout")

AUDIT_PER_SECOND = 500
"""At most this many watched campaigns checked against the store a second by the audit: up to
2,500 watched campaigns are each checked every 5 s (the default period), 10,000 every 20 s."""


BEHIND_PAGE = 256
"""Spectators behind the table shown more new versions than this at once get one ``sync``."""

RETRY_S = 1.0
"""How long moving an audience behind on waits after a failure (a store outage)."""

RESYNC = "The campaign's stored history changed; this is the store's version of it."


def audit_period(every: float, watched: int) -> float:
    """Seconds between two checks of one watched campaign."""
    return max(every, watched / AUDIT_PER_SECOND)


class Watcher:
    """One socket's place in a campaign's fan-out."""

    __slots__ = (
        "behind",
        "campaign_id",
        "frames",
        "joined_ms",
        "name",
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
        self.joined_ms = wall_clock_ms()
        self.behind = False
        """Whether this socket watches behind the table (a delayed campaign's spectator)."""


class _Behind:
    """A delayed campaign's spectator sockets here, and the head they were shown last."""

    __slots__ = ("joining", "ready", "resync", "shown", "task", "wake", "watchers")

    def __init__(self) -> None:
        self.watchers: list[Watcher] = []
        self.joining = 0
        self.shown: Head | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.resync = False
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None


class Origin:
    """Passed with a socket's command, so its answer travels with the update it caused."""

    __slots__ = ("command_id", "watcher")

    def __init__(self, watcher: Watcher, command_id: str) -> None:
        self.watcher = watcher
        self.command_id = command_id


def seen_events(head: Head, recorded: Sequence[Recorded[Any]], seat: str | None) -> list[SeenEvent]:
    ended = head.outcome != "running"
    own_from = head.facts.own_from
    return [seen(head.game, item, seat, ended=ended, own_from=own_from) for item in recorded]


def sync_message(head: Head, seat: str | None, reason: str | None = None) -> Sync:
    return Sync(head.version, head.view(seat), head.choices(seat), head.outcome, reason)


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
        self._behind: dict[str, _Behind] = {}
        self._feed = feed
        self._pushed = pushed
        self._presence = Sharing(feed, self._here, self._tell, refresh_s=presence_refresh_s)
        self._watchers: dict[str, list[Watcher]] = {}
        # A campaign is in use from the moment a socket starts joining it: the feed keeps it
        # until the last socket has left and no join is under way.
        self._joining: dict[str, int] = {}
        self._watching: dict[str, asyncio.Future[None]] = {}
        self._unwatching: dict[str, asyncio.Future[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._follower: asyncio.Task[None] | None = None
        heads.listen(self)

    def start(self, *, audit_every: float = 0.0) -> None:
        """Begin following the store's change feed (once the event loop runs); with
        ``audit_every`` seconds, also check every watched head against the store that often."""
        self._follower = asyncio.create_task(
            self._feed.follow(self._deliver, self._resumed, self._shared)
        )
        self._presence.start(lambda: list(self._watchers))
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
        tasks += [behind.task for behind in self._behind.values() if behind.task is not None]
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
        self._joining[campaign_id] = self._joining.get(campaign_id, 0) + 1
        try:
            if creating is None:
                await self._watch(campaign_id)
                await self._heads.head(campaign_id)  # caught up once the feed covers what follows
            else:
                creation = asyncio.ensure_future(creating)
                try:
                    await self._watch(campaign_id)
                finally:
                    await creation  # done already, most often: then it costs no turn
                if self._heads.cached(campaign_id) is None:  # not the head it created
                    await self._heads.head(campaign_id)
        except BaseException:
            self._heads.unpin(campaign_id)
            self._joined(campaign_id)
            unwatching = self._unwatch_if_unused(campaign_id)
            if unwatching is not None:
                await asyncio.shield(unwatching)
            raise
        # No await from here on: the head read now is the one the next change starts from.
        self._joined(campaign_id)
        head = self._heads.cached(campaign_id)
        assert head is not None  # pinned
        watcher = Watcher(campaign_id, seat, frames, outbox, name=name, presence=presence)
        outbox.hold()
        self._watchers.setdefault(campaign_id, []).append(watcher)
        if seat is None and delayed(head.facts.attrs) and head.outcome == "running":
            try:
                head = await self._join_behind(watcher)
            except BaseException:
                outbox.release()
                await self.leave(watcher)
                raise
        return watcher, head

    async def _join_behind(self, watcher: Watcher) -> Head:
        """Add ``watcher`` to its campaign's audience behind the table; returns the head its
        welcome shows, which the first update it gets follows."""
        cid = watcher.campaign_id
        watcher.behind = True
        behind = self._behind.get(cid)
        if behind is None:
            behind = self._behind[cid] = _Behind()
            self.spectators.keep(cid)
            behind.task = asyncio.create_task(self._move_behind(cid, behind))
        behind.joining += 1
        try:
            await asyncio.shield(behind.ready)
        finally:
            behind.joining -= 1
        # No await from here on: the audience's next move on starts from ``shown``.
        assert behind.shown is not None
        behind.watchers.append(watcher)
        return behind.shown

    def showing(self, watcher: Watcher) -> Head | None:
        """The head ``watcher`` has been shown: the campaign's cached head, or for a socket
        behind the table, the head its audience was shown last."""
        if watcher.behind:
            behind = self._behind.get(watcher.campaign_id)
            return None if behind is None else behind.shown
        return self._heads.cached(watcher.campaign_id)

    def _joined(self, campaign_id: str) -> None:
        left = self._joining[campaign_id] - 1
        if left:
            self._joining[campaign_id] = left
        else:
            del self._joining[campaign_id]

    async def _watch(self, campaign_id: str) -> None:
        """Subscribe to the feed once per campaign; later joiners wait for the same answer."""
        watching = self._watching.get(campaign_id)
        if watching is None:
            watching = asyncio.ensure_future(
                self._subscribe(campaign_id, self._unwatching.get(campaign_id))
            )
            self._watching[campaign_id] = watching
        try:
            await asyncio.shield(watching)
        except BaseException:
            if self._watching.get(campaign_id) is watching and watching.done():
                del self._watching[campaign_id]
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
        watchers = self._watchers.get(campaign_id, [])
        if watcher not in watchers:
            return None
        watchers.remove(watcher)
        if not watchers:
            del self._watchers[campaign_id]
        if watcher.behind:
            self._leave_behind(watcher)
        self._heads.unpin(campaign_id)
        self._tell(campaign_id)
        self._presence.left(campaign_id, watched=campaign_id in self._watchers)
        return self._unwatch_if_unused(campaign_id)

    def _leave_behind(self, watcher: Watcher) -> None:
        cid = watcher.campaign_id
        behind = self._behind.get(cid)
        if behind is None:
            return
        if watcher in behind.watchers:
            behind.watchers.remove(watcher)
        if not behind.watchers and not behind.joining:
            self._stop_behind(cid, behind)

    def _stop_behind(self, cid: str, behind: _Behind) -> None:
        if self._behind.get(cid) is behind:
            del self._behind[cid]
            self.spectators.release(cid)
        if behind.task is not None:
            behind.task.cancel()

    # -- presence -------------------------------------------------------------------------

    def announce(self, campaign_id: str) -> None:
        """A socket has joined ``campaign_id`` here (its welcome is sent): tell the sockets that
        asked who is connected, and the other processes that watch it."""
        self._tell(campaign_id)
        self._presence.joined(campaign_id)

    def _here(self, campaign_id: str) -> Roster:
        watchers = self._watchers.get(campaign_id, [])
        seated = [Seated(w.seat, w.name, w.joined_ms) for w in watchers if w.seat is not None]
        return Roster(tuple(seated), sum(1 for w in watchers if w.seat is None))

    def _tell(self, campaign_id: str) -> None:
        """Tell the sockets here that asked who is connected to ``campaign_id`` now."""
        watchers = self._watchers.get(campaign_id, [])
        listeners = [watcher for watcher in watchers if watcher.presence]
        if not listeners:
            return
        everyone = self._presence.everyone(campaign_id)
        message = Presence([Present(s.seat, s.name) for s in everyone.seated], everyone.spectators)
        built: dict[Frames, Frame] = {}
        for watcher in listeners:
            frame = built.get(watcher.frames)
            if frame is None:
                frame = built[watcher.frames] = watcher.frames.encode(message)
            watcher.outbox.put(frame)

    def tell_seats(self, campaign_id: str, message: msgspec.Struct) -> None:
        """Send ``message``, which is not an event (a rewind proposal, a rewind's banner:
        :mod:`server.lineage.proposals`), to the seated sockets here that watch
        ``campaign_id``."""
        built: dict[Frames, Frame] = {}
        for watcher in self._watchers.get(campaign_id, []):
            if watcher.seat is None:
                continue
            frame = built.get(watcher.frames)
            if frame is None:
                frame = built[watcher.frames] = watcher.frames.encode(message)
            watcher.outbox.put(frame)

    async def _subscribe(self, campaign_id: str, leaving: asyncio.Future[None] | None) -> None:
        # After an unsubscription still under way, or it would undo this subscription.
        if leaving is not None:
            await leaving
        await self._feed.watch(campaign_id)

    def _unwatch_if_unused(self, campaign_id: str) -> asyncio.Future[None] | None:
        """Let go of ``campaign_id``'s feed when no socket here watches or joins it: the future
        that does it (a join that follows waits for it), or None."""
        if (
            campaign_id in self._watchers
            or campaign_id in self._joining
            or self._watching.pop(campaign_id, None) is None
        ):
            return None
        unwatching = asyncio.ensure_future(self._unsubscribe(campaign_id))
        self._unwatching[campaign_id] = unwatching
        self._background.add(unwatching)  # cancelled if the hub closes first
        unwatching.add_done_callback(self._background.discard)

        def done(_: asyncio.Future[None]) -> None:
            if self._unwatching.get(campaign_id) is unwatching:
                del self._unwatching[campaign_id]

        unwatching.add_done_callback(done)
        return unwatching

    async def _unsubscribe(self, campaign_id: str) -> None:
        try:
            await self._feed.unwatch(campaign_id)
        except Exception as error:  # an unsubscribe that fails leaves a harmless subscription
            log.warning("Could not stop watching %s: %s", campaign_id, error)

    # -- what the repository tells -------------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        cid = after.facts.id
        behind = self._behind.get(cid)
        if behind is not None:
            behind.wake.set()  # its spectators may see more now
        watchers = self._watchers.get(cid)
        if watchers:
            live = watchers if behind is None else [w for w in watchers if not w.behind]
            self._send(before, after, recorded, live, origin)

    def reset(self, head: Head) -> None:
        behind = self._behind.get(head.facts.id)
        if behind is not None:
            behind.resync = True
            behind.wake.set()
        live = [w for w in self._watchers.get(head.facts.id, []) if not w.behind]
        self._resync(head, live, RESYNC)

    def _send(
        self,
        before: Head,
        after: Head,
        recorded: Sequence[Recorded[Any]],
        watchers: Sequence[Watcher],
        origin: object = None,
    ) -> None:
        """Queue the change from ``before`` to ``after`` (the events ``recorded``) for each of
        ``watchers`` as its seat may see it: the one path a change takes to the sockets, live or
        behind the table. The socket whose action caused it (``origin``) gets it as its
        ``accepted`` answer instead; frames are built once per seat and format."""
        self._pushed(len(watchers))
        built: dict[tuple[str | None, Frames], Frame] = {}
        answering = origin.watcher if isinstance(origin, Origin) else None
        for watcher in watchers:
            seat = watcher.seat
            if watcher is answering:
                assert isinstance(origin, Origin)
                update = _update(before, after, recorded, seat)
                answer = Accepted(
                    origin.command_id,
                    update.first,
                    update.version,
                    False,
                    update.events,
                    update.patch,
                    update.legal_actions,
                    update.outcome,
                )
                watcher.outbox.put(watcher.frames.encode(answer))
                continue
            key = (seat, watcher.frames)
            frame = built.get(key)
            if frame is None:
                frame = built[key] = watcher.frames.encode(_update(before, after, recorded, seat))
            watcher.outbox.put(frame)

    def _resync(self, head: Head, watchers: Sequence[Watcher], reason: str | None) -> None:
        """Queue a ``sync`` to ``head`` for each of ``watchers``, built once per seat and format."""
        self._pushed(len(watchers))
        built: dict[tuple[str | None, Frames], Frame] = {}
        for watcher in watchers:
            key = (watcher.seat, watcher.frames)
            frame = built.get(key)
            if frame is None:
                frame = built[key] = watcher.frames.encode(sync_message(head, watcher.seat, reason))
            watcher.outbox.put(frame)

    # -- the audiences behind the table ---------------------------------------------------

    async def _move_behind(self, cid: str, behind: _Behind) -> None:
        """Show ``behind``'s spectators each version as the delay lets them see it, until the
        last of them leaves."""
        while True:
            behind.wake.clear()
            try:
                head = self._heads.cached(cid) or await self._heads.head(cid)
                shown = await self.spectators.head_for(head, None)
                if behind.shown is None:
                    behind.shown = shown
                    behind.ready.set_result(None)
                else:
                    await self._show_behind(cid, behind, shown)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not behind.ready.done():
                    # The sockets waiting for their welcome get the error; the next one to
                    # come starts a new audience.
                    behind.ready.set_exception(error)
                    if self._behind.get(cid) is behind:
                        del self._behind[cid]
                        self.spectators.release(cid)
                    return
                log.warning("Showing campaign %s to its spectators failed: %s", cid, error)
                await asyncio.sleep(RETRY_S)  # a store outage: try again a little later
                continue
            assert behind.shown is not None
            timeout = self.spectators.until_due(head, behind.shown)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(behind.wake.wait(), timeout)

    async def _show_behind(self, cid: str, behind: _Behind, shown: Head) -> None:
        """Deliver to ``behind``'s spectators what happened between what they were shown and
        ``shown``."""
        before = behind.shown
        assert before is not None
        if behind.resync or shown.version < before.version:
            behind.resync = False
            behind.shown = shown
            self._resync(shown, behind.watchers, RESYNC)
        elif shown.version - before.version > BEHIND_PAGE:
            behind.shown = shown
            self._resync(shown, behind.watchers, None)
        elif shown.version > before.version:
            recorded = await self._heads.events(cid, before.version, shown.version)
            behind.shown = shown
            self._send(before, shown, recorded, behind.watchers)

    def _shared(self, campaign_id: str, origin: str, data: bytes, ask: bool) -> None:
        if campaign_id in self._watchers:  # else joining (it asks once in) or gone
            self._presence.heard(campaign_id, origin, data, ask)

    # -- the change feed ------------------------------------------------------------------

    def _deliver(self, campaign_id: str, stored: list[StoredEvent]) -> None:
        pending = self._heads.changed(campaign_id, stored)
        if pending is not None:
            self._spawn(campaign_id, pending)

    async def _resumed(self) -> None:
        await self._heads.catch_up_pinned()
        self._presence.resumed(list(self._watchers))

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


def _update(
    before: Head, after: Head, recorded: Sequence[Recorded[Any]], seat: str | None
) -> Update:
    return Update(
        first=recorded[0].version,
        version=after.version,
        events=seen_events(after, recorded, seat),
        patch=diff(before.shown(seat), after.shown(seat)),
        legal_actions=after.choices(seat),
        outcome=after.outcome,
    )
