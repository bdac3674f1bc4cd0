"""Hypothesis chooses the order in which a store answers concurrent calls, and so the
interleaving of actions, reads, fan-out, forks, rewinds, evictions and another process's actions
on one service. Whatever the order, every cached head equals its replayed stream, every stored
hash verifies, and every watching socket's patches add up to the server's view."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clients.replica import Replica
from domain.core.errors import DomainError
from domain.core.hashing import state_hash
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.live.frames import JSON_FRAMES
from server.live.hub import Hub, Watcher
from server.live.outbox import Frame, Outbox
from server.protocol.messages import Welcome
from server.store.base import StoreError
from server.store.feed import LocalFeed
from server.store.memory import MemoryStore

SETTLE_TURNS = 30  # loop turns after which every task is parked at the store or done


class SteppedStore:
    """Every call waits until the test lets it through, in an order Hypothesis picks."""

    def __init__(self, inner: MemoryStore) -> None:
        self.inner = inner
        self.parked: list[asyncio.Future[None]] = []
        self.free = False

    def changes(self) -> LocalFeed:
        return LocalFeed()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            if not self.free:
                parked = asyncio.get_running_loop().create_future()
                self.parked.append(parked)
                await parked
            return await target(*args, **kwargs)

        return call


class Socket:
    """A watcher whose frames are fed to a client replica."""

    def __init__(self) -> None:
        self.replica = Replica()
        self.outbox = Outbox(self._send, limit=10_000, on_lagging=self._never)
        self.watcher: Watcher | None = None

    async def _send(self, frame: Frame) -> None:
        reply = self.replica.absorb(msgspec.json.decode(frame["text"]))
        assert reply is None, "a watcher never loses track of its updates"

    async def _never(self) -> None:
        raise AssertionError("the test's outbox never lags")


class World:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.inner = MemoryStore()
        self.store = SteppedStore(self.inner)
        self.here = CampaignService(
            self.store,  # type: ignore[arg-type]
            fresh=Counted("here", 1),
            clock=lambda: 0,
            cache_size=2,
            snapshot_every=7,
        )
        self.there = CampaignService(self.inner, fresh=Counted("there", 2), clock=lambda: 0)
        self.hub = Hub(self.here.heads, LocalFeed())
        self.campaigns: list[str] = []
        self.sockets: list[Socket] = []

    async def act(self, service: CampaignService, campaign_id: str) -> None:
        head = await service.head(campaign_id)
        movers = [seat for seat in head.facts.seats if head.legal(seat)]
        if not movers:
            return
        seat = self.rng.choice(movers)
        action = self.rng.choice(list(head.legal(seat)))
        await service.act(campaign_id, seat, action, expected_version=head.version)

    async def read(self, campaign_id: str) -> None:
        head = await self.here.head(campaign_id)
        version = self.rng.randint(1, head.version)
        _, state = await self.here.state_at(campaign_id, version)
        assert state is not None

    async def fork(self, campaign_id: str) -> None:
        head = await self.here.head(campaign_id)
        at = self.rng.randint(head.facts.origin, head.version)
        created = await self.here.fork(campaign_id, at, reseed=self.rng.random() < 0.5)
        self.campaigns.append(created.id)

    async def rewind(self, campaign_id: str) -> None:
        head = await self.here.head(campaign_id)
        if head.version > head.facts.origin:
            to = self.rng.randint(head.facts.origin, head.version - 1)
            await self.here.rewind(campaign_id, to, expected_version=head.version)

    async def join(self, campaign_id: str) -> None:
        socket = Socket()
        facts = await self.here.facts(campaign_id)
        seat = self.rng.choice([None, *facts.seats])
        watcher, head = await self.hub.join(campaign_id, seat, JSON_FRAMES, socket.outbox)
        welcome = Welcome(
            campaign_id,
            facts.game.info.name,
            seat,
            list(facts.seats),
            head.version,
            head.view(seat),
            head.choices(seat),
            head.outcome,
        )
        socket.watcher = watcher
        socket.outbox.release(JSON_FRAMES.encode(welcome))
        self.sockets.append(socket)

    async def leave(self) -> None:
        joined = [s for s in self.sockets if s.watcher is not None]
        if joined:
            socket = self.rng.choice(joined)
            assert socket.watcher is not None
            await self.hub.leave(socket.watcher)
            socket.watcher = None

    async def evict(self) -> None:
        # A new campaign takes a place in the two-head cache.
        await self.here.create("dice-race", options={"target": 500})

    def operation(self, kind: str, campaign_id: str) -> Any:
        match kind:
            case "act":
                return self.act(self.here, campaign_id)
            case "remote":
                return self.act(self.there, campaign_id)
            case "read":
                return self.read(campaign_id)
            case "fork":
                return self.fork(campaign_id)
            case "rewind":
                return self.rewind(campaign_id)
            case "join":
                return self.join(campaign_id)
            case "leave":
                return self.leave()
            case "evict":
                return self.evict()
        raise AssertionError(kind)


KINDS = ["act", "act", "act", "remote", "read", "fork", "rewind", "join", "join", "leave", "evict"]


async def scenario(data: st.DataObject) -> None:
    world = World(random.Random(data.draw(st.integers(0, 2**16), label="seed")))
    world.store.free = True
    world.campaigns.append((await world.here.create("eila")).id)
    world.campaigns.append(
        (await world.here.create("dice-race", seats=["red", "blue"], options={"target": 40})).id
    )
    world.store.free = False
    for _round in range(data.draw(st.integers(1, 4), label="rounds")):
        kinds = data.draw(st.lists(st.sampled_from(KINDS), min_size=2, max_size=10), label="ops")
        tasks = [
            asyncio.create_task(world.operation(kind, world.rng.choice(world.campaigns)))
            for kind in kinds
        ]
        try:
            while not all(task.done() for task in tasks):
                for _ in range(SETTLE_TURNS):
                    await asyncio.sleep(0)  # let every task run until it parks at the store
                if world.store.parked:
                    index = data.draw(st.integers(0, len(world.store.parked) - 1), label="next")
                    world.store.parked.pop(index).set_result(None)
        finally:
            # Hypothesis may stop an example mid-draw: leave no task or error behind.
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for task in tasks:
            error = task.exception()
            # Refusals are part of the game (a stale version, a move no longer legal).
            if error is not None and not isinstance(error, DomainError | StoreError):
                raise error
    world.store.free = True
    for campaign_id in world.campaigns:
        head = await world.here.head(campaign_id)
        version, replayed = await world.here.replay(campaign_id)
        assert head.version == version
        assert state_hash(head.state) == state_hash(replayed) == head.hash
        assert (await world.here.verify(campaign_id)).ok
    for socket in world.sockets:
        await socket.outbox.drained()
        if socket.watcher is not None:
            head = world.here.heads.cached(socket.watcher.campaign_id)
            assert head is not None, "a watched head stays cached"
            assert socket.replica.version == head.version
            as_sent = msgspec.json.decode(msgspec.json.encode(head.view(socket.watcher.seat)))
            assert socket.replica.view == as_sent
    await world.hub.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_interleaving_keeps_caches_streams_and_sockets_in_agreement(
    data: st.DataObject,
) -> None:
    asyncio.run(scenario(data))
