"""Whose agreement a rewind needs: a seat takes back its own last move alone, nothing more."""

from __future__ import annotations

from typing import Any

from domain.core.events import Rewound
from server.campaigns.codec import Recorded
from server.lineage.agreement import own_last_move, people


def recorded(version: int, seat: str | None, *, settled: bool = True, command: str = "c") -> Any:
    return Recorded(version, object(), "h", seat, command, 0, settled)


def test_one_move_of_the_seat_is_its_own_last_move() -> None:
    move = [recorded(5, "gil", settled=False), recorded(6, "gil")]
    assert own_last_move(move, "gil")
    assert not own_last_move(move, "ennis")


def test_two_moves_another_seat_a_bot_or_a_rewind_are_not() -> None:
    assert not own_last_move([recorded(5, "gil"), recorded(6, "gil")], "gil")
    assert not own_last_move([recorded(5, "ennis"), recorded(6, "gil")], "gil")
    assert not own_last_move([recorded(5, "gil", command="bot:search:1:gil@4")], "gil")
    rewind = Recorded(5, Rewound(3), "h", "gil", "c", 0, True)
    assert not own_last_move([rewind], "gil")
    assert not own_last_move([], "gil")


def test_the_people_are_the_seats_no_bot_plays() -> None:
    assert people(("gil", "ennis"), {"ennis"}) == ("gil",)
    assert people(("gil", "ennis"), set()) == ("gil", "ennis")
