"""The SQLite file across releases: a copy kept before each migration, and the words an older
release says of a file a newer one migrated."""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from server.store.base import AppendResult, StoredEvent
from server.store.formats import NewerFormat
from server.store.sqlite import SqliteStore
from server.store.sqlite_copies import copies_of, copy_name, keep_copy
from server.store.sqlite_schema import SCHEMA_VERSION

# The file as schema version 2 made it (server/store/sqlite_schema.py and sqlite_points.py at
# 596257d): decision point runs, no index of each campaign's forks yet.
VERSION_2 = """
CREATE TABLE campaigns (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    head INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    parent TEXT,
    fork_version INTEGER NOT NULL,
    attrs TEXT NOT NULL,
    listed INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX campaigns_newest_first ON campaigns (created_ms DESC, id DESC);
CREATE TABLE events (
    campaign TEXT NOT NULL,
    version INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (campaign, version)
) WITHOUT ROWID;
CREATE TABLE commands (
    campaign TEXT NOT NULL,
    command_id TEXT NOT NULL,
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (campaign, command_id)
) WITHOUT ROWID;
CREATE TABLE snapshots (
    campaign TEXT NOT NULL,
    version INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (campaign, version)
) WITHOUT ROWID;
CREATE INDEX campaigns_listed_newest_first
    ON campaigns (created_ms DESC, id DESC) WHERE listed = 1;
CREATE TABLE point_runs (
    campaign TEXT NOT NULL,
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (campaign, first)
) WITHOUT ROWID;
CREATE TABLE point_index (
    campaign TEXT PRIMARY KEY,
    indexed INTEGER NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = 2;
"""


def version_2_file(path: Path) -> None:
    """A file as a release of schema version 2 left it: campaign ``old`` with two events (one
    command) and its fork ``fork`` at version 1, in WAL mode."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(VERSION_2)
        db.executemany(
            "INSERT INTO campaigns VALUES (?, 'gil_ennis', ?, ?, ?, ?, ?, '{}', 1)",
            [("old", 2, 1, 1, None, 0), ("fork", 1, 2, 2, "old", 1)],
        )
        db.executemany("INSERT INTO events VALUES ('old', ?, ?)", [(1, b"a1"), (2, b"a2")])
        db.execute("INSERT INTO commands VALUES ('old', 'cmd', 2, 2)")


def schema_of(path: Path) -> tuple[int, set[str], list[tuple[int, bytes]]]:
    """(user_version, the names in its schema, campaign ``old``'s events) of the file."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        events = db.execute(
            "SELECT version, data FROM events WHERE campaign = 'old' ORDER BY version"
        ).fetchall()
    return version, names, events


