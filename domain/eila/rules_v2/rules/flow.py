"""The automatic part of play: the effect queue runs until an effect needs a choice.

:func:`run` applies the golden rule (effects left to right, top to bottom), places the card when
its option is done, reveals the next card or begins the night, and ends the chapter the moment HP
runs out. Each event is applied as it is emitted, so every later step sees the state it leaves.
"""

from __future__ import annotations

from domain.core.rng_unkeyed import chance_of
from domain.eila.rules_v2.content import ContentPack, Effect, Option
from domain.eila.rules_v2.events import (
    CardFetched,
    CardPlaced,
    CardRevealed,
    ChapterLost,
    ChapterOpened,
    ChapterSetUp,
    ChapterWon,
    EffectSkipped,
    EilaEvent,
    FearTaken,
    FutureShuffled,
    HeartBroken,
    HeartGained,
    ItemAcquired,
    ItemsDiscarded,
    NightBegan,
    ResourcePaid,
    TimeMarked,
)
from domain.eila.rules_v2.rules.evolve import evolve
from domain.eila.rules_v2.rules.storage import fear_plan, goal_achieved, have
from domain.eila.rules_v2.state import EilaState


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
        self.state = evolve(self.pack, self.state, event)
        self.steps.append((event, self.state))


def current_option(pack: ContentPack, state: EilaState) -> Option:
    card = pack.cards[state.present]
    return next(o for o in card.options if o.letter == state.option)


def current_effect(pack: ContentPack, state: EilaState) -> Effect | None:
    if state.phase != "resolving":
        return None
    effects = current_option(pack, state).effects
    return effects[state.step] if state.step < len(effects) else None


def automatic(pack: ContentPack, state: EilaState, effect: Effect) -> EilaEvent | None:
    """The event that resolves ``effect`` on its own, or None when the player must choose."""
    match effect.kind:
        case "gain" if effect.resource == "fear":
            to_store, hearts, room = fear_plan(pack, state.resources, effect.amount)
            return None if room else FearTaken(to_store, hearts)
        case "gain":
            return None
        case "lose":
            return ResourcePaid(
                effect.resource, min(effect.amount, have(state.resources, effect.resource))
            )
        case "blue" | "red" | "habit":
            deck = {"blue": state.blue_deck, "red": state.red_deck, "habit": state.habit_deck}
            if effect.card in deck[effect.kind]:
                return CardFetched(effect.card)
            return EffectSkipped(f"card {effect.card} is not in its deck")
        case "item":
            missing = [i for i in effect.items if i not in state.items]
            if not missing:
                return EffectSkipped("the item is already held")
            return ItemAcquired(missing[0]) if len(missing) == 1 else None
        case "discard_item":
            held = tuple(i for i in effect.items if i in state.items)
            if not held:
                return EffectSkipped("no such item is held")
            return ItemsDiscarded(held) if len(held) <= effect.count else None
        case "heart":
            return HeartGained(min(effect.amount, state.max_hp - state.hp))
        case "broken_heart":
            return HeartBroken(min(effect.amount, state.hp))
    raise ValueError(f"The effect kind {effect.kind!r} is not known.")


def run(out: Emitter) -> None:
    pack = out.pack
    while True:
        state = out.state
        if state.phase == "resolving":
            option = current_option(pack, state)
            if state.step >= len(option.effects):
                out.emit(CardPlaced(state.present, option.destination))
                continue
            event = automatic(pack, state, option.effects[state.step])
            if event is None:
                return
            out.emit(event)
            if out.state.hp <= 0:
                out.emit(ChapterLost(state.chapter, "hp"))
                return
            continue
        if state.phase == "day" and not state.present:
            if state.upcoming:
                out.emit(CardRevealed(state.upcoming[0]))
            else:
                out.emit(NightBegan())
        return


def end_night(out: Emitter) -> None:
    """Mark the time track, then lose or shuffle the Future in and begin the next day."""
    state = out.state
    out.emit(TimeMarked("energy" if state.resources.energy > 0 else "heart"))
    state = out.state
    if state.hp <= 0:
        out.emit(ChapterLost(state.chapter, "hp"))
    elif len(state.time_track) >= out.pack.ruleset.time_track:
        out.emit(ChapterLost(state.chapter, "time"))
    else:
        # eila-1 drew from the unkeyed generator: the one edit of this copy (docs/releases.md)
        chance = chance_of(state.rng)
        order = chance.shuffled(state.future)
        out.emit(FutureShuffled(order, chance.rng.draws, len(order)))
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
    out.emit(ChapterSetUp(chapter, attempt, habits))
    run(out)
