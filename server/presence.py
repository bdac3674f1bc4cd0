"""Who is connected to a campaign, over every server process.

Each process knows its own sockets (the hub's watchers): that is its part, a :class:`Roster`.
It shares its part with the other processes that watch the campaign through the change feed
whenever a socket joins or leaves there, and asks for theirs when its first socket on the
campaign joins. While it knows of another process's part it shares its own again every refresh
period, so each part stays fresh; a part not heard of for :data:`EXPIRY_PERIODS` periods (its
process died without a word) is dropped. A process that stops watching a campaign shares an
empty part. On a store only one process writes (SQLite, memory) there is nobody to share with.

A presence message lists the seated sockets of every part in the order they joined (by the
wall clock of the process each joined, so processes agree up to their clocks' skew) and
counts the spectators of all.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import msgspec

log = logging.getLogger("tabletale.presence")

REFRESH_S = 20.0
"""How often a process shares its parts again while other processes have parts of their own."""

EXPIRY_PERIODS = 3
"""A part not heard of for this many refresh periods is dropped."""


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
