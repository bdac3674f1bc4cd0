"""Who is connected to a campaign, over every server process.

Each process knows its own sockets (the hub's watchers): that is its part, a :class:`Roster`.
It shares its part with the other processes that watch the campaign through the change feed
whenever a socket joins or leaves there, and asks for theirs whenever a socket joins. While it
knows of another process's part it shares its own again every refresh period, so each part
stays fresh; a part not heard of for :data:`EXPIRY_PERIODS` periods (its process died without
a word) is dropped. A process that stops watching a campaign shares an empty part. On a store
only one process writes (SQLite, memory) there is nobody to share with.

A presence message lists the seated sockets of every part in the order they joined (by the
wall clock of the process each joined, so processes agree up to their clocks' skew) and
counts the spectators of all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import msgspec

from server.store.base import StoreUnavailable
from server.store.contract import ChangeFeed

log = logging.getLogger("tabletale.presence")

REFRESH_S = 20.0
"""How often a process shares its parts again while other processes have parts of their own."""

EXPIRY_PERIODS = 3
"""A part not heard of for this many refresh periods is dropped."""

CLOSE_DRAIN_S = 1.0
"""How long a process stopping waits for its last shares to go."""


class Seated(msgspec.Struct, frozen=True, array_like=True):
    """One socket that holds a seat: its seat, the name its player gave, when it joined."""

    seat: str
    name: str | None
    joined_ms: int


class Roster(msgspec.Struct, frozen=True, array_like=True):
    """One process's part: its seated sockets and how many spectators it serves."""

    seated: tuple[Seated, ...] = ()
    spectators: int = 0

    @property
    def empty(self) -> bool:
        return not self.seated and not self.spectators


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Roster)


def encode(roster: Roster) -> bytes:
    return _encoder.encode(roster)


def decode(data: bytes) -> Roster | None:
    """The roster in ``data``; None (logged) if it is not one."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError as error:
        log.warning("A shared presence could not be read: %s", error)
        return None


def merged(parts: list[Roster]) -> Roster:
    """Every part's seated sockets in the order they joined, and all their spectators."""
    seated = sorted((s for part in parts for s in part.seated), key=lambda s: s.joined_ms)
    return Roster(tuple(seated), sum(part.spectators for part in parts))


