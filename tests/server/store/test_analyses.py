"""The analysis table every store keeps (server.store.contract.AnalysisTable): each estimate
kept as it is computed and the whole analysis once complete, under the campaign, its ruleset
and the level, and nothing else's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store.analyses import analyses_of
from server.store.contract import AnalysisTable
from server.store.sqlite import SqliteStore
from tests.server.store.helpers import BACKENDS, each_store


@pytest.fixture(params=BACKENDS)
async def table(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AnalysisTable]:
    async with each_store(request, tmp_path) as store:
        found = analyses_of(store)
        assert found is not None
        yield found


async def test_estimates_are_kept_by_version_under_their_key(table: AnalysisTable) -> None:
    assert await table.points("c1", "r1", 2) == {}
    await table.save_point("c1", "r1", 2, 7, b"seven")
    await table.save_point("c1", "r1", 2, 3, b"\x00three")
    await table.save_point("c1", "r1", 2, 7, b"seven again")  # written again: replaced
    assert await table.points("c1", "r1", 2) == {3: b"\x00three", 7: b"seven again"}
    # Another level, ruleset or campaign is another projection.
    assert await table.points("c1", "r1", 3) == {}
    assert await table.points("c1", "r2", 2) == {}
    assert await table.points("c2", "r1", 2) == {}


async def test_the_whole_analysis_is_kept_apart_from_its_points(table: AnalysisTable) -> None:
    assert await table.whole("c1", "r1", 2) is None
    await table.save_point("c1", "r1", 2, 5, b"five")
    await table.save_whole("c1", "r1", 2, b"{whole}")
    assert await table.whole("c1", "r1", 2) == b"{whole}"
    assert await table.points("c1", "r1", 2) == {5: b"five"}
    assert await table.whole("c1", "r1", 1) is None


async def test_a_store_opened_again_still_has_them(tmp_path: Path) -> None:
    """The SQLite file keeps them across a restart (Redis by nature)."""
    first = SqliteStore(tmp_path / "kept.sqlite3")
    table = analyses_of(first)
    assert table is not None
    await table.save_point("c1", "r1", 2, 9, b"nine")
    await table.save_whole("c1", "r1", 2, b"all")
    await first.close()
    second = SqliteStore(tmp_path / "kept.sqlite3")
    try:
        again = analyses_of(second)
        assert again is not None
        assert await again.points("c1", "r1", 2) == {9: b"nine"}
        assert await again.whole("c1", "r1", 2) == b"all"
    finally:
        await second.close()
