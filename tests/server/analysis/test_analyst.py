"""The analyst's jobs on the memory store, with a worker the test lets through one call at a
time: one decision point per call, each kept as soon as it is computed, a cancel and a stop
taking effect between two points, a second job under a key joining the first, and who may see
which points."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from server.analysis.access import EVERY_SEAT, scope_of
from server.analysis.analyst import Analyst
from server.campaigns.service import CampaignService
from server.errors import ApiError
from server.store.analyses import analyses_of
from server.store.memory import MemoryStore
from tests.support.polling import eventually

pytestmark = pytest.mark.slow

LEVEL = 1
TIMEOUT_S = 600
"""Points estimated in a thread on a busy machine."""


class Gate:
    """A worker that runs each call in a thread once the test lets it through."""

    def __init__(self) -> None:
        self.calls = 0
        self.passes = asyncio.Semaphore(0)

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        await self.passes.acquire()
        self.calls += 1
        return await asyncio.to_thread(work, *args)

    def let(self, count: int) -> None:
        for _ in range(count):
            self.passes.release()


async def played(service: CampaignService, moves: int, seed: int = 45) -> str:
    created = await service.create("gil-ennis", seed=seed, seats=("gil", "ennis"))
    chooser = random.Random(seed)
    for step in range(moves):
        head = await service.head(created.id)
        if head.outcome != "running":
            break
        seat = next(s for s in head.facts.seats if head.legal(s))
        action = chooser.choice(sorted(head.legal(seat)))
        await service.act(
            created.id, seat, action, expected_version=head.version, command_id=f"{step}"
        )
    return created.id


async def until(check: Callable[[], bool], what: str) -> None:
    """Let the job take its turns on this loop until ``check()`` holds."""

    async def holds() -> bool:
        return check()

    await eventually(holds, what, TIMEOUT_S)


async def test_points_are_kept_one_a_call_and_a_cancel_stops_between_two() -> None:
    store = MemoryStore()
    service = CampaignService(store)
    table = analyses_of(store)
    assert table is not None
    gate = Gate()
    analyst = Analyst(service, table, gate.run)
    cid = await played(service, 14)
    head = await service.head(cid)
    out = await analyst.start(head, LEVEL, "gil")
    total = out.total
    assert total >= 3 and out.state == "running" and out.done == 0
    gate.let(2)
    await until(lambda: analyst.computed == 2, "two points")
    kept = await table.points(cid, head.game.info.ruleset, LEVEL)
    assert len(kept) == 2, "each point is kept as soon as it is computed"
    assert (await analyst.read(head, LEVEL, "gil")).done == 2
    assert await analyst.cancel(head, LEVEL)
    gate.let(1)  # a pass left over: nothing takes it
    await until(lambda: analyst.running() == 0, "the cancelled job to end")
    assert gate.calls == 2 and analyst.computed == 2
    assert (await analyst.read(head, LEVEL, "gil")).state == "idle"
    # Asked again, only the missing points are computed; Ennis's join the same job.
    again = await analyst.start(head, LEVEL, "gil")
    assert again.done == 2 and again.state == "running"
    theirs = await analyst.start(head, LEVEL, "ennis")
    assert analyst.running() == 1
    gate.let(total - 2 + theirs.total - 1)
    await until(lambda: analyst.running() == 0, "the job to end")
    assert analyst.computed == total + theirs.total
    assert gate.calls == analyst.computed
    mine = await analyst.read(head, LEVEL, "gil")
    assert mine.state == "done" and mine.done == mine.total == total
    assert all(p.seat == "gil" for p in mine.analysis.points)
    await analyst.close()


async def test_a_stop_between_two_points_keeps_what_was_computed() -> None:
    store = MemoryStore()
    service = CampaignService(store)
    table = analyses_of(store)
    assert table is not None
    gate = Gate()
    analyst = Analyst(service, table, gate.run)
    cid = await played(service, 10)
    head = await service.head(cid)
    await analyst.start(head, LEVEL, "gil")
    gate.let(1)
    await until(lambda: analyst.computed == 1, "one point")
    await analyst.close()
    gate.let(1)  # a pass left over: nothing takes it
    await until(lambda: analyst.running() == 0, "the stopped job to end")
    assert gate.calls == 1
    assert len(await table.points(cid, head.game.info.ruleset, LEVEL)) == 1
    with pytest.raises(ApiError) as refused:
        await analyst.start(head, LEVEL, "gil")
    assert refused.value.code == "unavailable"


async def test_who_sees_which_points() -> None:
    service = CampaignService(MemoryStore())
    parent = await played(service, 6)
    running = await service.head(parent)
    assert running.outcome == "running"
    with pytest.raises(ApiError) as refused:
        await scope_of(service, running, None)
    assert refused.value.code == "forbidden"
    assert await scope_of(service, running, "ennis") == "ennis"
    # A fork that ended while the campaign it shares its history with still runs.
    fork = await service.fork(parent, running.version)
    for step in range(3000):
        head = await service.head(fork.id)
        if head.outcome != "running":
            break
        seat = next(s for s in head.facts.seats if head.legal(s))
        await service.act(
            fork.id,
            seat,
            sorted(head.legal(seat))[0],
            expected_version=head.version,
            command_id=f"f{step}",
        )
    ended = await service.head(fork.id)
    assert ended.outcome != "running"
    with pytest.raises(ApiError):
        await scope_of(service, ended, None)
    assert await scope_of(service, ended, "gil") is EVERY_SEAT
