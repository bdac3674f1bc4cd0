"""Collecting events: each is applied as it is emitted, so every later rule sees the state it
leaves, and ``play`` hands back each event with its state without evolving anything twice."""

from __future__ import annotations

from domain.core.rng import Chance
from domain.machina.events import MachinaEvent
from domain.machina.rules.evolve import evolve
from domain.machina.state import MachinaState


class Emitter:
    def __init__(self, state: MachinaState) -> None:
        self.state = state
        self.steps: list[tuple[MachinaEvent, MachinaState]] = []

    @property
    def events(self) -> list[MachinaEvent]:
        return [event for event, _ in self.steps]

    @property
    def over(self) -> bool:
        return self.state.result != "running"

    def chance(self) -> Chance:
        """A draw cursor at the generator's current count; record ``.rng.draws`` in the event."""
        return Chance(self.state.rng)

    def emit(self, event: MachinaEvent) -> None:
        self.state = evolve(self.state, event)
        self.steps.append((event, self.state))
