"""Chapter tiles: flipping the current chapter, and where a revealed chapter tile goes.

"Usually, when you go to the next chapter, you flip the current chapter card and place it on the
top section of the chapter board. Now, if that flipped chapter reveals a chapter tile, it will be
added to the play area instead."
"""

from __future__ import annotations

from domain.machina import GAME
from domain.machina.actions import Attack, Exit, Explore, PlaceTile
from domain.machina.board import OPPOSITE, board_of, shape
from domain.machina.content_load import CONTENT
from domain.machina.events import (
    ChapterBegan,
    ChapterFlipped,
    EndgameBegan,
    MapTilesReturned,
    PlacementOffered,
    TilePlaced,
    TileScrolled,
)
from domain.machina.rules.chapters import placement_options
from domain.machina.state import MachinaState
from tests.domain.machina.helpers import (
    DUO,
    SOLO,
    actions,
    at,
    fresh,
    in_chapter,
    of_type,
    play,
    seeded,
    tile,
    with_monster,
    with_tiles,
)


def _entry(state: MachinaState, order: int) -> tuple[int, int]:
    found = board_of(state.tiles)
    return next(p for p in found.points(order) if found.spaces[p].symbol == "E")


def test_with_no_tiles_in_play_the_flipped_chapter_tile_is_placed_on_its_own() -> None:
    """ "If there are currently no map tiles or chapter tiles in play then place the newly drawn
    chapter tile on its own." (The last explorer's exit has just cleared the play area.)"""
    state = in_chapter(fresh(DUO), "bridge")
    state = at(at(state, "ada", 3, 0), "bram", 1, 1, status="exited", ended=True)
    state, events = play(state, "ada", Exit())
    assert of_type(events, MapTilesReturned)[0].tiles == ("gatehouse",)
    placed = of_type(events, TilePlaced)
    assert [(p.tile, p.x, p.y, p.turns, p.source) for p in placed] == [
        ("clock-chamber", 0, 0, 0, "chapter")
    ]
    assert [t.tile for t in state.tiles] == ["clock-chamber"]
    # "When chapter tile is placed on its own, place explorers on top or adjacent to an
    # illustrated entry token."
    entry = _entry(state, placed[0].order)
    spots = sorted(abs(e.x - entry[0]) + abs(e.y - entry[1]) for e in state.explorers)
    assert spots == [0, 1]
    assert all(e.status == "map" for e in state.explorers)
    assert of_type(events, ChapterBegan)[0].chapter == "clock"


def _explored_east(seats: tuple[str, ...] = SOLO) -> MachinaState:
    """The Gatehouse chapter, with Ada just past exploring east: the chapter is complete."""
    state = at(fresh(seats), "ada", 3, 1)
    state, _ = play(state, "ada", Explore("e"))
    return state


def test_a_diamond_tile_connects_to_an_unexplored_edge_of_a_map_tile_in_play() -> None:
    """ "Map tile direction symbol (a diamond icon): Connect it to any unexplored edge of any map
    tile in play.\""""
    state = _explored_east()
    assert CONTENT.chapter_tiles["orrery-hall"].symbol == "diamond"
    assert state.phase == "placing" and state.pending == "orrery-hall"
    found = board_of(state.tiles)
    edges = {(t.order, side) for t in found.tiles for side in found.unexplored(t.order)}
    offered = {(o.anchor, o.side) for o in state.options}
    assert offered and offered <= edges
    assert all(found.by_order[o.anchor].kind == "map" for o in state.options)
    # the explorers choose; any seat still in the scenario may
    assert GAME.to_act(state) == ("ada",)
    option = state.options[-1]
    state, events = play(state, "ada", PlaceTile(option.anchor, option.side))
    placed = of_type(events, TilePlaced)[0]
    assert (placed.x, placed.y, placed.turns) == (option.x, option.y, option.turns)
    # turned so that its diamond faces the map tile it connects to
    assert shape("orrery-hall", placed.turns).symbol_side == OPPOSITE[option.side]
    assert option.anchor in board_of(state.tiles).links[placed.order]
    assert state.phase == "explorers" and state.chapter == "orrery"


def test_a_diamond_tile_never_connects_to_a_chapter_tile() -> None:
    state = in_chapter(fresh(SOLO), "clock")
    state = with_tiles(state, tile("orrery-hall", 0, 0), tile("boiler-yard", 5, 0, order=1))
    state = at(state, "ada", 6, 1)
    found = board_of(state.tiles)
    assert found.unexplored(0) == ("s",)  # the Orrery Hall has an unexplored edge of its own
    options = placement_options(state, "clock-chamber")
    assert options and {o.anchor for o in options} == {1}


