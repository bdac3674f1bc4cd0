"""A store that answers late on purpose, so tests can hold a call while something else happens.

``GatedStore(inner)`` passes every call through to ``inner``; ``store.hold("read", campaign)``
arms a gate: calls of that method (for that campaign, or any) wait until ``gate.open()``. The
gate counts its waiters, so a test waits for the call to be in flight instead of sleeping.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from server.store.contract import EventStore
from server.store.feed import ChangeFeed, LocalFeed

WAIT_S = 30.0


async def until(done: Callable[[], bool], timeout: float = WAIT_S) -> None:
    """Let the other tasks run until ``done()`` holds, for at most ``timeout`` seconds: for a
    state no gate or event announces (a task parked on something of the code under test)."""
    async with asyncio.timeout(timeout):
        while not done():
            await asyncio.sleep(0)  # one turn of the loop, then look again


class Gate:
    def __init__(self, method: str, campaign: str | None) -> None:
        self.method = method
        self.campaign = campaign
        self.waiting = 0
        self.passed = 0
        self._open = asyncio.Event()
        self._arrived = asyncio.Condition()

    def matches(self, method: str, args: tuple[Any, ...]) -> bool:
        if method != self.method or self._open.is_set():
            return False
        return self.campaign is None or (bool(args) and args[0] == self.campaign)

    async def pass_through(self) -> None:
        async with self._arrived:
            self.waiting += 1
            self._arrived.notify_all()
        await self._open.wait()
        self.waiting -= 1
        self.passed += 1

    async def reached(self, count: int = 1) -> None:
        """Wait (bounded) until ``count`` calls are held at this gate."""
        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(lambda: self.waiting >= count), WAIT_S)

    def open(self) -> None:
        self._open.set()


class GatedStore:
    def __init__(self, inner: EventStore, *, shuffle: random.Random | None = None) -> None:
        """``shuffle``: when given, every call first yields to the event loop a random 0-3
        times, so concurrent callers interleave differently from run to run of a seed."""
        self.inner = inner
        self.gates: list[Gate] = []
        self.calls: list[str] = []
        self._shuffle = shuffle

    def hold(self, method: str, campaign: str | None = None) -> Gate:
        gate = Gate(method, campaign)
        self.gates.append(gate)
        return gate

    def changes(self) -> ChangeFeed:
        return LocalFeed()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if not asyncio.iscoroutinefunction(target):
            return target

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            if self._shuffle is not None:
                for _ in range(self._shuffle.randrange(4)):
                    await asyncio.sleep(0)  # a yield to the loop, to interleave callers
            for gate in list(self.gates):
                if gate.matches(name, args):
                    await gate.pass_through()
            return await target(*args, **kwargs)

        return call
