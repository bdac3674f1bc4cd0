"""The analysis table every store keeps (:class:`~server.store.contract.AnalysisTable`): a dict
here, SQLite rows (:mod:`server.store.analyses_sqlite`) and Redis hashes
(:mod:`server.store.analyses_redis`), each on the store's own connection."""

from __future__ import annotations

import weakref

from server.store.contract import AnalysisTable

Key = tuple[str, str, int]
"""The campaign, its ruleset and the level."""


class MemoryAnalyses:
    """For one process: the memory store's table."""

    def __init__(self) -> None:
        self._points: dict[Key, dict[int, bytes]] = {}
        self._whole: dict[Key, bytes] = {}

    async def save_point(
        self, campaign_id: str, ruleset: str, level: int, version: int, data: bytes
    ) -> None:
        self._points.setdefault((campaign_id, ruleset, level), {})[version] = data

    async def points(self, campaign_id: str, ruleset: str, level: int) -> dict[int, bytes]:
        return dict(self._points.get((campaign_id, ruleset, level), {}))

    async def save_whole(self, campaign_id: str, ruleset: str, level: int, data: bytes) -> None:
        self._whole[(campaign_id, ruleset, level)] = data

    async def whole(self, campaign_id: str, ruleset: str, level: int) -> bytes | None:
        return self._whole.get((campaign_id, ruleset, level))


_memory_tables: weakref.WeakKeyDictionary[object, MemoryAnalyses] = weakref.WeakKeyDictionary()


def memory_analyses(store: object) -> MemoryAnalyses:
    """The one table of an in-memory ``store``: it lives as long as the store."""
    table = _memory_tables.get(store)
    if table is None:
        table = _memory_tables[store] = MemoryAnalyses()
    return table


def analyses_of(store: object) -> AnalysisTable | None:
    """The store's analysis table, or None for a store that keeps none."""
    accessor = getattr(store, "analyses", None)
    if accessor is None:
        return None
    table: AnalysisTable = accessor()
    return table
