"""The hub keeps a process subscribed to a campaign's changes for exactly as long as a socket
watches it, however joins and leaves of the same campaign interleave."""

from __future__ import annotations

import asyncio

from server.campaigns.service import CampaignService
from server.live.frames import JSON_FRAMES
from server.live.hub import AUDIT_PER_SECOND, Hub, audit_period
from server.live.outbox import Frame, Outbox
from server.live.watcher import Watcher
from server.store.contract import Deliver, Resumed, Shared
from server.store.memory import MemoryStore
from tests.support import dice_race
from tests.support.gated_store import WAIT_S, GatedStore, until

dice_race.register()


class Subscriptions:
    """A feed that records which campaigns the process is subscribed to. An unsubscription takes
    effect when it completes, and can be held up, as one over the network can."""

    def __init__(self) -> None:
        self.watched: set[str] = set()
        self.calls: list[str] = []
        self.unwatch_may_finish = asyncio.Event()
        self.unwatch_may_finish.set()
        self.unwatching = asyncio.Event()
        """Set once an unsubscription has begun (and waits for ``unwatch_may_finish``)."""

    async def watch(self, campaign_id: str) -> None:
        self.calls.append("watch")
        self.watched.add(campaign_id)

    async def unwatch(self, campaign_id: str) -> None:
        self.calls.append("unwatch")
        self.unwatching.set()
        await self.unwatch_may_finish.wait()
        self.watched.discard(campaign_id)

    async def follow(
        self, deliver: Deliver, resumed: Resumed, shared: Shared | None = None
    ) -> None:
        await asyncio.Event().wait()

    async def share(self, campaign_id: str, data: bytes, *, ask: bool) -> None:
        return None

    async def close(self) -> None:
        return None


async def _ignore(frame: Frame) -> None:
    return None


async def _never() -> None:
    raise AssertionError("the test's outbox never lags")


async def setup() -> tuple[GatedStore, Subscriptions, Hub, str]:
    store = GatedStore(MemoryStore())
    service = CampaignService(store)
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
    reading = store.hold("read", cid)  # the second join's catch-up read waits at the store ...
    joining = asyncio.create_task(join(hub, cid))
    await reading.reached()
    await hub.leave(first)  # ... while the only joined socket leaves
    reading.open()
    second = await joining
    assert feed.watched == {cid}, feed.calls
    await hub.leave(second)
    assert feed.watched == set()


async def test_a_join_waits_for_an_unsubscription_still_under_way() -> None:
    _, feed, hub, cid = await setup()
    first = await join(hub, cid)
    feed.unwatch_may_finish.clear()
    leaving = asyncio.create_task(hub.leave(first))
    await asyncio.wait_for(feed.unwatching.wait(), WAIT_S)
    joining = asyncio.create_task(join(hub, cid))
    # The join registers itself before its first wait, which is on the unsubscription.
    await until(lambda: (table := hub.table(cid)) is not None and table.joining > 0)
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
