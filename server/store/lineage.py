"""Reading through fork lineage, shared by every adapter.

A fork's own events start at ``fork_version + 1``; anything at or below comes from its parent
(which may itself be a fork).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from server.store.base import CampaignInfo, Snapshot, StoredEvent

ReadOwn = Callable[[str, int, int, int | None], Awaitable[list[StoredEvent]]]
InfoOf = Callable[[str], Awaitable[CampaignInfo]]
SnapshotOf = Callable[[str, int, int], Awaitable[Snapshot | None]]


async def read_through(
    info_of: InfoOf,
    read_own: ReadOwn,
    campaign_id: str,
    after: int,
    until: int | None,
    limit: int | None,
) -> list[StoredEvent]:
    """Events ``after < v <= until`` of ``campaign_id``, the parents' prefix included.

    ``read_own(id, after, until, limit)`` reads one campaign's own events only.
    """
    info = await info_of(campaign_id)
    top = info.head if until is None else min(until, info.head)
    if top <= after or limit == 0:
        return []
    out: list[StoredEvent] = []
    if info.parent is not None and after < info.fork_version:
        out = await read_through(
            info_of, read_own, info.parent, after, min(top, info.fork_version), limit
        )
        if limit is not None:
            limit -= len(out)
            if limit <= 0:
                return out
        after = info.fork_version
    if top > after:
        out.extend(await read_own(campaign_id, after, top, limit))
    return out


async def snapshot_through(
    info_of: InfoOf, own_snapshot: SnapshotOf, campaign_id: str, at_most: int
) -> Snapshot | None:
    """The newest snapshot at or below ``at_most``, looking into parents for the shared prefix.

    ``own_snapshot(id, lowest, at_most)`` finds one campaign's own snapshot in that range.
    """
    info = await info_of(campaign_id)
    at_most = min(at_most, info.head)
    lowest = info.fork_version + 1 if info.parent is not None else 0
    if at_most >= lowest:
        found = await own_snapshot(campaign_id, lowest, at_most)
        if found is not None:
            return found
    if info.parent is not None:
        return await snapshot_through(
            info_of, own_snapshot, info.parent, min(at_most, info.fork_version)
        )
    return None
