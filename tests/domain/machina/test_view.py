"""What a seat sees: the table, never a face-down deck or its order."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.machina import GAME
from domain.machina.actions import Explore
from domain.machina.events import MapTilesReturned, Shuffled
from domain.machina.view import MachinaView
from tests.domain.machina.helpers import DUO, at, created, fresh, play


def _strings(data: Any) -> set[str]:
    """Every string value in a view, at any depth."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data))
    return set()


def test_the_view_counts_the_decks_but_never_shows_their_order() -> None:
    state = fresh(DUO)
    for seat in (*DUO, None):
        seen = GAME.view(state, seat)
        assert seen.seat == seat
        assert seen.map_deck_count == len(state.map_deck)
        assert seen.monster_deck_count == len(state.monster_deck)
        assert seen.horror_deck_count == len(state.horror_deck)
        assert seen.item_deck_count == len(state.item_deck)
        assert seen.chapters_left == len(state.chapter_deck)
        shown = _strings(msgspec.to_builtins(seen))
        assert not shown & {*state.map_deck, *state.horror_deck, *state.chapter_deck}
    assert not {
        "map_deck",
        "monster_deck",
        "horror_deck",
        "item_deck",
        "chapter_deck",
        "rng",
    } & set(MachinaView.__struct_fields__)


def test_the_map_shows_the_tiles_and_the_explorers() -> None:
    seen = GAME.view(fresh(DUO), None)
    assert seen.map == ("#..X", "12*.", "...#", "#..S")
    assert (seen.map_x, seen.map_y) == (0, 0)


def test_deck_orders_are_redacted_from_every_viewers_events() -> None:
    state = GAME.initial(created(DUO))
    for event in GAME.setup(state):
        for seat in (*DUO, None):
            seen = GAME.redact(event, seat)
            if isinstance(event, Shuffled):
                assert seen.order == () and seen.count == event.count
            else:
                assert seen == event
    returned = MapTilesReturned(("gatehouse", "cistern"), ("cistern", "gatehouse"), 9)
    assert GAME.redact(returned, "ada") == MapTilesReturned(("gatehouse", "cistern"), (), 9)


def test_the_timeline_tells_a_shuffle_by_its_count_only() -> None:
    state = GAME.initial(created(DUO))
    for event in GAME.setup(state):
        after = GAME.evolve(state, event)
        line = GAME.describe(event, after)
        if isinstance(event, Shuffled):
            assert line is not None and str(event.count) in line
            assert not any(card in line for card in event.order)
        state = after


def test_a_pending_chapter_tile_and_its_places_are_on_the_table() -> None:
    state, _ = play(at(fresh(DUO), "ada", 3, 1), "ada", Explore("e"))
    seen = GAME.view(state, "bram")
    assert seen.phase == "placing" and seen.pending_tile == "orrery-hall"
    assert len(seen.options) == len(state.options) > 0
