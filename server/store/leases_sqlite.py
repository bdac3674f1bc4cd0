"""The SQLite store's bot table (:mod:`server.store.leases`): two tables in the store's file.

``bot_seats`` holds one row per bot seat and ``bot_campaigns`` one row per campaign with bot
seats, with its lease: an owner and an expiry, taken and renewed in write transactions, so the
processes that share the file agree on one owner.
"""

from __future__ import annotations

import sqlite3

from server.store.leases import now_ms
from server.store.sqlite_schema import Run, TableBeside, immediate

_SCHEMA = """
CREATE TABLE IF NOT EXISTS bot_seats (
    campaign TEXT NOT NULL, seat TEXT NOT NULL, spec TEXT NOT NULL,
    PRIMARY KEY (campaign, seat)
);
CREATE TABLE IF NOT EXISTS bot_campaigns (
    campaign TEXT PRIMARY KEY, active INTEGER NOT NULL DEFAULT 1,
    owner TEXT, expires_ms INTEGER NOT NULL DEFAULT 0
);
"""


class SqliteBotTable(TableBeside):
    def __init__(self, run: Run[object]) -> None:
        super().__init__(run, _SCHEMA)

    async def seats(self, campaign_id: str) -> dict[str, str]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT seat, spec FROM bot_seats WHERE campaign = ?", (campaign_id,)
            ).fetchall()
        )
        return {seat: spec for seat, spec in rows}

    async def set_seat(self, campaign_id: str, seat: str, spec: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            with immediate(db):
                db.execute(
                    "INSERT OR REPLACE INTO bot_seats (campaign, seat, spec) VALUES (?, ?, ?)",
                    (campaign_id, seat, spec),
                )
                db.execute(
                    "INSERT INTO bot_campaigns (campaign) VALUES (?)"
                    " ON CONFLICT (campaign) DO UPDATE SET active = 1",
                    (campaign_id,),
                )

        await self._run(work)

    async def clear_seat(self, campaign_id: str, seat: str) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            with immediate(db):
                cursor = db.execute(
                    "DELETE FROM bot_seats WHERE campaign = ? AND seat = ?", (campaign_id, seat)
                )
                return cursor.rowcount > 0

        return await self._run(work)

    async def campaigns(self) -> list[str]:
        rows = await self._run(
            lambda db: db.execute("SELECT campaign FROM bot_campaigns WHERE active = 1").fetchall()
        )
        return [row[0] for row in rows]

    async def rest(self, campaign_id: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            with immediate(db):
                db.execute("UPDATE bot_campaigns SET active = 0 WHERE campaign = ?", (campaign_id,))

        await self._run(work)

    async def acquire(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            with immediate(db):
                now = now_ms()
                cursor = db.execute(
                    "UPDATE bot_campaigns SET owner = ?, expires_ms = ?"
                    " WHERE campaign = ? AND (owner IS NULL OR owner = ? OR expires_ms <= ?)",
                    (owner, now + ttl_ms, campaign_id, owner, now),
                )
                return cursor.rowcount > 0

        return await self._run(work)

    async def renew(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            with immediate(db):
                now = now_ms()
                cursor = db.execute(
                    "UPDATE bot_campaigns SET expires_ms = ?"
                    " WHERE campaign = ? AND owner = ? AND expires_ms > ?",
                    (now + ttl_ms, campaign_id, owner, now),
                )
                return cursor.rowcount > 0

        return await self._run(work)

    async def release(self, campaign_id: str, owner: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            with immediate(db):
                db.execute(
                    "UPDATE bot_campaigns SET owner = NULL, expires_ms = 0"
                    " WHERE campaign = ? AND owner = ?",
                    (campaign_id, owner),
                )

        await self._run(work)

    async def holder(self, campaign_id: str) -> str | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT owner FROM bot_campaigns WHERE campaign = ? AND expires_ms > ?",
                (campaign_id, now_ms()),
            ).fetchone()
        )
        return None if row is None else row[0]
