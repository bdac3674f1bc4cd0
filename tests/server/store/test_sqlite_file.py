"""What only the SQLite store promises: one durable WAL file, shareable between processes, brought
up to the current schema when opened."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from server.store.base import (
    AppendResult,
    Snapshot,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from server.store.sqlite import SqliteStore
from server.store.sqlite_schema import SCHEMA_VERSION

# The campaigns table as files of schema version 0 have it (before ``listed``).
VERSION_0_CAMPAIGNS = """
CREATE TABLE campaigns (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    head INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    parent TEXT,
    fork_version INTEGER NOT NULL,
    attrs TEXT NOT NULL
);
CREATE INDEX campaigns_newest_first ON campaigns (created_ms DESC, id DESC);
CREATE TABLE events (
    campaign TEXT NOT NULL,
    version INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (campaign, version)
) WITHOUT ROWID;
"""


def version_0_file(path: Path) -> None:
    """A file as the store wrote it before it kept ``listed``: two public campaigns (one a fork),
    a private one, and a private one's public fork."""
    rows = [
        ("old", 1, None, 0, "{}"),
        ("private", 2, None, 0, '{"private":"1","token:player":"ab"}'),
        ("fork", 3, "old", 1, '{"private":"0"}'),
        ("private-fork", 4, "private", 1, '{"private":"1"}'),
    ]
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(VERSION_0_CAMPAIGNS)
        db.executemany(
            "INSERT INTO campaigns VALUES (?, 'gil_ennis', 1, ?, ?, ?, ?, ?)",
            [(cid, ms, ms, parent, at, attrs) for cid, ms, parent, at, attrs in rows],
        )
        db.execute("INSERT INTO events VALUES ('old', 1, x'6131')")
        db.execute("INSERT INTO events VALUES ('private', 1, x'7031')")
        db.commit()
        assert db.execute("PRAGMA user_version").fetchone() == (0,)


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


async def test_a_version_0_file_gains_listed_with_its_private_campaigns_unlisted(
    tmp_path: Path,
) -> None:
    path = tmp_path / "events.sqlite3"
    version_0_file(path)
    store = SqliteStore(path)
    try:
        everything = await store.list_campaigns()
        assert [(info.id, info.listed) for info in everything] == [
            ("private-fork", False),
            ("fork", True),
            ("private", False),
            ("old", True),
        ]
        assert (await store.info("private")).attrs["token:player"] == "ab"
        listed = await store.list_campaigns(listed_only=True)
        assert [info.id for info in listed] == ["fork", "old"]
        assert await store.read("fork") == [StoredEvent(1, b"a1")]
        # The migrated file takes new campaigns, listed or not, like a new one.
        await store.create("new", "gil_ennis", now_ms=5, listed=False)
        await store.create("newer", "gil_ennis", now_ms=6)
        listed = await store.list_campaigns(listed_only=True, limit=2)
        assert [info.id for info in listed] == ["newer", "fork"]
    finally:
        await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


async def test_listed_pages_are_served_by_the_index_in_order(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = SqliteStore(path)
    await store.ping()  # creates the file at the current version
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        plan = " / ".join(
            row[3]
            for row in db.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM campaigns WHERE listed = 1"
                " ORDER BY created_ms DESC, id DESC LIMIT 50 OFFSET 100"
            )
        )
    assert "campaigns_listed_newest_first" in plan
    assert "TEMP B-TREE" not in plan  # no sort: the index gives the order


async def test_two_stores_opening_a_version_0_file_at_once_migrate_it_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "events.sqlite3"
    version_0_file(path)
    first, second = SqliteStore(path), SqliteStore(path)
    try:
        await asyncio.gather(first.ping(), second.ping())
        for store in (first, second):
            listed = await store.list_campaigns(listed_only=True)
            assert [info.id for info in listed] == ["fork", "old"]
    finally:
        await first.close()
        await second.close()


async def test_a_file_of_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store = SqliteStore(path)
    try:
        with pytest.raises(StoreError, match="schema version"):
            await store.ping()
    finally:
        await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION + 1,)
        assert db.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)


async def test_a_store_opening_a_new_file_waits_for_another_process_writing_it(
    tmp_path: Path,
) -> None:
    """Switching a file to WAL mode is refused at once, without SQLite's busy wait, while another
    connection holds a write lock; the store tries again until its busy timeout."""
    path = tmp_path / "events.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE other (x)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO other VALUES (1)")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        sqlite3.connect(path, timeout=5).execute("PRAGMA journal_mode = WAL")
    releasing = threading.Timer(0.2, holder.execute, ("COMMIT",))  # the other writer, finishing
    releasing.start()
    store = SqliteStore(path)
    try:
        await store.ping()
        await store.create("c", "gil_ennis", now_ms=1)
        assert [info.id for info in await store.list_campaigns()] == ["c"]
    finally:
        releasing.join()
        holder.close()
        await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
