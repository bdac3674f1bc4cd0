"""Applying one event to the state: plain replaces, no checks, no draws."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from domain.eila.rules_v2.content import ContentPack
from domain.eila.rules_v2.events import (
    CardFetched,
    CardPlaced,
    CardRevealed,
    ChapterLost,
    ChapterOpened,
    ChapterSetUp,
    ChapterWon,
    Converted,
    Discarded,
    EffectSkipped,
    EilaEvent,
    FearTaken,
    FutureShuffled,
    HabitArranged,
    HeartBroken,
    HeartGained,
    ItemAcquired,
    ItemsDiscarded,
    NightBegan,
    OptionChosen,
    ResourcePaid,
    ResourceTaken,
    RoomMade,
    Submitted,
    TimeMarked,
)
from domain.eila.rules_v2.rules.storage import changed
from domain.eila.rules_v2.state import NO_RESOURCES, EilaState, Resources


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(c for c in cards if c != card)


def set_up(pack: ContentPack, state: EilaState, event: ChapterSetUp) -> EilaState:
    chapter = pack.chapters[event.chapter]
    side = chapter.advanced if state.mode == "advanced" else chapter.normal
    return replace(
        state,
        phase="day",
        chapter=event.chapter,
        attempt=event.attempt,
        day=1,
        hp=side.hearts,
        max_hp=side.hearts,
        resources=Resources(**dict(chapter.prologue)),
        submitted=NO_RESOURCES,
        night_submitted=0,
        time_track=(),
        upcoming=chapter.green + event.habit_order,
        known_on_top=0,
        present="",
        option="",
        step=0,
        future=(),
        past=(),
        blue_deck=chapter.blue,
        red_deck=chapter.red,
        habit_deck=tuple(h for h in pack.habits if h not in state.saved_habits),
        items=state.saved_items,
        arranged=(),
        lost_reason="",
    )


def evolve(pack: ContentPack, state: EilaState, event: EilaEvent) -> EilaState:
    match event:
        case ResourceTaken(resource=resource, amount=amount):
            return replace(
                state, resources=changed(state.resources, resource, amount), step=state.step + 1
            )
        case ResourcePaid(resource=resource, amount=amount):
            return replace(
                state, resources=changed(state.resources, resource, -amount), step=state.step + 1
            )
        case CardRevealed(card=card):
            return replace(
                state,
                present=card,
                upcoming=state.upcoming[1:],
                known_on_top=max(0, state.known_on_top - 1),
                phase="day",
            )
        case OptionChosen(letter=letter):
            return replace(state, option=letter, step=0, phase="resolving")
        case CardPlaced(card=card, destination=destination):
            state = replace(state, present="", option="", step=0, phase="day")
            if destination == "future":
                return replace(state, future=(*state.future, card))
            if destination == "past":
                return replace(state, past=(*state.past, card))
            colour = pack.cards[card].colour
            if colour == "blue":
                return replace(state, blue_deck=tuple(sorted((*state.blue_deck, card))))
            if colour == "red":
                return replace(state, red_deck=tuple(sorted((*state.red_deck, card))))
            return replace(
                state,
                habit_deck=tuple(h for h in pack.habits if h in state.habit_deck or h == card),
            )
        case FearTaken(amount=amount, hearts=hearts):
            return replace(
                state,
                resources=changed(state.resources, "fear", amount),
                hp=state.hp - hearts,
                step=state.step + 1,
            )
        case RoomMade(resource=resource) | Discarded(resource=resource):
            return replace(state, resources=changed(state.resources, resource, -1))
        case CardFetched(card=card):
            colour = pack.cards[card].colour
            state = replace(state, step=state.step + 1)
            if colour == "blue":
                return replace(
                    state, blue_deck=_without(state.blue_deck, card), future=(*state.future, card)
                )
            top = (card, *state.upcoming)
            if colour == "red":
                return replace(
                    state,
                    red_deck=_without(state.red_deck, card),
                    upcoming=top,
                    known_on_top=state.known_on_top + 1,
                )
            return replace(
                state,
                habit_deck=_without(state.habit_deck, card),
                upcoming=top,
                known_on_top=state.known_on_top + 1,
            )
        case ItemAcquired(item=item):
            return replace(state, items=tuple(sorted((*state.items, item))), step=state.step + 1)
        case ItemsDiscarded(items=items):
            kept = tuple(i for i in state.items if i not in items)
            return replace(state, items=kept, step=state.step + 1)
        case HeartGained(amount=amount):
            return replace(state, hp=state.hp + amount, step=state.step + 1)
        case HeartBroken(amount=amount):
            return replace(state, hp=state.hp - amount, step=state.step + 1)
        case EffectSkipped():
            return replace(state, step=state.step + 1)
        case NightBegan():
            return replace(state, phase="night", night_submitted=0)
        case Submitted(resource=resource):
            return replace(
                state,
                resources=changed(state.resources, resource, -1),
                submitted=changed(state.submitted, resource, 1),
                night_submitted=state.night_submitted + 1,
            )
        case TimeMarked(token=token):
            track = (*state.time_track, token)
            if token == "energy":
                return replace(
                    state, time_track=track, resources=changed(state.resources, "energy", -1)
                )
            return replace(state, time_track=track, hp=state.hp - 1)
        case FutureShuffled(order=order, draws=draws):
            return replace(
                state,
                upcoming=order,
                future=(),
                known_on_top=0,
                day=state.day + 1,
                phase="day",
                rng=state.rng.advanced_to(draws),
            )
        case Converted(conversion=cid):
            conv = pack.conversions[cid]
            resources = changed(state.resources, conv.give, -conv.give_amount)
            return replace(state, resources=changed(resources, conv.get, conv.get_amount))
        case ChapterWon(chapter=chapter):
            progress = state.progress if chapter in state.progress else (*state.progress, chapter)
            return replace(
                state,
                phase="won",
                progress=progress,
                saved_items=state.items,
                saved_habits=tuple(h for h in pack.habits if h not in state.habit_deck),
            )
        case ChapterLost(reason=reason):
            return replace(state, phase="lost", lost_reason=reason)
        case ChapterOpened(chapter=chapter, attempt=attempt):
            return replace(state, phase="arranging", chapter=chapter, attempt=attempt, arranged=())
        case HabitArranged(habit=habit):
            return replace(state, arranged=(*state.arranged, habit))
        case ChapterSetUp():
            return set_up(pack, state, event)
        case _:
            assert_never(event)
