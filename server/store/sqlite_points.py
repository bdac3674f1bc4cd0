"""The embedded store's decision point runs (:mod:`server.store.point_runs`): two tables,
``point_runs`` (campaign, first, last) and ``point_index`` (campaign, indexed), written in the
same transaction as the events they describe. A campaign without a ``point_index`` row (one
stored before the index existed) is indexed up to its fork point."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from server.store.point_runs import OwnRuns

TABLES = (
    """CREATE TABLE IF NOT EXISTS point_runs (
        campaign TEXT NOT NULL,
        first INTEGER NOT NULL,
        last INTEGER NOT NULL,
        PRIMARY KEY (campaign, first)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS point_index (
        campaign TEXT PRIMARY KEY,
        indexed INTEGER NOT NULL
    ) WITHOUT ROWID""",
)


def indexed(db: sqlite3.Connection, campaign_id: str, fork_version: int) -> int:
    row = db.execute(
        "SELECT indexed FROM point_index WHERE campaign = ?", (campaign_id,)
    ).fetchone()
    return fork_version if row is None else int(row[0])


def extend(db: sqlite3.Connection, campaign_id: str, through: int, points: Sequence[int]) -> None:
    """Add ``points`` (above every recorded run) and mark the runs complete up to ``through``;
    the caller holds the write transaction and has checked where they were complete."""
    row = db.execute(
        "SELECT first, last FROM point_runs WHERE campaign = ? ORDER BY first DESC LIMIT 1",
        (campaign_id,),
    ).fetchone()
    last: tuple[int, int] | None = None if row is None else (row[0], row[1])
    for point in points:
        if last is not None and last[1] == point - 1:
            last = (last[0], point)
            db.execute(
                "UPDATE point_runs SET last = ? WHERE campaign = ? AND first = ?",
                (point, campaign_id, last[0]),
            )
        else:
            last = (point, point)
            db.execute(
                "INSERT INTO point_runs (campaign, first, last) VALUES (?, ?, ?)",
                (campaign_id, point, point),
            )
    db.execute(
        "INSERT INTO point_index (campaign, indexed) VALUES (?, ?)"
        " ON CONFLICT (campaign) DO UPDATE SET indexed = excluded.indexed",
        (campaign_id, through),
    )


def around(
    db: sqlite3.Connection, campaign_id: str, fork_version: int, at: int, down: int, up: int
) -> OwnRuns:
    below = db.execute(
        "SELECT first, last FROM point_runs WHERE campaign = ? AND first <= ?"
        " ORDER BY first DESC LIMIT ?",
        (campaign_id, at, down),
    ).fetchall()
    above = db.execute(
        "SELECT first, last FROM point_runs WHERE campaign = ? AND first > ?"
        " ORDER BY first LIMIT ?",
        (campaign_id, at, up),
    ).fetchall()
    return OwnRuns(
        indexed(db, campaign_id, fork_version),
        [(first, last) for first, last in below],
        [(first, last) for first, last in above],
    )
