"""Whose move it is and what is asked, in the rulebook's words (see :mod:`domain.core.turn`).

Built from what lies on the table: the phase, the Present card, the effect waiting for a choice
and the Chapter Element Area; never from the order of a face-down deck.
"""

from __future__ import annotations

from domain.core.turn import ENDED, Turn
from domain.eila.content import RESOURCE_LABELS, ContentPack, Effect
from domain.eila.rules.decide import SEAT
from domain.eila.rules.frames import pending
from domain.eila.rules.labels import item_name, market_label
from domain.eila.rules.legal import candidates
from domain.eila.state import EilaState

SEAT_NAMES = {SEAT: "Eila"}


def _effect(pack: ContentPack, state: EilaState, effect: Effect) -> tuple[str, str]:
    label = RESOURCE_LABELS.get(effect.resource, "")
    match effect.kind:
        case "gain" if effect.resource == "fear":
            return (
                "Make room for Fear: discard other resources from your storage",
                "to make room for Fear",
            )
        case "gain":
            return (
                f"Choose how many of +{effect.amount} {label} to acquire (it can be zero)",
                f"to choose how much {label} to acquire",
            )
        case "item":
            names = " or ".join(item_name(pack, i) for i in effect.items)
            return f"Acquire an item: {names}", "to choose an item"
        case "discard_item":
            names = ", ".join(item_name(pack, i) for i in effect.items)
            count = "two" if effect.count == 2 else "one"
            return f"Discard {count} of these items: {names}", "to choose which items to discard"
        case "fight":
            enemy = pack.enemies[effect.name].name
            if state.combat is None:
                # Inside an action's events: the enemy is faced and the combat begins on its own.
                return f"Fight {enemy}: the combat begins", f"to fight {enemy}"
            if not state.combat.rolled:
                return f"Fight {enemy}: roll the combat dice", f"to fight {enemy}"
            return (
                f"Fight {enemy}: spend Energy for more combat value, or fight now",
                f"to fight {enemy}",
            )
        case "move":
            grids = "1 grid" if effect.amount == 1 else f"{effect.amount} grids"
            return (
                f"Move up to {grids} in the mine, or stop",
                "to move through the mine",
            )
        case "market":
            name = market_label(pack, effect.name)
            return f"Buy {name}, or stop buying", f"to buy {name}"
        case "location_action":
            return (
                "Choose a location action of this location, or none",
                "to choose a location action",
            )
        case "pay_or_hp" if state.phase == "night":
            return (
                f"Pay the night's cost: {effect.amount} {label} or 1 HP",
                "to pay the night's cost",
            )
        case "pay_or_hp":
            return f"Pay {effect.amount} {label} or lose 1 HP", f"to pay {label} or lose HP"
    return "Resolve the effect of the option", "to resolve the option"


def _words(pack: ContentPack, state: EilaState) -> tuple[str, str]:
    if state.abandoning:
        return (
            "Confirm: abandon the campaign for good, or keep playing",
            "to confirm whether to abandon the campaign",
        )
    effect = pending(state)
    if effect is not None:
        return _effect(pack, state, effect)
    match state.phase:
        case "day" if state.present:
            return "Choose an option of the present card", "to choose an option of the present card"
        case "dawn":
            return (
                "Decide whether to face the top card of the upcoming deck first today or last",
                "to decide when to face the top card of the upcoming deck",
            )
        case "night":
            return (
                "Night phase: place resources onto the goal card, then end the submissions",
                "to place resources onto the goal card",
            )
        case "arranging":
            return (
                "Put your Habit cards on the bottom of the green deck, in the order you choose",
                "to put their Habit cards in order",
            )
        case "lost":
            return f"Chapter {state.chapter} is lost: try it again", "to try the chapter again"
        case "won":
            return "Proceed to the next chapter", "to begin the next chapter"
    return "Choose what to do next", "to choose what to do next"


def turn(pack: ContentPack, state: EilaState, outcome: str) -> Turn:
    if outcome != "running" or not candidates(pack, state):
        return ENDED
    asked, waiting = _words(pack, state)
    return Turn((SEAT,), asked, waiting)
