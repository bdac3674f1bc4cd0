"""Labels a person can act on: each legal action, and each option spelt out symbol by symbol."""

from __future__ import annotations

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
from domain.eila.content import RESOURCE_LABELS, Condition, ContentPack, Effect, Option
from domain.eila.rules.combat import combat_value, enemy_value
from domain.eila.rules.frames import pending
from domain.eila.state import EilaState

_DESTINATIONS = {
    "future": "card to the Future",
    "past": "card to the Past",
    "return": "card back to its deck",
}


def item_name(pack: ContentPack, item: str) -> str:
    return pack.items[item].name


def market_label(pack: ContentPack, market: str) -> str:
    """A market's name as the Chapter Element Area shows it (``Contracts``)."""
    for number in sorted(pack.chapters):
        for found in pack.chapters[number].markets:
            if found.name == market:
                return found.label
    return market


def card_name(pack: ContentPack, card: str) -> str:
    """An item's or support card's name."""
    return pack.items[card].name if card in pack.items else pack.supports[card].name


def condition_text(pack: ContentPack, condition: Condition) -> str:
    parts = [item_name(pack, i) for i in condition.items]
    parts += [pack.supports[s].name for s in condition.supports]
    parts += [f"no {RESOURCE_LABELS[r]}" for r in condition.without]
    parts += [f"ending {e[-1]} of chapter {e[:-1]}" for e in condition.endings]
    if condition.shelter:
        parts.append("a shelter")
    return " and ".join(parts)


def effect_text(pack: ContentPack, effect: Effect) -> str:
    label = RESOURCE_LABELS.get(effect.resource, "")
    names = [item_name(pack, i) for i in effect.items]
    match effect.kind:
        case "gain":
            return f"+{effect.amount} {label}"
        case "lose":
            return f"-{effect.amount} {label}"
        case "blue":
            return f"blue card {effect.card} to the Future"
        case "red":
            return f"red card {effect.card} on top of the upcoming deck"
        case "habit":
            return f"habit card {effect.card} on top of the upcoming deck"
        case "item":
            return "acquire " + " or ".join(names)
        case "discard_item" if effect.count == 2:
            return "discard two of " + ", ".join(names)
        case "discard_item":
            return "discard " + " or ".join(names)
        case "heart":
            return f"+{effect.amount} HP"
        case "broken_heart":
            return f"-{effect.amount} HP"
        case "support":
            return f"acquire support card {effect.card} ({pack.supports[effect.card].name})"
        case "die":
            return f"acquire the {effect.name} die"
        case "fight":
            enemy = pack.enemies[effect.name]
            again = ", fighting on despite injuries" if effect.repeat else ""
            return f"fight {enemy.name} (combat value {enemy.value}{again})"
        case "if":
            then = ", ".join(effect_text(pack, e) for e in effect.then)
            return f"if you have {condition_text(pack, effect.when)}: {then}"
        case "quiz":
            return f"draw an {effect.name} quiz card"
        case "move":
            return f"move 0-{effect.amount} grids"
        case "trigger":
            return "trigger the event located there"
        case "cover":
            return "cover this location"
        case "ending":
            return f"win the chapter with ending {effect.name}"
        case "market":
            return f"buy {market_label(pack, effect.name)}"
        case "location_action":
            return "take a location action"
        case "onward":
            return f"go on to location {effect.card}"
        case "pay_or_hp":
            return f"-{effect.amount} {label} or -1 HP"
        case "place":
            return _DESTINATIONS[effect.name]
    return effect.kind


def option_label(pack: ContentPack, option: Option) -> str:
    parts = [effect_text(pack, e) for e in option.effects]
    parts.append(_DESTINATIONS[option.destination])
    return f"{option.letter}: {option.label} ({', '.join(parts)})"


def _take_label(state: EilaState, amount: int) -> str:
    """``Take 2 Food (of +3)``; taking none reads ``Take no Food (of +3)``."""
    effect = pending(state)
    assert effect is not None
    resource = RESOURCE_LABELS[effect.resource]
    taken = "no" if amount == 0 else str(amount)
    return f"Take {taken} {resource} (of +{effect.amount})"


