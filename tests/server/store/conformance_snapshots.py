"""Conformance of the Snapshots index (:class:`server.store.contract.Snapshots`): the newest at or
below a version, a fork's from the prefix it shares with its parent."""

from __future__ import annotations

from server.store.base import Snapshot
from server.store.contract import EventStore
from tests.server.store.helpers import batch, campaign_with


class SnapshotsConformance:
    async def test_load_snapshot_finds_the_newest_at_or_below(self, store: EventStore) -> None:
        await campaign_with(store, "c", 10)
        assert await store.load_snapshot("c", 10) is None
        for version in (5, 2, 9):
            await store.save_snapshot("c", version, f"s{version}".encode())
        assert await store.load_snapshot("c", 10) == Snapshot(9, b"s9")
        assert await store.load_snapshot("c", 9) == Snapshot(9, b"s9")
        assert await store.load_snapshot("c", 8) == Snapshot(5, b"s5")
        assert await store.load_snapshot("c", 4) == Snapshot(2, b"s2")
        assert await store.load_snapshot("c", 1) is None
        await store.save_snapshot("c", 5, b"s5 again")
        assert await store.load_snapshot("c", 8) == Snapshot(5, b"s5 again")

    async def test_a_fork_loads_snapshots_of_the_shared_prefix_only(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "parent", 10)
        await store.save_snapshot("parent", 3, b"parent at 3")
        await store.save_snapshot("parent", 8, b"parent at 8")
        await store.fork("parent", 6, "child", now_ms=2)
        await store.append("child", 6, batch("c", 4))
        assert await store.load_snapshot("child", 100) == Snapshot(3, b"parent at 3")
        await store.save_snapshot("child", 7, b"child at 7")
        assert await store.load_snapshot("child", 100) == Snapshot(7, b"child at 7")
        assert await store.load_snapshot("child", 6) == Snapshot(3, b"parent at 3")
        assert await store.load_snapshot("parent", 100) == Snapshot(8, b"parent at 8")
        await store.fork("child", 9, "grandchild", now_ms=3)
        assert await store.load_snapshot("grandchild", 9) == Snapshot(7, b"child at 7")
