"""The suite holds on any machine: no test holds a clock against a constant.

A figure of speed belongs in a benchmark that prints it (``tabletale bench``, ``loadtests/``), or
in a comparison with another figure of the same run; a wait ends with a generous timeout that
only stops a hang (``tests.support.polling``). See ``tests/support/clock_asserts.py`` for what
counts as timed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.support.clock_asserts import clock_asserts

TESTS = Path(__file__).resolve().parent


def test_no_test_asserts_a_time_under_a_constant() -> None:
    found = [str(one) for path in sorted(TESTS.rglob("*.py")) for one in clock_asserts(path)]
    assert found == [], "\n".join(found)


def _flagged(source: str) -> list[str]:
    return [one.source for one in clock_asserts(Path("case.py"), textwrap.dedent(source))]


@pytest.mark.parametrize(
    "source",
    [
        # a duration against a limit, on either side
        """
        def test():
            started = time.perf_counter()
            run()
            took = (time.perf_counter() - started) * 1000
            assert took < LIMIT_MS
        """,
        """
        def test():
            started = time.monotonic()
            run()
            assert 5.0 > time.monotonic() - started
        """,
        # a median of timed samples
        """
        def test():
            took = []
            for _ in range(5):
                started = time.perf_counter()
                run()
                took.append(time.perf_counter() - started)
            median = statistics.median(took)
            assert median <= 5.0
        """,
        # a deadline asserted in a loop
        """
        def test():
            deadline = time.monotonic() + 60
            while not done():
                assert time.monotonic() < deadline, "done"
        """,
        # what is left of a deadline, held above 0
        """
        async def test():
            deadline = loop.time() + 10
            remaining = deadline - loop.time()
            assert remaining > 0
        """,
        # a figure a script printed, by a key that names its unit
        """
        def test(figures):
            assert figures["healthz_max_ms"] < 400
        """,
        # a time returned by a helper of the module
        """
        async def timed(call):
            started = time.monotonic()
            answer = await call
            return answer, time.monotonic() - started

        async def test():
            answer, took = await timed(call())
            assert answer.ok and took < 3.0
        """,
        # the upper half of a chained comparison
        """
        async def test(loop):
            started = loop.time()
            await fail()
            assert 0.25 <= loop.time() - started < 2.0
        """,
    ],
)
def test_a_time_held_under_a_constant_is_found(source: str) -> None:
    assert len(_flagged(source)) == 1


@pytest.mark.parametrize(
    "source",
    [
        # a ratio of two figures of the same run
        """
        async def test(loop):
            began = loop.time()
            trips = []
            while busy():
                started = loop.time()
                ask()
                trips.append(loop.time() - started)
            searched = loop.time() - began
            assert max(trips) < searched / 4
        """,
        # a lower bound: a timeout honoured, a delay kept
        """
        async def test(loop):
            started = loop.time()
            await fail()
            assert loop.time() - started >= 0.25
        """,
        # a count of timed samples is a count
        """
        def test(figures):
            assert len(figures["timeline_seconds"]) == 4 and figures["checks"] > 3
        """,
        # nothing timed at all
        """
        def test():
            assert len(seats) < 5 and version <= head
        """,
    ],
)
def test_what_a_busy_machine_cannot_fail_is_let_be(source: str) -> None:
    assert _flagged(source) == []
