"""Lighthouse Watch's rules: the state, the events, the one action, and decide and evolve.

Two keepers watch the coast through a number of stormy nights. Each holds a hand of three lamps
the other cannot see. Every night a storm rises from the face-down storm deck; the keeper whose
watch it is lights one lamp, then the other lights one. When the light of the two lamps reaches
the storm's strength the ships pass; when it falls short a ship is lost. Each keeper then draws a
lamp, the next storm rises and the other keeper opens the watch. Lose too many ships and the watch
has failed; weather every night and it has held.
"""

from __future__ import annotations

from typing import Literal, assert_never

import msgspec
from domain.core.errors import IllegalAction, NotYourTurn
from domain.core.rng import Rng

from lighthouse_watch.content import CONTENT, HAND

Result = Literal["running", "won", "lost"]


class Light(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="light"):
    """Light one lamp from the hand for tonight's storm."""

    lamp: str


class Shuffled(msgspec.Struct, frozen=True, tag="lighthouse/shuffled"):
    """Set-up: both decks shuffled; the top lamps are dealt, the top storm rises."""

    lamps: tuple[str, ...]
    storms: tuple[str, ...]
    draws: int


class Lit(msgspec.Struct, frozen=True, tag="lighthouse/lit"):
    seat: str
    lamp: str


class StormMet(msgspec.Struct, frozen=True, tag="lighthouse/storm-met"):
    storm: str
    light: int
    weathered: bool


class Drew(msgspec.Struct, frozen=True, tag="lighthouse/drew"):
    seat: str
    lamp: str
    """Empty in the copy a seat gets of another seat's draw."""


class StormRose(msgspec.Struct, frozen=True, tag="lighthouse/storm-rose"):
    storm: str


class WatchEnded(msgspec.Struct, frozen=True, tag="lighthouse/watch-ended"):
    result: Literal["won", "lost"]


LighthouseEvent = Shuffled | Lit | StormMet | Drew | StormRose | WatchEnded


class LighthouseState(msgspec.Struct, frozen=True):
    rng: Rng
    seats: tuple[str, ...]
    nights: int
    ships: int
    hands: tuple[tuple[str, ...], ...] = ()
    """Each seat's lamps, in seat order, each hand sorted."""
    lamps: tuple[str, ...] = ()
    """The face-down lamp deck, top first."""
    storms: tuple[str, ...] = ()
    """The face-down storm deck, top first."""
    storm: str = ""
    """Tonight's storm."""
    lit: tuple[str, ...] = ()
    """The lamps lit tonight, in the order they were lit."""
    night: int = 0
    weathered: int = 0
    lost: int = 0
    opener: int = 0
    """The index of the seat whose watch it is tonight: it lights first."""
    result: Result = "running"


def to_light(state: LighthouseState) -> str | None:
    """The seat to light a lamp now, if any (nobody before the set-up, nor once both have)."""
    if state.night == 0 or state.result != "running" or len(state.lit) >= len(state.seats):
        return None
    return state.seats[(state.opener + len(state.lit)) % len(state.seats)]


def hand_of(state: LighthouseState, seat: str) -> tuple[str, ...]:
    """``seat``'s lamps (none before the deal)."""
    return state.hands[state.seats.index(seat)] if state.hands else ()


def decide(state: LighthouseState, seat: str, action: Light) -> list[LighthouseEvent]:
    if state.result != "running":
        raise IllegalAction("The watch is over.")
    turn = to_light(state)
    if seat != turn:
        raise NotYourTurn(f"It is {turn}'s turn to light a lamp.")
    if action.lamp not in hand_of(state, seat):
        raise IllegalAction(f"There is no lamp {action.lamp!r} in your hand.")
    events: list[LighthouseEvent] = [Lit(seat, action.lamp)]
    if len(state.lit) + 1 < len(state.seats):
        return events
    light = sum(CONTENT.lamps[lamp].light for lamp in (*state.lit, action.lamp))
    weathered = light >= CONTENT.storms[state.storm].strength
    events.append(StormMet(state.storm, light, weathered))
    lost = state.lost + (not weathered)
    if lost >= state.ships:
        return [*events, WatchEnded("lost")]
    if state.night >= state.nights:
        return [*events, WatchEnded("won")]
    deck = list(state.lamps)
    for n in range(len(state.seats)):
        drawer = state.seats[(state.opener + n) % len(state.seats)]
        if deck:
            events.append(Drew(drawer, deck.pop(0)))
    events.append(StormRose(state.storms[0]))
    return events


def evolve(state: LighthouseState, event: LighthouseEvent) -> LighthouseState:
    replace = msgspec.structs.replace
    match event:
        case Shuffled(lamps=lamps, storms=storms, draws=draws):
            count = len(state.seats)
            hands = tuple(tuple(sorted(lamps[n * HAND : (n + 1) * HAND])) for n in range(count))
            return replace(
                state,
                rng=state.rng.advanced_to(draws),
                hands=hands,
                lamps=lamps[count * HAND :],
                storm=storms[0],
                storms=storms[1:],
                night=1,
            )
        case Lit(seat=seat, lamp=lamp):
            index = state.seats.index(seat)
            hand = list(state.hands[index])
            hand.remove(lamp)
            hands = (*state.hands[:index], tuple(hand), *state.hands[index + 1 :])
            return replace(state, hands=hands, lit=(*state.lit, lamp))
        case StormMet(weathered=weathered):
            return replace(
                state,
                weathered=state.weathered + weathered,
                lost=state.lost + (not weathered),
            )
        case Drew(seat=seat, lamp=lamp):
            index = state.seats.index(seat)
            drawn = tuple(sorted((*state.hands[index], lamp)))
            hands = (*state.hands[:index], drawn, *state.hands[index + 1 :])
            return replace(state, hands=hands, lamps=state.lamps[1:])
        case StormRose(storm=storm):
            return replace(
                state,
                storm=storm,
                storms=state.storms[1:],
                lit=(),
                night=state.night + 1,
                opener=(state.opener + 1) % len(state.seats),
            )
        case WatchEnded(result=result):
            return replace(state, result=result)
        case _:
            assert_never(event)
