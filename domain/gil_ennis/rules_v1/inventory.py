"""Inventory slots and the moves between them: push-down, organizing, spending and changing dice.

A die is named by its slot and value (``"backpack", 4``): backpack slots are interchangeable, so
two backpack dice of the same value are the same choice.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.gil_ennis.rules_v1.state import BACKPACK_SLOTS, Character

LEVEL = {"hand": 0, "backpack": 1, "pocket": 2}


def dice(card: Character) -> tuple[tuple[str, int], ...]:
    """Every die as ``(slot, value)``, top to bottom, backpack high to low."""
    out: list[tuple[str, int]] = []
    if card.hand:
        out.append(("hand", card.hand))
    out.extend(("backpack", v) for v in card.backpack)
    if card.pocket:
        out.append(("pocket", card.pocket))
    return tuple(out)


def choices(card: Character) -> tuple[tuple[str, int], ...]:
    """:func:`dice` without repeated backpack values: the distinct dice a person can pick."""
    seen: list[tuple[str, int]] = []
    for die in dice(card):
        if die not in seen:
            seen.append(die)
    return tuple(seen)


def _sorted(backpack: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(sorted(backpack, reverse=True))


def remove(card: Character, slot: str, value: int) -> Character:
    if slot == "hand":
        return replace(card, hand=0)
    if slot == "pocket":
        return replace(card, pocket=0)
    items = list(card.backpack)
    items.remove(value)
    return replace(card, backpack=tuple(items))


def put(card: Character, slot: str, value: int) -> Character:
    """Place ``value`` in ``slot``, which the caller knows has room."""
    if slot == "hand":
        return replace(card, hand=value)
    if slot == "pocket":
        return replace(card, pocket=value)
    return replace(card, backpack=_sorted((*card.backpack, value)))


def change(card: Character, slot: str, old: int, new: int) -> Character:
    return put(remove(card, slot, old), slot, new)


def push_in(card: Character, value: int) -> tuple[Character, int]:
    """Add a die through the HAND slot, pushing down; returns the card and a die that fell out.

    The HAND die is pushed into the BACKPACK; when the BACKPACK is full it keeps falling to an
    empty POCKET, and when the POCKET is full too it drops back to the pool (the returned value,
    0 when nothing fell out).
    """
    pushed = card.hand
    card = replace(card, hand=value)
    if not pushed:
        return card, 0
    if len(card.backpack) < BACKPACK_SLOTS:
        return replace(card, backpack=_sorted((*card.backpack, pushed))), 0
    if not card.pocket:
        return replace(card, pocket=pushed), 0
    return card, pushed


def room(card: Character, slot: str) -> bool:
    if slot == "hand":
        return not card.hand
    if slot == "pocket":
        return not card.pocket
    return len(card.backpack) < BACKPACK_SLOTS


def organize_moves(card: Character) -> tuple[tuple[str, int, str, int], ...]:
    """Every legal organizing move as ``(slot, value, target, target_value)``.

    ``target_value`` 0 moves the die one level up or down into an empty slot; otherwise the two
    dice of adjacent levels swap.
    """
    moves: list[tuple[str, int, str, int]] = []
    distinct = choices(card)
    for slot, value in distinct:
        for target in ("hand", "backpack", "pocket"):
            if abs(LEVEL[target] - LEVEL[slot]) != 1:
                continue
            if room(card, target):
                moves.append((slot, value, target, 0))
            # A swap is listed once, from the upper die, and never between equal values.
            if LEVEL[target] > LEVEL[slot]:
                for other_slot, other_value in distinct:
                    if other_slot == target and other_value != value:
                        moves.append((slot, value, target, other_value))
    return tuple(moves)


def organize(card: Character, slot: str, value: int, target: str, target_value: int) -> Character:
    card = remove(card, slot, value)
    if target_value:
        card = put(remove(card, target, target_value), slot, target_value)
    return replace(put(card, target, value), organized=True)
