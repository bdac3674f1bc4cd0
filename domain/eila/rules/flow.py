"""The automatic part of play: the effect stack runs until an effect needs a choice.

:func:`run` applies the golden rule (effects left to right, top to bottom), places the card when
its option is done, reveals the next card or begins the night, and sets a chapter's unique
elements up (Additional Rule 02). The :class:`Emitter` ends the chapter the moment HP runs out, in
the same batch of events as the loss: the rulebook's "losing the last HP makes you lose a
chapter", so nothing (a flower, a healing spell) can be used after it.
"""

from __future__ import annotations

from domain.core.rng import Chance
from domain.eila.content import ContentPack
from domain.eila.events import (
    CardPlaced,
    CardRevealed,
    ChapterLost,
    ChapterOpened,
    ChapterSetUp,
    ChapterWon,
    DawnPeeked,
    EilaEvent,
    FrameDone,
    FutureShuffled,
    MarketDrawn,
    MineLaidOut,
    NightBegan,
    TimeMarked,
)
from domain.eila.rules.effects import automatic
from domain.eila.rules.evolve import evolve
from domain.eila.rules.holdings import has_trait
from domain.eila.rules.storage import goal_achieved
from domain.eila.state import EilaState

OVER = ("won", "lost", "abandoned")


class Emitter:
    """Collects events with the state each one leaves, and keeps the latest state."""

    def __init__(self, pack: ContentPack, state: EilaState) -> None:
        self.pack = pack
        self.state = state
        self.steps: list[tuple[EilaEvent, EilaState]] = []

    @property
    def events(self) -> list[EilaEvent]:
        return [event for event, _ in self.steps]

    def emit(self, event: EilaEvent) -> None:
        before = self.state.hp
        self.state = evolve(self.pack, self.state, event)
        self.steps.append((event, self.state))
        if self.state.hp <= 0 < before and self.state.phase not in OVER:
            self.emit(ChapterLost(self.state.chapter, "hp"))


def run(out: Emitter) -> None:
    pack = out.pack
    while True:
        state = out.state
        if state.phase in OVER:
            return
        if state.frames:
            top = state.frames[-1]
            if top.step >= len(top.effects):
                out.emit(CardPlaced(state.present, top.place) if top.place else FrameDone())
                continue
            event = automatic(pack, state, top.effects[top.step])
            if event is None:
                return
            out.emit(event)
            continue
        if state.phase == "day" and not state.present:
            out.emit(CardRevealed(state.upcoming[0]) if state.upcoming else NightBegan())
            continue
        return


def end_night(out: Emitter) -> None:
    """Mark the time track, then lose or shuffle the Future in and begin the next day."""
    state = out.state
    out.emit(TimeMarked("energy" if state.resources.energy > 0 else "heart"))
    state = out.state
    if state.phase in OVER:
        return
    if len(state.time_track) >= out.pack.ruleset.time_track:
        out.emit(ChapterLost(state.chapter, "time"))
        return
    chance = Chance(state.rng)
    order = chance.shuffled(state.future)
    out.emit(FutureShuffled(order, chance.rng.draws, len(order)))
    # A pocket watch shows the day's first card, which may then go last (Appendix).
    if len(out.state.upcoming) >= 2 and has_trait(out.pack, out.state, "pocket_watch"):
        out.emit(DawnPeeked())
        return
    run(out)


def check_win(out: Emitter) -> None:
    if goal_achieved(out.pack, out.state):
        out.emit(ChapterWon(out.state.chapter))


def begin_chapter(out: Emitter, chapter: int, attempt: int) -> None:
    """Set a chapter up, first asking for the order of saved habit cards when it matters."""
    state = out.state
    habits = state.saved_habits if chapter >= out.pack.ruleset.habit_deck_from_chapter else ()
    if len(habits) >= 2:
        out.emit(ChapterOpened(chapter, attempt))
        return
    set_up(out, ChapterSetUp(chapter, attempt, habits))


def set_up(out: Emitter, event: ChapterSetUp) -> None:
    """The chapter's set-up, its unique elements laid out, then its first card revealed."""
    out.emit(event)
    chapter = out.pack.chapters[event.chapter]
    if chapter.mine is not None:
        chance = Chance(out.state.rng)
        groups: dict[str, list[int]] = {}
        for index, place in enumerate(chapter.mine.slots):
            groups.setdefault(place.group, []).append(index)
        tiles = [""] * len(chapter.mine.slots)
        for group, slots in groups.items():
            pool = sorted(t for t, tile in chapter.mine.tiles.items() if tile.group == group)
            for slot, drawn in zip(slots, chance.shuffled(pool), strict=False):
                tiles[slot] = drawn
        out.emit(MineLaidOut(tuple(tiles), chance.rng.draws))
    for market in chapter.markets:
        chance = Chance(out.state.rng)
        offered = chance.shuffled(market.cards)[: market.draw]
        cards = tuple(c for c in market.cards if c in offered)
        out.emit(MarketDrawn(market.name, cards, chance.rng.draws))
    run(out)
