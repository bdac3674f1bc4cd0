"""Where an action's time goes, phase by phase, so that a slow one can be told apart.

A command (:func:`server.context.perform`) starts a :class:`Phases` clock; the command path marks
each phase as it ends (:func:`mark`): ``lock`` (waiting for the campaign's lock and its head),
``rules`` (the legal action looked up, played, its events encoded), ``store`` (the append's round
trip, and a snapshot when one is due) and ``delivery`` (the frames built and queued for every
watching socket). What the clock saw pass outside them is ``other`` (the handler's own steps,
and turns of the event loop the command waited for). The garbage collector's pauses are counted
apart, as ``collector``, out of whichever phase they fell in: a process-wide total kept by the
collector's callback (:mod:`server.ops.metrics`), read at the start and the end.

The clock is a context variable, so code on the command path marks phases without being handed
it, and code outside a command (a catch-up, a bot's thinking) marks nothing. One command in
:data:`SAMPLE_EVERY` is timed (:func:`sampled`): timing every one cost a tenth of a move's CPU
(six histogram observations a move), and a sample shows where the time goes just as well.
"""

from __future__ import annotations

import itertools
import time
from contextvars import ContextVar

PHASES = ("lock", "rules", "store", "delivery", "collector", "other")

SAMPLE_EVERY = 16
"""One command in this many is timed."""

_commands = itertools.count()

paused_s = [0.0]
"""Seconds this process has spent in the garbage collector's pauses, while timed."""


class Phases:
    __slots__ = ("_last", "_paused", "spent", "started")

    def __init__(self) -> None:
        self.started = self._last = time.perf_counter()
        self._paused = paused_s[0]
        self.spent = dict.fromkeys(PHASES, 0.0)

    def mark(self, phase: str) -> None:
        now = time.perf_counter()
        self.spent[phase] += now - self._last
        self._last = now

    def done(self) -> dict[str, float]:
        """Every phase's seconds, ``other`` and ``collector`` included, once the command ends."""
        now = time.perf_counter()
        collector = paused_s[0] - self._paused
        spent = dict(self.spent)
        spent["other"] = max(0.0, now - self.started - sum(spent.values()))
        # The collector's pauses counted apart, out of the phases they fell in (largest first).
        left = collector
        for phase in sorted(spent, key=spent.__getitem__, reverse=True):
            taken = min(left, spent[phase])
            spent[phase] -= taken
            left -= taken
        spent["collector"] = collector - left
        return spent


clock: ContextVar[Phases | None] = ContextVar("phases", default=None)


def sampled() -> Phases | None:
    """A clock for this command when it is one of those timed, else None."""
    return Phases() if next(_commands) % SAMPLE_EVERY == 0 else None


def mark(phase: str) -> None:
    """The phase ``phase`` of the command under way (if any) ends now."""
    phases = clock.get()
    if phases is not None:
        phases.mark(phase)
