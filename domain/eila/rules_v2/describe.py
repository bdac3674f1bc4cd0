"""One timeline line per event."""

from __future__ import annotations

from domain.eila.rules_v2.content import RESOURCE_LABELS, ContentPack
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
from domain.eila.rules_v2.state import EilaState

_PLACES = {"future": "the Future", "past": "the Past", "return": "its deck"}


def _line(pack: ContentPack, event: EilaEvent, state: EilaState) -> str | None:
    match event:
        case ChapterSetUp(chapter=chapter, attempt=attempt):
            title = pack.chapters[chapter].title
            again = "" if attempt == 1 else f" (attempt {attempt})"
            return f"Chapter {chapter}, {title}, begins{again}"
        case ChapterOpened(chapter=chapter):
            return f"Eila gets ready for chapter {chapter}"
        case HabitArranged(habit=habit):
            return f"Eila puts habit card {habit} under the green deck"
        case CardRevealed(card=card):
            return f"Eila reveals {card}, {pack.cards[card].name}"
        case OptionChosen(letter=letter):
            options = pack.cards[state.present].options
            option = next(o for o in options if o.letter == letter)
            return f"Eila chooses {letter}: {option.label}"
        case ResourceTaken(resource=resource, amount=amount):
            return f"Eila takes {amount} {RESOURCE_LABELS[resource]}"
        case ResourcePaid(resource=resource, amount=amount):
            return f"Eila gives up {amount} {RESOURCE_LABELS[resource]}"
        case FearTaken(amount=amount, hearts=hearts):
            extra = f" and loses {hearts} HP to Fear past the limit" if hearts else ""
            return f"Eila acquires {amount} Fear{extra}"
        case RoomMade(resource=resource):
            return f"Eila discards 1 {RESOURCE_LABELS[resource]} to make room for Fear"
        case CardFetched(card=card):
            return f"Card {card} joins the story"
        case ItemAcquired(item=item):
            return f"Eila acquires {pack.items[item].name}"
        case ItemsDiscarded(items=items):
            return "Eila gives up " + " and ".join(pack.items[i].name for i in items)
        case HeartGained(amount=amount):
            return f"Eila regains {amount} HP"
        case HeartBroken(amount=amount):
            return f"Eila loses {amount} HP"
        case EffectSkipped():
            return None
        case CardPlaced(card=card, destination=destination):
            return f"{card} goes to {_PLACES[destination]}"
        case NightBegan():
            return "Night falls"
        case Submitted(resource=resource):
            return f"Eila places 1 {RESOURCE_LABELS[resource]} on the goal card"
        case TimeMarked(token=token):
            if token == "energy":
                return "Eila spends 1 Energy on the time track"
            return "With no Energy left, Eila puts a heart on the time track"
        case FutureShuffled(count=count):
            return f"The Future's {count} cards are shuffled into the upcoming deck"
        case ChapterWon(chapter=chapter):
            return f"Eila wins chapter {chapter}!"
        case ChapterLost(chapter=chapter, reason=reason):
            why = "out of HP" if reason == "hp" else "out of time"
            return f"Eila loses chapter {chapter}: {why}"
        case Converted(conversion=cid):
            conv = pack.conversions[cid]
            give, get = RESOURCE_LABELS[conv.give], RESOURCE_LABELS[conv.get]
            return f"Eila converts {conv.give_amount} {give} into {conv.get_amount} {get}"
        case Discarded(resource=resource):
            return f"Eila discards 1 {RESOURCE_LABELS[resource]}"
    return None


def describe(pack: ContentPack, event: EilaEvent, state: EilaState) -> str | None:
    """``state`` is the state right after ``event``."""
    line = _line(pack, event, state)
    if line is None or isinstance(event, ChapterSetUp | ChapterOpened):
        return line
    return f"Chapter {state.chapter}, day {state.day}: {line}"
