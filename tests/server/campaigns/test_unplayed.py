"""Which stored campaigns this server plays, read from their creation; the census that counts
those it does not; and a raw export, which a server that plays its ruleset replays on import."""

from __future__ import annotations

import asyncio
import logging

import pytest

from domain.core.errors import UnsupportedRuleset
from domain.core.events import CampaignCreated
from server.campaigns.census import Census
from server.campaigns.fresh import Counted
from server.campaigns.played import game_for, played_rulesets
from server.campaigns.service import CampaignService
from server.export.importing import import_export
from server.export.raw import raw_export_lines
from server.export.reading import read_export
from server.store.memory import MemoryStore
from tests.support.polling import eventually
from tests.support.unplayed import ABSENT, NEWER, store_unplayed


@pytest.mark.parametrize(("game", "ruleset"), [NEWER, ABSENT])
def test_a_creation_this_server_does_not_play_is_refused_in_words(game: str, ruleset: str) -> None:
    created = CampaignCreated(game, ruleset, 1, "s", ("gil",))
    with pytest.raises(UnsupportedRuleset) as refused:
        game_for(created)
    words = str(refused.value)
    assert repr(ruleset) in words and all(repr(name) in words for name in played_rulesets())
    assert ("a game this server does not have" in words) == (game == ABSENT[0])


async def test_the_census_counts_every_campaign_private_ones_too_and_logs_the_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = MemoryStore()
    service = CampaignService(store, fresh=Counted("c", 1), clock=lambda: 0)
    await service.create("dice-race")
    await store_unplayed(store, "newer", *NEWER)
    await store_unplayed(store, "absent", *ABSENT, listed=False)
    census = Census(store, service.rulesets, page=2)
    count = await census.run_once()
    assert (count.campaigns, count.unplayed) == (3, 2)
    assert count.rulesets == {ABSENT[1]: 1, NEWER[1]: 1}
    caplog.set_level(logging.INFO, logger="tabletale.census")
    task = asyncio.create_task(census.run(interval=0.01))
    try:

        async def logged() -> bool:
            return any("2 of 3 stored campaigns" in r.getMessage() for r in caplog.records)

        await eventually(logged, "the census logs what it counted", 5.0)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    (record,) = [r for r in caplog.records if "stored campaigns" in r.getMessage()]
    assert record.levelno == logging.WARNING and repr(NEWER[1]) in record.getMessage()


async def test_a_pass_after_the_first_reads_no_event_again() -> None:
    store = MemoryStore()
    service = CampaignService(store, fresh=Counted("d", 1), clock=lambda: 0)
    await store_unplayed(store, "newer", *NEWER)
    census = Census(store, service.rulesets)
    await census.run_once()
    read = store.read

    async def refused(*args: object, **kwargs: object) -> object:
        raise AssertionError("a second pass read an event")

    store.read = refused  # type: ignore[method-assign]
    try:
        assert (await census.run_once()).unplayed == 1
    finally:
        store.read = read  # type: ignore[method-assign]


async def test_a_raw_file_of_a_ruleset_the_importer_plays_is_replayed_and_stored() -> None:
    source = CampaignService(MemoryStore(), fresh=Counted("e", 1), clock=lambda: 0)
    created = await source.create("dice-race", options={"target": 500})
    version = created.version
    for _ in range(3):
        version = (await source.act(created.id, "player", "roll", expected_version=version)).last
    ruleset = await source.rulesets.of(created.id)
    assert ruleset is not None
    lines = [line async for line in raw_export_lines(source, created.id, ruleset, taken_ms=1)]
    exported = read_export(lines)
    assert exported.header.scope == "raw" and len(exported.events) == version
    target = MemoryStore()
    done = await import_export(target, exported)
    assert done.events == version
    assert (await CampaignService(target).verify(created.id)).ok
