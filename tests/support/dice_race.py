"""A tiny game for testing the engine, service and server apart from any real game's rules.

Each seat in turn rolls a die and adds it to its total, or holds; the first to reach ``target``
wins, and a seat that rolls a 1 loses its turn's gain. Every outcome is drawn from the campaign's
generator in ``decide`` and recorded in the event.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.core.errors import IllegalAction, NotYourTurn
from domain.core.events import CampaignCreated
from domain.core.game import (
    CONTRACT_VERSION,
    GameInfo,
    LegalAction,
    Outcome,
    Progress,
    Step,
    action_id,
    options_of,
)
from domain.core.rng import Chance, Rng
from domain.core.turn import Turn


class Roll(msgspec.Struct, frozen=True, tag="roll"):
    pass


class Hold(msgspec.Struct, frozen=True, tag="hold"):
    pass


class Began(msgspec.Struct, frozen=True, tag="dice-race/began"):
    first: int
    draws: int


class Rolled(msgspec.Struct, frozen=True, tag="dice-race/rolled"):
    seat: str
    face: int
    draws: int


class Held(msgspec.Struct, frozen=True, tag="dice-race/held"):
    seat: str


DiceRaceEvent = Began | Rolled | Held


class DiceRaceState(msgspec.Struct, frozen=True):
    rng: Rng
    seats: tuple[str, ...]
    target: int
    totals: tuple[int, ...] = ()
    turn: int = -1
    winner: str | None = None


class DiceRaceView(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    to_act: str | None
    winner: str | None
    turn: Turn = Turn()


class DiceRaceOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    target: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 20


class DiceRace:
    contract = CONTRACT_VERSION
    info = GameInfo(
        name="dice-race",
        title="Dice Race",
        ruleset="dice-race/1",
        seat_layouts=(("player",), ("red", "blue")),
        hidden_information=False,
        chance=True,
    )
    options_type: Any = DiceRaceOptions
    event_type: Any = DiceRaceEvent
    state_type: Any = DiceRaceState
    view_type: Any = DiceRaceView

    def initial(self, created: CampaignCreated) -> DiceRaceState:
        target = options_of(self, created.options, DiceRaceOptions).target
        return DiceRaceState(Rng(created.seed), created.seats, target, (0,) * len(created.seats))

    def setup(self, state: DiceRaceState) -> list[Any]:
        chance = Chance(state.rng)
        return [Began(chance.below(len(state.seats)), chance.rng.draws)]

    def _seat_to_act(self, state: DiceRaceState) -> str | None:
        if state.winner is not None or state.turn < 0:
            return None
        return state.seats[state.turn]

    def legal_actions(self, state: DiceRaceState, seat: str) -> list[LegalAction]:
        if self._seat_to_act(state) != seat:
            return []
        return [
            LegalAction(action_id(Hold()), "Hold", Hold()),
            LegalAction(action_id(Roll()), "Roll the die", Roll()),
        ]

    def to_act(self, state: DiceRaceState) -> tuple[str, ...]:
        seat = self._seat_to_act(state)
        return () if seat is None else (seat,)

    def decide(self, state: DiceRaceState, seat: str, action: Any) -> list[Any]:
        if state.winner is not None:
            raise IllegalAction("The race is over.")
        if self._seat_to_act(state) != seat:
            raise NotYourTurn(f"It is not {seat}'s turn.")
        match action:
            case Roll():
                chance = Chance(state.rng)
                return [Rolled(seat, chance.die(), chance.rng.draws)]
            case Hold():
                return [Held(seat)]
        raise IllegalAction(f"{action!r} is not an action of this game.")

    def play(self, state: DiceRaceState, seat: str, action: Any) -> list[Step]:
        steps: list[Step] = []
        for event in self.decide(state, seat, action):
            state = self.evolve(state, event)
            steps.append((event, state))
        return steps

    def evolve(self, state: DiceRaceState, event: Any) -> DiceRaceState:
        match event:
            case Began(first=first, draws=draws):
                return msgspec.structs.replace(state, turn=first, rng=state.rng.advanced_to(draws))
            case Rolled(seat=seat, face=face, draws=draws):
                index = state.seats.index(seat)
                total = state.totals[index] + (0 if face == 1 else face)
                totals = (*state.totals[:index], total, *state.totals[index + 1 :])
                return msgspec.structs.replace(
                    state,
                    totals=totals,
                    rng=state.rng.advanced_to(draws),
                    turn=(index + 1) % len(state.seats),
                    winner=seat if total >= state.target else None,
                )
            case Held(seat=seat):
                index = state.seats.index(seat)
                return msgspec.structs.replace(state, turn=(index + 1) % len(state.seats))
        raise TypeError(f"Unknown event {event!r}.")

    def progress(self, state: DiceRaceState) -> Progress:
        return Progress()

    def outcome(self, state: DiceRaceState) -> Outcome:
        result: Literal["running", "won"] = "running" if state.winner is None else "won"
        return result

    def view(self, state: DiceRaceState, seat: str | None) -> DiceRaceView:
        seat = self._seat_to_act(state)
        turn = Turn() if seat is None else Turn((seat,), "Roll the die or hold", "to roll or hold")
        return DiceRaceView(state.seats, state.totals, seat, state.winner, turn)

    def redact(self, event: Any, seat: str | None) -> Any:
        return event

    def describe(self, event: Any, state: Any) -> str | None:
        match event:
            case Rolled(seat=seat, face=face):
                return f"{seat} rolled a {face}"
            case Held(seat=seat):
                return f"{seat} held"
        return None


GAME = DiceRace()


def register() -> None:
    """Make the game known to the registry (tests only)."""
    from domain.games import GAMES

    GAMES.setdefault(GAME.info.name, GAME)