class Elsewhere:
    """The parts other processes shared, by campaign and process, with when each was heard."""

    def __init__(
        self, *, refresh_s: float = REFRESH_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.refresh_s = refresh_s
        self._expiry_s = refresh_s * EXPIRY_PERIODS
        self._clock = clock
        self._parts: dict[str, dict[str, tuple[Roster, float]]] = {}

    def heard(self, campaign_id: str, origin: str, roster: Roster) -> bool:
        """Keep ``origin``'s part of ``campaign_id``; True if what the campaign shows changed."""
        parts = self._parts.setdefault(campaign_id, {})
        before = parts.get(origin)
        if roster.empty:
            parts.pop(origin, None)
            if not parts:
                del self._parts[campaign_id]
        else:
            parts[origin] = (roster, self._clock())
        return (before[0] if before else Roster()) != roster

    def parts(self, campaign_id: str) -> list[Roster]:
        """The parts of ``campaign_id`` other processes have, ordered by process."""
        parts = self._parts.get(campaign_id, {})
        return [parts[origin][0] for origin in sorted(parts)]

    def campaigns(self) -> list[str]:
        """The campaigns some other process has a part of."""
        return list(self._parts)

    def expire(self) -> list[str]:
        """Drop the parts not heard of for too long; returns the campaigns that changed."""
        oldest = self._clock() - self._expiry_s
        changed = []
        for campaign_id, parts in list(self._parts.items()):
            stale = [origin for origin, (_, heard) in parts.items() if heard < oldest]
            for origin in stale:
                del parts[origin]
            if stale:
                changed.append(campaign_id)
            if not parts:
                del self._parts[campaign_id]
        return changed

    def forget(self, campaign_id: str) -> None:
        """This process no longer watches ``campaign_id``: what it knew of others goes stale."""
        self._parts.pop(campaign_id, None)


class Sharing:
    """This process's side of presence: it shares its parts and keeps the others'.

    ``here(campaign_id)`` is this process's part now, ``tell(campaign_id)`` tells the sockets
    here that asked. Shares go out one at a time, each built from the part as it is when it
    goes: whatever joins and leaves interleave, the last share of a campaign is its last state,
    and a process that watches thousands of campaigns never floods Redis.
    """

    def __init__(
        self,
        feed: ChangeFeed,
        here: Callable[[str], Roster],
        tell: Callable[[str], None],
        *,
        refresh_s: float = REFRESH_S,
    ) -> None:
        self._feed = feed
        self._here = here
        self._tell = tell
        self.elsewhere = Elsewhere(refresh_s=refresh_s)
        self._pending: dict[str, bool] = {}  # campaign id -> ask
        self._sending: asyncio.Task[None] | None = None
        self._refreshing: asyncio.Task[None] | None = None

    def start(self, watched: Callable[[], list[str]]) -> None:
        """Begin refreshing; ``watched()`` lists the campaigns this process has sockets on."""
        self._refreshing = asyncio.create_task(self._refresh(watched))

    def everyone(self, campaign_id: str) -> Roster:
        """Who is connected to ``campaign_id`` over every process."""
        return merged([self._here(campaign_id), *self.elsewhere.parts(campaign_id)])

    def joined(self, campaign_id: str) -> None:
        """A socket joined here: share, and ask the other processes for their parts (the first
        socket here has none of them yet; a later one costs each of them one share)."""
        self._share(campaign_id, ask=True)

    def left(self, campaign_id: str, *, watched: bool) -> None:
        """A socket left here; ``watched``: some socket here still watches the campaign."""
        self._share(campaign_id, ask=False)
        if not watched:
            self.elsewhere.forget(campaign_id)

    def heard(self, campaign_id: str, origin: str, data: bytes, ask: bool) -> None:
        """Another process shared its part of a campaign this process has sockets on."""
        roster = decode(data)
        if roster is None:
            return
        if self.elsewhere.heard(campaign_id, origin, roster):
            self._tell(campaign_id)
        if ask:
            self._share(campaign_id, ask=False)

    def resumed(self, campaign_ids: list[str]) -> None:
        """The feed reconnected: what was shared meanwhile is lost, so ask again."""
        for campaign_id in campaign_ids:
            self._share(campaign_id, ask=True)

    def _share(self, campaign_id: str, *, ask: bool) -> None:
        self._pending[campaign_id] = self._pending.get(campaign_id, False) or ask
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._send())

    async def _send(self) -> None:
        while self._pending:
            campaign_id = next(iter(self._pending))
            ask = self._pending.pop(campaign_id)
            try:
                await self._feed.share(campaign_id, encode(self._here(campaign_id)), ask=ask)
            except StoreUnavailable as error:
                # Presence is never worth waiting on a Redis that is down: the next refresh,
                # or the feed's resumption, shares again.
                log.info("Sharing who is connected failed: %s", error)
                self._pending.clear()

    async def _refresh(self, watched: Callable[[], list[str]]) -> None:
        while True:
            await asyncio.sleep(self.elsewhere.refresh_s)  # the refresh period
            for campaign_id in self.elsewhere.expire():
                self._tell(campaign_id)
            here = set(watched())
            for campaign_id in self.elsewhere.campaigns():
                if campaign_id in here:
                    self._share(campaign_id, ask=False)

    async def drained(self) -> None:
        """Wait until no share is waiting (each has gone, or failed)."""
        while self._sending is not None and not self._sending.done():
            await asyncio.shield(self._sending)  # a waiter cancelled leaves the sender be

    async def close(self) -> None:
        # The parts emptied by the sockets that closed on the way down are worth a moment:
        # unsent, the other processes would count those sockets until the parts expire.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.drained(), CLOSE_DRAIN_S)
        tasks = [t for t in (self._sending, self._refreshing) if t is not None]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
