"""Conformance of the ForkIndex: each campaign's forks, paged by fork version then id."""

from __future__ import annotations

import pytest

from server.store.base import CampaignExists, fork_key
from server.store.contract import EventStore
from tests.server.store.helpers import campaign_with, family


async def all_forks(store: EventStore, parent: str, *, page: int) -> list[tuple[int, str]]:
    """Every fork of ``parent``, read ``page`` at a time, as ``(fork_version, id)``."""
    found: list[tuple[int, str]] = []
    while True:
        infos = await store.forks_of(parent, after=found[-1] if found else None, limit=page)
        found += [fork_key(info) for info in infos]
        if len(infos) < page:
            return found


class ForksConformance:
    async def test_a_campaign_lists_its_own_forks_not_their_forks(self, store: EventStore) -> None:
        await family(store)  # parent <- child (at 3) <- grandchild (at 4)
        children = await store.forks_of("parent")
        assert [(info.id, info.parent, info.fork_version) for info in children] == [
            ("child", "parent", 3)
        ]
        assert children[0] == await store.info("child")
        assert [info.id for info in await store.forks_of("child")] == ["grandchild"]
        assert await store.forks_of("grandchild") == []

    async def test_forks_come_by_fork_version_then_id(self, store: EventStore) -> None:
        await campaign_with(store, "p", 12)
        made = [(10, "b"), (2, "z"), (10, "a"), (9, "m"), (2, "c"), (0, "y"), (12, "k")]
        for at, child in made:
            await store.fork("p", at, child, now_ms=5_000)
        assert [fork_key(info) for info in await store.forks_of("p")] == sorted(made)

    @pytest.mark.parametrize("page", [1, 2, 3, 50])
    async def test_pages_hand_out_every_fork_exactly_once(
        self, store: EventStore, page: int
    ) -> None:
        await campaign_with(store, "p", 6)
        made = sorted((at % 7, f"f{n:02d}") for n, at in enumerate(range(0, 60, 5)))
        for at, child in made:
            await store.fork("p", at, child, now_ms=5_000)
        assert await all_forks(store, "p", page=page) == made

    async def test_a_page_after_a_fork_that_is_not_stored_starts_where_it_would_be(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "p", 6)
        for at, child in [(1, "a"), (3, "b"), (3, "d"), (5, "e")]:
            await store.fork("p", at, child, now_ms=5_000)
        after = await store.forks_of("p", after=(3, "c"), limit=5)
        assert [info.id for info in after] == ["d", "e"]
        assert await store.forks_of("p", after=(5, "e")) == []
        assert await store.forks_of("p", limit=0) == []

    async def test_a_campaign_without_forks_or_unknown_lists_none(self, store: EventStore) -> None:
        await campaign_with(store, "alone", 2)
        assert await store.forks_of("alone") == []
        assert await store.forks_of("nobody") == []

    async def test_a_refused_fork_leaves_no_entry(self, store: EventStore) -> None:
        await campaign_with(store, "p", 4)
        await campaign_with(store, "taken", 1)
        with pytest.raises(CampaignExists):
            await store.fork("p", 2, "taken", now_ms=5_000)
        with pytest.raises(ValueError):
            await store.fork("p", 9, "beyond", now_ms=5_000)
        assert await store.forks_of("p") == []
        await store.fork("p", 2, "kept", now_ms=5_000)
        assert [info.id for info in await store.forks_of("p")] == ["kept"]

    async def test_a_fork_with_events_of_its_own_is_listed_with_its_head(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "p", 4)
        await store.fork("p", 4, "own", now_ms=5_000, events=[b"r5"], attrs={"k": "v"})
        await store.append("own", 5, [b"o6", b"o7"])
        (listed,) = await store.forks_of("p")
        assert (listed.id, listed.head, listed.attrs) == ("own", 7, {"k": "v"})
