"""The rule sheet's "Things to remember"."""

from __future__ import annotations

from msgspec.structs import replace

from domain.machina import GAME
from domain.machina.actions import Attack, EndTurn, Exit, Explore, Move, PlaceTile
from domain.machina.board import board_of, distance
from domain.machina.content_load import CONTENT
from domain.machina.events import (
    ChapterBegan,
    ChapterFlipped,
    ChapterTileToBoard,
    Exited,
    ExitMarked,
    ExplorerOut,
    HorrorInvoked,
    ItemGained,
    MapTilesReturned,
    MonsterAppeared,
    MonsterBanished,
    Shuffled,
    ThreatRaised,
    TierRaised,
    TilePlaced,
)
from domain.machina.rules.emitter import Emitter
from domain.machina.rules.harm import check_outs
from domain.machina.state import MachinaState
from domain.machina.view import view
from tests.domain.machina.helpers import (
    DUO,
    SOLO,
    actions,
    at,
    end_round,
    fresh,
    in_chapter,
    of_type,
    play,
    seeded,
    tags,
    tile,
    with_monster,
    with_tiles,
)


def _horror_first(state: MachinaState, card: str) -> MachinaState:
    rest = tuple(h for h in state.horror_deck if h != card)
    return replace(state, horror_deck=(card, *rest))


def test_invoking_a_horror_event_raises_the_monster_threat_by_1() -> None:
    """ "Don't forget that invoking a horror event increases the monster threat by 1.\""""
    state = in_chapter(fresh(SOLO), "orrery", horror_rating=4, spawn_rating=6)
    state = _horror_first(state, "the-lost-minute")
    state, events = end_round(state)
    assert of_type(events, HorrorInvoked) == [HorrorInvoked("the-lost-minute")]
    assert of_type(events, ThreatRaised) == [ThreatRaised(1)]
    assert state.threat == 1


def test_a_threat_past_its_track_shuffles_stronger_monsters_into_the_monster_deck() -> None:
    track = CONTENT.ruleset.threat_track
    state = in_chapter(fresh(SOLO), "orrery", horror_rating=4, spawn_rating=6, threat=track)
    state = _horror_first(state, "the-lost-minute")
    state, events = end_round(state)
    assert of_type(events, TierRaised) == [TierRaised(2)]
    shuffled = of_type(events, Shuffled)[-1]
    tier_two = {m.id for m in CONTENT.monsters.values() if m.tier == 2}
    assert shuffled.deck == "monster" and tier_two <= set(shuffled.order)
    assert (state.tier, state.threat) == (2, 0)


def test_a_unit_placed_on_an_action_space_stands_on_the_nearest_passable_space() -> None:
    """ "If you would spawn or place a unit on an impassable map space (for example on any action
    space), choose the nearest unoccupied and passable space from that map space.\""""
    state = at(fresh(SOLO), "ada", 3, 1)
    state, _ = play(state, "ada", Explore("e"))
    option = state.options[0]
    state, events = play(state, "ada", PlaceTile(option.anchor, option.side))
    warden = of_type(events, MonsterAppeared)[0]
    assert (warden.card, warden.source) == ("brass-warden", "ability")
    found = board_of(state.tiles)
    orrery = found.labelled("orrery")
    assert orrery is not None and not found.passable(orrery.point)
    assert found.passable((warden.x, warden.y))
    assert distance(orrery.point, (warden.x, warden.y)) == 1


def test_a_monster_spawning_on_a_taken_spawn_point_takes_the_nearest_free_space() -> None:
    state = in_chapter(fresh(SOLO), "clock", spawn_rating=1, horror_rating=6)
    state = with_monster(at(state, "ada", 2, 3), "cog-rat", 3, 3)  # on the Gatehouse's spawn point
    state, events = end_round(state)
    spawned = of_type(events, MonsterAppeared)[0]
    # the first free passable space two steps from 3,3, in reading order
    assert (spawned.x, spawned.y) == (3, 1)


def _bridge(seats: tuple[str, ...] = DUO) -> MachinaState:
    """The Gear Bridge chapter just begun: the Orrery's Warden has fallen."""
    state = in_chapter(fresh(seats), "orrery")
    state = with_tiles(state, tile("boiler-yard", -4, 0), tile("orrery-hall", 0, 0, order=1))
    state = with_monster(at(state, "ada", 1, 1), "brass-warden", 1, 2, health=1)
    for seed in range(100):
        after, events = play(seeded(state, seed), "ada", Attack("spanner", 1))
        if of_type(events, ChapterBegan):
            return after
    raise AssertionError("no seed in 100 lets the spanner hit")


def test_a_space_treated_as_an_exit_token_becomes_passable() -> None:
    """ "When a specific space is treated as an exit token, that space becomes passable (it is not
    an obstacle anymore, units can stand on it). You still need to lose 2 stamina to exit the map
    tile.\""""
    state = _bridge()
    assert state.chapter == "bridge"
    found = board_of(state.tiles)
    gate = found.labelled("far-gate")
    assert gate is not None and gate.point in state.exits
    assert ExitMarked(*gate.point) in [ExitMarked(x, y) for x, y in state.exits]
    assert found.passable(gate.point, state.exits) and not found.passable(gate.point)
    state = at(state, "ada", gate.point[0] - 1, gate.point[1], stamina=3)
    assert Move("e") in actions(state)
    state, _ = play(state, "ada", Move("e"))
    assert Exit() in actions(state)
    tired = at(state, "ada", gate.point[0], gate.point[1], stamina=1)
    assert Exit() not in actions(tired)
    state, events = play(state, "ada", Exit())
    assert of_type(events, Exited) == [Exited("ada", 2)]
    assert state.explorers[0].status == "exited" and state.explorers[0].stamina == 0


