"""Map tile scrolling: the playing area's size, counted in half map tiles.

"As a chapter tile can be up to 5x4 spaces, it is considered half of a map tile when determining
the maximum playing area (2x2 map tiles). This means that 1 map tile can be expanded with 2 chapter
tiles before the playing area will be scrolled."
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.machina.actions import Explore
from domain.machina.board import board_of
from domain.machina.content_load import CONTENT
from domain.machina.events import TilePlaced, TileScrolled
from domain.machina.rules.chapters import placement_options
from domain.machina.state import Effect, MachinaState
from tests.domain.machina.helpers import (
    SOLO,
    actions,
    at,
    fresh,
    in_chapter,
    of_type,
    play,
    tile,
    with_tiles,
)


def _block(state: MachinaState) -> MachinaState:
    """Four map tiles in a 2x2 block: the largest playing area."""
    return with_tiles(
        state,
        tile("gatehouse", 0, 0, order=0),
        tile("boiler-yard", 4, 0, order=1),
        tile("pipe-gallery", 0, 4, order=2),
        tile("cold-foundry", 4, 4, order=3),
    )


def test_the_playing_area_holds_2x2_map_tiles() -> None:
    assert CONTENT.ruleset.area_halves == 8
    assert board_of(_block(fresh(SOLO)).tiles).halves() == 8


def test_a_fifth_map_tile_scrolls_the_farthest_tile_nobody_stands_on_away() -> None:
    state = in_chapter(_block(fresh(SOLO)), "clock")
    state = at(state, "ada", 1, 0)  # on the Gatehouse's north edge
    deck = state.map_deck
    state, events = play(state, "ada", Explore("n"))
    assert of_type(events, TileScrolled) == [TileScrolled(3, "cold-foundry")]
    placed = of_type(events, TilePlaced)[0]
    assert (placed.tile, placed.x, placed.y) == (deck[0], 0, -4)
    assert state.map_deck == (*deck[1:], "cold-foundry")  # under the map tile deck
    assert board_of(state.tiles).halves() == 8


def test_a_chapter_tile_counts_as_half_a_map_tile() -> None:
    state = with_tiles(
        fresh(SOLO),
        tile("gatehouse", 0, 0, order=0),
        tile("boiler-yard", 4, 0, order=1),
        tile("pipe-gallery", 0, 4, order=2),
        tile("orrery-hall", 4, 4, order=3),
    )
    assert board_of(state.tiles).halves() == 7


def test_the_room_of_one_map_tile_takes_two_chapter_tiles_before_the_area_scrolls() -> None:
    # three map tiles and one chapter tile: a second chapter tile still fits ...
    state = in_chapter(fresh(SOLO), "clock")
    state = with_tiles(
        state,
        tile("gatehouse", 0, 0, order=0),
        tile("boiler-yard", 4, 0, order=1),
        tile("pipe-gallery", 0, 4, order=2),
        tile("orrery-hall", 4, 4, order=3),
    )
    state = at(state, "ada", 1, 1)
    options = placement_options(state, "clock-chamber")
    assert options and all(o.scroll == () for o in options)
    # ... while a fourth map tile makes the area scroll
    state = at(state, "ada", 1, 0)
    state, events = play(state, "ada", Explore("n"))
    assert len(of_type(events, TileScrolled)) == 1


def test_explorers_explore_through_a_chapter_tiles_unexplored_edge() -> None:
    """ "You can use the unexplored edge of some chapter tiles to expand the playing area by
    drawing and placing a new map tile as usual.\""""
    state = in_chapter(with_tiles(fresh(SOLO), tile("orrery-hall")), "clock")
    assert board_of(state.tiles).unexplored(0) == ("s",)
    state = at(state, "ada", 1, 3)  # on the Orrery Hall's south edge
    assert Explore("s") in actions(state)
    top = state.map_deck[0]
    state, events = play(state, "ada", Explore("s"))
    placed = of_type(events, TilePlaced)[0]
    assert (placed.tile, placed.kind, placed.x, placed.y) == (top, "map", 0, 4)


def test_what_prevents_exploring_also_prevents_exploring_through_chapter_tiles() -> None:
    """ "Any effects that prevent explorers from exploring new map tiles also prevents them from
    exploring through the placed chapter tiles.\""""
    state = in_chapter(with_tiles(fresh(SOLO), tile("orrery-hall")), "clock")
    state = at(state, "ada", 1, 3)
    sealed_by_horror = replace(state, horror_effects=(Effect("seal", 0),))
    sealed_by_chapter = replace(state, sealed=True)
    for sealed in (sealed_by_horror, sealed_by_chapter):
        assert not [a for a in actions(sealed) if isinstance(a, Explore)]


def test_an_area_that_cannot_make_room_cannot_be_explored() -> None:
    # every tile of the block has an explorer on it: nothing may scroll away
    state = in_chapter(_block(fresh(("ada", "bram", "cyra", "dov"))), "clock")
    spots = {"ada": (1, 0), "bram": (6, 1), "cyra": (1, 5), "dov": (4, 5)}
    for who, (x, y) in spots.items():
        state = at(state, who, x, y)
    assert not [a for a in actions(state) if isinstance(a, Explore)]
