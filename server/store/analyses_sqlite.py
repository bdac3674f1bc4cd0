"""The SQLite store's analysis table (:class:`~server.store.contract.AnalysisTable`): two tables
in the store's file, one row per estimate and one per complete analysis."""

from __future__ import annotations

from server.store.sqlite_schema import Run, TableBeside

_SCHEMA = """
CREATE TABLE IF NOT EXISTS analysis_points (
    campaign TEXT NOT NULL, ruleset TEXT NOT NULL, level INTEGER NOT NULL,
    version INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (campaign, ruleset, level, version)
);
CREATE TABLE IF NOT EXISTS analyses (
    campaign TEXT NOT NULL, ruleset TEXT NOT NULL, level INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (campaign, ruleset, level)
);
"""


class SqliteAnalyses(TableBeside):
    def __init__(self, run: Run[object]) -> None:
        super().__init__(run, _SCHEMA)

    async def save_point(
        self, campaign_id: str, ruleset: str, level: int, version: int, data: bytes
    ) -> None:
        # One statement: the connection commits it on its own (autocommit).
        await self._run(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO analysis_points"
                " (campaign, ruleset, level, version, data) VALUES (?, ?, ?, ?, ?)",
                (campaign_id, ruleset, level, version, data),
            )
        )

    async def points(self, campaign_id: str, ruleset: str, level: int) -> dict[int, bytes]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT version, data FROM analysis_points"
                " WHERE campaign = ? AND ruleset = ? AND level = ?",
                (campaign_id, ruleset, level),
            ).fetchall()
        )
        return {int(version): bytes(data) for version, data in rows}

    async def save_whole(self, campaign_id: str, ruleset: str, level: int, data: bytes) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO analyses (campaign, ruleset, level, data)"
                " VALUES (?, ?, ?, ?)",
                (campaign_id, ruleset, level, data),
            )
        )

    async def whole(self, campaign_id: str, ruleset: str, level: int) -> bytes | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT data FROM analyses WHERE campaign = ? AND ruleset = ? AND level = ?",
                (campaign_id, ruleset, level),
            ).fetchone()
        )
        return None if row is None else bytes(row[0])
