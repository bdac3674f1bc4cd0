"""The rewinds of each campaign of the families read lately: where each ``Rewound`` event of a
campaign's own stream stands, where it returned to, who made it and when.

A campaign's rewinds are found by reading its own events once; they are kept with the version
read up to (and the stored hash there) and extended from it when the campaign has grown, so
paging through the lineage of a 100,000-event campaign reads its stream once, not once a page.
The heads repository tells of appends this process sees (they extend what is kept at no cost)
and of a store whose history is not the cached one (what is kept is dropped). This is the only
place a lineage reads events.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.core.errors import UnknownGame
from domain.core.events import Rewound
from domain.games import get_game
from projections.log import acted_by
from server.campaigns.codec import Recorded, codec_for
from server.campaigns.head import Head
from server.campaigns.keyed_lock import KeyedLock
from server.campaigns.played import plain_envelope
from server.campaigns.raw import recorded_of, rewind_of
from server.campaigns.repository import HeadRepository
from server.store.base import CampaignInfo, StoredEvent

PAGE = 5_000
"""Events read and decoded at a time while looking for rewinds."""
BOT = "bot "
"""How ``made_by`` starts when a bot made the branch: ``bot <the log's name for it>``."""


class Rewind(msgspec.Struct, frozen=True):
    """A ``Rewound`` event at version ``at`` that returned its campaign to version ``to``."""

    at: int
    to: int
    by: str | None
    """Who rewound: the seat, ``bot <name>`` for a bot, None when no seat did."""
    at_ms: int


def made_by(recorded: Recorded[Any]) -> str | None:
    """Who caused ``recorded``: a bot by its name, else the seat on the record."""
    bot = acted_by(recorded)
    return recorded.seat if bot is None else BOT + bot


class _Kept:
    __slots__ = ("hash", "rewinds", "version")

    def __init__(self, version: int, hash: str, rewinds: tuple[Rewind, ...]) -> None:
        self.version = version
        self.hash = hash
        """The stored hash of the event at ``version`` (empty at the fork point), to check that
        the store still holds the history read."""
        self.rewinds = rewinds


class Rewinds:
    def __init__(self, heads: HeadRepository, *, capacity: int = 100_000, page: int = PAGE) -> None:
        """``capacity``: campaigns kept (a few dozen bytes each without rewinds)."""
        self._heads = heads
        self._capacity = capacity
        self._page = page
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._locks = KeyedLock()
        heads.listen(self)

    async def of(self, info: CampaignInfo) -> tuple[Rewind, ...]:
        """The rewinds in ``info``'s own events up to ``info.head``, oldest first."""
        campaign_id = info.id
        kept = self._kept.get(campaign_id)
        if kept is None or kept.version < info.head:
            async with self._locks.hold(campaign_id):
                kept = await self._extend(info)
        self._kept.move_to_end(campaign_id)
        if kept.version > info.head:  # ``info`` was read before the appends this process saw
            return tuple(rewind for rewind in kept.rewinds if rewind.at <= info.head)
        return kept.rewinds

    async def _extend(self, info: CampaignInfo) -> _Kept:
        kept = self._kept.get(info.id)
        if kept is not None and kept.version >= info.head:
            return kept  # extended meanwhile, by the read this one waited for
        if kept is None or not await self._still_stored(info, kept):
            kept = _Kept(info.fork_version, "", ())
        store = self._heads.store
        version, stamp, found = kept.version, kept.hash, list(kept.rewinds)
        while version < info.head:
            stored = await store.read(info.id, version, info.head, self._page)
            if not stored:
                break
            recorded = _decoded(info.game, stored)
            found += _rewinds_in(recorded)
            version, stamp = recorded[-1].version, recorded[-1].hash
        extended = _Kept(version, stamp, tuple(found))
        self._keep(info.id, extended)
        return extended

    async def _still_stored(self, info: CampaignInfo, kept: _Kept) -> bool:
        if kept.version == info.fork_version:
            return True
        stored = await self._heads.store.read(info.id, kept.version - 1, kept.version)
        return bool(stored) and plain_envelope(stored[0].data).hash == kept.hash

    def _keep(self, campaign_id: str, kept: _Kept) -> None:
        self._kept[campaign_id] = kept
        self._kept.move_to_end(campaign_id)
        while len(self._kept) > self._capacity:
            self._kept.popitem(last=False)

    # -- what the repository tells --------------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        campaign_id = after.facts.id
        kept = self._kept.get(campaign_id)
        if kept is None or self._locks.busy(campaign_id):
            return  # nothing kept, or a read is extending it: the next read catches up
        if kept.version != before.version or not recorded:
            return
        last = recorded[-1]
        kept.rewinds += tuple(_rewinds_in(recorded))
        kept.version, kept.hash = last.version, last.hash

    def reset(self, head: Head) -> None:
        self._kept.pop(head.facts.id, None)


def _decoded(game: str, stored: Sequence[StoredEvent]) -> list[Recorded[Any]]:
    """``stored`` decoded by its game's codec; as plain data, its rewinds alone typed, when
    this server cannot decode them (a game it does not have, a ruleset it does not play)."""
    try:
        return codec_for(get_game(game)).decode_stored(stored)
    except (UnknownGame, msgspec.DecodeError, msgspec.ValidationError):
        return [rewind_of(recorded_of(each)) for each in stored]


def _rewinds_in(recorded: Sequence[Recorded[Any]]) -> list[Rewind]:
    return [
        Rewind(r.version, r.event.to, made_by(r), r.at_ms)
        for r in recorded
        if type(r.event) is Rewound
    ]
