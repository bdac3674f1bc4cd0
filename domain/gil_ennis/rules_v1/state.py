"""The state of one journey: both characters' inventories, the worry level, the dream deck and
where the round stands (``phase`` and its ``step``)."""

from __future__ import annotations

import msgspec

from domain.core.rng_unkeyed import UnkeyedRng as Rng

CHARACTERS = ("gil", "ennis")
TOTAL_DICE = 14
BACKPACK_SLOTS = 3
"""The backpack holds up to three dice; the hand and the pocket one each."""


class Character(msgspec.Struct, frozen=True):
    """One character card: its inventory (0 is an empty slot), its insights and whether it has
    organized its supplies this round. The backpack is kept sorted high to low: its slots are
    interchangeable, and a canonical order keeps state hashes and action ids stable."""

    hand: int = 0
    backpack: tuple[int, ...] = ()
    pocket: int = 0
    insights: tuple[str, ...] = ()
    organized: bool = False


class Pledge(msgspec.Struct, frozen=True):
    """A die set aside for one requirement of the dream being paid; spent when all are met."""

    requirement: int
    character: str
    slot: str
    value: int


class GilEnnisState(msgspec.Struct, frozen=True):
    rng: Rng
    seats: tuple[str, ...]
    worry_level: int
    phase: str = "setup"
    step: str = ""
    day: int = 0
    path: str = ""
    gil: Character = Character()
    ennis: Character = Character()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    worries: tuple[str, ...] = ()
    dream: str = ""
    dreamers: tuple[str, ...] = ()
    pledges: tuple[Pledge, ...] = ()
    dreamed: bool = False
    special_used: bool = False
    used_round: tuple[str, ...] = ()
    used_game: tuple[str, ...] = ()
    ready: tuple[str, ...] = ()
    forage: int = 0
    challenge: tuple[int, ...] = ()
    placed: tuple[int, ...] = ()
    result: str = "running"


def character(state: GilEnnisState, name: str) -> Character:
    return state.gil if name == "gil" else state.ennis


def other(name: str) -> str:
    return "ennis" if name == "gil" else "gil"


def with_character(state: GilEnnisState, name: str, card: Character) -> GilEnnisState:
    if name == "gil":
        return msgspec.structs.replace(state, gil=card)
    return msgspec.structs.replace(state, ennis=card)


def worry_dice(level: int) -> tuple[int, ...]:
    """The dice that show ``level`` on the map: sixes, then the remainder (7 is 6 and 1)."""
    sixes, rest = divmod(level - 1, 6)
    return (6,) * sixes + (rest + 1,)


def dice_count(card: Character) -> int:
    return (card.hand > 0) + len(card.backpack) + (card.pocket > 0)


def pool(state: GilEnnisState) -> int:
    """Dice in the pool: the 14 minus those on the map, in inventories, in hand or on Humbaba."""
    on_map = 0 if state.challenge or state.phase == "setup" else len(worry_dice(state.worry_level))
    placed = sum(1 for v in state.placed if v)
    held = dice_count(state.gil) + dice_count(state.ennis) + (state.forage > 0)
    return TOTAL_DICE - on_map - held - len(state.challenge) - placed


def seat_of(state: GilEnnisState, name: str) -> str:
    """The seat that acts for character ``name``."""
    return name if len(state.seats) == 2 else state.seats[0]
