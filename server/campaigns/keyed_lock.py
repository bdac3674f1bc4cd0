"""One asyncio lock per key, kept only while somebody holds or waits for it."""

from __future__ import annotations

import asyncio
from types import TracebackType


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class _Held:
    """``async with locks.hold(key)``: a plain class, as this is on every command's path."""

    __slots__ = ("_entries", "_entry", "_key")

    def __init__(self, entries: dict[str, _Entry], key: str) -> None:
        self._entries = entries
        self._key = key
        entry = entries.get(key)
        if entry is None:
            entry = entries[key] = _Entry()
        entry.users += 1
        self._entry = entry

    async def __aenter__(self) -> None:
        try:
            await self._entry.lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._entry.lock.release()
        self._leave()

    def _leave(self) -> None:
        self._entry.users -= 1
        if self._entry.users == 0:
            del self._entries[self._key]


class KeyedLock:
    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}

    def hold(self, key: str) -> _Held:
        """An async context manager holding ``key``'s lock."""
        return _Held(self._entries, key)

    def busy(self, key: str) -> bool:
        """Whether anybody holds or waits for ``key``'s lock right now."""
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)
