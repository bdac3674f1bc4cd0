"""The Epic of Gil & Ennis as a :class:`~domain.core.game.Game`."""

from __future__ import annotations

from typing import Any, get_args

import msgspec

from domain.core.errors import InvalidOptions
from domain.core.events import CampaignCreated, Options
from domain.core.game import LegalAction, Outcome, Step, action_id
from domain.core.rng import Chance, Rng
from domain.core.ruleset import content_version, ruleset_name
from domain.gil_ennis import rules
from domain.gil_ennis.content import CONTENT, CONTENT_DIR
from domain.gil_ennis.describe import describe
from domain.gil_ennis.events import DreamsShuffled, GilEnnisEvent
from domain.gil_ennis.rules import placing
from domain.gil_ennis.rules.evolve import evolve
from domain.gil_ennis.state import GilEnnisState
from domain.gil_ennis.view import GilEnnisView, view

RULES_VERSION = 2
"""Bump (with a line in RULES_NOTES.md) when the rules code changes what a stream means."""
SEAT_LAYOUTS = (("player",), ("gil", "ennis"))
DIFFICULTIES = {"easy": 1, "normal": 3}
OWN_EVENTS = get_args(GilEnnisEvent)


def worry_option(options: Options) -> int:
    """The starting worry level: option ``worry`` (1 or 3) or ``difficulty``; 3 by default."""
    worry = options.get("worry")
    difficulty = options.get("difficulty")
    if difficulty is not None:
        return DIFFICULTIES[str(difficulty)]
    return int(worry) if worry is not None else 3


class GilEnnisGame:
    name = "gil-ennis"
    title = "The Epic of Gil & Ennis"
    ruleset = ruleset_name("gil-ennis", RULES_VERSION, content_version(CONTENT_DIR))
    event_type: Any = GilEnnisEvent
    state_type: Any = GilEnnisState
    view_type: Any = GilEnnisView

    def seat_layouts(self) -> tuple[tuple[str, ...], ...]:
        return SEAT_LAYOUTS

    def check_options(self, options: Options, seats: tuple[str, ...]) -> None:
        if tuple(seats) not in SEAT_LAYOUTS:
            raise InvalidOptions(
                "Gil & Ennis is played by one seat 'player' or by the seats 'gil' and 'ennis'."
            )
        unknown = sorted(set(options) - {"worry", "difficulty"})
        if unknown:
            raise InvalidOptions(f"Gil & Ennis has no option {unknown[0]!r}.")
        worry = options.get("worry")
        if worry is not None and (isinstance(worry, bool) or worry not in (1, 3)):
            raise InvalidOptions("The option 'worry' must be 1 (easy) or 3 (normal).")
        difficulty = options.get("difficulty")
        if difficulty is not None:
            if difficulty not in DIFFICULTIES:
                raise InvalidOptions("The option 'difficulty' must be 'easy' or 'normal'.")
            if worry is not None and DIFFICULTIES[str(difficulty)] != worry:
                raise InvalidOptions("The options 'worry' and 'difficulty' disagree.")

    def initial(self, created: CampaignCreated) -> GilEnnisState:
        return GilEnnisState(
            rng=Rng(created.seed),
            seats=tuple(created.seats),
            worry_level=worry_option(created.options),
        )

    def setup(self, state: GilEnnisState) -> list[GilEnnisEvent]:
        chance = Chance(state.rng)
        events = placing.setup_events(state, chance)
        order = chance.shuffled([card.id for card in CONTENT.dreams])
        events.append(DreamsShuffled(order, len(order), chance.rng.draws))
        return events

    def decide(self, state: GilEnnisState, seat: str, action: Any) -> list[GilEnnisEvent]:
        return rules.decide(state, seat, action)

    def play(self, state: GilEnnisState, seat: str, action: Any) -> list[Step]:
        steps: list[Step] = []
        for event in rules.events_of(state, seat, action):
            state = evolve(state, event)
            steps.append((event, state))
        return steps

    def evolve(self, state: GilEnnisState, event: GilEnnisEvent) -> GilEnnisState:
        return evolve(state, event)

    def legal_actions(self, state: GilEnnisState, seat: str) -> list[LegalAction]:
        if state.result != "running":
            return []
        return [
            LegalAction(action_id(c.action), c.label, c.action)
            for c in rules.candidates(state)
            if seat in c.seats
        ]

    def to_act(self, state: GilEnnisState) -> tuple[str, ...]:
        if state.result != "running":
            return ()
        found = rules.candidates(state)
        return tuple(seat for seat in state.seats if any(seat in c.seats for c in found))

    def outcome(self, state: GilEnnisState) -> Outcome:
        if state.result == "won":
            return "won"
        if state.result == "lost":
            return "lost"
        return "running"

    def view(self, state: GilEnnisState, seat: str | None) -> GilEnnisView:
        return view(state, seat)

    def redact(self, event: Any, seat: str | None) -> Any:
        # The deck lies face down: a seat learns how many cards were shuffled, not their order.
        if isinstance(event, DreamsShuffled):
            return msgspec.structs.replace(event, order=())
        return event

    def describe(self, event: Any, state: GilEnnisState) -> str | None:
        if not isinstance(event, OWN_EVENTS):
            return None
        return describe(event, state)
