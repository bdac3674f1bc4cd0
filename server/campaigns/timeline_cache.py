"""Timelines of the campaigns read lately, each kept with the state it reached and extended from
there: reading the timeline of a 30,000-event campaign again costs the events since the last
read, not a replay of the whole stream.

A timeline is built a page of events at a time, yielding to the event loop between pages, so
other requests (a health check, a player's action) are served while a long one is built, and
concurrent reads of one campaign share one build. The repository tells when a campaign's stored
history turned out not to be the cached one; its timeline is then dropped and built again.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from projections.timeline import Line, MoveCount, line
from server.campaigns.acting import Acting
from server.campaigns.codec import Recorded
from server.campaigns.head import Head
from server.campaigns.repository import HeadRepository


class _Timeline:
    __slots__ = ("hash", "lines", "moves", "state", "version")

    def __init__(
        self, version: int, hash: str, state: Any, lines: list[Line], moves: MoveCount
    ) -> None:
        self.version = version
        self.hash = hash
        """The stored hash of the state at ``version``, to check the store still holds it."""
        self.state = state
        self.lines = lines
        self.moves = moves
        """The players' moves counted up to ``version``."""


class Timelines:
    def __init__(self, heads: HeadRepository, *, capacity: int = 8, page: int = 500) -> None:
        self._heads = heads
        self._capacity = capacity
        self._page = page
        self._kept: OrderedDict[str, _Timeline] = OrderedDict()
        self._building: dict[str, asyncio.Task[_Timeline]] = {}
        heads.listen(self)

    async def lines(
        self, campaign_id: str, *, after: int = 0, limit: int | None = None
    ) -> tuple[int, list[Line]]:
        """The version the timeline reaches (the head when the read began, or later) and its
        lines for versions above ``after``, at most ``limit`` of them."""
        head = await self._heads.head(campaign_id)
        kept = self._kept.get(campaign_id)
        if kept is None or kept.version != head.version:
            building = self._building.get(campaign_id)
            if building is None:
                building = asyncio.create_task(self._extend(campaign_id, head))
                self._building[campaign_id] = building
                building.add_done_callback(lambda _: self._building.pop(campaign_id, None))
            kept = await asyncio.shield(building)
        else:
            self._kept.move_to_end(campaign_id)
        lines = kept.lines
        start = bisect.bisect_right(lines, after, key=lambda each: each.version)
        stop = len(lines) if limit is None else min(len(lines), start + limit)
        return kept.version, lines[start:stop]

    async def _extend(self, campaign_id: str, head: Head) -> _Timeline:
        kept = self._kept.get(campaign_id)
        if kept is not None and not await self._still_stored(campaign_id, kept):
            kept = None
        if kept is None:
            kept = _Timeline(0, "", None, [], MoveCount())
        version, state, lines = kept.version, kept.state, list(kept.lines)
        moves = kept.moves.copy()
        stamp = kept.hash
        game = head.game
        async for steps in self._heads.walk(
            campaign_id, version, head.version, state, page=self._page
        ):
            for recorded, after in steps:
                found = line(game, recorded, after, moves)
                if found is not None:
                    lines.append(found)
            last: Recorded[Any] = steps[-1][0]
            version, state, stamp = last.version, steps[-1][1], last.hash
            await asyncio.sleep(0)  # a page done: let other requests in before the next
        extended = _Timeline(version, stamp, state, lines, moves)
        self._kept[campaign_id] = extended
        self._kept.move_to_end(campaign_id)
        while len(self._kept) > self._capacity:
            self._kept.popitem(last=False)
        return extended

    async def _still_stored(self, campaign_id: str, kept: _Timeline) -> bool:
        if kept.version == 0:
            return True
        stored = await self._heads.events(campaign_id, kept.version - 1, kept.version)
        return bool(stored) and stored[0].hash == kept.hash

    # -- what the repository tells --------------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: Acting | None
    ) -> None:
        return None

    def reset(self, head: Head) -> None:
        self._kept.pop(head.facts.id, None)
