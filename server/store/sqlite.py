"""The embedded event store: one SQLite file in WAL mode, the default without a Redis URL.

Every statement runs on one dedicated worker thread that owns the connection, so the event loop
never blocks and this process's calls are serialised; appends from other processes sharing the
file are kept apart by ``BEGIN IMMEDIATE`` and the busy timeout.

The file, its schema and its migrations: :mod:`server.store.sqlite_schema`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec

from server.store import sqlite_points
from server.store.base import (
    FORKS_PAGE,
    AppendResult,
    CampaignExists,
    CampaignInfo,
    ForkKey,
    Snapshot,
    StoredEvent,
    StoreUnavailable,
    UnknownCampaign,
    VersionConflict,
    check_events,
)
from server.store.feed import ChangeFeed, LocalFeed
from server.store.lineage import read_through, snapshot_through
from server.store.point_runs import OwnRuns, PointRunsNear, check_points
from server.store.recording import Recording
from server.store.sqlite_schema import check_version, connect, decode_attrs, immediate

if TYPE_CHECKING:
    from server.store.analyses_sqlite import SqliteAnalyses
    from server.store.leases_sqlite import SqliteBotTable

T = TypeVar("T")

_INFO_COLUMNS = "id, game, head, created_ms, updated_ms, parent, fork_version, attrs, listed"

_encode_attrs = msgspec.json.Encoder().encode

InfoRow = tuple[str, str, int, int, int, str | None, int, str, int]


def _parse_info(row: InfoRow) -> CampaignInfo:
    campaign_id, game, head, created_ms, updated_ms, parent, fork_version, attrs, listed = row
    return CampaignInfo(
        id=campaign_id,
        game=game,
        head=head,
        created_ms=created_ms,
        updated_ms=updated_ms,
        parent=parent,
        fork_version=fork_version,
        attrs=decode_attrs(attrs),
        listed=bool(listed),
    )


def _info(db: sqlite3.Connection, campaign_id: str) -> CampaignInfo:
    row = db.execute(
        f"SELECT {_INFO_COLUMNS} FROM campaigns WHERE id = ?", (campaign_id,)
    ).fetchone()
    if row is None:
        raise UnknownCampaign(campaign_id)
    return _parse_info(row)


class SqliteStore(Recording, PointRunsNear):
    def __init__(self, path: str | Path) -> None:
        self._path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store")
        self._closed = False

    def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._db is None:
            self._db = connect(self._path)
        return work(self._db)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._worker, self._call, work)
        except (sqlite3.OperationalError, OSError) as error:
            raise StoreUnavailable(
                f"The SQLite event store at {self._path} cannot be used: {error}"
            ) from error

    async def _register(
        self, info: CampaignInfo, events: Sequence[bytes], point: bool | None = None
    ) -> CampaignInfo:
        first = info.head - len(events) + 1

        def work(db: sqlite3.Connection) -> None:
            with immediate(db):
                try:
                    db.execute(
                        f"INSERT INTO campaigns ({_INFO_COLUMNS})"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            info.id,
                            info.game,
                            info.head,
                            info.created_ms,
                            info.updated_ms,
                            info.parent,
                            info.fork_version,
                            _encode_attrs(info.attrs),
                            int(info.listed),
                        ),
                    )
                except sqlite3.IntegrityError:
                    raise CampaignExists(info.id) from None
                db.executemany(
                    "INSERT INTO events (campaign, version, data) VALUES (?, ?, ?)",
                    [(info.id, version, data) for version, data in enumerate(events, first)],
                )
                if point is not None or not events:
                    sqlite_points.extend(db, info.id, info.head, [info.head] if point else [])

        await self._run(work)
        return info

    async def catalogue(self, campaign_id: str) -> None:
        await self.info(campaign_id)  # a campaign and its catalog entry are one record here

    async def info(self, campaign_id: str) -> CampaignInfo:
        return await self._run(lambda db: _info(db, campaign_id))

    async def add_attrs(self, campaign_id: str, attrs: dict[str, str]) -> None:
        def work(db: sqlite3.Connection) -> None:
            with immediate(db):
                info = _info(db, campaign_id)
                db.execute(
                    "UPDATE campaigns SET attrs = ? WHERE id = ?",
                    (_encode_attrs({**info.attrs, **attrs}), campaign_id),
                )

        await self._run(work)

    async def forks_of(
        self, campaign_id: str, *, after: ForkKey | None = None, limit: int = FORKS_PAGE
    ) -> list[CampaignInfo]:
        fork_version, child = (-1, "") if after is None else after

        def work(db: sqlite3.Connection) -> list[CampaignInfo]:
            # Served in order by the forks index (sqlite_schema.FORKS_INDEX).
            rows = db.execute(
                f"SELECT {_INFO_COLUMNS} FROM campaigns WHERE parent = ?"
                " AND (fork_version, id) > (?, ?) ORDER BY fork_version, id LIMIT ?",
                (campaign_id, fork_version, child, max(limit, 0)),
            )
            return [_parse_info(row) for row in rows]

        return await self._run(work)

    async def append(
        self,
        campaign_id: str,
        expected_version: int,
        events: Sequence[bytes],
        *,
        command_id: str | None = None,
        now_ms: int = 0,
        point: bool | None = None,
    ) -> AppendResult:
        check_events(events)

        def work(db: sqlite3.Connection) -> AppendResult:
            with immediate(db):
                row = db.execute(
                    "SELECT head, fork_version FROM campaigns WHERE id = ?", (campaign_id,)
                ).fetchone()
                if row is None:
                    raise UnknownCampaign(campaign_id)
                if command_id is not None:
                    seen = db.execute(
                        "SELECT first, last FROM commands WHERE campaign = ? AND command_id = ?",
                        (campaign_id, command_id),
                    ).fetchone()
                    if seen is not None:
                        return AppendResult(first=seen[0], last=seen[1], duplicate=True)
                head: int = row[0]
                if expected_version != head:
                    raise VersionConflict(campaign_id, expected_version, head)
                result = AppendResult(first=head + 1, last=head + len(events))
                db.executemany(
                    "INSERT INTO events (campaign, version, data) VALUES (?, ?, ?)",
                    [(campaign_id, version, data) for version, data in enumerate(events, head + 1)],
                )
                db.execute(
                    "UPDATE campaigns SET head = ?, updated_ms = max(updated_ms, ?) WHERE id = ?",
                    (result.last, now_ms, campaign_id),
                )
                if command_id is not None:
                    db.execute(
                        "INSERT INTO commands (campaign, command_id, first, last)"
                        " VALUES (?, ?, ?, ?)",
                        (campaign_id, command_id, result.first, result.last),
                    )
                if point is not None and sqlite_points.indexed(db, campaign_id, row[1]) == head:
                    points = [result.last] if point else []
                    sqlite_points.extend(db, campaign_id, result.last, points)
                return result

        return await self._run(work)

    async def _read_own(
        self, campaign_id: str, after: int, until: int, limit: int | None
    ) -> list[StoredEvent]:
        def work(db: sqlite3.Connection) -> list[StoredEvent]:
            rows = db.execute(
                "SELECT version, data FROM events"
                " WHERE campaign = ? AND version > ? AND version <= ? ORDER BY version LIMIT ?",
                (campaign_id, after, until, -1 if limit is None else limit),
            )
            return [StoredEvent(version, data) for version, data in rows]

        return await self._run(work)

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        return await read_through(self.info, self._read_own, campaign_id, after, until, limit)

    async def command_result(self, campaign_id: str, command_id: str) -> AppendResult | None:
        def work(db: sqlite3.Connection) -> AppendResult | None:
            _info(db, campaign_id)
            row = db.execute(
                "SELECT first, last FROM commands WHERE campaign = ? AND command_id = ?",
                (campaign_id, command_id),
            ).fetchone()
            return None if row is None else AppendResult(first=row[0], last=row[1])

        return await self._run(work)

    async def save_snapshot(self, campaign_id: str, version: int, data: bytes) -> None:
        def work(db: sqlite3.Connection) -> None:
            with immediate(db):
                _info(db, campaign_id)
                db.execute(
                    "INSERT OR REPLACE INTO snapshots (campaign, version, data) VALUES (?, ?, ?)",
                    (campaign_id, version, data),
                )

        await self._run(work)

    async def _own_snapshot(self, campaign_id: str, lowest: int, at_most: int) -> Snapshot | None:
        def work(db: sqlite3.Connection) -> Snapshot | None:
            row = db.execute(
                "SELECT version, data FROM snapshots WHERE campaign = ? AND version BETWEEN ? AND ?"
                " ORDER BY version DESC LIMIT 1",
                (campaign_id, lowest, at_most),
            ).fetchone()
            return None if row is None else Snapshot(row[0], row[1])

        return await self._run(work)

    async def load_snapshot(self, campaign_id: str, at_most: int) -> Snapshot | None:
        return await snapshot_through(self.info, self._own_snapshot, campaign_id, at_most)

    # -- decision points (server.store.point_runs) ----------------------------------------

    async def _own_runs(self, campaign_id: str, at: int, down: int, up: int) -> OwnRuns:
        def work(db: sqlite3.Connection) -> OwnRuns:
            fork_version = _info(db, campaign_id).fork_version
            return sqlite_points.around(db, campaign_id, fork_version, at, down, up)

        return await self._run(work)

    async def record_points(
        self, campaign_id: str, since: int, through: int, points: Sequence[int]
    ) -> bool:
        check_points(since, through, points)

        def work(db: sqlite3.Connection) -> bool:
            with immediate(db):
                info = _info(db, campaign_id)
                known = sqlite_points.indexed(db, campaign_id, info.fork_version)
                if known != since or through > info.head:
                    return False
                sqlite_points.extend(db, campaign_id, through, points)
                return True

        return await self._run(work)

    def changes(self) -> ChangeFeed:
        # One server process owns the file (``serve --workers`` refuses SQLite), so every
        # append is a commit made here.
        return LocalFeed()

    async def list_campaigns(
        self, *, offset: int = 0, limit: int = 50, listed_only: bool = False
    ) -> list[CampaignInfo]:
        # ``listed = 1`` as the partial index says it, so the index serves the page in order.
        where = " WHERE listed = 1" if listed_only else ""

        def work(db: sqlite3.Connection) -> list[CampaignInfo]:
            rows = db.execute(
                f"SELECT {_INFO_COLUMNS} FROM campaigns{where}"
                " ORDER BY created_ms DESC, id DESC LIMIT ? OFFSET ?",
                (max(limit, 0), offset),
            )
            return [_parse_info(row) for row in rows]

        return await self._run(work)

    def bot_table(self) -> SqliteBotTable:
        """Bot seats and driver leases, in this file (:mod:`server.store.leases`)."""
        from server.store.leases_sqlite import SqliteBotTable

        return SqliteBotTable(self._run)

    def analyses(self) -> SqliteAnalyses:
        """Analyses kept beside each stream, in this file (:mod:`server.store.analyses`)."""
        from server.store.analyses_sqlite import SqliteAnalyses

        return SqliteAnalyses(self._run)

    async def open_format(self) -> None:
        await self._run(lambda db: None)  # opening the file migrates it, or refuses it

    async def ping(self) -> None:
        # The schema version, read again: a newer release may have migrated the file since.
        await self._run(lambda db: check_version(db, self._path))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True

        def work() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._worker, work)
        self._worker.shutdown(wait=True)
