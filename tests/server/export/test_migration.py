"""The migration's parts on the memory store: chunked copies, parents before forks, and what the
verification names (other metadata, other bytes, a ruleset this server does not play)."""

from __future__ import annotations

import math

import msgspec

from server.campaigns.codec import Envelope
from server.campaigns.service import CampaignService
from server.export.migration import Migration, catalog_of, parents_first
from server.export.verification import Verification
from server.store.memory import MemoryStore
from tests.server.export.campaigns import play_on, played
from tests.support.gated_store import GatedStore


async def test_a_campaign_is_copied_in_chunks_and_its_forks_after_it() -> None:
    source = CampaignService(MemoryStore())
    root, _ = await played(source, "machina", seed=2, moves=12)
    child = await source.fork(root, (await source.head(root)).version, reseed=True)
    await play_on(source, child.id, seed=3, moves=3)
    infos = await catalog_of(source.store)
    assert [[info.id for info in wave] for wave in parents_first(infos)] == [[root], [child.id]]

    target = GatedStore(MemoryStore())
    report = await Migration(source.store, target, chunk=3).run(infos)
    assert (report.created, report.refused) == (2, [])
    root_head = (await source.store.info(root)).head
    child_own = (await source.store.info(child.id)).head - root_head
    # The first chunk comes with the creation, the last event always with an append.
    appends = math.ceil((root_head - min(3, root_head - 1)) / 3)
    appends += math.ceil((child_own - min(3, child_own - 1)) / 3)
    assert target.calls.count("append") == appends
    assert report.events_written == root_head + child_own
    info = await target.info(child.id)
    assert (info.parent, info.fork_version) == (root, root_head)
    verified = await Verification(source.store, target).run(infos)
    assert (verified.divergences, verified.unlisted, verified.unplayed) == ([], [], [])


async def test_the_verification_names_other_bytes_and_other_metadata() -> None:
    source = CampaignService(MemoryStore())
    one, _ = await played(source, "gil-ennis", seed=5, moves=2)
    two, _ = await played(source, "gil-ennis", seed=6, moves=2)
    target = MemoryStore()
    for campaign_id in (one, two):
        info = await source.store.info(campaign_id)
        events = [stored.data for stored in await source.store.read(campaign_id)]
        attrs = dict(info.attrs)
        if campaign_id == one:  # the last event's time, one byte or more apart
            last = msgspec.msgpack.decode(events[-1])
            last[4] += 1
            events[-1] = msgspec.msgpack.encode(last)
        else:
            attrs["private"] = "1"
        await target.create(
            campaign_id, info.game, now_ms=info.created_ms, attrs=attrs, events=events[:-1]
        )
        await target.append(campaign_id, info.head - 1, events[-1:], now_ms=info.updated_ms)
    verified = await Verification(source.store, target).run(await catalog_of(source.store))
    found = {divergence.campaign: divergence.what for divergence in verified.divergences}
    head = (await source.store.info(one)).head
    assert found[one] == f"version {head} differs between the two stores"
    assert found[two] == "its attributes private differ"


async def test_a_ruleset_this_server_does_not_play_is_compared_but_not_replayed() -> None:
    source = CampaignService(MemoryStore())
    campaign_id, _ = await played(source, "gil-ennis", seed=7, moves=2)
    stored = await source.store.read(campaign_id)
    codec = msgspec.msgpack.Decoder(Envelope[msgspec.Raw])
    first = msgspec.msgpack.decode(stored[0].data)
    first[0]["ruleset"] = "gil-ennis/0+content.0"  # recorded by rules long gone
    assert codec.decode(msgspec.msgpack.encode(first)).hash == first[1]
    events = [msgspec.msgpack.encode(first), *(event.data for event in stored[1:])]
    old = MemoryStore()
    info = await source.store.info(campaign_id)
    await old.create(
        campaign_id, info.game, now_ms=info.created_ms, attrs=info.attrs, events=events
    )
    target = MemoryStore()
    infos = await catalog_of(old)
    assert (await Migration(old, target).run(infos)).created == 1
    verified = await Verification(old, target).run(infos)
    assert (verified.divergences, verified.unplayed) == ([], [campaign_id])
    assert verified.events == len(events) and verified.replayed == 0


async def test_a_campaign_marked_after_it_was_copied_is_marked_by_the_next_run() -> None:
    source = CampaignService(MemoryStore())
    campaign_id = (await source.create("gil-ennis")).id  # secret luck: not marked at first
    await play_on(source, campaign_id, seed=4, moves=5)
    target = MemoryStore()
    await Migration(source.store, target).run(await catalog_of(source.store))
    assert "known_luck" not in (await target.info(campaign_id)).attrs
    # a seat previews its luck in a fork: the campaign is marked, its events unchanged
    await source.fork(campaign_id, (await source.head(campaign_id)).version)
    report = await Migration(source.store, target).run(await catalog_of(source.store))
    assert report.refused == [] and report.present == 1
    assert (await target.info(campaign_id)).attrs.get("known_luck") == "1"
    verified = await Verification(source.store, target).run(await catalog_of(source.store))
    assert verified.divergences == []
