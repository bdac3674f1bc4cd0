"""Map tile scope: which tiles count as "your map tile" for an effect.

"A chapter tile is considered part of its connected map tile(s). When determining the map tile
scope, chapter tiles connected to one another are considered to be a single chapter tile."
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.machina.actions import EndTurn, UseItem
from domain.machina.board import board_of
from domain.machina.events import ExplorerHit, HorrorInvoked, MonsterWounded
from domain.machina.rules.effects import monsters_in_scope
from domain.machina.state import Item, MachinaState
from tests.domain.machina.helpers import (
    SOLO,
    at,
    fresh,
    in_chapter,
    of_type,
    play,
    tile,
    with_monster,
    with_tiles,
)

# The Boiler Yard, the Orrery Hall east of it, the Gear Bridge east of that (touching the Orrery
# Hall only), and the Cistern south of the Boiler Yard (touching the Boiler Yard only).
YARD, ORRERY, BRIDGE, CISTERN = 0, 1, 2, 3


def _area(state: MachinaState) -> MachinaState:
    return with_tiles(
        state,
        tile("boiler-yard", -4, 0, order=YARD),
        tile("orrery-hall", 0, 0, order=ORRERY),
        tile("gear-bridge", 5, 0, order=BRIDGE),
        tile("cistern", -4, 4, order=CISTERN),
    )


def _with_coil(state: MachinaState) -> MachinaState:
    return replace(state, items=(*state.items, Item("aether-coil", "ada", True, 2)))


def test_a_chapter_tile_is_part_of_the_map_tile_it_connects_to() -> None:
    found = board_of(_area(fresh(SOLO)).tiles)
    assert found.links[ORRERY] == {YARD, BRIDGE}
    assert found.scope(YARD) == {YARD, ORRERY, BRIDGE}
    assert found.scope(CISTERN) == {CISTERN}


def test_connected_chapter_tiles_count_as_one_chapter_tile() -> None:
    found = board_of(_area(fresh(SOLO)).tiles)
    assert found.chapter_group(BRIDGE) == {ORRERY, BRIDGE}
    # the bridge touches no map tile itself, yet belongs to the Boiler Yard through the Orrery
    assert found.scope(BRIDGE) == found.scope(ORRERY) == {YARD, ORRERY, BRIDGE}


def test_a_chapter_tile_belongs_to_every_map_tile_it_connects_to() -> None:
    state = with_tiles(
        fresh(SOLO),
        tile("boiler-yard", -4, 0, order=0),
        tile("orrery-hall", 0, 0, order=1),
        tile("cistern", 5, 0, order=2),
    )
    found = board_of(state.tiles)
    assert found.scope(0) == {0, 1} and found.scope(2) == {1, 2}
    assert found.scope(1) == {0, 1, 2}


def test_a_chapter_tile_with_no_map_tile_is_its_own_map_tile() -> None:
    found = board_of(with_tiles(fresh(SOLO), tile("clock-chamber")).tiles)
    assert found.scope(0) == {0}


def test_an_item_that_hits_your_map_tile_reaches_the_connected_chapter_tiles() -> None:
    state = _with_coil(at(_area(fresh(SOLO)), "ada", -4, 1))  # in the Boiler Yard
    state = with_monster(state, "cog-rat", 6, 1)  # on the Gear Bridge
    state = with_monster(state, "cog-rat", -3, 6)  # in the Cistern: another map tile
    assert monsters_in_scope(state, (-4, 1)) == [1]
    state, events = play(state, "ada", UseItem("aether-coil", ""))
    assert [w.monster for w in of_type(events, MonsterWounded)] == [1]


def test_a_horror_event_on_your_map_tile_counts_monsters_on_connected_chapter_tiles() -> None:
    # Whispering Pipes: each explorer on a map tile with a monster on it is hit once
    state = in_chapter(_area(fresh(SOLO)), "orrery", horror_rating=4, spawn_rating=6)
    state = at(state, "ada", 6, 2)  # on the Gear Bridge
    state = with_monster(state, "cog-rat", -4, 3)  # in a corner of the Boiler Yard
    rest = tuple(h for h in state.horror_deck if h != "whispering-pipes")
    state = replace(state, horror_deck=("whispering-pipes", *rest))
    state, events = play(state, "ada", EndTurn())
    assert of_type(events, HorrorInvoked)[0].card == "whispering-pipes"
    assert of_type(events, ExplorerHit)[0].explorer == "ada"
