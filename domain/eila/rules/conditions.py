"""Conditions: what an option requires, what an ``if`` clause checks (Additional Rule 07) and
when an enemy's weakness applies. Every part of a condition must hold."""

from __future__ import annotations

from domain.eila.content import RESOURCE_LABELS, Condition, ContentPack, Option
from domain.eila.rules.mine import current_grid
from domain.eila.rules.storage import have
from domain.eila.state import EilaState


def in_shelter(pack: ContentPack, state: EilaState) -> bool:
    """On a mine grid with the shelter icon, or at a location card with it."""
    grid = current_grid(pack, state)
    if grid is not None and grid.shelter:
        return True
    return bool(state.trail) and pack.card(state.trail[-1], state.mode).shelter


def unmet(pack: ContentPack, state: EilaState, condition: Condition) -> str | None:
    """What of ``condition`` does not hold, in words to follow "it needs", or None."""
    lacking = "{}, which you do not have"
    for item in condition.items:
        if item not in state.items:
            return lacking.format(pack.items[item].name)
    for support in condition.supports:
        if support not in state.supports:
            return lacking.format(f"the support card {pack.supports[support].name}")
    for ending in condition.endings:
        if ending not in state.endings:
            return f"ending {ending[-1]} of chapter {ending[:-1]}, which you have not reached"
    for resource in condition.without:
        if have(state.resources, resource) > 0:
            return f"no {RESOURCE_LABELS[resource]} in storage"
    if condition.shelter and not in_shelter(pack, state):
        return "a shelter, and you are not in one"
    return None


def holds(pack: ContentPack, state: EilaState, condition: Condition) -> bool:
    return unmet(pack, state, condition) is None


def option_blocker(pack: ContentPack, state: EilaState, option: Option) -> str | None:
    """Why ``option`` cannot be chosen now, as a sentence, or None when it can.

    A support card's spell is not paid for by an option that only requires the card (Appendix).
    """
    lacking = unmet(pack, state, option.requires)
    if lacking is not None:
        return f"Option {option.letter} needs {lacking}."
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
