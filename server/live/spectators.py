"""What a spectator may see of a campaign with a spectator delay (:mod:`server.campaigns.delay`).

:meth:`Spectators.head_for` is the one place every spectator channel asks: the play and replay
sockets, the state, events and timeline reads, the catalog and forks. It answers the campaign's
head as the viewer may see it: the head itself for a seat holder, for a campaign without a delay
and for one that has ended; otherwise the head at the delayed version (a :class:`Head` of its
own, cached and carried forward as the delayed version moves).

To apply the rule it keeps, per delayed campaign, the newest moves and their times (a *tail*),
extended from the events the repository applies (it listens to it) and read back from the store
only as far as the rule needs.

This is a view, not a delivery: the live fan-out (:mod:`server.live.hub`) is the one path every
frame takes to a socket, and it asks here which version a delayed campaign's spectators may see
and when the next one comes due (:meth:`Spectators.until_due`).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from projections.catalog import CatalogEntry, catalog_entry
from server.campaigns.codec import Recorded
from server.campaigns.delay import (
    Move,
    SpectatorDelay,
    Tail,
    delay_of,
    delayed,
    next_due_ms,
    visible_version,
)
from server.campaigns.head import Head
from server.campaigns.repository import HeadRepository
from server.errors import ApiError
from server.store.base import CampaignInfo

log = logging.getLogger("tabletale.spectators")

FIRST_LOOK = 256
"""Events read back from the head at first, doubled each time the rule needs older moves."""

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


class Spectators:
    """The spectator delay applied to a process's heads: one per process, beside the hub."""

    def __init__(
        self, heads: HeadRepository, *, clock: Callable[[], int], capacity: int = 1024
    ) -> None:
        self._heads = heads
        self._clock = clock
        self._capacity = capacity
        self._tails: OrderedDict[str, Tail] = OrderedDict()
        self._kept: set[str] = set()
        """Campaigns whose spectators are watching here: their tails are never evicted."""
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
                    ruleset=entry.ruleset,
                )
            )
        return seen

    async def delayed_version(
        self, campaign_id: str, seat_in: Callable[[Mapping[str, str]], str | None]
    ) -> int | None:
        """The version a viewer (whose seats ``seat_in`` names) may see of a campaign, when
        that is not its head; None when it sees the head."""
        cached = self._heads.cached(campaign_id)
        # The store's metadata says it without a head loaded: a campaign of a ruleset this
        # server does not play has none, and is in no lineage's way.
        if cached is not None:
            attrs = cached.facts.attrs
        else:
            attrs = (await self._heads.store.info(campaign_id)).attrs
        if not delayed(attrs):
            return None
        head = await self._heads.head(campaign_id)
        seen = await self.head_for(head, seat_in(head.facts.attrs))
        return None if seen is head else seen.version

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
                if oldest in self._kept:  # a watched campaign's timer needs its tail
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

    def reset(self, head: Head) -> None:
        cid = head.facts.id
        self._tails.pop(cid, None)

    # -- for the fan-out ------------------------------------------------------------------

    def keep(self, campaign_id: str) -> None:
        """Spectators of ``campaign_id`` watch here: keep its tail while they do."""
        self._kept.add(campaign_id)

    def release(self, campaign_id: str) -> None:
        self._kept.discard(campaign_id)

    def until_due(self, head: Head, shown: Head) -> float | None:
        """Seconds until the next move after ``shown`` comes due for the spectators of the
        campaign at ``head`` (None: not before its next move)."""
        delay = delay_of(head.facts.attrs)
        tail = self._tails.get(head.facts.id)
        if delay is None or tail is None or shown.outcome != "running":
            return None
        due = next_due_ms(delay, tail.moves, shown.version)
        if due is None:
            return None
        return max(0, due - self._clock() + WAKE_LATE_MS) / 1000
