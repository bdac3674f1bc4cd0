"""``tabletale migrate``: 1,000 campaigns (forks among them) from SQLite to a Redis Cluster, killed
half-way with SIGKILL and run again, then verified; and a target holding a campaign of the same
id with other events, refused."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.main import main
from domain.core.errors import IllegalAction
from server.campaigns.service import CampaignService
from server.export.migration import WORKERS, catalog_of
from server.export.verification import Verification, VerificationReport
from server.store.base import CampaignInfo
from server.store.contract import EventStore
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.redis_support import delete_prefix
from tests.server.export.campaigns import GAMES, play_on, played
from tests.support.polling import eventually

pytestmark = [pytest.mark.redis, pytest.mark.slow]

CAMPAIGNS = 1_000
FORKS = 60
KILL_AFTER = 300
"""Campaigns the target's catalog lists when the first run is killed."""
ROOT = Path(__file__).resolve().parents[2]


async def make_campaigns(path: Path, roots: int, forks: int) -> list[str]:
    """``roots`` short campaigns of the three games (every tenth private) and ``forks`` forks
    of them (every other with new luck, a sixth of them forks of forks), in the SQLite store at
    ``path``; returns the ids of the roots."""
    store = SqliteStore(path)
    service = CampaignService(store, cache_size=64)
    try:
        made = []
        for index in range(roots):
            campaign_id, _ = await played(
                service, GAMES[index % 3], seed=index, moves=index % 5, private=index % 10 == 9
            )
            made.append(campaign_id)
        parents = list(made)
        forked = 0
        for index, parent in enumerate(parents):
            if forked == forks:
                break
            head = await service.head(parent)
            try:
                child = await service.fork(parent, head.version, reseed=index % 2 == 0)
            except IllegalAction:
                continue  # not a point where a seat decides
            forked += 1
            await play_on(service, child.id, seed=index, moves=2)
            if forked % 6 == 0:
                parents.append(child.id)  # to be forked in turn
        assert forked == forks
        return made
    finally:
        await store.close()


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("migrate") / "source.sqlite3"
    asyncio.run(make_campaigns(path, CAMPAIGNS - FORKS, FORKS))
    return path


@pytest.fixture
def prefix(redis_cluster_url: str) -> Iterator[str]:
    name = f"tt-test-{uuid.uuid4().hex[:12]}"
    yield name
    asyncio.run(delete_prefix(redis_cluster_url, name))


def migrate_command(source: Path, target: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cli.main",
        "migrate",
        "--from",
        f"sqlite:{source}",
        "--to",
        target,
    ]


async def held(store: EventStore, at_least: int) -> bool:
    return len(await store.list_campaigns(offset=at_least - 1, limit=1)) == 1


async def verify(
    source: Path, target_url: str, prefix: str
) -> tuple[list[CampaignInfo], VerificationReport]:
    """The source's campaigns and what the verification finds, in this process."""
    mine = SqliteStore(source)
    theirs = RedisStore.from_url(target_url, prefix=prefix)
    try:
        infos = await catalog_of(mine)
        report = await Verification(mine, theirs).run(infos)
        return infos, report
    finally:
        await mine.close()
        await theirs.close()


def test_a_migration_killed_half_way_completes_when_run_again(
    source: Path, redis_cluster_url: str, prefix: str
) -> None:
    command = migrate_command(source, f"{redis_cluster_url}?prefix={prefix}")
    first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    async def kill_half_way() -> None:
        target = RedisStore.from_url(redis_cluster_url, prefix=prefix)
        try:

            async def some_copied() -> bool:
                assert first.poll() is None, "the migration ended before it was killed"
                return await held(target, KILL_AFTER)

            await eventually(some_copied, f"{KILL_AFTER} campaigns on the target", 180)
            first.send_signal(signal.SIGKILL)
            await asyncio.to_thread(first.wait, 30)
            assert not await held(target, CAMPAIGNS), "it had finished when it was killed"
        finally:
            await target.close()

    try:
        asyncio.run(kill_half_way())
    finally:
        first.kill()
        first.communicate(timeout=30)
    assert first.returncode == -signal.SIGKILL

    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    said = again.stdout
    copied = re.search(
        r"(\d[\d,]*) campaigns stored, (\d[\d,]*) completed, (\d[\d,]*) there already, 0 refused",
        said,
    )
    assert copied is not None, said + again.stderr
    stored, completed, present = (int(group.replace(",", "")) for group in copied.groups())
    assert stored + completed + present == CAMPAIGNS
    assert present >= KILL_AFTER - WORKERS  # those the killed run had finished
    assert stored < CAMPAIGNS - KILL_AFTER + WORKERS
    assert "; 0 divergences." in said and "diverges" not in said
    # A campaign the killed run created but had not entered in the Redis catalog yet is put
    # back there by the resumed run: every campaign is listed.
    assert not re.findall(r"^unlisted (\w+)$", said, re.MULTILINE), said
    assert again.returncode == 0, said + again.stderr

    infos, report = asyncio.run(verify(source, redis_cluster_url, prefix))
    assert len(infos) == CAMPAIGNS and sum(1 for info in infos if info.parent) == FORKS
    assert report.divergences == []
    assert report.unlisted == []
    # Each campaign's own events, once: as many on the target as in the source.
    assert report.events == sum(info.head - info.fork_version for info in infos)


async def conflicting_target(source: Path, target: RedisStore) -> tuple[str, str, int]:
    """Puts on ``target`` a campaign with the id of one of ``source``'s, its creation time and
    attributes, but another campaign's events; returns that id, the id of its fork in the
    source, and the target's head for it."""
    store = SqliteStore(source)
    service = CampaignService(store)
    try:
        victim, _ = await played(service, "gil-ennis", seed=1, moves=3)
        other, _ = await played(service, "gil-ennis", seed=2, moves=3)
        fork = await service.fork(victim, (await service.head(victim)).version)
        info = await store.info(victim)
        events = [stored.data for stored in await store.read(other)]
        await target.create(
            victim, info.game, now_ms=info.created_ms, attrs=dict(info.attrs), events=events
        )
        return victim, fork.id, len(events)
    finally:
        await store.close()


def test_a_campaign_the_target_holds_with_other_events_is_refused_and_left_alone(
    tmp_path: Path, redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "source.sqlite3"
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    sep = "&" if "?" in redis_url else "?"

    async def prepare() -> tuple[str, str, int]:
        target = RedisStore.from_url(redis_url, prefix=prefix)
        try:
            return await conflicting_target(source, target)
        finally:
            await target.close()

    async def head_of(campaign_id: str) -> int:
        target = RedisStore.from_url(redis_url, prefix=prefix)
        try:
            return (await target.info(campaign_id)).head
        finally:
            await target.close()

    try:
        victim, fork, head = asyncio.run(prepare())
        status = main(
            ["migrate", "--from", f"sqlite:{source}", "--to", f"{redis_url}{sep}prefix={prefix}"]
        )
        said = capsys.readouterr().out
        assert status == 1
        assert f"refused {victim}: The target store already holds a campaign {victim}" in said
        assert "differs from version 1 on: its events are not the source's" in said
        assert f"refused {fork}: its parent {victim} was refused" in said
        assert "1 campaigns stored" in said and "; 0 divergences." in said  # the other one
        assert asyncio.run(head_of(victim)) == head
    finally:
        asyncio.run(delete_prefix(redis_url, prefix))
