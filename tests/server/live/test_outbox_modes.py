"""An outbox's modes: each public call moves it as MOVES allows, and a move MOVES does not allow
raises rather than leaving the outbox in a mode nobody meant."""

from __future__ import annotations

import asyncio

import pytest

from server.live.outbox import MOVES, Drain, Frame, IllegalMove, Mode, Outbox

WAIT_S = 30.0


def frame(text: str) -> Frame:
    return {"type": "websocket.send", "text": text}


class Peer:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.written: list[str] = []

    async def send(self, frame: Frame) -> None:
        self.sent.append(frame["text"])

    def write_now(self, frame: Frame) -> bool:
        self.written.append(frame["text"])
        return True

    async def lagging(self) -> None:
        raise AssertionError("these outboxes never lag")


def outbox(peer: Peer, drain: Drain | None = None) -> Outbox:
    return Outbox(
        peer.send,
        limit=10,
        on_lagging=peer.lagging,
        write_now=peer.write_now if drain else None,
        drain=drain,
    )


def test_every_move_leaves_closed_closed_and_none_leads_out_of_it() -> None:
    # What the session asks once its peer has gone does nothing; the drain never moves a
    # closed outbox.
    calls = ("hold", "release", "defer", "flush", "close")
    assert all(MOVES[move][Mode.CLOSED] is Mode.CLOSED for move in calls)
    assert Mode.CLOSED not in MOVES["queue"] and Mode.CLOSED not in MOVES["turn"]
    # The drain's two moves, which the outbox makes for every frame without looking them up.
    assert MOVES["queue"] == {Mode.OPEN: Mode.QUEUED} and MOVES["turn"] == {Mode.QUEUED: Mode.OPEN}
    assert all(to is not Mode.OPEN for moves in MOVES.values() for to in [moves.get(Mode.CLOSED)])
    # Held and deferred only ever go back to open (or stay closed): never into each other.
    assert MOVES["release"] == {Mode.HELD: Mode.OPEN, Mode.CLOSED: Mode.CLOSED}
    assert MOVES["flush"] == {Mode.DEFERRED: Mode.OPEN, Mode.CLOSED: Mode.CLOSED}
    assert Mode.DEFERRED not in MOVES["hold"] and Mode.HELD not in MOVES["defer"]


async def test_a_hold_and_its_release_and_a_defer_and_its_flush_go_back_to_open() -> None:
    peer = Peer()
    box = outbox(peer)
    box.hold()
    assert box.mode is Mode.HELD
    box.put(frame("update"))
    box.release(frame("welcome"))
    assert box.mode is Mode.OPEN
    await asyncio.wait_for(box.drained(), WAIT_S)
    box.defer()
    assert box.mode is Mode.DEFERRED
    box.put(frame("accepted"))
    await box.flush()
    assert box.mode is Mode.OPEN
    assert peer.sent == ["welcome", "update", "accepted"]


async def test_an_outbox_waiting_for_the_drain_is_queued_until_its_turn() -> None:
    peer = Peer()
    box = outbox(peer, Drain())
    box.put(frame("update"))
    assert box.mode is Mode.QUEUED
    await asyncio.wait_for(box.drained(), WAIT_S)
    assert box.mode is Mode.OPEN and peer.written == ["update"]


@pytest.mark.parametrize(
    ("prepare", "illegal", "mode"),
    [
        ("open", "release", Mode.OPEN),
        ("open", "flush", Mode.OPEN),
        ("hold", "hold", Mode.HELD),
        ("hold", "defer", Mode.HELD),
        ("hold", "flush", Mode.HELD),
        ("defer", "hold", Mode.DEFERRED),
        ("defer", "defer", Mode.DEFERRED),
        ("defer", "release", Mode.DEFERRED),
    ],
)
async def test_a_move_the_mode_does_not_allow_raises_and_leaves_the_mode_as_it_was(
    prepare: str, illegal: str, mode: Mode
) -> None:
    peer = Peer()
    box = outbox(peer)
    if prepare != "open":
        getattr(box, prepare)()
    box.put(frame("waiting"))
    with pytest.raises(IllegalMove) as raised:
        result = getattr(box, illegal)()
        if asyncio.iscoroutine(result):
            await result
    assert (raised.value.move, raised.value.mode) == (illegal, mode)
    assert box.mode is mode
    assert f"cannot {illegal} while {mode.value}" in str(raised.value)
    assert peer.sent == []  # nothing left because of the refused move


async def test_a_closed_outbox_stays_closed_whatever_the_session_asks_on_its_way_out() -> None:
    peer = Peer()
    box = outbox(peer)
    await box.close()
    box.hold()
    box.release(frame("welcome"))
    box.defer()
    box.put(frame("update"))
    await box.flush()
    await box.close()
    assert box.mode is Mode.CLOSED and peer.sent == []


async def test_a_send_failing_while_held_closes_the_outbox_and_its_release_does_nothing() -> None:
    taken, gone = asyncio.Event(), asyncio.Event()

    async def broken(frame: Frame) -> None:
        taken.set()
        await gone.wait()
        raise OSError("the peer went away")

    box = Outbox(broken, limit=10, on_lagging=Peer().lagging)
    box.put(frame("in flight"))
    await asyncio.wait_for(taken.wait(), WAIT_S)  # the pump took its frame ...
    box.hold()
    gone.set()  # ... and fails sending it while the outbox is held
    await asyncio.wait_for(box.drained(), WAIT_S)
    assert box.mode is Mode.CLOSED
    box.release(frame("welcome"))
    assert box.mode is Mode.CLOSED
