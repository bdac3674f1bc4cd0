"""Conformance of the recorder, part one: creating, appending, reading ranges, races, retries."""

from __future__ import annotations

import asyncio

import pytest

from server.store.base import (
    AppendResult,
    CampaignExists,
    StoredEvent,
    UnknownCampaign,
    VersionConflict,
)
from server.store.contract import EventStore
from tests.server.store.helpers import (
    batch,
    campaign_with,
    family,
    payloads,
    versions,
)


class StreamConformance:
    # Creating and reading

    async def test_new_campaign_is_empty_at_head_zero(self, store: EventStore) -> None:
        info = await store.create("c", "gil_ennis", now_ms=1_234)
        assert (info.id, info.game, info.head) == ("c", "gil_ennis", 0)
        assert (info.created_ms, info.updated_ms) == (1_234, 1_234)
        assert (info.parent, info.fork_version, info.attrs) == (None, 0, {})
        assert await store.info("c") == info
        assert await store.read("c") == []

    async def test_a_campaign_created_with_events_holds_them_from_version_one(
        self, store: EventStore
    ) -> None:
        info = await store.create("c", "gil_ennis", now_ms=5, events=batch("e", 3))
        assert info.head == 3 and (await store.info("c")).head == 3
        assert await store.read("c") == [StoredEvent(v, f"e{v}".encode()) for v in (1, 2, 3)]
        assert await store.append("c", 3, [b"e4"]) == AppendResult(4, 4)

    async def test_a_refused_creation_with_events_writes_none_of_them(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "c", 2)
        with pytest.raises(CampaignExists):
            await store.create("c", "gil_ennis", now_ms=9, events=batch("x", 4))
        assert payloads(await store.read("c")) == [b"p1", b"p2"]
        assert (await store.info("c")).head == 2

    async def test_creating_an_existing_campaign_raises_and_keeps_the_original(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "c", 2)
        with pytest.raises(CampaignExists):
            await store.create("c", "eila", now_ms=9_999)
        info = await store.info("c")
        assert (info.game, info.head, info.created_ms) == ("gil_ennis", 2, 1_000)

    async def test_unknown_campaign_raises_on_every_lookup(self, store: EventStore) -> None:
        with pytest.raises(UnknownCampaign):
            await store.info("nowhere")
        with pytest.raises(UnknownCampaign):
            await store.read("nowhere")
        with pytest.raises(UnknownCampaign):
            await store.append("nowhere", 0, [b"x"])
        with pytest.raises(UnknownCampaign):
            await store.command_result("nowhere", "cmd")
        with pytest.raises(UnknownCampaign):
            await store.save_snapshot("nowhere", 0, b"s")
        with pytest.raises(UnknownCampaign):
            await store.load_snapshot("nowhere", 10)
        with pytest.raises(UnknownCampaign):
            await store.fork("nowhere", 0, "child", now_ms=1)
        assert await store.list_campaigns() == []

    async def test_payload_bytes_come_back_exactly(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        odd = [b"", b"\x00\xff\x00", "ünïcödé".encode(), bytes(range(256)) * 400]
        await store.append("c", 0, odd)
        assert payloads(await store.read("c")) == odd

    # Appending

    async def test_first_append_gets_versions_one_to_n(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        result = await store.append("c", 0, batch("e", 3), now_ms=50)
        assert result == AppendResult(first=1, last=3)
        assert await store.read("c") == [
            StoredEvent(1, b"e1"),
            StoredEvent(2, b"e2"),
            StoredEvent(3, b"e3"),
        ]
        info = await store.info("c")
        assert (info.head, info.updated_ms) == (3, 50)

    async def test_updated_time_never_goes_backwards(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=100)
        await store.append("c", 0, [b"a"], now_ms=500)
        await store.append("c", 1, [b"b"], now_ms=200)
        assert (await store.info("c")).updated_ms == 500

    async def test_an_empty_batch_is_refused(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        with pytest.raises(ValueError):
            await store.append("c", 0, [])
        assert (await store.info("c")).head == 0

    async def test_stale_expected_version_conflicts_with_the_actual_head(
        self, store: EventStore
    ) -> None:
        await campaign_with(store, "c", 2)
        for expected in (0, 1, 3, 7):
            with pytest.raises(VersionConflict) as raised:
                await store.append("c", expected, [b"late"])
            assert (raised.value.expected, raised.value.actual) == (expected, 2)
        assert payloads(await store.read("c")) == [b"p1", b"p2"]
        assert (await store.info("c")).head == 2

    async def test_a_conflicting_batch_writes_none_of_its_events(self, store: EventStore) -> None:
        await campaign_with(store, "c", 1)
        with pytest.raises(VersionConflict):
            await store.append("c", 0, batch("lost", 4), command_id="lost")
        assert payloads(await store.read("c")) == [b"p1"]
        assert await store.command_result("c", "lost") is None
        assert await store.append("c", 1, [b"next"]) == AppendResult(first=2, last=2)

    async def test_versions_stay_contiguous_over_many_appends(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        written: list[bytes] = []
        for round_ in range(30):
            events = batch(f"r{round_}-", round_ % 7 + 1)
            result = await store.append("c", len(written), events)
            assert (result.first, result.last) == (len(written) + 1, len(written) + len(events))
            written += events
        stored = await store.read("c")
        assert versions(stored) == list(range(1, len(written) + 1))
        assert payloads(stored) == written

    # Reading ranges

    async def test_read_honours_after_until_and_limit(self, store: EventStore) -> None:
        await campaign_with(store, "c", 6)
        assert versions(await store.read("c", 2)) == [3, 4, 5, 6]
        assert versions(await store.read("c", 2, 4)) == [3, 4]
        assert versions(await store.read("c", 2, limit=3)) == [3, 4, 5]
        assert versions(await store.read("c", 1, 5, limit=10)) == [2, 3, 4, 5]
        assert versions(await store.read("c", 0, 100)) == [1, 2, 3, 4, 5, 6]
        assert await store.read("c", 6) == []
        assert await store.read("c", 9) == []
        assert await store.read("c", 3, 3) == []
        assert await store.read("c", 0, limit=0) == []

    async def test_read_limit_counts_across_a_fork_boundary(self, store: EventStore) -> None:
        await family(store)
        assert payloads(await store.read("child", 1, limit=3)) == [b"p2", b"p3", b"c4"]
        assert payloads(await store.read("child", 2, 4)) == [b"p3", b"c4"]
        assert payloads(await store.read("child", 0, limit=2)) == [b"p1", b"p2"]
        assert payloads(await store.read("grandchild", 2, limit=3)) == [b"p3", b"c4", b"g5"]
        assert versions(await store.read("grandchild", 0, limit=5)) == [1, 2, 3, 4, 5]

    # Racing writers

    async def test_racing_writers_get_exactly_one_winner(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)

        async def write(writer: int) -> AppendResult | VersionConflict:
            try:
                return await store.append("c", 0, batch(f"w{writer}-", 3))
            except VersionConflict as conflict:
                return conflict

        outcomes = await asyncio.gather(*(write(writer) for writer in range(20)))
        winners = [o for o in outcomes if isinstance(o, AppendResult)]
        losers = [o for o in outcomes if isinstance(o, VersionConflict)]
        assert winners == [AppendResult(first=1, last=3)]
        assert len(losers) == 19
        assert {loser.actual for loser in losers} == {3}
        stored = await store.read("c")
        assert versions(stored) == [1, 2, 3]
        winner_tag = stored[0].data[:-1]
        assert payloads(stored) == [winner_tag + b"1", winner_tag + b"2", winner_tag + b"3"]

    async def test_retrying_racers_leave_no_gaps_or_duplicates(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)

        async def write_until_accepted(writer: int) -> int:
            expected = 0
            while True:
                try:
                    return (await store.append("c", expected, [f"w{writer}".encode()])).first
                except VersionConflict as conflict:
                    expected = conflict.actual

        placed = await asyncio.gather(*(write_until_accepted(w) for w in range(20)))
        assert sorted(placed) == list(range(1, 21))
        stored = await store.read("c")
        assert versions(stored) == list(range(1, 21))
        by_version = {event.version: event.data for event in stored}
        assert [by_version[version] for version in placed] == [
            f"w{writer}".encode() for writer in range(20)
        ]

    # Idempotent retries

    async def test_a_retried_command_returns_its_original_result(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        first = await store.append("c", 0, [b"a", b"b"], command_id="cmd-1")
        assert first == AppendResult(first=1, last=2)
        again = await store.append("c", 0, [b"a", b"b"], command_id="cmd-1")
        assert again == AppendResult(first=1, last=2, duplicate=True)
        assert payloads(await store.read("c")) == [b"a", b"b"]
        assert await store.command_result("c", "cmd-1") == AppendResult(first=1, last=2)
        assert await store.command_result("c", "cmd-2") is None

    async def test_a_retry_at_a_stale_version_is_still_a_duplicate(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        await store.append("c", 0, [b"a"], command_id="cmd-1")
        await store.append("c", 1, [b"b", b"c"], command_id="cmd-2")
        retry = await store.append("c", 0, [b"other"], command_id="cmd-1")
        assert retry == AppendResult(first=1, last=1, duplicate=True)
        retry = await store.append("c", 3, [b"other"], command_id="cmd-2")
        assert retry == AppendResult(first=2, last=3, duplicate=True)
        assert payloads(await store.read("c")) == [b"a", b"b", b"c"]

    async def test_racing_retries_of_one_command_append_once(self, store: EventStore) -> None:
        await store.create("c", "gil_ennis", now_ms=1)
        results = await asyncio.gather(
            *(store.append("c", 0, [b"x", b"y"], command_id="same") for _ in range(10))
        )
        assert sorted(r.duplicate for r in results) == [False] + [True] * 9
        assert {(r.first, r.last) for r in results} == {(1, 2)}
        assert payloads(await store.read("c")) == [b"x", b"y"]

    async def test_command_ids_belong_to_one_campaign(self, store: EventStore) -> None:
        await campaign_with(store, "a", 2)
        await store.create("b", "gil_ennis", now_ms=1)
        await store.append("a", 2, [b"a3"], command_id="cmd")
        assert await store.append("b", 0, [b"b1"], command_id="cmd") == AppendResult(1, 1)
        assert await store.command_result("a", "cmd") == AppendResult(3, 3)
