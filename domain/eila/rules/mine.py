"""Chapter 3's mine: grids, sides and the token's steps.

Grids are numbered (x, y) from the bottom-left grid of the mine; the tile in slot (col, row)
covers x = 2col, 2col + 1 and y = 2row, 2row + 1. Crossing from one grid to the next meets both
grids' sides: a wall blocks, a hidden passage needs a magnifier, a cliff costs 1 Energy or 1 HP
unless Eila has a rope. A face-down tile shows its sides only once flipped, when the token is
about to enter it.
"""

from __future__ import annotations

from domain.eila.actions import Step
from domain.eila.content import ContentPack
from domain.eila.content_types import DIRECTIONS, Mine, MineGrid
from domain.eila.events import EilaEvent, Moved, TileFlipped
from domain.eila.rules.holdings import has_trait
from domain.eila.state import EilaState

MOVES = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}


def mine_of(pack: ContentPack, state: EilaState) -> Mine | None:
    if state.mine is None:
        return None
    return pack.chapters[state.chapter].mine


def slot_at(mine: Mine, x: int, y: int) -> int | None:
    for index, slot in enumerate(mine.slots):
        if (slot.col, slot.row) == (x // 2, y // 2) and x >= 0 and y >= 0:
            return index
    return None


def grid_at(pack: ContentPack, state: EilaState, x: int, y: int) -> MineGrid | None:
    """The grid at (x, y), face up or not; None off the mine."""
    mine = mine_of(pack, state)
    if mine is None or state.mine is None:
        return None
    slot = slot_at(mine, x, y)
    if slot is None:
        return None
    return mine.tiles[state.mine.tiles[slot]].grids[(y % 2) * 2 + x % 2]


def current_grid(pack: ContentPack, state: EilaState) -> MineGrid | None:
    if state.mine is None:
        return None
    return grid_at(pack, state, *state.mine.token)


class Crossing:
    """One step from the token's grid in ``direction``."""

    def __init__(self, pack: ContentPack, state: EilaState, direction: str) -> None:
        assert state.mine is not None
        mine = mine_of(pack, state)
        assert mine is not None
        side = DIRECTIONS.index(direction)
        dx, dy = MOVES[direction]
        x, y = state.mine.token
        self.target = (x + dx, y + dy)
        self.slot = slot_at(mine, *self.target)
        here = grid_at(pack, state, x, y)
        there = grid_at(pack, state, *self.target)
        assert here is not None
        self.exit = here.sides[side]
        self.entry = "" if there is None else there.sides[(side + 2) % 4]
        self.dark = there is not None and there.dark
        self.face_up = self.slot is not None and self.slot in state.mine.face_up
        self.tile = "" if self.slot is None else state.mine.tiles[self.slot]

    def known(self) -> set[str]:
        """The sides the player can see before stepping."""
        return {self.exit, self.entry} if self.face_up else {self.exit}


def _blocked(pack: ContentPack, state: EilaState, sides: set[str]) -> bool:
    return "wall" in sides or ("passage" in sides and not has_trait(pack, state, "magnifier"))


def _costly(pack: ContentPack, state: EilaState, sides: set[str]) -> bool:
    return "cliff" in sides and not has_trait(pack, state, "rope")


def steps(pack: ContentPack, state: EilaState) -> list[Step]:
    """The steps the token may take now (never diagonal, never off the mine)."""
    found: list[Step] = []
    for direction in DIRECTIONS:
        crossing = Crossing(pack, state, direction)
        if crossing.slot is None:
            continue
        sides = crossing.known()
        if _blocked(pack, state, sides):
            continue
        if _costly(pack, state, sides):
            if state.resources.energy > 0:
                found.append(Step(direction, "energy"))
            found.append(Step(direction, "hp"))
        else:
            found.append(Step(direction))
    return found


def step_events(pack: ContentPack, state: EilaState, direction: str, pay: str) -> list[EilaEvent]:
    """Flip a face-down tile about to be entered, then move unless its side turns the token back
    (a wall, a passage without a magnifier, or a cliff not paid for): then the move is not spent.
    """
    crossing = Crossing(pack, state, direction)
    events: list[EilaEvent] = []
    if not crossing.face_up:
        assert crossing.slot is not None
        events.append(TileFlipped(crossing.slot, crossing.tile))
    sides = {crossing.exit, crossing.entry}
    costly = _costly(pack, state, sides)
    if _blocked(pack, state, sides) or (costly and not pay):
        return events
    events.append(Moved(direction, pay if costly else ""))
    return events
