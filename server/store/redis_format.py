"""The version of the Redis store's layout under a key prefix: ``{prefix}:format``.

The key holds the layout's format number as text (``"1"``: the keys :mod:`server.store.redis_store`
describes). One key of its own, so on a Redis Cluster it lives on one slot and every command here
names that key alone. The first server to write to an empty prefix writes its own format there;
a prefix that holds campaigns but no key was written by a release from before the layout carried
its version, which is format 1, and gets the key when a server of this release first reads or
starts on it. A server checks the key before its first read and its first write, and again at
every readiness check: a format newer than it knows is refused with
:class:`~server.store.formats.NewerFormat` (nothing is read or written), one older is brought up
to its own (none is older yet).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from server.store.base import StoreError
from server.store.formats import NewerFormat

FORMAT = 1
"""The layout this release reads and writes."""

UNVERSIONED = 1
"""The format of a prefix that holds campaigns and no format key (written before there was one)."""


class LayoutFormat:
    """The format key of one prefix, as one process checks it: once before its first read and
    its first write, on the store's pool (not the hot path's link: this is not the hot path)."""

    def __init__(
        self,
        client: redis.asyncio.Redis | RedisCluster,
        prefix: str,
        pooled: Callable[[], contextlib.AbstractAsyncContextManager[None]],
    ) -> None:
        """``pooled()`` bounds a step on the pool and maps Redis's failures to the store's."""
        self.key = f"{prefix}:format"
        self._prefix = prefix
        self._catalog = f"{prefix}:catalog"
        self._client = client
        self._pooled = pooled
        self._settling = asyncio.Lock()
        self.checked = False
        """Whether reading is safe: the key holds a format this release reads, or the prefix
        is empty."""
        self.claimed = False
        """Whether writing is safe: the key holds a format this release reads and writes."""

    async def check(self) -> None:
        """Before the first read (and at start): refuse a newer format; a prefix that holds
        campaigns and no key gets :data:`UNVERSIONED`. An empty prefix is left empty."""
        if not self.checked:
            await self._settle(writing=False)

    async def claim(self) -> None:
        """Before the first write: as :meth:`check`, and an empty prefix gets :data:`FORMAT`."""
        if not self.claimed:
            await self._settle(writing=True)

    async def check_again(self) -> None:
        """Read the key again (a newer release may have taken the prefix over since)."""
        async with self._pooled():
            found = await self._client.get(self.key)
        if found is not None:
            self._verify(found)

    async def _settle(self, *, writing: bool) -> None:
        async with self._settling:
            if self.claimed or (self.checked and not writing):
                return
            async with self._pooled():
                found: Any = await self._client.get(self.key)
                if found is None:
                    held = bool(await self._client.exists(self._catalog))
                    if held or writing:
                        value = str(UNVERSIONED if held else FORMAT).encode()
                        # NX: of two servers starting on one empty prefix, the first one's
                        # format stands and the other reads it back.
                        found = await self._client.set(self.key, value, nx=True, get=True) or value
            if found is None:
                self.checked = True  # an empty prefix, only read so far
                return
            self._verify(found)
            self.checked = self.claimed = True

    def _verify(self, found: Any) -> None:
        try:
            version = int(found)
        except ValueError:
            version = 0
        if version < 1:
            raise StoreError(
                f"The key {self.key} holds {found!r}, which is no format of the store's layout;"
                f" it should hold a number from 1 up (this release writes {FORMAT})."
            )
        if version > FORMAT:
            raise NewerFormat(
                f"The Redis store under the key prefix {self._prefix!r} has layout format"
                f" {version} (its key {self.key}), written by a newer release; this release"
                f" knows formats up to {FORMAT} and does not read it. Run the newer release on"
                " it, or restore a copy of the Redis data (RDB or AOF) taken before the upgrade.",
                found=version,
                known=FORMAT,
            )
        # A format older than FORMAT would be brought up to it here; this release has none.
