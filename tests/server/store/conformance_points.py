"""Conformance of the PointIndex: the decision point runs kept with the stream."""

from __future__ import annotations

import pytest

from server.store.base import UnknownCampaign
from server.store.contract import EventStore
from server.store.point_runs import PointRuns, PointsUnindexed
from tests.server.store.helpers import batch


async def grown(store: EventStore, campaign_id: str, points: list[bool]) -> None:
    """A campaign of one event per flag, each appended on its own saying whether it is a point."""
    await store.create(campaign_id, "gil_ennis", now_ms=1, events=[b"created"], point=False)
    for version, point in enumerate(points, 1):
        await store.append(campaign_id, version, [f"e{version}".encode()], point=point)


# versions 2..11: points at 2, 3, 4, 6, 7, 9, 11
FLAGS = [True, True, True, False, True, True, False, True, False, True]


class PointsConformance:
    async def test_appends_that_say_so_extend_the_runs(self, store: EventStore) -> None:
        await grown(store, "c", FLAGS)
        found = await store.point_runs("c", 1, before=10, after=10)
        assert found == PointRuns(((2, 4), (6, 7), (9, 9), (11, 11)), False, False)

    async def test_runs_around_a_version_are_paged_either_way(self, store: EventStore) -> None:
        await grown(store, "c", FLAGS)
        # the run whose first point is at or below 6, and one after it
        assert await store.point_runs("c", 6, before=1, after=1) == PointRuns(
            ((6, 7), (9, 9)), True, True
        )
        assert await store.point_runs("c", 8, before=2, after=0) == PointRuns(
            ((2, 4), (6, 7)), False, True
        )
        assert await store.point_runs("c", 11, before=1, after=5) == PointRuns(
            ((11, 11),), True, False
        )

    async def test_lowest_and_highest_clip_the_runs(self, store: EventStore) -> None:
        await grown(store, "c", FLAGS)
        assert await store.point_runs("c", 6, before=5, after=5, lowest=3, highest=9) == (
            PointRuns(((3, 4), (6, 7), (9, 9)), False, False)
        )
        assert await store.point_runs("c", 6, before=5, after=5, lowest=5, highest=6) == (
            PointRuns(((6, 6),), False, False)
        )

    async def test_a_campaign_created_with_its_last_event_a_point(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1, events=batch("s", 4), point=True)
        assert (await store.point_runs("c", 1, before=1, after=1)).runs == ((4, 4),)
        await store.create("empty", "gil_ennis", now_ms=1)
        assert await store.point_runs("empty", 1, before=1, after=1) == PointRuns((), False, False)

    async def test_appends_that_do_not_say_leave_the_runs_behind_until_recorded(
        self, store: EventStore
    ) -> None:
        await grown(store, "c", [True, True])
        await store.append("c", 3, batch("x", 3))  # versions 4..6, no word on points
        await store.append("c", 6, [b"y"], point=True)  # 7: not recorded, the runs lag
        with pytest.raises(PointsUnindexed) as lagging:
            await store.point_runs("c", 1, before=5, after=5)
        assert (lagging.value.campaign_id, lagging.value.indexed) == ("c", 3)
        # only what the lookup needs is checked
        assert (await store.point_runs("c", 1, before=5, after=5, highest=3)).runs == ((2, 3),)
        assert not await store.record_points("c", 2, 7, [4, 7])  # not where the runs stop
        assert not await store.record_points("c", 3, 8, [4])  # beyond the head
        with pytest.raises(ValueError, match="must lie in"):
            await store.record_points("c", 3, 7, [3])
        assert await store.record_points("c", 3, 5, [4, 5])
        assert await store.record_points("c", 5, 7, [7])
        assert not await store.record_points("c", 5, 7, [7])  # once only
        found = await store.point_runs("c", 1, before=5, after=5)
        assert found.runs == ((2, 5), (7, 7))
        await store.append("c", 7, [b"z"], point=True)  # complete again: appends extend them
        assert (await store.point_runs("c", 1, before=5, after=5)).runs == ((2, 5), (7, 8))

    async def test_a_fork_reads_its_parents_runs_up_to_its_fork_version(
        self, store: EventStore
    ) -> None:
        await grown(store, "parent", FLAGS)
        await store.fork("parent", 3, "child", now_ms=2)
        await store.append("child", 3, [b"c4"], point=True)
        await store.append("child", 4, [b"c5"], point=False)
        await store.append("child", 5, [b"c6"], point=True)
        # the parent's run 2..4 stops at the fork (3) and goes on in the child's 4
        found = await store.point_runs("child", 1, before=5, after=5)
        assert found == PointRuns(((2, 4), (6, 6)), False, False)
        await store.fork("child", 6, "grandchild", now_ms=3, events=[b"g7"], point=True)
        assert (await store.point_runs("grandchild", 7, before=1, after=1)).runs == ((6, 7),)
        assert (await store.point_runs("grandchild", 7, before=2, after=1)).runs == (
            (2, 4),
            (6, 7),
        )
        # a fork with new luck starts at its own origin
        assert (await store.point_runs("grandchild", 7, before=9, after=9, lowest=7)).runs == (
            (7, 7),
        )
        # the parent's own runs are untouched by its forks
        assert (await store.point_runs("parent", 4, before=1, after=1)).runs == ((2, 4), (6, 7))

    async def test_a_fork_of_an_unindexed_parent_asks_for_the_parents_runs(
        self, store: EventStore
    ) -> None:
        await store.create("old", "gil_ennis", now_ms=1)
        await store.append("old", 0, batch("o", 5))
        await store.fork("old", 4, "new", now_ms=2, events=[b"n5"], point=True)
        with pytest.raises(PointsUnindexed) as lagging:
            await store.point_runs("new", 5, before=2, after=2)
        assert (lagging.value.campaign_id, lagging.value.needed) == ("old", 4)
        assert await store.record_points("old", 0, 4, [2, 4])
        assert (await store.point_runs("new", 5, before=2, after=2)).runs == ((2, 2), (4, 5))

    async def test_an_unknown_campaign_has_no_runs(self, store: EventStore) -> None:
        with pytest.raises(UnknownCampaign):
            await store.point_runs("nobody", 1, before=1, after=1)
        with pytest.raises(UnknownCampaign):
            await store.record_points("nobody", 0, 0, [])
