"""The phase clock of a command: each phase's time as marked, the rest as ``other``, and the
collector's pauses taken out of the phases they fell in."""

from __future__ import annotations

import pytest

from server.ops import phases
from server.ops.phases import PHASES, Phases, mark


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    ticking = Clock()
    monkeypatch.setattr(phases.time, "perf_counter", ticking)
    monkeypatch.setattr(phases, "paused_s", [0.0])
    return ticking


def test_each_phase_gets_the_time_up_to_its_mark_and_the_rest_is_other(clock: Clock) -> None:
    timing = Phases()
    clock.now += 0.002
    timing.mark("lock")
    clock.now += 0.010
    timing.mark("rules")
    clock.now += 0.030
    timing.mark("store")
    clock.now += 0.001
    timing.mark("delivery")
    clock.now += 0.004  # the answer's own steps, after the last mark
    spent = timing.done()
    assert set(spent) == set(PHASES)
    assert spent["lock"] == pytest.approx(0.002)
    assert spent["rules"] == pytest.approx(0.010)
    assert spent["store"] == pytest.approx(0.030)
    assert spent["delivery"] == pytest.approx(0.001)
    assert spent["other"] == pytest.approx(0.004)
    assert spent["collector"] == 0
    assert sum(spent.values()) == pytest.approx(0.047)


def test_the_collectors_pause_is_counted_apart_from_the_phase_it_fell_in(clock: Clock) -> None:
    timing = Phases()
    clock.now += 0.040
    phases.paused_s[0] += 0.025  # a full collection, in the middle of the store's round trip
    timing.mark("store")
    clock.now += 0.005
    timing.mark("delivery")
    spent = timing.done()
    assert spent["collector"] == pytest.approx(0.025)
    assert spent["store"] == pytest.approx(0.015)
    assert spent["delivery"] == pytest.approx(0.005)
    assert sum(spent.values()) == pytest.approx(0.045)


def test_marks_outside_a_command_are_ignored_and_inside_one_go_to_its_clock(clock: Clock) -> None:
    mark("store")  # no command under way: nothing to mark, nothing raised
    timing = Phases()
    token = phases.clock.set(timing)
    try:
        clock.now += 0.003
        mark("rules")
    finally:
        phases.clock.reset(token)
    mark("rules")
    assert timing.spent["rules"] == pytest.approx(0.003)


def test_one_command_in_so_many_is_timed() -> None:
    clocks = [phases.sampled() for _ in range(4 * phases.SAMPLE_EVERY)]
    assert sum(clock is not None for clock in clocks) == 4
