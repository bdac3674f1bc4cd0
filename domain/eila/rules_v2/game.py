"""The Eila game object: the :class:`~domain.core.game.Game` contract over a content pack."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core.events import CampaignCreated
from domain.core.game import (
    CONTRACT_VERSION,
    GameInfo,
    LegalAction,
    Outcome,
    Progress,
    Step,
    options_of,
)
from domain.core.rng import Rng
from domain.core.rng_unkeyed import UnkeyedRng, generator
from domain.core.ruleset import content_version, ruleset_name
from domain.eila.rules_v2.actions import EilaAction
from domain.eila.rules_v2.box import Box, box
from domain.eila.rules_v2.content import DEFAULT_PACK, ContentPack
from domain.eila.rules_v2.describe import describe
from domain.eila.rules_v2.events import EilaEvent, FutureShuffled
from domain.eila.rules_v2.rules import decide as rules_decide
from domain.eila.rules_v2.rules.evolve import evolve as rules_evolve
from domain.eila.rules_v2.rules.flow import Emitter, begin_chapter
from domain.eila.rules_v2.rules.legal import legal
from domain.eila.rules_v2.state import EilaState
from domain.eila.rules_v2.view import EilaView, view


def chapter_outcome(state: EilaState) -> Literal["running", "won", "lost"]:
    """The current attempt's result, from the moment the chapter ends until the next begins."""
    if state.phase == "won":
        return "won"
    if state.phase == "lost":
        return "lost"
    return "running"


def options_type_for(pack: ContentPack) -> Any:
    """The campaign options: the mode, and a chapter to start at that the pack has."""
    chapters: Any = Literal.__getitem__(tuple(pack.chapter_numbers))  # the pack's own numbers
    return msgspec.defstruct(
        "EilaOptions",
        [("mode", Literal["normal", "advanced"], "normal"), ("chapter", chapters, 0)],
        frozen=True,
        forbid_unknown_fields=True,
    )


class EilaGame:
    # Rules 2 met the game contract of today but for stating its version (a frozen copy's one
    # addition beside the import paths).
    contract = CONTRACT_VERSION
    event_type: Any = EilaEvent
    state_type: Any = EilaState
    view_type: Any = EilaView

    def __init__(self, pack: ContentPack) -> None:
        self.pack = pack
        self.info = GameInfo(
            name="eila",
            title="Eila and Something Shiny",
            ruleset=ruleset_name("eila", 2, content_version(DEFAULT_PACK)),
            seat_layouts=((rules_decide.SEAT,),),
            hidden_information=True,
            chance=True,
            chapters=True,
        )
        self.options_type: Any = options_type_for(pack)

    def initial(self, created: CampaignCreated) -> EilaState:
        options: Any = options_of(self, created.options)
        return EilaState(rng=Rng(created.seed), mode=options.mode, chapter=options.chapter)

    def setup(self, state: EilaState) -> list[EilaEvent]:
        out = Emitter(self.pack, state)
        begin_chapter(out, state.chapter, 1)
        return out.events

    def decide(self, state: EilaState, seat: str, action: EilaAction) -> list[EilaEvent]:
        return rules_decide.decide(self.pack, state, seat, action)

    def play(self, state: EilaState, seat: str, action: EilaAction) -> list[Step]:
        return list(rules_decide.play(self.pack, state, action).steps)

    def evolve(self, state: EilaState, event: EilaEvent) -> EilaState:
        return rules_evolve(self.pack, state, event)

    def legal_actions(self, state: EilaState, seat: str) -> list[LegalAction]:
        if seat != rules_decide.SEAT or self.outcome(state) != "running":
            return []
        return legal(self.pack, state)

    def to_act(self, state: EilaState) -> tuple[str, ...]:
        return (rules_decide.SEAT,) if self.legal_actions(state, rules_decide.SEAT) else ()

    def progress(self, state: EilaState) -> Progress:
        return Progress(
            chapter=str(state.chapter), day=state.day, chapter_outcome=chapter_outcome(state)
        )

    def outcome(self, state: EilaState) -> Outcome:
        if state.phase == "won" and state.chapter + 1 not in self.pack.chapters:
            return "won"
        return "running"

    def view(self, state: EilaState, seat: str | None) -> EilaView:
        return view(self.pack, state, self.outcome(state), chapter_outcome(state))

    def redact(self, event: EilaEvent, seat: str | None) -> EilaEvent:
        if isinstance(event, FutureShuffled):
            return msgspec.structs.replace(event, order=(), draws=0)
        return event

    def describe(self, event: EilaEvent, state: EilaState) -> str | None:
        return describe(self.pack, event, state)

    def public_content(self) -> Box:
        return box(self.pack)


class UnkeyedEilaState(EilaState, frozen=True, gc=False):
    """An ``eila-1`` campaign's state: rules 2's, with the generator before keyed chance."""

    rng: UnkeyedRng  # type: ignore[assignment]


class UnkeyedEilaGame(EilaGame):
    """``eila-1``: rules 2 and pack 1 drawn from the unkeyed generator (the one change between
    the two rulesets, made in the engine's core)."""

    state_type: Any = UnkeyedEilaState
    generator = staticmethod(generator)

    def __init__(self, pack: ContentPack) -> None:
        super().__init__(pack)
        self.info = msgspec.structs.replace(self.info, ruleset="eila-1")

    def initial(self, created: CampaignCreated) -> EilaState:
        options: Any = options_of(self, created.options)
        return UnkeyedEilaState(
            rng=UnkeyedRng(created.seed), mode=options.mode, chapter=options.chapter
        )
