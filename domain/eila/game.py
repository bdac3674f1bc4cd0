"""The Eila game object: the :class:`~domain.core.game.Game` contract over a content pack."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from domain.core.errors import ContentError
from domain.core.events import CampaignCreated
from domain.core.game import (
    CONTRACT_VERSION,
    ChapterAttempts,
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
from domain.eila.actions import EilaAction
from domain.eila.box import Box, box
from domain.eila.content import DEFAULT_PACK, ContentPack, check_pack, load_pack
from domain.eila.describe import describe
from domain.eila.events import EilaEvent, FutureShuffled, MineLaidOut
from domain.eila.rules import decide as rules_decide
from domain.eila.rules.evolve import evolve as rules_evolve
from domain.eila.rules.flow import Emitter, begin_chapter
from domain.eila.rules.legal import candidates, legal
from domain.eila.sampling import sample
from domain.eila.state import EilaState
from domain.eila.turn import SEAT_NAMES
from domain.eila.view import EilaView, view

RULES_VERSION = 4
"""Bump (with a line in RULES_NOTES.md) when the rules code changes what a stream means."""


def chapter_outcome(state: EilaState) -> Literal["running", "won", "lost"]:
    """The current attempt's result, from the moment the chapter ends until the next begins (an
    attempt abandoned before its end counts as lost)."""
    if state.result == "won":
        return "won"
    if state.result == "lost":
        return "lost"
    return "running"


def attempts(state: EilaState) -> tuple[ChapterAttempts, ...]:
    """Finished attempts per chapter, won and lost, in chapter order."""
    chapters = sorted({chapter for chapter, _ in state.record})
    return tuple(
        ChapterAttempts(
            str(chapter),
            won=sum(1 for c, r in state.record if c == chapter and r == "won"),
            lost=sum(1 for c, r in state.record if c == chapter and r == "lost"),
        )
        for chapter in chapters
    )


MODE = msgspec.Meta(
    title="Mode",
    description="Normal is for a first journey; advanced swaps in harder event cards and goals.",
)
CHAPTER = msgspec.Meta(
    title="Chapter",
    description="The chapter to play: each is a story of its own, with its own goal.",
)


def options_type_for(pack: ContentPack) -> Any:
    """The campaign options: the mode, and a chapter to start at that the pack has."""
    chapters: Any = Literal.__getitem__(tuple(pack.chapter_numbers))  # the pack's own numbers
    return msgspec.defstruct(
        "EilaOptions",
        [
            ("mode", Annotated[Literal["normal", "advanced"], MODE], "normal"),
            ("chapter", Annotated[chapters, CHAPTER], 0),
        ],
        frozen=True,
        forbid_unknown_fields=True,
    )


class EilaGame:
    contract = CONTRACT_VERSION
    event_type: Any = EilaEvent
    state_type: Any = EilaState
    view_type: Any = EilaView

    def __init__(
        self, pack: ContentPack, folder: Path | None = None, *, rules: int = RULES_VERSION
    ) -> None:
        self.pack = pack if pack.rules == rules else msgspec.structs.replace(pack, rules=rules)
        self.folder = folder
        """Where the pack was read from, for checking it (None: built in memory)."""
        self.info = GameInfo(
            name="eila",
            title="Eila and Something Shiny",
            ruleset=ruleset_name("eila", rules, content_version(folder or DEFAULT_PACK)),
            seat_layouts=((rules_decide.SEAT,),),
            hidden_information=True,
            chance=True,
            chapters=True,
            seat_names=dict(SEAT_NAMES),
            round_name="day",
            chapter_names={
                str(number): f"Chapter {number}: {pack.chapters[number].title}"
                for number in sorted(pack.chapters)
            },
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
        return legal(self.pack, state) if self._playing(state, seat) else []

    def unlabelled_actions(self, state: EilaState, seat: str) -> list[LegalAction]:
        if not self._playing(state, seat):
            return []
        return [LegalAction(action_id(a), "", a) for a in candidates(self.pack, state)]

    def to_act(self, state: EilaState) -> tuple[str, ...]:
        # What may be done, without the labels that listing the legal actions writes for each.
        seat = rules_decide.SEAT
        return (seat,) if self._playing(state, seat) and candidates(self.pack, state) else ()

    def _playing(self, state: EilaState, seat: str) -> bool:
        """Whether ``seat`` is Eila's and the campaign still runs."""
        return seat == rules_decide.SEAT and self.outcome(state) == "running"

    def progress(self, state: EilaState) -> Progress:
        return Progress(
            chapter=str(state.chapter),
            day=state.day,
            chapter_outcome=chapter_outcome(state),
            attempts=attempts(state),
        )

    def outcome(self, state: EilaState) -> Outcome:
        if state.phase == "abandoned":
            return "lost"
        if state.phase == "won" and state.chapter + 1 not in self.pack.chapters:
            return "won"
        return "running"

    def face_down(self, state: EilaState) -> tuple[tuple[object, ...], ...]:
        mine = state.mine
        unturned = (
            ()
            if mine is None
            else tuple(
                (index, tile) for index, tile in enumerate(mine.tiles) if index not in mine.face_up
            )
        )
        return (state.upcoming, state.future, state.past, unturned)

    def view(self, state: EilaState, seat: str | None) -> EilaView:
        return view(self.pack, state, self.outcome(state), chapter_outcome(state))

    def redact(self, event: EilaEvent, seat: str | None) -> EilaEvent:
        # Face-down orders stay hidden: the Future shuffled into the upcoming deck, the mine's
        # face-down tiles (each shows itself when flipped).
        if isinstance(event, FutureShuffled):
            return msgspec.structs.replace(event, order=(), draws=0)
        if isinstance(event, MineLaidOut):
            return msgspec.structs.replace(event, tiles=(), draws=0)
        return event

    def describe(self, event: EilaEvent, state: EilaState) -> str | None:
        return describe(self.pack, event, state)

    def public_content(self) -> Box:
        return box(self.pack)

    def sample(self, state: EilaState, seat: str | None, chance: Chance) -> EilaState:
        return sample(self.pack, state, seat, chance)

    def content_errors(self) -> list[ContentError]:
        return [] if self.folder is None else check_pack(self.folder)

    def releases(self) -> dict[str, Callable[[], Any]]:
        """Every ruleset Eila released, oldest first (see :mod:`domain.eila.releases`)."""
        from domain.eila.releases import RELEASES  # the releases build games of this module

        return dict(RELEASES)


GAME = EilaGame(load_pack(DEFAULT_PACK), DEFAULT_PACK)
