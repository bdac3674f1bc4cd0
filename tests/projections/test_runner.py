from __future__ import annotations

from typing import Any

from domain.core.game import Game
from domain.games import get_game
from projections.catalog import StoredRuleset
from projections.runner import CatalogRunner
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.support.retired import retire


class Source:
    def __init__(self, service: CampaignService) -> None:
        self.service = service
        self.rebuilt: list[str] = []

    async def campaigns(self, *, offset: int, limit: int) -> list[Any]:
        return list(await self.service.store.list_campaigns(offset=offset, limit=limit))

    async def head(self, campaign_id: str) -> tuple[Game, int, Any]:
        self.rebuilt.append(campaign_id)
        version, state = await self.service.state_at(campaign_id)
        return await self.service.game_of(campaign_id), version, state

    async def ruleset(self, campaign_id: str) -> StoredRuleset:
        found = await self.service.rulesets.of(campaign_id)
        assert found is not None
        return found


async def test_a_pass_rebuilds_only_the_campaigns_past_their_checkpoint() -> None:
    service = CampaignService(MemoryStore(), fresh=Counted("r", 1), clock=lambda: 0)
    source = Source(service)
    runner = CatalogRunner(source, page=2)
    ids = [(await service.create("dice-race", options={"target": 500})).id for _ in range(3)]
    assert await runner.run_once() == 3
    assert sorted(source.rebuilt) == sorted(ids)
    assert await runner.run_once() == 0
    await service.act(ids[1], "player", "hold", expected_version=2)
    source.rebuilt.clear()
    assert await runner.run_once() == 1
    assert source.rebuilt == [ids[1]] and runner.checkpoint(ids[1]) == 3
    (stats,) = runner.statistics()
    assert stats.game == "dice-race" and stats.totals.running == 3


async def test_a_fresh_runner_rebuilds_the_same_catalog() -> None:
    service = CampaignService(MemoryStore(), fresh=Counted("r", 2), clock=lambda: 0)
    created = await service.create("dice-race", options={"target": 1})
    version = created.version
    while (await service.head(created.id)).outcome == "running":
        version = (await service.act(created.id, "player", "roll", expected_version=version)).last
    first, second = CatalogRunner(Source(service)), CatalogRunner(Source(service))
    infos = await service.store.list_campaigns()
    assert await first.entries(infos) == await second.entries(infos)
    (entry,) = await first.entries(infos)
    assert entry.status == "won" and entry.version == version


async def test_a_campaign_of_a_retired_ruleset_is_listed_as_not_played_and_counted_apart() -> None:
    store = MemoryStore()
    service = CampaignService(store, fresh=Counted("r", 3), clock=lambda: 0)
    old, new = [(await service.create("dice-race")).id for _ in range(2)]
    retire(store, old, "dice-race/0")
    runner = CatalogRunner(Source(CampaignService(store)))
    assert await runner.run_once() == 2
    entries = {e.id: e for e in await runner.entries(await store.list_campaigns())}
    assert set(entries) == {old, new}
    assert (entries[old].played, entries[old].status, entries[old].ruleset) == (
        False,
        "unknown",
        "dice-race/0",
    )
    assert entries[old].unplayed is not None and "'dice-race/0'" in entries[old].unplayed
    assert entries[new].played and entries[new].ruleset == get_game("dice-race").info.ruleset
    assert await runner.run_once() == 0  # the entry is kept like any other
    (stats,) = runner.statistics()
    assert (stats.totals.running, stats.totals.unplayed) == (1, 1)
    assert stats.unplayed_rulesets == {"dice-race/0": 1}
