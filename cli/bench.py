"""``tabletale bench replay``: how fast state is rebuilt from events, and what a fork costs.

One Gil & Ennis campaign is grown to the requested number of events by playing random legal games
and rewinding to the start of the game whenever the next action would end it (every event is a
real, hash-stamped event appended through the campaign service). A finished campaign cannot be
rewound, so no game is let finish: the rewind goes to the first of the campaign's rewind points,
where the game's first decision is made. The same stream is then copied into SQLite and Redis and
replayed from each, and compared with a raw ``XRANGE`` of the Redis stream. Forks are timed at
the fork points nearest to version 10 and to the head (only decision points can be forked).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from cli.console import Advance, print_table, progress
from domain.bots.uniform_random import UniformRandom
from domain.core.engine import replay
from domain.games import get_game
from server.campaigns.codec import codec_for
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.contract import EventStore
from server.store.memory import MemoryStore

GAME = "gil-ennis"
BATCH = 1_000


class ReplayFigures(msgspec.Struct):
    events: int
    reduce_events_per_s: float
    sqlite_replay_events_per_s: float
    redis_replay_events_per_s: float
    raw_xrange_s: float
    redis_replay_s: float
    replay_over_raw: float
    fork_at_10_s: float
    fork_at_max_s: float
    fork_near_10_version: int
    """The fork point nearest to version 10, where ``fork_at_10_s`` was timed."""
    fork_near_max_version: int
    """The fork point nearest to the head (the head itself, when it is one), where
    ``fork_at_max_s`` was timed."""
    fork_max_over_10: float
    """``fork_at_max_s / fork_at_10_s``: a fork costs the same anywhere (goal: at most 1.5)."""


async def grow(events: int, seed: int, advance: Advance | None) -> MemoryStore:
    """A memory store holding one campaign (id ``bench-000001``) of at least ``events`` events,
    still running: whenever the bot's next action would end the game, the campaign is rewound to
    its first rewind point instead, and the next game starts from there."""
    store = MemoryStore()
    service = CampaignService(store, fresh=Counted("bench", seed), snapshot_every=10**12)
    game = get_game(GAME)
    created = await service.create(GAME, seed=seed)
    bot = UniformRandom(seed)
    version, state = await service.state_at(created.id)
    while version < events:
        seat, choice = bot.choose(game, state)
        steps = game.play(state, seat, choice.action)
        if game.outcome(steps[-1][1]) != "running":
            points = await service.points(await service.head(created.id), 1, limit=1)
            acted = await service.rewind(created.id, points.rewind[0][0], expected_version=version)
        else:
            acted = await service.act(created.id, seat, choice.id, expected_version=version)
        version, state = await service.state_at(created.id)
        assert version == acted.last
        if advance is not None:
            advance(min(version, events), events)
    return store


def nearest(runs: Sequence[tuple[int, int]], version: int) -> int:
    """The point nearest to ``version`` (the earlier of two as near) among runs of points."""
    candidates = [min(max(version, first), last) for first, last in runs]
    return min(candidates, key=lambda point: (abs(point - version), point))


async def copy_campaign(source: MemoryStore, campaign_id: str, target: EventStore) -> None:
    info = await source.info(campaign_id)
    stored = await source.read(campaign_id)
    await target.create(
        campaign_id, info.game, now_ms=info.created_ms, attrs=info.attrs, listed=info.listed
    )
    for start in range(0, len(stored), BATCH):
        chunk = stored[start : start + BATCH]
        await target.append(campaign_id, start, [e.data for e in chunk])


async def _timed(make: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await make()
    return time.perf_counter() - started


async def _best_of(runs: int, make: Callable[[], Awaitable[Any]]) -> float:
    return min([await _timed(make) for _ in range(runs)])


async def measure(events: int, redis_url: str, seed: int, *, quiet: bool) -> ReplayFigures:
    from server.store.redis_store import RedisStore
    from server.store.sqlite import SqliteStore

    with progress("growing the stream", enabled=not quiet) as advance:
        source = await grow(events, seed, advance)
    campaign_id = "bench-000001"
    game = get_game(GAME)
    codec = codec_for(game)
    stored = await source.read(campaign_id)
    total = len(stored)
    decoded = [(e.version, codec.decode(e.data).event) for e in stored]

    reduce_s = min(_clock(lambda: replay(game, decoded)) for _ in range(3))

    with tempfile.TemporaryDirectory() as tmp:
        sqlite = SqliteStore(Path(tmp) / "bench.sqlite3")
        try:
            await copy_campaign(source, campaign_id, sqlite)
            sqlite_s = await _best_of(3, lambda: CampaignService(sqlite).replay(campaign_id))
        finally:
            await sqlite.close()

    prefix = f"ttbench-{uuid.uuid4().hex[:8]}"
    redis = RedisStore.from_url(redis_url, prefix=prefix)
    client = redis.client  # the store's own: a cluster's client on a redis+cluster:// URL
    try:
        await copy_campaign(source, campaign_id, redis)
        key = f"{prefix}:{{{campaign_id}}}:events"  # the stream key layout of RedisStore
        raw_s = await _best_of(3, lambda: client.xrange(key))
        redis_s = await _best_of(3, lambda: CampaignService(redis).replay(campaign_id))
        service = CampaignService(redis)
        # The copy was appended without saying which versions are decision points: they are
        # recorded once, before the timings, as for a stream stored before the store kept them.
        head = await service.head(campaign_id)
        with progress("recording the decision points", enabled=not quiet) as advance:
            await service.decision_points.runs(head, 1, before=1, after=1, progress=advance)
        near_10 = nearest((await service.points(head, 10, limit=1)).fork, 10)
        near_max = nearest((await service.points(head, total, limit=1)).fork, total)
        fork_10 = await _median_fork(service, campaign_id, near_10)
        fork_max = await _median_fork(service, campaign_id, near_max)
    finally:
        await _delete_prefix(client, prefix)
        await redis.close()

    return ReplayFigures(
        events=total,
        reduce_events_per_s=round(total / reduce_s),
        sqlite_replay_events_per_s=round(total / sqlite_s),
        redis_replay_events_per_s=round(total / redis_s),
        raw_xrange_s=round(raw_s, 4),
        redis_replay_s=round(redis_s, 4),
        replay_over_raw=round(redis_s / raw_s, 2),
        fork_at_10_s=round(fork_10, 6),
        fork_at_max_s=round(fork_max, 6),
        fork_near_10_version=near_10,
        fork_near_max_version=near_max,
        fork_max_over_10=round(fork_max / fork_10, 2),
    )


def _clock(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


async def _median_fork(service: CampaignService, campaign_id: str, at: int) -> float:
    times = [await _timed(lambda: service.fork(campaign_id, at)) for _ in range(7)]
    return statistics.median(times)


async def _delete_prefix(client: aioredis.Redis | RedisCluster, prefix: str) -> None:
    keys = [key async for key in client.scan_iter(match=f"{prefix}:*", count=1000)]
    for key in keys:  # one at a time: the keys of one command share a slot on a cluster
        await client.delete(key)


def _near_head(figures: ReplayFigures) -> str:
    return "the head" if figures.fork_near_max_version == figures.events else "nearest the head"


def bench_replay(*, events: int, redis_url: str, seed: int, as_json: bool) -> int:
    figures = asyncio.run(measure(events, redis_url, seed, quiet=as_json))
    if as_json:
        print(msgspec.json.encode(figures).decode())
        return 0
    rows = [
        ("events in the stream", f"{figures.events:,}", ""),
        ("pure reduce", f"{figures.reduce_events_per_s:,.0f}", "events/s"),
        ("replay from SQLite", f"{figures.sqlite_replay_events_per_s:,.0f}", "events/s"),
        ("replay from Redis", f"{figures.redis_replay_events_per_s:,.0f}", "events/s"),
        ("raw XRANGE of the stream", f"{figures.raw_xrange_s:.4f}", "s"),
        ("replay from Redis", f"{figures.redis_replay_s:.4f}", "s"),
        ("replay / raw read", f"{figures.replay_over_raw:.2f}", "x"),
        (
            f"fork at version {figures.fork_near_10_version:,} (the point nearest 10)",
            f"{figures.fork_at_10_s * 1000:.3f}",
            "ms",
        ),
        (
            f"fork at version {figures.fork_near_max_version:,} ({_near_head(figures)})",
            f"{figures.fork_at_max_s * 1000:.3f}",
            "ms",
        ),
        ("fork near the head / fork near 10", f"{figures.fork_max_over_10:.2f}", "x"),
    ]
    print_table(rows, title="Replay, raw read and fork")
    return 0


async def seed_redis(
    events: int, seed: int, *, redis_url: str, prefix: str, campaign_id: str
) -> None:
    """Grow a campaign of ``events`` events in memory and copy it into the Redis store at
    ``redis_url`` under ``prefix`` (for load tests that read a long campaign)."""
    from server.store.redis_store import RedisStore

    source = await grow(events, seed, None)
    store = RedisStore.from_url(redis_url, prefix=prefix)
    try:
        await copy_campaign(source, campaign_id, store)
    finally:
        await store.close()