async def test_a_file_of_an_older_schema_is_copied_before_it_is_migrated(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tabletale.sqlite3"
    version_2_file(path)
    store = SqliteStore(path)
    try:
        with caplog.at_level(logging.WARNING, logger="tabletale.store"):
            await store.open_format()
        # The migrated file works: what it held, and what comes after.
        assert await store.read("fork") == [StoredEvent(1, b"a1")]
        assert [info.id for info in await store.forks_of("old")] == ["fork"]
        assert await store.command_result("old", "cmd") == AppendResult(2, 2)
        await store.append("old", 2, [b"a3"])
        await store.fork("old", 3, "fork-2", now_ms=3)
        assert [info.id for info in await store.forks_of("old")] == ["fork", "fork-2"]
    finally:
        await store.close()
    copy = tmp_path / "tabletale.sqlite3.v2.bak"
    assert copies_of(path, 2) == [copy]
    assert str(copy) in caplog.text and str(path) in caplog.text
    # The copy is the file as version 2 left it, self-contained, and opens as a store file.
    version, names, events = schema_of(copy)
    assert version == 2 and "campaigns_forks" not in names and "point_runs" in names
    assert events == [(1, b"a1"), (2, b"a2")]
    assert not (tmp_path / "tabletale.sqlite3.v2.bak-wal").exists()
    version, names, events = schema_of(path)
    assert version == SCHEMA_VERSION and "campaigns_forks" in names
    assert events == [(1, b"a1"), (2, b"a2"), (3, b"a3")]
    assert sorted(p.name for p in tmp_path.iterdir() if "bak" in p.name) == [copy.name]


async def test_a_copy_already_there_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "tabletale.sqlite3"
    first = copy_name(path, 2)
    first.write_bytes(b"an older copy, kept by an operator")
    version_2_file(path)
    store = SqliteStore(path)
    try:
        await store.ping()
    finally:
        await store.close()
    assert first.read_bytes() == b"an older copy, kept by an operator"
    second = tmp_path / "tabletale.sqlite3.v2-2.bak"
    assert copies_of(path, 2) == [first, second]
    assert schema_of(second)[0] == 2


async def test_a_new_file_is_made_without_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "tabletale.sqlite3"
    store = SqliteStore(path)
    try:
        await store.create("c", "gil_ennis", now_ms=1)
    finally:
        await store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tabletale.sqlite3"]


def upgraded(path: Path) -> None:
    """What a newer release (schema version ``SCHEMA_VERSION + 1``) does to today's file: keeps
    a copy, then migrates it."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")
        keep_copy(path, SCHEMA_VERSION)
        db.execute("CREATE TABLE newer (x)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        db.execute("COMMIT")


async def test_a_rollback_is_refused_with_the_copy_to_restore_and_restoring_it_works(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tabletale.sqlite3"
    store = SqliteStore(path)
    await store.create("c", "gil_ennis", now_ms=1, events=[b"e1"])
    await store.close()
    upgraded(path)

    rolled_back = SqliteStore(path)
    try:
        with pytest.raises(NewerFormat) as refused:
            await rolled_back.open_format()
        with pytest.raises(NewerFormat):
            await rolled_back.read("c")
    finally:
        await rolled_back.close()
    words = str(refused.value)
    copy = tmp_path / f"tabletale.sqlite3.v{SCHEMA_VERSION}.bak"
    assert f"schema version {SCHEMA_VERSION + 1}" in words
    assert f"knows versions up to {SCHEMA_VERSION}" in words
    assert f"restore {copy}, made before the upgrade" in words
    assert "run the newer release" in words
    assert (refused.value.found, refused.value.known) == (SCHEMA_VERSION + 1, SCHEMA_VERSION)
    assert schema_of(path)[0] == SCHEMA_VERSION + 1  # left alone

    # The operator does as the words say.
    aside = tmp_path / "newer"
    aside.mkdir()
    for name in ("tabletale.sqlite3", "tabletale.sqlite3-wal", "tabletale.sqlite3-shm"):
        if (tmp_path / name).exists():
            (tmp_path / name).rename(aside / name)
    shutil.copyfile(copy, path)
    restored = SqliteStore(path)
    try:
        assert await restored.read("c") == [StoredEvent(1, b"e1")]
        await restored.append("c", 1, [b"e2"])
    finally:
        await restored.close()


async def test_without_a_copy_the_refusal_says_to_run_the_newer_release(tmp_path: Path) -> None:
    path = tmp_path / "tabletale.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 2}")
    store = SqliteStore(path)
    try:
        with pytest.raises(NewerFormat) as refused:
            await store.ping()
    finally:
        await store.close()
    words = str(refused.value)
    assert f"schema version {SCHEMA_VERSION + 2}" in words
    assert "Run the newer release on it" in words
    assert f"no copy of it at version {SCHEMA_VERSION}" in words


async def test_ping_refuses_a_file_a_newer_release_migrated_while_it_was_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tabletale.sqlite3"
    store = SqliteStore(path)
    try:
        await store.create("c", "gil_ennis", now_ms=1)
        await store.ping()
        upgraded(path)
        with pytest.raises(NewerFormat, match="restore"):
            await store.ping()
    finally:
        await store.close()