def test_a_circle_tile_connects_to_the_matching_circle_of_a_chapter_tile_in_play() -> None:
    """ "Chapter tile direction symbol (a circle icon): Connect it to the matching chapter tile
    direction symbol of a chapter tile already in play.\""""
    bridge = CONTENT.chapter_tiles["gear-bridge"]
    assert (bridge.symbol, bridge.symbol_name) == ("circle", "alpha")
    circles = CONTENT.chapter_tiles["orrery-hall"].circles
    assert [(c.name, c.side) for c in circles] == [("alpha", "e")]
    state = in_chapter(fresh(SOLO), "orrery")
    state = with_tiles(state, tile("boiler-yard", -4, 0), tile("orrery-hall", 0, 0, order=1))
    state = with_monster(at(state, "ada", 1, 1), "brass-warden", 1, 2, health=1)
    for seed in range(100):
        after, events = play(seeded(state, seed), "ada", Attack("spanner", 1))
        if of_type(events, TilePlaced):
            break
    else:
        raise AssertionError("no seed in 100 lets the spanner hit")
    assert of_type(events, ChapterFlipped) == [ChapterFlipped("orrery", "play")]
    placed = of_type(events, TilePlaced)[0]
    # against the Orrery Hall's east side, its own circle (west) facing it
    assert (placed.tile, placed.x, placed.y, placed.turns) == ("gear-bridge", 5, 0, 0)
    assert board_of(after.tiles).chapter_group(1) == {1, placed.order}
    assert after.chapter == "bridge"


def test_a_flipped_chapter_without_a_tile_goes_to_the_top_of_the_chapter_board() -> None:
    state = in_chapter(fresh(SOLO), "heart")
    assert not CONTENT.chapter("heart").back_tile
    state = at(state, "ada", 3, 1)
    state, events = play(state, "ada", Explore("e"))
    assert of_type(events, ChapterFlipped) == [ChapterFlipped("heart", "board")]
    assert state.board_top[-1] == "heart"
    assert of_type(events, EndgameBegan)[0].endgame == CONTENT.scenario.endgame.id


def test_a_flipped_chapter_with_a_tile_goes_into_play_instead_of_to_the_board() -> None:
    state = _explored_east()
    assert "gates" not in state.board_top
    option = state.options[0]
    state, _ = play(state, "ada", PlaceTile(option.anchor, option.side))
    assert "orrery-hall" in [t.tile for t in state.tiles]
    assert "gates" not in state.board_top


def test_a_tile_that_can_connect_nowhere_is_placed_on_its_own() -> None:
    """Our reading (RULES_NOTES.md): with no matching symbol in play, the play area is cleared as
    on an exit and the tile goes on its own, the explorers at its entry token."""
    state = in_chapter(fresh(SOLO), "orrery")  # the Orrery Hall is not in play
    state = with_monster(at(state, "ada", 1, 1), "brass-warden", 1, 2, health=1)
    for seed in range(100):
        after, events = play(seeded(state, seed), "ada", Attack("spanner", 1))
        if of_type(events, TilePlaced):
            break
    else:
        raise AssertionError("no seed in 100 lets the spanner hit")
    assert of_type(events, PlacementOffered) == []
    assert [t.tile for t in after.tiles] == ["gear-bridge"]
    ada = after.explorers[0]
    assert (ada.x, ada.y) == _entry(after, after.tiles[0].order)


def test_the_tile_whose_circle_the_next_chapter_tile_needs_never_scrolls_away() -> None:
    """ "Connect it to the matching chapter tile direction symbol of a chapter tile already in
    play": while the Orrery is the chapter, the Gear Bridge comes next and needs the Orrery
    Hall's circle, so the hall stays even after the Warden leaves it, and the bridge connects
    there when the Warden falls (the area is not cleared)."""
    tiles = (
        tile("gatehouse", -4, 0),
        tile("orrery-hall", 0, 0, order=1),
        tile("boiler-yard", -4, 4, order=2),
    )
    state = at(with_tiles(fresh(SOLO), *tiles), "ada", -3, 7)  # the Boiler Yard's south edge
    # In another chapter the hall is one more tile: a third map tile below scrolls it away.
    _, events = play(in_chapter(state, "clock"), "ada", Explore("s"))
    assert [e.tile for e in of_type(events, TileScrolled)] == ["orrery-hall", "gatehouse"]
    orrery = with_monster(in_chapter(state, "orrery"), "brass-warden", -3, 6, health=1)
    assert Explore("s") not in actions(orrery)
    for seed in range(100):
        after, events = play(seeded(orrery, seed), "ada", Attack("spanner", 1))
        if of_type(events, TilePlaced):
            break
    else:
        raise AssertionError("no seed in 100 lets the spanner hit")
    assert not of_type(events, MapTilesReturned)
    placed = of_type(events, TilePlaced)[0]
    assert (placed.tile, placed.x, placed.y) == ("gear-bridge", 5, 0)
    assert after.chapter == "bridge"