def test_the_endgame_cards_come_into_play_and_the_chapter_board_shows_the_endgame() -> None:
    """ "When you enter the endgame, take the endgame cards and place them next to the map and
    chapter tiles in play for easier reference. Chapter board should show the endgame's
    illustration and narrative text.\""""
    state = at(in_chapter(fresh(SOLO), "heart"), "ada", 3, 1)
    state, _ = play(state, "ada", Explore("e"))
    endgame = CONTENT.scenario.endgame
    seen = view(state, "ada")
    assert seen.endgame and [c.id for c in seen.endgame_cards] == [c.id for c in endgame.cards]
    assert seen.chapter is not None
    assert (seen.chapter.title, seen.chapter.text) == (endgame.title, endgame.text)
    assert seen.chapters_left == 0


def _last_one_out() -> tuple[MachinaState, list[object]]:
    state = in_chapter(fresh(DUO), "bridge")
    state = with_tiles(
        state,
        tile("gatehouse", 0, 0),
        tile("orrery-hall", 4, 0, order=1),
        tile("gear-bridge", 9, 0, order=2),
    )
    state = with_monster(state, "cog-rat", 1, 2)
    state = at(at(state, "ada", 3, 0), "bram", 1, 1, status="exited", ended=True)
    state = replace(state, items=tuple(i for i in state.items if i.equipped))  # room for one more
    deck = state.map_deck
    state, events = play(state, "ada", Exit())
    assert state.map_deck[: len(deck)] == deck
    return state, list(events)


def test_when_the_last_surviving_explorer_exits_the_play_area_is_cleared_in_order() -> None:
    """ "When the last surviving explorer exits the map tile: - Banish all monsters from the map and
    chapter tiles in play. - Placed chapter tiles are put on the top section of the chapter board.
    - Placed map tiles are shuffled, and put on the bottom of the map tile deck. - Flip the current
    chapter and resolve the next chapter's «enters play» abilities. - If the flipped chapter is a
    chapter tile, place it in play.\""""
    state, events = _last_one_out()
    names = tags(events)
    assert names.index("monster_banished") < names.index("chapter_tile_to_board")
    assert names.index("chapter_tile_to_board") < names.index("map_tiles_returned")
    assert names.index("map_tiles_returned") < names.index("chapter_flipped")
    assert (
        names.index("chapter_flipped") < names.index("tile_placed") < names.index("chapter_began")
    )
    assert of_type(events, MonsterBanished) == [MonsterBanished(1, "cog-rat")]
    assert [e.tile for e in of_type(events, ChapterTileToBoard)] == ["orrery-hall", "gear-bridge"]
    assert state.board_top[-2:] == ("orrery-hall", "gear-bridge")
    returned = of_type(events, MapTilesReturned)[0]
    assert returned.tiles == ("gatehouse",) and sorted(returned.order) == ["gatehouse"]
    assert state.map_deck[-1] == "gatehouse"
    assert of_type(events, ChapterFlipped) == [ChapterFlipped("bridge", "play")]
    assert [t.tile for t in state.tiles] == ["clock-chamber"]
    # The Clock Chamber's card: 2 count tokens, and 2 more for the second explorer.
    assert of_type(events, ChapterBegan) == [ChapterBegan("clock", 4)]
    # the Clock Chamber's enters play abilities: recover, then each explorer takes an item
    after = names.index("chapter_began")
    assert [e.explorer for e in of_type(events[after:], ItemGained)] == ["ada", "bram"]
    # The round goes on in the Clock Chamber, whose horror rating 4 invokes a horror event: only
    # a monster that appeared after the exit may be in play.
    appeared = {e.monster for e in of_type(events[after:], MonsterAppeared)}
    assert {m.uid for m in state.monsters} <= appeared and 1 not in appeared


def test_the_map_tiles_go_under_the_deck_in_a_shuffled_order() -> None:
    state = in_chapter(fresh(SOLO), "bridge")
    tiles = ("gatehouse", "boiler-yard", "pipe-gallery", "cold-foundry")
    state = with_tiles(
        state, *(tile(t, 4 * (n % 2), 4 * (n // 2), order=n) for n, t in enumerate(tiles))
    )
    state = replace(state, map_deck=tuple(t for t in state.map_deck if t not in tiles))
    state = at(state, "ada", 3, 0)
    orders = set()
    for seed in range(12):
        _, events = play(seeded(state, seed), "ada", Exit())
        returned = of_type(events, MapTilesReturned)[0]
        assert returned.tiles == tiles and sorted(returned.order) == sorted(tiles)
        orders.add(returned.order)
    assert len(orders) > 1


def test_when_the_explorers_left_on_the_map_fall_the_survivors_who_exited_go_on() -> None:
    """Our reading: if every explorer still on the map falls while others have exited, the last
    surviving explorer has exited, and the play area is cleared just the same."""
    state = in_chapter(fresh(DUO), "bridge")
    state = at(at(state, "ada", 1, 1, health=0), "bram", 3, 0, status="exited", ended=True)
    out = Emitter(state)
    check_outs(out)
    assert of_type(out.events, ExplorerOut) == [ExplorerOut("ada")]
    assert out.state.result == "running" and out.state.chapter == "clock"
    assert [e.status for e in out.state.explorers] == ["out", "map"]


def test_the_round_goes_on_after_the_last_explorer_exits() -> None:
    state, events = _last_one_out()
    assert GAME.to_act(state) == ("ada", "bram")  # a new round: the spawn phase has passed
    assert "round_began" in tags(events)
    assert of_type(events, TilePlaced)[0].source == "chapter"
    assert EndTurn() in actions(state)
