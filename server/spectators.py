"""What a spectator may see of a campaign that has a spectator delay (:mod:`server.delay`).

:meth:`Spectators.head_for` is the one place every spectator channel asks: the play and replay
sockets, the state, events and timeline reads, the catalog and forks. It answers the campaign's
head as the viewer may see it: the head itself for a seat holder, for a campaign without a delay
and for one that has ended; otherwise the head at the delayed version (a :class:`Head` of its
own, cached and carried forward as the delayed version moves).

To apply the rule it keeps, per delayed campaign, the newest moves and their times (a *tail*),
extended from the events the repository applies (it listens to it) and read back from the store
only as far as the rule needs.

Spectator sockets of a delayed campaign are not served by the live fan-out: each such campaign
has one :class:`_Release` task that sends them the delayed versions as they come due, woken by
new moves and, with a delay in seconds, by its own timer when the next move comes due.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import msgspec

from projections.catalog import CatalogEntry, catalog_entry
from projections.patch import diff
from server.codec import Recorded
from server.delay import (
    Move,
    SpectatorDelay,
    Tail,
    delay_of,
    delayed,
    next_due_ms,
    visible_version,
)
from server.errors import ApiError
from server.fanout import Watcher, seen_events
from server.head import Head
from server.heads import HeadRepository
from server.lineage_messages import BranchOut, CompareOut, ParentOut, RewindOut
from server.lineage_tree import Node
from server.messages import Sync, Update
from server.store.base import CampaignInfo
from server.ws.frames import Frames
from server.ws.outbox import Frame

log = logging.getLogger("tabletale.spectators")

FIRST_LOOK = 256
"""Events read back from the head at first, doubled each time the rule needs older moves."""

RELEASE_PAGE = 256
"""A release of more versions than this is sent as one ``sync`` rather than an update."""

RETRY_S = 1.0
"""How long a release that failed (a store outage) waits before it tries again."""

WAKE_LATE_MS = 5
"""A timer wakes this much after a move comes due, so that the move is due when it looks."""


def not_visible(version: int, shown: int) -> ApiError:
    return ApiError(
        "not_visible_yet",
        f"Spectators see this campaign behind the table, up to version {shown} for now; "
        f"version {version} is not visible yet.",
    )


def floor_of(head: Head) -> int:
    """The version a campaign's own play starts from: always visible to its spectators."""
    return max(head.facts.origin, head.facts.fork_version)


class _Release:
    """One delayed campaign's spectator sockets, and what they have been shown."""

    __slots__ = ("campaign_id", "joining", "ready", "resync", "shown", "task", "wake", "watchers")

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        self.watchers: list[Watcher] = []
        self.joining = 0
        self.shown: Head | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.resync = False
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None


