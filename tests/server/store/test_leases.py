"""The bot table every store keeps (server.store.leases): bot seats, the set of campaigns with
bot seats, and one driver's lease per campaign that expires unless renewed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store.leases import BotTable, bot_table_of
from tests.server.store.helpers import BACKENDS, each_store
from tests.support.polling import Deadline


@pytest.fixture(params=BACKENDS)
async def table(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BotTable]:
    async with each_store(request, tmp_path) as store:
        found = bot_table_of(store)
        assert found is not None
        yield found


async def test_bot_seats_are_kept_and_given_back(table: BotTable) -> None:
    assert await table.seats("c1") == {}
    await table.set_seat("c1", "ennis", "search:2")
    await table.set_seat("c1", "gil", "search:1")
    assert await table.seats("c1") == {"ennis": "search:2", "gil": "search:1"}
    assert await table.clear_seat("c1", "gil")
    assert not await table.clear_seat("c1", "gil")
    assert await table.seats("c1") == {"ennis": "search:2"}


async def test_campaigns_with_bot_seats_are_found_until_put_to_rest(table: BotTable) -> None:
    await table.set_seat("c1", "ennis", "search:2")
    await table.set_seat("c2", "gil", "search:2")
    assert sorted(await table.campaigns()) == ["c1", "c2"]
    await table.rest("c1")
    assert await table.campaigns() == ["c2"]


async def test_one_owner_holds_a_lease_until_it_expires(table: BotTable) -> None:
    await table.set_seat("c1", "ennis", "search:2")
    assert await table.acquire("c1", "a", 300)
    assert not await table.acquire("c1", "b", 300)
    assert await table.holder("c1") == "a"
    assert await table.renew("c1", "a", 300)
    assert not await table.renew("c1", "b", 300)
    # Not renewed, the lease lapses and another owner takes it; the old owner cannot renew it.
    deadline = Deadline("the lease to expire", 60)
    while not await table.acquire("c1", "b", 5_000):
        deadline.check(await table.holder("c1"))
        await asyncio.sleep(0.05)  # polling the store, not waiting for an outcome
    assert await table.holder("c1") == "b"
    assert not await table.renew("c1", "a", 300)


async def test_a_released_lease_is_free_at_once(table: BotTable) -> None:
    await table.set_seat("c1", "ennis", "search:2")
    assert await table.acquire("c1", "a", 60_000)
    await table.release("c1", "b")  # not b's: nothing happens
    assert await table.holder("c1") == "a"
    await table.release("c1", "a")
    assert await table.holder("c1") is None
    assert await table.acquire("c1", "b", 60_000)