def _pending_text(pack: ContentPack, state: EilaState) -> str:
    effect = pending(state)
    assert effect is not None
    return effect_text(pack, effect)


def label(pack: ContentPack, state: EilaState, action: EilaAction) -> str:
    match action:
        case ChooseOption(letter=letter):
            card = pack.card(state.present, state.mode)
            return option_label(pack, next(o for o in card.options if o.letter == letter))
        case Take(amount=amount):
            return _take_label(state, amount)
        case MakeRoom(resource=resource):
            return f"Discard 1 {RESOURCE_LABELS[resource]} to make room for Fear"
        case PickItem(item=item):
            return f"Acquire {item_name(pack, item)}"
        case DropItems(items=items):
            return "Discard " + " and ".join(item_name(pack, i) for i in items)
        case Submit(resource=resource):
            return f"Submit 1 {RESOURCE_LABELS[resource]} to the goal card"
        case EndSubmissions():
            return "End the night's submissions"
        case Convert(conversion=cid):
            conv = pack.conversions[cid]
            give, get = RESOURCE_LABELS[conv.give], RESOURCE_LABELS[conv.get]
            return f"Convert {conv.give_amount} {give} into {conv.get_amount} {get}"
        case Discard(resource=resource):
            return f"Discard 1 {RESOURCE_LABELS[resource]}"
        case ArrangeHabit(habit=habit):
            name = pack.cards[habit].name
            return f"Put {habit} ({name}) next at the bottom of the green deck"
        case Retry(chapter=chapter):
            return f"Try chapter {chapter} again"
        case BeginChapter(chapter=chapter):
            return f"Begin chapter {chapter}"
        case Roll():
            return "Roll the combat dice"
        case SpendEnergy():
            return f"Spend 1 Energy for +{pack.ruleset.energy_boost} combat value"
        case Fight():
            assert state.combat is not None
            mine = combat_value(pack, state, state.combat)
            theirs = enemy_value(pack, state, state.combat.enemy)
            result = "win" if mine >= theirs else "lose"
            return f"Fight with combat value {mine} against {theirs} ({result})"
        case Use(card=card):
            verb = "Cast" if card in pack.supports else "Use"
            return f"{verb} {card_name(pack, card)}"
        case Answer(quiz=quiz, choice=choice):
            text = dict(pack.quizzes[quiz].choices)[choice]
            return f"Answer {quiz} with {choice}: {text}"
        case Step(direction=direction, pay=pay):
            cost = {"energy": ", paying 1 Energy at the cliff", "hp": ", paying 1 HP at the cliff"}
            return f"Move {direction}{cost.get(pay, '')}"
        case StopMoving():
            return "Stop moving here"
        case Buy(card=card):
            return f"Buy {card} ({pack.cards[card].name})"
        case StopBuying():
            return "Stop buying"
        case LocationAction(letter=""):
            return "Take no location action"
        case LocationAction(letter=letter):
            card = pack.card(state.trail[-1], state.mode)
            return "Location action " + option_label(
                pack, next(o for o in card.options if o.letter == letter)
            )
        case PayOrHurt(pay=True):
            effect = pending(state)
            assert effect is not None
            return f"Pay {effect.amount} {RESOURCE_LABELS[effect.resource]}"
        case PayOrHurt(pay=False):
            return "Lose 1 HP instead"
        case Dawn(last=False):
            first = state.upcoming[0]
            return f"Face {first} ({pack.card(first, state.mode).name}) first today"
        case Dawn(last=True):
            first = state.upcoming[0]
            name = pack.card(first, state.mode).name
            return f"Put {first} ({name}) last, to face it at the end of the day"
        case Abandon():
            return "Abandon the campaign"
        case ConfirmAbandon(yes=True):
            return "Yes, abandon the campaign for good"
        case ConfirmAbandon(yes=False):
            return "No, keep playing"
    raise AssertionError(f"No label for {action!r}.")
