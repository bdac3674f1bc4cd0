"""The campaign heads repository under the interleavings that broke the live path before it:
a catch-up read that answers late while a commit lands, an eviction during a refresh, and the
catalog runner passing while actions are taken."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Sequence
from typing import Any

import pytest

from domain.core.hashing import state_hash
from projections.runner import CatalogRunner
from server.app import CatalogSource
from server.campaigns.codec import Recorded
from server.campaigns.fresh import Counted
from server.campaigns.head import Head
from server.campaigns.service import CampaignService
from server.store.base import VersionConflict
from server.store.memory import MemoryStore
from tests.support.gated_store import GatedStore


class Versions:
    """A listener that records every head change the repository announces."""

    def __init__(self) -> None:
        self.seen: dict[str, list[int]] = {}
        self.resets = 0

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        assert [r.version for r in recorded] == list(range(before.version + 1, after.version + 1))
        self.seen.setdefault(after.facts.id, []).append(after.version)

    def reset(self, head: Head) -> None:
        self.resets += 1


def two_processes(
    inner: MemoryStore | None = None,
) -> tuple[GatedStore, CampaignService, CampaignService]:
    """This process (on a gated view of the store) and another one on the same store."""
    inner = inner or MemoryStore()
    store = GatedStore(inner)
    here = CampaignService(store, fresh=Counted("here", 1), clock=lambda: 0)  # type: ignore[arg-type]
    there = CampaignService(inner, fresh=Counted("there", 2), clock=lambda: 0)
    return store, here, there


async def assert_cache_is_the_stream(service: CampaignService, campaign_id: str) -> None:
    cached = service.heads.cached(campaign_id)
    assert cached is not None
    version, replayed = await service.replay(campaign_id)
    assert cached.version == version
    assert state_hash(cached.state) == state_hash(replayed) == cached.hash
    assert (await service.verify(campaign_id)).ok


async def test_a_commit_landing_during_a_late_catch_up_read_is_applied_once() -> None:
    store, here, there = two_processes()
    versions = Versions()
    here.heads.listen(versions)
    created = await here.create("dice-race", options={"target": 500})
    cid = created.id
    gate = store.hold("read", cid)
    reading = asyncio.create_task(here.head(cid))  # a GET /state, a catalog pass, a fan-out
    await gate.reached()
    await there.act(cid, "player", "roll", expected_version=2)  # another process commits
    acting = asyncio.create_task(here.act(cid, "player", "roll", expected_version=3))
    await asyncio.sleep(0)  # one turn of the loop: the act is now waiting for the campaign
    assert not acting.done(), "a commit waits while a catch-up of the same campaign runs"
    gate.open()
    assert (await reading).version == 3
    assert (await acting).last == 4
    await assert_cache_is_the_stream(here, cid)
    assert versions.seen[cid] == [2, 3, 4], "each version applied once, in order"


async def test_a_stale_cache_commits_nothing_and_catches_up() -> None:
    _, here, there = two_processes()
    created = await here.create("dice-race", options={"target": 500})
    await there.act(created.id, "player", "roll", expected_version=2)
    with pytest.raises(VersionConflict) as refused:
        await here.act(created.id, "player", "hold", expected_version=2)
    assert refused.value.actual == 3
    assert len(await here.events(created.id)) == 3
    await assert_cache_is_the_stream(here, created.id)


async def test_an_eviction_during_a_refresh_loses_nothing() -> None:
    inner = MemoryStore()
    store = GatedStore(inner)
    here = CampaignService(store, fresh=Counted("e", 1), clock=lambda: 0, cache_size=1)  # type: ignore[arg-type]
    there = CampaignService(inner, fresh=Counted("o", 2), clock=lambda: 0)
    first = await here.create("dice-race", options={"target": 500})
    await there.act(first.id, "player", "roll", expected_version=2)
    gate = store.hold("read", first.id)
    refreshing = asyncio.create_task(here.head(first.id))
    await gate.reached()
    second = await here.create("dice-race", options={"target": 500})  # evicts the first head
    assert here.heads.cached(first.id) is None
    gate.open()
    assert (await refreshing).version == 3
    await assert_cache_is_the_stream(here, first.id)
    assert len(here.heads) == 1
    assert (await here.head(second.id)).version == 2


async def test_a_watched_head_is_never_evicted() -> None:
    here = CampaignService(MemoryStore(), fresh=Counted("p", 1), clock=lambda: 0, cache_size=1)
    watched = await here.create("dice-race", options={"target": 500})
    here.heads.pin(watched.id)
    for _ in range(3):
        await here.create("dice-race", options={"target": 500})
    assert here.heads.cached(watched.id) is not None
    here.heads.unpin(watched.id)
    await here.create("dice-race", options={"target": 500})
    assert here.heads.cached(watched.id) is None


async def test_the_catalog_can_pass_while_actions_are_taken() -> None:
    rng = random.Random(11)
    store = GatedStore(MemoryStore(), shuffle=rng)
    service = CampaignService(store, fresh=Counted("k", 3), clock=lambda: 0)  # type: ignore[arg-type]
    runner = CatalogRunner(CatalogSource(service))
    ids = [
        (await service.create("dice-race", seats=["red", "blue"], options={"target": 60})).id
        for _ in range(4)
    ]

    async def player(campaign_id: str, turns: int) -> None:
        for _ in range(turns):
            head = await service.head(campaign_id)
            if head.outcome != "running":
                return
            (seat,) = [s for s in head.facts.seats if head.legal(s)]
            action = rng.choice(list(head.legal(seat)))
            with contextlib.suppress(VersionConflict):  # a stale choice is refused, not applied
                await service.act(campaign_id, seat, action, expected_version=head.version)

    async def catalog() -> None:
        for _ in range(30):
            await runner.run_once()

    await asyncio.gather(*(player(cid, 40) for cid in ids), catalog())
    await runner.run_once()
    for cid in ids:
        await assert_cache_is_the_stream(service, cid)
    entries = {e.id: e for e in await runner.entries(await service.catalog())}
    assert {cid: entries[cid].version for cid in ids} == {
        cid: (await service.head(cid)).version for cid in ids
    }


async def test_the_acting_seat_s_answer_lists_the_new_state_once_however_long_the_store_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While an append waits on the store, other campaigns' moves list many states; the acting
    seat's view and legal actions were worked out before the wait, so the rules list its new
    state once (a server under load used to list it again for the update)."""
    import domain.gil_ennis.rules as rules
    from domain.core.memo import KEEP

    listed: dict[int, int] = {}
    listing = rules._listed

    def counted(state: Any) -> Any:
        listed[id(state)] = listed.get(id(state), 0) + 1
        return listing(state)

    monkeypatch.setattr(rules, "_listed", counted)
    store = GatedStore(MemoryStore())
    service = CampaignService(store, fresh=Counted("here", 1), clock=lambda: 0)  # type: ignore[arg-type]
    answered: dict[str, Head] = {}

    class Seat:
        """The acting socket's side of the fan-out: its view and legal actions of each head."""

        def advanced(
            self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
        ) -> None:
            after.shown("player")
            after.choices("player")
            answered[after.facts.id] = after

        def reset(self, head: Head) -> None:
            pass

    service.heads.listen(Seat())
    acting = await service.create("gil-ennis")
    head = await service.head(acting.id)
    gate = store.hold("append", acting.id)
    first = next(iter(head.legal("player")))
    move = asyncio.create_task(
        service.act(acting.id, "player", first, expected_version=head.version)
    )
    await gate.reached()
    other = await service.create("gil-ennis")
    for _ in range(KEEP + 1):  # more states listed than the memo keeps
        now = await service.head(other.id)
        if now.outcome != "running":
            other = await service.create("gil-ennis")
            now = await service.head(other.id)
        action = next(iter(now.legal("player")))
        await service.act(other.id, "player", action, expected_version=now.version)
    gate.open()
    acted = await move
    after = answered[acting.id]
    assert after.version == acted.last
    assert listed[id(after.state)] == 1
