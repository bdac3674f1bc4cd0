"""What only the SQLite store promises: one durable WAL file, shareable between processes."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import pytest

from server.store.base import AppendResult, Snapshot, StoredEvent, StoreUnavailable, VersionConflict
from server.store.sqlite import SqliteStore


async def test_the_file_is_created_on_first_use_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "data" / "events.sqlite3"
    store = SqliteStore(path)
    assert not path.exists()
    await store.create("c", "gil_ennis", now_ms=1)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_events_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = SqliteStore(path)
    await store.create("c", "gil_ennis", now_ms=1, attrs={"title": "Kept"})
    await store.append("c", 0, [b"a", b"b"], command_id="cmd")
    await store.save_snapshot("c", 2, b"state")
    await store.close()
    await store.close()  # closing twice is harmless

    reopened = SqliteStore(path)
    try:
        assert await reopened.read("c") == [StoredEvent(1, b"a"), StoredEvent(2, b"b")]
        assert (await reopened.info("c")).attrs == {"title": "Kept"}
        assert await reopened.command_result("c", "cmd") == AppendResult(1, 2)
        assert await reopened.load_snapshot("c", 2) == Snapshot(2, b"state")
    finally:
        await reopened.close()


async def test_two_stores_on_one_file_keep_one_winner_and_wake_each_other(
    tmp_path: Path,
) -> None:
    path = tmp_path / "events.sqlite3"
    first, second = SqliteStore(path), SqliteStore(path)
    try:
        await first.create("c", "gil_ennis", now_ms=1)
        outcomes = await asyncio.gather(
            first.append("c", 0, [b"first"]),
            second.append("c", 0, [b"second"]),
            return_exceptions=True,
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == [
            "AppendResult",
            "VersionConflict",
        ]
        assert len(await first.read("c")) == 1
        await second.append("c", 1, [b"later"])
        assert await first.read("c", 1) == [StoredEvent(2, b"later")]
        with pytest.raises(VersionConflict):
            await first.append("c", 1, [b"stale"])
    finally:
        await first.close()
        await second.close()


async def test_an_unusable_path_raises_store_unavailable(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path)  # a directory cannot be opened as a database file
    try:
        with pytest.raises(StoreUnavailable):
            await store.ping()
        with pytest.raises(StoreUnavailable):
            await store.create("c", "gil_ennis", now_ms=1)
    finally:
        await store.close()
