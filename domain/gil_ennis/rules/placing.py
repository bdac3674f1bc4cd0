"""Dice rolled together wait to be placed, and the players place them.

The rulebook rolls all dice of a draw before adding any ("Whenever you draw dice ... rolling all
before adding them") and has the players "assign a die to each inventory slot" at set-up. So a
draw of several dice records the faces (:class:`DiceDrawn`) and the game waits: at set-up for an
:class:`Assign` per character (which die goes in the HAND, which in the POCKET; the other three
fill the BACKPACK), later for :class:`AddDrawn` picks, one die at a time, in the order the players
want them pushed in through the HAND slot. A choice that can only go one way is made at once.
"""

from __future__ import annotations

from domain.core.rng import Chance
from domain.gil_ennis.actions import AddDrawn, Assign
from domain.gil_ennis.events import (
    DiceAssigned,
    DiceDrawn,
    DieDrawn,
    DrawnDieAdded,
    GilEnnisEvent,
)
from domain.gil_ennis.rules.common import Candidate, name
from domain.gil_ennis.state import CHARACTERS, GilEnnisState, character, seat_of

SETUP_DICE = 5


def waiting(state: GilEnnisState) -> tuple[str, ...]:
    """The characters whose rolled dice wait to be placed."""
    return tuple(who for who in CHARACTERS if character(state, who).rolled)


def _without(values: tuple[int, ...], *taken: int) -> tuple[int, ...]:
    rest = list(values)
    for value in taken:
        rest.remove(value)
    return tuple(rest)


def _distinct(values: tuple[int, ...]) -> tuple[int, ...]:
    """``values`` once each, high to low."""
    return tuple(sorted(set(values), reverse=True))


def _assignments(rolled: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every distinct ``(hand, pocket)`` choice from five rolled dice, high to low."""
    return [
        (hand, pocket) for hand in _distinct(rolled) for pocket in _distinct(_without(rolled, hand))
    ]


def _assigned(who: str, rolled: tuple[int, ...], hand: int, pocket: int) -> DiceAssigned:
    backpack = tuple(sorted(_without(rolled, hand, pocket), reverse=True))
    return DiceAssigned(who, hand, backpack, pocket)


def setup_events(state: GilEnnisState, chance: Chance) -> list[GilEnnisEvent]:
    """Set-up's rolls: five dice for each character, waiting for the players to assign them."""
    events: list[GilEnnisEvent] = []
    for who in CHARACTERS:
        faces = tuple(sorted(chance.dice(SETUP_DICE), reverse=True))
        events.append(DiceDrawn(who, faces, chance.rng.draws))
        only = _assignments(faces)
        if len(only) == 1:
            events.append(_assigned(who, faces, *only[0]))
    return events


def draw_events(who: str, count: int, chance: Chance) -> list[GilEnnisEvent]:
    """``count`` dice drawn together for ``who``: all rolled, then added in the players' order."""
    if count == 1:
        value = chance.die()
        return [DieDrawn(who, value, chance.rng.draws)]
    faces = tuple(sorted(chance.dice(count), reverse=True))
    events: list[GilEnnisEvent] = [DiceDrawn(who, faces, chance.rng.draws)]
    return events + _forced_adds(who, faces)


def _forced_adds(who: str, left: tuple[int, ...]) -> list[GilEnnisEvent]:
    """When the dice left all show one value, their order cannot matter: add them now."""
    if len(set(left)) > 1:
        return []
    return [DrawnDieAdded(who, value) for value in left]


def candidates(state: GilEnnisState) -> list[Candidate]:
    out: list[Candidate] = []
    for who in waiting(state):
        seats = (seat_of(state, who),)
        rolled = character(state, who).rolled
        if state.phase == "setup":
            for hand, pocket in _assignments(rolled):
                backpack = ", ".join(str(v) for v in sorted(_without(rolled, hand, pocket))[::-1])
                label = (
                    f"Pack {name(who)}'s dice: HAND {hand}, BACKPACK {backpack}, POCKET {pocket}"
                )
                out.append(Candidate(seats, Assign(who, hand, pocket), label))
        else:
            for value in _distinct(rolled):
                label = (
                    f"Add the drawn {value} to {name(who)}'s HAND next "
                    "(dice added after it push it down)"
                )
                out.append(Candidate(seats, AddDrawn(who, value), label))
    return out


def decide(state: GilEnnisState, action: Assign | AddDrawn) -> list[GilEnnisEvent]:
    rolled = character(state, action.character).rolled
    match action:
        case Assign(character=who, hand=hand, pocket=pocket):
            return [_assigned(who, rolled, hand, pocket)]
        case AddDrawn(character=who, value=value):
            return [DrawnDieAdded(who, value), *_forced_adds(who, _without(rolled, value))]
