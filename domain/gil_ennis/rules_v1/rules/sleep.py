"""SLEEP: choose the dreamers against the worry level, draw the top dream card, then pay its cost
one die at a time (or wake and sleep restlessly)."""

from __future__ import annotations

from domain.core.rng_unkeyed import UnkeyedChance as Chance
from domain.gil_ennis.rules_v1.actions import DreamAlone, DreamTogether, Pledge, SkipDream, Wake
from domain.gil_ennis.rules_v1.content import DREAMS, Requirement
from domain.gil_ennis.rules_v1.events import (
    DiePledged,
    DreamersChosen,
    DreamFailed,
    DreamFulfilled,
    DreamsShuffled,
    GilEnnisEvent,
)
from domain.gil_ennis.rules_v1.inventory import choices, dice
from domain.gil_ennis.rules_v1.rules.common import Candidate, die_label, lowered, name, raised
from domain.gil_ennis.rules_v1.rules.powers import power_candidates
from domain.gil_ennis.rules_v1.state import CHARACTERS, GilEnnisState, character, other, seat_of

SleepAction = DreamAlone | DreamTogether | SkipDream | Pledge | Wake


def cost(state: GilEnnisState) -> tuple[Requirement, ...]:
    card = DREAMS[state.dream]
    return card.alone if len(state.dreamers) == 1 else card.together


def _choose(state: GilEnnisState) -> list[Candidate]:
    level = state.worry_level
    out = power_candidates(state)
    for who in CHARACTERS:
        watcher = character(state, other(who)).hand
        if watcher >= level:
            label = (
                f"Dream alone as {name(who)} ({name(other(who))}'s hand die {watcher} "
                f"vs worry level {level})"
            )
            out.append(Candidate((seat_of(state, who),), DreamAlone(who), label))
    if state.gil.hand >= level and state.ennis.hand >= level:
        label = (
            f"Dream together (hand dice {state.gil.hand} and {state.ennis.hand} "
            f"vs worry level {level})"
        )
        out.append(Candidate(state.seats, DreamTogether(), label))
    label = f"Do not dream: sleep restlessly (worry level {level} to {lowered(state, 1)})"
    out.append(Candidate(state.seats, SkipDream(), label))
    return out


def _free(state: GilEnnisState, who: str, slot: str, value: int) -> bool:
    """Whether ``who`` still has a die at ``slot`` showing ``value`` that is not pledged."""
    held = sum(1 for die in dice(character(state, who)) if die == (slot, value))
    pledged = sum(
        1 for p in state.pledges if p.character == who and p.slot == slot and p.value == value
    )
    return held > pledged


def _pay(state: GilEnnisState) -> list[Candidate]:
    out: list[Candidate] = []
    paid = {p.requirement for p in state.pledges}
    title = DREAMS[state.dream].name
    for index, requirement in enumerate(cost(state)):
        if index in paid:
            continue
        for who in state.dreamers:
            for slot, value in choices(character(state, who)):
                if requirement.accepts(value) and _free(state, who, slot, value):
                    label = (
                        f"Pay the {requirement.label()} of {title} with "
                        f"{die_label(who, slot, value)}"
                    )
                    out.append(
                        Candidate((seat_of(state, who),), Pledge(index, who, slot, value), label)
                    )
    seats = tuple(dict.fromkeys(seat_of(state, who) for who in state.dreamers))
    label = f"Stop paying and sleep restlessly (worry level {state.worry_level} to " + (
        f"{lowered(state, 1)})"
    )
    out.append(Candidate(seats, Wake(), label))
    return out


def candidates(state: GilEnnisState) -> list[Candidate]:
    return _choose(state) if state.step == "choose" else _pay(state)


def _draw(state: GilEnnisState, dreamers: tuple[str, ...]) -> list[GilEnnisEvent]:
    events: list[GilEnnisEvent] = []
    deck = state.deck
    if not deck and state.discard:
        # The deck ran out: the discarded (shared) dreams are shuffled into a new deck.
        chance = Chance(state.rng)
        deck = chance.shuffled(state.discard)
        events.append(DreamsShuffled(deck, len(deck), chance.rng.draws))
    card = deck[0] if deck else ""
    events.append(DreamersChosen(dreamers, card))
    if not dreamers or not card:
        events.append(DreamFailed(card, lowered(state, 1)))
    return events


def decide(state: GilEnnisState, seat: str, action: SleepAction) -> list[GilEnnisEvent]:
    match action:
        case DreamAlone(character=who):
            return _draw(state, (who,))
        case DreamTogether():
            return _draw(state, CHARACTERS)
        case SkipDream():
            return _draw(state, ())
        case Pledge(requirement=index, character=who, slot=slot, value=value):
            events: list[GilEnnisEvent] = [DiePledged(index, who, slot, value)]
            if len(state.pledges) + 1 == len(cost(state)):
                gain = 2 if len(state.dreamers) == 1 else 1
                spent = len(state.pledges) + 1
                level = raised(state, gain, freed=spent)
                events.append(DreamFulfilled(state.dream, state.dreamers, level))
            return events
        case Wake():
            return [DreamFailed(state.dream, lowered(state, 1))]
