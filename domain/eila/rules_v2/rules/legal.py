"""The player's choices in a state, each with a label a person can act on.

``decide`` checks membership in this list, so the two cannot drift apart. The order is stable:
the pending choice first, then conversions, then discards.
"""

from __future__ import annotations

from itertools import combinations

from domain.core.game import LegalAction, action_id
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
from domain.eila.rules_v2.content import RESOURCE_LABELS, RESOURCES, ContentPack, Effect, Option
from domain.eila.rules_v2.rules.flow import current_effect
from domain.eila.rules_v2.rules.storage import changed, free_space, goal_side, have, still_needed
from domain.eila.rules_v2.state import EilaState

_DESTINATIONS = {
    "future": "card to the Future",
    "past": "card to the Past",
    "return": "card back to its deck",
}


def item_name(pack: ContentPack, item: str) -> str:
    return pack.items[item].name


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
        case _:
            return f"-{effect.amount} HP"


def option_label(pack: ContentPack, option: Option) -> str:
    parts = [effect_text(pack, e) for e in option.effects]
    parts.append(_DESTINATIONS[option.destination])
    return f"{option.letter}: {option.label} ({', '.join(parts)})"


def option_blocker(pack: ContentPack, state: EilaState, option: Option) -> str | None:
    """Why ``option`` cannot be chosen now, as a sentence, or None when it can."""
    for item in option.requires_items:
        if item not in state.items:
            return f"Option {option.letter} needs {item_name(pack, item)}, which you do not hold."
    cost: dict[str, int] = {}
    for effect in option.effects:
        # Fear is the exception: an option with -2 Fear is open with less.
        if effect.kind == "lose" and effect.resource != "fear":
            cost[effect.resource] = cost.get(effect.resource, 0) + effect.amount
    for resource, amount in sorted(cost.items()):
        if have(state.resources, resource) < amount:
            label = RESOURCE_LABELS[resource]
            return f"Option {option.letter} needs {amount} {label} in storage."
    return None


def _pending(pack: ContentPack, state: EilaState, effect: Effect) -> list[EilaAction]:
    if effect.kind == "gain" and effect.resource == "fear":
        return [MakeRoom(r) for r in ("knowledge", "energy") if have(state.resources, r) > 0]
    if effect.kind == "gain":
        most = min(effect.amount, free_space(pack, state.resources, effect.resource))
        return [Take(n) for n in range(most, -1, -1)]
    if effect.kind == "item":
        return [PickItem(i) for i in effect.items if i not in state.items]
    held = [i for i in effect.items if i in state.items]
    return [DropItems(tuple(combo)) for combo in combinations(held, effect.count)]


def _choices(pack: ContentPack, state: EilaState) -> list[EilaAction]:
    match state.phase:
        case "day":
            if not state.present:
                return []  # between placing a card and revealing the next, inside one command
            card = pack.cards[state.present]
            return [
                ChooseOption(o.letter)
                for o in card.options
                if option_blocker(pack, state, o) is None
            ]
        case "resolving":
            effect = current_effect(pack, state)
            return [] if effect is None else _pending(pack, state, effect)
        case "night":
            actions: list[EilaAction] = []
            if state.night_submitted < pack.ruleset.submission_limit(state.chapter):
                actions = [
                    Submit(r)
                    for r, _ in goal_side(pack, state).submit
                    if have(state.resources, r) > 0 and still_needed(pack, state, r) > 0
                ]
            return [*actions, EndSubmissions()]
        case "arranging":
            return [ArrangeHabit(h) for h in state.saved_habits if h not in state.arranged]
        case "lost":
            return [Retry(state.chapter)]
        case "won":
            following = state.chapter + 1
            return [BeginChapter(following)] if following in pack.chapters else []
    return []


def _free_actions(pack: ContentPack, state: EilaState) -> list[EilaAction]:
    if state.phase not in ("day", "night", "resolving"):
        return []
    actions: list[EilaAction] = []
    effect = current_effect(pack, state)
    # Conversions never happen inside the resolution of a single effect.
    if effect is None:
        for conv in pack.ruleset.conversions:
            if have(state.resources, conv.give) < conv.give_amount:
                continue
            after = changed(state.resources, conv.give, -conv.give_amount)
            if free_space(pack, after, conv.get) >= conv.get_amount:
                actions.append(Convert(conv.id))
    # While Fear forces room to be made, discarding is that choice itself.
    if effect is None or not (effect.kind == "gain" and effect.resource == "fear"):
        actions += [Discard(r) for r in RESOURCES if r != "fear" and have(state.resources, r) > 0]
    return actions


def _label(pack: ContentPack, state: EilaState, action: EilaAction) -> str:
    match action:
        case ChooseOption(letter=letter):
            card = pack.cards[state.present]
            return option_label(pack, next(o for o in card.options if o.letter == letter))
        case Take(amount=amount):
            effect = current_effect(pack, state)
            assert effect is not None
            label = RESOURCE_LABELS[effect.resource]
            return f"Take {amount} of +{effect.amount} {label}"
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
    raise AssertionError(f"No label for {action!r}.")


def candidates(pack: ContentPack, state: EilaState) -> list[EilaAction]:
    return [*_choices(pack, state), *_free_actions(pack, state)]


def legal(pack: ContentPack, state: EilaState) -> list[LegalAction]:
    return [LegalAction(action_id(a), _label(pack, state, a), a) for a in candidates(pack, state)]
