"""Long campaigns stay cheap: a state answer and a timeline page carry points in a shape that
does not grow with the campaign, and a fresh process forks a long campaign without reading its
history, on every store.

A long campaign is made of one real block of play repeated: a few actions from the end of the
set-up, then a rewind back to it. Every block leaves the campaign in the same state, so a
campaign of 100,000 events and one of 100 show the same view.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import httpx
import msgspec
import pytest

from domain.bots.uniform_random import UniformRandom
from domain.gil_ennis import GAME
from server.app import create_app
from server.campaigns.codec import codec_for
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.base import StoredEvent
from server.store.contract import EventStore
from server.store.memory import MemoryStore
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.redis_support import delete_prefix, patient_settings

LONG = 100_000
SHORT = 100


class Block(msgspec.Struct):
    setup: list[bytes]
    """Versions 1..origin."""
    play: list[bytes]
    """Versions origin+1.., ending with a rewind to origin."""
    points: list[int]
    """Which of ``play`` (0-based) are decision points."""
    attrs: dict[str, str]
    snapshot: bytes
    """The state at origin, which every block returns to."""


@pytest.fixture(scope="module")
def block() -> Block:
    return asyncio.run(record_block())


async def record_block() -> Block:
    service = CampaignService(MemoryStore(), fresh=Counted("b", 1), clock=lambda: 0)
    created = await service.create("gil-ennis", seed=7)
    origin = created.version
    bot = UniformRandom(2)
    version, state = await service.state_at(created.id)
    for n in range(12):
        seat, choice = bot.choose(GAME, state)
        if GAME.outcome(GAME.play(state, seat, choice.action)[-1][1]) != "running":
            break
        await service.act(created.id, seat, choice.id, expected_version=version, command_id=f"{n}")
        version, state = await service.state_at(created.id)
    await service.rewind(created.id, origin)
    head = await service.head(created.id)
    found = await service.points(head, 1, limit=10_000)
    stored = await service.store.read(created.id)
    points = [v - origin - 1 for first, last in found.fork for v in range(first, last + 1)]
    info = await service.info(created.id)
    return Block(
        [e.data for e in stored[:origin]],
        [e.data for e in stored[origin:]],
        [p for p in points if p >= 0],
        dict(info.attrs),
        codec_for(GAME).encode_state(head.state),
    )


async def long_campaign(
    store: EventStore, block: Block, length: int, *, record: bool = True
) -> str:
    """A campaign of at least ``length`` events of repeated blocks, its decision points
    recorded (or not, as a campaign stored before the store kept them)."""
    campaign_id = f"long-{uuid.uuid4().hex[:8]}"
    await store.create(
        campaign_id, "gil-ennis", now_ms=1, attrs=block.attrs, events=block.setup, point=True
    )
    version, points = len(block.setup), []
    while version < length:
        repeats = min(50, -(-(length - version) // len(block.play)))
        await store.append(campaign_id, version, block.play * repeats)
        for n in range(repeats):
            points += [version + n * len(block.play) + 1 + p for p in block.points]
        version += repeats * len(block.play)
    if record:
        assert await store.record_points(campaign_id, len(block.setup), version, points)
    await store.save_snapshot(campaign_id, version, block.snapshot)
    return campaign_id


@pytest.fixture(
    params=[
        "memory",
        "sqlite",
        pytest.param("redis", marks=pytest.mark.redis),
        pytest.param("redis-cluster", marks=pytest.mark.redis),
    ]
)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[EventStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        sqlite = SqliteStore(tmp_path / "events.sqlite3")
        yield sqlite
        await sqlite.close()
        return
    url = request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url")
    prefix = f"tt-test-{uuid.uuid4().hex}"
    redis = RedisStore.from_url(url, prefix=prefix, settings=patient_settings())
    yield redis
    await redis.close()
    await delete_prefix(url, prefix)


def shape(body: bytes) -> bytes:
    """An answer with every number written as one digit: what remains is its shape."""
    return re.sub(rb"\d+", b"0", body)


async def test_state_and_timeline_pages_do_not_grow_with_the_campaign(
    store: EventStore, block: Block
) -> None:
    short_id = await long_campaign(store, block, SHORT)
    long_id = await long_campaign(store, block, LONG)
    app = create_app(CampaignService(store))
    answers: dict[str, dict[str, bytes]] = {}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"
    ) as api:
        for campaign_id in (short_id, long_id):
            state = await api.get(f"/api/campaigns/{campaign_id}/state")
            head = state.json()["head"]
            after = head - len(block.play)  # the last block's lines
            timeline = await api.get(f"/api/campaigns/{campaign_id}/timeline?after={after}")
            answers[campaign_id] = {"state": state.content, "timeline": timeline.content}
    short, long = answers[short_id], answers[long_id]
    short_state, long_state = (
        msgspec.json.decode(short["state"]),
        msgspec.json.decode(long["state"]),
    )
    assert long_state["head"] >= LONG > SHORT * 10 > short_state["head"]
    assert long_state["view"] == short_state["view"]  # the same view
    # the long campaign has far more points than one answer lists
    assert long_state["points"]["more_before"] and long_state["points"]["fork"]
    for kind in ("state", "timeline"):
        assert len(shape(long[kind])) <= len(shape(short[kind])), kind
        # and with its numbers as written, no more than their extra digits
        extra_digits = len(re.findall(rb"\d+", long[kind])) * (len(str(LONG)) - len(str(SHORT)))
        assert len(long[kind]) <= len(short[kind]) + extra_digits, kind
    long_lines = msgspec.json.decode(long["timeline"])["lines"]
    short_lines = msgspec.json.decode(short["timeline"])["lines"]
    assert [line["text"] for line in long_lines] == [line["text"] for line in short_lines]


class Counting:
    """A store that counts the events read from it."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.events_read = 0

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        found = await self.store.read(campaign_id, after, until, limit)
        self.events_read += len(found)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def middle_point(block: Block, setup: int, length: int) -> tuple[int, int]:
    """A decision point near the middle of a long campaign, and a version that is not one."""
    start = setup + (length // 2 // len(block.play)) * len(block.play)
    inside = next(p for p in range(len(block.play)) if p not in block.points)
    return start + 1 + block.points[0], start + 1 + inside


async def fresh_fork(store: EventStore, campaign_id: str, at: int, inside: int) -> int:
    """Fork ``campaign_id`` at ``at`` (refused at ``inside``) from a process that has never
    seen it; the events it read."""
    counting = Counting(store)
    service = CampaignService(cast(EventStore, counting))
    with pytest.raises(Exception, match="inside the resolution of an action"):
        await service.fork(campaign_id, inside)
    created = await service.fork(campaign_id, at)
    assert (await store.info(created.id)).fork_version == at
    return counting.events_read


async def test_a_fresh_process_forks_a_long_campaign_without_reading_its_history(
    store: EventStore, block: Block
) -> None:
    campaign_id = await long_campaign(store, block, LONG)
    at, inside = middle_point(block, len(block.setup), LONG)
    # the head from its snapshot and the fork's own start: nowhere near the history
    assert await fresh_fork(store, campaign_id, at, inside) < 2 * len(block.play) + 10


async def test_a_stream_stored_without_points_has_them_recorded_once(
    store: EventStore, block: Block
) -> None:
    campaign_id = await long_campaign(store, block, 20 * len(block.play), record=False)
    head = (await store.info(campaign_id)).head
    at, inside = middle_point(block, len(block.setup), head)
    assert await fresh_fork(store, campaign_id, at, inside) >= head - len(block.setup)
    # recorded now: the next fresh process reads nothing of it
    assert await fresh_fork(store, campaign_id, at, inside) < 2 * len(block.play) + 10


def test_blocks_have_points_and_versions_inside_actions(block: Block) -> None:
    assert block.points and len(block.points) < len(block.play)
