"""Redis failures as the store's own: an unreachable or silent Redis is ``StoreUnavailable``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import redis.exceptions

from server.store.base import StoreUnavailable

UNREACHABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
    # A cluster that cannot serve a slot now (no node for it, a node down, a slot still moving
    # after the one retry), or that none of its known nodes answers for.
    redis.exceptions.ClusterError,
    redis.exceptions.AskError,
    redis.exceptions.TryAgainError,
    redis.exceptions.RedisClusterException,
)


@contextlib.contextmanager
def reachable() -> Iterator[None]:
    """Redis's connection failures, raised as ``StoreUnavailable``."""
    try:
        yield
    except UNREACHABLE as error:
        raise StoreUnavailable(f"The Redis event store cannot be reached: {error}") from error


@contextlib.asynccontextmanager
async def bounded(seconds: float) -> AsyncIterator[None]:
    """Commands on the pool, mapped to StoreUnavailable and bounded as a whole: connecting to a
    frozen Redis would otherwise wait out each step of the handshake in turn."""
    with reachable():
        try:
            async with asyncio.timeout(seconds):
                yield
        except TimeoutError:
            raise StoreUnavailable(f"Redis did not answer within {seconds} s.") from None
