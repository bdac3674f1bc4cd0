"""Export files round trip: a campaign of each game, and a fork standing alone, taken from the
SQLite store and imported into Redis, a Redis Cluster or another SQLite store, where replaying
it checks every state hash and every stored byte is the source's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.campaigns.service import CampaignService
from server.export.format import Segment
from server.export.importing import import_export
from server.export.reading import read_export
from server.store.base import UnknownCampaign
from server.store.contract import EventStore
from server.store.sqlite import SqliteStore
from tests.server.export.campaigns import play_on, played
from tests.server.export.stores import exported, lines_of, redis_store
from tests.support.gated_store import GatedStore

pytestmark = pytest.mark.redis


@pytest.fixture
async def source(tmp_path: Path) -> AsyncIterator[CampaignService]:
    store = SqliteStore(tmp_path / "source.sqlite3")
    yield CampaignService(store)
    await store.close()


async def same_campaign(source: EventStore, target: EventStore, campaign_id: str) -> None:
    """Every stored byte, the creation time, attributes and listed flag alike on both sides,
    and the target's copy replays to every state hash."""
    mine, theirs = await source.read(campaign_id), await target.read(campaign_id)
    assert [e.data for e in theirs] == [e.data for e in mine]
    before, after = await source.info(campaign_id), await target.info(campaign_id)
    assert (after.created_ms, after.attrs, after.listed, after.head) == (
        before.created_ms,
        before.attrs,
        before.listed,
        before.head,
    )
    report = await CampaignService(target).verify(campaign_id)
    assert report.ok, report
    assert report.events == before.head


@pytest.mark.parametrize(
    ("game", "kind"), [("gil-ennis", "redis"), ("eila", "cluster"), ("machina", "redis")]
)
async def test_a_finished_campaign_of_each_game_round_trips_into_redis(
    game: str, kind: str, source: CampaignService, redis_url: str, redis_cluster_url: str
) -> None:
    campaign_id, tokens = await played(source, game, seed=11, private=game == "machina")
    assert (await source.head(campaign_id)).outcome != "running"
    data = await exported(source, campaign_id)
    checked = read_export(lines_of(data))
    assert checked.campaign.outcome != "running"
    assert not any(token.encode() in data for token in tokens.values())  # hashes only
    async with redis_store(redis_url if kind == "redis" else redis_cluster_url) as target:
        assert (await import_export(target, checked)).outcome == "created"
        await same_campaign(source.store, target, campaign_id)
        # A second import finds every event there and writes nothing.
        again = await import_export(target, read_export(lines_of(data)))
        assert (again.outcome, again.events) == ("present", checked.campaign.head)


async def test_a_running_campaign_exported_twice_is_completed_by_the_second_import(
    source: CampaignService, redis_url: str
) -> None:
    campaign_id, _ = await played(source, "gil-ennis", seed=4, moves=6)
    early = await exported(source, campaign_id)
    await play_on(source, campaign_id, seed=5, moves=6)
    later = await exported(source, campaign_id)
    async with redis_store(redis_url) as target:
        await import_export(target, read_export(lines_of(early)))
        done = await import_export(target, read_export(lines_of(later)))
        assert done.outcome == "completed"
        assert done.appended == read_export(lines_of(later)).campaign.head - (
            read_export(lines_of(early)).campaign.head
        )
        assert (await target.info(campaign_id)).head == done.events


async def test_a_forks_export_stands_alone_and_joins_its_parent_where_it_is_held(
    source: CampaignService, tmp_path: Path
) -> None:
    root, _ = await played(source, "gil-ennis", seed=21, moves=8)
    at_root = (await source.head(root)).version
    child = await source.fork(root, at_root, reseed=True)
    await play_on(source, child.id, seed=22, moves=5)
    at_child = (await source.head(child.id)).version
    grandchild = await source.fork(child.id, at_child)
    head = await play_on(source, grandchild.id, seed=23, moves=4)

    data = await exported(source, grandchild.id)
    checked = read_export(lines_of(data))
    assert checked.campaign.lineage == (
        Segment(root, 1, at_root),
        Segment(child.id, at_root + 1, at_child),
        Segment(grandchild.id, at_child + 1, head),
    )
    assert (checked.campaign.parent, checked.campaign.own_from) == (child.id, at_child + 1)
    assert [e.version for e in checked.events] == list(range(1, head + 1))

    # Into a store that holds nothing of its lineage: a campaign of its own, whole.
    alone = SqliteStore(tmp_path / "alone.sqlite3")
    try:
        assert (await import_export(alone, checked)).outcome == "created"
        info = await alone.info(grandchild.id)
        assert (info.parent, info.head) == (None, head)
        assert [e.data for e in await alone.read(grandchild.id)] == [
            e.data for e in await source.store.read(grandchild.id)
        ]
        assert (await CampaignService(alone).verify(grandchild.id)).ok
    finally:
        await alone.close()

    # Into a store that holds its parents: a fork again, of the same prefix.
    lineage = SqliteStore(tmp_path / "lineage.sqlite3")
    try:
        for campaign_id in (root, child.id):
            await import_export(lineage, read_export(lines_of(await exported(source, campaign_id))))
        done = await import_export(lineage, checked)
        assert (done.outcome, done.parent) == ("forked", child.id)
        info = await lineage.info(grandchild.id)
        assert (info.parent, info.fork_version, info.head) == (child.id, at_child, head)
        await same_campaign(source.store, lineage, grandchild.id)
    finally:
        await lineage.close()


