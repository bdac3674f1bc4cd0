"""A long campaign brought in by import or migration is as cheap as one played in its store: its
decision points are recorded and its snapshots saved as it arrives, so a fresh process forks it
from a snapshot and a few events instead of folding its whole history first.

The campaign is the repeated block of ``tests/server/test_points_scale.py``, 100,000 events long.
A fresh process forks it once, through a store that counts the events read: what the long
campaign costs, cold (its head, its points, the fork), in events, which no busy machine changes.
The process also prints the fork's time, a figure for ``docs/performance.md`` (run with ``-s``);
no test holds it to a bound.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.campaigns.service import CampaignService
from server.export.importing import import_export
from server.export.migration import Migration, catalog_of
from server.export.reading import read_export
from server.store.contract import EventStore
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.redis_support import delete_prefix, patient_settings
from tests.server.campaigns.test_points_scale import (
    LONG,
    Block,
    long_campaign,
    middle_point,
    record_block,
)
from tests.server.export.stores import exported, lines_of

pytestmark = [pytest.mark.slow, pytest.mark.serial]

ROOT = Path(__file__).resolve().parents[3]
SNAPSHOT_EVERY = 500
"""The interval a campaign played in a store leaves snapshots at (``CampaignService``)."""

FORK_ONCE = """
import asyncio, json, sys, time
from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore

kind, where, prefix, campaign_id, at = sys.argv[1:6]


class Counting:
    def __init__(self, store):
        self.store, self.events_read = store, 0

    async def read(self, campaign_id, after=0, until=None, limit=None):
        found = await self.store.read(campaign_id, after, until, limit)
        self.events_read += len(found)
        return found

    def __getattr__(self, name):
        return getattr(self.store, name)


async def main() -> None:
    store = SqliteStore(where) if kind == "sqlite" else RedisStore.from_url(where, prefix=prefix)
    service = CampaignService(store)
    other = await service.create("gil-ennis")
    await service.fork(other.id, other.version)
    counting = Counting(store)
    service = CampaignService(counting)
    started = time.perf_counter()
    await service.fork(campaign_id, int(at))
    took = (time.perf_counter() - started) * 1000
    await store.close()
    print(json.dumps({"ms": took, "events_read": counting.events_read}))

asyncio.run(main())
"""


@dataclass(frozen=True)
class Source:
    path: Path
    campaign_id: str
    head: int
    at: int
    """A decision point near the middle, where the fresh processes fork it."""
    export: bytes
    block: int
    """The events of one block of play: a cold fork reads about two, whatever the length."""


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Source:
    """A 100,000-event campaign in a SQLite store, and its export file."""
    block = asyncio.run(record_block())
    path = tmp_path_factory.mktemp("long") / "source.sqlite3"
    return asyncio.run(_source(path, block))


async def _source(path: Path, block: Block) -> Source:
    store = SqliteStore(path)
    try:
        campaign_id = await long_campaign(store, block, LONG)
        head = (await store.info(campaign_id)).head
        at, _ = middle_point(block, len(block.setup), head)
        data = await exported(CampaignService(store), campaign_id)
    finally:
        await store.close()
    return Source(path, campaign_id, head, at, data, len(block.play))


def cold_fork(kind: str, where: str, prefix: str, campaign_id: str, at: int) -> int:
    """The events a fresh process reads to fork ``campaign_id`` at ``at``."""
    done = subprocess.run(
        [sys.executable, "-c", FORK_ONCE, kind, where, prefix, campaign_id, str(at)],
        cwd=ROOT,
        capture_output=True,
        timeout=600,
        check=True,
    )
    figures = json.loads(done.stdout)
    print(f"cold fork of a {LONG}-event campaign: {figures}")  # the figure, shown with -s
    events_read: int = figures["events_read"]
    return events_read


async def assert_prepared(store: EventStore, campaign_id: str, head: int) -> None:
    """Snapshots as its play would have left them, and every decision point recorded."""
    newest = await store.load_snapshot(campaign_id, head)
    assert newest is not None and head - newest.version < SNAPSHOT_EVERY
    middle = await store.load_snapshot(campaign_id, head // 2)
    assert middle is not None and head // 2 - middle.version < SNAPSHOT_EVERY
    found = await store.point_runs(campaign_id, head // 2, before=1, after=1, highest=head)
    assert found.runs


async def import_into(store: EventStore, source: Source) -> None:
    done = await import_export(store, read_export(lines_of(source.export)))
    assert done.events == source.head
    await assert_prepared(store, source.campaign_id, source.head)


def assert_cheap(source: Source, events_read: int) -> None:
    """As ``test_points_scale`` asks of a campaign played in its store: the head from its
    snapshot and the fork's own start, nowhere near the history."""
    assert events_read < 2 * source.block + 10, f"a cold fork read {events_read} of {LONG}"


@pytest.fixture
def prefix() -> str:
    return f"tt-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def redis_prefix(redis_url: str, prefix: str) -> Iterator[str]:
    yield prefix
    asyncio.run(delete_prefix(redis_url, prefix))


@pytest.fixture
def cluster_prefix(redis_cluster_url: str, prefix: str) -> Iterator[str]:
    yield prefix
    asyncio.run(delete_prefix(redis_cluster_url, prefix))


def test_an_imported_long_campaign_forks_cold_on_sqlite_from_a_few_events(
    source: Source, tmp_path: Path
) -> None:
    target = tmp_path / "target.sqlite3"

    async def run() -> None:
        store = SqliteStore(target)
        try:
            await import_into(store, source)
        finally:
            await store.close()

    asyncio.run(run())
    assert_cheap(source, cold_fork("sqlite", str(target), "", source.campaign_id, source.at))


@pytest.mark.redis
def test_an_imported_long_campaign_forks_cold_on_redis_from_a_few_events(
    source: Source, redis_url: str, redis_prefix: str
) -> None:
    async def run() -> None:
        store = RedisStore.from_url(redis_url, prefix=redis_prefix, settings=patient_settings())
        try:
            await import_into(store, source)
        finally:
            await store.close()

    asyncio.run(run())
    assert_cheap(source, cold_fork("redis", redis_url, redis_prefix, source.campaign_id, source.at))


@pytest.mark.redis
def test_a_long_campaign_migrated_to_a_cluster_forks_cold_from_a_few_events(
    source: Source, redis_cluster_url: str, cluster_prefix: str
) -> None:
    async def run() -> None:
        from_store = SqliteStore(source.path)
        to_store = RedisStore.from_url(
            redis_cluster_url, prefix=cluster_prefix, settings=patient_settings()
        )
        try:
            report = await Migration(from_store, to_store).run(await catalog_of(from_store))
            assert report.created == 1 and not report.refused
            await assert_prepared(to_store, source.campaign_id, source.head)
        finally:
            await from_store.close()
            await to_store.close()

    asyncio.run(run())
    assert_cheap(
        source, cold_fork("redis", redis_cluster_url, cluster_prefix, source.campaign_id, source.at)
    )
