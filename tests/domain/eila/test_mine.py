"""Chapter 3's unique element: the mine, its map tiles, the Eila & Leo token and location events.

A small test mine of four tiles, one per group, so the layout is known:

    y=3  . .  | . .        M3 (face down) | MC (face down, bottom-left grid dark)
    y=2  343 .| . .
         -----+-----
    y=1  D  .#|# .        M1: (0,1) dark, passage north of it; (1,1) wall north of it
    y=0  S 341=|342 .     M2: (2,1) has a wall on its west side; cliff between (1,0) and (2,0)
         x=0 1  2 3
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.eila.events import CardFetched, MineLaidOut, Moved, TileFlipped
from tests.domain.eila.helpers import Json, Table, card, make_game, option
from tests.domain.eila.kit import ITEMS


def tile(tile_id: str, group: str, *grids: Json) -> Json:
    return {"id": tile_id, "group": group, "name": f"Tile {tile_id}", "grids": list(grids)}


MINE: Json = {
    "slots": [
        {"group": "M1", "col": 0, "row": 0, "face_up": True},
        {"group": "M2", "col": 1, "row": 0},
        {"group": "M3", "col": 0, "row": 1},
        {"group": "MC", "col": 1, "row": 1},
    ],
    "start": [0, 0],
    "tiles": [
        tile(
            "M1",
            "M1",
            {"shelter": True},
            {"location": "341", "east": "cliff"},
            {"dark": True, "north": "passage"},
            {"north": "wall"},
        ),
        tile("M2", "M2", {"location": "342"}, {}, {"west": "wall"}, {}),
        tile("M3", "M3", {"location": "343"}, {}, {}, {}),
        tile("MC", "MC", {"dark": True}, {}, {}, {}),
    ],
}


def _table(tmp_path: Path, *effects: Json, requires: Json | None = None, **state: Any) -> Table:
    extra = {"requires": requires} if requires else {}
    three = {
        "chapter": 3,
        "title": "Test mine",
        "prologue": None,
        "goal": {
            "normal": {"submit": {"food": 1}, "hearts": 3},
            "advanced": {"submit": {"food": 1}, "hearts": 3},
        },
        "cards": [
            card("301", "green", option("A", list(effects), **extra), option("B", [])),
            card("302", "green"),
            *(card(n, "location", option("A", [], "return")) for n in ("341", "342", "343")),
        ],
        "mine": MINE,
    }
    table = Table(make_game(tmp_path, [three], items=ITEMS), chapter=3)
    table.state = replace(table.state, **state)
    return table


def _moves(table: Table) -> list[str]:
    return [label for label in table.labels() if label.startswith(("Move", "Stop"))]


def _at(table: Table, x: int, y: int) -> None:
    assert table.state.mine is not None
    mine = replace(table.state.mine, token=(x, y), face_up=(0, 1, 2, 3))
    table.state = replace(table.state, mine=mine)


def test_the_mine_is_set_up_with_m1_face_up_and_the_token_bottom_left(tmp_path: Path) -> None:
    table = _table(tmp_path)
    (laid,) = [e for e in table.events if isinstance(e, MineLaidOut)]
    assert laid.tiles == ("M1", "M2", "M3", "MC")
    mine = table.game.view(table.state, "player").chapter_element_area.mine
    assert mine is not None and mine.token == (0, 0) and (mine.columns, mine.rows) == (4, 4)
    assert [(t.tile, t.face_up) for t in mine.tiles] == [
        ("M1", True),
        ("", False),
        ("", False),
        ("", False),
    ]
    assert {(g.x, g.y) for g in mine.grids} == {(0, 0), (1, 0), (0, 1), (1, 1)}
    # The face-down tiles are hidden from the events a player reads, too.
    redacted = table.game.redact(laid, "player")
    assert isinstance(redacted, MineLaidOut) and redacted.tiles == ()
    assert b"M2" not in msgspec.json.encode(table.game.view(table.state, "player"))


def test_a_move_is_0_to_n_grids_never_diagonal_nor_off_the_mine(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 2}, {"trigger": "location"})
    table.do("A:")
    assert _moves(table) == ["Move north", "Move east", "Stop moving here"]
    table.do("Stop moving here")  # 0 grids; no location number here, nothing triggers
    assert table.state.present == "302"


def test_moving_then_triggering_the_location_event_by_its_number(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 2}, {"trigger": "location"})
    table.do("A:")
    table.do("Move east")
    events = table.do("Stop moving here")
    assert CardFetched("341") in events
    assert table.state.present == "341"  # revealed next, as a red card would be
    table.do("A:")  # back to the location deck
    assert "341" in table.state.location_deck


def test_the_move_ends_after_n_grids(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 1})
    table.do("A:")
    table.do("Move east")
    assert table.state.mine is not None and table.state.mine.token == (1, 0)
    assert table.state.present == "302"


def test_a_cliff_costs_1_energy_or_1_hp_and_flips_the_tile_it_enters(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 2}, hp=3)
    table.give(energy=1)
    table.do("A:")
    table.do("Move east")
    assert _moves(table) == [
        "Move north",
        "Move east, paying 1 Energy at the cliff",
        "Move east, paying 1 HP at the cliff",
        "Move west",
        "Stop moving here",
    ]
    events = table.do("Move east, paying 1 Energy")
    assert events[:2] == [TileFlipped(1, "M2"), Moved("east", "energy")]
    assert table.state.resources.energy == 0


def test_a_cliff_is_free_with_a_rope(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 2}, items=("I03",))
    table.do("A:")
    table.do("Move east")
    assert "Move east" in _moves(table)
    table.do("Move east")
    assert table.state.mine is not None and table.state.mine.token == (2, 0)


def test_a_hidden_passage_needs_a_magnifier(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 3})
    table.do("A:")
    table.do("Move north")
    assert "Move north" not in _moves(table)
    table = _table(tmp_path / "lens", {"move": 3}, items=("I04",))
    table.do("A:")
    table.do("Move north")
    assert "Move north" in _moves(table)


def test_a_wall_cannot_be_passed(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 2})
    _at(table, 1, 1)
    table.do("A:")
    assert _moves(table) == ["Move south", "Move west", "Stop moving here"]


def test_a_wall_met_entering_a_face_down_tile_sends_the_token_back_without_spending_the_move(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path, {"move": 1})
    assert table.state.mine is not None
    table.state = replace(table.state, mine=replace(table.state.mine, token=(1, 1)))
    table.do("A:")
    events = table.do("Move east")
    assert events == [TileFlipped(1, "M2")]
    assert table.state.mine is not None and table.state.mine.token == (1, 1)
    assert table.state.frames[-1].done == 0  # the move is not spent
    assert "Move east" not in _moves(table)  # the wall now shows


def test_a_dark_area_gives_1_fear_on_entering_and_on_passing(tmp_path: Path) -> None:
    table = _table(tmp_path, {"move": 2})
    table.do("A:")
    table.do("Move north")
    assert table.state.resources.fear == 1
    table.do("Move east")  # passed through the dark grid: its Fear was taken on entering
    assert table.state.resources.fear == 1


def test_an_option_needing_a_shelter_is_open_only_on_a_shelter_grid(tmp_path: Path) -> None:
    table = _table(tmp_path, {"gain": "food", "max": 1}, requires={"shelter": True})
    assert table.labels()[0].startswith("A:")
    assert table.state.mine is not None
    table.state = replace(table.state, mine=replace(table.state.mine, token=(1, 0)))
    assert not table.labels()[0].startswith("A:")


def test_a_covered_location_cannot_be_triggered_again(tmp_path: Path) -> None:
    table = _table(tmp_path, {"cover": "location"}, {"trigger": "location"})
    assert table.state.mine is not None
    table.state = replace(table.state, mine=replace(table.state.mine, token=(1, 0)))
    table.do("A:")
    assert table.state.mine is not None and table.state.mine.covered == ("341",)
    assert table.state.present == "302"
    view = table.game.view(table.state, "player").chapter_element_area.mine
    assert view is not None and [g.covered for g in view.grids if g.location == "341"] == [True]
