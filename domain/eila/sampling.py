"""An Eila state the player could be in, as the view draws the line (see :mod:`domain.eila.view`).

Face down: the upcoming deck's order, except the cards the player put on top by number and the one
a pocket watch put last; the Future and the Past (the player knows which cards went there, not in
what order they lie); the mine's face-down tiles, each of which could be any face-down tile of its
slot's group; and the dice still to be rolled. The numbered decks (blue, red, location, trail) are
looked through by number, so their contents are no secret and stay as they are.
"""

from __future__ import annotations

import msgspec

from domain.core.rng import Chance
from domain.core.sampling import hidden_order, unknown_future
from domain.eila.content import ContentPack
from domain.eila.state import EilaState, MineState


def sample(pack: ContentPack, state: EilaState, seat: str | None, chance: Chance) -> EilaState:
    top = state.known_on_top
    bottom = len(state.upcoming) - state.known_at_bottom
    upcoming = state.upcoming
    if bottom > top:
        middle = hidden_order(upcoming[top:bottom], chance)
        upcoming = (*upcoming[:top], *middle, *upcoming[bottom:])
    return msgspec.structs.replace(
        state,
        upcoming=upcoming,
        future=hidden_order(state.future, chance),
        past=hidden_order(state.past, chance),
        mine=_mine(pack, state, chance),
        rng=unknown_future(chance),
    )


def _mine(pack: ContentPack, state: EilaState, chance: Chance) -> MineState | None:
    if state.mine is None:
        return None
    slots = pack.chapters[state.chapter].mine
    if slots is None:
        return state.mine
    tiles = list(state.mine.tiles)
    groups: dict[str, list[int]] = {}
    for index, slot in enumerate(slots.slots):
        if index not in state.mine.face_up and index < len(tiles):
            groups.setdefault(slot.group, []).append(index)
    for group in sorted(groups):
        down = groups[group]
        for index, tile in zip(down, hidden_order([tiles[i] for i in down], chance), strict=True):
            tiles[index] = tile
    return msgspec.structs.replace(state.mine, tiles=tuple(tiles))
