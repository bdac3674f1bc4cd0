"""The parts of who is connected that other processes share: kept, merged, expired."""

from __future__ import annotations

from server.presence import Elsewhere, Roster, Seated, decode, encode, merged


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_roster_survives_the_wire_and_garbage_is_refused() -> None:
    roster = Roster((Seated("red", "Ana", 5), Seated("blue", None, 7)), 2)
    assert decode(encode(roster)) == roster
    assert decode(b"\xc1 not msgpack") is None
    assert decode(encode(Roster())) == Roster() and Roster().empty


def test_parts_merge_in_the_order_their_sockets_joined() -> None:
    here = Roster((Seated("red", "Ana", 10), Seated("green", None, 30)), 1)
    there = Roster((Seated("blue", "Bo", 20),), 2)
    everyone = merged([here, there])
    assert [s.seat for s in everyone.seated] == ["red", "blue", "green"]
    assert everyone.spectators == 3


def test_a_part_is_kept_replaced_and_dropped_when_emptied() -> None:
    elsewhere = Elsewhere(clock=Clock())
    part = Roster((Seated("blue", "Bo", 20),))
    assert elsewhere.heard("c1", "p2", part)
    assert not elsewhere.heard("c1", "p2", part), "the same part again changes nothing shown"
    assert elsewhere.parts("c1") == [part] and elsewhere.campaigns() == ["c1"]
    assert elsewhere.heard("c1", "p2", Roster())
    assert elsewhere.parts("c1") == [] and elsewhere.campaigns() == []
    assert not elsewhere.heard("c1", "p3", Roster()), "an empty part unknown before is nothing"


def test_a_part_not_heard_of_for_three_periods_expires() -> None:
    clock = Clock()
    elsewhere = Elsewhere(refresh_s=1.0, clock=clock)
    elsewhere.heard("c1", "p2", Roster((Seated("blue", None, 1),)))
    elsewhere.heard("c1", "p3", Roster(spectators=1))
    clock.now += 2.0
    elsewhere.heard("c1", "p3", Roster(spectators=1))  # p3 refreshed, p2 did not
    assert elsewhere.expire() == []
    clock.now += 1.5
    assert elsewhere.expire() == ["c1"]
    assert elsewhere.parts("c1") == [Roster(spectators=1)]
    clock.now += 3.5
    assert elsewhere.expire() == ["c1"] and elsewhere.campaigns() == []


def test_parts_are_listed_by_process_and_forgotten_with_the_campaign() -> None:
    elsewhere = Elsewhere(clock=Clock())
    elsewhere.heard("c1", "p9", Roster(spectators=9))
    elsewhere.heard("c1", "p1", Roster(spectators=1))
    assert elsewhere.parts("c1") == [Roster(spectators=1), Roster(spectators=9)]
    elsewhere.forget("c1")
    assert elsewhere.parts("c1") == [] and elsewhere.expire() == []
