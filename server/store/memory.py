"""An in-memory event store for unit tests and simulations. Nothing survives the process."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from server.store.base import (
    FORKS_PAGE,
    AppendResult,
    CampaignExists,
    CampaignInfo,
    ForkKey,
    Snapshot,
    StoredEvent,
    UnknownCampaign,
    VersionConflict,
    check_events,
    fork_key,
)
from server.store.feed import ChangeFeed, LocalFeed
from server.store.lineage import read_through, snapshot_through
from server.store.point_runs import (
    OwnRuns,
    PointRunsNear,
    Run,
    check_points,
    extended,
    own_around,
)
from server.store.recording import Recording

if TYPE_CHECKING:
    from server.store.analyses import MemoryAnalyses
    from server.store.leases import MemoryBotTable


class _Campaign:
    __slots__ = ("commands", "events", "indexed", "info", "runs", "snapshots")

    def __init__(self, info: CampaignInfo) -> None:
        self.info = info
        self.events: list[bytes] = []  # own events: version fork_version + 1 + index
        self.commands: dict[str, AppendResult] = {}
        self.snapshots: dict[int, bytes] = {}
        self.runs: list[Run] = []  # own decision points (server.store.point_runs)
        self.indexed = info.fork_version


class MemoryStore(Recording, PointRunsNear):
    def __init__(self) -> None:
        self._campaigns: dict[str, _Campaign] = {}
        self._forks: dict[str, list[ForkKey]] = {}  # parent -> its forks, in order

    def _get(self, campaign_id: str) -> _Campaign:
        try:
            return self._campaigns[campaign_id]
        except KeyError:
            raise UnknownCampaign(campaign_id) from None

    async def _register(
        self, info: CampaignInfo, events: Sequence[bytes], point: bool | None
    ) -> CampaignInfo:
        if info.id in self._campaigns:
            raise CampaignExists(info.id)
        campaign = _Campaign(info)
        campaign.events.extend(events)
        self._campaigns[info.id] = campaign
        if info.parent is not None:
            bisect.insort(self._forks.setdefault(info.parent, []), fork_key(info))
        if point is not None or not events:
            campaign.indexed = info.head
            campaign.runs = extended([], [info.head] if events and point else [])
        return info

    async def add_attrs(self, campaign_id: str, attrs: dict[str, str]) -> None:
        campaign = self._get(campaign_id)
        info = campaign.info
        campaign.info = msgspec.structs.replace(info, attrs={**info.attrs, **attrs})

    async def catalogue(self, campaign_id: str) -> None:
        await self.info(campaign_id)  # a campaign and its catalog entry are one record here

    async def info(self, campaign_id: str) -> CampaignInfo:
        return self._get(campaign_id).info

    async def forks_of(
        self, campaign_id: str, *, after: ForkKey | None = None, limit: int = FORKS_PAGE
    ) -> list[CampaignInfo]:
        forks = self._forks.get(campaign_id, [])
        start = 0 if after is None else bisect.bisect_right(forks, after)
        return [self._campaigns[child].info for _, child in forks[start : start + max(limit, 0)]]

    async def append(
        self,
        campaign_id: str,
        expected_version: int,
        events: Sequence[bytes],
        *,
        command_id: str | None = None,
        now_ms: int = 0,
        point: bool | None = None,
    ) -> AppendResult:
        check_events(events)
        campaign = self._get(campaign_id)
        if command_id is not None and command_id in campaign.commands:
            return msgspec.structs.replace(campaign.commands[command_id], duplicate=True)
        head = campaign.info.head
        if expected_version != head:
            raise VersionConflict(campaign_id, expected_version, head)
        campaign.events.extend(events)
        result = AppendResult(first=head + 1, last=head + len(events))
        if point is not None and campaign.indexed == head:
            campaign.indexed = result.last
            campaign.runs = extended(campaign.runs, [result.last] if point else [])
        if command_id is not None:
            campaign.commands[command_id] = result
        campaign.info = msgspec.structs.replace(
            campaign.info, head=result.last, updated_ms=max(now_ms, campaign.info.updated_ms)
        )
        return result

    async def _read_own(
        self, campaign_id: str, after: int, until: int, limit: int | None
    ) -> list[StoredEvent]:
        campaign = self._campaigns[campaign_id]
        base = campaign.info.fork_version
        stop = until - base if limit is None else min(until - base, after - base + limit)
        return [
            StoredEvent(base + 1 + i, data)
            for i, data in enumerate(campaign.events[after - base : stop], start=after - base)
        ]

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        return await read_through(self.info, self._read_own, campaign_id, after, until, limit)

    async def command_result(self, campaign_id: str, command_id: str) -> AppendResult | None:
        return self._get(campaign_id).commands.get(command_id)

    async def save_snapshot(self, campaign_id: str, version: int, data: bytes) -> None:
        self._get(campaign_id).snapshots[version] = data

    async def _own_snapshot(self, campaign_id: str, lowest: int, at_most: int) -> Snapshot | None:
        snapshots = self._campaigns[campaign_id].snapshots
        versions = [v for v in snapshots if lowest <= v <= at_most]
        if not versions:
            return None
        best = max(versions)
        return Snapshot(best, snapshots[best])

    async def load_snapshot(self, campaign_id: str, at_most: int) -> Snapshot | None:
        return await snapshot_through(self.info, self._own_snapshot, campaign_id, at_most)

    def changes(self) -> ChangeFeed:
        return LocalFeed()

    # -- decision points (server.store.point_runs) ----------------------------------------

    async def _own_runs(self, campaign_id: str, at: int, down: int, up: int) -> OwnRuns:
        campaign = self._get(campaign_id)
        return OwnRuns(campaign.indexed, *own_around(campaign.runs, at, down, up))

    async def record_points(
        self, campaign_id: str, since: int, through: int, points: Sequence[int]
    ) -> bool:
        check_points(since, through, points)
        campaign = self._get(campaign_id)
        if campaign.indexed != since or through > campaign.info.head:
            return False
        campaign.runs = extended(campaign.runs, points)
        campaign.indexed = through
        return True

    async def list_campaigns(
        self, *, offset: int = 0, limit: int = 50, listed_only: bool = False
    ) -> list[CampaignInfo]:
        infos = sorted(
            (c.info for c in self._campaigns.values() if c.info.listed or not listed_only),
            key=lambda info: (info.created_ms, info.id),
            reverse=True,
        )
        return infos[offset : offset + limit]

    def bot_table(self) -> MemoryBotTable:
        """Bot seats and driver leases (:mod:`server.store.leases`)."""
        from server.store.leases import memory_table

        return memory_table(self)

    def analyses(self) -> MemoryAnalyses:
        """Analyses kept beside each stream (:mod:`server.store.analyses`)."""
        from server.store.analyses import memory_analyses

        return memory_analyses(self)

    async def open_format(self) -> None:
        return None  # nothing outlives the process

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None
