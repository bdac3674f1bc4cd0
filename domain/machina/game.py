"""Machina Arcana: To Eternity as a :class:`~domain.core.game.Game`."""

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
from domain.machina import rules
from domain.machina.actions import MachinaAction
from domain.machina.content_load import CONTENT, CONTENT_DIR, check_content, content
from domain.machina.describe import describe
from domain.machina.events import MachinaEvent, MapTilesReturned, Shuffled
from domain.machina.rules.evolve import evolve
from domain.machina.sampling import sample
from domain.machina.state import Explorer, MachinaState
from domain.machina.turn import CHAPTER_NAMES, SEAT_NAMES
from domain.machina.view import MachinaView, view

RULES_VERSION = 2
"""Bump (with a line in RULES_NOTES.md) when the rules code changes what a stream means."""
OWN_EVENTS = get_args(MachinaEvent)


class MachinaOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The scenario to play; the content ships one."""

    scenario: Annotated[
        Literal["to-eternity"],
        msgspec.Meta(
            title="Scenario", description=f"The scenario to play: {CONTENT.scenario.title}."
        ),
    ] = "to-eternity"


class MachinaGame:
    contract = CONTRACT_VERSION
    info = GameInfo(
        name="machina",
        title="Machina Arcana: To Eternity",
        ruleset=ruleset_name("machina", RULES_VERSION, content_version(CONTENT_DIR)),
        seat_layouts=CONTENT.seat_layouts,
        hidden_information=True,
        chance=True,
        seat_names=dict(SEAT_NAMES),
        round_name="round",
        chapter_names=dict(CHAPTER_NAMES),
    )
    options_type: Any = MachinaOptions
    event_type: Any = MachinaEvent
    state_type: Any = MachinaState
    view_type: Any = MachinaView

    def initial(self, created: CampaignCreated) -> MachinaState:
        options_of(self, created.options, MachinaOptions)
        explorers = tuple(
            Explorer(seat, content().explorers[seat].health, content().explorers[seat].stamina)
            for seat in created.seats
        )
        return MachinaState(
            rng=Rng(created.seed),
            seats=tuple(created.seats),
            explorers=explorers,
            chapter_deck=tuple(c.id for c in content().scenario.chapters),
        )

    def setup(self, state: MachinaState) -> list[MachinaEvent]:
        return rules.setup(state).events

    def decide(self, state: MachinaState, seat: str, action: Any) -> list[MachinaEvent]:
        return rules.decide(state, seat, action).events

    def play(self, state: MachinaState, seat: str, action: MachinaAction) -> list[Step]:
        return list(rules.play(state, seat, action).steps)

    def evolve(self, state: MachinaState, event: MachinaEvent) -> MachinaState:
        return evolve(state, event)

    def legal_actions(self, state: MachinaState, seat: str) -> list[LegalAction]:
        return [
            LegalAction(action_id(c.action), c.label, c.action)
            for c in rules.candidates(state, seat)
        ]

    def to_act(self, state: MachinaState) -> tuple[str, ...]:
        return rules.to_act(state)

    def progress(self, state: MachinaState) -> Progress:
        return Progress(chapter=state.chapter or None, day=state.round)

    def outcome(self, state: MachinaState) -> Outcome:
        if state.result == "won":
            return "won"
        if state.result == "lost":
            return "lost"
        return "running"

    def face_down(self, state: MachinaState) -> tuple[tuple[object, ...], ...]:
        return (state.map_deck, state.monster_deck, state.horror_deck, state.item_deck)

    def view(self, state: MachinaState, seat: str | None) -> MachinaView:
        return view(state, seat)

    def redact(self, event: Any, seat: str | None) -> Any:
        # Decks lie face down: a viewer learns how many cards were shuffled, never their order.
        if isinstance(event, Shuffled | MapTilesReturned):
            return msgspec.structs.replace(event, order=())
        return event

    def describe(self, event: Any, state: MachinaState) -> str | None:
        if not isinstance(event, OWN_EVENTS):
            return None
        return describe(event, state)

    def sample(self, state: MachinaState, seat: str | None, chance: Chance) -> MachinaState:
        return sample(state, seat, chance)

    def releases(self) -> dict[str, Callable[[], Any]]:
        """Every ruleset Machina released, oldest first (:mod:`domain.machina.releases`)."""
        from domain.machina.releases import RELEASES  # the releases build games of this module

        return dict(RELEASES)

    def content_errors(self) -> list[ContentError]:
        return check_content(CONTENT_DIR)