async def test_a_long_campaign_is_staged_out_of_sight_and_a_rerun_completes_it(
    source: CampaignService, redis_url: str
) -> None:
    campaign_id, _ = await played(source, "machina", seed=8)
    checked = read_export(lines_of(await exported(source, campaign_id)))
    step = 10
    assert checked.campaign.head > 3 * step
    staging = campaign_id + ".import"
    async with redis_store(redis_url) as target:
        gated = GatedStore(target)
        gate = gated.hold("append", staging)
        interrupted = asyncio.create_task(import_export(gated, checked, atomic=step))
        await gate.reached()
        # Killed after its first step: the history so far is in a private, unlisted campaign;
        # the campaign itself is nowhere to be seen.
        held = await target.info(staging)
        assert (held.head, held.listed, held.attrs) == (step, False, {"private": "1"})
        with pytest.raises(UnknownCampaign):
            await target.info(campaign_id)
        assert [info.id for info in await target.list_campaigns(listed_only=True)] == []
        interrupted.cancel()
        with pytest.raises(asyncio.CancelledError):
            await interrupted

        done = await import_export(target, checked, atomic=step)
        assert (done.outcome, done.staged, done.parent) == ("created", True, staging)
        info = await target.info(campaign_id)
        head = checked.campaign.head
        assert (info.parent, info.fork_version, info.head) == (staging, head, head)
        assert [e.data for e in await target.read(campaign_id)] == [
            e.data for e in await source.store.read(campaign_id)
        ]
        assert (await CampaignService(target).verify(campaign_id)).ok
        assert (await import_export(target, checked, atomic=step)).outcome == "present"


@pytest.mark.parametrize("atomic", [5_000, 20])
async def test_an_import_arrives_with_the_points_and_snapshots_its_play_left(
    source: CampaignService, tmp_path: Path, atomic: int
) -> None:
    campaign_id, _ = await played(source, "gil-ennis", seed=5, moves=25)
    await source.rewind(campaign_id, (await source.head(campaign_id)).version - 6)
    await play_on(source, campaign_id, seed=6, moves=10)
    data = await exported(source, campaign_id)
    target = SqliteStore(tmp_path / "target.sqlite3")
    try:
        done = await import_export(target, read_export(lines_of(data)), atomic=atomic)
        assert done.staged == (atomic == 20)
        head = (await target.info(campaign_id)).head
        snapshot = await target.load_snapshot(campaign_id, head)
        assert snapshot is not None and snapshot.version == head, "it arrives at rest"
        # every point recorded: a lookup needs no fold, and finds what play recorded live
        ask = {"before": 10_000, "after": 10_000, "highest": head}
        arrived = await target.point_runs(campaign_id, 1, **ask)
        assert arrived == await source.store.point_runs(campaign_id, 1, **ask)
    finally:
        await target.close()


async def test_a_campaign_marked_since_it_was_imported_is_marked_by_the_next_import(
    source: CampaignService, tmp_path: Path
) -> None:
    campaign_id = (await source.create("gil-ennis")).id  # secret luck: not marked at first
    await play_on(source, campaign_id, seed=8, moves=6)
    first = await exported(source, campaign_id)
    # a seat previews the luck in a fork: the campaign is marked, its events unchanged
    await source.fork(campaign_id, (await source.head(campaign_id)).version)
    again = await exported(source, campaign_id)
    target = SqliteStore(tmp_path / "target.sqlite3")
    try:
        await import_export(target, read_export(lines_of(first)))
        assert "known_luck" not in (await target.info(campaign_id)).attrs
        done = await import_export(target, read_export(lines_of(again)))
        assert done.outcome == "present"
        assert (await target.info(campaign_id)).attrs.get("known_luck") == "1"
    finally:
        await target.close()
