"""Putting units on the map: spawning from the monster deck, placing unique monsters and explorers.

Spawning or placing a unit on a space where it cannot stand (an impassable space such as an action
space, or one already taken) puts it on the nearest unoccupied passable space from there instead.
"""

from __future__ import annotations

from domain.machina.board import Point
from domain.machina.content_load import content
from domain.machina.events import ExplorerPlaced, MonsterAppeared, Shuffled
from domain.machina.rules.emitter import Emitter
from domain.machina.state import MachinaState, board, explorer, occupied, on_map


def free_space_near(state: MachinaState, target: Point) -> Point | None:
    """``target`` if a unit can stand there now, else the nearest unoccupied passable space."""
    found = board(state)
    taken = occupied(state)
    return found.nearest(target, lambda p: found.passable(p, state.exits) and p not in taken)


def _top_monster(out: Emitter) -> str | None:
    """The top card of the monster deck, shuffling the discard pile in when the deck is empty."""
    state = out.state
    if not state.monster_deck:
        if not state.monster_discard:
            return None
        chance = out.chance()
        order = chance.shuffled(state.monster_discard)
        out.emit(Shuffled("monster", order, len(order), chance.rng.draws))
    return out.state.monster_deck[0]


def spawn_for(out: Emitter, who: str) -> None:
    """Explorer ``who`` spawns a monster: the top monster card appears on the spawn point nearest
    to them (or, with no spawn point in play, as near to them as it can stand)."""
    state = out.state
    found = board(state)
    standing = explorer(state, who).point
    spawn_point = found.nearest(standing, lambda p: found.spaces[p].symbol == "S")
    point = free_space_near(state, spawn_point or standing)
    if point is None:
        return
    card = _top_monster(out)
    if card is None:
        return
    out.emit(MonsterAppeared(out.state.spawned + 1, card, point[0], point[1], "deck", who))


def weakest(state: MachinaState) -> str | None:
    """The explorer on the map with the least health (the first seat among equals)."""
    here = on_map(state)
    if not here:
        return None
    return min(here, key=lambda e: (e.health, state.seats.index(e.id))).id


def strongest(state: MachinaState) -> str | None:
    """The explorer on the map with the most health (the first seat among equals)."""
    here = on_map(state)
    if not here:
        return None
    return min(here, key=lambda e: (-e.health, state.seats.index(e.id))).id


def place_unique(out: Emitter, monster: str, label: str) -> None:
    """A chapter places a unique monster on the action space ``label`` (or next to it)."""
    space = board(out.state).labelled(label)
    if space is None or monster not in content().monsters:
        return
    point = free_space_near(out.state, space.point)
    if point is not None:
        out.emit(MonsterAppeared(out.state.spawned + 1, monster, point[0], point[1], "ability", ""))


def place_explorers(out: Emitter, entry: Point) -> None:
    """Every surviving explorer, in seat order, on the entry token or as near to it as possible
    (the tiles they stood on have just left play, so only those placed here take room)."""
    found = board(out.state)
    taken = {m.point for m in out.state.monsters}
    for who in out.state.seats:
        if explorer(out.state, who).status == "out":
            continue
        point = found.nearest(
            entry, lambda p: found.passable(p, out.state.exits) and p not in taken
        )
        if point is not None:
            taken.add(point)
            out.emit(ExplorerPlaced(who, point[0], point[1]))
