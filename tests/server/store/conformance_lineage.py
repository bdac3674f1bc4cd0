"""Conformance of the recorder, part two: forks and attributes."""

from __future__ import annotations

import pytest

from server.store.base import (
    AppendResult,
    CampaignExists,
    StoredEvent,
    UnknownCampaign,
    VersionConflict,
)
from server.store.contract import EventStore
from tests.server.store.helpers import (
    campaign_with,
    family,
    payloads,
)


class LineageConformance:
    # Forks

    async def test_a_fork_reads_the_parent_prefix_then_its_own_events(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "parent", 5)
        info = await store.fork("parent", 3, "child", now_ms=2_000, attrs={"why": "try again"})
        assert (info.id, info.game, info.head) == ("child", "gil_ennis", 3)
        assert (info.parent, info.fork_version, info.attrs) == ("parent", 3, {"why": "try again"})
        assert await store.info("child") == info
        assert payloads(await store.read("child")) == [b"p1", b"p2", b"p3"]
        assert await store.append("child", 3, [b"c4", b"c5"]) == AppendResult(4, 5)
        assert await store.read("child") == [
            StoredEvent(1, b"p1"),
            StoredEvent(2, b"p2"),
            StoredEvent(3, b"p3"),
            StoredEvent(4, b"c4"),
            StoredEvent(5, b"c5"),
        ]

    async def test_parent_and_fork_do_not_see_each_others_appends(self, store: EventStore) -> None:
        await family(store)
        await store.append("parent", 5, [b"p6"])
        assert payloads(await store.read("parent")) == [b"p1", b"p2", b"p3", b"p4", b"p5", b"p6"]
        assert payloads(await store.read("child")) == [b"p1", b"p2", b"p3", b"c4", b"c5"]
        assert (await store.info("parent")).head == 6
        assert (await store.info("child")).head == 5
        with pytest.raises(VersionConflict) as raised:
            await store.append("child", 3, [b"stale"])
        assert raised.value.actual == 5

    async def test_a_fork_of_a_fork_reads_through_both_parents(self, store: EventStore) -> None:
        await family(store)
        assert payloads(await store.read("grandchild")) == [b"p1", b"p2", b"p3", b"c4", b"g5"]
        assert payloads(await store.read("child")) == [b"p1", b"p2", b"p3", b"c4", b"c5"]
        info = await store.info("grandchild")
        assert (info.parent, info.fork_version, info.head) == ("child", 4, 5)

    async def test_forks_at_the_head_and_at_zero(self, store: EventStore) -> None:
        await campaign_with(store, "parent", 4)
        await store.fork("parent", 4, "at-head", now_ms=2)
        await store.fork("parent", 0, "at-zero", now_ms=2)
        assert payloads(await store.read("at-head")) == [b"p1", b"p2", b"p3", b"p4"]
        assert await store.read("at-zero") == []
        assert await store.append("at-head", 4, [b"h5"]) == AppendResult(5, 5)
        assert await store.append("at-zero", 0, [b"z1"]) == AppendResult(1, 1)
        assert payloads(await store.read("at-zero")) == [b"z1"]
        assert payloads(await store.read("at-head", 3)) == [b"p4", b"h5"]

    async def test_a_fork_with_its_own_first_events_is_made_in_one_step(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "parent", 4)
        info = await store.fork("parent", 2, "child", now_ms=2, events=[b"c3", b"c4"])
        assert (info.parent, info.fork_version, info.head) == ("parent", 2, 4)
        assert payloads(await store.read("child")) == [b"p1", b"p2", b"c3", b"c4"]
        await store.create("taken", "eila", now_ms=1)
        with pytest.raises(CampaignExists):
            await store.fork("parent", 2, "taken", now_ms=2, events=[b"t3"])
        assert await store.read("taken") == [] and (await store.info("taken")).head == 0
        with pytest.raises(ValueError):
            await store.fork("parent", 9, "late", now_ms=2, events=[b"l10"])
        with pytest.raises(UnknownCampaign):
            await store.info("late")

    async def test_a_fork_point_past_the_head_or_taken_id_is_refused(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "parent", 2)
        await store.create("taken", "eila", now_ms=1)
        for at in (3, -1):
            with pytest.raises(ValueError):
                await store.fork("parent", at, "child", now_ms=2)
        with pytest.raises(CampaignExists):
            await store.fork("parent", 1, "taken", now_ms=2)
        with pytest.raises(UnknownCampaign):
            await store.info("child")
        assert (await store.info("taken")).game == "eila"

    # Attributes

    async def test_attrs_are_kept(self, store: EventStore) -> None:
        await store.create(
            "c", "gil_ennis", now_ms=1, attrs={"title": "Rain", "seed_hash": "ab:cd"}
        )
        assert (await store.info("c")).attrs == {"title": "Rain", "seed_hash": "ab:cd"}

    async def test_a_fork_has_attrs_of_its_own(self, store: EventStore) -> None:
        await store.create("parent", "gil_ennis", now_ms=1, attrs={"title": "Original"})
        await store.fork("parent", 0, "child", now_ms=2, attrs={"title": "Branch", "note": "é"})
        assert (await store.info("parent")).attrs == {"title": "Original"}
        assert (await store.info("child")).attrs == {"title": "Branch", "note": "é"}

    async def test_added_attrs_join_the_others_and_reach_every_reader(
        self, store: EventStore
    ) -> None:
        await store.create("parent", "gil_ennis", now_ms=1, attrs={"title": "Original"})
        await store.fork("parent", 0, "child", now_ms=2, attrs={"title": "Branch"})
        await store.add_attrs("parent", {"known_luck": "1"})
        await store.add_attrs("child", {"known_luck": "1", "title": "Renamed"})
        assert (await store.info("parent")).attrs == {"title": "Original", "known_luck": "1"}
        assert (await store.info("child")).attrs == {"title": "Renamed", "known_luck": "1"}
        (child,) = await store.forks_of("parent")
        assert child.attrs == {"title": "Renamed", "known_luck": "1"}
        listed = {info.id: info.attrs for info in await store.list_campaigns()}
        assert listed["parent"] == {"title": "Original", "known_luck": "1"}
        with pytest.raises(UnknownCampaign):
            await store.add_attrs("nobody", {"known_luck": "1"})
        with pytest.raises(UnknownCampaign):
            await store.info("nobody")

    async def test_ping_answers(self, store: EventStore) -> None:
        await store.ping()
