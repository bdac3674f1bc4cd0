"""The Epic of Gil & Ennis as a :class:`~domain.core.game.Game`."""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec

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
from domain.core.rng_unkeyed import UnkeyedChance as Chance
from domain.core.rng_unkeyed import UnkeyedRng as Rng
from domain.core.rng_unkeyed import generator
from domain.gil_ennis.rules_v1 import rules
from domain.gil_ennis.rules_v1.content import CONTENT, Content
from domain.gil_ennis.rules_v1.describe import describe
from domain.gil_ennis.rules_v1.events import DiceRolled, DreamsShuffled, GilEnnisEvent
from domain.gil_ennis.rules_v1.rules.evolve import evolve
from domain.gil_ennis.rules_v1.state import CHARACTERS, GilEnnisState
from domain.gil_ennis.rules_v1.view import GilEnnisView, view

DIFFICULTIES = {"easy": 1, "normal": 3}
OWN_EVENTS = get_args(GilEnnisEvent)


class GilEnnisOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The starting worry level, as a number (``worry``) or by name (``difficulty``)."""

    worry: Literal[1, 3] | None = None
    difficulty: Literal["easy", "normal"] | None = None

    def __post_init__(self) -> None:
        both = self.worry is not None and self.difficulty is not None
        if both and DIFFICULTIES[self.difficulty or "normal"] != self.worry:
            raise ValueError("the options 'worry' and 'difficulty' disagree")

    @property
    def worry_level(self) -> int:
        """3 (normal) unless the options ask for 1 (easy)."""
        if self.difficulty is not None:
            return DIFFICULTIES[self.difficulty]
        return self.worry if self.worry is not None else 3


class GilEnnisGame:
    # Rules 1 met the game contract of today but for stating its version and keying its own
    # generator (the additions of a frozen copy, beside the import paths).
    contract = CONTRACT_VERSION
    generator = staticmethod(generator)
    info = GameInfo(
        name="gil-ennis",
        title="The Epic of Gil & Ennis",
        ruleset="gil-ennis/1",
        seat_layouts=(("player",), ("gil", "ennis")),
        hidden_information=True,
        chance=True,
    )
    options_type: Any = GilEnnisOptions
    event_type: Any = GilEnnisEvent
    state_type: Any = GilEnnisState
    view_type: Any = GilEnnisView

    def initial(self, created: CampaignCreated) -> GilEnnisState:
        options = options_of(self, created.options, GilEnnisOptions)
        return GilEnnisState(
            rng=Rng(created.seed),
            seats=tuple(created.seats),
            worry_level=options.worry_level,
        )

    def setup(self, state: GilEnnisState) -> list[GilEnnisEvent]:
        chance = Chance(state.rng)
        events: list[GilEnnisEvent] = []
        for who in CHARACTERS:
            faces = chance.dice(5)
            events.append(DiceRolled(who, faces, chance.rng.draws))
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

    def progress(self, state: GilEnnisState) -> Progress:
        return Progress(day=state.day)

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

    def public_content(self) -> Content:
        """All of it: the map, the character cards, Mount Humbaba and the six dream cards (the
        deck's order is what stays hidden, and it is not here)."""
        return CONTENT
