from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store.sqlite import SqliteStore
from tests.server.store.conformance import StoreConformance


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    store = SqliteStore(tmp_path / "events.sqlite3")
    yield store
    await store.close()


class TestSqliteStore(StoreConformance):
    pass
