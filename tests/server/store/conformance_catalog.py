"""Conformance of the recorder, part three: the catalog, listed and unlisted campaigns."""

from __future__ import annotations

import pytest

from server.store.base import CampaignExists, UnknownCampaign
from server.store.contract import EventStore
from tests.server.store.helpers import batch


async def ids(store: EventStore, *, offset: int = 0, limit: int = 50) -> list[str]:
    infos = await store.list_campaigns(offset=offset, limit=limit, listed_only=True)
    assert all(info.listed for info in infos)
    return [info.id for info in infos]


class CatalogConformance:
    async def test_catalog_lists_newest_first_with_offset_and_limit(
        self, store: EventStore
    ) -> None:
        for campaign_id, created in (("a", 10), ("b", 30), ("c", 20), ("e", 20)):
            await store.create(campaign_id, "gil_ennis", now_ms=created)
        await store.append("a", 0, [b"a1"], now_ms=50)
        await store.fork("a", 1, "d", now_ms=40)
        listed = await store.list_campaigns()
        # Equal creation times fall back to the id, in the same (descending) direction.
        assert [info.id for info in listed] == ["d", "b", "e", "c", "a"]
        assert listed[-1].head == 1
        assert listed[0].parent == "a"
        page = await store.list_campaigns(offset=1, limit=2)
        assert [info.id for info in page] == ["b", "e"]
        assert await store.list_campaigns(offset=5) == []
        assert await store.list_campaigns(limit=0) == []

    async def test_a_campaign_is_listed_unless_created_unlisted(self, store: EventStore) -> None:
        shown = await store.create("shown", "gil_ennis", now_ms=1)
        hidden = await store.create("hidden", "gil_ennis", now_ms=2, listed=False)
        assert shown.listed and not hidden.listed
        assert (await store.info("shown")).listed
        assert not (await store.info("hidden")).listed
        # The whole catalog has both, each saying whether it is listed.
        everything = await store.list_campaigns()
        assert [(info.id, info.listed) for info in everything] == [
            ("hidden", False),
            ("shown", True),
        ]
        assert await ids(store) == ["shown"]

    async def test_an_unlisted_campaign_created_with_events_keeps_them(
        self, store: EventStore
    ) -> None:
        await store.create("c", "gil_ennis", now_ms=1, events=batch("e", 3), listed=False)
        info = await store.info("c")
        assert (info.head, info.listed) == (3, False)
        assert len(await store.read("c")) == 3
        assert await ids(store) == []

    async def test_a_fork_is_listed_or_not_of_its_own_accord(self, store: EventStore) -> None:
        await store.create("open", "gil_ennis", now_ms=1, events=batch("o", 2))
        await store.create("closed", "gil_ennis", now_ms=2, events=batch("c", 2), listed=False)
        # The store copies nothing of the parent's: whoever forks says whether the child is listed.
        hidden = await store.fork("open", 2, "open-hidden", now_ms=3, listed=False)
        shown = await store.fork("closed", 1, "closed-shown", now_ms=4)
        with_events = await store.fork(
            "open", 1, "open-hidden-2", now_ms=5, events=[b"own"], listed=False
        )
        assert (hidden.listed, shown.listed, with_events.listed) == (False, True, False)
        assert not (await store.info("open-hidden")).listed
        assert (await store.info("closed-shown")).listed
        assert not (await store.info("open-hidden-2")).listed
        assert (await store.info("open-hidden-2")).head == 2
        assert await ids(store) == ["closed-shown", "open"]

    async def test_listed_only_pages_are_full_and_newest_first(self, store: EventStore) -> None:
        # Four unlisted campaigns for every listed one, some created at the same moment.
        expected: list[tuple[int, str]] = []
        for n in range(25):
            campaign_id, created = f"c{n:02d}", 100 + n // 2
            listed = n % 5 == 2
            await store.create(campaign_id, "gil_ennis", now_ms=created, listed=listed)
            if listed:
                expected.append((created, campaign_id))
        newest_first = [campaign_id for _, campaign_id in sorted(expected, reverse=True)]
        assert newest_first == ["c22", "c17", "c12", "c07", "c02"]
        assert await ids(store, limit=2) == ["c22", "c17"]
        assert await ids(store, offset=2, limit=2) == ["c12", "c07"]
        assert await ids(store, offset=4, limit=2) == ["c02"]
        assert await ids(store, offset=5, limit=2) == []
        assert await ids(store, limit=0) == []
        assert await ids(store) == newest_first

    async def test_listed_and_unlisted_campaigns_sharing_a_moment_page_apart(
        self, store: EventStore
    ) -> None:
        for campaign_id in ("a", "b", "c", "d", "e", "f"):
            await store.create(campaign_id, "gil_ennis", now_ms=7, listed=campaign_id in "bdf")
        pages = [await ids(store, offset=offset, limit=1) for offset in range(4)]
        assert pages == [["f"], ["d"], ["b"], []]
        assert [info.id for info in await store.list_campaigns(offset=2, limit=3)] == [
            "d",
            "c",
            "b",
        ]

    async def test_a_refused_creation_leaves_the_original_as_it_was_listed(
        self, store: EventStore
    ) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        with pytest.raises(CampaignExists):
            await store.create("c", "gil_ennis", now_ms=2, listed=False)
        await store.create("d", "gil_ennis", now_ms=3, listed=False)
        with pytest.raises(CampaignExists):
            await store.fork("c", 0, "d", now_ms=4)
        assert (await store.info("c")).listed and not (await store.info("d")).listed
        assert await ids(store) == ["c"]

    async def test_cataloguing_a_campaign_again_changes_nothing(self, store: EventStore) -> None:
        await store.create("a", "gil_ennis", now_ms=1)
        await store.create("b", "gil_ennis", now_ms=2, listed=False)
        await store.catalogue("a")
        await store.catalogue("b")
        everything = await store.list_campaigns()
        assert [(info.id, info.listed) for info in everything] == [("b", False), ("a", True)]
        assert await ids(store) == ["a"]
        with pytest.raises(UnknownCampaign):
            await store.catalogue("nowhere")