class Spectators:
    def __init__(
        self, heads: HeadRepository, *, clock: Callable[[], int], capacity: int = 1024
    ) -> None:
        self._heads = heads
        self._clock = clock
        self._capacity = capacity
        self._tails: OrderedDict[str, Tail] = OrderedDict()
        self._releases: dict[str, _Release] = {}
        heads.listen(self)

    # -- the rule, for every channel ------------------------------------------------------

    async def head_for(self, head: Head, seat: str | None) -> Head:
        """``head`` as the viewer in ``seat`` (None: a spectator) may see it now."""
        delay = delay_of(head.facts.attrs)
        if seat is not None or delay is None or head.outcome != "running":
            return head
        tail = await self._tail(head)
        version = await self._visible(head, tail, delay)
        shown = tail.shown
        if shown is not None and shown.version == version:
            return shown
        if shown is not None and shown.version < version:
            async for steps in self._heads.walk(head.facts.id, shown.version, version, shown.state):
                last, state = steps[-1]
                shown = shown.advanced(last.version, state, last.hash)
        else:
            shown = await self._heads.history.rebuild(head.facts, version)
        tail.shown = shown
        return shown

    async def visible(self, head: Head, seat: str | None, version: int) -> None:
        """Refuse ``version`` (``not_visible_yet``) unless the viewer in ``seat`` may see it
        now in the campaign at ``head`` (its live head)."""
        shown = await self.head_for(head, seat)
        if shown is not head and version > shown.version:
            raise not_visible(version, shown.version)

    async def entries(
        self, infos: Sequence[CampaignInfo], entries: Iterable[CatalogEntry]
    ) -> list[CatalogEntry]:
        """Catalog ``entries`` (of the campaigns ``infos`` describe) as a spectator may know
        them: a delayed running campaign's version, outcome, progress and update time are
        those of its delayed version."""
        attrs = {info.id: info.attrs for info in infos}
        seen: list[CatalogEntry] = []
        for entry in entries:
            if entry.status != "running" or delay_of(attrs.get(entry.id, {})) is None:
                seen.append(entry)
                continue
            head = await self._heads.head(entry.id)
            shown = await self.head_for(head, None)
            if shown is head:
                seen.append(entry)
                continue
            appended = await self._heads.events(entry.id, shown.version - 1, shown.version)
            seen.append(
                catalog_entry(
                    shown.game,
                    shown.state,
                    campaign_id=entry.id,
                    version=shown.version,
                    created_ms=entry.created_ms,
                    updated_ms=appended[0].at_ms if appended else entry.created_ms,
                    parent=entry.parent,
                    fork_version=entry.fork_version,
                    known_luck=entry.known_luck,
                )
            )
        return seen

    async def delayed_version(
        self, campaign_id: str, seat_in: Callable[[Mapping[str, str]], str | None]
    ) -> int | None:
        """The version a viewer (whose seats ``seat_in`` names) may see of a campaign, when
        that is not its head; None when it sees the head."""
        head = await self._heads.current(campaign_id)
        if not delayed(head.facts.attrs):
            return None
        head = await self._heads.head(campaign_id)
        seen = await self.head_for(head, seat_in(head.facts.attrs))
        return None if seen is head else seen.version

    async def compare(
        self, compared: CompareOut, seat_in: Callable[[Mapping[str, str]], str | None]
    ) -> CompareOut:
        """Where two campaigns part, as far as the viewer may see each of them."""
        a_head = await self.delayed_version(compared.a, seat_in) or compared.a_head
        b_head = await self.delayed_version(compared.b, seat_in) or compared.b_head
        common = min(compared.common, a_head, b_head)
        return CompareOut(compared.a, compared.b, common, a_head, b_head)

    async def lineage(
        self,
        family: Sequence[tuple[Node, bool]],
        page: Sequence[tuple[Node, bool]],
        branches: list[BranchOut],
        seat_in: Callable[[Mapping[str, str]], str | None],
    ) -> list[BranchOut]:
        """A page of a lineage (``branches``, described from ``page``, out of the whole
        ``family``) as a viewer whose seats ``seat_in`` names may see it: a delayed running
        campaign's current line ends at its delayed version, with the rewinds up to it; a
        stretch undone by a rewind past it is still part of that line, as the spectator knows
        it, so it is not listed and what forked from it hangs from the line."""
        visible: dict[str, int] = {}
        for node, shown in family:
            info = node.member.info
            if shown and info.id not in visible:
                found = await self.delayed_version(info.id, seat_in)
                if found is not None:
                    visible[info.id] = found
        if not visible:
            return branches
        hidden: dict[str, list[tuple[int, int]]] = {}  # campaign -> spans of unknown rewinds
        hidden_ids: set[str] = set()
        for node, _ in family:
            cid, undone = node.member.info.id, node.undone_by
            if cid in visible and undone is not None and undone.at > visible[cid]:
                hidden.setdefault(cid, []).extend(node.spans)
                hidden_ids.add(node.id)
        out: list[BranchOut] = []
        for (node, _), branch in zip(page, branches, strict=True):
            if node.id in hidden_ids:
                continue
            parent = branch.parent
            if isinstance(parent, ParentOut) and parent.branch in hidden_ids:
                branch = msgspec.structs.replace(
                    branch, parent=ParentOut(parent.campaign, parent.campaign, parent.version)
                )
            last = visible.get(node.member.info.id)
            if last is not None and node.undone_by is None:
                spans = [*node.spans, *hidden.get(node.member.info.id, [])]
                branch = msgspec.structs.replace(
                    branch,
                    last=last,
                    moves=sum(max(0, min(end, last) - start + 1) for start, end in spans),
                    rewinds=[RewindOut(r.at, r.to) for r in node.rewinds if r.at <= last],
                )
            out.append(branch)
        return out

    async def _tail(self, head: Head) -> Tail:
        """The campaign's tail, caught up with ``head``."""
        cid = head.facts.id
        tail = self._tails.get(cid)
        # A tail ahead of ``head`` was caught up by a newer read; a store whose history moved
        # back drops it (``reset``).
        if tail is None:
            tail = Tail(head.version)
            self._tails[cid] = tail
            while len(self._tails) > self._capacity:
                oldest = next(iter(self._tails))
                if oldest in self._releases:  # a watched campaign's timer needs its tail
                    self._tails.move_to_end(oldest)
                    break
                del self._tails[oldest]
        self._tails.move_to_end(cid)
        if tail.head_version < head.version:
            tail.add(await self._heads.events(cid, tail.head_version, head.version), floor_of(head))
        return tail

    async def _visible(self, head: Head, tail: Tail, delay: SpectatorDelay) -> int:
        floor = floor_of(head)
        look = FIRST_LOOK
        while True:
            version = visible_version(delay, tail.moves, floor=floor, now_ms=self._clock())
            if version is not None:
                tail.trim(delay, version)
                return version
            # Older moves are needed: read a window before the ones known, up to the floor.
            after = max(floor - 1, tail.start - look)
            recorded = await self._heads.events(head.facts.id, after, tail.start)
            older = [Move(r.version, r.at_ms) for r in recorded if r.settled or r.version == floor]
            tail.moves[:0] = [
                m for m in older if not tail.moves or m.version < tail.moves[0].version
            ]
            tail.start = after
            look *= 2

    # -- what the repository tells --------------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        cid = after.facts.id
        tail = self._tails.get(cid)
        if tail is not None:
            if tail.head_version == before.version:
                tail.add(recorded, floor_of(after))
            else:
                del self._tails[cid]
        release = self._releases.get(cid)
        if release is not None:
            release.wake.set()

    def reset(self, head: Head) -> None:
        cid = head.facts.id
        self._tails.pop(cid, None)
        release = self._releases.get(cid)
        if release is not None:
            release.resync = True
            release.wake.set()

    # -- spectator sockets ----------------------------------------------------------------

    async def watch(self, watcher: Watcher) -> Head:
        """Send ``watcher`` (a spectator of a delayed campaign, its outbox held) the delayed
        versions as they come due; returns the head its welcome shows, which the first of them
        follows."""
        cid = watcher.campaign_id
        release = self._releases.get(cid)
        if release is None:
            release = self._releases[cid] = _Release(cid)
            release.task = asyncio.create_task(self._run(release))
        release.joining += 1
        try:
            await asyncio.shield(release.ready)
        finally:
            release.joining -= 1
        # No await from here on: the release sends what follows ``shown`` to every watcher.
        assert release.shown is not None
        release.watchers.append(watcher)
        return release.shown

    def showing(self, watcher: Watcher) -> Head | None:
        """What ``watcher`` has been shown, when it is a delayed campaign's spectator."""
        release = self._releases.get(watcher.campaign_id)
        if release is None or watcher not in release.watchers:
            return None
        return release.shown

    def unwatch(self, watcher: Watcher) -> None:
        cid = watcher.campaign_id
        release = self._releases.get(cid)
        if release is None:
            return
        if watcher in release.watchers:
            release.watchers.remove(watcher)
        if not release.watchers and not release.joining:
            self._stop(release)

    def _stop(self, release: _Release) -> None:
        if self._releases.get(release.campaign_id) is release:
            del self._releases[release.campaign_id]
        if release.task is not None:
            release.task.cancel()

    async def _run(self, release: _Release) -> None:
        cid = release.campaign_id
        while True:
            release.wake.clear()
            try:
                head = self._heads.cached(cid) or await self._heads.head(cid)
                shown = await self.head_for(head, None)
                if release.shown is None:
                    release.shown = shown
                    release.ready.set_result(None)
                else:
                    await self._release(release, shown)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not release.ready.done():
                    # The watchers waiting for their welcome get the error; the next one to
                    # come starts a new release.
                    release.ready.set_exception(error)
                    if self._releases.get(cid) is release:
                        del self._releases[cid]
                    return
                log.warning("Releasing campaign %s to its spectators failed: %s", cid, error)
                await asyncio.sleep(RETRY_S)  # a store outage: try again a little later
                continue
            timeout = self._until_due(head, release.shown)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(release.wake.wait(), timeout)

    def _until_due(self, head: Head, shown: Head) -> float | None:
        """Seconds until the next move after ``shown`` comes due (None: with the next move)."""
        delay = delay_of(head.facts.attrs)
        tail = self._tails.get(head.facts.id)
        if delay is None or tail is None or shown.outcome != "running":
            return None
        due = next_due_ms(delay, tail.moves, shown.version)
        if due is None:
            return None
        return max(0, due - self._clock() + WAKE_LATE_MS) / 1000

    async def _release(self, release: _Release, shown: Head) -> None:
        """Send the watchers what happened between what they were shown and ``shown``."""
        before = release.shown
        assert before is not None
        message: Update | Sync
        if release.resync or shown.version < before.version:
            release.resync = False
            reason = "The campaign's stored history changed; this is the store's version of it."
            message = Sync(shown.version, shown.view(None), [], shown.outcome, reason)
        elif shown.version == before.version:
            return
        elif shown.version - before.version > RELEASE_PAGE:
            message = Sync(shown.version, shown.view(None), [], shown.outcome)
        else:
            recorded = await self._heads.events(release.campaign_id, before.version, shown.version)
            message = Update(
                first=before.version + 1,
                version=shown.version,
                events=seen_events(shown, recorded, None),
                patch=diff(before.view(None), shown.view(None)),
                legal_actions=[],
                outcome=shown.outcome,
            )
        release.shown = shown
        built: dict[Frames, Frame] = {}
        for watcher in release.watchers:
            frame = built.get(watcher.frames)
            if frame is None:
                frame = built[watcher.frames] = watcher.frames.encode(message)
            watcher.outbox.put(frame)
