"""Lighthouse Watch as a :class:`~domain.core.game.Game`: its facts, options, views and sampler."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from domain.core.errors import ContentError
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
from domain.core.ruleset import content_version, ruleset_name
from domain.core.sampling import hidden_order, unknown_future
from domain.core.turn import ENDED, Turn

from lighthouse_watch import content
from lighthouse_watch.content import CONTENT, CONTENT_DIR, MOST_NIGHTS
from lighthouse_watch.rules import (
    Drew,
    Light,
    LighthouseEvent,
    LighthouseState,
    Lit,
    Shuffled,
    StormMet,
    StormRose,
    WatchEnded,
    decide,
    evolve,
    hand_of,
    to_light,
)

RULES_VERSION = 1
SEAT_NAMES = {"isla": "Isla", "tom": "Tom"}


class LighthouseOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    nights: Annotated[
        int,
        msgspec.Meta(
            ge=3,
            le=MOST_NIGHTS,
            title="Nights",
            description="How many stormy nights the keepers must watch through before dawn.",
        ),
    ] = 8
    ships: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=4,
            title="Ships to lose",
            description="The watch fails when this many ships are lost to the storms.",
        ),
    ] = 2


class LighthouseView(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    night: int
    nights: int
    storm: str
    strength: int
    lit_tonight: str
    """The lamps lit so far tonight, face up: "Candle (1)"."""
    light_tonight: int
    your_lamps: str
    """The viewer's own hand ("" for a spectator)."""
    lamps_in_hand: tuple[int, ...]
    """How many lamps each seat holds, in seat order."""
    lamps_left: int
    weathered: int
    ships_lost: int
    ships: int
    result: str
    turn: Turn


def _lamp(lamp: str) -> str:
    found = CONTENT.lamps[lamp]
    return f"{found.name} ({found.light})"


class LighthouseGame:
    contract = CONTRACT_VERSION
    info = GameInfo(
        name="lighthouse",
        title="Lighthouse Watch",
        ruleset=ruleset_name("lighthouse", RULES_VERSION, content_version(CONTENT_DIR)),
        seat_layouts=(("isla", "tom"),),
        hidden_information=True,
        chance=True,
        seat_names=SEAT_NAMES,
        round_name="night",
        # Two moves a night, ten nights at most: no campaign is longer.
        longest=2 * MOST_NIGHTS,
    )
    options_type: Any = LighthouseOptions
    event_type: Any = LighthouseEvent
    state_type: Any = LighthouseState
    view_type: Any = LighthouseView

    def initial(self, created: CampaignCreated) -> LighthouseState:
        options = options_of(self, created.options, LighthouseOptions)
        return LighthouseState(
            rng=Rng(created.seed), seats=created.seats, nights=options.nights, ships=options.ships
        )

    def setup(self, state: LighthouseState) -> list[LighthouseEvent]:
        chance = Chance(state.rng)
        lamps = chance.shuffled(sorted(CONTENT.lamps))
        storms = chance.shuffled(sorted(CONTENT.storms))
        return [Shuffled(lamps, storms, chance.draws)]

    def decide(self, state: LighthouseState, seat: str, action: Any) -> list[LighthouseEvent]:
        return decide(state, seat, action)

    def play(self, state: LighthouseState, seat: str, action: Any) -> list[Step]:
        steps: list[Step] = []
        for event in decide(state, seat, action):
            state = evolve(state, event)
            steps.append((event, state))
        return steps

    def evolve(self, state: LighthouseState, event: LighthouseEvent) -> LighthouseState:
        return evolve(state, event)

    def legal_actions(self, state: LighthouseState, seat: str) -> list[LegalAction]:
        if to_light(state) != seat:
            return []
        actions = [Light(lamp) for lamp in hand_of(state, seat)]
        return [LegalAction(action_id(a), f"Light the {_lamp(a.lamp)}", a) for a in actions]

    def to_act(self, state: LighthouseState) -> tuple[str, ...]:
        seat = to_light(state)
        return () if seat is None else (seat,)

    def outcome(self, state: LighthouseState) -> Outcome:
        return state.result

    def progress(self, state: LighthouseState) -> Progress:
        return Progress(day=state.night)

    def view(self, state: LighthouseState, seat: str | None) -> LighthouseView:
        storm = CONTENT.storms.get(state.storm)
        mine = hand_of(state, seat) if seat is not None else ()
        return LighthouseView(
            seats=state.seats,
            night=state.night,
            nights=state.nights,
            storm=storm.name if storm else "",
            strength=storm.strength if storm else 0,
            lit_tonight=", ".join(_lamp(lamp) for lamp in state.lit),
            light_tonight=sum(CONTENT.lamps[lamp].light for lamp in state.lit),
            your_lamps=", ".join(_lamp(lamp) for lamp in mine),
            lamps_in_hand=tuple(len(hand) for hand in state.hands),
            lamps_left=len(state.lamps),
            weathered=state.weathered,
            ships_lost=state.lost,
            ships=state.ships,
            result=state.result,
            turn=_turn(state),
        )

    def redact(self, event: Any, seat: str | None) -> Any:
        # The decks lie face down, and a keeper sees only the lamps it draws itself.
        if isinstance(event, Shuffled):
            return msgspec.structs.replace(event, lamps=(), storms=())
        if isinstance(event, Drew) and event.seat != seat:
            return msgspec.structs.replace(event, lamp="")
        return event

    def describe(self, event: Any, state: LighthouseState) -> str | None:
        match event:
            case Lit(seat=seat, lamp=lamp):
                return f"{SEAT_NAMES.get(seat, seat)} lights the {_lamp(lamp)}."
            case Shuffled():
                return f"Night 1 of {state.nights}: {CONTENT.storms[state.storm].name} rises."
            case StormMet(storm=storm, light=light, weathered=weathered):
                name = CONTENT.storms[storm].name
                if weathered:
                    return f"{name} is weathered with a light of {light}."
                return f"{name} wins against a light of {light}: a ship is lost."
            case StormRose():
                return f"Night {state.night}: {CONTENT.storms[state.storm].name} rises."
            case WatchEnded(result="won"):
                return "Dawn: the watch has held."
            case WatchEnded():
                return "The watch has failed."
        return None

    def sample(self, state: LighthouseState, seat: str | None, chance: Chance) -> LighthouseState:
        """The other hands and the lamp deck redrawn from one pool, the storms reshuffled."""
        kept = {index for index, s in enumerate(state.seats) if s == seat}
        pool = [
            lamp for index, hand in enumerate(state.hands) if index not in kept for lamp in hand
        ]
        order = list(hidden_order([*pool, *state.lamps], chance))
        hands = []
        for index, hand in enumerate(state.hands):
            if index in kept:
                hands.append(hand)
            else:
                hands.append(tuple(sorted(order[: len(hand)])))
                del order[: len(hand)]
        return msgspec.structs.replace(
            state,
            hands=tuple(hands),
            lamps=tuple(order),
            storms=hidden_order(state.storms, chance),
            rng=unknown_future(chance),
        )

    def content_errors(self) -> list[ContentError]:
        return content.check(CONTENT_DIR)


def _turn(state: LighthouseState) -> Turn:
    seat = to_light(state)
    if seat is None:
        return ENDED
    return Turn((seat,), "Light a lamp against the storm", "to light a lamp against the storm")
