"""The embedded store's file: its tables, its schema version, and opening it.

The file's schema version is SQLite's ``user_version``; opening a file brings it up to
:data:`SCHEMA_VERSION` in one write transaction (another process opening it at the same moment
waits, then finds it done):

- 0 → 1: campaigns gain ``listed`` (1 or 0) and a partial index that serves the listed campaigns
  newest first. Campaigns already in the file are listed unless their ``private`` attribute is
  ``"1"`` (:func:`~server.store.base.listed_by_default`): the catalog left those out before.

- 1 → 2: the decision point runs (:mod:`server.store.sqlite_points`), empty: each campaign
  already stored gets its runs built once, when first asked for.

- 2 → 3: the index of each campaign's forks (:data:`FORKS_INDEX`), by fork version then id. It
  is built from the campaigns already stored, so their forks are in it at once.

Before a file of an older version is migrated, a copy of it is kept beside it
(:mod:`server.store.sqlite_copies`, ``<file>.v<old>.bak``) and the log says where. A file of a
newer version than this code knows is refused rather than written to, with words that name the
copy to restore (:func:`~server.store.sqlite_copies.refusal`).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import msgspec

from server.store import sqlite_points
from server.store.base import listed_by_default
from server.store.formats import NewerFormat
from server.store.sqlite_copies import keep_copy, refusal

T = TypeVar("T")
Run = Callable[[Callable[[sqlite3.Connection], T]], Awaitable[T]]
"""How a table beside the streams runs work on the store's connection."""

SCHEMA_VERSION = 3

_TABLES = (
    """CREATE TABLE IF NOT EXISTS campaigns (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        head INTEGER NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        parent TEXT,
        fork_version INTEGER NOT NULL,
        attrs TEXT NOT NULL,
        listed INTEGER NOT NULL DEFAULT 1
    )""",
    "CREATE INDEX IF NOT EXISTS campaigns_newest_first ON campaigns (created_ms DESC, id DESC)",
    """CREATE TABLE IF NOT EXISTS events (
        campaign TEXT NOT NULL,
        version INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (campaign, version)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS commands (
        campaign TEXT NOT NULL,
        command_id TEXT NOT NULL,
        first INTEGER NOT NULL,
        last INTEGER NOT NULL,
        PRIMARY KEY (campaign, command_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS snapshots (
        campaign TEXT NOT NULL,
        version INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (campaign, version)
    ) WITHOUT ROWID""",
)
# Made after the tables (and after a file's migration), since it names the ``listed`` column.
_LISTED_INDEX = (
    "CREATE INDEX IF NOT EXISTS campaigns_listed_newest_first"
    " ON campaigns (created_ms DESC, id DESC) WHERE listed = 1"
)

FORKS_INDEX = (
    "CREATE INDEX IF NOT EXISTS campaigns_forks"
    " ON campaigns (parent, fork_version, id) WHERE parent IS NOT NULL"
)
"""A parent's forks in order: the row a fork inserts is its entry, so it is written with it."""

BUSY_S = 5.0
"""How long a write waits for another process to release the file."""

decode_attrs = msgspec.json.Decoder(dict[str, str]).decode


def connect(path: Path) -> sqlite3.Connection:
    """The file at ``path`` (made if missing) in WAL mode, migrated to :data:`SCHEMA_VERSION`,
    in autocommit mode: transactions are opened explicitly where they matter."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_S)
    try:
        _write_ahead_log(db)
        db.execute("PRAGMA synchronous = NORMAL")
        _migrate(db, path)
    except BaseException:
        db.close()
        raise
    return db


@contextlib.contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction that takes the file's write lock before its first read."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.rollback()
        raise
    db.commit()


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the file's schema up to :data:`SCHEMA_VERSION` (a new file: create it), keeping a
    copy of a file that held campaigns first."""
    if check_version(db, path) == SCHEMA_VERSION:
        return  # the usual case, without taking the write lock
    with immediate(db):
        version = check_version(db, path)
        if version == SCHEMA_VERSION:
            return
        old = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'campaigns'"
        ).fetchone()
        if old is not None:
            keep_copy(path, version)
        if old is not None and version == 0:
            db.execute("ALTER TABLE campaigns ADD COLUMN listed INTEGER NOT NULL DEFAULT 1")
            unlisted = [
                (campaign_id,)
                for campaign_id, attrs in db.execute("SELECT id, attrs FROM campaigns")
                if not listed_by_default(decode_attrs(attrs))
            ]
            db.executemany("UPDATE campaigns SET listed = 0 WHERE id = ?", unlisted)
        for statement in (*_TABLES, _LISTED_INDEX, FORKS_INDEX, *sqlite_points.TABLES):
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def check_version(db: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; raises NewerFormat for one newer than this code knows."""
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise NewerFormat(
            refusal(path, version, SCHEMA_VERSION), found=version, known=SCHEMA_VERSION
        )
    return version


def _write_ahead_log(db: sqlite3.Connection) -> None:
    """Switch the file to WAL mode (once per file; then it stays so).

    The switch needs the file to itself. While another connection holds a write lock (a second
    process migrating the same new file), SQLite refuses it at once rather than waiting, as it
    does when waiting could deadlock; so the switch is tried again until the busy timeout.
    """
    deadline = time.monotonic() + BUSY_S
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        time.sleep(0.005)  # SQLite's busy handler does not wait here; its own step is 5 ms too


class TableBeside:
    """A table the SQLite store keeps beside its streams (bot seats, analyses): made with its
    ``schema`` the first time it is used, through the store's ``run`` (its one connection's
    thread)."""

    def __init__(self, run: Run[object], schema: str) -> None:
        self._run_any = run
        self._schema = schema
        self._ready = False

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if not self._ready:
            await self._run_any(lambda db: db.executescript(self._schema))
            self._ready = True
        result: T = await self._run_any(work)  # type: ignore[assignment]
        return result
