"""The hub keeps a process subscribed to a campaign's changes for exactly as long as a socket
watches it, however joins and leaves of the same campaign interleave."""

from __future__ import annotations

import asyncio
from typing import Any

from server.fanout import AUDIT_PER_SECOND, Hub, Watcher, audit_period
from server.service import CampaignService
from server.store.base import Deliver, Resumed
from server.store.memory import MemoryStore
from server.ws.frames import JSON_FRAMES
from server.ws.outbox import Frame, Outbox
from tests.support import dice_race

SETTLE_TURNS = 30  # loop turns after which every task is parked or done

dice_race.register()


class GatedStore:
    """A store whose calls wait while the gate is closed."""

    def __init__(self, inner: MemoryStore) -> None:
        self.inner = inner
        self.open = asyncio.Event()
        self.open.set()
        self.waiting = 0

    def changes(self) -> Any:
        raise AssertionError("the hub gets its feed from the test")

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.waiting += 1
            await self.open.wait()
            self.waiting -= 1
            return await target(*args, **kwargs)

        return call


class Subscriptions:
    """A feed that records which campaigns the process is subscribed to. An unsubscription takes
    effect when it completes, and can be held up, as one over the network can."""

    def __init__(self) -> None:
        self.watched: set[str] = set()
        self.calls: list[str] = []
        self.unwatch_may_finish = asyncio.Event()
        self.unwatch_may_finish.set()

    async def watch(self, campaign_id: str) -> None:
        self.calls.append("watch")
        self.watched.add(campaign_id)

    async def unwatch(self, campaign_id: str) -> None:
        self.calls.append("unwatch")
        await self.unwatch_may_finish.wait()
        self.watched.discard(campaign_id)

    async def follow(self, deliver: Deliver, resumed: Resumed) -> None:
        await asyncio.Event().wait()

    async def close(self) -> None:
        return None


async def _ignore(frame: Frame) -> None:
    return None


async def _never() -> None:
    raise AssertionError("the test's outbox never lags")


async def settle() -> None:
    for _ in range(SETTLE_TURNS):
        await asyncio.sleep(0)  # lets every task run until it waits on the test


async def setup() -> tuple[GatedStore, Subscriptions, Hub, str]:
    store = GatedStore(MemoryStore())
    service = CampaignService(store)  # type: ignore[arg-type]
    feed = Subscriptions()
    hub = Hub(service.heads, feed)
    created = await service.create("dice-race", seats=["red", "blue"])
    return store, feed, hub, created.id


async def join(hub: Hub, campaign_id: str) -> Watcher:
    outbox = Outbox(_ignore, limit=100, on_lagging=_never)
    watcher, _ = await hub.join(campaign_id, None, JSON_FRAMES, outbox)
    return watcher


async def test_a_socket_that_joins_while_the_last_watcher_leaves_stays_subscribed() -> None:
    store, feed, hub, cid = await setup()
    first = await join(hub, cid)
    store.open.clear()  # the second join's catch-up read waits at the store ...
    joining = asyncio.create_task(join(hub, cid))
    await settle()
    assert store.waiting == 1
    await hub.leave(first)  # ... while the only joined socket leaves
    store.open.set()
    second = await joining
    assert feed.watched == {cid}, feed.calls
    await hub.leave(second)
    assert feed.watched == set()


async def test_a_join_waits_for_an_unsubscription_still_under_way() -> None:
    _, feed, hub, cid = await setup()
    first = await join(hub, cid)
    feed.unwatch_may_finish.clear()
    leaving = asyncio.create_task(hub.leave(first))
    await settle()
    joining = asyncio.create_task(join(hub, cid))
    await settle()
    feed.unwatch_may_finish.set()
    await leaving
    second = await joining
    assert feed.calls == ["watch", "unwatch", "watch"]
    assert feed.watched == {cid}
    await hub.leave(second)
    assert feed.watched == set()


def test_the_audit_checks_at_most_its_budget_of_campaigns_a_second() -> None:
    assert audit_period(5.0, 0) == 5.0
    assert audit_period(5.0, AUDIT_PER_SECOND * 5) == 5.0
    assert audit_period(5.0, 10_000) == 10_000 / AUDIT_PER_SECOND
    assert 10_000 / audit_period(5.0, 10_000) <= AUDIT_PER_SECOND
