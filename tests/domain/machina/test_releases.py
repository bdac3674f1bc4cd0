"""Machina's older rulesets play over the pack of their time, and what the rules work out from a
pack (tile shapes, boards) is kept apart per pack."""

from __future__ import annotations

from typing import Any

from domain.games import game_for
from domain.machina.board import shape
from domain.machina.content_load import IN_PLAY


def test_a_tile_keeps_the_shape_of_the_pack_in_play() -> None:
    old: Any = game_for("machina", "machina/2+content.1")
    tile = "orrery-hall"  # its rows changed with content 2
    newest = shape(tile, 1)
    with IN_PLAY.playing(old._pack):
        before = shape(tile, 1)
    assert before.rows != newest.rows
    assert shape(tile, 1) is newest  # each pack's answer remembered apart
    with IN_PLAY.playing(old._pack):
        assert shape(tile, 1) is before


def test_an_old_ruleset_names_its_pack() -> None:
    old: Any = game_for("machina", "machina/2+content.1")
    assert old.folder.name == "1"
    assert old.info.seat_layouts == game_for("machina", "machina/2+content.2").info.seat_layouts
