"""Applying one event to the state: plain replaces, no checks, no draws.

The events of chapter elements and combat are applied in :mod:`domain.eila.rules.evolve_more`.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.eila.content import ContentPack
from domain.eila.events import (
    AbandonAsked,
    AbandonWithdrawn,
    CampaignAbandoned,
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
    FrameDone,
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
from domain.eila.rules import evolve_more
from domain.eila.rules.frames import advance, pop, push, touch, use_shields
from domain.eila.rules.storage import changed
from domain.eila.state import NO_RESOURCES, EilaState, Frame, Resources


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
        known_at_bottom=0,
        present="",
        option="",
        frames=(),
        combat=None,
        future=(),
        past=(),
        blue_deck=chapter.blue,
        red_deck=chapter.red,
        habit_deck=tuple(h for h in pack.habits if h not in state.saved_habits),
        location_deck=chapter.locations,
        items=state.saved_items,
        supports=state.saved_supports,
        dice=state.saved_dice,
        arranged=(),
        lost_reason="",
        result="",
        quiz_decks=tuple(chapter.quizzes.items()),
        quiz_open=(),
        quiz_done=(),
        mine=None,
        markets=(),
        trail=chapter.trail[:1],
        trail_deck=tuple(sorted(chapter.trail[1:])),
    )


def _placed(pack: ContentPack, state: EilaState, card: str, destination: str) -> EilaState:
    state = replace(pop(state), present="", option="", phase="day")
    if destination == "future":
        return replace(state, future=(*state.future, card))
    if destination == "past":
        return replace(state, past=(*state.past, card))
    match pack.cards[card].colour:
        case "blue":
            return replace(state, blue_deck=tuple(sorted((*state.blue_deck, card))))
        case "red":
            return replace(state, red_deck=tuple(sorted((*state.red_deck, card))))
        case "location":
            return replace(state, location_deck=tuple(sorted((*state.location_deck, card))))
        case "market":
            return evolve_more.back_to_market(pack, state, card)
    return replace(
        state, habit_deck=tuple(h for h in pack.habits if h in state.habit_deck or h == card)
    )


def _fetched(pack: ContentPack, state: EilaState, card: str) -> EilaState:
    colour = pack.cards[card].colour
    state = advance(state)
    if colour == "blue":
        return replace(
            state, blue_deck=_without(state.blue_deck, card), future=(*state.future, card)
        )
    top = (card, *state.upcoming)
    state = replace(state, upcoming=top, known_on_top=state.known_on_top + 1)
    if colour == "red":
        return replace(state, red_deck=_without(state.red_deck, card))
    if colour == "location":
        return replace(state, location_deck=_without(state.location_deck, card))
    return replace(state, habit_deck=_without(state.habit_deck, card))


def _ended(state: EilaState, result: str) -> EilaState:
    """The attempt is over: the effect stack and any combat are gone."""
    return replace(
        state,
        result=result,
        record=(*state.record, (state.chapter, result)),
        frames=(),
        combat=None,
        abandoning=False,
    )


def evolve(pack: ContentPack, state: EilaState, event: EilaEvent) -> EilaState:
    match event:
        case ResourceTaken(resource=resource, amount=amount):
            return advance(replace(state, resources=changed(state.resources, resource, amount)))
        case ResourcePaid(resource=resource, amount=amount):
            return advance(replace(state, resources=changed(state.resources, resource, -amount)))
        case CardRevealed(card=card):
            upcoming = state.upcoming[1:]
            return replace(
                state,
                present=card,
                upcoming=upcoming,
                known_on_top=max(0, state.known_on_top - 1),
                known_at_bottom=min(state.known_at_bottom, len(upcoming)),
                phase="day",
            )
        case OptionChosen(letter=letter):
            options = pack.card(state.present, state.mode).options
            option = next(o for o in options if o.letter == letter)
            frame = Frame(option.effects, place=option.destination)
            return replace(state, option=letter, frames=(*state.frames, frame))
        case CardPlaced(card=card, destination=destination):
            return _placed(pack, state, card, destination)
        case FearTaken(amount=amount, hearts=hearts, prevented=prevented):
            state = replace(
                state, resources=changed(state.resources, "fear", amount), hp=state.hp - hearts
            )
            return advance(use_shields(state, prevented))
        case RoomMade(resource=resource):
            return touch(replace(state, resources=changed(state.resources, resource, -1)))
        case Discarded(resource=resource):
            return replace(state, resources=changed(state.resources, resource, -1))
        case CardFetched(card=card):
            return _fetched(pack, state, card)
        case ItemAcquired(item=item):
            return advance(replace(state, items=tuple(sorted((*state.items, item)))))
        case ItemsDiscarded(items=items):
            return advance(replace(state, items=tuple(i for i in state.items if i not in items)))
        case HeartGained(amount=amount):
            return advance(replace(state, hp=state.hp + amount))
        case HeartBroken(amount=amount, prevented=prevented):
            return advance(use_shields(replace(state, hp=state.hp - amount), prevented))
        case EffectSkipped():
            return advance(state)
        case FrameDone():
            return pop(state)
        case NightBegan():
            state = replace(state, phase="night", night_submitted=0)
            night = pack.chapters[state.chapter].night
            return push(state, night) if night else state
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
                known_at_bottom=0,
                day=state.day + 1,
                phase="day",
                rng=state.rng.advanced_to(draws),
            )
        case Converted(conversion=cid):
            conv = pack.conversions[cid]
            resources = changed(state.resources, conv.give, -conv.give_amount)
            return replace(state, resources=changed(resources, conv.get, conv.get_amount))
        case ChapterWon(chapter=chapter, ending=ending):
            progress = state.progress if chapter in state.progress else (*state.progress, chapter)
            return replace(
                _ended(state, "won"),
                phase="won",
                progress=progress,
                endings=(*state.endings, f"{chapter}{ending}"),
                saved_items=state.items,
                saved_habits=tuple(h for h in pack.habits if h not in state.habit_deck),
                saved_supports=state.supports,
                saved_dice=state.dice,
            )
        case ChapterLost(reason=reason):
            return replace(_ended(state, "lost"), phase="lost", lost_reason=reason)
        case ChapterOpened(chapter=chapter, attempt=attempt):
            return replace(
                state, phase="arranging", chapter=chapter, attempt=attempt, arranged=(), result=""
            )
        case HabitArranged(habit=habit):
            return replace(state, arranged=(*state.arranged, habit))
        case ChapterSetUp():
            return set_up(pack, state, event)
        case AbandonAsked():
            return replace(state, abandoning=True)
        case AbandonWithdrawn():
            return replace(state, abandoning=False)
        case CampaignAbandoned():
            if not state.result and state.phase != "setup":
                state = _ended(state, "lost")
            return replace(state, phase="abandoned", abandoning=False)
        case _:
            return evolve_more.evolve(pack, state, event)
