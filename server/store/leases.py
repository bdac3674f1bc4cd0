"""Bot seats and driver leases: the store's part of bots at the table.

For each campaign with bot seats the store keeps which seats a bot plays (seat -> a bot spec such
as ``search:2``) and, in a set, the campaign itself, so a process that starts finds every
campaign it may have to drive. One process at a time drives a campaign's bots: it holds the
campaign's *lease*, an owner name with an expiry, renewed while it drives. A lease that is not
renewed (its process died) expires, and another process takes it.

Three tables, one per store, each on the store's own connection: a dict here, SQLite rows
(:mod:`server.store.leases_sqlite`) and Redis keys (:mod:`server.store.leases_redis`).
"""

from __future__ import annotations

import time
import weakref
from typing import Protocol


class BotTable(Protocol):
    async def seats(self, campaign_id: str) -> dict[str, str]:
        """The campaign's bot seats: seat -> bot spec (none: no bot seats)."""
        ...

    async def set_seat(self, campaign_id: str, seat: str, spec: str) -> None:
        """``seat`` is played by the bot ``spec`` from now on; the campaign joins the set."""
        ...

    async def clear_seat(self, campaign_id: str, seat: str) -> bool:
        """A person plays ``seat`` again; False if no bot played it."""
        ...

    async def campaigns(self) -> list[str]:
        """Every campaign with bot seats that has not been put to rest, in no given order."""
        ...

    async def rest(self, campaign_id: str) -> None:
        """The campaign has ended: it leaves the set (its seats stay on record)."""
        ...

    async def acquire(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        """Take the campaign's lease for ``ttl_ms`` if it is free, expired or ``owner``'s
        already (then it is renewed); False while another owner holds it."""
        ...

    async def renew(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        """Extend ``owner``'s lease by ``ttl_ms`` from now; False if it is no longer
        ``owner``'s (it expired and another took it)."""
        ...

    async def release(self, campaign_id: str, owner: str) -> None:
        """Give the lease up now, if ``owner`` holds it."""
        ...

    async def holder(self, campaign_id: str) -> str | None:
        """Who holds the lease now (None: nobody)."""
        ...


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class MemoryBotTable:
    """For one process: the memory store's table."""

    def __init__(self) -> None:
        self._seats: dict[str, dict[str, str]] = {}
        self._active: set[str] = set()
        self._leases: dict[str, tuple[str, int]] = {}  # campaign -> (owner, expires at ms)

    async def seats(self, campaign_id: str) -> dict[str, str]:
        return dict(self._seats.get(campaign_id, {}))

    async def set_seat(self, campaign_id: str, seat: str, spec: str) -> None:
        self._seats.setdefault(campaign_id, {})[seat] = spec
        self._active.add(campaign_id)

    async def clear_seat(self, campaign_id: str, seat: str) -> bool:
        return self._seats.get(campaign_id, {}).pop(seat, None) is not None

    async def campaigns(self) -> list[str]:
        return list(self._active)

    async def rest(self, campaign_id: str) -> None:
        self._active.discard(campaign_id)

    def _held_by_other(self, campaign_id: str, owner: str) -> bool:
        held = self._leases.get(campaign_id)
        return held is not None and held[0] != owner and held[1] > now_ms()

    async def acquire(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        if self._held_by_other(campaign_id, owner):
            return False
        self._leases[campaign_id] = (owner, now_ms() + ttl_ms)
        return True

    async def renew(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        held = self._leases.get(campaign_id)
        if held is None or held[0] != owner or held[1] <= now_ms():
            return False
        self._leases[campaign_id] = (owner, now_ms() + ttl_ms)
        return True

    async def release(self, campaign_id: str, owner: str) -> None:
        held = self._leases.get(campaign_id)
        if held is not None and held[0] == owner:
            del self._leases[campaign_id]

    async def holder(self, campaign_id: str) -> str | None:
        held = self._leases.get(campaign_id)
        return held[0] if held is not None and held[1] > now_ms() else None


_memory_tables: weakref.WeakKeyDictionary[object, MemoryBotTable] = weakref.WeakKeyDictionary()


def memory_table(store: object) -> MemoryBotTable:
    """The one table of an in-memory ``store``: it lives as long as the store."""
    table = _memory_tables.get(store)
    if table is None:
        table = _memory_tables[store] = MemoryBotTable()
    return table


def bot_table_of(store: object) -> BotTable | None:
    """The store's bot table, or None for a store that keeps none."""
    accessor = getattr(store, "bot_table", None)
    if accessor is None:
        return None
    table: BotTable = accessor()
    return table
