"""Map tile scrolling: the playing area's size, counted in half map tiles.

"As a chapter tile can be up to 5x4 spaces, it is considered half of a map tile when determining
the maximum playing area (2x2 map tiles). This means that 1 map tile can be expanded with 2 chapter
tiles before the playing area will be scrolled."
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.machina.actions import Explore
from domain.machina.board import board_of, extent
from domain.machina.content_load import CONTENT
from domain.machina.events import TilePlaced, TileScrolled
from domain.machina.rules.chapters import placement_options
from domain.machina.state import Effect, MachinaState
from tests.domain.machina.helpers import (
    DUO,
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


def test_a_fifth_map_tile_scrolls_the_area_back_into_2x2_map_tiles_farthest_first() -> None:
    """North of a 2x2 block: the farthest tile leaves first, then the one whose leaving ends
    the column of three; what stays is an L of three map tiles."""
    state = in_chapter(_block(fresh(SOLO)), "clock")
    state = at(state, "ada", 1, 0)  # on the Gatehouse's north edge
    deck = state.map_deck
    state, events = play(state, "ada", Explore("n"))
    assert of_type(events, TileScrolled) == [
        TileScrolled(3, "cold-foundry"),
        TileScrolled(2, "pipe-gallery"),
    ]
    placed = of_type(events, TilePlaced)[0]
    assert (placed.tile, placed.x, placed.y) == (deck[0], 0, -4)
    assert state.map_deck == (*deck[1:], "cold-foundry", "pipe-gallery")  # under the deck
    assert extent(state.tiles) == (4, 4)


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
    # three map tiles and one chapter tile: a second chapter tile still fits, beside the first
    # in the room of one map tile ...
    state = in_chapter(fresh(SOLO), "clock")
    state = with_tiles(
        state,
        tile("gatehouse", 0, 0, order=0),
        tile("boiler-yard", 4, 0, order=1),
        tile("pipe-gallery", 0, 4, order=2),
        tile("orrery-hall", 4, 4, order=3),
    )
    state = at(state, "ada", 1, 1)
    options = placement_options(state, "gear-bridge")  # at the Orrery Hall's circle
    assert [(o.anchor, o.side, o.scroll) for o in options] == [(3, "e", ())]
    # ... while a fourth map tile north of the Gatehouse scrolls the row below away
    state = at(state, "ada", 1, 0)
    state, events = play(state, "ada", Explore("n"))
    assert [e.order for e in of_type(events, TileScrolled)] == [3, 2]


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


def test_three_map_tiles_in_a_row_never_stand_the_area_scrolls_into_2x2() -> None:
    """ "The play area may not exceed (2x2 map tiles)": a shape, not only a size. Two map tiles
    in a row and a third explored beyond them would be 12x4 spaces, so the far one scrolls."""
    state = in_chapter(
        with_tiles(fresh(SOLO), tile("gatehouse", 0, 0), tile("boiler-yard", 4, 0, order=1)),
        "clock",
    )
    state = at(state, "ada", 7, 1)  # on the Boiler Yard's east edge
    state, events = play(state, "ada", Explore("e"))
    assert of_type(events, TileScrolled) == [TileScrolled(0, "gatehouse")]
    assert [(t.x, t.y) for t in state.tiles] == [(4, 0), (8, 0)]
    assert extent(state.tiles) == (4, 2)


def test_a_row_of_three_map_tiles_that_cannot_scroll_cannot_be_explored() -> None:
    state = in_chapter(
        with_tiles(fresh(DUO), tile("gatehouse", 0, 0), tile("boiler-yard", 4, 0, order=1)),
        "clock",
    )
    state = at(at(state, "ada", 7, 3), "bram", 1, 1)  # someone on each map tile
    assert Explore("e") not in actions(state)
    assert Explore("s") in actions(state)  # an L of three map tiles fits 2x2


def test_a_chapter_tile_counts_as_half_a_map_tile_in_the_areas_shape() -> None:
    """A map tile and two chapter tiles in a row fill the room of two map tiles; two map tiles
    and a chapter tile in a row are two and a half, so the far map tile scrolls away."""
    state = in_chapter(fresh(SOLO), "clock")
    line = with_tiles(
        state,
        tile("gatehouse", -4, 0),
        tile("orrery-hall", 0, 0, order=1),
        tile("gear-bridge", 5, 0, order=2),
    )
    assert extent(line.tiles) == (4, 2)
    row = at(
        with_tiles(state, tile("gatehouse", 0, 0), tile("boiler-yard", 4, 0, order=1)), "ada", 5, 1
    )
    options = placement_options(row, "orrery-hall")
    east = [o for o in options if (o.anchor, o.side) == (1, "e")]
    assert [o.scroll for o in east] == [(0,)]
    south = [o for o in options if (o.anchor, o.side) == (0, "s")]
    assert [o.scroll for o in south] == [()]
