"""The rules of the journey, one module per part of the round; this module dispatches on phase.

Every action is checked by membership in the candidate list that ``legal_actions`` also shows,
so the two cannot drift apart.
"""

from __future__ import annotations

from domain.core.errors import IllegalAction, NotYourTurn
from domain.gil_ennis.rules_v1.actions import (
    Calm,
    CashInsights,
    DreamAlone,
    DreamTogether,
    Eat,
    EndClimb,
    GilEnnisAction,
    Give,
    Hike,
    Organize,
    Place,
    Pledge,
    Reroll,
    SkipDream,
    Stow,
    TakePath,
    TurnIn,
    UsePower,
    Wake,
)
from domain.gil_ennis.rules_v1.events import GilEnnisEvent
from domain.gil_ennis.rules_v1.rules import final_night, journey, pitch, sleep
from domain.gil_ennis.rules_v1.rules.common import Candidate
from domain.gil_ennis.rules_v1.rules.powers import decide_power
from domain.gil_ennis.rules_v1.state import GilEnnisState


def candidates(state: GilEnnisState) -> list[Candidate]:
    match state.phase:
        case "hike":
            return journey.hike_candidates(state)
        case "pitch":
            return pitch.candidates(state)
        case "sleep":
            return sleep.candidates(state)
        case "break":
            return journey.break_candidates(state)
        case "final_night":
            return final_night.candidates(state)
        case _:
            return []


def decide(state: GilEnnisState, seat: str, action: object) -> list[GilEnnisEvent]:
    if state.result != "running":
        raise IllegalAction("The journey is over; no more actions can be taken.")
    if seat not in state.seats:
        raise IllegalAction(f"There is no seat {seat!r} in this campaign.")
    found = [c for c in candidates(state) if c.action == action]
    if not found:
        raise IllegalAction(f"The action {action!r} is not legal in the {state.phase} phase now.")
    if not any(seat in c.seats for c in found):
        raise NotYourTurn(f"The action {found[0].label!r} belongs to another seat.")
    return events_of(state, seat, found[0].action)


def events_of(state: GilEnnisState, seat: str, action: GilEnnisAction) -> list[GilEnnisEvent]:
    match action:
        case UsePower():
            return decide_power(state, action)
        case Hike() | TakePath() | Eat() | Stow():
            return journey.decide(state, seat, action)
        case Reroll() | Calm() | CashInsights() | Give() | Organize() | TurnIn():
            return pitch.decide(state, seat, action)
        case DreamAlone() | DreamTogether() | SkipDream() | Pledge() | Wake():
            return sleep.decide(state, seat, action)
        case Place() | EndClimb():
            return final_night.decide(state, seat, action)
