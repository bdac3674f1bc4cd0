"""FINAL NIGHT on Mount Humbaba: use abilities and insights, then match each challenge die with an
inventory die of the same value. All matched wins; ending the climb before that loses."""

from __future__ import annotations

from domain.gil_ennis.rules_v1.actions import EndClimb, Place
from domain.gil_ennis.rules_v1.events import DiePlaced, GilEnnisEvent, JourneyEnded
from domain.gil_ennis.rules_v1.inventory import choices
from domain.gil_ennis.rules_v1.rules.common import Candidate, die_label
from domain.gil_ennis.rules_v1.rules.powers import power_candidates
from domain.gil_ennis.rules_v1.state import CHARACTERS, GilEnnisState, character, seat_of

FinalAction = Place | EndClimb


def open_values(state: GilEnnisState) -> tuple[int, ...]:
    return tuple(v for v, p in zip(state.challenge, state.placed, strict=True) if not p)


def candidates(state: GilEnnisState) -> list[Candidate]:
    out = power_candidates(state)
    wanted = set(open_values(state))
    for who in CHARACTERS:
        for slot, value in choices(character(state, who)):
            if value in wanted:
                label = f"Place {die_label(who, slot, value)} against a {value} on Mount Humbaba"
                out.append(Candidate((seat_of(state, who),), Place(who, slot, value), label))
    left = len(open_values(state))
    label = f"Give up the climb with {left} of {len(state.challenge)} dice unmatched"
    out.append(Candidate(state.seats, EndClimb(), label))
    return out


def decide(state: GilEnnisState, seat: str, action: FinalAction) -> list[GilEnnisEvent]:
    match action:
        case Place(character=who, slot=slot, value=value):
            space = next(
                i
                for i, (v, p) in enumerate(zip(state.challenge, state.placed, strict=True))
                if v == value and not p
            )
            events: list[GilEnnisEvent] = [DiePlaced(who, slot, value, space)]
            if len(open_values(state)) == 1:
                events.append(JourneyEnded("won", "summit"))
            return events
        case EndClimb():
            return [JourneyEnded("lost", "turned_back")]
