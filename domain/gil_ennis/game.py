"""The Epic of Gil & Ennis as a :class:`~domain.core.game.Game`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args

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
from domain.gil_ennis import rules
from domain.gil_ennis.content import CONTENT_DIR, Content, content, load_content
from domain.gil_ennis.describe import describe
from domain.gil_ennis.events import DreamsShuffled, GilEnnisEvent
from domain.gil_ennis.rules import placing
from domain.gil_ennis.rules.evolve import evolve
from domain.gil_ennis.sampling import sample
from domain.gil_ennis.state import GilEnnisState
from domain.gil_ennis.turn import SEAT_NAMES
from domain.gil_ennis.turn import to_act as seats_to_act
from domain.gil_ennis.view import GilEnnisView, view

RULES_VERSION = 2
"""Bump (with a line in RULES_NOTES.md) when the rules code changes what a stream means."""
DIFFICULTIES = {"easy": 1, "normal": 3}
OWN_EVENTS = get_args(GilEnnisEvent)


class GilEnnisOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The starting worry level, as a number (``worry``) or by name (``difficulty``)."""

    worry: Annotated[
        Literal[1, 3] | None,
        msgspec.Meta(
            title="Starting worry level",
            description=(
                "The value of the WORRY LEVEL die at set-up: 1 (easy) or 3 (normal). "
                "Left out, the difficulty decides, and normal play starts at 3."
            ),
        ),
    ] = None
    difficulty: Annotated[
        Literal["easy", "normal"] | None,
        msgspec.Meta(
            title="Difficulty",
            description="Easy starts the WORRY LEVEL at 1, normal at 3 (the default).",
        ),
    ] = None

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
    contract = CONTRACT_VERSION
    info = GameInfo(
        name="gil-ennis",
        title="The Epic of Gil & Ennis",
        ruleset=ruleset_name("gil-ennis", RULES_VERSION, content_version(CONTENT_DIR)),
        seat_layouts=(("player",), ("gil", "ennis")),
        hidden_information=True,
        chance=True,
        seat_names=dict(SEAT_NAMES),
        round_name="day",
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
        events = placing.setup_events(state, chance)
        order = chance.shuffled([card.id for card in content().dreams])
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
        return seats_to_act(state)

    def progress(self, state: GilEnnisState) -> Progress:
        return Progress(day=state.day)

    def outcome(self, state: GilEnnisState) -> Outcome:
        if state.result == "won":
            return "won"
        if state.result == "lost":
            return "lost"
        return "running"

    def face_down(self, state: GilEnnisState) -> tuple[tuple[object, ...], ...]:
        return (state.deck,)

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
        return content()

    def sample(self, state: GilEnnisState, seat: str | None, chance: Chance) -> GilEnnisState:
        return sample(state, seat, chance)

    def releases(self) -> dict[str, Callable[[], Any]]:
        """Every ruleset Gil & Ennis released, oldest first (:mod:`domain.gil_ennis.releases`)."""
        from domain.gil_ennis.releases import RELEASES  # the releases build games of this module

        return dict(RELEASES)

    def content_errors(self) -> list[ContentError]:
        try:
            load_content(CONTENT_DIR)
        except ContentError as error:
            return [error]
        return []
