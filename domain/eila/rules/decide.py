"""Turning the player's action into events, after checking it against the legal choices."""

from __future__ import annotations

from typing import assert_never

from domain.core.errors import IllegalAction, PrerequisiteUnmet
from domain.core.rng import Chance
from domain.eila.actions import (
    Abandon,
    Answer,
    ArrangeHabit,
    BeginChapter,
    Buy,
    ChooseOption,
    ConfirmAbandon,
    Convert,
    Dawn,
    Discard,
    DropItems,
    EilaAction,
    EndSubmissions,
    Fight,
    LocationAction,
    MakeRoom,
    PayOrHurt,
    PickItem,
    Retry,
    Roll,
    SpendEnergy,
    Step,
    StopBuying,
    StopMoving,
    Submit,
    Take,
    Use,
)
from domain.eila.content import ContentPack
from domain.eila.events import (
    AbandonAsked,
    AbandonWithdrawn,
    AbilityUsed,
    BuyingEnded,
    CampaignAbandoned,
    CardBought,
    ChapterSetUp,
    CombatResolved,
    CombatRolled,
    Converted,
    DawnChosen,
    Discarded,
    EilaEvent,
    EnergySpent,
    HabitArranged,
    HeartBroken,
    ItemAcquired,
    ItemsDiscarded,
    LocationActionChosen,
    MoveEnded,
    OptionChosen,
    QuizAnswered,
    ResourcePaid,
    ResourceTaken,
    RoomMade,
    Submitted,
)
from domain.eila.rules.combat import combat_value, enemy_value, shields
from domain.eila.rules.conditions import option_blocker
from domain.eila.rules.effects import hp_loss, waits_for_room
from domain.eila.rules.flow import Emitter, begin_chapter, check_win, end_night, run, set_up
from domain.eila.rules.frames import pending
from domain.eila.rules.legal import candidates
from domain.eila.rules.mine import step_events
from domain.eila.state import EilaState

SEAT = "player"

_PHASES = {
    "setup": "the campaign is being set up",
    "arranging": "the saved habit cards are being ordered",
    "day": "a card in the Present waits for an option",
    "dawn": "the pocket watch shows the day's first card",
    "resolving": "an option is being resolved",
    "night": "it is night",
    "won": "the chapter has been won",
    "lost": "the chapter has been lost",
    "abandoned": "the campaign has been abandoned",
}


def _refuse(pack: ContentPack, state: EilaState, action: EilaAction) -> None:
    if isinstance(action, ChooseOption) and state.phase == "day" and not state.frames:
        card = pack.card(state.present, state.mode)
        option = next((o for o in card.options if o.letter == action.letter), None)
        if option is not None:
            blocker = option_blocker(pack, state, option)
            if blocker is not None:
                raise PrerequisiteUnmet(blocker)
    doing = _PHASES["resolving" if state.frames else state.phase]
    raise IllegalAction(f"That action is not open now: {doing}.")


def decide(pack: ContentPack, state: EilaState, seat: str, action: EilaAction) -> list[EilaEvent]:
    if seat != SEAT:
        raise IllegalAction(f"Eila is played from the seat {SEAT!r}, not {seat!r}.")
    if action not in candidates(pack, state):
        _refuse(pack, state, action)
    return play(pack, state, action).events


def _roll(pack: ContentPack, state: EilaState) -> CombatRolled:
    chance = Chance(state.rng)
    red = chance.below(len(pack.ruleset.dice["red"].faces))
    green = None
    if "green" in state.dice:
        green = chance.below(len(pack.ruleset.dice["green"].faces))
    return CombatRolled(red, green, chance.rng.draws)


def _resolved(pack: ContentPack, state: EilaState) -> CombatResolved:
    combat = state.combat
    assert combat is not None
    value = combat_value(pack, state, combat)
    against = enemy_value(pack, state, combat.enemy)
    return CombatResolved(value >= against, value, against, shields(pack, state, combat))


def _resume_gain(out: Emitter) -> None:
    """A gain paused for room goes on once a conversion or discard at that pause made it: the
    room still missing, if any, is asked for again (other pauses stay as they were). Rules 4:
    under the earlier rules the gain stayed paused until the player made room by name."""
    if out.pack.rules >= 4 and waits_for_room(pending(out.state)):
        run(out)


def play(pack: ContentPack, state: EilaState, action: EilaAction) -> Emitter:
    """The events of a legal ``action``, each with the state it leaves (no legality check)."""
    out = Emitter(pack, state)
    match action:
        case ChooseOption(letter=letter):
            out.emit(OptionChosen(letter))
        case Take(amount=amount):
            effect = pending(state)
            assert effect is not None
            out.emit(ResourceTaken(effect.resource, amount))
        case PickItem(item=item):
            out.emit(ItemAcquired(item))
        case DropItems(items=items):
            out.emit(ItemsDiscarded(items))
        case MakeRoom(resource=resource):
            out.emit(RoomMade(resource))
        case Submit(resource=resource):
            out.emit(Submitted(resource))
            check_win(out)
            return out
        case EndSubmissions():
            end_night(out)
            return out
        case Convert(conversion=conversion):
            out.emit(Converted(conversion))
            _resume_gain(out)
            return out
        case Discard(resource=resource):
            out.emit(Discarded(resource))
            _resume_gain(out)
            return out
        case ArrangeHabit(habit=habit):
            out.emit(HabitArranged(habit))
            rest = [h for h in out.state.saved_habits if h not in out.state.arranged]
            if len(rest) == 1:
                out.emit(HabitArranged(rest[0]))
            if len(rest) <= 1:
                s = out.state
                set_up(out, ChapterSetUp(s.chapter, s.attempt, s.arranged))
            return out
        case Retry(chapter=chapter):
            begin_chapter(out, chapter, state.attempt + 1)
            return out
        case BeginChapter(chapter=chapter):
            begin_chapter(out, chapter, 1)
            return out
        case Roll():
            out.emit(_roll(pack, state))
        case SpendEnergy():
            out.emit(EnergySpent())
        case Fight():
            out.emit(_resolved(pack, state))
        case Use(card=card):
            out.emit(AbilityUsed(card))
        case Answer(quiz=quiz, choice=choice):
            out.emit(QuizAnswered(quiz, choice, pack.quizzes[quiz].answer == choice))
        case Step(direction=direction, pay=pay):
            for event in step_events(pack, state, direction, pay):
                out.emit(event)
        case StopMoving():
            out.emit(MoveEnded())
        case Buy(card=card):
            out.emit(CardBought(card))
        case StopBuying():
            out.emit(BuyingEnded())
        case LocationAction(letter=letter):
            out.emit(LocationActionChosen(letter))
        case PayOrHurt(pay=pay):
            effect = pending(state)
            assert effect is not None
            if pay:
                out.emit(ResourcePaid(effect.resource, effect.amount))
            else:
                out.emit(HeartBroken(*hp_loss(state, 1)))
        case Dawn(last=last):
            out.emit(DawnChosen(last))
        case Abandon():
            out.emit(AbandonAsked())
            return out
        case ConfirmAbandon(yes=yes):
            out.emit(CampaignAbandoned(state.chapter) if yes else AbandonWithdrawn())
            return out
        case _:
            assert_never(action)
    run(out)
    return out
