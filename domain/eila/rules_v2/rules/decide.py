"""Turning the player's action into events, after checking it against the legal choices."""

from __future__ import annotations

from typing import assert_never

from domain.core.errors import IllegalAction, PrerequisiteUnmet
from domain.eila.rules_v2.actions import (
    ArrangeHabit,
    BeginChapter,
    ChooseOption,
    Convert,
    Discard,
    DropItems,
    EilaAction,
    EndSubmissions,
    MakeRoom,
    PickItem,
    Retry,
    Submit,
    Take,
)
from domain.eila.rules_v2.content import ContentPack
from domain.eila.rules_v2.events import (
    ChapterSetUp,
    Converted,
    Discarded,
    EilaEvent,
    HabitArranged,
    ItemAcquired,
    ItemsDiscarded,
    OptionChosen,
    ResourceTaken,
    RoomMade,
    Submitted,
)
from domain.eila.rules_v2.rules.flow import (
    Emitter,
    begin_chapter,
    check_win,
    current_effect,
    end_night,
    run,
)
from domain.eila.rules_v2.rules.legal import candidates, option_blocker
from domain.eila.rules_v2.state import EilaState

SEAT = "player"

_PHASES = {
    "setup": "the campaign is being set up",
    "arranging": "the saved habit cards are being ordered",
    "day": "a card in the Present waits for an option",
    "resolving": "an option is being resolved",
    "night": "it is night",
    "won": "the chapter has been won",
    "lost": "the chapter has been lost",
}


def _refuse(pack: ContentPack, state: EilaState, action: EilaAction) -> None:
    if isinstance(action, ChooseOption) and state.phase == "day":
        card = pack.cards[state.present]
        option = next((o for o in card.options if o.letter == action.letter), None)
        if option is not None:
            blocker = option_blocker(pack, state, option)
            if blocker is not None:
                raise PrerequisiteUnmet(blocker)
    doing = _PHASES.get(state.phase, state.phase)
    raise IllegalAction(f"That action is not open now: {doing}.")


def decide(pack: ContentPack, state: EilaState, seat: str, action: EilaAction) -> list[EilaEvent]:
    if seat != SEAT:
        raise IllegalAction(f"Eila is played from the seat {SEAT!r}, not {seat!r}.")
    if action not in candidates(pack, state):
        _refuse(pack, state, action)
    return play(pack, state, action).events


def play(pack: ContentPack, state: EilaState, action: EilaAction) -> Emitter:
    """The events of a legal ``action``, each with the state it leaves (no legality check)."""
    out = Emitter(pack, state)
    match action:
        case ChooseOption(letter=letter):
            out.emit(OptionChosen(letter))
            run(out)
        case Take(amount=amount):
            effect = current_effect(pack, state)
            assert effect is not None
            out.emit(ResourceTaken(effect.resource, amount))
            run(out)
        case PickItem(item=item):
            out.emit(ItemAcquired(item))
            run(out)
        case DropItems(items=items):
            out.emit(ItemsDiscarded(items))
            run(out)
        case MakeRoom(resource=resource):
            out.emit(RoomMade(resource))
            run(out)
        case Submit(resource=resource):
            out.emit(Submitted(resource))
            check_win(out)
        case EndSubmissions():
            end_night(out)
        case Convert(conversion=conversion):
            out.emit(Converted(conversion))
        case Discard(resource=resource):
            out.emit(Discarded(resource))
        case ArrangeHabit(habit=habit):
            out.emit(HabitArranged(habit))
            rest = [h for h in out.state.saved_habits if h not in out.state.arranged]
            if len(rest) == 1:
                out.emit(HabitArranged(rest[0]))
            if len(rest) <= 1:
                s = out.state
                out.emit(ChapterSetUp(s.chapter, s.attempt, s.arranged))
                run(out)
        case Retry(chapter=chapter):
            begin_chapter(out, chapter, state.attempt + 1)
        case BeginChapter(chapter=chapter):
            begin_chapter(out, chapter, 1)
        case _:
            assert_never(action)
    return out
