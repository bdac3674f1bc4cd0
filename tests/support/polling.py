"""Waiting on a condition that lives outside the test's process (a server's answers, a store):
ask again at a short interval until it holds, and fail with what was awaited after a timeout."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

INTERVAL_S = 0.05
"""How long to let the other side work between two looks."""


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float) -> float:
    """Await ``check()`` until it is true; returns the seconds it took (fails after ``timeout``,
    naming ``what`` was awaited)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while not await check():
        assert loop.time() - started < timeout, f"not within {timeout} s: {what}"
        await asyncio.sleep(INTERVAL_S)  # a polling interval, not a wait for an outcome
    return loop.time() - started
