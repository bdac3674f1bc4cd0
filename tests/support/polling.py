"""Waiting on a condition that lives outside the test's process (a server's answers, a store):
ask again at a short interval until it holds, and give up with what was awaited after a timeout.

The timeout only stops a hang. It is never what a test asserts: a busy machine may take many
times longer than an idle one, so every wait here is generous, and a test that must hold a
figure to a bound compares it with another figure measured in the same run (or prints it, for a
benchmark to judge). ``tests/test_suite_clocks.py`` keeps every other clock out of asserts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

INTERVAL_S = 0.05
"""How long to let the other side work between two looks."""


class Stalled(AssertionError):
    """A wait gave up: the message names what was awaited, for how long, and what was seen."""


class Deadline:
    """The end of a wait in a loop the test writes itself::

    deadline = Deadline("the bot moves", 120)
    while not moved():
        deadline.check(f"at version {version}")
    """

    def __init__(self, what: str, timeout: float) -> None:
        self.what = what
        self.timeout = timeout
        self._ends = time.monotonic() + timeout

    def passed(self) -> bool:
        return time.monotonic() >= self._ends

    def left(self) -> float:
        """Seconds left, at least 0 (for a call that takes its own timeout)."""
        return max(0.0, self._ends - time.monotonic())

    def check(self, seen: object = None) -> None:
        """Raise :class:`Stalled` once the wait has lasted its timeout."""
        if self.passed():
            last = "" if seen is None else f"; last seen: {seen}"
            raise Stalled(f"Waited {self.timeout:g} s for {self.what}, in vain{last}.")


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float) -> float:
    """Await ``check()`` until it is true; returns the seconds it took, a figure to print (raises
    :class:`Stalled` after ``timeout``, naming ``what`` was awaited)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = Deadline(what, timeout)
    while not await check():
        deadline.check()
        await asyncio.sleep(INTERVAL_S)  # a polling interval, not a wait for an outcome
    return loop.time() - started
