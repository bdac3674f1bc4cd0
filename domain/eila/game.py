"""The Eila game object: the :class:`~domain.core.game.Game` contract over a content pack."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core.errors import InvalidOptions
from domain.core.events import CampaignCreated, Options
from domain.core.game import LegalAction, Outcome, Step
from domain.core.rng import Rng
from domain.core.ruleset import content_version, ruleset_name
from domain.eila.actions import EilaAction
from domain.eila.content import DEFAULT_PACK, ContentPack, load_pack
from domain.eila.describe import describe
from domain.eila.events import EilaEvent, FutureShuffled
from domain.eila.rules import decide as rules_decide
from domain.eila.rules.evolve import evolve as rules_evolve
from domain.eila.rules.flow import Emitter, begin_chapter
from domain.eila.rules.legal import legal
from domain.eila.state import EilaState
from domain.eila.view import EilaView, view

MODES = ("normal", "advanced")


def chapter_outcome(state: EilaState) -> Literal["running", "won", "lost"]:
    """The current attempt's result, from the moment the chapter ends until the next begins."""
    if state.phase == "won":
        return "won"
    if state.phase == "lost":
        return "lost"
    return "running"


class EilaGame:
    name = "eila"
    title = "Eila and Something Shiny"
    ruleset = ruleset_name("eila", 2, content_version(DEFAULT_PACK))
    event_type: Any = EilaEvent
    state_type: Any = EilaState
    view_type: Any = EilaView
    action_type: Any = EilaAction

    def __init__(self, pack: ContentPack) -> None:
        self.pack = pack

    def seat_layouts(self) -> tuple[tuple[str, ...], ...]:
        return ((rules_decide.SEAT,),)

    def check_options(self, options: Options, seats: tuple[str, ...]) -> None:
        if seats != (rules_decide.SEAT,):
            raise InvalidOptions(f"Eila is played by one seat, {rules_decide.SEAT!r}.")
        unknown = sorted(set(options) - {"mode", "chapter"})
        if unknown:
            raise InvalidOptions(f"Eila has no option called {unknown[0]!r}.")
        mode = options.get("mode", "normal")
        if mode not in MODES:
            raise InvalidOptions(f"The mode must be 'normal' or 'advanced', not {mode!r}.")
        chapter = options.get("chapter", 0)
        numbers = self.pack.chapter_numbers
        if isinstance(chapter, bool) or chapter not in numbers:
            known = ", ".join(str(n) for n in numbers)
            raise InvalidOptions(f"A campaign can start at chapter {known}, not {chapter!r}.")

    def initial(self, created: CampaignCreated) -> EilaState:
        chapter = created.options.get("chapter", 0)
        return EilaState(
            rng=Rng(created.seed),
            mode=str(created.options.get("mode", "normal")),
            chapter=int(chapter),
        )

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

    def episode_outcome(self, state: EilaState) -> Outcome:
        """The current chapter attempt's result (see :mod:`domain.core.game` hooks)."""
        return chapter_outcome(state)

    def greedy_choice(self, state: EilaState, legal: list[LegalAction]) -> LegalAction:
        from domain.eila.bot import greedy_choice

        return greedy_choice(state, legal)


GAME = EilaGame(load_pack(DEFAULT_PACK))
