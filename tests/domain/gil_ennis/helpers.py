"""Build the exact state a test needs and play actions through the real decide/evolve."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.engine import evolve
from domain.core.events import CampaignCreated, Options
from domain.core.game import LegalAction
from domain.gil_ennis import GAME
from domain.gil_ennis.events import GilEnnisEvent
from domain.gil_ennis.state import Character, GilEnnisState

SOLO = ("player",)
COOP = ("gil", "ennis")


def created(
    seats: tuple[str, ...] = SOLO, seed: int = 11, options: Options | None = None
) -> CampaignCreated:
    return CampaignCreated("gil-ennis", GAME.info.ruleset, seed, "salt", seats, options or {})


def rolled(
    seats: tuple[str, ...] = SOLO, seed: int = 11, options: Options | None = None
) -> GilEnnisState:
    """The state after set-up's rolls, before the players assign the dice to slots."""
    state = evolve(GAME, None, created(seats, seed, options))
    for event in GAME.setup(state):
        state = GAME.evolve(state, event)
    return state


def fresh(
    seats: tuple[str, ...] = SOLO, seed: int = 11, options: Options | None = None
) -> GilEnnisState:
    """The state right after set-up, each character's dice packed by the first choice listed."""
    state = rolled(seats, seed, options)
    while state.phase == "setup":
        seat = GAME.to_act(state)[0]
        state, _ = play(state, seat, GAME.legal_actions(state, seat)[0].action)
    return state


def card(
    hand: int = 0,
    backpack: tuple[int, ...] = (),
    pocket: int = 0,
    insights: tuple[str, ...] = (),
    *,
    organized: bool = False,
) -> Character:
    return Character(
        hand, tuple(sorted(backpack, reverse=True)), pocket, insights, organized=organized
    )


def build(seats: tuple[str, ...] = SOLO, seed: int = 11, **fields: Any) -> GilEnnisState:
    """A set-up state with ``fields`` replaced (``phase``, ``gil``, ``worry_level``...)."""
    return msgspec.structs.replace(fresh(seats, seed), **fields)


def play(state: GilEnnisState, seat: str, action: Any) -> tuple[GilEnnisState, list[GilEnnisEvent]]:
    events = GAME.decide(state, seat, action)
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def actions(state: GilEnnisState, seat: str = "player") -> list[Any]:
    return [legal.action for legal in GAME.legal_actions(state, seat)]


def legal(state: GilEnnisState, seat: str = "player") -> list[LegalAction]:
    return GAME.legal_actions(state, seat)


def of_type(state: GilEnnisState, kind: type, seat: str = "player") -> list[Any]:
    return [a for a in actions(state, seat) if isinstance(a, kind)]
